"""Game state: turns, win detection, pie rule, handicap, misère and illegal moves."""

from __future__ import annotations

import copy
import os
import pickle
import random
import subprocess
import sys

import numpy as np
import pytest
from bfs_referee import bfs_has_y
from hypothesis import given, settings
from hypothesis import strategies as st

from ytourney.errors import (
    GameOverError,
    IllegalMoveError,
    OccupiedCellError,
    SwapNotAllowedError,
    UnknownCellError,
    YTourneyError,
)
from ytourney.boards.board import Board, parse_board
from ytourney.games.y.notation import SWAP, parse_cell, parse_moves
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.api import SWAP as SWAP_MOVE
from ytourney.games.api import Move
from ytourney.games.y.state import (
    EMPTY,
    CGameState,
    GameState,
    PyGameState,
)

SPECS = [f"tri:{n}" for n in range(2, 27)] + ["kadon"]

IMPLEMENTATIONS = [
    pytest.param(PyGameState, id="python"),
    pytest.param(
        CGameState, id="c", marks=pytest.mark.skipif(CGameState is None, reason="ytourney._gamecore is not built")
    ),
]


@pytest.fixture(params=IMPLEMENTATIONS, scope="module")
def state_class(request: pytest.FixtureRequest) -> type:
    """Each GameState implementation in turn: the pure-Python one and the C-accelerated one."""
    return request.param


def replay(state_class: type, board: Board | str, moves: list[int], rules: Rules | None = None) -> GameState:
    """A new state of `state_class` with `moves` played in order ."""
    state = state_class(board, rules)
    for move in moves:
        state.play(move)
    return state


@settings(max_examples=300, deadline=None)
@given(spec=st.sampled_from(SPECS), seed=st.integers(0, 2**32 - 1))
def test_full_board_has_exactly_one_y_and_the_game_stops_on_the_first_one(
    state_class: type, spec: str, seed: int
) -> None:
    board = parse_board(spec)
    order = list(range(board.num_cells))
    random.Random(seed).shuffle(order)
    state = state_class(board, Rules(pie=False))
    full = [EMPTY] * board.num_cells
    for i, cell in enumerate(order):
        full[cell] = Color.BLACK if i % 2 == 0 else Color.WHITE
    owners = [c for c in (Color.BLACK, Color.WHITE) if bfs_has_y(board, full, c)]
    assert len(owners) == 1
    for cell in order:
        mover = state.to_move
        state.play(cell)
        connected = bfs_has_y(board, state.cells, mover)
        assert state.is_over == connected
        if state.is_over:
            break
    assert state.winner == owners[0]


def test_white_wins_when_its_chain_touches_all_sides(state_class: type) -> None:
    board = parse_board("tri:3")
    state = replay(state_class, board, parse_moves(board, "a1 c1 b1 b2"), Rules(pie=False))
    assert not state.is_over
    state.play(parse_cell(board, "a3"))
    assert not state.is_over
    state.play(parse_cell(board, "a2"))  # white c1-b2-a2 reaches row 1, x = 0 and the third side
    assert state.winner is Color.WHITE


def test_black_wins_on_a_straight_connection(state_class: type) -> None:
    board = parse_board("tri:4")
    state = state_class(board, Rules(pie=False))
    white = iter(["d1", "c2", "b3"])
    for token in ["a1", "a2", "a3"]:
        state.play(parse_cell(board, token))
        state.play(parse_cell(board, next(white)))
    assert not state.is_over
    state.play(parse_cell(board, "a4"))  # a1..a4 touches sides A, B and C
    assert state.winner is Color.BLACK
    with pytest.raises(GameOverError, match="after the game ended"):
        state.play(parse_cell(board, "b1"))
    assert state.legal_moves() == []
    assert not state.is_legal(parse_cell(board, "b1"))


def test_misere_inverts_the_result(state_class: type) -> None:
    board = parse_board("tri:6")
    for seed in range(50):
        order = list(range(board.num_cells))
        random.Random(seed).shuffle(order)
        normal = state_class(board, Rules(pie=False))
        misere = state_class(board, Rules(pie=False, misere=True))
        for cell in order:
            if normal.is_over:
                break
            normal.play(cell)
            misere.play(cell)
        assert misere.is_over and normal.is_over
        assert misere.winner is normal.winner.other


