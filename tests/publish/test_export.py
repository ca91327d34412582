"""Exports: JSON lines with every field, PGN that rating tools read, SGF per game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pgn_reader import PGN_TAG, parse_pgn

from ytourney.errors import ReportError
from ytourney.games.record import GameRecord, Termination
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.publish.export import (
    export_records,
    game_to_pgn,
    to_jsonl,
    to_pgn,
)
from ytourney.publish.sgf import game_to_sgf, stone_colours
from ytourney.publish.sources import read_jsonl

SEVEN_TAG_ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


def record(game_id: int | None = 1, *, first: str = "ann", second: str = 'bob "the bot" \\', moves: tuple[str, ...] =
           ("b2", "swap", "a1", "c1"), winner: Color = Color.WHITE, handicap: int = 0,
           termination: Termination = CONNECTION, reason: str = "", board: str = "tri:4") -> GameRecord:
    swapped = "swap" in moves
    black, white = (second, first) if swapped else (first, second)
    return GameRecord(game="y",
        tournament="demo cup", round=3, board=board, rules=Rules(pie=handicap == 0, misere=False),
        handicap=handicap, first=first, second=second, black=black, white=white, moves=moves, winner=winner,
        termination=termination, move_seconds=tuple(0.01 for _ in moves), seed=42,
        started="2026-11-29T12:00:00.000Z", finished="2026-11-29T12:00:01.000Z", id=game_id, reason=reason,
    )


def test_jsonl_has_every_field_and_reads_back(tmp_path: Path) -> None:
    games = [record(1), record(2, termination=Termination.TIME, reason="took 2.0s", winner=Color.BLACK)]
    text = to_jsonl(games)
    lines = text.splitlines()
    assert len(lines) == 2
    data = json.loads(lines[0])
    for key in ("id", "tournament", "round", "board", "rules", "handicap", "first", "black", "white", "moves",
                "winner", "winner_name", "termination", "move_seconds", "seed", "started", "finished"):
        assert key in data
    path = tmp_path / "games.jsonl"
    export_records(games, "jsonl", path)
    assert read_jsonl(path) == games


def test_pgn_tag_pairs_are_well_formed_and_read_back() -> None:
    games = [record(1), record(2, winner=Color.BLACK, termination=Termination.CRASH, reason='segfault } "oops"'),
             record(3, moves=tuple(["a1", "b1"] * 30), winner=Color.BLACK)]
    text = to_pgn(games)
    for block in text.strip().split("\n\n")[::2]:
        lines = block.splitlines()
        assert all(PGN_TAG.match(line) for line in lines), block
        assert [PGN_TAG.match(line).group(1) for line in lines[:7]] == SEVEN_TAG_ROSTER
    assert all(len(line) <= 79 for line in text.splitlines() if not line.startswith("["))
    parsed = parse_pgn(text)
    assert len(parsed) == 3
    first = parsed[0]
    assert first.tags["White"] == "ann" and first.tags["Black"] == 'bob "the bot" \\'
    assert first.tags["Result"] == first.result == "1-0"
    assert first.tags["Date"] == "2026.11.29" and first.tags["Round"] == "3" and first.tags["Event"] == "demo cup"
    assert first.tags["Termination"] == "normal" and first.tags["Board"] == "tri:4"
    assert first.moves == ("b2", "swap", "a1", "c1")
    crash = parsed[1]
    assert crash.result == "0-1" and crash.tags["Termination"] == "abandoned"
    assert crash.tags["YTermination"] == "crash" and crash.tags["Reason"] == 'segfault } "oops"'
    assert crash.comments and "ann loses by crash" in crash.comments[0]
    assert parsed[2].moves == tuple(["a1", "b1"] * 30)


def test_pgn_numbers_full_moves() -> None:
    text = game_to_pgn(record(moves=("a5", "c5", "b3", "d1", "e1")))
    movetext = text.split("\n\n")[1].split()
    assert movetext[:8] == ["1.", "a5", "c5", "2.", "b3", "d1", "3.", "e1"]
    assert parse_pgn(text)[0].moves == ("a5", "c5", "b3", "d1", "e1")


def test_pgn_white_and_black_are_the_final_colour_owners() -> None:
    swapped = record(moves=("b2", "swap", "a1"), winner=Color.BLACK)
    text = game_to_pgn(swapped)
    assert '[White "ann"]' in text and '[Black "bob \\"the bot\\" \\\\"]' in text
    assert '[Result "0-1"]' in text and '[First "ann"]' in text


def test_pgn_reader_reports_broken_input() -> None:
    with pytest.raises(ReportError, match="malformed tag pair"):
        parse_pgn('[Event "x]\n\n1. a1 1-0\n')
    with pytest.raises(ReportError, match="no result token"):
        parse_pgn('[Event "x"]\n\n1. a1\n')


def test_sgf_encodes_board_players_moves_and_swap() -> None:
    text = game_to_sgf(record())
    assert text.startswith("(;FF[4]GM[y]CA[UTF-8]")  # lower case, as the public Y engines check it
    assert "SZ[4]" in text and "YB[tri:4]" in text
    assert "PB[bob \"the bot\" \\\\]" in text and "PW[ann]" in text and "YF[ann]" in text
    assert "RE[W+]" in text and "HA[0]" in text and "GN[1]" in text and "DT[2026-11-29]" in text
    nodes = re.findall(r";(B|W|SW)\[([^\]]*)\]", text[text.index(";B["):])
    assert nodes == [("B", "b2"), ("SW", ""), ("W", "a1"), ("B", "c1")]
    assert text.rstrip().endswith(")")


def test_sgf_handicap_stones_are_black_and_faults_marked() -> None:
    game = record(moves=("a1", "b1", "c1", "d1"), handicap=2, winner=Color.WHITE, termination=Termination.TIME,
                  reason="took 3s")
    assert stone_colours(game) == ["B", "B", "W", "B"]
    text = game_to_sgf(game)
    assert "RE[W+T]" in text and "HA[2]" in text and "YT[time]" in text
    assert "C[ann loses by time: took 3s]" in text
    kadon = game_to_sgf(record(moves=("E5", "swap", "A1"), board="kadon"))
    assert "SZ[" not in kadon and "YB[kadon]" in kadon and ";B[E5];SW[];W[A1]" in kadon


def test_sgf_export_writes_one_file_per_game(tmp_path: Path) -> None:
    games = [record(1), record(2), record(None)]
    result = export_records(games, "sgf", tmp_path / "sgf")
    assert [p.name for p in result.paths] == ["demo-cup-00001.sgf", "demo-cup-00002.sgf", "demo-cup-00003.sgf"]
    assert all(p.read_text(encoding="utf-8").startswith("(;FF[4]") for p in result.paths)
    collection = export_records(games, "sgf", tmp_path / "all.sgf")
    assert collection.paths[0].read_text(encoding="utf-8").count("(;FF[4]") == 3
    assert export_records(games, "pgn").text.count('[Event "demo cup"]') == 3


@pytest.mark.parametrize("fmt", ["jsonl", "pgn", "sgf"])
def test_an_export_replaces_an_earlier_export_but_no_other_file(tmp_path: Path, fmt: str) -> None:
    games = [record(1), record(2)]
    earlier = tmp_path / f"games.{fmt}"
    export_records(games[:1], fmt, earlier)
    export_records(games, fmt, earlier)  # a rerun replaces its own export
    assert earlier.read_text(encoding="utf-8").count("ann") > 1
    notes = tmp_path / f"notes.{fmt}"
    notes.write_text("my notes\n", encoding="utf-8")
    with pytest.raises(ReportError, match=f"'{re.escape(str(notes))}' exists and is not a {fmt} export; expected a "
                                          f"new file or one `ytourney export --format {fmt}` wrote"):
        export_records(games, fmt, notes)
    assert notes.read_text(encoding="utf-8") == "my notes\n"


@pytest.mark.parametrize("name", ["tournament.db", "tournament.db-wal", "run.lock"])
def test_an_export_never_writes_over_a_results_store(tmp_path: Path, name: str) -> None:
    (tmp_path / "tournament.db").write_bytes(b"SQLite format 3\x00")
    target = tmp_path / name
    target.touch()  # an empty WAL or lock would pass as an empty file
    before = target.read_bytes()
    with pytest.raises(ReportError, match="is named like a file of a results store; expected another name"):
        export_records([record()], "jsonl", target)
    assert target.read_bytes() == before


def test_unknown_export_format() -> None:
    with pytest.raises(ReportError, match="unknown export format 'csv'; expected one of 'jsonl', 'pgn', 'sgf'"):
        export_records([record()], "csv")
