"""Cell and move notation round trips and errors."""

from __future__ import annotations

import pytest

from ytourney.errors import NotationError
from ytourney.boards.board import parse_board
from ytourney.games.y.notation import (
    SWAP,
    cell_name,
    move_name,
    parse_cell,
    parse_move,
    parse_moves,
)

ALL_SPECS = [f"tri:{n}" for n in range(2, 27)] + ["kadon"]


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_round_trip_every_cell(spec: str) -> None:
    board = parse_board(spec)
    for cell in range(board.num_cells):
        name = cell_name(board, cell)
        assert parse_cell(board, name) == cell
        assert parse_cell(board, name.swapcase()) == cell
        assert name == (name.lower() if spec != "kadon" else name.upper())


def test_tri_names() -> None:
    board = parse_board("tri:11")
    assert cell_name(board, 0) == "a1"
    assert parse_cell(board, "K1") == 10
    assert board.coords[parse_cell(board, "c4")] == (2, 3)


def test_kadon_names() -> None:
    board = parse_board("kadon")
    assert cell_name(board, 0) == "A1"
    assert parse_cell(board, "e9") == 92
    assert parse_cell(board, "M5") == board.index_of("m5")


def test_swap_token() -> None:
    board = parse_board("tri:5")
    assert parse_move(board, "SWAP") == SWAP
    assert move_name(board, SWAP) == "swap"
    assert parse_moves(board, "c3 swap, b2") == [parse_cell(board, "c3"), SWAP, parse_cell(board, "b2")]
    assert [move_name(board, move) for move in parse_moves(board, ["a1", "swap"])] == ["a1", "swap"]


@pytest.mark.parametrize(
    ("spec", "token"),
    [("tri:5", "f1"), ("tri:5", "a6"), ("tri:5", "e2"), ("tri:5", "a0"), ("tri:5", "zz"), ("tri:5", ""),
     ("kadon", "J1"), ("kadon", "F9"), ("kadon", "N5"), ("kadon", "A10")],
)
def test_unknown_cells_name_token_and_board(spec: str, token: str) -> None:
    board = parse_board(spec)
    with pytest.raises(NotationError) as info:
        parse_cell(board, token)
    assert repr(token) in str(info.value)
    assert repr(spec) in str(info.value)


def test_move_list_error_names_the_position() -> None:
    board = parse_board("tri:5")
    with pytest.raises(NotationError, match=r"move 2: unknown cell 'q9'"):
        parse_moves(board, "a1 q9")


def test_cell_index_out_of_range() -> None:
    with pytest.raises(NotationError, match="outside board"):
        cell_name(parse_board("tri:3"), 6)
