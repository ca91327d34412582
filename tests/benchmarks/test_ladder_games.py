"""benchmarks/ladder_games.py's tallies: the upper rung's W-L-D, terminations, mean length, and the two seats of a
game that declares a measured side."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ytourney.games.api import Color
from ytourney.games.registry import all_games, get_game
from ytourney.games.termination import Termination

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from ladder_games import (  # noqa: E402
    ladder_rules,
    rows_of,
    rules_heading,
    rung_name,
    tally,
    timed_spec,
)


@dataclass
class Played:
    """A stand-in record: who held each colour, who won, how and in how many plies."""

    black: str
    white: str
    winner_name: str | None
    termination: Termination
    moves: tuple[str, ...]

    @property
    def is_draw(self) -> bool:
        return self.winner_name is None


def records() -> list[Any]:
    limit, rule = Termination("move-limit"), Termination.NO_MOVES
    return [Played("mcts", "heuristic", "mcts", rule, ("a",) * 10),
            Played("heuristic", "mcts", "heuristic", rule, ("a",) * 20),
            Played("mcts", "heuristic", None, limit, ("a",) * 30),
            Played("heuristic", "mcts", "mcts", rule, ("a",) * 40)]


def test_a_pair_counts_the_upper_rungs_results_terminations_and_length() -> None:
    row = tally("mcts vs heuristic", "mcts", records(), 0.75)
    assert (row.wins, row.losses, row.draws, row.score, row.mean_plies) == (2, 1, 1, 2.5, 25.0)
    assert row.terminations == (("move-limit", 1), ("no-moves", 3))
    assert " 2-1-1 " in row.line(20) and "no (75%)" in row.line(20)


def test_a_measured_side_splits_the_pair_by_the_upper_rungs_colour() -> None:
    class Lopsided:
        measured_side = Color.WHITE

    as_white, as_black = rows_of(Lopsided(), "heuristic", "mcts", records())  # type: ignore[arg-type]
    assert as_white.pair.endswith("as white") and (as_white.wins, as_white.losses, as_white.target) == (1, 1, 0.75)
    assert as_black.pair.endswith("as black") and (as_black.wins, as_black.draws, as_black.target) == (1, 1, 0.5)


def test_rung_specs_become_player_names_and_take_the_move_time() -> None:
    assert rung_name("mcts:c=0.5,playouts=20") == "mcts-c0.5-playouts20"
    assert timed_spec("mcts:c=0.5", 0.2) == "mcts:c=0.5,seconds=0.2"
    assert timed_spec("random", 0.2) == "random:seconds=0.2"
    assert timed_spec("mcts:seconds=1", 0.2) == "mcts:seconds=1"


def test_a_ladder_plays_the_rules_its_game_declares_and_prints_them() -> None:
    for game in all_games().values():
        game.parse_rules(dict(game.ladder_rules))  # every declared ladder rule is a rule of its game
    tetra = get_game("tetra")
    assert ladder_rules(tetra, argparse.Namespace(rule=[])) == {"pie": True}
    assert rules_heading(tetra, argparse.Namespace(rule=[])).startswith("pie on")
    assert ladder_rules(tetra, argparse.Namespace(rule=["pie=false", "max_plies=400"])) == {"pie": False,
                                                                                          "max_plies": 400}
    quinta = get_game("quinta")
    assert ladder_rules(quinta, argparse.Namespace(rule=[])) == {}
    assert rules_heading(quinta, argparse.Namespace(rule=[])) == quinta.rules_text(quinta.parse_rules(None))