def test_pie_swap_changes_owners_not_stones(state_class: type) -> None:
    board = parse_board("tri:5")
    state = state_class(board)
    assert not state.can_swap()
    assert SWAP_MOVE not in state.legal_moves()
    state.play(parse_cell(board, "c2"))
    assert state.can_swap() and SWAP_MOVE in state.legal_moves()
    assert state.legal_moves()[:-1] == [Move.place(c) for c in state.empty_cells()]
    assert state.to_move is Color.WHITE and state.seat_to_move() == 1
    state.play(SWAP)
    assert state.swapped
    assert state.to_move is Color.WHITE  # the original first mover now plays White and moves next
    assert state.seat_to_move() == 0
    assert state.owner(Color.BLACK) == 1 and state.owner(Color.WHITE) == 0
    assert state.color_of_seat(1) is Color.BLACK
    assert state.cells[parse_cell(board, "c2")] == Color.BLACK
    assert state.num_stones == 1
    state.play(parse_cell(board, "b2"))
    assert state.cells[parse_cell(board, "b2")] == Color.WHITE
    assert state.to_move is Color.BLACK
    with pytest.raises(SwapNotAllowedError, match="second action"):
        state.play(SWAP)


def test_declining_the_swap_keeps_seats(state_class: type) -> None:
    board = parse_board("tri:5")
    state = replay(state_class, board, parse_moves(board, "c2 b2"))
    assert not state.swapped and not state.can_swap()
    assert state.owner(Color.BLACK) == 0


@pytest.mark.parametrize(
    ("rules", "handicap", "message"),
    [(Rules(pie=False), 0, "pie rule is off"), (Rules(), 1, "handicap game"), (Rules(), 2, "handicap game")],
)
def test_swap_refused_without_pie(state_class: type, rules: Rules, handicap: int, message: str) -> None:
    state = state_class("tri:5", rules, handicap)
    state.play(0)
    assert not state.can_swap()
    with pytest.raises(SwapNotAllowedError, match=message):
        state.play(SWAP)


def test_swap_refused_before_the_first_stone(state_class: type) -> None:
    with pytest.raises(SwapNotAllowedError, match="before the first stone"):
        state_class("tri:5").play(SWAP)


@pytest.mark.parametrize("level", [1, 2, 3, 5])
def test_handicap_stones_are_blacks(state_class: type, level: int) -> None:
    board = parse_board("tri:9")
    state = state_class(board, Rules(), level)
    assert not state.pie_active
    stones = max(1, level)
    for i in range(stones):
        assert state.to_move is Color.BLACK
        assert state.stones_left_this_turn == stones - i
        state.play(parse_cell(board, f"{chr(ord('b') + i)}2"))
    assert state.to_move is Color.WHITE
    assert not state.can_swap()
    state.play(parse_cell(board, "a5"))
    assert state.to_move is Color.BLACK and state.stones_left_this_turn == 1


def test_handicap_level_is_validated(state_class: type) -> None:
    with pytest.raises(YTourneyError, match="handicap level must be"):
        state_class("tri:5", handicap=-1)
    with pytest.raises(YTourneyError, match="too large"):
        state_class("tri:3", handicap=6)


def test_illegal_moves_raise_specific_errors(state_class: type) -> None:
    board = parse_board("tri:5")
    state = state_class(board, Rules(pie=False))
    state.play(parse_cell(board, "c2"))
    with pytest.raises(OccupiedCellError, match=r"cell 'c2' is already occupied by black"):
        state.play(parse_cell(board, "c2"))
    for bad in (15, -2, 99):
        with pytest.raises(UnknownCellError, match=repr(bad)):
            state.play(bad)
    with pytest.raises(UnknownCellError):
        state.play("a1")  # type: ignore[arg-type]
    assert issubclass(OccupiedCellError, IllegalMoveError)
    assert state.moves == (parse_cell(board, "c2"),)


def test_copy_is_independent(state_class: type) -> None:
    board = parse_board("tri:7")
    state = replay(state_class, board, parse_moves(board, "a1 b1 a2"))
    clone = state.copy()
    clone.play(parse_cell(board, "a3"))
    assert state.cells[parse_cell(board, "a3")] == EMPTY
    assert len(state.moves) == 3 and len(clone.moves) == 4
    assert clone.group_sides(parse_cell(board, "a1")) == state.group_sides(parse_cell(board, "a1"))


def test_colour_parsing() -> None:
    assert Color.parse("W") is Color.WHITE and Color.parse("black") is Color.BLACK
    assert Color.BLACK.other is Color.WHITE and str(Color.WHITE) == "white"
    with pytest.raises(YTourneyError, match="'green'"):
        Color.parse("green")


# --- the two implementations agree ---------------------------------------------------------------


def snapshot(state: GameState) -> tuple[object, ...]:
    """Everything observable about a state through its public API."""
    n = state.board.num_cells
    return (
        state.cells,
        state.moves,
        state.to_move,
        state.winner,
        state.is_over,
        state.swapped,
        state.num_stones,
        state.stones_left_this_turn,
        state.handicap,
        state.pie_active,
        state.can_swap(),
        state.seat_to_move(),
        state.legal_moves(),
        state.empty_cells(),
        [state.group_sides(cell) for cell in range(n)],
        [state.is_legal(move) for move in (SWAP, 0, n - 1, n, -2, True, 1.5, "a1")],
        repr(state),
    )


