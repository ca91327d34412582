"""Results while a run goes on: --pgn-out/--jsonl-out per game and across resumes, --rating-interval, --set, and
the progress line's leader by rating."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from ytourney.games.variant import load_variant
from ytourney.cli import main
from ytourney.games.record import GameRecord, GameSetup
from ytourney.stats.ratings import RunningRatings, rate_records
from ytourney.tournament.config import parse_config
from ytourney.tournament.run import _leader
from ytourney.tournament.store import load_records
from ytourney.games.y.state import CONNECTION


def write_config(tmp_path: Path, games: int = 4) -> Path:
    path = tmp_path / "cup.yaml"
    path.write_text(f"name: cup\nboard: tri:5\nseed: 3\nschedule: {{games_per_pair: {games}}}\n"
                    "players: [{name: a, bot: random}, {name: b, bot: random}, {name: c, bot: random}]\n")
    return path


def run(*args: str):
    return CliRunner().invoke(main, ["run", *args])


def jsonl_ids(path: Path) -> list[int]:
    return [json.loads(line)["id"] for line in path.read_text().splitlines()]


def test_games_are_appended_as_stored_and_a_rerun_continues_without_duplicates(tmp_path: Path) -> None:
    config, out = write_config(tmp_path), tmp_path / "out"
    jsonl, pgn = tmp_path / "games.jsonl", tmp_path / "games.pgn"
    result = run(str(config), "--out", str(out), "--workers", "1", "--jsonl-out", str(jsonl), "--pgn-out", str(pgn))
    assert result.exit_code == 0, result.output
    stored = {record.id: record for record in load_records(out)}
    assert jsonl_ids(jsonl) == sorted(stored) == list(range(1, 13))
    assert [json.loads(line)["moves"] for line in jsonl.read_text().splitlines()] == [
        list(stored[i].moves) for i in range(1, 13)]
    assert [int(i) for i in re.findall(r'\[GameId "(\d+)"\]', pgn.read_text())] == list(range(1, 13))
    # a kill left a cut entry and the file lost games stored while nothing wrote it: the rerun repairs both
    lines = jsonl.read_text().splitlines()
    jsonl.write_text("\n".join(lines[:4]) + "\n" + lines[4][:20])
    pgn.write_text(pgn.read_text()[:-30])
    result = run(str(config), "--out", str(out), "--jsonl-out", str(jsonl), "--pgn-out", str(pgn))
    assert result.exit_code == 0, result.output
    assert sorted(jsonl_ids(jsonl)) == list(range(1, 13)) and len(jsonl_ids(jsonl)) == 12
    assert sorted(int(i) for i in re.findall(r'\[GameId "(\d+)"\]', pgn.read_text())) == list(range(1, 13))
    # a changed config on the same folder is refused before the file is touched
    other = run(str(config), "--out", str(out), "--set", "board=tri:6", "--jsonl-out", str(jsonl))
    assert other.exit_code != 0 and "differs in: board" in other.output  # another config: refused
    assert sorted(jsonl_ids(jsonl)) == list(range(1, 13))
    fresh = tmp_path / "fresh.jsonl"
    refused = run(str(config), "--out", str(out), "--set", "board=tri:6", "--jsonl-out", str(fresh))
    assert refused.exit_code != 0 and not fresh.exists()
    # more games per pair grow the run; a new file catches up with the stored games first
    bigger = run(str(config), "--out", str(out), "--set", "schedule.games_per_pair=6", "--jsonl-out", str(fresh))
    assert bigger.exit_code == 0, bigger.output
    assert jsonl_ids(fresh)[:12] == list(range(1, 13)) and sorted(jsonl_ids(fresh)) == list(range(1, 19))


def test_a_foreign_jsonl_file_is_refused_before_any_game(tmp_path: Path) -> None:
    config, out, jsonl = write_config(tmp_path), tmp_path / "out", tmp_path / "notes.jsonl"
    jsonl.write_text("hello\n")
    result = run(str(config), "--out", str(out), "--jsonl-out", str(jsonl))
    assert result.exit_code == 1 and "line 1 is not a game record" in result.output
    assert "Traceback" not in result.output and not (out / "tournament.db").exists()


def test_rating_interval_prints_the_table_every_n_games(tmp_path: Path) -> None:
    config, out = write_config(tmp_path), tmp_path / "out"
    result = run(str(config), "--out", str(out), "--workers", "1", "--rating-interval", "4", "-q", "--elo")
    assert result.exit_code == 0, result.output
    assert result.stderr.count("games rated with TrueSkill") == 3  # after 4, 8 and 12 games
    assert "4 games rated" in result.stderr and "Elo ± 95%" in result.stdout


def test_set_overrides_one_key_with_the_readers_checks(tmp_path: Path) -> None:
    config, out = write_config(tmp_path), tmp_path / "out"
    result = run(str(config), "--out", str(out), "--set", "schedule.games_per_pair=2", "--set", "players[2].bot=heuristic",
                 "-q")
    assert result.exit_code == 0, result.output
    records = load_records(out)
    assert len(records) == 6
    stored = (out / "tournament.db").exists()
    assert stored
    for override, message in (("schedule.games_per_pair=-1", "schedule.games_per_pair: expected a whole number >= 1"),
                              ("schedule.gamez=2", "schedule.gamez: unknown key"),
                              ("players[7].bot=random", "players[7]: --set players[7].bot: no such item"),
                              ("nothing", "expected KEY.PATH=VALUE")):
        result = run(str(config), "--out", str(tmp_path / "other"), "--set", override)
        assert result.exit_code == 1 and message in result.output, result.output
        assert not (tmp_path / "other").exists()
    again = run(str(config), "--out", str(out), "--set", "schedule.games_per_pair=2", "--set", "players[2].bot=heuristic")
    assert again.exit_code == 0 and "0 played now" in again.stderr
    for twice in (("--set", "game=yvy", "--game", "tetra"), ("--set", "board=tri:5", "--set", "board=tri:6")):
        result = run(str(config), "--out", str(tmp_path / "twice"), *twice)
        assert result.exit_code == 1 and "is already set by --set" in result.output, result.output
        assert not (tmp_path / "twice").exists()


def test_the_leader_is_named_by_rating_not_by_raw_wins() -> None:
    config = parse_config("name: h\nplayers: [{name: weak, bot: random}, {name: strong, bot: random}]\n", "h.yaml")

    def game(number: int, winner: str, handicap: int) -> GameRecord:
        loser = "strong" if winner == "weak" else "weak"
        setup = GameSetup(load_variant("y", "tri:11"), first="weak", second="strong", tournament="h", round=number, id=number,
                          handicap=handicap)
        return setup.lost_by(0 if loser == "weak" else 1, CONNECTION, "")

    # weak wins most games, all with a big handicap; strong wins every even game
    records = [game(i, "weak", 4) for i in range(1, 13)] + [game(i, "strong", 0) for i in range(13, 19)]
    running = RunningRatings(config.ratings)
    for record in records:  # rated one by one as they are stored: memory does not grow with the games
        running.add(record)
    text = _leader(running)()
    best = rate_records(records, config.ratings, detail=False).ranking()[0]
    assert text.startswith(f"{best.name} (running rating ") and best.name == "strong"
    assert running.leader() == best  # arriving in game-id order, the running ratings are the final table's
