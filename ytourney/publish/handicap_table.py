"""The handicap tables: the fair handicap of every pair with its interval, and the learned worth of each level."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ytourney.errors import ReportError
from ytourney.games.api import Game
from ytourney.games.record import GameRecord
from ytourney.games.registry import all_games
from ytourney.publish.handicap_sides_table import SideTerms, side_table
from ytourney.publish.sources import Source
from ytourney.publish.table import Column, ColumnKind, Table
from ytourney.stats.handicap import (
    HandicapEstimate,
    HandicapMode,
    HandicapPlanner,
    HandicapSettings,
    counts_for_handicap,
    informs_side_handicap,
)
from ytourney.stats.handicap_sides import SideEstimate, SidePlanner
from ytourney.stats.level_worth import LevelValue
from ytourney.stats.ratings import HandicapRating, Ratings

LEVELS_NOTE = ("Levels: 0 = even game with the pie rule, 1 = the weaker player is Black without pie, k >= 2 = Black "
               "places k stones first; a fractional level is played as a mix of its neighbours.")

HANDICAP_COLUMNS: tuple[Column, ...] = (
    Column("weaker", "weaker"),
    Column("stronger", "stronger"),
    Column("median", "fair level", ColumnKind.FLOAT, 2, "posterior median of the level the weaker player needs"),
    Column("low", "low", ColumnKind.FLOAT, 2, "lower end of the 95% credible interval"),
    Column("high", "high", ColumnKind.FLOAT, 2, "upper end of the 95% credible interval"),
    Column("games", "games", ColumnKind.INT, description="games counted in the estimate (decided on the board)"),
    Column("faults", "faults", ColumnKind.INT,
           description="games of the pair ended by a fault (time, crash, protocol, illegal, forfeit), left out"),
    Column("p_weaker", "P(weaker)", ColumnKind.PERCENT, 1, "posterior probability that 'weaker' is the weaker one"),
    Column("slope", "slope", ColumnKind.FLOAT, 2,
           "posterior median of s in P(weaker wins at level L) = Phi(s (L - fair level))"),
    Column("per_level", "results by level", description="level: wins of the weaker player / games (win rate)",
           data=False),
)


def _level_key(level: int) -> str:
    """Column-key suffix of a signed level (negative: the stronger player received it)."""
    return f"L{level}" if level >= 0 else f"Lm{-level}"


def _per_level_text(per_level: Mapping[int, tuple[int, int]]) -> str:
    """'0: 1/10 (10%), 3: 6/12 (50%)' from level -> (games, weaker wins)."""
    parts = [f"{level}: {wins}/{games} ({100 * wins / games:.0f}%)" if games else f"{level}: -"
             for level, (games, wins) in sorted(per_level.items())]
    return ", ".join(parts) or "-"


def handicap_table(estimates: Mapping[tuple[str, str], HandicapEstimate], title: str = "Fair handicaps", *,
                   faults: Mapping[tuple[str, str], int] | None = None, target: float = 0.5,
                   pooled: bool | None = None) -> Table:
    """A Table of handicap estimates, one row per pair.

    Text, Markdown and HTML show the results by level as one column; csv and json carry them as numbers, in
    columns games_L<k>, wins_L<k> and win_rate_L<k> for every level k played (Lm<k>: the stronger received k).
    """
    items = list(estimates.values())
    levels = sorted({level for estimate in items for level in estimate.per_level})
    rows = []
    for estimate in items:
        per_level = estimate.per_level
        key = tuple(sorted((estimate.weaker, estimate.stronger)))
        row: dict[str, Any] = {
            "weaker": estimate.weaker, "stronger": estimate.stronger, "median": float(estimate.median),
            "low": float(estimate.low), "high": float(estimate.high), "games": int(estimate.games),
            "faults": (faults or {}).get(key, 0), "p_weaker": estimate.p_weaker,
            "slope": estimate.slope, "per_level": _per_level_text(per_level),
        }
        for level in levels:
            games, wins = per_level.get(level, (0, 0))
            row[f"games_{_level_key(level)}"] = games
            row[f"wins_{_level_key(level)}"] = wins
            row[f"win_rate_{_level_key(level)}"] = wins / games if games else None
        rows.append(row)
    columns = list(HANDICAP_COLUMNS)
    for level in levels:
        who = f"level {level}" if level >= 0 else f"level {-level} given to the stronger player"
        columns += [
            Column(f"games_{_level_key(level)}", f"games L{level}", ColumnKind.INT, description=f"games at {who}",
                   display=False),
            Column(f"wins_{_level_key(level)}", f"wins L{level}", ColumnKind.INT,
                   description=f"wins of the weaker player at {who}", display=False),
            Column(f"win_rate_{_level_key(level)}", f"win rate L{level}", ColumnKind.PERCENT, 1,
                   description=f"win rate of the weaker player at {who}", display=False),
        ]
    notes = [LEVELS_NOTE]
    aim = "both win half their games" if target == 0.5 else f"the weaker player wins {100 * target:g}% of its games"
    notes.append(f"Fair level: the handicap at which {aim}; the 95% credible interval is [low, high]. Games that "
                 "ended by a fault are left out of the estimate (they say nothing about what a level is worth).")
    if pooled:
        notes.append("Each pair's prior was informed by the other pairs: a shared slope and strengths on the level "
                     "scale (pair a-b needs about h_a - h_b levels).")
    meta = {"target": target, "levels": levels}
    return Table("handicap", title, tuple(columns), tuple(rows), tuple(notes) if rows else (), meta)


LEVEL_WORTH_COLUMNS: tuple[Column, ...] = (
    Column("board", "board"),
    Column("level", "level", ColumnKind.INT),
    Column("mu", "worth", ColumnKind.FLOAT, 2, "learned skill the level adds to the weaker side (TrueSkill mu)"),
    Column("sigma", "sigma", ColumnKind.FLOAT, 2, "uncertainty of the worth"),
    Column("games", "games", ColumnKind.INT, description="rated games at this level (level 0: even games)"),
    Column("weaker_win_rate", "weaker won", ColumnKind.PERCENT, 1,
           "how often the player receiving the level won (games decided on the board)"),
)


def level_worth_text(values: Iterable[LevelValue]) -> str:
    """'tri:9: 1 = 3.2, 2 = 6.9' for the levels above 0 of each board."""
    boards: dict[str, list[str]] = {}
    for value in values:
        if value.level > 0:
            boards.setdefault(value.board, []).append(f"{value.level} = {value.mu:.1f}")
    return "; ".join(f"{board}: {', '.join(parts)}" if board else ", ".join(parts) for board, parts in boards.items())


def level_row(value: LevelValue) -> dict[str, Any]:
    """JSON row of a level's worth."""
    return {"board": value.board, "level": value.level, "mu": value.mu, "sigma": value.sigma, "games": value.games}


