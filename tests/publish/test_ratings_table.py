"""Rating tables: numbers, seat figures, faults, LOS, every output format, and the ratings command."""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import replace
from pathlib import Path

import pytest
from table_games import EVIL, game, invoke, make_results

from ytourney.games.record import GameRecord
from ytourney.publish.ratings_table import build_table, format_table, rating_table
from ytourney.publish.table import SCHEMA_VERSION
from ytourney.stats.ratings import rate_records, superiority


def test_standings_count_results_seats_and_faults(records: list[GameRecord]) -> None:
    table = rating_table(records)
    rows = {s.name: s for s in table.standings}
    bob, ann, evil = rows["bob"].results, rows["ann"].results, rows[EVIL].results
    assert (bob.games, bob.wins, bob.losses) == (6, 5, 1)
    assert (ann.games, ann.wins) == (6, 2)
    assert (evil.games, evil.wins, evil.losses) == (4, 1, 3)
    assert rows[EVIL].faults == {"time": 1, "illegal": 0, "crash": 1, "protocol": 0, "forfeit": 0}
    assert sum(rows[EVIL].faults.values()) == 2 and sum(rows["bob"].faults.values()) == 0
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
        for key in ("mu", "sigma", "conservative", "opponent_mu"):
            assert float(row[key]) == obj[key] == pytest.approx(getattr(standing, key), abs=1e-6)
        assert float(row["score"]) == obj["score"] == pytest.approx(standing.results.score, abs=1e-6)
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
    assert code == 1 and "'xml' is not one of" in out


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


def test_seat_rates_from_too_few_games_are_blank_and_the_notes_say_what_they_leave_out(
        records: list[GameRecord]) -> None:
    table = rating_table(records)
    rows = {s.name: s.row() for s in table.standings}
    bob = next(s for s in table.standings if s.name == "bob").results
    assert bob.first_games == 3 and rows["bob"]["first_games"] == 3  # the count stays in the data
    assert rows["bob"]["first_win_rate"] is None  # 2 of 3 is not shown as 66.7%
    text = format_table(table)
    assert ("1st-win, swap and swap-win count even games only (1 handicap games left out); a rate from fewer than "
            "5 games is left blank.") in text
    many = records * 5
    rows = {s.name: s.row() for s in rating_table(many).standings}
    assert rows["bob"]["first_win_rate"] == pytest.approx(2 / 3)
