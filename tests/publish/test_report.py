"""Rating tables and crosstables: numbers, seat figures, faults, LOS, and every output format."""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from ytourney.errors import ReportError
from ytourney.game.record import GameRecord, Termination
from ytourney.game.rules import Color, Rules
from ytourney.publish.report import (
    SCHEMA_VERSION,
    Column,
    ColumnKind,
    Table,
    TableFormat,
    build_crosstable,
    build_table,
    format_crosstable,
    format_table,
    rating_table,
    render_table,
)
from ytourney.publish.sources import read_jsonl
from ytourney.stats.ratings import rate_records, superiority

EVIL = "<script>alert(1)</script>"


def game(game_id: int, first: str, second: str, moves: tuple[str, ...], winner: str, *, handicap: int = 0,
         termination: Termination = Termination.CONNECTION, pie: bool = True) -> GameRecord:
    """`first` placed the first stone; a 'swap' second move makes `second` Black; `winner` is a name."""
    swapped = len(moves) > 1 and moves[1] == "swap"
    black, white = (second, first) if swapped else (first, second)
    return GameRecord(
        tournament="demo", round=1, board="tri:4", rules=Rules(pie=pie and handicap == 0, misere=False),
        handicap=handicap, first=first, second=second, black=black, white=white, moves=moves,
        winner=Color.BLACK if winner == black else Color.WHITE, termination=termination,
        move_seconds=tuple(0.01 for _ in moves), seed=game_id, started="2026-01-02T03:04:05Z", finished="2026-01-02T03:04:06Z", id=game_id,
    )


@pytest.fixture
def records() -> list[GameRecord]:
    return [
        game(1, "ann", "bob", ("b2", "swap", "a1"), "bob"),
        game(2, "bob", "ann", ("a1", "b1"), "bob"),
        game(3, "ann", EVIL, ("c1", "a1"), "ann"),
        game(4, EVIL, "ann", ("c1",), "ann", termination=Termination.TIME),
        game(5, "bob", EVIL, ("a1", "swap", "b1"), EVIL),
        game(6, EVIL, "bob", ("a1", "b2"), "bob", termination=Termination.CRASH),
        game(7, "bob", "ann", ("a1", "b1"), "bob"),
        game(8, "ann", "bob", ("a1", "b1", "c1"), "bob", handicap=2),
    ]


def test_standings_count_results_seats_and_faults(records: list[GameRecord]) -> None:
    table = rating_table(records)
    rows = {s.name: s for s in table.standings}
    bob, ann, evil = rows["bob"], rows["ann"], rows[EVIL]
    assert (bob.games, bob.wins, bob.losses) == (6, 5, 1)
    assert (ann.games, ann.wins) == (6, 2)
    assert (evil.games, evil.wins, evil.losses) == (4, 1, 3)
    assert evil.faults == {"time": 1, "illegal": 0, "crash": 1, "protocol": 0, "forfeit": 0}
    assert evil.fault_total == 2 and bob.fault_total == 0
    assert bob.first_games == 3 and bob.first_wins == 2  # game 8 is a handicap game, not counted
    assert bob.swap_chances == 2 and bob.swaps == 1 and bob.swap_rate == 0.5 and bob.swap_win_rate == 1.0
    assert evil.swap_chances == 2 and evil.swaps == 1 and evil.swap_win_rate == 1.0
    assert ann.swap_chances == 2 and ann.swap_rate == 0.0 and ann.swap_win_rate is None
    assert bob.handicap_games == 1 and ann.handicap_games == 1
    assert table.handicap_games == 1
    assert bob.score == pytest.approx(5 / 6)


def test_ranks_follow_the_conservative_rating_and_los_the_posteriors(records: list[GameRecord]) -> None:
    ratings = rate_records(records)
    table = build_table(ratings)
    assert [s.rank for s in table.standings] == [1, 2, 3]
    conservative = [s.conservative for s in table.standings]
    assert conservative == sorted(conservative, reverse=True)
    ranked = ratings.ranking()
    for standing, here, below in zip(table.standings, ranked, ranked[1:]):
        assert standing.los_next == pytest.approx(superiority(here, below))
        expected = 0.5 * math.erfc(-(here.mu - below.mu) / math.hypot(here.sigma, below.sigma) / math.sqrt(2))
        assert standing.los_next == pytest.approx(expected)
    assert table.standings[-1].los_next is None
    bob = next(s for s in table.standings if s.name == "bob")
    opponents = [g for g in records if "bob" in (g.black, g.white)]
    mean_opp = sum(ratings.players[g.white if g.black == "bob" else g.black].mu for g in opponents) / len(opponents)
    assert bob.opponent_mu == pytest.approx(mean_opp)


