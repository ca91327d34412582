"""Tetra's kernel: apply then undo restores everything, it agrees with the front on every move and ending, its
legality test takes any int, its endings (figure, move limit, no moves), and the search knowledge on it."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kernel_checks import (
    check_apply_then_undo,
    check_rollout_replays,
    check_winning_action,
    play_random,
)

from ytourney.games.api import SWAP, Color, Termination
from ytourney.games.bitboard import bits
from ytourney.games.kernel import DRAW, NODE_LIMIT, ONGOING, PASS_ACTION, encode_path
from ytourney.games.registry import get_game
from ytourney.games.tetra.kernel import FIGURE, TetraKernel, tables
from ytourney.games.tetra.state import KNOWLEDGE, TetraState

GAME = get_game("tetra")
BOARD = GAME.parse_board("kadon")
TABLES = tables(BOARD, True)
QUICK = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 10_000)


def n(name: str) -> int:
    node = BOARD.index_of(name)
    assert node is not None, name
    return node


def nodes(names: str) -> list[int]:
    return [n(x) for x in names.split()]


def snapshot(k: TetraKernel) -> tuple[object, ...]:
    return (k.key(), k.cells.copy(), k.masks.copy(), k.hand.copy(), k.ones.copy(), k.twos.copy(), k.to_move, k.plies,
            k.result, k.termination, k.win, k.legal_actions())


def random_kernel(seed: int, plies: int, max_plies: int = 1000) -> tuple[TetraKernel, random.Random]:
    """A kernel after up to `plies` random actions (fewer when the game ends first)."""
    rng = random.Random(seed)
    k = TetraKernel(TABLES, max_plies)
    play_random([k], rng, plies)
    return k, rng


@QUICK
@given(SEEDS, st.integers(0, 60), st.integers(1, 30))
def test_apply_then_undo_restores_the_position_its_key_and_its_legal_actions(seed: int, start: int,
                                                                             depth: int) -> None:
    k, rng = random_kernel(seed, start)
    check_apply_then_undo(k, rng, depth, snapshot)
    fresh = TetraKernel.setup(TABLES, 1000, bits(k.masks[1]), bits(k.masks[2]), (k.hand[1], k.hand[2]), k.to_move)
    assert (fresh.ones, fresh.twos) == (k.ones, k.twos)  # the incremental figure counts are the counts


@QUICK
@given(SEEDS, st.booleans(), st.booleans())
def test_kernel_and_front_agree_on_every_move_and_outcome(seed: int, pie: bool, bridge_lines: bool) -> None:
    rules = GAME.parse_rules({"pie": pie, "bridge_lines": bridge_lines, "max_plies": 60})
    state = GAME.new_state(BOARD, rules)
    k = TetraKernel(tables(BOARD, bridge_lines), 60)
    rng = random.Random(seed)
    every = list(range(-3, BOARD.num_cells + 2)) + list(TABLES.steps)
    while not state.is_over:
        legal = k.legal_actions()
        moves = state.legal_moves()
        assert [m for m in moves if m != SWAP] == [state.move_of(a) for a in legal]
        assert {a for a in every if k.is_legal(a)} == set(legal)
        asked = [*legal[:5], *rng.sample(every[3:], 10)]
        assert all(state.is_legal(state.move_of(a)) == k.is_legal(a) for a in asked)
        move = rng.choice(moves)
        state.play(move)
        if move == SWAP:
            k.count_swap()
        else:
            k.apply(state.action_of(move))  # type: ignore[arg-type]
        front = state.kernel  # the C core's kernel where built: its key is its own, its position the same
        assert (k.cells, k.hand, k.plies, k.result, k.termination) == (front.cells, front.hand, front.plies,
                                                                       front.result, front.termination)
        if k.result == ONGOING and not k.hand[k.to_move]:
            assert k.legal_actions()  # no-moves would have ended it
    outcome = state.outcome
    assert outcome is not None and k.legal_actions() == [] and state.legal_moves() == []
    assert outcome.winner == (None if k.result == DRAW else Color(k.result))


@pytest.mark.parametrize("action", [-1, -(1 << 40), 1 << 80, NODE_LIMIT, PASS_ACTION, PASS_ACTION + 1, 3,
                                    encode_path((0, 1, 2)), encode_path((0, 1), 2), encode_path((0, 50)),
                                    encode_path((500, 501))])
def test_is_legal_takes_any_int_and_refuses_what_is_not_a_move_here(action: int) -> None:
    k = TetraKernel.setup(TABLES, 1000, black=nodes("C3"), white=nodes("J8"))
    assert k.is_legal(action) is False
    assert k.is_legal(True) is False and k.is_legal("1") is False  # type: ignore[arg-type]


def test_clone_is_independent_and_undoes_its_own_history() -> None:
    k, rng = next(pair for seed in range(100) if (pair := random_kernel(seed, 30))[0].result == ONGOING)
    copy = k.clone()
    before = snapshot(k)
    copy.apply(rng.choice(copy.legal_actions()))
    copy.undo()
    copy.undo()
    assert snapshot(k) == before and copy.plies == k.plies - 1


def test_a_figure_wins_and_undo_takes_it_back() -> None:
    k = TetraKernel.setup(TABLES, 1000, black=nodes("A1 C1 E1"), white=nodes("A9 C9"), in_hand=(1, 1))
    k.apply(n("G1"))
    assert (k.result, k.termination, k.legal_actions()) == (Color.BLACK, FIGURE, [])
    assert k.win == sum(1 << x for x in nodes("A1 C1 E1 G1"))
    k.undo()
    assert (k.result, k.termination, k.win) == (ONGOING, None, 0) and n("G1") in k.legal_actions()


def test_the_move_limit_is_a_draw_unless_the_last_move_wins() -> None:
    k = TetraKernel.setup(TABLES, 3, black=nodes("A1 C1 E1 G2"), white=nodes("A9"))
    k.plies = 2
    k.apply(encode_path((n("G2"), n("G1"))))
    assert (k.result, k.termination) == (Color.BLACK, FIGURE)
    k.undo()
    k.apply(encode_path((n("G2"), n("G3"))))
    assert (k.result, k.termination) == (DRAW, Termination.MOVE_LIMIT)


def test_a_side_walled_in_loses_by_no_moves() -> None:
    corner = n("A1")
    wall = list(BOARD.neighbors[corner])
    k = TetraKernel.setup(TABLES, 1000, black=[corner], white=[*wall, n("J8")], to_move=Color.WHITE)
    away = next(a for a in k.legal_actions() if TABLES.steps[a][0] == n("J8"))
    k.apply(away)
    assert (k.result, k.termination) == (Color.WHITE, Termination.NO_MOVES)
    state = TetraState.position(GAME, BOARD, GAME.parse_rules(None), [corner], [*wall, n("J8")],
                                to_move=Color.WHITE)
    outcome = state.play(state.move_of(away))
    assert outcome is not None and outcome.reason == "black has no legal move"
    # freeing the corner leaves Black a move
    k.undo()
    k.apply(next(a for a in k.legal_actions() if TABLES.steps[a][0] in wall))
    assert k.result == ONGOING and k.legal_actions()


@QUICK
@given(SEEDS, st.integers(0, 80))
def test_winning_action_is_a_win_exactly_when_one_exists(seed: int, plies: int) -> None:
    k, rng = random_kernel(seed, plies)
    if k.result != ONGOING:
        return
    before = snapshot(k)
    found = check_winning_action(k, KNOWLEDGE, FIGURE)
    assert KNOWLEDGE.urgent_actions(k) == ([] if found is None else [found])
    value, trace = check_rollout_replays(k, KNOWLEDGE, rng, 16, before, snapshot)
    if k.result == ONGOING and len(trace) < 16:
        assert not k.legal_actions() or value in (0.0, 1.0)


@QUICK
@given(SEEDS, st.integers(0, 80))
def test_the_evaluation_weighs_the_figures_each_side_holds_alone(seed: int, plies: int) -> None:
    import math

    k, _ = random_kernel(seed, plies)
    if k.result != ONGOING:  # an evaluation is of a game still going
        return
    weights = (0, 1, 4, 16, 64)
    totals = [0.0, 0.0, 0.0]
    for fig in TABLES.figures:
        black, white = (fig & k.masks[1]).bit_count(), (fig & k.masks[2]).bit_count()
        if not white:
            totals[1] += weights[black]
        if not black:
            totals[2] += weights[white]
    totals[k.to_move] *= 1.5
    expected = 1.0 / (1.0 + math.exp(-(totals[1] - totals[2]) / 24.0))
    assert KNOWLEDGE.evaluate(k) == pytest.approx(expected, abs=1e-12)


def test_a_playout_stops_at_the_move_limit_as_a_draw_and_the_defaults_are_tetras() -> None:
    k = TetraKernel.setup(TABLES, 5, black=nodes("A1"), white=nodes("A9"))
    k.plies = 4
    assert KNOWLEDGE.rollout(k, random.Random(1), 16) == 0.5
    assert (KNOWLEDGE.defaults.exploration, KNOWLEDGE.defaults.playout_plies, KNOWLEDGE.defaults.breadth) == (0.7, 0, 12)
    assert GAME.knowledge(BOARD, GAME.parse_rules(None)) is KNOWLEDGE
    action = KNOWLEDGE.playout_action(k, random.Random(1))
    assert action is not None and k.is_legal(action)
