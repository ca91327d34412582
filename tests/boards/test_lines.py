"""Lines on every board: the kadon reading of DESIGN §1b and axial lines (tests/games/tetra checks the 483 figures)."""

from __future__ import annotations


import pytest
from hypothesis import given
from hypothesis import strategies as st

from ytourney.boards.board import Board, parse_board
from ytourney.errors import BoardSpecError

KADON = parse_board("kadon")
SPECS = ["kadon", "tri:2", "tri:5", "tri:11", "hex:3", "hex:4", "hex:7"]


def names(board: Board, cells: object) -> list[str]:
    return [board.names[c] for c in cells]  # type: ignore[attr-defined]


def cell(name: str) -> int:
    index = KADON.index_of(name)
    assert index is not None
    return index


@pytest.mark.parametrize("spec", SPECS)
def test_continuation_is_symmetric(spec: str) -> None:
    board = parse_board(spec)
    for (a, b), nexts in board.continuation_table.items():
        for c in nexts:
            assert b in board.neighbors[c]
            assert a in board.continuations(c, b), (board.names[a], board.names[b], board.names[c])


@pytest.mark.parametrize("spec", SPECS)
def test_every_adjacent_pair_has_an_answer(spec: str) -> None:
    board = parse_board(spec)
    pairs = {(a, b) for b in range(board.num_cells) for a in board.neighbors[b]}
    assert set(board.continuation_table) == pairs


def test_every_interior_hexad_has_three_straight_lines_through_it() -> None:
    for b in range(KADON.num_cells):
        if KADON.sides[b] or len(KADON.neighbors[b]) != 6:
            continue
        pairs = {frozenset((a, KADON.continuations(a, b)[0])) for a in KADON.neighbors[b]}
        assert len(pairs) == 3
        assert all(len(p) == 2 for p in pairs)


def test_forks_only_at_pentads() -> None:
    forks = {b for (a, b), nexts in KADON.continuation_table.items() if len(nexts) > 1}
    assert names(KADON, sorted(forks)) == ["E5", "I5", "E9"]
    assert all(len(KADON.neighbors[b]) == 5 for b in forks)
    for b in forks:
        assert all(len(KADON.continuations(a, b)) == 2 for a in KADON.neighbors[b])


def test_pentad_fork_and_hexad_opposite() -> None:
    assert names(KADON, KADON.continuations(cell("E6"), cell("E5"))) == ["D4", "E4"]
    assert names(KADON, KADON.continuations(cell("A1"), cell("B2"))) == ["C3"]
    assert names(KADON, KADON.continuations(cell("F7"), cell("F6"))) == ["F5"]


def test_edge_lines_follow_the_side_and_stop_at_corners() -> None:
    assert names(KADON, KADON.continuations(cell("G1"), cell("H1"))) == ["I1"]
    assert KADON.continuations(cell("H1"), cell("I1")) == ()
    assert KADON.continuations(cell("B2"), cell("B1")) == ()  # never turns at an edge node
    assert names(KADON, KADON.continuations(cell("A1"), cell("A2"))) == ["A3"]
    for corner in ("A1", "I1", "A9"):
        assert all(KADON.continuations(a, cell(corner)) == () for a in KADON.neighbors[cell(corner)])
    side_line = KADON.line_from(cell("A1"), cell("B1"))
    assert [names(KADON, line) for line in side_line] == [["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "I1"]]


def test_line_from_branches_at_forks() -> None:
    lines = KADON.line_from(cell("F8"), cell("E9"), steps=3)
    assert sorted(names(KADON, line) for line in lines) == [["F8", "E9", "D8", "C7"], ["F8", "E9", "D9", "C9"]]
    assert [names(KADON, line) for line in KADON.line_from(cell("F7"), cell("E8"))] == [
        ["F7", "E8", "D8", "C8", "B8", "A8"]]
    assert KADON.line_from(cell("A1"), cell("B1"), steps=0) == ((cell("A1"),),)
    with pytest.raises(BoardSpecError, match="not neighbours"):
        KADON.continuations(cell("A1"), cell("C1"))


@pytest.mark.parametrize("spec", ["tri:7", "hex:5"])
def test_axial_lines_are_straight(spec: str) -> None:
    board = parse_board(spec)
    for (a, b), nexts in board.continuation_table.items():
        (ax, ay), (bx, by) = board.coords[a], board.coords[b]
        for c in nexts:
            assert board.coords[c] == (2 * bx - ax, 2 * by - ay)
        assert len(nexts) <= 1


@given(st.sampled_from(SPECS), st.data())
def test_walked_lines_follow_continuations(spec: str, data: st.DataObject) -> None:
    board = parse_board(spec)
    a = data.draw(st.integers(0, board.num_cells - 1))
    b = data.draw(st.sampled_from(board.neighbors[a]))
    steps = data.draw(st.integers(1, 12))
    for line in board.line_from(a, b, steps):
        assert line[:2] == (a, b)
        assert len(set(line)) == len(line) <= steps + 1
        for i in range(2, len(line)):
            assert line[i] in board.continuations(line[i - 2], line[i - 1])
        if len(line) <= steps:
            assert all(c in line for c in board.continuations(line[-2], line[-1]))
