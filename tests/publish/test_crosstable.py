"""Crosstables: pairs, duplicate games, every output format, and the crosstable command."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from table_games import EVIL, invoke, make_results

from ytourney.games.record import GameRecord
from ytourney.publish.crosstable import build_crosstable, format_crosstable
from ytourney.publish.table import SCHEMA_VERSION


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


def test_crosstable_command(tmp_path: Path, records: list[GameRecord]) -> None:
    folder = make_results(tmp_path / "demo", records)
    code, out = invoke("crosstable", str(folder))
    assert code == 0, out
    assert out.splitlines()[0] == "Crosstable: demo"
    assert "bob vs ann: 1 of 4 games repeat an earlier game" in out
    code, out = invoke("crosstable", str(folder), "--format", "json")
    assert code == 0 and json.loads(out)["meta"]["duplicates"] == 1
