"""Fixed configs with fixed seeds give exactly the games recorded before the code was restructured."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "golden"
KEYS = ("id", "round", "board", "rules", "handicap", "first", "second", "black", "white", "moves", "winner",
        "winner_name", "termination", "seed", "opening_plies", "extra")


@pytest.mark.parametrize("config", sorted(GOLDEN.glob("*.yaml")), ids=lambda path: path.stem)
def test_seeded_config_replays_the_recorded_games(config: Path, tmp_path: Path) -> None:
    out = tmp_path / config.stem
    runner = CliRunner()
    result = runner.invoke(main, ["run", str(config), "--out", str(out), "--workers", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    exported = runner.invoke(main, ["export", str(out), "--format", "jsonl"])
    assert exported.exit_code == 0, exported.output
    games = [{key: json.loads(line)[key] for key in KEYS} for line in exported.output.splitlines() if line.strip()]
    expected = [json.loads(line) for line in (GOLDEN / f"{config.stem}.jsonl").read_text().splitlines()]
    assert len(games) == len(expected)
    for got, want in zip(games, expected):
        assert got == want, f"game {want['id']} of {config.stem} differs"