def level_worth_table(values: Sequence[LevelValue], results: Mapping[tuple[str, int], tuple[int, int]] | None = None,
                      title: str = "Worth of each handicap level", *, learned: bool = True) -> Table:
    """A Table of the learned worth of each level per board; `results`: (board, level) -> (games, weaker wins)."""
    rows = []
    for value in values:
        games, wins = (results or {}).get((value.board, value.level), (0, 0))
        row = {**level_row(value), "weaker_win_rate": wins / games if games and value.level else None}
        if value.level == 0:
            row["games"] = games  # even games: nobody received anything, so no win rate of a weaker side
        rows.append(row)
    notes = [("Worth: the skill (TrueSkill mu) the handicap adds to the weaker player's side when rating a game, "
              "learned from the games, kept non-decreasing in the level; level 0 is worth 0.")]
    if not learned:
        notes = ["Handicap games were rated as plain wins and losses (ratings.handicap: even): no worth was learned."]
    return Table("level_worth", title, LEVEL_WORTH_COLUMNS, tuple(rows), tuple(notes))


SIDE_WORTH_NOTE = ("A level here favours a side, whoever plays it, not the weaker player, and both players play each "
                   "side: such games are rated as plain results, and no worth of a level is learned.")


@dataclass(frozen=True)
class HandicapReport:
    """Fair handicaps of every pair and the learned worth of each level, from the games of one or more folders."""

    estimates: Mapping[tuple[str, str], HandicapEstimate]
    faults: Mapping[tuple[str, str], int]
    level_worth: tuple[LevelValue, ...]
    level_results: Mapping[tuple[str, int], tuple[int, int]]
    max_level: int
    target: float
    learned: bool = True
    sides: Mapping[tuple[str, str], SideEstimate] | None = None
    """The fair values of a game whose levels favour a fixed side (then `estimates` is empty), with `terms`."""
    terms: SideTerms | None = None

    @property
    def pooled(self) -> bool:
        """True when the estimates pooled the pairs of the tournament."""
        return any(e.pooled for e in self.estimates.values())

    @property
    def handicap_games(self) -> int:
        """Games played at a level above 0."""
        return sum(games for (_, level), (games, _) in self.level_results.items() if level > 0)

    def pairs_table(self, title: str = "Fair handicaps") -> Table:
        """One row per pair: weaker, stronger, fair level with its interval, games and results by level (of a
        side-favouring ladder: the fair value of the sides in the game's terms)."""
        if self.sides is not None and self.terms is not None:
            return side_table(self.sides, self.terms, title, faults=self.faults, target=self.target)
        table = handicap_table(self.estimates, title, faults=self.faults, target=self.target, pooled=self.pooled)
        meta = {**table.meta, "max_level": self.max_level,
                "level_worth": [level_row(value) for value in self.level_worth]}
        notes = table.notes
        if self.estimates and not self.handicap_games:
            notes = (*notes, "No handicap games were played: the estimates rest on even games alone.")
        return Table(table.kind, table.title, table.columns, table.rows, notes, meta)

    def levels_table(self, title: str = "Worth of each handicap level") -> Table:
        """One row per board and level: the learned worth, its sigma, games and the weaker side's win rate."""
        if self.sides is not None and self.terms is not None:
            return Table("level_worth", title, LEVEL_WORTH_COLUMNS, (), (SIDE_WORTH_NOTE,))
        return level_worth_table(self.level_worth, self.level_results, title, learned=self.learned)


