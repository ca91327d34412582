"""The bot ladder of every game: each rung of a game's declared ladder (`Game.ladder`, weakest first) plays the rung
above it, and the table says whether the upper rung scores the 75% the ladder asks for.

Every pair plays `--games` games through the library's own match path (the config `ytourney match` writes, run by
the tournament runner into a results folder), seats alternated, the rules the game measures its ladder under
(`Game.ladder_rules`: its defaults unless it names some, like Tetra's pie; each table prints them) with the
default adjudication, every rung given `seconds=S` and the match `time.move_seconds=S`, seeds fixed. Each row:
the upper rung's W-L-D and score (a draw counts half) with a 95% Wilson interval, whether it reaches 75%, how many
games each termination ended, and the mean game length in plies.

A game that declares `measured_side` (one seat too lopsided to measure both) gets two rows per pair: the upper
rung's score in that seat, where it must reach 75%, and in the other seat, where it must not lose (reach 50%).

    python benchmarks/ladder_games.py --game tetra --games 40 --seconds 0.2 --workers 2
    python benchmarks/ladder_games.py --games 2 --seconds 0.05          # a quick smoke run of every game
    python benchmarks/ladder_games.py --game tetra --rungs heuristic mcts:c=0.5 --games 20   # a candidate rung
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from intervals import wilson

from ytourney.games.api import Color, Game
from ytourney.games.record import GameRecord
from ytourney.games.registry import all_games, get_game
from ytourney.tournament.adhoc import MatchOptions, plan_match
from ytourney.tournament.run import plan_config
from ytourney.tournament.store import load_records

TARGET = 0.75
"""The score each rung must reach against the rung below (issue 34)."""
HOLD = 0.5
"""The score an upper rung must reach in the seat a lopsided game does not measure (it must not lose)."""


@dataclass(frozen=True)
class Row:
    """One line of a game's table: the upper rung's results against the lower one (in one seat or both)."""

    pair: str
    wins: int
    losses: int
    draws: int
    target: float
    terminations: tuple[tuple[str, int], ...]
    mean_plies: float

    @property
    def games(self) -> int:
        """Games counted in this row."""
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        """Points of the upper rung, a draw counting half."""
        return self.wins + self.draws / 2

    def line(self, width: int) -> str:
        """The row as printed."""
        low, high = wilson(self.score, self.games)
        rate = self.score / self.games if self.games else 0.0
        met = "yes" if rate >= self.target else "no"
        ends = ", ".join(f"{name} {count}" for name, count in self.terminations)
        record = f"{self.wins}-{self.losses}-{self.draws}"
        return (f"{self.pair:<{width}}  {record:<9} {rate:>5.0%}  [{low:4.0%}, {high:4.0%}]  "
                f"{met:>3} ({self.target:.0%})  {self.mean_plies:6.1f}  {ends}")


def rung_name(spec: str) -> str:
    """A player name for a rung spec (a name holds no ':' nor '='): `mcts:c=0.5` is `mcts-c0.5`."""
    name, _, options = spec.partition(":")
    return name if not options else f"{name}-{options.replace('=', '').replace(',', '-').replace(':', '-')}"


def timed_spec(spec: str, seconds: float) -> str:
    """The rung's spec with `seconds=` set (kept when the ladder already gives one)."""
    name, _, options = spec.partition(":")
    if any(item.strip().startswith("seconds=") for item in options.split(",")):
        return spec
    return f"{name}:{options + ',' if options else ''}seconds={seconds:g}"


def play_pair(game: Game, lower: str, upper: str, args: argparse.Namespace, seed: int,
              folder: Path) -> list[GameRecord]:
    """The pair's games, played through `ytourney match`'s path into `folder`; returns their records."""
    players = [f"{rung_name(upper)}={timed_spec(upper, args.seconds)}",
               f"{rung_name(lower)}={timed_spec(lower, args.seconds)}"]
    rules = tuple(f"{key}={json.dumps(value)}" for key, value in ladder_rules(game, args).items())
    options = MatchOptions(game=game.name, games_per_pair=args.games, move_seconds=args.seconds, seed=seed,
                           name=f"ladder-{game.name}", rules=rules)
    match = plan_match(players, options, folder)
    plan = plan_config(match.config, match.folder)
    match.write()
    plan.run(workers=args.workers)
    return load_records(folder, times=False)


