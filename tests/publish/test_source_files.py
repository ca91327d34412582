"""Results to report on: JSON-lines files, folders that are missing or foreign, streamed league ratings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from table_games import invoke, make_results

from ytourney.games.record import GameRecord
from ytourney.publish.ratings_table import build_table, format_table
from ytourney.publish.sources import read_jsonl


def test_records_read_back_from_json_lines(tmp_path: Path, records: list[GameRecord]) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(r.to_dict()) for r in records) + "\n", encoding="utf-8")
    assert read_jsonl(path) == records
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"board": "tri:4"}\nnot json\n', encoding="utf-8")
    with pytest.raises(Exception, match="line 1: not a game record: missing key"):
        read_jsonl(bad)


def test_commands_report_missing_and_foreign_folders(tmp_path: Path) -> None:
    code, out = invoke("ratings", str(tmp_path / "nope"))
    assert code == 1 and "does not exist" in out
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
