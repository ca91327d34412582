"""Quinta's kernel: apply then undo restores everything, it agrees with the front on every move and ending, its
legality test takes any int, its endings (a line, the move limit, no moves), and the search knowledge on it."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ytourney.games.api import SWAP, Color, Termination
from ytourney.games.kernel import DRAW, NODE_LIMIT, ONGOING, PASS_ACTION, encode_path
from ytourney.games.quinta.kernel import LINE, QuintaKernel, segments
from ytourney.games.quinta.knowledge import WEIGHTS
from ytourney.games.registry import get_game
from ytourney.games.slide_tables import core, slide_action, slide_tables

GAME = get_game("quinta")
BOARD = GAME.parse_board("kadon")
RULES = GAME.parse_rules(None)
KNOWLEDGE = GAME.knowledge(BOARD, RULES)
QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 10_000)


def n(name: str) -> int:
    node = BOARD.index_of(name)
    assert node is not None, name
    return node


def mask(names: str) -> int:
    return sum(1 << n(x) for x in names.split())


def slide(a: str, b: str) -> int:
    return slide_action(n(a), n(b))


def kernel(black: str, white: str, to_move: Color = Color.BLACK, max_plies: int = 1000) -> QuintaKernel:
    return QuintaKernel(BOARD, GAME.rules_class(max_plies=max_plies), mask(black), mask(white), to_move)


def snapshot(k: QuintaKernel) -> tuple[object, ...]:
    return (k.key(), k.cells.copy(), k.masks.copy(), k.to_move, k.plies, k.result, k.termination, k.legal_actions())


def random_kernel(seed: int, plies: int) -> tuple[QuintaKernel, random.Random]:
    """The start after up to `plies` random slides (fewer when the game ends first)."""
    rng = random.Random(seed)
    k = GAME.new_state(BOARD, RULES).search_kernel()
    for _ in range(plies):
        if k.result != ONGOING:
            break
        k.apply(rng.choice(k.legal_actions()))
    return k, rng  # type: ignore[return-value]


def walked_targets(k: QuintaKernel, source: int) -> set[int]:
    """The slides of `source` by walking every ray until a stone: the rule as written."""
    return {node for ray in BOARD.rays[source] for node in _open_prefix(k, ray)}


def _open_prefix(k: QuintaKernel, ray: tuple[int, ...]) -> list[int]:
    out = []
    for node in ray:
        if k.cells[node]:
            break
        out.append(node)
    return out


@QUICK
@given(SEEDS, st.integers(0, 150), st.integers(1, 30))
def test_apply_then_undo_restores_the_position_its_key_and_its_legal_actions(seed: int, start: int,
                                                                             depth: int) -> None:
    k, rng = random_kernel(seed, start)
    before = snapshot(k)
    played = 0
    while k.result == ONGOING and played < depth:
        k.apply(rng.choice(k.legal_actions()))
        if played == 0:
            k.count_swap()
            k.undo()
        played += 1
    for _ in range(played):
        k.undo()
    assert snapshot(k) == before


@QUICK
@given(SEEDS, st.integers(0, 150))
def test_the_legal_actions_are_every_slide_along_a_line_once(seed: int, plies: int) -> None:
    k, _ = random_kernel(seed, plies)
    if k.result != ONGOING:
        return
    legal = k.legal_actions()
    assert len(legal) == len(set(legal))
    expected = {slide_action(s, t) for s in range(BOARD.num_cells) if k.cells[s] == k.to_move
                for t in walked_targets(k, s)}
    assert set(legal) == expected
    assert all(k.is_legal(a) for a in legal)
    pairs = slide_tables(BOARD).pairs
    assert {a for a in pairs if k.is_legal(a)} == expected


@QUICK
@given(SEEDS, st.booleans())
def test_kernel_and_front_agree_on_every_move_and_outcome(seed: int, pie: bool) -> None:
    rules = GAME.parse_rules({"pie": pie, "max_plies": 120})
    state = GAME.new_state(BOARD, rules)
    k = state.search_kernel()
    rng = random.Random(seed)
    while not state.is_over:
        moves = state.legal_moves()
        assert [m for m in moves if m != SWAP] == [state.move_of(a) for a in k.legal_actions()]
        move = rng.choice(moves)
        if move != SWAP and rng.random() < 0.3 and (win := KNOWLEDGE.winning_action(k)) is not None:
            move = state.move_of(win)
        state.play(move)
        if move == SWAP:
            k.count_swap()
        else:
            k.apply(state.action_of(move))  # type: ignore[arg-type]
        assert (k.key(), k.plies, k.result, k.termination) == (state.kernel.key(), state.kernel.plies,
                                                               state.kernel.result, state.kernel.termination)
    outcome = state.outcome
    assert outcome is not None and k.legal_actions() == [] and state.legal_moves() == []
    assert outcome.winner == (None if k.result == DRAW else Color(k.result))
    assert outcome.termination is k.termination


@pytest.mark.parametrize("action", [-1, -(1 << 40), 1 << 80, 0, 5, NODE_LIMIT, PASS_ACTION, PASS_ACTION + 1,
                                    encode_path((0, 1, 2)), encode_path((0, 1), 2), encode_path((500, 501)),
                                    encode_path((0, 0))])
def test_is_legal_takes_any_int_and_refuses_what_is_not_a_slide_here(action: int) -> None:
    k = kernel("A5 A9", "E5 I1")
    assert k.is_legal(action) is False
    assert k.is_legal(True) is False and k.is_legal("1") is False  # type: ignore[arg-type]
    assert k.is_legal(slide("A5", "D5")) and not k.is_legal(slide("A5", "F5"))  # blocked by E5
    assert not k.is_legal(slide("E5", "E4"))  # White's stone, Black to move


def test_clone_is_independent_and_undoes_its_own_history() -> None:
    k, rng = next(pair for seed in range(100) if (pair := random_kernel(seed, 30))[0].result == ONGOING)
    copy = k.clone()
    before = snapshot(k)
    copy.apply(rng.choice(copy.legal_actions()))
    copy.undo()
    copy.undo()
    assert snapshot(k) == before and copy.plies == k.plies - 1


def test_five_in_a_line_through_a_fork_wins_and_undo_takes_it_back() -> None:
    k = kernel("C5 D5 E5 E4 H3", "A9 L4")
    k.apply(slide("H3", "E3"))
    assert (k.result, k.termination, k.legal_actions()) == (Color.BLACK, LINE, [])
    assert set(k.winning_stones()) == {n(x) for x in ["C5", "D5", "E5", "E4", "E3"]}
    assert k.winning_stones() in segments(BOARD)
    k.undo()
    assert (k.result, k.termination, k.to_move) == (ONGOING, None, Color.BLACK)
    assert slide("H3", "E3") in k.legal_actions()


def test_the_move_limit_is_a_draw_unless_the_last_move_wins() -> None:
    k = kernel("A5 B5 C5 D5 E7", "A9 L4", max_plies=3)
    k.plies = 2
    k.apply(slide("E7", "E5"))
    assert (k.result, k.termination) == (Color.BLACK, LINE)
    k.undo()
    k.apply(slide("E7", "E8"))
    assert (k.result, k.termination) == (DRAW, Termination.MOVE_LIMIT)


def test_a_side_walled_in_loses_by_no_moves() -> None:
    corner = n("A1")
    wall = " ".join(BOARD.names[x] for x in BOARD.neighbors[corner])
    k = kernel("A1", f"{wall} J8", to_move=Color.WHITE)
    away = next(a for a in k.legal_actions() if (a >> 10 & 511) - 1 == n("J8"))
    k.apply(away)
    assert (k.result, k.termination) == (Color.WHITE, Termination.NO_MOVES)
    state = GAME.new_state(BOARD, RULES)
    state.set_position([corner], [n(x) for x in f"{wall} J8".split()], Color.WHITE)
    outcome = state.play(state.move_of(away))
    assert outcome is not None and outcome.reason == "black has no legal move"
    k.undo()
    k.apply(next(a for a in k.legal_actions() if (a >> 10 & 511) - 1 in BOARD.neighbors[corner]))
    assert k.result == ONGOING and k.legal_actions()


@QUICK
@given(SEEDS, st.integers(0, 200))
def test_winning_action_is_a_win_exactly_when_one_exists(seed: int, plies: int) -> None:
    k, rng = random_kernel(seed, plies)
    if k.result != ONGOING:
        return
    before = snapshot(k)
    found = KNOWLEDGE.winning_action(k)
    wins = []
    for action in k.legal_actions():
        k.apply(action)
        if k.termination is LINE:
            wins.append(action)
        k.undo()
    assert (found is None) == (not wins) and (found is None or found in wins)
    urgent = KNOWLEDGE.urgent_actions(k)
    assert urgent == [found] if found is not None else set(urgent) <= set(k.legal_actions())
    trace: list[int] = []
    value = KNOWLEDGE.rollout(k, rng, 16, trace)
    assert 0.0 <= value <= 1.0 and snapshot(k) == before
    for action in trace:
        assert k.is_legal(action)
        k.apply(action)
    if k.result != ONGOING:
        assert value == (0.5 if k.result == DRAW else float(k.result == Color.BLACK))


def test_the_one_block_is_urgent() -> None:
    k = kernel("A9 I1 E3", "A5 B5 C5 D5 E8")
    assert KNOWLEDGE.winning_action(k) is None
    blocks = KNOWLEDGE.urgent_actions(k)
    assert blocks and slide("E3", "E5") in blocks
    for action in blocks:
        k.apply(action)
        assert KNOWLEDGE.winning_action(k) is None
        k.undo()
    state = GAME.new_state(BOARD, RULES)
    state.set_position([n(x) for x in ["A9", "I1"]], [n(x) for x in ["A5", "B5", "C5", "D5", "E8"]], Color.WHITE)
    assert KNOWLEDGE.winning_action(state.kernel) is not None
    assert KNOWLEDGE.urgent_actions(state.kernel) == [slide("E8", "E5")]


@QUICK
@given(SEEDS, st.integers(0, 200))
def test_the_evaluation_weighs_the_runs_each_side_holds_alone(seed: int, plies: int) -> None:
    k, _ = random_kernel(seed, plies)
    totals = [0.0, 0.0, 0.0]
    for seg in segments(BOARD):
        black = sum(k.cells[x] == Color.BLACK for x in seg)
        white = sum(k.cells[x] == Color.WHITE for x in seg)
        if not white:
            totals[1] += WEIGHTS[black]
        if not black:
            totals[2] += WEIGHTS[white]
    totals[k.to_move] *= 1.5
    expected = 1.0 / (1.0 + math.exp(-(totals[1] - totals[2]) / 40.0))
    assert KNOWLEDGE.evaluate(k) == pytest.approx(expected, abs=1e-12)


@pytest.mark.skipif(core is None, reason="the slide games' C core is not built (or YTOURNEY_PURE_PYTHON=1)")
@QUICK
@given(SEEDS, st.integers(0, 300))
def test_the_c_core_lists_the_slides_as_python_does(seed: int, plies: int) -> None:
    k, _ = random_kernel(seed, plies)
    if k.result != ONGOING:
        return
    py = QuintaKernel(BOARD, RULES, k.masks[1], k.masks[2], k.to_move)  # the state's kernel may be the C one
    assert py.legal_actions() == py.python_actions() == k.legal_actions()
    py.to_move = 3 - py.to_move  # the other side's slides too
    assert py.legal_actions() == py.python_actions()
