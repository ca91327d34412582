"""Game state: turns, win detection, pie rule, handicap, misère and illegal moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ytourney.board import ALL_SIDES, Board, parse_board
from ytourney.errors import (
    GameOverError,
    IllegalMoveError,
    OccupiedCellError,
    SwapNotAllowedError,
    UnknownCellError,
    YTourneyError,
)
from ytourney.game import EMPTY, Color, GameState, Rules, play_moves
from ytourney.notation import SWAP, parse_cell, parse_moves

SPECS = [f"tri:{n}" for n in range(2, 27)] + ["kadon"]


def bfs_has_y(board: Board, cells: list[int], color: int) -> bool:
    """Independent referee: does `color` own a group touching all three sides?"""
    seen: set[int] = set()
    for start in range(board.num_cells):
        if cells[start] != color or start in seen:
            continue
        mask = 0
        stack = [start]
        seen.add(start)
        while stack:
            cell = stack.pop()
            mask |= board.sides[cell]
            for nb in board.neighbors[cell]:
                if cells[nb] == color and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        if mask == ALL_SIDES:
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(spec=st.sampled_from(SPECS), seed=st.integers(0, 2**32 - 1))
def test_full_board_has_exactly_one_y_and_the_game_stops_on_the_first_one(spec: str, seed: int) -> None:
    board = parse_board(spec)
    order = list(range(board.num_cells))
    random.Random(seed).shuffle(order)
    state = GameState(board, Rules(pie=False))
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


def test_white_wins_when_its_chain_touches_all_sides() -> None:
    board = parse_board("tri:3")
    state = play_moves(board, parse_moves(board, "a1 c1 b1 b2"), Rules(pie=False))
    assert not state.is_over
    state.play(parse_cell(board, "a3"))
    assert not state.is_over
    state.play(parse_cell(board, "a2"))  # white c1-b2-a2 reaches row 1, x = 0 and the third side
    assert state.winner is Color.WHITE


def test_black_wins_on_a_straight_connection() -> None:
    board = parse_board("tri:4")
    state = GameState(board, Rules(pie=False))
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


def test_misere_inverts_the_result() -> None:
    board = parse_board("tri:6")
    for seed in range(50):
        order = list(range(board.num_cells))
        random.Random(seed).shuffle(order)
        normal = GameState(board, Rules(pie=False))
        misere = GameState(board, Rules(pie=False, misere=True))
        for cell in order:
            if normal.is_over:
                break
            normal.play(cell)
            misere.play(cell)
        assert misere.is_over and normal.is_over
        assert misere.winner is normal.winner.other


def test_pie_swap_changes_owners_not_stones() -> None:
    board = parse_board("tri:5")
    state = GameState(board)
    assert not state.can_swap()
    assert SWAP not in state.legal_moves()
    state.play(parse_cell(board, "c2"))
    assert state.can_swap() and SWAP in state.legal_moves()
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


def test_declining_the_swap_keeps_seats() -> None:
    board = parse_board("tri:5")
    state = play_moves(board, parse_moves(board, "c2 b2"))
    assert not state.swapped and not state.can_swap()
    assert state.owner(Color.BLACK) == 0


@pytest.mark.parametrize(
    ("rules", "handicap", "message"),
    [(Rules(pie=False), 0, "pie rule is off"), (Rules(), 1, "handicap game"), (Rules(), 2, "handicap game")],
)
def test_swap_refused_without_pie(rules: Rules, handicap: int, message: str) -> None:
    state = GameState("tri:5", rules, handicap)
    state.play(0)
    assert not state.can_swap()
    with pytest.raises(SwapNotAllowedError, match=message):
        state.play(SWAP)


def test_swap_refused_before_the_first_stone() -> None:
    with pytest.raises(SwapNotAllowedError, match="before the first stone"):
        GameState("tri:5").play(SWAP)


@pytest.mark.parametrize("level", [1, 2, 3, 5])
def test_handicap_stones_are_blacks(level: int) -> None:
    board = parse_board("tri:9")
    state = GameState(board, Rules(), level)
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


def test_handicap_level_is_validated() -> None:
    with pytest.raises(YTourneyError, match="handicap level must be"):
        GameState("tri:5", handicap=-1)
    with pytest.raises(YTourneyError, match="too large"):
        GameState("tri:3", handicap=6)


def test_illegal_moves_raise_specific_errors() -> None:
    board = parse_board("tri:5")
    state = GameState(board, Rules(pie=False))
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


def test_play_token() -> None:
    state = GameState("kadon")
    assert state.play_token("e5") == state.board.index_of("E5")
    assert state.play_token("Swap") == SWAP


def test_copy_is_independent() -> None:
    board = parse_board("tri:7")
    state = play_moves(board, parse_moves(board, "a1 b1 a2"))
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
