"""Quinta's C core against the pure-Python kernel, side by side over seeded random games: the same legal actions in
the same order at every ply, the same endings, cells, masks, winning stones, apply/undo, junk ints; the same
evaluation, win in one, urgent actions, playout slide and rollout (value and slides) for one seed; and the state's
fast path (the core's own Moves). Skipped where the core is not built (it is loaded directly, so
YTOURNEY_PURE_PYTHON=1 runs these too)."""

from __future__ import annotations

import random

import pytest

from ytourney.errors import IllegalMoveError
from ytourney.games.api import Color, Move
from ytourney.games.kernel import DRAW, NODE_LIMIT, ONGOING, PASS_ACTION, encode_path
from ytourney.games.quinta.kernel import LINE, QuintaKernel
from ytourney.games.registry import get_game
from ytourney.games.slide_core import build_tables, to_core
from ytourney.games.slide_tables import slide_action, slide_tables

core = pytest.importorskip("ytourney.games._slidecore")

GAME = get_game("quinta")
BOARD = GAME.parse_board("kadon")
KNOWLEDGE = GAME.knowledge(BOARD, GAME.parse_rules(None))
TABLES = build_tables(core, BOARD, QuintaKernel, QuintaKernel.core_spec(BOARD, None),
                      type(KNOWLEDGE).core_params)
PAIRS = sorted(slide_tables(BOARD).pairs)
JUNK = [-1, -(1 << 40), 1 << 80, 1 << 63, 0, 5, NODE_LIMIT, PASS_ACTION, PASS_ACTION + 1, BOARD.num_cells,
        encode_path((0, 1, 2)), encode_path((0, 1), 2), encode_path((0, 50)), encode_path((500, 501)),
        encode_path((0, 0)), encode_path((0, 1)) + 2, encode_path((0, 1)) | 1 << 40, True, False, 1.0, "1", None]


def same(py: QuintaKernel, c: object) -> None:
    """Every observable of the two kernels agrees."""
    assert c.legal_actions() == py.legal_actions() == (py.python_actions() if py.result == ONGOING else [])
    assert (c.to_move, c.plies, c.result, c.termination, c.score) == (py.to_move, py.plies, py.result,
                                                                     py.termination, py.score)
    assert (c.cells, c.masks, c.limit, c.win_termination) == (py.cells, py.masks, py.limit, py.win_termination)
    assert c.winning_stones() == py.winning_stones()


def start(limit: int, corners: str = "black") -> tuple[QuintaKernel, object]:
    state = GAME.new_state(BOARD, GAME.parse_rules({"max_plies": limit, "corners": corners}))
    py = QuintaKernel(BOARD, state.rules, mask_of(state.cells, 1), mask_of(state.cells, 2), Color.BLACK)
    return py, to_core(py, TABLES, core)


def mask_of(cells: list[int], colour: int) -> int:
    return sum(1 << node for node, c in enumerate(cells) if c == colour)


@pytest.mark.parametrize("seed", range(30))
def test_random_games_agree_ply_by_ply(seed: int) -> None:
    limit = (40, 200, 1000)[seed % 3]
    py, c = start(limit, ("black", "white")[seed % 2])
    rng = random.Random(seed)
    while True:
        same(py, c)
        for action in [*JUNK, *rng.sample(PAIRS, 12), *py.legal_actions()[:6]]:
            assert c.is_legal(action) is py.is_legal(action), action
        assert c.key() == c.clone().key()
        if py.result != ONGOING:
            break
        assert KNOWLEDGE.evaluate(c) == KNOWLEDGE.evaluate(py)
        win = KNOWLEDGE.winning_action(c)
        assert win == KNOWLEDGE.winning_action(py)
        assert KNOWLEDGE.urgent_actions(c) == KNOWLEDGE.urgent_actions(py)
        assert c.win_for(3 - c.to_move) == KNOWLEDGE.win_for(py, 3 - py.to_move)
        draw = rng.getrandbits(32)
        assert KNOWLEDGE.playout_action(c, random.Random(draw)) == KNOWLEDGE.playout_action(py, random.Random(draw))
        py_trace: list[int] = []
        c_trace: list[int] = []
        plies = rng.choice((0, 1, 16, 40))
        assert (KNOWLEDGE.rollout(c, random.Random(draw), plies, c_trace)
                == KNOWLEDGE.rollout(py, random.Random(draw), plies, py_trace))
        assert c_trace == py_trace
        if rng.random() < 0.2:  # a short excursion with a pie ply, taken back
            c.count_swap()
            py.count_swap()
            for action in py.legal_actions()[:3]:
                py.apply(action)
                c.apply(action)
                same(py, c)
                py.undo()
                c.undo()
            py.undo()
            c.undo()
            same(py, c)
        action = win if win is not None and rng.random() < 0.3 else rng.choice(py.legal_actions())
        py.apply(action)
        c.apply(action)