def outcome(state: GameState, move: object) -> tuple[object, ...]:
    """What `state.play(move)` returns, or the error class and message it raises."""
    try:
        return ("returned", state.play(move))
    except YTourneyError as err:
        return (type(err), str(err))


@pytest.mark.skipif(CGameState is None, reason="ytourney._gamecore is not built")
@pytest.mark.parametrize("spec", ["tri:2", "tri:3", "tri:7", "tri:11", "tri:26", "kadon"])
@pytest.mark.parametrize(("pie", "misere", "handicap"), [(True, False, 0), (False, True, 0), (True, False, 3)])
def test_c_and_python_states_agree_move_by_move(spec: str, pie: bool, misere: bool, handicap: int) -> None:
    board = parse_board(spec)
    rules = Rules(pie=pie, misere=misere)
    rng = random.Random(f"{spec}/{pie}/{misere}/{handicap}")
    level = min(handicap, board.num_cells - 1)
    for _ in range(3):
        states = [PyGameState(board, rules, level), CGameState(board, rules, level)]
        snapshots = [snapshot(state) for state in states]
        assert snapshots[0] == snapshots[1]
        order = list(range(board.num_cells))
        rng.shuffle(order)
        # legal moves mixed with swaps, occupied and unknown cells and junk, past the end of the game
        actions: list[object] = []
        for cell in order:
            actions.append(cell)
            if rng.random() < 0.3:
                actions.append(rng.choice([SWAP, rng.choice(actions), board.num_cells, -2, 2**70, True, "a1", 1.5]))
        for action in actions + [SWAP, order[0], 0]:
            results = [outcome(state, action) for state in states]
            assert results[0] == results[1], action
            snapshots = [snapshot(state) for state in states]
            assert snapshots[0] == snapshots[1], action
        assert states[0].is_over and states[1].is_over
        assert bfs_has_y(board, states[1].cells, states[1].winner.other if misere else states[1].winner)


def test_copy_keeps_class_and_state(state_class: type) -> None:
    board = parse_board("kadon")
    state = replay(state_class, board, [10, SWAP, 20, 30])
    clone = state.copy()
    assert type(clone) is state_class and snapshot(clone) == snapshot(state)
    assert clone.board is state.board and clone.rules is state.rules
    for other in (copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert type(other) is state_class and snapshot(other) == snapshot(state)
    clone.play(40)
    assert 40 not in state.moves and snapshot(state) == snapshot(state.copy())


def test_cells_is_a_list_of_colours_that_callers_cannot_corrupt(state_class: type) -> None:
    board = parse_board("tri:4")
    state = replay(state_class, board, [0, 1], Rules(pie=False))
    cells = state.cells
    assert isinstance(cells, list) and cells[:3] == [Color.BLACK, Color.WHITE, EMPTY]
    assert cells.count(EMPTY) == 8 and (cells + [EMPTY])[-1] == EMPTY
    assert np.array(state.cells, dtype=np.int8).tolist() == cells
    if state_class is not PyGameState:  # the C state hands out a new list on every read
        cells[:] = [Color.BLACK] * len(cells)
        assert state.cells[2] == EMPTY and state.is_legal(2)


def test_numpy_and_bool_indices_are_not_cells(state_class: type) -> None:
    state = state_class("tri:4", Rules(pie=False))
    for bad in (np.int64(3), True, 2**70, 3.0):
        with pytest.raises(UnknownCellError, match="is not on board 'tri:4'"):
            state.play(bad)
    assert state.moves == () and state.to_move is Color.BLACK


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter with extra environment variables."""
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_environment_variable_forces_the_pure_python_state() -> None:
    code = (
        "from ytourney.games.y.state import CGameState, GameState, PyGameState\n"
        "print(GameState is PyGameState, GameState is CGameState)"
    )
    forced = run_python(code, YTOURNEY_PURE_PYTHON="1")
    assert forced.returncode == 0 and forced.stdout.split() == ["True", "False"], forced.stderr
    default = run_python(code, YTOURNEY_PURE_PYTHON="0")
    assert default.returncode == 0 and default.stdout.split() == [str(CGameState is None), str(CGameState is not None)]


def test_missing_extension_falls_back_to_pure_python() -> None:
    code = (
        "import sys; sys.modules['ytourney.games.y._gamecore'] = None\n"  # importing it now raises ImportError
        "from ytourney.games.y.state import GameState, PyGameState, CGameState\n"
        "assert GameState is PyGameState and CGameState is None\n"
        "state = GameState('tri:3')\n"
        "for move in (0, 1, 3, 2, 5):\n"
        "    state.play(move)\n"
        "print(state.winner)"
    )
    result = run_python(code)
    assert result.returncode == 0 and result.stdout.strip() == "black", result.stderr
