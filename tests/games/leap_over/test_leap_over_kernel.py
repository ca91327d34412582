"""Leap Over's kernel: apply/undo restore everything, the kept first-jump landings match a fresh count, the kernel
agrees with the front, and the endings (a filled triangle, blocked, the move limit) are decided at the kernel."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ytourney.boards.regions import region
from ytourney.games.api import Color, Move, Termination
from ytourney.games.kernel import DRAW, ONGOING, PASS_ACTION, encode_path
from ytourney.games.leap_over.kernel import BLOCKED, FILLED, LeapOverKernel, tables
from ytourney.games.leap_over.knowledge import knowledge
from ytourney.games.registry import get_game

GAME = get_game("leap-over")
BOARD = GAME.parse_board("kadon")
A5_TRIANGLE = region(BOARD, "side-triangle-2")
M5_TRIANGLE = region(BOARD, "side-triangle-3")
FEW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def n(name: str) -> int:
    node = BOARD.index_of(name)
    assert node is not None
    return node


def kernel(black: str = "", white: str = "", to_move: int = 1, goal: str = "all", max_plies: int = 1000
           ) -> LeapOverKernel:
    k = LeapOverKernel(BOARD, goal, max_plies)
    if black or white:
        k.setup([n(x) for x in black.split()], [n(x) for x in white.split()], to_move)
    return k


def snapshot(k: LeapOverKernel) -> tuple[object, ...]:
    return (k.key(), list(k.cells), k.legal_actions(), k.to_move, k.plies, k.result, k.termination, list(k.reach()))


def fresh_reach(k: LeapOverKernel) -> list[int]:
    occupied = k.masks[1] | k.masks[2]
    return [sum(1 << to for over, to in tables(BOARD).jumps[p] if occupied >> over & 1 and not occupied >> to & 1)
            for p in range(len(k.cells))]


def sparse(rng: random.Random) -> LeapOverKernel:
    nodes = rng.sample(range(len(BOARD.names)), rng.randrange(2, 14))
    cut = rng.randrange(1, len(nodes))
    k = LeapOverKernel(BOARD, rng.choice(["all", "filled"]), rng.randrange(20, 200))
    k.setup(nodes[:cut], nodes[cut:], rng.choice([1, 2]))
    return k


@FEW
@given(seed=st.integers(0, 2**31), setup=st.booleans())
def test_apply_then_undo_restores_the_key_cells_actions_and_landings(seed: int, setup: bool) -> None:
    rng = random.Random(seed)
    k = sparse(rng) if setup else LeapOverKernel(BOARD, "all", 120)
    trail = []
    while k.result == ONGOING:
        before = snapshot(k)
        actions = k.legal_actions()
        assert actions and all(k.is_legal(a) for a in actions) and actions == k.python_actions()
        assert len(set(actions)) == len(actions)
        action = rng.choice(actions)
        k.apply(action)
        assert list(k.reach()) == fresh_reach(k)
        k.undo()
        assert snapshot(k) == before
        trail.append(before)
        if rng.random() < 0.05:
            k.count_swap()
            trail.append(None)
        k.apply(action)
    for before in reversed(trail):
        k.undo()
        assert before is None or snapshot(k) == before


@FEW
@given(seed=st.integers(0, 2**31))
def test_the_kernel_and_the_front_agree_on_moves_and_outcomes(seed: int) -> None:
    rng = random.Random(seed)
    goal = rng.choice(["all", "filled"])
    state = GAME.new_state(BOARD, GAME.parse_rules({"goal": goal, "max_plies": 150}))
    nodes = rng.sample(range(len(BOARD.names)), rng.randrange(4, 20))
    state.set_position(nodes[:len(nodes) // 2], nodes[len(nodes) // 2:])
    k = kernel(goal=goal, max_plies=150)
    k.setup(nodes[:len(nodes) // 2], nodes[len(nodes) // 2:], 1)
    while not state.is_over:
        actions = k.legal_actions()
        assert state.legal_moves() == [state.move_of(a) for a in actions]
        assert [state.action_of(m) for m in state.legal_moves()] == actions
        action = rng.choice(actions)
        state.play(state.move_of(action))
        k.apply(action)
        assert k.cells == state.cells and k.masks == state.kernel.masks  # keys: one kernel kind's own
    assert (k.result, k.termination) == (state.kernel.result, state.outcome.termination)


def test_filling_the_other_triangle_wins_for_the_mover_at_the_kernel() -> None:
    a, c = next((a, c) for (a, b), nexts in sorted(BOARD.continuation_table.items()) for c in nexts
                if a not in M5_TRIANGLE and b in M5_TRIANGLE and c in M5_TRIANGLE)
    k = LeapOverKernel(BOARD, "all", 1000)
    k.setup([x for x in M5_TRIANGLE if x != c] + [a], [n("A5"), n("B5")], 1)
    action = encode_path((a, c))
    assert k.is_legal(action)
    k.apply(action)
    assert (k.result, k.termination, k.legal_actions()) == (int(Color.BLACK), FILLED, [])
    k.undo()
    assert (k.result, k.termination) == (ONGOING, None) and k.is_legal(action)


def test_the_filled_goal_counts_any_stones_with_one_of_the_movers() -> None:
    blocker = M5_TRIANGLE[0]
    black = " ".join(BOARD.names[x] for x in M5_TRIANGLE if x != blocker) + " E6"
    for goal, result in (("all", ONGOING), ("filled", int(Color.BLACK))):
        k = kernel(black, f"{BOARD.names[blocker]} F6", goal=goal)
        k.apply(encode_path((n("E6"), n("G6"))))
        assert k.result == result


def test_a_pass_only_when_no_leap_and_both_blocked_is_a_draw() -> None:
    k = kernel("A1", "E5 F5")
    assert k.legal_actions() == [PASS_ACTION] and k.is_legal(PASS_ACTION)
    k.apply(PASS_ACTION)
    assert k.result == ONGOING and not k.is_legal(PASS_ACTION) and k.to_move == 2
    blocked = kernel("A1", "M5")
    blocked.apply(PASS_ACTION)
    assert (blocked.result, blocked.termination) == (DRAW, BLOCKED)
    blocked.undo()
    assert (blocked.result, blocked.termination, blocked.to_move, blocked.plies) == (ONGOING, None, 1, 0)


def test_the_move_limit_draws_and_the_pie_ply_counts() -> None:
    k = LeapOverKernel(BOARD, "all", 3)
    k.apply(k.legal_actions()[0])
    k.count_swap()
    assert k.plies == 2 and k.to_move == 2 and k.result == ONGOING
    k.apply(k.legal_actions()[0])
    assert (k.result, k.termination) == (DRAW, Termination.MOVE_LIMIT)


def test_is_legal_refuses_any_other_int() -> None:
    k = LeapOverKernel(BOARD, "all", 1000)
    good = encode_path((n("C5"), n("E5")))
    assert k.is_legal(good)
    for junk in (-1, -(2**40), 0, n("C5"), 2**80, 2**80 + 1, good - 1, good + 2, good ^ (1 << 3),
                 encode_path((n("C5"), n("E5")), n("D5")), encode_path((n("C5"), n("E5"), n("C5"))),
                 encode_path((n("C5"),), 4), True, PASS_ACTION):
        assert k.is_legal(junk) is False, junk


def test_the_knowledge_searches_one_chain_per_stone_and_landing() -> None:
    rng = random.Random(3)
    k = LeapOverKernel(BOARD, "all", 1000)
    know = knowledge(BOARD)
    for _ in range(80):
        legal = k.legal_actions()
        searched = know.search_actions(k)
        assert set(searched) <= set(legal)
        ends = [(k.path_of(a)[0], k.path_of(a)[-1]) for a in searched]
        assert sorted(ends) == sorted({(k.path_of(a)[0], k.path_of(a)[-1]) for a in legal})
        before = snapshot(k)
        assert 0.0 <= know.rollout(k, rng, 3) <= 1.0 and snapshot(k) == before
        k.apply(rng.choice(legal))
    assert know.defaults.exploration == 0.5 and know.defaults.playout_plies == 0
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    assert all(isinstance(state.move_of(a), Move) for a in know.search_actions(state.kernel))
    assert know.rollout(state.kernel, rng, 0) == 0.5


def test_the_c_core_lists_the_same_chains_in_the_same_order_as_pure_python() -> None:
    k = LeapOverKernel(BOARD, "all", 1000)
    if k.tables.core() is None:
        pytest.skip("the C core is not built (or YTOURNEY_PURE_PYTHON=1)")
    rng = random.Random(9)
    for _ in range(150):
        nodes = rng.sample(range(len(BOARD.names)), rng.randrange(2, 60))
        cut = rng.randrange(1, len(nodes))
        k.setup(nodes[:cut], nodes[cut:], rng.choice([1, 2]))
        assert k.legal_actions() == k.python_actions()
    k = LeapOverKernel(BOARD, "all", 1000)
    for _ in range(200):
        assert k.legal_actions() == k.python_actions()
        k.apply(rng.choice(k.legal_actions()))