def ladder_rules(game: Game, args: argparse.Namespace) -> dict[str, object]:
    """The rules a game's ladder is measured under: its `ladder_rules`, then each `--rule KEY=VALUE` over them."""
    rules = dict(game.ladder_rules)
    for item in args.rule:
        key, _, value = item.partition("=")
        rules[key.strip()] = json.loads(value) if value.strip() not in ("", "default") else value.strip()
    return rules


def rules_heading(game: Game, args: argparse.Namespace) -> str:
    """The rules a table was measured under, in words ('pie on, bridge_lines on, max_plies 1000')."""
    return game.rules_text(game.parse_rules(ladder_rules(game, args)))


def rows_of(game: Game, lower: str, upper: str, records: list[GameRecord]) -> list[Row]:
    """The pair's row, or with a measured side its two rows (that seat, the other seat)."""
    upper_name = rung_name(upper)
    pair = f"{upper_name} vs {rung_name(lower)}"
    side = game.measured_side
    if side is None:
        return [tally(pair, upper_name, records, TARGET)]

    def played(record: GameRecord, color: Color) -> bool:
        return (record.black if color is Color.BLACK else record.white) == upper_name

    return [tally(f"{pair} as {side.name.lower()}", upper_name, [r for r in records if played(r, side)], TARGET),
            tally(f"{pair} as {side.other.name.lower()}", upper_name, [r for r in records if played(r, side.other)],
                  HOLD)]


def tally(pair: str, upper_name: str, records: list[GameRecord], target: float) -> Row:
    """Count the upper rung's wins, losses and draws, the terminations and the mean length of `records`."""
    wins = sum(record.winner_name == upper_name for record in records)
    draws = sum(record.is_draw for record in records)
    ends = collections.Counter(record.termination.value for record in records)
    plies = sum(len(record.moves) for record in records) / len(records) if records else 0.0
    return Row(pair, wins, len(records) - wins - draws, draws, target, tuple(sorted(ends.items())), plies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", dest="games_named", action="append", default=None, metavar="G",
                        help="a game to measure (repeatable; default: every game)")
    parser.add_argument("--games", type=int, default=40, help="games per pair (seats alternate)")
    parser.add_argument("--seconds", type=float, default=0.2, help="seconds a move, for every rung and the referee")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="keep the results folders here (default: a temporary folder)")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule over the game's ladder rules (repeatable; a JSON value: --rule pie=false)")
    parser.add_argument("--rungs", nargs="+", default=None, metavar="SPEC",
                        help="bot specs to play instead of each game's declared ladder, weakest first")
    args = parser.parse_args()
    if args.games < 1 or args.seconds <= 0 or args.workers < 1:
        parser.error("--games and --workers must be at least 1 and --seconds above 0")
    games = [get_game(name) for name in args.games_named] if args.games_named else list(all_games().values())
    with tempfile.TemporaryDirectory(prefix="ladder-") as scratch:
        root = Path(args.out) if args.out else Path(scratch)
        for game in games:
            began = time.perf_counter()
            rows: list[Row] = []
            for index, (lower, upper) in enumerate(itertools.pairwise(args.rungs or game.ladder)):
                folder = root / game.name / f"{index}-{rung_name(upper)}-vs-{rung_name(lower)}"
                records = play_pair(game, lower, upper, args, args.seed * 1000 + index, folder)
                rows.extend(rows_of(game, lower, upper, records))
            width = max([len("pair"), *(len(row.pair) for row in rows)])
            print(f"\n{game.title} (--game {game.name}, {game.default_board}): {args.games} games a pair, "
                  f"{args.seconds:g} s a move, {args.workers} workers, {time.perf_counter() - began:.0f} s; "
                  f"rules: {rules_heading(game, args)}")
            print(f"{'pair':<{width}}  {'W-L-D':<9} {'score':>5}  {'95% Wilson':<12}  {'met':<9}  {'plies':>6}  "
                  "terminations")
            for row in rows:
                print(row.line(width))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
