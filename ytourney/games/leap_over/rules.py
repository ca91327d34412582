"""Leap Over's rule options: the goal, the pie rule and the move limit."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


GOALS = ("all", "filled")
DEFAULT_MAX_PLIES = 1000


@dataclass(frozen=True)
class Rules:
    """One rule set of Leap Over (DESIGN §1b readings by default)."""

    pie: bool = False
    max_plies: int = DEFAULT_MAX_PLIES
    goal: str = "all"
    """'all': every own stone in the other's start triangle (the book); 'filled': that triangle full, at least
    one of the stones there the mover's (Chinese checkers' answer to a player who never leaves home)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form used in records."""
        return asdict(self)
