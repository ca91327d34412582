"""Time management: how long one search may run, from the decision's limit and the bot's own budget."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ytourney.games.bot import Limit

MOVE_SHARE = 0.95
"""Of a per-move budget, the share the search uses (the rest pays for choosing and answering)."""
CLOCK_SAFETY = 0.5
FALLBACK_PLAYOUTS = 1000
"""Simulations of a bot on time alone asked for a move with no time given (an untimed game)."""
"""On a game clock, a search never takes more than this share of the time left."""


@dataclass(frozen=True)
class Budget:
    """The simulations a search may run and the moment it must stop (None: only the count binds)."""

    simulations: float
    deadline: float | None

    @classmethod
    def of(cls, limit: Limit, started: float, playouts: float, seconds: float | None) -> Budget:
        """A decision's budget: the limit's playouts, else the bot's (math.inf for a bot on time alone), stopped
        at the limit's seconds or the bot's own, whichever is sooner; on a game clock never past half the time left."""
        safety = None if limit.remaining is None else started + max(0.0, limit.remaining) * CLOCK_SAFETY
        move_seconds = limit.seconds
        if seconds is not None:
            move_seconds = seconds if move_seconds is None else min(move_seconds, seconds)
        deadline = None if move_seconds is None else started + max(0.0, move_seconds) * MOVE_SHARE
        if safety is not None:
            deadline = safety if deadline is None else min(deadline, safety)
        if limit.playouts:
            return cls(float(limit.playouts), deadline)
        if math.isinf(playouts) and deadline is None:
            playouts = FALLBACK_PLAYOUTS
        return cls(float(playouts), deadline)
