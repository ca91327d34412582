"""Board geometry: counts, sides, neighbours and spec errors."""

from __future__ import annotations

import pickle

import pytest

from ytourney.errors import BoardSpecError, YTourneyError
from ytourney.boards.board import (
    SIDE_A,
    SIDE_B,
    SIDE_C,
    Board,
    BoardKind,
    parse_board,
    tri_index,
)

ALL_SPECS = [f"tri:{n}" for n in range(2, 27)] + ["kadon"]


def corners_of(board: Board) -> tuple[int, ...]:
    """Cells lying on two sides."""
    return tuple(c for c, m in enumerate(board.sides) if bin(m).count("1") >= 2)


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_adjacency_is_symmetric_and_irreflexive(spec: str) -> None:
    board = parse_board(spec)
    for cell, nbrs in enumerate(board.neighbors):
        assert cell not in nbrs
        assert len(set(nbrs)) == len(nbrs)
        for nb in nbrs:
            assert cell in board.neighbors[nb]


@pytest.mark.parametrize("size", range(2, 27))
def test_tri_counts(size: int) -> None:
    board = parse_board(f"tri:{size}")
    assert board.kind is BoardKind.TRI
    assert board.num_cells == size * (size + 1) // 2
    for side in (SIDE_A, SIDE_B, SIDE_C):
        assert len(board.cells_on_side(side)) == size
    corners = {board.names[c] for c in corners_of(board)}
    assert corners == {"a1", f"{chr(ord('a') + size - 1)}1", f"a{size}"}
    for cell in corners_of(board):
        assert len(board.neighbors[cell]) == 2
    assert max(len(n) for n in board.neighbors) == (6 if size >= 4 else (4 if size == 3 else 2))
    assert len(board.neighbor_array) == board.num_cells


def test_tri_geometry_matches_notation() -> None:
    board = parse_board("tri:7")
    c3 = board.index_of("c3")
    assert board.coords[c3] == (2, 2)
    assert c3 == tri_index(7, 2, 2)
    assert sorted(board.names[n] for n in board.neighbors[c3]) == sorted(["b3", "d3", "c2", "c4", "d2", "b4"])
    assert board.sides[board.index_of("a1")] == SIDE_A | SIDE_B
    assert board.sides[board.index_of("g1")] == SIDE_A | SIDE_C
    assert board.sides[board.index_of("a7")] == SIDE_B | SIDE_C
    assert board.sides[board.index_of("c5")] == SIDE_C
    assert board.sides[c3] == 0


def test_kadon_matches_the_rulebook() -> None:
    board = parse_board("kadon")
    assert board.kind is BoardKind.KADON
    assert board.num_cells == 93
    edge = [c for c in range(93) if board.sides[c]]
    assert len(edge) == 24
    assert 93 - len(edge) == 69
    for side in (SIDE_A, SIDE_B, SIDE_C):
        assert len(board.cells_on_side(side)) == 9
    assert sorted(board.names[c] for c in corners_of(board)) == ["A1", "A9", "I1"]
    for corner in corners_of(board):
        assert len(board.neighbors[corner]) == 3
    interior_degrees = [len(board.neighbors[c]) for c in range(93) if not board.sides[c]]
    assert interior_degrees.count(5) == 3
    assert interior_degrees.count(6) == 66
    pentads = sorted(board.names[c] for c in range(93) if not board.sides[c] and len(board.neighbors[c]) == 5)
    assert pentads == ["E5", "E9", "I5"]
    row_lengths = [sum(1 for name in board.names if int(name[1:]) == r) for r in range(1, 10)]
    assert row_lengths == [9, 10, 11, 12, 13, 12, 11, 10, 5]


def test_kadon_is_connected() -> None:
    board = parse_board("kadon")
    seen = {0}
    frontier = [0]
    while frontier:
        cell = frontier.pop()
        for nb in board.neighbors[cell]:
            if nb not in seen:
                seen.add(nb)
                frontier.append(nb)
    assert len(seen) == 93


def test_specs_are_case_insensitive_and_cached() -> None:
    assert parse_board("TRI:7") is parse_board("tri:7")
    assert parse_board(" Kadon ") is parse_board("kadon")


def test_board_pickles_as_its_spec() -> None:
    board = parse_board("tri:9")
    assert pickle.loads(pickle.dumps(board)) is board


@pytest.mark.parametrize("spec", ["tri:1", "tri:27", "tri:x", "hex:2", "kadon:2", "", "tri:", "tri:-3"])
def test_bad_specs_name_the_spec_and_the_accepted_forms(spec: str) -> None:
    with pytest.raises(BoardSpecError) as info:
        parse_board(spec)
    message = str(info.value)
    assert "tri:N" in message and "kadon" in message
    assert isinstance(info.value, YTourneyError)


def test_non_string_spec() -> None:
    with pytest.raises(BoardSpecError, match="must be a string"):
        parse_board(11)  # type: ignore[arg-type]
