"""Sexta's kernel: apply then undo restores everything, it agrees with the front on every move and ending, its
legality test takes any int, its endings (a chain, a ring only with `rings`, the move limit, no moves), and the
search knowledge on it."""

from __future__ import annotations

import random

import pytest
import slide_checks
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kernel_checks import (
    check_apply_then_undo,
    check_rollout_replays,
    check_winning_action,
)
from slide_checks import (
    NOT_SLIDES,
    check_front_agrees,
    check_is_legal_refuses,
    check_python_lists_as_the_kernel,
    check_slides_walk_the_rays,
    slide_names,
    snapshot,
)

from ytourney.games.api import Color, Termination
from ytourney.games.kernel import DRAW, ONGOING
from ytourney.games.registry import get_game
from ytourney.games.sexta.kernel import CHAIN, SextaKernel
from ytourney.games.sexta.state import chain_of
from ytourney.games.slide_tables import core

GAME = get_game("sexta")
BOARD = GAME.parse_board("kadon")
RULES = GAME.parse_rules(None)
KNOWLEDGE = GAME.knowledge(BOARD, RULES)
QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 10_000)
WHITE = "A9 I1 M5 J8 K7 L6"


n, mask, slide = slide_names(BOARD)


def kernel(black: str, white: str = WHITE, to_move: Color = Color.BLACK, **rules: object) -> SextaKernel:
    return SextaKernel(BOARD, GAME.parse_rules(rules), mask(black), mask(white), to_move)


def random_kernel(seed: int, plies: int) -> tuple[SextaKernel, random.Random]:
    """The start after up to `plies` random slides (fewer when the game ends first)."""
    return slide_checks.random_kernel(GAME, BOARD, RULES, seed, plies)


@QUICK
@given(SEEDS, st.integers(0, 200), st.integers(1, 30))
def test_apply_then_undo_restores_the_position_its_key_and_its_legal_actions(seed: int, start: int,
                                                                             depth: int) -> None:
    k, rng = random_kernel(seed, start)
    check_apply_then_undo(k, rng, depth, snapshot)


@QUICK
@given(SEEDS, st.integers(0, 200))
def test_the_legal_actions_are_every_slide_along_a_line_once(seed: int, plies: int) -> None:
    k, _ = random_kernel(seed, plies)
    if k.result != ONGOING:
        return
    check_slides_walk_the_rays(k, BOARD)


@QUICK
@given(SEEDS, st.booleans(), st.booleans())
def test_kernel_and_front_agree_on_every_move_and_outcome(seed: int, pie: bool, rings: bool) -> None:
    rules = GAME.parse_rules({"pie": pie, "rings": rings, "max_plies": 150})
    k, state = check_front_agrees(GAME, BOARD, rules, GAME.knowledge(BOARD, rules), seed, 0.5)
    if k.termination is CHAIN:
        assert chain_of(BOARD, k.cells, k.result, rings) == k.winning_stones() == state.winning_chain


@pytest.mark.parametrize("action", NOT_SLIDES)
def test_is_legal_takes_any_int_and_refuses_what_is_not_a_slide_here(action: int) -> None:
    k = kernel("B1 C1 D1 E2 F2 A5", "A9 I1 M5 J8 K7 E5")
    check_is_legal_refuses(k, action, slide)


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
    check_winning_action(k, KNOWLEDGE, CHAIN)
    check_rollout_replays(k, KNOWLEDGE, rng, 16, before, snapshot)


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
    check_python_lists_as_the_kernel(k, SextaKernel, BOARD, RULES)  # the state's kernel may be the C one
