"""YvY's kernel: apply/undo restores everything, the kernel agrees with the front, and its endings; the knowledge."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from yvy_helpers import build, cell

from ytourney.games.api import PASS, Color, Move, MoveKind, Termination
from ytourney.games.kernel import DRAW, ONGOING, PASS_ACTION, encode_path
from ytourney.games.yvy.game import GAME
from ytourney.games.yvy.geometry import naive_loop
from ytourney.games.yvy.kernel import LOOP, SCORE, YvyKernel
from ytourney.games.yvy.knowledge import YvyKnowledge

QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BLACK, WHITE = 1, 2


def snapshot(kernel: YvyKernel) -> tuple[object, ...]:
    """Everything undo must restore."""
    tracker = kernel.tracker
    return (kernel.key(), kernel.cells.copy(), kernel.legal_actions(), kernel.to_move, kernel.plies, kernel.passes,
            kernel.result, kernel.termination, kernel.score, kernel.loop_at, tracker.parent.copy(),
            tracker.size.copy(), tracker.pattern[1].copy(), tracker.pattern[2].copy())


def random_action(kernel: YvyKernel, rng: random.Random, pass_rate: float) -> int:
    """A random legal action, passing with `pass_rate` (always on a full board)."""
    if rng.random() < pass_rate or not kernel.empties:
        return PASS_ACTION
    return rng.choice(kernel.empties)


@QUICK
@given(st.integers(0, 2**32), st.sampled_from([3, 4, 5, 7]), st.sampled_from([0.0, 0.05, 0.3]))
def test_apply_then_undo_restores_everything(seed: int, size: int, pass_rate: float) -> None:
    rng = random.Random(seed)
    kernel = YvyKernel(GAME.parse_board(f"hex:{size}"), 1000)
    snapshots = []
    while kernel.result == ONGOING:
        snapshots.append(snapshot(kernel))
        if not kernel.plies and rng.random() < 0.5:
            kernel.count_swap()
        else:
            kernel.apply(random_action(kernel, rng, pass_rate))
    twin = kernel.clone()
    while snapshots:
        kernel.undo()
        assert snapshot(kernel) == snapshots.pop()
    assert twin.result != ONGOING and kernel.result == ONGOING  # the clone is independent
    twin.undo()
    assert twin.result == ONGOING


@QUICK
@given(st.integers(0, 2**32), st.sampled_from([3, 4, 5]), st.booleans(), st.sampled_from([1000, 9, 40]))
def test_kernel_and_front_agree(seed: int, size: int, pie: bool, limit: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_state(GAME.parse_board(f"hex:{size}"), GAME.parse_rules({"pie": pie, "max_plies": limit}))
    kernel = state.new_kernel()  # the class the front plays on (the C core when built): keys compare within a class
    while True:
        moves = state.legal_moves()
        actions = kernel.legal_actions()
        assert [m for m in moves if not m.is_swap] == [state.move_of(a) for a in actions]
        assert kernel.key() == state.kernel.key() and kernel.cells == state.cells
        if state.is_over:
            outcome = state.outcome
            assert kernel.result == (DRAW if outcome.winner is None else int(outcome.winner))
            assert kernel.termination is outcome.termination and kernel.score == outcome.score
            break
        move = rng.choice([m for m in moves if m.kind is MoveKind.PLACE] or [PASS]) if rng.random() > 0.1 else PASS
        if move.is_swap:
            kernel.count_swap()
        else:
            kernel.apply(state.action_of(move))
        state.play(move)


def test_is_legal_takes_any_int() -> None:
    kernel = YvyKernel(GAME.parse_board("hex:3"), 1000)
    kernel.apply(5)
    for action in (-1, -(2**70), kernel.n, PASS_ACTION + 1, 2**200, encode_path((1, 2)), encode_path((1,), 3), 5):
        assert not kernel.is_legal(action)
    assert kernel.is_legal(0) and kernel.is_legal(PASS_ACTION)


def test_a_loop_wins_at_once() -> None:
    state = build("hex:4", "e4 e5 d5 c4 c3", "a1 i9 e9")  # White to move: d3 closes the ring round d4
    kernel = state.kernel
    d3 = cell(state.board, "d3")
    assert kernel.closing_cells(WHITE) == [d3] and kernel.closing_cells(BLACK) == []
    kernel.apply(d3)
    assert (kernel.result, kernel.termination, kernel.loop_at) == (WHITE, LOOP, d3)
    assert kernel.legal_actions() == [] and not kernel.is_legal(PASS_ACTION)
    kernel.undo()
    assert kernel.result == ONGOING and kernel.is_legal(d3)


def test_two_passes_count_one_does_not() -> None:
    board = GAME.parse_board("hex:4")
    kernel = YvyKernel.setup(board, black=[], white=[cell(board, "a1")], to_move=BLACK)
    kernel.apply(PASS_ACTION)
    assert kernel.result == ONGOING
    kernel.apply(0 if kernel.cells[0] == 0 else 1)  # a stone between passes: they are not in a row
    kernel.apply(PASS_ACTION)
    assert kernel.result == ONGOING
    kernel.apply(PASS_ACTION)
    assert kernel.termination is SCORE and kernel.score is not None and kernel.count is not None


def test_the_move_limit_draws_and_the_swap_counts() -> None:
    kernel = YvyKernel(GAME.parse_board("hex:5"), 3)
    kernel.apply(0)
    kernel.count_swap()
    assert kernel.plies == 2 and kernel.to_move == BLACK and kernel.result == ONGOING
    kernel.apply(PASS_ACTION)
    assert (kernel.result, kernel.termination) == (DRAW, Termination.MOVE_LIMIT)
    kernel.undo()
    kernel.undo()
    assert kernel.plies == 1 and kernel.to_move == BLACK


def test_the_side_to_move_always_has_a_move() -> None:
    board = GAME.parse_board("hex:3")
    rng = random.Random(5)
    filled = 0
    for _ in range(40):
        kernel = YvyKernel(board, 1000)
        while kernel.result == ONGOING:
            assert kernel.legal_actions()[-1] == PASS_ACTION
            if not kernel.empties:  # a full board without a loop: only the passes and the count are left
                assert kernel.legal_actions() == [PASS_ACTION]
                filled += 1
            kernel.apply(random_action(kernel, rng, 0.0))
        assert kernel.termination in (LOOP, SCORE)
    assert filled


def test_setup_matches_play() -> None:
    state = build("hex:4", "e4 e5 d5 c4", "a1 i9 e9 g3")  # stones to the end: no pass pending
    black = [c for c in range(state.board.num_cells) if state.cells[c] == Color.BLACK]
    white = [c for c in range(state.board.num_cells) if state.cells[c] == Color.WHITE]
    kernel = type(state.kernel).setup(state.board, black, white, to_move=int(state.to_move))
    assert kernel.key() == state.kernel.key() and kernel.legal_actions() == state.kernel.legal_actions()


def test_closes_agrees_with_the_flood_fill() -> None:
    rng = random.Random(11)
    for size in (3, 4):
        board = GAME.parse_board(f"hex:{size}")
        for _ in range(8):
            kernel = YvyKernel(board, 1000)
            while kernel.result == ONGOING and kernel.empties:
                colour = kernel.to_move
                closing = set(kernel.closing_cells(colour))
                for c in kernel.empties:
                    cells = kernel.cells.copy()
                    cells[c] = colour
                    assert (c in closing) == naive_loop(kernel.geo, cells, colour)
                kernel.apply(rng.choice(kernel.empties))


def test_knowledge_urgent_winning_and_rollout() -> None:
    knowledge = GAME.knowledge(GAME.parse_board("hex:4"), GAME.parse_rules(None))
    assert isinstance(knowledge, YvyKnowledge) and knowledge.avoid_pass
    threat = build("hex:4", "a1 i9 e9 g3", "e4 e5 d5 c4 c3")  # White to move; Black threatens d3
    d3 = cell(threat.board, "d3")
    assert knowledge.urgent_actions(threat.kernel) == [d3] and knowledge.winning_action(threat.kernel) is None
    assert PASS_ACTION not in knowledge.search_actions(threat.kernel)
    passed = build("hex:4", "a1", "")  # Black passed: White's pass wins the count
    assert knowledge.urgent_actions(passed.kernel) == [PASS_ACTION] == [knowledge.winning_action(passed.kernel)]
    key = threat.kernel.key()
    trace: list[int] = []
    values = {knowledge.rollout(threat.kernel, random.Random(seed), 400, trace) for seed in range(30)}
    assert values <= {0.0, 0.5, 1.0} and threat.kernel.key() == key and trace
    assert knowledge.rollout(threat.kernel, random.Random(1), 0) == 0.5
    assert [threat.move_of(a) for a in knowledge.urgent_actions(threat.kernel)] == [Move.place(d3)]
