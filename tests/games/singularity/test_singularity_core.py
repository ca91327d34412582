"""Singularity's C core side by side with the pure-Python kernel: the same legal actions in the same order at every
ply of random games, the same endings, cells and stones, apply/undo, any int asked; the same evaluation, win in one
and playouts for a seed; and a state on the C kernel plays, refuses and ends as one on the Python kernel. Skipped
when the core is not built (it is imported directly, so YTOURNEY_PURE_PYTHON=1 runs these too)."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from kernel_checks import play_random

from ytourney.errors import GameOverError, IllegalMoveError, SwapNotAllowedError
from ytourney.games.api import SWAP, Color, Move
from ytourney.games.kernel import NODE_LIMIT, ONGOING, PASS_ACTION, encode_path
from ytourney.games.registry import get_game
from ytourney.games.singularity import core as singularity_core
from ytourney.games.singularity.kernel import SingularityKernel, start_nodes, tables

singcore = pytest.importorskip("ytourney.games.singularity._singcore")

GAME = get_game("singularity")
BOARD = GAME.parse_board("kadon")
KNOWLEDGE = GAME.knowledge(BOARD, GAME.parse_rules(None))
FUSIONS = ("both", "landing", "resting")


def n(name: str) -> int:
    node = BOARD.index_of(name)
    assert node is not None, name
    return node


@functools.cache
def c_tables(fusion: str) -> Any:
    """The core's tables of kadon (built here, so the module's choice of kernel does not matter)."""
    return singularity_core.build_tables(singcore, BOARD, fusion)


def pair(black: list[int], white: list[int], to_move: int = 1, fusion: str = "both",
         max_plies: int = 3000) -> tuple[SingularityKernel, Any]:
    """A Python kernel and a C kernel of the same stones."""
    return (SingularityKernel(BOARD, fusion, max_plies, black, white, to_move),
            singularity_core.new_kernel(BOARD, fusion, max_plies, black, white, to_move, singcore, c_tables(fusion)))


def view(k: Any) -> tuple[object, ...]:
    return (list(k.cells), list(k.masks), list(k.stones), k.to_move, k.plies, k.result, k.termination,
            k.legal_actions())


def crowded(seed: int) -> tuple[SingularityKernel, Any]:
    """A hand-made position crowded round the middle (two central stones a side, several fusions, may happen)."""
    rng = random.Random(seed)
    middle = [c for c in range(BOARD.num_cells) if tables(BOARD, "both").zones[c]] or list(range(BOARD.num_cells))
    central = list(tables(BOARD, "both").central_nodes)
    stones = list(dict.fromkeys(rng.sample(range(BOARD.num_cells), 4) + rng.sample(central, rng.randrange(0, 4))
                                + rng.sample(middle, rng.randrange(3, 16))))
    rng.shuffle(stones)
    cut = rng.randrange(1, len(stones))
    return pair(stones[:cut], stones[cut:], rng.choice((1, 2)), FUSIONS[seed % 3])


def test_random_games_agree_ply_by_ply_and_undo_to_the_start() -> None:
    plies = 0
    for seed in range(8):
        rng = random.Random(seed)
        black, white = start_nodes(BOARD, ("black", "white")[seed % 2])
        py, c = pair(black, white, fusion=FUSIONS[seed % 3], max_plies=(3000, 400)[seed % 2])
        start = view(c)
        key = c.key()
        while True:
            assert view(py) == view(c)
            if py.result != ONGOING:
                break
            action = rng.choice(py.legal_actions())
            assert c.is_legal(action)
            if rng.random() < 0.02:
                py.count_swap()
                c.count_swap()
            py.apply(action)
            c.apply(action)
        assert c.termination is py.termination and c.score is None
        plies += py.plies
        while c.plies:
            c.undo()
        assert view(c) == start and c.key() == key
    assert plies > 2000


@pytest.mark.parametrize("seed", range(60))
def test_crowded_positions_agree_on_every_action_the_evaluation_and_the_win_in_one(seed: int) -> None:
    py, c = crowded(seed)
    assert view(py) == view(c)
    decode = py.t.decode
    assert [a for a in decode if py.is_legal(a)] == [a for a in decode if c.is_legal(a)]
    for colour in (1, 2):
        assert py.has_move(colour) == c.has_move(colour)
    assert KNOWLEDGE.evaluate(py) == KNOWLEDGE.evaluate(c) == c.evaluate()
    assert KNOWLEDGE.winning_action(py) == KNOWLEDGE.winning_action(c)
    for action in py.legal_actions():
        assert py.capture_of(action) == c.capture_of(action)
        before = (view(c), c.key())
        py.apply(action)
        c.apply(action)
        assert view(py) == view(c)
        assert KNOWLEDGE.evaluate(py) == KNOWLEDGE.evaluate(c)
        py.undo()
        c.undo()
        assert (view(c), c.key()) == before


def test_the_win_in_one_and_its_ending() -> None:
    py, c = pair([n("F8"), n("G6")], [n("M5"), n("A1")])
    win = KNOWLEDGE.winning_action(c)
    assert win is not None and win == KNOWLEDGE.winning_action(py)
    assert KNOWLEDGE.urgent_actions(c) == [win]
    c.apply(win)
    assert c.result == Color.BLACK and c.termination.value == "singularity" and c.legal_actions() == []
    assert c.stones == [0, 1, 2] and not c.is_legal(win)
    walled_py, walled = pair([n("A1")], [n("A2"), n("B1"), n("B2"), n("M5")], to_move=2)
    for k in (walled_py, walled):
        k.apply(encode_path((n("M5"), n("L5"))))
    assert walled.result == Color.WHITE and walled.termination.value == "no-moves"
    assert view(walled) == view(walled_py)
    limited_py, limited = pair(*start_nodes(BOARD, "black"), max_plies=1)
    for k in (limited_py, limited):
        k.apply(limited.legal_actions()[0])
    assert limited.result == 0 and limited.termination.value == "move-limit" and view(limited) == view(limited_py)


def test_is_legal_takes_any_object_and_apply_refuses_the_illegal() -> None:
    py, c = pair(*start_nodes(BOARD, "black"))
    s = n("A1")
    junk: list[object] = [-1, -(2**40), 2**64, 2**80, 0, 92, 93, NODE_LIMIT - 1, PASS_ACTION, NODE_LIMIT + 1, True,
                          None, "A1-B2", 1.5, encode_path((s, s)), encode_path((s, 92, 91)), encode_path((s,), 5),
                          encode_path((n("F8"), n("F6")), 0), encode_path((n("F8"), n("F6")), 600),
                          encode_path((s, n("B2")), n("F6")), encode_path((n("B1"), n("B2"))) ^ 1]
    for action in junk:
        assert c.is_legal(action) is False
        if type(action) is int:
            assert py.is_legal(action) is False
        with pytest.raises(ValueError):
            c.apply(action)
    with pytest.raises(IndexError):
        c.undo()
    with pytest.raises(ValueError):
        c.setup([0, 1], [1], 1)
    with pytest.raises(ValueError):
        c.setup([0], [BOARD.num_cells], 1)


def test_the_tables_refuse_malformed_input() -> None:
    good = c_tables("both")
    assert len(good.actions) == len(tables(BOARD, "both").decode)
    with pytest.raises((ValueError, TypeError)):
        singcore.Tables(BOARD.num_cells, [(0, 0, (0,))], [], [()] * BOARD.num_cells, [()] * BOARD.num_cells, (),
                        [0.0] * BOARD.num_cells, 12, 3.0, (None, None, None))
    with pytest.raises((ValueError, TypeError)):
        singcore.Tables(BOARD.num_cells, [(0, 1, (1,))], [], [()] * BOARD.num_cells, [()] * BOARD.num_cells, (),
                        [0.0] * BOARD.num_cells, 12, 3.0, (None, None, None))  # a slide no line lists
    with pytest.raises(ValueError):
        singcore.Tables(0, [], [], [], [], (), [], 12, 3.0, (None, None, None))


@pytest.mark.parametrize("plies", [0, 1, 7, 40, 300])
def test_rollouts_agree_move_for_move_for_a_seed(plies: int) -> None:
    for seed in range(12):
        start_rng = random.Random(seed)
        py, c = (crowded(seed) if seed % 2 else pair(*start_nodes(BOARD, "black"), fusion=FUSIONS[seed % 3]))
        play_random([py, c], start_rng, start_rng.randrange(0, 30))
        before = view(c)
        traces: list[list[int]] = [[], []]
        values = [KNOWLEDGE.rollout(k, random.Random(seed), plies, trace) for k, trace in zip((py, c), traces)]
        assert values[0] == values[1] and traces[0] == traces[1]
        assert len(traces[0]) <= plies and view(c) == before and view(py) == view(c)
        assert KNOWLEDGE.rollout(c, random.Random(seed), plies) == values[0]
        if plies == 0:
            rng = random.Random(seed)
            assert KNOWLEDGE.rollout(c, rng, 0) == KNOWLEDGE.evaluate(c)
            assert rng.random() == random.Random(seed).random()  # nothing drawn
        actions = c.legal_actions()
        if actions:
            assert KNOWLEDGE.playout_action(c, random.Random(seed)) == KNOWLEDGE.playout_action(py, random.Random(seed))


def states(fusion: str = "both", pie: bool = True) -> tuple[Any, Any]:
    """Two states of one game: on the C kernel and on the Python kernel, whatever the module chose."""
    rules = GAME.parse_rules({"pie": pie, "fusion": fusion, "max_plies": 600})
    on_c, on_py = GAME.new_state(BOARD, rules), GAME.new_state(BOARD, rules)
    t = c_tables(fusion)
    if not t.has_moves:
        t.set_moves(tuple(on_c.move_table()[action] for action in t.actions))
    black, white = start_nodes(BOARD, "black")
    on_c.kernel = singularity_core.new_kernel(BOARD, fusion, 600, black, white, 1, singcore, t)
    on_py.kernel = SingularityKernel(BOARD, fusion, 600, black, white)
    return on_c, on_py


@pytest.mark.parametrize("seed", range(4))
def test_a_state_on_the_c_kernel_plays_refuses_and_ends_as_one_on_the_python_kernel(seed: int) -> None:
    on_c, on_py = states(FUSIONS[seed % 3])
    rng = random.Random(seed)
    while not on_py.is_over:
        moves = on_py.legal_moves()
        assert on_c.legal_moves() == moves
        move = rng.choice(moves)
        if rng.random() < 0.1:  # a parsed Move, not one of the lists: the front's path
            parsed = GAME.parse_move(BOARD, GAME.format_move(BOARD, move))
            assert on_c.play(parsed) == on_py.play(parsed)
        else:
            assert on_c.play(move) == on_py.play(move)
        assert on_c.cells == on_py.cells
        if rng.random() < 0.05:
            bad = Move.step(n("F6"), n("A1")) if seed % 2 else Move.step(n("A1"), n("A1"))
            with pytest.raises(IllegalMoveError) as c_error:
                on_c.play(bad)
            with pytest.raises(IllegalMoveError) as py_error:
                on_py.play(bad)
            assert str(c_error.value) == str(py_error.value)
    assert on_c.outcome == on_py.outcome and on_c.outcome is not None
    assert on_c.history == on_py.history
    with pytest.raises(GameOverError):
        on_c.play(moves[0])
    assert on_c.legal_moves() == []


def test_swap_refusals_and_set_positions_on_the_c_kernel() -> None:
    on_c, on_py = states()
    with pytest.raises(SwapNotAllowedError):
        on_c.play(SWAP)
    first = on_c.legal_moves()[0]
    on_c.play(first)
    on_py.play(first)
    assert on_c.legal_moves()[-1] is SWAP and on_c.legal_moves() == on_py.legal_moves()
    on_c.play(SWAP)
    on_py.play(SWAP)
    assert on_c.swapped and on_c.kernel.plies == on_py.kernel.plies == 2
    for state in (on_c, on_py):
        state.set_position([n("F8"), n("G5"), n("E6")], [n("M5")])
    assert on_c.legal_moves() == on_py.legal_moves() and on_c.stones == on_py.stones == [0, 3, 1]
    plain = Move.step(n("F8"), n("F6"))
    with pytest.raises(IllegalMoveError) as c_error:
        on_c.play(plain)
    with pytest.raises(IllegalMoveError) as py_error:
        on_py.play(plain)
    assert str(c_error.value) == str(py_error.value) and "must name the capture" in str(c_error.value)
    copy = on_c.copy()
    named = Move.step(n("F8"), n("F6"), n("G5"))
    assert copy.play(named) is None and copy.cells != on_c.cells
