"""Quinta's own `heuristic` bot: one ply deep on the kernel, scored by the game's knowledge (knowledge.py)."""

from __future__ import annotations

from ytourney.games.one_ply import OnePlyBot


class HeuristicBot(OnePlyBot):
    """Wins in one, never lets the opponent win in one, else the best one-ply evaluation."""
