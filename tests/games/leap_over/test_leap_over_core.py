"""Leap Over's C core side by side with the pure-Python kernel: the same chains in the same order at every ply, the
same search actions, evaluations and endings, apply/undo, junk ints refused, the same playouts for a seed, and a
state on the core playing, refusing and listing Moves as one on the Python kernel does (skipped when not built)."""

from __future__ import annotations

import random

import pytest

from ytourney.errors import IllegalMoveError
from ytourney.games.api import PASS, Move, MoveKind
from ytourney.games.front import action_move
from ytourney.games.kernel import ONGOING, PASS_ACTION, encode_path
from ytourney.games.leap_over import ckernel
from ytourney.games.leap_over.kernel import LeapOverKernel
from ytourney.games.leap_over.knowledge import knowledge
from ytourney.games.leap_over.state import LeapOverState
from ytourney.games.registry import get_game

core = pytest.importorskip("ytourney.games.leap_over._leapcore")
if not hasattr(core.Kernel, "race_value"):
    pytest.skip("the C core predates the search's own evaluation: python setup.py build_ext --inplace",
                allow_module_level=True)

GAME = get_game("leap-over")
BOARD = GAME.parse_board("kadon")
TABLES = ckernel.build_tables(core, BOARD)
KNOW = knowledge(BOARD)


def pair(rng: random.Random, sparse: bool) -> tuple[LeapOverKernel, object]:
    """A pure-Python kernel and a C one of the same position (the start, or random stones)."""
    goal = rng.choice(["all", "filled"])
    limit = rng.randrange(30, 300)
    py = LeapOverKernel(BOARD, goal, limit)
    if sparse:
        nodes = rng.sample(range(BOARD.num_cells), rng.randrange(2, 40))
        cut = rng.randrange(1, len(nodes))
        py.setup(nodes[:cut], nodes[cut:], rng.choice([1, 2]))
    return py, ckernel.to_core(py, BOARD, core, TABLES)


def same(py: LeapOverKernel, c: object) -> None:
    assert c.legal_actions() == py.legal_actions() == py.python_actions() or py.result != ONGOING  # type: ignore[attr-defined]
    assert c.cells == py.cells and c.masks == py.masks  # type: ignore[attr-defined]
    assert (c.to_move, c.plies, c.result, c.termination, c.score) == (  # type: ignore[attr-defined]
        py.to_move, py.plies, py.result, py.termination, py.score)


def test_random_games_agree_chain_for_chain() -> None:
    rng = random.Random(11)
    plies = 0
    for game in range(40):
        py, c = pair(rng, sparse=game % 2 == 1)
        keys = []
        while py.result == ONGOING:
            same(py, c)
            actions = py.legal_actions()
            assert c.search_actions() == KNOW.search_actions(py)  # type: ignore[attr-defined]
            assert KNOW.evaluate(c) == KNOW.evaluate(py)  # type: ignore[arg-type]
            assert KNOW.race_value(c) == KNOW.race_value(py)  # type: ignore[arg-type]
            assert all(c.is_legal(a) for a in actions)  # type: ignore[attr-defined]
            keys.append(c.key())  # type: ignore[attr-defined]
            action = rng.choice(actions)
            py.apply(action)
            c.apply(action)  # type: ignore[attr-defined]
            plies += 1
            if rng.random() < 0.05:
                py.count_swap()
                c.count_swap()  # type: ignore[attr-defined]
        same(py, c)
        assert c.legal_actions() == [] and not c.is_legal(PASS_ACTION)  # type: ignore[attr-defined]
        while py.plies > 0:
            py.undo()
            c.undo()  # type: ignore[attr-defined]
            same(py, c)
        assert c.key() == keys[0]  # type: ignore[attr-defined]
    assert plies > 2000


def test_apply_then_undo_restores_the_key_and_a_clone_is_independent() -> None:
    rng = random.Random(5)
    _, c = pair(rng, sparse=False)
    for _ in range(120):
        before = (c.key(), c.cells, c.legal_actions())  # type: ignore[attr-defined]
        action = rng.choice(before[2])
        c.apply(action)  # type: ignore[attr-defined]
        twin = c.clone()  # type: ignore[attr-defined]
        c.undo()  # type: ignore[attr-defined]
        assert (c.key(), c.cells, c.legal_actions()) == before  # type: ignore[attr-defined]
        assert twin.key() != c.key() and twin.plies == c.plies + 1
        twin.undo()
        assert twin.key() == c.key()
        c.apply(action)  # type: ignore[attr-defined]


def test_junk_is_never_legal_and_apply_refuses_it() -> None:
    rng = random.Random(2)
    py, c = pair(rng, sparse=False)
    good = c.legal_actions()[0]  # type: ignore[attr-defined]
    path = py.path_of(good)
    assert path is not None
    junk = [-1, -(2**70), 0, 5, PASS_ACTION, 2**80, 2**80 + 1, 2**2000, good - 1, good + 2, good ^ 8, good << 9,
            encode_path(path, path[0]), encode_path((*path, path[0])), encode_path((path[0],), 4), True, 1.5, "x",
            None, encode_path((path[0], 200))]
    for action in junk:
        assert c.is_legal(action) is False and py.is_legal(action) is False, action  # type: ignore[attr-defined]
        with pytest.raises((ValueError, TypeError)):
            c.apply(action)  # type: ignore[attr-defined]
    for action in range(1 << 20, (1 << 20) + 40960, 7):  # every packed two-node path in a window, legal or not
        assert c.is_legal(action) == py.is_legal(action), action  # type: ignore[attr-defined]
    with pytest.raises(IndexError):
        core.Kernel(TABLES, True, 10, [], []).undo()
    with pytest.raises(ValueError):
        core.Kernel(TABLES, True, 10, [0], [0])


