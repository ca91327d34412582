"""A new game is one module plus one registry line: tic-tac-toe (tests/fake_games) runs a whole tournament, rates
with draws, exports and publishes, through the same commands as Y and without touching another module."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.games import registry
from ytourney.tournament.store import load_records

FAKE_GAMES = Path(__file__).resolve().parent / "fake_games"


@pytest.fixture()
def tictactoe(monkeypatch: pytest.MonkeyPatch) -> str:
    """The one registry line (for this test only); workers are forked and inherit it."""
    monkeypatch.syspath_prepend(str(FAKE_GAMES))
    monkeypatch.setitem(registry.GAMES, "tictactoe", "tictactoe:GAME")
    return "tictactoe"


def test_a_tiny_game_runs_rates_exports_and_publishes(tictactoe: str, tmp_path: Path) -> None:
    config = tmp_path / "ttt.yaml"
    config.write_text("name: ttt\ngame: tictactoe\nboard: tri:3\nschedule: {games_per_pair: 10}\nseed: 5\n"
                      "players:\n  - {name: rnd, bot: random}\n  - {name: uct, bot: 'mcts:playouts=200'}\n"
                      "  - {name: rnd2, bot: random}\n")
    out = tmp_path / "out"
    runner = CliRunner()
    result = runner.invoke(main, ["run", str(config), "--out", str(out), "--quiet", "--workers", "2"])
    assert result.exit_code == 0, result.output
    records = load_records(out)
    assert len(records) == 30 and {r.game for r in records} == {"tictactoe"}
    assert {r.termination.value for r in records} <= {"line", "full"}
    draws = [r for r in records if r.winner is None]
    assert draws and all(r.termination.value == "full" for r in draws)
    wins = {name: sum(r.winner_name == name for r in records) for name in ("rnd", "uct", "rnd2")}
    assert wins["uct"] > max(wins["rnd"], wins["rnd2"])

    table = runner.invoke(main, ["ratings", str(out), "--elo"])
    assert table.exit_code == 0, table.output
    assert table.output.index("uct") < table.output.index("rnd")  # ranked first
    assert runner.invoke(main, ["crosstable", str(out)]).exit_code == 0

    pgn = runner.invoke(main, ["export", str(out), "--format", "pgn"])
    assert pgn.exit_code == 0 and "1/2-1/2" in pgn.output
    jsonl = runner.invoke(main, ["export", str(out), "--format", "jsonl"])
    first = json.loads(jsonl.output.splitlines()[0])
    assert first["game"] == "tictactoe" and "rules" in first
    sgf = runner.invoke(main, ["export", str(out), "--format", "sgf"])
    assert sgf.exit_code == 0 and "GM[ytourney-tictactoe]" in sgf.output

    site = tmp_path / "site"
    published = runner.invoke(main, ["publish", str(out), "--out", str(site)])
    assert published.exit_code == 0, published.output
    assert (site / "index.html").is_file()

    again = runner.invoke(main, ["run", str(config), "--out", str(out), "--quiet"])
    assert again.exit_code == 0 and len(load_records(out)) == 30  # resumes to nothing new


def test_play_and_bots_list_a_new_game(tictactoe: str) -> None:
    runner = CliRunner()
    played = runner.invoke(main, ["play", "random", "mcts:playouts=50", "--game", tictactoe, "--seed", "1"])
    assert played.exit_code == 0, played.output
    assert "result:" in played.output and "tictactoe, tri:3" in played.output
    listed = runner.invoke(main, ["bots", "--game", tictactoe])
    assert "random" in listed.output and "mcts" in listed.output and "heuristic" not in listed.output
    games = runner.invoke(main, ["games"])
    assert "tictactoe" in games.output and "y " in games.output
    # rules in words as play prints them, never Python values; a computed default shows its value
    assert "rules:    pie on, misère off" in games.output and "threshold 10, amazons 30" in games.output
    assert "=True" not in games.output and "None" not in games.output
    assert "default:  tetra(board=kadon,bridge_lines=on,max_plies=1000,pie=off)" in games.output  # Variant.spec


def test_a_y_only_bot_or_board_is_refused_for_another_game(tictactoe: str, tmp_path: Path) -> None:
    runner = CliRunner()
    wrong_bot = runner.invoke(main, ["play", "heuristic", "random", "--game", tictactoe])
    assert wrong_bot.exit_code == 1 and "unknown bot 'heuristic' for game 'tictactoe'" in wrong_bot.output
    wrong_board = runner.invoke(main, ["play", "random", "random", "--game", tictactoe, "--board", "kadon"])
    assert wrong_board.exit_code == 1 and "not a board of tictactoe" in wrong_board.output
    config = tmp_path / "bad.yaml"
    config.write_text("game: chess\nplayers: [random, random]\n")
    bad = runner.invoke(main, ["validate", str(config)])
    assert bad.exit_code == 1 and "unknown game 'chess'" in bad.output
