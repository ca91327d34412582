"""Time controls: per-move seconds with a grace, or a game clock with an increment, and the Limit of one decision."""

from __future__ import annotations

from dataclasses import dataclass

from ytourney.games.bot import Limit

# Built-in bots on a game clock spend about this share of their remaining time on a move.
CLOCK_SHARE = 1 / 20
# The Limit of a bot that keeps its own playout budget: no seconds, no playouts, so its configured budget rules.
OWN_BUDGET = Limit()
DEFAULT_GRACE = 1.0
"""Seconds a decision may overrun its budget before it loses on time, unless the time control says otherwise."""


@dataclass(frozen=True)
class TimeControl:
    """Per-move seconds (a hard deadline plus grace) or a game clock with an increment; with neither, untimed."""

    move_seconds: float | None = None
    grace_seconds: float = DEFAULT_GRACE
    game_seconds: float | None = None
    increment: float = 0.0

    def describe(self) -> str:
        """Short human summary."""
        if self.game_seconds is not None:
            return f"{self.game_seconds:g}s + {self.increment:g}s per move (grace {self.grace_seconds:g}s)"
        if self.move_seconds is not None:
            return f"{self.move_seconds:g}s per move (grace {self.grace_seconds:g}s)"
        return "untimed (built-in bots use their playout budgets)"

    def short(self) -> str:
        """A few characters for a table: 0.2s/move, 60s+0.5s, untimed (a grace other than the default added)."""
        if self.game_seconds is not None:
            text = f"{self.game_seconds:g}s+{self.increment:g}s"
        elif self.move_seconds is not None:
            text = f"{self.move_seconds:g}s/move"
        else:
            return "untimed"
        return text if self.grace_seconds == DEFAULT_GRACE else f"{text} (grace {self.grace_seconds:g}s)"

    @property
    def uses_clock(self) -> bool:
        """True for a game clock rather than a per-move budget."""
        return self.game_seconds is not None

    def limit(self, remaining: float | None, playouts: int | None = None) -> Limit:
        """The Limit handed to a bot for one decision, given its clock's remaining seconds."""
        if self.uses_clock and remaining is not None:
            budget = max(0.0, min(remaining * 0.5, remaining * CLOCK_SHARE + self.increment * 0.8))
            return Limit(seconds=budget, playouts=playouts, remaining=remaining, increment=self.increment)
        return Limit(seconds=self.move_seconds, playouts=playouts)

    def allowed(self, remaining: float | None) -> float | None:
        """Seconds a decision may take before it is lost on time (grace included)."""
        if self.uses_clock and remaining is not None:
            return remaining + self.grace_seconds
        if self.move_seconds is None:
            return None
        return self.move_seconds + self.grace_seconds