def test_csv_and_json_parse_back_to_the_same_numbers(records: list[GameRecord]) -> None:
    table = rating_table(records)
    rows = list(csv.DictReader(io.StringIO(format_table(table, "csv"))))
    data = json.loads(format_table(table, "json"))
    assert data["schema_version"] == SCHEMA_VERSION and data["kind"] == "ratings"
    assert data["meta"]["games"] == len(records) and data["meta"]["sprt"] is None
    assert len(rows) == len(data["rows"]) == len(table.standings)
    for standing, row, obj in zip(table.standings, rows, data["rows"]):
        assert row["name"] == obj["name"] == standing.name
        for key in ("mu", "sigma", "conservative", "opponent_mu", "score"):
            assert float(row[key]) == obj[key] == pytest.approx(getattr(standing, key), abs=1e-6)
        for key in ("games", "wins", "losses", "swaps", "faults_time", "faults_crash"):
            assert int(row[key]) == obj[key]
        assert obj["faults_time"] == standing.faults["time"]
        if standing.los_next is None:
            assert row["los_next"] == "" and obj["los_next"] is None
        else:
            assert float(row["los_next"]) == pytest.approx(standing.los_next, abs=1e-6)


def test_text_table_is_aligned_and_has_the_footer(records: list[GameRecord]) -> None:
    text = format_table(rating_table(records), "text")
    lines = text.splitlines()
    header, rule = lines[1], lines[2]
    assert header.split()[:5] == ["#", "player", "mu", "sigma", "rating"]
    assert len(rule) == len(lines[3].rstrip()) or len(rule) >= len(lines[3].rstrip()) - 10
    widths = {len(line) for line in lines[3:6]}
    assert max(widths) - min(widths) <= len(EVIL)  # rows share the columns (trailing text varies)
    assert "8 games rated with TrueSkill" in text
    assert "1 handicap games rated with the learned worth of each level in skill points (tri:4: 1 = " in text
    assert "time 1, crash 1" in text


def test_markdown_escapes_pipes_and_tags() -> None:
    table = Table("demo", "T", (Column("name", "player"), Column("n", "n", ColumnKind.INT)),
                  ({"name": "a|b <i>", "n": 3},))
    md = render_table(table, "md")
    assert "| a\\|b &lt;i&gt; | 3 |" in md
    assert "|:---|---:|" in md


def test_html_table_escapes_player_names(records: list[GameRecord]) -> None:
    html = format_table(rating_table(records), "html")
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert html.startswith("<!DOCTYPE html>") and "<table" in html


def test_unknown_format_is_a_clean_error(records: list[GameRecord]) -> None:
    with pytest.raises(ReportError, match=r"unknown table format 'xml'; expected one of text, md, csv, json, html"):
        format_table(rating_table(records), "xml")
    assert TableFormat.parse("Markdown") is TableFormat.MARKDOWN


def test_crosstable_counts_pairs_and_duplicates(records: list[GameRecord]) -> None:
    cross = build_crosstable(records, order=["bob", "ann", EVIL])
    assert cross.players == ("bob", "ann", EVIL)
    pair = cross.pair("ann", "bob")
    assert pair is cross.pair("bob", "ann")
    assert (pair.a, pair.games, pair.wins_a, pair.wins_b) == ("bob", 4, 4, 0)
    assert pair.duplicates == 1  # games 2 and 7: same first player and the same moves
    assert cross.pair("ann", EVIL).duplicates == 0
    assert cross.totals("bob") == (6, 5, 1)
    assert cross.duplicates == 1
    assert any("bob vs ann: 1 of 4 games repeat" in note for note in cross.notes())


def test_crosstable_formats(records: list[GameRecord]) -> None:
    cross = build_crosstable(records, order=["bob", "ann", EVIL])
    text = format_crosstable(cross, "text")
    bob_line = next(line for line in text.splitlines() if line.startswith("1  bob"))
    assert bob_line.split()[4:7] == ["x", "4/4", "1/2"]
    rows = list(csv.DictReader(io.StringIO(format_crosstable(cross, "csv"))))
    assert {(r["a"], r["b"]): (int(r["games"]), int(r["wins_a"]), int(r["duplicates"])) for r in rows} == {
        ("bob", "ann"): (4, 4, 1), ("bob", EVIL): (2, 1, 0), ("ann", EVIL): (2, 2, 0)}
    data = json.loads(format_crosstable(cross, "json"))
    assert data["schema_version"] == SCHEMA_VERSION and data["kind"] == "crosstable"
    assert data["meta"]["players"] == ["bob", "ann", EVIL]
    html = format_crosstable(cross, "html")
    assert "<script>" not in html and "4/4" in html
    assert "| 1 | bob |" in format_crosstable(cross, "md")


def test_records_read_back_from_json_lines(tmp_path: Path, records: list[GameRecord]) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(r.to_dict()) for r in records) + "\n", encoding="utf-8")
    assert read_jsonl(path) == records
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"board": "tri:4"}\nnot json\n', encoding="utf-8")
    with pytest.raises(Exception, match="malformed|line 2"):
        read_jsonl(bad)