def test_rollouts_play_the_same_chains_and_return_the_same_value() -> None:
    rng = random.Random(7)
    checked = 0
    for game in range(12):
        py, c = pair(rng, sparse=game % 3 == 0)
        for _ in range(rng.randrange(0, 60)):
            if py.result != ONGOING:
                break
            action = rng.choice(py.legal_actions())
            py.apply(action)
            c.apply(action)  # type: ignore[attr-defined]
        for plies in (0, 1, 7, 40, 400):
            seed = rng.randrange(1 << 30)
            traces: list[list[int]] = [[], []]
            values = [KNOW.rollout(k, random.Random(seed), plies, trace)  # type: ignore[arg-type]
                      for k, trace in ((py, traces[0]), (c, traces[1]))]
            assert values[0] == values[1] and traces[0] == traces[1], (seed, plies)
            assert KNOW.rollout(c, random.Random(seed), plies) == values[0]  # type: ignore[arg-type]
            assert len(traces[0]) <= plies and (plies == 0 or py.result != ONGOING or traces[0])
            action = KNOW.playout_action(py, random.Random(seed))
            assert action == KNOW.playout_action(c, random.Random(seed))  # type: ignore[arg-type]
            same(py, c)
            checked += 1
    assert checked == 60


def test_the_move_cache_lists_the_fronts_moves_and_starts_afresh_when_full() -> None:
    rng = random.Random(4)
    cache = core.MoveCache(TABLES, Move, MoveKind.JUMP, PASS, 50)
    roomy = core.MoveCache(TABLES, Move, MoveKind.JUMP, PASS, 1 << 18)
    py, c = pair(rng, sparse=False)
    for _ in range(300):
        if py.result != ONGOING:
            break
        moves = c.legal_moves(cache)  # type: ignore[attr-defined]
        actions = py.legal_actions()
        assert moves == [action_move(a, True) for a in actions] and len(cache) <= 50
        assert moves == c.legal_moves(cache)  # type: ignore[attr-defined]
        kept = c.legal_moves(roomy)  # type: ignore[attr-defined]
        last = c.legal_moves(roomy)  # type: ignore[attr-defined]
        assert kept == moves and all(a is b for a, b in zip(kept, last))
        assert all(cache.move_of(a) == m for a, m in zip(actions, moves))
        assert cache.move_of(PASS_ACTION) is None and cache.move_of(-5) is None
        pick = rng.randrange(len(moves))
        assert not c.play_move(Move.jump(last[pick].path)) or last[pick].is_pass  # type: ignore[attr-defined]
        assert c.play_move(last[pick])  # type: ignore[attr-defined]
        assert not c.play_move(last[pick])  # type: ignore[attr-defined]  # the listing was of the last position
        py.apply(actions[pick])
        same(py, c)


def state_pair() -> tuple[LeapOverState, LeapOverState]:
    rules = GAME.parse_rules({"max_plies": 200, "pie": True})
    states = (GAME.new_state(BOARD, rules), GAME.new_state(BOARD, rules))
    states[0].kernel = LeapOverKernel(BOARD, "all", 200)
    states[1].kernel = ckernel.to_core(states[0].kernel, BOARD)  # type: ignore[arg-type]  # the loaded core
    return states


def test_a_state_on_the_core_plays_refuses_and_ends_as_on_the_python_kernel() -> None:
    if ckernel.core is None:
        pytest.skip("YTOURNEY_PURE_PYTHON=1: states use the Python kernel")
    rng = random.Random(8)
    for _ in range(4):
        py, c = state_pair()
        assert type(GAME.new_state(BOARD, GAME.parse_rules(None)).kernel) is core.Kernel
        while not py.is_over:
            moves = c.legal_moves()
            assert moves == py.legal_moves()
            for bad in (Move.jump((0, 1)), PASS, Move.place(3), Move.jump((0, 2, 0))):
                if not py.is_legal(bad):
                    texts = []
                    for state in (py, c):
                        with pytest.raises(IllegalMoveError) as caught:
                            state.play(bad)
                        texts.append(str(caught.value))
                    assert texts[0] == texts[1] and not c.is_legal(bad)
            move = rng.choice(moves)
            assert c.action_of(move) == py.action_of(move)
            if rng.random() < 0.3:
                move = GAME.parse_move(BOARD, GAME.format_move(BOARD, move))  # a parsed Move: the front's path
            assert py.play(move) == c.play(move)
            assert c.cells == py.cells and c.history == py.history and c.to_move == py.to_move
        assert c.outcome == py.outcome and c.legal_moves() == []
        copy = c.copy()
        assert copy.kernel.key() == c.kernel.key() and copy.cells == c.cells
