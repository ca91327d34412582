"""Publish through the game's views: any game's diagram, draws in exports and tables, SGF of games other than Y."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from pgn_reader import parse_pgn
from toy_game import NAME

from ytourney.errors import RecordError
from ytourney.games import registry
from ytourney.games.api import Color, Termination
from ytourney.games.record import GameRecord
from ytourney.games.replay import ReplayError, replay, replay_record
from ytourney.publish.crosstable import build_crosstable, format_crosstable
from ytourney.publish.export import to_jsonl, to_pgn
from ytourney.publish.first_moves import first_move_stats
from ytourney.publish.game_pages import result_sentence
from ytourney.publish.sgf import game_to_sgf, read_sgf_games
from ytourney.publish.sources import split_by_variant, variant_of, Source
from ytourney.publish.svg import position_svg

SVG = "{http://www.w3.org/2000/svg}"
MOVES = ("a1", "c1", "a1-b1", "c1-b2", "b1-a1", "b2-a2")


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    registry.register(NAME, "toy_game:GAME")
    yield
    registry.GAMES.pop(NAME, None)


def toy_record(moves: tuple[str, ...] = MOVES, **changes: object) -> GameRecord:
    game = registry.get_game(NAME)
    record = GameRecord(
        tournament="toys", round=1, board="tri:3", rules=game.parse_rules(None), handicap=0, first="ann",
        second="bob", black="ann", white="bob", moves=moves, winner=None, termination=Termination.MOVE_LIMIT,
        move_seconds=(0.1,) * len(moves), seed=3, started="2026-01-02T03:04:05Z", finished="2026-01-02T03:04:06Z",
        id=1, game=NAME)
    return replace(record, **changes)


def y_record(**changes: object) -> GameRecord:
    y = registry.get_game("y")
    record = GameRecord(game="y",
        tournament="toys", round=1, board="tri:3", rules=y.parse_rules({"pie": False}), handicap=0, first="ann",
        second="bob", black="ann", white="bob", moves=("a1", "b1", "a2", "c1", "a3"), winner=Color.BLACK,
        termination=Termination("connection"), move_seconds=(0.1,) * 5, seed=3, started="2026-01-02T03:04:05Z",
        finished="2026-01-02T03:04:06Z", id=2)
    return replace(record, **changes)


def test_the_one_replay_names_the_move_that_does_not_replay() -> None:
    game = registry.get_game(NAME)
    board = game.parse_board("tri:3")
    seen: list[tuple[int, str, Color]] = []
    state = replay(game, board, game.parse_rules(None), 0, MOVES[:3],
                   lambda n, move, colour: seen.append((n, game.format_move(board, move), colour)))
    assert seen == [(1, "a1", Color.BLACK), (2, "c1", Color.WHITE), (3, "a1-b1", Color.BLACK)]
    assert state.cells[board.index_of("b1")] == Color.BLACK and state.cells[board.index_of("a1")] == 0
    with pytest.raises(RecordError, match=r"move 3 \('a1-a3'\)") as caught:
        replay(game, board, game.parse_rules(None), 0, ("a1", "c1", "a1-a3"))
    assert isinstance(caught.value, ReplayError) and caught.value.number == 3
    assert len(caught.value.state.history) == 2
    assert replay_record(toy_record()).outcome.winner is None


def test_a_movement_move_is_drawn_with_an_arrow_along_its_path() -> None:
    board = registry.get_game(NAME).parse_board("tri:3")
    root = ET.fromstring(position_svg("tri:3", MOVES[:3], game=registry.get_game(NAME)))
    arrows = [p for p in root.iter(f"{SVG}path") if p.get("class") == "arrow"]
    assert len(arrows) == 1
    a1, b1 = (board.index_of(n) for n in ("a1", "b1"))
    start = [float(v) for v in arrows[0].get("d")[1:].split("L")[0].split()]
    end = [float(v) for v in arrows[0].get("d").split("L")[1].split()]
    assert end[0] > start[0] and abs(end[1] - start[1]) < 0.5  # from a1 rightwards to b1 on row 1
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert "1. b1 (black)" in titles and "2. c1 (white)" in titles  # the moved stone keeps its number
    assert "last move a1-b1" in titles
    assert a1 != b1
    placed = ET.fromstring(position_svg("tri:3", MOVES[:2], game=registry.get_game(NAME)))
    assert not [p for p in placed.iter(f"{SVG}path") if p.get("class") == "arrow"]


def test_a_draw_exports_as_half_a_point_and_counts_half_in_the_crosstable() -> None:
    draw = toy_record()
    win = toy_record(id=2, winner=Color.WHITE, termination=Termination.TIME, reason="slow")
    (game, other) = parse_pgn(to_pgn([draw, win]))
    assert game.tags["Result"] == "1/2-1/2" and game.result == "1/2-1/2"
    assert game.tags["Game"] == NAME and game.tags["Termination"] == "adjudication"
    assert game.tags["Rules"] == "max_plies=6" and other.tags["Result"] == "1-0"
    assert json.loads(to_jsonl([draw])) == draw.to_dict()
    table = build_crosstable([draw, win])
    pair = table.pair("ann", "bob")
    assert (pair.games, pair.draws, pair.wins_of("ann"), pair.wins_of("bob")) == (2, 1, 0, 1)
    assert pair.points_of("bob") == 1.5
    text = format_crosstable(table)
    assert "draws" in text and "1.5/2" in text and "0.5/2" in text
    rows = json.loads(format_crosstable(table, "json"))["rows"]
    assert rows[0]["draws"] == 1
    assert result_sentence(draw) == f"Draw by move limit after {len(MOVES)} moves"


def test_y_tables_without_draws_keep_their_columns() -> None:
    text = format_crosstable(build_crosstable([y_record()]))
    assert "draws" not in text and "1/1" in text
    assert "GM[y]" in game_to_sgf(y_record())
    assert '[Game "' not in to_pgn([y_record()])


def test_sgf_of_another_game_names_it_and_reads_back() -> None:
    record = toy_record()
    text = game_to_sgf(record)
    assert f"GM[ytourney-{NAME}]" in text and "GM[y]" not in text and "SZ[3]" in text
    assert ";B[a1-b1]" in text and "RE[0]" in text and "RU[Toyslide max_plies=6]" in text
    (back,) = read_sgf_games(text, "toy.sgf")
    assert back.game == NAME and back.moves == record.moves and back.winner is None
    assert back.termination is Termination.MOVE_LIMIT and back.rules == record.rules
    with pytest.raises(RecordError, match="GM\\[ytourney-nothing\\] is not a game"):
        read_sgf_games("(;GM[ytourney-nothing]SZ[3];B[a1])", "x.sgf")


def test_leagues_rate_each_game_apart_and_heat_maps_skip_movement_openings() -> None:
    toy, y = toy_record(), y_record()
    assert variant_of(toy) != variant_of(y) and variant_of(toy).label == f"{NAME} tri:3"
    assert variant_of(y).label == "tri:3"
    split = split_by_variant([Source(path=Path("x.jsonl"), name="x", loaded=(toy, y))])
    assert [v.label for v, _ in split] == [f"{NAME} tri:3", "tri:3"]
    stepping = toy_record(moves=("a1", "c1", "a1-b1"))
    stats = first_move_stats([toy, stepping, y])
    assert [(s.game.name, s.board, s.total) for s in stats] == [("y", "tri:3", 1), (NAME, "tri:3", 2)]
    assert stats[1].black_wins == {0: 1.0}  # two draws count half each


def test_a_site_of_another_game_shows_its_moves_draws_and_diagrams(tmp_path: Path) -> None:
    from ytourney.publish.site import publish_site
    from ytourney.stats.ratings import rate_records

    records = [toy_record(id=n, moves=MOVES[:4] if n % 2 else MOVES) for n in range(1, 5)]
    records.append(toy_record(id=5, winner=Color.BLACK, termination=Termination.TIME, reason="slow",
                              moves=MOVES[:3]))
    site = publish_site(rate_records(records), tmp_path / "site", generated="").out
    pages = sorted((site / "games").glob("*.html"))
    assert len(pages) == 5
    first = pages[0].read_text(encoding="utf-8")
    assert "Draw by move limit after 4 moves" in first and "c1-b2" in first and 'class="arrow"' in first
    assert "winning Y" not in first and "max_plies 6" in first
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'title="draws (half a point each)">D</th>' in index
    assert '<option value="draw">draw</option>' in (site / "games.html").read_text(encoding="utf-8")
    pair = next((site / "pairs").glob("*.html")).read_text(encoding="utf-8")
    assert "<td>draw</td>" in pair and "None" not in pair  # a drawn game's winner cell says so
    assert (site / "games.pgn").read_text(encoding="utf-8").count('[Result "1/2-1/2"]') == 4
    assert f'"game": "{NAME}"' in (site / "games.jsonl").read_text(encoding="utf-8")
