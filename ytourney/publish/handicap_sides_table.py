"""The fair-value table of a game whose handicap levels favour a fixed side: per pair, the level at which the
receiving side scores half, in the game's terms ('35 Amazons [30, 45]')."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ytourney.games.api import Game
from ytourney.publish.table import Column, ColumnKind, Table
from ytourney.stats.handicap_sides import SideEstimate

SIDE_COLUMNS: tuple[Column, ...] = (
    Column("a", "player"),
    Column("b", "player"),
    Column("fair", "fair value", description="the fair level in the game's terms, with its 95% credible interval"),
    Column("median", "fair level", ColumnKind.FLOAT, 2, "posterior median of the level at which the receiving side "
                                                         "scores half", display=False),
    Column("low", "low", ColumnKind.FLOAT, 2, "lower end of the 95% credible interval, in levels", display=False),
    Column("high", "high", ColumnKind.FLOAT, 2, "upper end of the 95% credible interval, in levels", display=False),
    Column("games", "games", ColumnKind.INT, description="games counted (decided on the board, or drawn)"),
    Column("draws", "draws", ColumnKind.INT, description="drawn games among them, half a win to each side"),
    Column("faults", "faults", ColumnKind.INT,
           description="games of the pair ended by a fault (time, crash, protocol, illegal, forfeit), left out"),
    Column("p_short", "P(0 short)", ColumnKind.PERCENT, 1,
           "posterior probability that level 0 is short of fair (the receiving side scores under half there)"),
    Column("slope", "slope", ColumnKind.FLOAT, 2,
           "posterior median of s in P(receiving side wins at level L) = Phi(s (L - fair level))"),
    Column("per_level", "results by level", description="level (amount): the receiving side's score / games",
           data=False),
)


@dataclass(frozen=True)
class SideTerms:
    """How a side-favouring ladder reads in the game's terms: the game, the rules of the games, the side names."""

    game: Game
    rules: Any
    top: int

    @property
    def receiver(self) -> str:
        """The name of the side the levels favour ('the Amazons'), or its colour."""
        favours = self.game.handicap_axis.favours  # type: ignore[union-attr]
        return f"the {self.game.views.side_names.get(favours, str(favours))}"

    @property
    def other(self) -> str:
        """The name of the other side."""
        other = self.game.handicap_axis.favours.other  # type: ignore[union-attr]
        return f"the {self.game.views.side_names.get(other, str(other))}"

    def amount(self, level: float, *, unit: bool = True) -> str:
        """A level in the game's terms."""
        return self.game.handicap_axis.amount(self.game, self.rules, level, unit=unit)  # type: ignore[union-attr]

    def fair_text(self, estimate: SideEstimate) -> str:
        """'35 Amazons [30, 45]', or what lies off the axis in words."""
        if not estimate.games:
            return "no games counted"
        interval = f"[{self.amount(estimate.low, unit=False)}, {self.amount(estimate.high, unit=False)}]"
        if estimate.draws == estimate.games:
            played = ", ".join(self.amount(level) for level in sorted(estimate.per_level))
            return (f"{self.amount(estimate.median)} {interval}, but every game was drawn: the sides score half at "
                    f"every level played ({played}), so no level changes the score")
        if estimate.above_top:
            return (f"above {self.amount(self.top)}: {self.other} still score over half at the top of the axis "
                    f"{interval}")
        if estimate.below_zero:
            return f"below {self.amount(0)}: {self.receiver} already score over half at level 0 {interval}"
        past = (f", past the top of the axis ({self.amount(self.top)})" if estimate.median > self.top else
                f", below level 0 ({self.amount(0)})" if estimate.median < 0 else "")
        return f"{self.amount(estimate.median)} {interval}{past}"


def _per_level_text(terms: SideTerms, per_level: Mapping[int, tuple[int, float]]) -> str:
    """'0 (30 Amazons): 2/8, 2 (40 Amazons): 4.5/8'."""
    return ", ".join(f"{level} ({terms.amount(level)}): {score:g}/{games}"
                     for level, (games, score) in sorted(per_level.items())) or "-"


def side_table(estimates: Mapping[tuple[str, str], SideEstimate], terms: SideTerms, title: str, *,
               faults: Mapping[tuple[str, str], int] | None = None, target: float = 0.5) -> Table:
    """A Table of fair values of a side-favouring axis, one row per pair of players (both seatings pooled)."""
    levels = sorted({level for estimate in estimates.values() for level in estimate.per_level})
    rows = []
    for (a, b), estimate in estimates.items():
        row: dict[str, Any] = {
            "a": a, "b": b, "fair": terms.fair_text(estimate), "median": float(estimate.median),
            "low": float(estimate.low), "high": float(estimate.high), "games": estimate.games,
            "draws": estimate.draws, "faults": (faults or {}).get((a, b), 0), "p_short": estimate.p_short,
            "slope": estimate.slope, "per_level": _per_level_text(terms, estimate.per_level),
        }
        for level in levels:
            games, score = estimate.per_level.get(level, (0, 0))
            row[f"games_L{level}"] = games
            row[f"score_L{level}"] = score
        rows.append(row)
    columns = list(SIDE_COLUMNS)
    for level in levels:
        columns += [Column(f"games_L{level}", f"games L{level}", ColumnKind.INT, display=False,
                           description=f"games at level {level} ({terms.amount(level)})"),
                    Column(f"score_L{level}", f"score L{level}", ColumnKind.FLOAT, 1, display=False,
                           description=f"the receiving side's score at level {level} (a draw counts half)")]
    axis = terms.game.handicap_axis
    aim = "half" if target == 0.5 else f"{100 * target:g}%"
    levels_note = (f"Levels go to {terms.receiver}, whoever plays them ({axis.words if axis else ''}); level 0 is "
                   f"the rules as given ({terms.amount(0)}), no even game.")
    fair_note = (f"Fair value: the level at which {terms.receiver} score {aim} (a draw counts half a win), both "
                 "seatings of the pair pooled, with its 95% credible interval. Games ended by a fault are left out.")
    notes = (levels_note, fair_note)
    base = axis.base(terms.game, terms.rules) if axis else None  # level L is base + per_level * L of `unit`
    meta = {"target": target, "levels": levels, "top": terms.top, "base": base,
            "per_level": axis.per_level if axis else 1, "unit": axis.unit if axis else ""}
    return Table("handicap_sides", title, tuple(columns), tuple(rows), notes if rows else (), meta)
