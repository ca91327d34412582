"""Board layouts and SVG diagrams: tri geometry, the kadon embedding, numbered stones, heat maps."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from ytourney.games.registry import get_game
from ytourney.boards.board import SIDE_A, SIDE_B, SIDE_C, parse_board
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.boards.layout import board_layout, crossings
from ytourney.publish.svg import DIVERGING, WIN_RING, colour_at, heatmap_svg, position_svg, replay_moves

Y = get_game("y")

Y = get_game("y")


def replay(board, moves, rules=None, handicap=0):  # type: ignore[no-untyped-def]
    return replay_moves(Y, board, moves, rules, handicap)


def winning_group(state) -> set[int]:  # type: ignore[no-untyped-def]
    return set(Y.views.highlight(state))

SVG = "{http://www.w3.org/2000/svg}"
# Black completes a Y along column a on tri:3: a1, a2, a3 touch all three sides.
TRI3_WIN = ["a1", "b1", "a2", "c1", "a3"]


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


def test_tri_layout_puts_row_one_at_the_bottom() -> None:
    board = parse_board("tri:5")
    layout = board_layout("tri:5")
    for cell, (x, y) in enumerate(board.coords):
        assert layout.points[cell] == pytest.approx((x + y / 2, -y * math.sqrt(3) / 2))
    a1, e1, a5 = (board.index_of(n) for n in ("a1", "e1", "a5"))
    assert layout.points[a5][1] < layout.points[a1][1] == layout.points[e1][1]  # SVG y grows downwards
    assert layout.points[a5][0] == pytest.approx((layout.points[a1][0] + layout.points[e1][0]) / 2)
    for a, b in layout.edges:
        assert np.linalg.norm(layout.points[a] - layout.points[b]) == pytest.approx(1.0)


def test_kadon_layout_is_a_planar_triangle() -> None:
    board = parse_board("kadon")
    layout = board_layout("kadon")
    points = layout.points
    assert points.shape == (93, 2)
    a1, i1, a9 = (points[board.index_of(n)] for n in ("A1", "I1", "A9"))
    assert a1[1] == pytest.approx(i1[1]) and a9[1] < a1[1]
    assert a9[0] == pytest.approx((a1[0] + i1[0]) / 2)
    side_length = np.linalg.norm(i1 - a1)
    assert np.linalg.norm(a9 - a1) == pytest.approx(side_length) == pytest.approx(np.linalg.norm(a9 - i1))
    for side, (p, q) in ((SIDE_A, (a1, i1)), (SIDE_B, (a1, a9)), (SIDE_C, (i1, a9))):
        for cell in board.cells_on_side(side):
            u, v = q - p, points[cell] - p
            cross = u[0] * v[1] - u[1] * v[0]
            assert abs(cross) < 1e-9 * side_length ** 2, board.names[cell]
    assert crossings(points, layout.edges) == 0
    distances = np.linalg.norm(points[:, None] - points[None], axis=2) + np.eye(93) * 1e9
    lengths = [np.linalg.norm(points[a] - points[b]) for a, b in layout.edges]
    assert distances.min() > 0.6 * float(np.median(lengths))  # no two nodes crowd each other


def test_position_svg_numbers_every_stone_and_outlines_the_win() -> None:
    svg = position_svg("tri:3", TRI3_WIN, rules=Rules(pie=False), game=Y, label="<script>alert(1)</script>")
    root = parse_svg(svg)
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for number in ("1", "2", "3", "4", "5"):
        assert number in texts
    stone_titles = [t.text for t in root.iter(f"{SVG}title") if t.text and t.text[0].isdigit()]
    assert sorted(stone_titles) == ["1. a1 (black)", "2. b1 (white)", "3. a2 (black)", "4. c1 (white)",
                                    "5. a3 (black)"]
    rings = [c for c in root.iter(f"{SVG}circle") if c.get("stroke") == WIN_RING]
    assert len(rings) == 3


def test_swap_keeps_stone_colours_and_numbers_follow_the_move_list() -> None:
    played = replay(parse_board("tri:4"), ["b2", "swap", "a1"])
    assert played.numbers == {parse_board("tri:4").index_of("b2"): 1, parse_board("tri:4").index_of("a1"): 3}
    assert played.state.cells[parse_board("tri:4").index_of("a1")] == Color.WHITE
    assert played.failed_at is None


def test_replay_stops_at_a_bad_move_without_raising() -> None:
    played = replay(parse_board("tri:4"), ["a1", "a1", "b1"])
    assert played.failed_at == 2 and len(played.numbers) == 1
    svg = position_svg("tri:4", ["a1", "zz9"], game=Y)
    parse_svg(svg)


def test_winning_group_is_empty_before_the_end() -> None:
    played = replay(parse_board("tri:3"), TRI3_WIN[:-1], Rules(pie=False))
    assert winning_group(played.state) == set()
    full = replay(parse_board("tri:3"), TRI3_WIN, Rules(pie=False))
    board = parse_board("tri:3")
    assert winning_group(full.state) == {board.index_of(n) for n in ("a1", "a2", "a3")}


def test_kadon_position_and_heat_map_are_well_formed() -> None:
    board = parse_board("kadon")
    root = parse_svg(position_svg(board, ["E5", "swap", "A1", "I5"], game=Y))
    assert len([c for c in root.iter(f"{SVG}circle") if c.get("fill") in ("#1b1b1b", "#fbfbf8")]) == 3
    heat = heatmap_svg(board, {board.index_of("E5"): 0.75, board.index_of("A1"): 0.0},
                       {board.index_of("E5"): 4, board.index_of("A1"): 2}, label="first moves")
    root = parse_svg(heat)
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert "E5: 75% of 4" in titles and "A1: 0% of 2" in titles


def test_colour_scale_endpoints() -> None:
    assert colour_at(0.0) == "#b2182b"
    assert colour_at(0.5) == "#f7f7f7"
    assert colour_at(1.0) == "#2166ac" == colour_at(7.0)
    assert colour_at(0.125, DIVERGING) not in (colour_at(0.0), colour_at(0.25))


def test_hex_cells_carry_their_names_where_no_stone_or_value_covers_them() -> None:
    board = parse_board("hex:7")
    names = set(board.names)

    def written(svg: str) -> set[str]:
        return {t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")} & names

    yvy = get_game("yvy")
    start = position_svg("hex:7", [], game=yvy)
    assert written(start) == names  # every cell named, the green sprouts too
    cell = board.names.index("m12")
    heat = heatmap_svg(board, {cell: 0.5}, {cell: 2})
    assert "m12" not in written(heat) and "m11" in written(heat)  # a cell's value replaces its name
    assert not written(position_svg("tri:5", [], game=Y)) & set(parse_board("tri:5").names)  # tri: letters and rows outside
