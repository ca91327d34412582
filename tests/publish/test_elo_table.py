"""Elo beside TrueSkill: the Elo columns, the sort, the anchor, handicap games left out, every format."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from table_games import EVIL, invoke, make_results

from ytourney.games.variant import load_variant
from ytourney.games.record import GameRecord
from ytourney.publish.ratings_table import (
    RatingSort,
    build_table,
    format_table,
    rating_table,
)
from ytourney.stats.elo import fit_elo
from ytourney.stats.ratings import rate_records


def test_elo_columns_sit_beside_the_trueskill_ones(records: list[GameRecord]) -> None:
    table = rating_table(records, elo_records=records)
    fit = fit_elo(records)
    rows = {s.name: s.row() for s in table.standings}
    for rating in fit.ratings:
        assert rows[rating.name]["elo"] == rating.elo and rows[rating.name]["elo_low"] == rating.low
    text = format_table(table)
    assert "Elo ± 95%" in text and "mu" in text and "sigma" in text
    assert f"{fit.handicap_games_left_out} handicap games left out of Elo" in text
    assert "anchor pool average = 0" in text
    assert "Elo ±" not in format_table(rating_table(records))  # no Elo unless asked


def test_elo_sort_and_anchor(records: list[GameRecord]) -> None:
    ratings = rate_records(records)
    fit = fit_elo(records, anchor="bob")
    table = build_table(ratings, elo=fit, sort=RatingSort.ELO)
    assert [s.name for s in table.standings] == [r.name for r in fit.ratings]
    assert [s.rank for s in table.standings] == list(range(1, len(fit.ratings) + 1))
    assert table.standings[[s.name for s in table.standings].index("bob")].elo.elo == 0.0
    data = json.loads(format_table(table, "json"))
    assert data["meta"]["sort_key"] == "elo" and data["meta"]["elo"]["anchor"] == "bob"
    rows = list(csv.DictReader(io.StringIO(format_table(table, "csv"))))
    assert {"elo", "elo_low", "elo_high", "elo_bounded", "mu"} <= set(rows[0])


def test_ratings_command_elo_options(tmp_path: Path, records: list[GameRecord]) -> None:
    folder = make_results(tmp_path / "r", records)
    code, out = invoke("ratings", str(folder), "--rating", "elo", "--anchor", "ann")
    assert code == 0 and "ranked by Elo" in out and "anchor ann = 0" in out
    for fmt in ("md", "html", "json", "csv"):
        code, out = invoke("ratings", str(folder), "--elo", "--format", fmt)
        assert code == 0 and ("elo" in out.lower()), fmt
    code, out = invoke("ratings", str(folder), "--anchor", "nobody")
    assert code == 1 and "elo anchor 'nobody'" in out and "Traceback" not in out
    assert EVIL in invoke("ratings", str(folder), "--elo")[1]


def test_pools_that_never_met_are_said_and_only_perfect_scores_are_starred() -> None:
    from ytourney.games.api import Termination
    from ytourney.games.record import GameSetup

    def won(winner: str, loser: str, count: int) -> list[GameRecord]:
        setup = GameSetup(load_variant("y", "tri:5"), first=winner, second=loser)
        return [setup.lost_by(1, Termination.FORFEIT, "x") for _ in range(count)]

    records = (won("a", "b", 2) + won("b", "a", 1) + won("c", "d", 1) + won("d", "c", 2) + won("e", "c", 1)
               + won("e", "d", 1))
    text = format_table(rating_table(records, elo_records=records))
    assert "the even games split into 2 groups of players that never met (c, d, e | a, b)" in text
    starred = [line.split()[1] for line in text.splitlines() if "*" in line and line[:1].isdigit()]
    assert starred == ["e"] and "won or lost every game against the rest of its group" in text
