"""Quinta's kernel: apply then undo restores everything, it agrees with the front on every move and ending, its
legality test takes any int, its endings (a line, the move limit, no moves), and the search knowledge on it."""

from __future__ import annotations

import math
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
from ytourney.games.quinta.kernel import LINE, QuintaKernel, segments
from ytourney.games.quinta.knowledge import WEIGHTS
from ytourney.games.registry import get_game
from ytourney.games.slide_tables import core

GAME = get_game("quinta")
BOARD = GAME.parse_board("kadon")
RULES = GAME.parse_rules(None)
KNOWLEDGE = GAME.knowledge(BOARD, RULES)
QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 10_000)


n, mask, slide = slide_names(BOARD)


def kernel(black: str, white: str, to_move: Color = Color.BLACK, max_plies: int = 1000) -> QuintaKernel:
    return QuintaKernel(BOARD, GAME.rules_class(max_plies=max_plies), mask(black), mask(white), to_move)


def random_kernel(seed: int, plies: int) -> tuple[QuintaKernel, random.Random]:
    """The start after up to `plies` random slides (fewer when the game ends first)."""
    return slide_checks.random_kernel(GAME, BOARD, RULES, seed, plies)


@QUICK
@given(SEEDS, st.integers(0, 150), st.integers(1, 30))
def test_apply_then_undo_restores_the_position_its_key_and_its_legal_actions(seed: int, start: int,
                                                                             depth: int) -> None:
    k, rng = random_kernel(seed, start)
    check_apply_then_undo(k, rng, depth, snapshot)


@QUICK
@given(SEEDS, st.integers(0, 150))
def test_the_legal_actions_are_every_slide_along_a_line_once(seed: int, plies: int) -> None:
    k, _ = random_kernel(seed, plies)
    if k.result != ONGOING:
        return
    check_slides_walk_the_rays(k, BOARD)


@QUICK
@given(SEEDS, st.booleans())
def test_kernel_and_front_agree_on_every_move_and_outcome(seed: int, pie: bool) -> None:
    rules = GAME.parse_rules({"pie": pie, "max_plies": 120})
    k, state = check_front_agrees(GAME, BOARD, rules, KNOWLEDGE, seed, 0.3)
    assert state.outcome.termination is k.termination


@pytest.mark.parametrize("action", NOT_SLIDES)
def test_is_legal_takes_any_int_and_refuses_what_is_not_a_slide_here(action: int) -> None:
    k = kernel("A5 A9", "E5 I1")
    check_is_legal_refuses(k, action, slide)
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
    found = check_winning_action(k, KNOWLEDGE, LINE)
    urgent = KNOWLEDGE.urgent_actions(k)
    assert urgent == [found] if found is not None else set(urgent) <= set(k.legal_actions())
    check_rollout_replays(k, KNOWLEDGE, rng, 16, before, snapshot)


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
    check_python_lists_as_the_kernel(k, QuintaKernel, BOARD, RULES)  # the state's kernel may be the C one
