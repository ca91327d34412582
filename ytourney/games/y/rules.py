"""Y's rule options: the pie rule and misère, a small frozen value every layer passes around."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rules:
    """Rule options of a game of Y; the pie rule only applies to even (handicap 0) games."""

    pie: bool = True
    misere: bool = False

    @property
    def max_plies(self) -> None:
        """Y needs no move limit: every game ends by the time the board is full."""
        return None

    def to_dict(self) -> dict[str, bool]:
        """JSON form used in records."""
        return {"pie": self.pie, "misere": self.misere}

    def interned(self) -> Rules:
        """The one value of these rules (there are four): the C core recognises a rules value by its identity."""
        return _RULES[self.pie, self.misere]


_RULES = {(pie, misere): Rules(pie, misere) for pie in (False, True) for misere in (False, True)}
