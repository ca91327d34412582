"""Hand-built game records and results folders shared by the table tests."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from ytourney.cli import main
from ytourney.games.record import GameRecord, Termination
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.tournament.store import ResultStore, StoredPlayer

EVIL = "<script>alert(1)</script>"


def game(game_id: int, first: str, second: str, moves: tuple[str, ...], winner: str, *, handicap: int = 0,
         termination: Termination = CONNECTION, pie: bool = True) -> GameRecord:
    """`first` placed the first stone; a 'swap' second move makes `second` Black; `winner` is a name."""
    swapped = len(moves) > 1 and moves[1] == "swap"
    black, white = (second, first) if swapped else (first, second)
    return GameRecord(game="y",
        tournament="demo", round=1, board="tri:4", rules=Rules(pie=pie and handicap == 0, misere=False),
        handicap=handicap, first=first, second=second, black=black, white=white, moves=moves,
        winner=Color.BLACK if winner == black else Color.WHITE, termination=termination,
        move_seconds=tuple(0.01 for _ in moves), seed=game_id, started="2026-01-02T03:04:05Z", finished="2026-01-02T03:04:06Z", id=game_id,
    )


def sample_records() -> list[GameRecord]:
    """Eight games of ann, bob and a player whose name is an HTML tag: swaps, faults, a duplicate, a handicap."""
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


def make_results(folder: Path, games: list[GameRecord], *, name: str = "demo",
                 config_text: str | None = None) -> Path:
    """A results folder written through the store API, games numbered 1.. in list order."""
    names = list(dict.fromkeys(n for g in games for n in (g.first, g.second)))
    config_text = config_text or json.dumps({"name": name, "players": [{"name": n, "bot": "random"} for n in names]})
    with ResultStore.open(folder, name=name, config_text=config_text, config_hash=name,
                          config_key={"name": name}, planned_games=len(games),
                          players=[StoredPlayer(n, "random", "builtin") for n in names]) as store:
        for number, record in enumerate(games, start=1):
            store.add_game(replace(record, tournament=name, id=number))
    return folder


def invoke(*args: str) -> tuple[int, str]:
    """Exit code and output of a ytourney command."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output