# --- the ratings and crosstable commands on results folders --------------------------------------------------------


def make_results(folder: Path, games: list[GameRecord], *, name: str = "demo",
                 config_text: str | None = None) -> Path:
    """A results folder written through the store API, games numbered 1.. in list order."""
    from ytourney.tournament.store import ResultStore, StoredPlayer

    names = list(dict.fromkeys(n for g in games for n in (g.first, g.second)))
    with ResultStore.open(folder, name=name, config_text=config_text or f"name: {name}\n", config_hash=name,
                          config_key={"name": name}, planned_games=len(games),
                          players=[StoredPlayer(n, "random", "builtin") for n in names]) as store:
        for number, record in enumerate(games, start=1):
            store.add_game(replace(record, tournament=name, id=number))
    return folder


def invoke(*args: str) -> tuple[int, str]:
    from click.testing import CliRunner

    from ytourney.cli import main

    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_ratings_command_formats(tmp_path: Path, records: list[GameRecord]) -> None:
    folder = make_results(tmp_path / "demo", records)
    code, out = invoke("ratings", str(folder))
    assert code == 0, out
    assert out.splitlines()[0] == "Ratings: demo" and "8 games rated with TrueSkill" in out
    code, out = invoke("ratings", str(folder), "--format", "json")
    assert code == 0 and json.loads(out)["meta"]["games"] == 8
    code, out = invoke("ratings", str(folder), "--format", "html")
    assert code == 0 and "&lt;script&gt;" in out and "<script>" not in out
    code, out = invoke("ratings", str(folder), "--format", "xml")
    assert code == 2 and "'xml' is not one of" in out


def test_ratings_command_rates_a_league_and_jsonl_files(tmp_path: Path, records: list[GameRecord]) -> None:
    one = make_results(tmp_path / "one", records[:4], name="one")
    two = make_results(tmp_path / "two", records[4:], name="two")
    code, out = invoke("ratings", str(one), str(two), "--format", "csv")
    assert code == 0, out
    league = {row["name"]: row for row in csv.DictReader(io.StringIO(out))}
    assert int(league["bob"]["games"]) == 6
    exported = tmp_path / "two.jsonl"
    exported.write_text("".join(json.dumps(replace(r, tournament="two").to_dict()) + "\n" for r in records[4:]),
                        encoding="utf-8")
    code, again = invoke("ratings", str(one), str(exported), "--format", "csv")
    assert code == 0 and again == out


def test_ratings_command_shows_the_sprt_state_of_a_match(tmp_path: Path) -> None:
    games = [game(i, "new", "old", ("a1", "b1"), "new") for i in range(1, 31)]
    config = ("name: m\nboard: tri:4\nschedule: {format: match, sprt: {p0: 0.45, p1: 0.55}}\n"
              "players:\n  - {name: new, bot: random}\n  - {name: old, bot: random}\n")
    folder = make_results(tmp_path / "m", games, name="m", config_text=config)
    code, out = invoke("ratings", str(folder))
    assert code == 0, out
    assert "SPRT new vs old (p0 0.45, p1 0.55, alpha 0.05, beta 0.05): 30 wins 0 losses" in out
    assert "H1 accepted after 15 games" in out
    code, out = invoke("ratings", str(folder), "--format", "json")
    assert json.loads(out)["meta"]["sprt"]["decision"] == "H1"


def test_crosstable_command(tmp_path: Path, records: list[GameRecord]) -> None:
    folder = make_results(tmp_path / "demo", records)
    code, out = invoke("crosstable", str(folder))
    assert code == 0, out
    assert out.splitlines()[0] == "Crosstable: demo"
    assert "bob vs ann: 1 of 4 games repeat an earlier game" in out
    code, out = invoke("crosstable", str(folder), "--format", "json")
    assert code == 0 and json.loads(out)["meta"]["duplicates"] == 1


def test_commands_report_missing_and_foreign_folders(tmp_path: Path) -> None:
    code, out = invoke("ratings", str(tmp_path / "nope"))
    assert code == 2 and "does not exist" in out
    code, out = invoke("ratings", str(tmp_path))
    assert code == 1 and "is not a results folder" in out and "Traceback" not in out


def test_ratings_of_folders_are_streamed_and_match_the_detailed_replay(tmp_path: Path,
                                                                     records: list[GameRecord]) -> None:
    from ytourney.publish.sources import load_sources, rate_sources

    sources = load_sources([make_results(tmp_path / "one", records[:5], name="one"),
                            make_results(tmp_path / "two", records[5:], name="two")])
    lean = rate_sources(sources, detail=False)
    assert lean.games == () and all("records" not in vars(s) for s in sources)  # nothing was loaded and kept
    full = rate_sources(sources)
    assert len(full.games) == 8 and full.tournaments == lean.tournaments == ("one", "two")
    for fmt in ("text", "csv", "json"):
        assert format_table(build_table(lean), fmt) == format_table(build_table(full), fmt)
