"""Sexta's kernel: apply then undo restores everything, it agrees with the front on every move and ending, its
legality test takes any int, its endings (a chain, a ring only with `rings`, the move limit, no moves), and the
search knowledge on it."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ytourney.games.api import SWAP, Color, Termination
from ytourney.games.kernel import DRAW, NODE_LIMIT, ONGOING, PASS_ACTION, encode_path
from ytourney.games.registry import get_game
from ytourney.games.sexta.kernel import CHAIN, SextaKernel
from ytourney.games.sexta.state import chain_of
from ytourney.games.slide_tables import core, slide_action, slide_tables

GAME = get_game("sexta")
BOARD = GAME.parse_board("kadon")
RULES = GAME.parse_rules(None)
KNOWLEDGE = GAME.knowledge(BOARD, RULES)
QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 10_000)
WHITE = "A9 I1 M5 J8 K7 L6"


def n(name: str) -> int:
    node = BOARD.index_of(name)
    assert node is not None, name
    return node


def mask(names: str) -> int:
    return sum(1 << n(x) for x in names.split())


def slide(a: str, b: str) -> int:
    return slide_action(n(a), n(b))


def kernel(black: str, white: str = WHITE, to_move: Color = Color.BLACK, **rules: object) -> SextaKernel:
    return SextaKernel(BOARD, GAME.parse_rules(rules), mask(black), mask(white), to_move)


def snapshot(k: SextaKernel) -> tuple[object, ...]:
    return (k.key(), k.cells.copy(), k.masks.copy(), k.to_move, k.plies, k.result, k.termination, k.legal_actions())


def random_kernel(seed: int, plies: int) -> tuple[SextaKernel, random.Random]:
    """The start after up to `plies` random slides, a win in one taken now and then so chains form."""
    rng = random.Random(seed)
    k = GAME.new_state(BOARD, RULES).search_kernel()
    for _ in range(plies):
        if k.result != ONGOING:
            break
        k.apply(rng.choice(k.legal_actions()))
    return k, rng  # type: ignore[return-value]


@QUICK
@given(SEEDS, st.integers(0, 200), st.integers(1, 30))
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
@given(SEEDS, st.integers(0, 200))
def test_the_legal_actions_are_every_slide_along_a_line_once(seed: int, plies: int) -> None:
    k, _ = random_kernel(seed, plies)
    if k.result != ONGOING:
        return
    legal = k.legal_actions()
    assert len(legal) == len(set(legal))
    expected = set()
    for source in range(BOARD.num_cells):
        if k.cells[source] == k.to_move:
            for ray in BOARD.rays[source]:
                for node in ray:
                    if k.cells[node]:
                        break
                    expected.add(slide_action(source, node))
    assert set(legal) == expected
    assert {a for a in slide_tables(BOARD).pairs if k.is_legal(a)} == expected


@QUICK
@given(SEEDS, st.booleans(), st.booleans())
def test_kernel_and_front_agree_on_every_move_and_outcome(seed: int, pie: bool, rings: bool) -> None:
    rules = GAME.parse_rules({"pie": pie, "rings": rings, "max_plies": 150})
    state = GAME.new_state(BOARD, rules)
    knowledge = GAME.knowledge(BOARD, rules)
    k = state.search_kernel()
    rng = random.Random(seed)
    while not state.is_over:
        moves = state.legal_moves()
        assert [m for m in moves if m != SWAP] == [state.move_of(a) for a in k.legal_actions()]
        move = rng.choice(moves)
        if move != SWAP and rng.random() < 0.5 and (win := knowledge.winning_action(k)) is not None:
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
    if k.termination is CHAIN:
        assert chain_of(BOARD, k.cells, k.result, rings) == k.winning_stones() == state.winning_chain


@pytest.mark.parametrize("action", [-1, -(1 << 40), 1 << 80, 0, 5, NODE_LIMIT, PASS_ACTION, PASS_ACTION + 1,
                                    encode_path((0, 1, 2)), encode_path((0, 1), 2), encode_path((500, 501)),
                                    encode_path((0, 0))])
def test_is_legal_takes_any_int_and_refuses_what_is_not_a_slide_here(action: int) -> None:
    k = kernel("B1 C1 D1 E2 F2 A5", "A9 I1 M5 J8 K7 E5")
    assert k.is_legal(action) is False
    assert k.is_legal(True) is False and k.is_legal("1") is False  # type: ignore[arg-type]
    assert k.is_legal(slide("A5", "D5")) and not k.is_legal(slide("A5", "F5"))  # blocked by E5


def test_a_bent_chain_wins_and_undo_takes_it_back() -> None:
    k = kernel("A3 B3 C3 C2 C1 H1")
    k.apply(slide("H1", "D1"))
    assert (k.result, k.termination, k.legal_actions()) == (Color.BLACK, CHAIN, [])
    assert k.winning_stones() == tuple(sorted(n(x) for x in ["A3", "B3", "C3", "C2", "C1", "D1"]))
    k.undo()
    assert (k.result, k.termination, k.to_move) == (ONGOING, None, Color.BLACK)


def test_a_ring_wins_only_with_rings_on_and_three_touching_spoils_a_chain() -> None:
    for rings, result in ((True, Color.BLACK), (False, ONGOING)):
        k = kernel("B2 C2 D3 D4 C4 A3", rings=rings)
        k.apply(slide("A3", "B3"))
        assert k.result == result
    k = kernel("A3 B3 D3 E3 F6 H3")
    k.apply(slide("H3", "F3"))  # F3 joins D3 E3: two groups still
    assert k.result == ONGOING
    k = kernel("A3 B3 C3 D3 C4 H3")
    assert k.is_legal(slide("H3", "E3"))
    k.apply(slide("H3", "E3"))  # one group, but C3 touches B3, D3 and C4
    assert k.result == ONGOING


def test_the_move_limit_is_a_draw_unless_the_last_move_wins() -> None:
    k = kernel("A3 B3 C3 D3 E3 H3", max_plies=20)
    k.plies = 19
    k.apply(slide("H3", "F3"))
    assert (k.result, k.termination) == (Color.BLACK, CHAIN)
    k.undo()
    k.apply(slide("H3", "H4"))
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


def test_winning_action_and_the_one_block() -> None:
    k = kernel("A3 B3 C3 D3 E3 H3")
    assert KNOWLEDGE.winning_action(k) == slide("H3", "F3")
    assert KNOWLEDGE.urgent_actions(k) == [slide("H3", "F3")]
    threat = kernel("A9 I1 M5 J8 K7 L6", "A3 B3 C3 D3 E3 H3")
    blocks = KNOWLEDGE.urgent_actions(threat)
    assert blocks and all(_stops(threat, a) for a in blocks)


def _stops(k: SextaKernel, action: int) -> bool:
    k.apply(action)
    stopped = KNOWLEDGE.winning_action(k) is None
    k.undo()
    return stopped


@QUICK
@given(SEEDS, st.integers(0, 300))
def test_winning_action_is_a_win_exactly_when_one_exists(seed: int, plies: int) -> None:
    k, rng = random_kernel(seed, plies)
    if k.result != ONGOING:
        return
    before = snapshot(k)
    found = KNOWLEDGE.winning_action(k)
    wins = []
    for action in k.legal_actions():
        k.apply(action)
        if k.termination is CHAIN:
            wins.append(action)
        k.undo()
    assert (found is None) == (not wins) and (found is None or found in wins)
    trace: list[int] = []
    value = KNOWLEDGE.rollout(k, rng, 16, trace)
    assert 0.0 <= value <= 1.0 and snapshot(k) == before
    for action in trace:
        assert k.is_legal(action)
        k.apply(action)
    if k.result != ONGOING:
        assert value == (0.5 if k.result == DRAW else float(k.result == Color.BLACK))


def _old_shape(cells: list[int], colour: int) -> float:
    """The shape heuristic as the implementation before the kernels computed it, on sets."""
    stones = [x for x, c in enumerate(cells) if c == colour]
    members = set(stones)
    pairs = 0.0
    for x in stones:
        degree = sum(1 for m in BOARD.neighbors[x] if m in members)
        pairs += min(degree, 2) - max(0, degree - 2)
    largest, seen = 0, set()
    for start in stones:
        if start in seen:
            continue
        group, stack = 1, [start]
        seen.add(start)
        while stack:
            for m in BOARD.neighbors[stack.pop()]:
                if m in members and m not in seen:
                    seen.add(m)
                    stack.append(m)
                    group += 1
        largest = max(largest, group)
    return pairs / 2 + largest - 1


@QUICK
@given(SEEDS, st.integers(0, 300))
def test_the_evaluation_is_the_shape_difference(seed: int, plies: int) -> None:
    k, _ = random_kernel(seed, plies)
    expected = 0.5 + (_old_shape(k.cells, 1) - _old_shape(k.cells, 2)) / 24.0
    assert KNOWLEDGE.evaluate(k) == pytest.approx(expected, abs=1e-12)


@pytest.mark.skipif(core is None, reason="the slide games' C core is not built (or YTOURNEY_PURE_PYTHON=1)")
@QUICK
@given(SEEDS, st.integers(0, 300))
def test_the_c_core_lists_the_slides_as_python_does(seed: int, plies: int) -> None:
    k, _ = random_kernel(seed, plies)
    if k.result != ONGOING:
        return
    py = SextaKernel(BOARD, RULES, k.masks[1], k.masks[2], k.to_move)  # the state's kernel may be the C one
    assert py.legal_actions() == py.python_actions() == k.legal_actions()
    py.to_move = 3 - py.to_move  # the other side's slides too
    assert py.legal_actions() == py.python_actions()