def test_the_rollouts_agree_on_many_seeds_from_the_start() -> None:
    py, c = start(1000)
    values = set()
    for seed in range(300):
        py_trace: list[int] = []
        c_trace: list[int] = []
        value = KNOWLEDGE.rollout(c, random.Random(seed), 16, c_trace)
        assert value == KNOWLEDGE.rollout(py, random.Random(seed), 16, py_trace) and c_trace == py_trace
        values.add(value)
    same(py, c)
    assert len(values) > 50


def test_a_stuck_stone_is_dropped_from_the_draw_alike() -> None:
    n = BOARD.index_of
    corner = n("A1")
    wall = [*BOARD.neighbors[corner]]
    py = QuintaKernel(BOARD, GAME.parse_rules(None), 1 << corner | 1 << n("E5"), sum(1 << w for w in wall) | 1 << n("J8"))
    c = to_core(py, TABLES, core)
    for seed in range(50):
        assert (KNOWLEDGE.playout_action(c, random.Random(seed)) == KNOWLEDGE.playout_action(py, random.Random(seed))
                != slide_action(corner, wall[0]))
        assert KNOWLEDGE.rollout(c, random.Random(seed), 16) == KNOWLEDGE.rollout(py, random.Random(seed), 16)


def test_apply_refuses_an_illegal_action_and_undo_an_empty_stack() -> None:
    _, c = start(1000)
    with pytest.raises(ValueError):
        c.apply(encode_path((0, 1)) + 2)
    with pytest.raises(IndexError):
        c.undo()
    with pytest.raises(ValueError):
        core.Kernel(TABLES, 10, 1, 1)  # a node holding both colours


def test_the_state_plays_the_cores_own_moves_and_refuses_as_before() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules({"pie": True}))
    moves = state.legal_moves()
    if type(state.kernel) is QuintaKernel:
        pytest.skip("the state runs on the pure-Python kernel here")
    assert moves[-1].is_swap is False and all(m is state.move_of(state.action_of(m)) for m in moves)
    state.play(moves[0])
    assert state.legal_moves()[-1].is_swap
    state.play(state.legal_moves()[-1])
    parsed = GAME.parse_move(BOARD, GAME.format_move(BOARD, state.legal_moves()[3]))
    assert parsed is not state.legal_moves()[3]
    state.play(parsed)  # an equal Move of another making plays through the front
    assert state.history[-1] == parsed and state.kernel.plies == 3
    with pytest.raises(IllegalMoveError, match="no black stone|no white stone"):
        state.play(Move.step(BOARD.index_of("E5"), BOARD.index_of("E6")))
    copy = state.copy()
    copy.play(copy.legal_moves()[0])
    assert copy.kernel.plies == 4 and state.kernel.plies == 3


def test_a_five_ends_the_game_alike_on_both_kernels() -> None:
    n = BOARD.index_of
    py = QuintaKernel(BOARD, GAME.parse_rules(None), sum(1 << n(x) for x in ["C5", "D5", "E5", "E4", "H3"]),
                      1 << n("A9") | 1 << n("L4"))
    c = to_core(py, TABLES, core)
    for k in (py, c):
        k.apply(slide_action(n("H3"), n("E3")))
    same(py, c)
    assert (c.result, c.termination) == (Color.BLACK, LINE) and c.result != DRAW