def require_handicap_ladder(records: Sequence[GameRecord], label: str) -> None:
    """Refuse records of `label` whose games have no handicap ladder: there are no levels to estimate."""
    games = sorted({record.game_rules for record in records}, key=lambda game: game.name)
    if games and not any(game.has_handicap for game in games):
        ladders = ", ".join(name for name, game in all_games().items() if game.has_handicap)
        raise ReportError(f"{label}: game {games[0].name!r} has no handicap ladder; expected games of one that has "
                          f"({ladders})")


def handicap_report(records: Sequence[GameRecord], settings: HandicapSettings | None = None,
                    ratings: Ratings | None = None) -> HandicapReport:
    """Estimate every pair's fair handicap (faults left out) and collect the level worths of `ratings`.

    `settings` are the config's handicap settings (their max_level and target are used); `ratings` the replay of
    the same records, whose level worths the report carries (none without it).
    """
    settings = settings or HandicapSettings()
    games = [r for r in records if r.black != r.white]
    max_level = max(settings.max_level, *(r.handicap for r in games), 1)
    target = settings.target
    planned = HandicapSettings(HandicapMode.AUTO, max_level=min(max_level, 50), target=target)
    game = games[0].game_rules if games else None
    axis = game.handicap_axis if game is not None else None
    sides = None if axis is None or axis.favours is None else SidePlanner(planned, axis.favours)
    if sides is not None and game is not None:
        refuse_mixed_bases(game, games)
    planner = HandicapPlanner(planned)
    faults: dict[tuple[str, str], int] = {}
    level_results: dict[tuple[str, int], tuple[int, int]] = {}
    for record in games:
        key = (record.black, record.white) if record.black < record.white else (record.white, record.black)
        if sides is None and not counts_for_handicap(record.termination):
            faults[key] = faults.get(key, 0) + 1
            planner.estimator(*key)  # the pair is listed even when all its games were faults
            continue
        if sides is not None and not informs_side_handicap(record):  # a fault, or a decision at the move limit
            faults[key] = faults.get(key, 0) + record.termination.is_fault
            sides.estimator(*key)
            continue
        (sides or planner).record_game(record)
        played, won = level_results.get((record.board, record.handicap), (0, 0))
        weaker_won = record.handicap > 0 and record.winner_name == record.handicap_receiver
        level_results[(record.board, record.handicap)] = (played + 1, won + weaker_won)
    worth = ratings.level_worth if ratings is not None else ()
    learned = ratings is None or ratings.settings.handicap is HandicapRating.LEARN
    if sides is not None and game is not None:
        top = axis.top(game, games[0].rules) if axis is not None else None
        terms = SideTerms(game, games[0].rules, min(max_level, 50) if top is None else min(top, max_level, 50))
        return HandicapReport({}, faults, worth, level_results, max_level, target, learned, sides.estimates(), terms)
    return HandicapReport(planner.estimates(), faults, worth, level_results, max_level, target, learned)


def ladder_bases(game: Game, records: Sequence[GameRecord]) -> list[int]:
    """The distinct values of the rule a side-favouring ladder adds to (level 0), in the records' order."""
    axis = game.handicap_axis
    if axis is None or not axis.rule:
        return []
    return list(dict.fromkeys(axis.base(game, record.rules) or 0 for record in records))


def refuse_mixed_bases(game: Game, records: Sequence[GameRecord]) -> None:
    """ReportError when pooled games count a side's levels from different rules values: level k is then a
    different amount in each, so no one fair value fits them."""
    bases = ladder_bases(game, records)
    axis = game.handicap_axis
    if len(bases) > 1 and axis is not None:
        found = ", ".join(f"{axis.rule}={base}" for base in bases)
        raise ReportError(f"--pool: {game.name}'s handicap levels add to the rules' `{axis.rule}`, which differs "
                          f"between these games ({found}), so a level is a different number of {axis.unit} in "
                          f"each; expected games of one `{axis.rule}` (leave out --pool for one table per rules set)")


def handicap_section(sources: Sequence[Source], ratings: Ratings) -> HandicapReport | None:
    """The handicap report of a league when its games used handicaps or its first config says auto, else None."""
    settings = sources[0].handicap_settings if sources else None
    if not ratings.handicap_games and not (settings and settings.mode is HandicapMode.AUTO):
        return None
    if ratings.detailed:
        records: Sequence[GameRecord] = ratings.records
    else:
        records = [record for source in sources for record in source.iter_records(times=False)]
    game = records[0].game_rules if records else None
    if game is not None and len(ladder_bases(game, records)) > 1:  # a pooled rating: no one fair value to show
        return None
    return handicap_report(records, settings, ratings)
