"""ytourney: tournaments, handicaps and TrueSkill ratings for bots playing the connection game Y."""

from __future__ import annotations

__version__ = "0.1.0"
