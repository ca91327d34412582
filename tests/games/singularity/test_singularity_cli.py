"""A short match of Singularity through the CLI: random against the generic mcts with the game's search hooks, records
stored and rated."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ytourney.cli import main
from ytourney.tournament.store import load_records


def test_a_short_match_runs_and_every_game_ends(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["match", "random", "mcts:playouts=50", "--game", "singularity",
                                       "--games-per-pair", "2", "--workers", "1", "--seed", "3", "--no-pie",
                                       "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    records = load_records(out)
    assert len(records) == 2 and {r.game for r in records} == {"singularity"}
    assert all(r.termination.value in ("singularity", "move-limit", "no-moves") for r in records)
    assert all("-" in move for r in records for move in r.moves)
