"""Board graphs: kadon's counts, hex:N with its sprouts, regions and automorphisms."""

from __future__ import annotations

import pytest

from ytourney.boards.board import SIDE_A, SIDE_B, SIDE_C, BoardKind, parse_board
from ytourney.boards.regions import (
    CENTRAL_NODES,
    CENTRAL_TRIANGLE,
    PENTADS,
    PERIMETER,
    REGIONS,
    RING,
    SIDE_TRIANGLES,
    region,
)
from ytourney.boards.symmetry import automorphisms
from ytourney.errors import BoardSpecError

KADON = parse_board("kadon")


def test_kadon_counts() -> None:
    degrees = [len(n) for n in KADON.neighbors]
    edge = [c for c in range(93) if KADON.sides[c]]
    interior = [c for c in range(93) if not KADON.sides[c]]
    assert KADON.num_cells == 93
    assert len(edge) == 24
    assert sorted(KADON.names[c] for c in range(93) if degrees[c] == 5) == sorted(PENTADS)
    assert all(degrees[c] == 6 for c in interior if KADON.names[c] not in PENTADS)
    assert sorted(KADON.names[c] for c in range(93) if degrees[c] == 3) == ["A1", "A9", "I1"]
    assert len(interior) == 69


@pytest.mark.parametrize("spec", ["kadon", "tri:3", "tri:11", "hex:3", "hex:7", "hex:12"])
def test_adjacency_is_symmetric_and_irreflexive(spec: str) -> None:
    board = parse_board(spec)
    for c, nbrs in enumerate(board.neighbors):
        assert c not in nbrs
        assert len(set(nbrs)) == len(nbrs)
        assert all(c in board.neighbors[n] for n in nbrs)


def test_regions_have_design_sizes_and_are_disjoint_where_design_says() -> None:
    sizes = {name: len(set(region(KADON, name))) for name in REGIONS}
    assert sizes["central-triangle"] == 15 and sizes["ring"] == 15 and sizes["perimeter"] == 24
    assert all(sizes[f"side-triangle-{i}"] == 10 for i in (1, 2, 3))
    parts = [set(CENTRAL_TRIANGLE)] + [set(t) for t in SIDE_TRIANGLES]
    assert sum(len(p) for p in parts) == len(set().union(*parts)) == 45
    assert not set(RING) & set(CENTRAL_TRIANGLE)
    assert set(PENTADS) | set(CENTRAL_NODES) <= set(CENTRAL_TRIANGLE)
    assert {KADON.index_of(n) for n in PERIMETER} == {c for c in range(93) if KADON.sides[c]}


def test_perimeter_and_ring_are_closed_walks() -> None:
    for names in (PERIMETER, RING):
        cells = [KADON.index_of(n) for n in names]
        assert all(cells[i - 1] in KADON.neighbors[c] for i, c in enumerate(cells))  # type: ignore[index]


def test_ring_surrounds_the_central_triangle() -> None:
    centre = {KADON.index_of(n) for n in CENTRAL_TRIANGLE}
    around = {n for c in centre for n in KADON.neighbors[c]} - centre  # type: ignore[index]
    assert around == {KADON.index_of(n) for n in RING}


def test_regions_refuse_other_boards_and_unknown_names() -> None:
    with pytest.raises(BoardSpecError, match="'tri:5'"):
        region(parse_board("tri:5"), "ring")
    with pytest.raises(BoardSpecError, match="'middle'"):
        region(KADON, "middle")


def test_kadon_has_the_six_symmetries_of_the_triangle() -> None:
    perms = automorphisms(KADON)
    assert len(perms) == 6
    assert perms[0] == tuple(range(93))
    for p in perms:
        assert sorted(p) == list(range(93))
        assert all({p[n] for n in KADON.neighbors[c]} == set(KADON.neighbors[p[c]]) for c in range(93))
        assert {KADON.names[p[KADON.index_of(n)]] for n in PENTADS} == set(PENTADS)  # type: ignore[index]
        # the lines are read from the graph, so every symmetry maps lines onto lines
        for (a, b), nexts in KADON.continuation_table.items():
            assert {p[c] for c in nexts} == set(KADON.continuations(p[a], p[b]))


@pytest.mark.parametrize("size", [3, 4, 5, 7, 12])
def test_hex_board_counts(size: int) -> None:
    board = parse_board(f"hex:{size}")
    assert board.kind is BoardKind.HEX
    assert len(board.sprouts) == 3 * size
    assert board.num_cells == 3 * size * (size - 1) + 1 + 3 * size
    base = [c for c in range(board.num_cells) if c not in board.sprouts]
    centre = (size, size)
    for c in base:
        x, y = board.coords[c]
        assert max(abs(x - centre[0]), abs(y - centre[1]), abs(x - y)) <= size - 1
    for s in board.sprouts:
        x, y = board.coords[s]
        assert max(abs(x - size), abs(y - size), abs(x - y)) == size
        assert all(n not in board.sprouts for n in board.neighbors[s])  # every other ring cell
    assert board.names[board.index_of("a1")] == "a1"  # type: ignore[index]
    assert board.index_of("a1") in board.sprouts


@pytest.mark.parametrize("size", [3, 5, 7, 8])
def test_hex_sprouts_are_three_fold_symmetric(size: int) -> None:
    board = parse_board(f"hex:{size}")
    index = {xy: i for i, xy in enumerate(board.coords)}

    def rotate(xy: tuple[int, int]) -> tuple[int, int]:
        # 120 degrees about (N, N) in the axial frame whose diagonal is (1, 1)
        x, y = xy[0] - size, xy[1] - size
        return (y - x + size, -x + size)

    for c in range(board.num_cells):
        image = index.get(rotate(board.coords[c]))
        assert image is not None
        assert (image in board.sprouts) == (c in board.sprouts)
    assert len(automorphisms(board)) == (12 if size % 2 == 0 else 6)


def test_hex7_names() -> None:
    board = parse_board("HEX:7")
    assert board.spec == "hex:7"
    assert board.num_cells == 127 + 21
    assert board.index_of("H8") == board.index_of("h8")
    centre = board.index_of("h8")
    assert centre is not None and len(board.neighbors[centre]) == 6
    assert board.index_of("b2") is not None and board.index_of("b2") not in board.sprouts  # a base corner
    assert board.index_of("a1") in board.sprouts and board.index_of("b1") is None  # not a sprout: not a cell


@pytest.mark.parametrize("spec", ["hex:2", "hex:13", "hex:", "hex:x"])
def test_bad_hex_specs(spec: str) -> None:
    with pytest.raises(BoardSpecError, match="hex"):
        parse_board(spec)


def test_tri_and_kadon_are_unchanged() -> None:
    tri = parse_board("tri:11")
    assert tri.num_cells == 66 and tri.sprouts == frozenset()
    assert KADON.names[:3] == ("A1", "B1", "C1") and KADON.coords[0] == (0, 0)


@pytest.mark.parametrize("spec", ["tri:7", "kadon"])
def test_side_distances_count_steps_to_each_side(spec: str) -> None:
    board = parse_board(spec)
    for side in (SIDE_A, SIDE_B, SIDE_C):
        dist = board.side_distances(side)
        assert {c for c, d in enumerate(dist) if d == 0} == set(board.cells_on_side(side))
        for cell, d in enumerate(dist):  # one step closer through some neighbour, none two closer
            if d:
                assert min(dist[nb] for nb in board.neighbors[cell]) == d - 1
    tri = parse_board("tri:7")
    assert tri.side_distances(SIDE_A)[tri.names.index("c3")] == 2  # the third row
