"""Each player's results over a replay: games, wins, draws, seats, swaps, faults and opponents (what a table shows)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ytourney.games.record import TIME_ODDS_KEY, GameRecord


@dataclass
class PlayerResults:
    """A player's results over a replay: games, wins, draws, seats, swaps, faults and opponents (what a table shows).

    The rates (`score`, `first_win_rate`, `swap_win_rate`) count a draw as half a win.
    """

    games: int = 0
    wins: int = 0
    handicap_games: int = 0
    first_games: int = 0
    first_wins: int = 0
    swap_chances: int = 0
    swaps: int = 0
    swap_wins: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    opponents: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    first_draws: int = 0
    swap_draws: int = 0
    time_odds: dict[str, int] = field(default_factory=dict)
    """Games played at time odds, by the player's own time control in them ("0.2s/move": 12)."""

    @property
    def losses(self) -> int:
        """Games lost."""
        return self.games - self.wins - self.draws

    @property
    def score(self) -> float | None:
        """Points per game, a draw counting half (None before any game)."""
        return _share(self.wins + self.draws / 2, self.games)

    @property
    def first_win_rate(self) -> float | None:
        """Score in even games where the player placed the first stone."""
        return _share(self.first_wins + self.first_draws / 2, self.first_games)

    @property
    def swap_rate(self) -> float | None:
        """How often the player, second in a pie game, answered swap."""
        return _share(self.swaps, self.swap_chances)

    @property
    def swap_win_rate(self) -> float | None:
        """Score in the games where the player swapped."""
        return _share(self.swap_wins + self.swap_draws / 2, self.swaps)


def _share(part: float, whole: int) -> float | None:
    """part / whole, or None when whole is 0 (a rate of nothing)."""
    return part / whole if whole else None


def count_results(results: dict[str, PlayerResults], record: GameRecord) -> None:
    """Add one game to the players' results (self-play counts for nobody; faults go to the loser)."""
    if record.black == record.white:
        return
    winner, loser = record.winner_name, record.loser_name
    drawn = winner is None
    handicap = record.handicap > 0
    one, other = (record.black, record.white) if winner is None or loser is None else (winner, loser)
    clocks = record.extra.get(TIME_ODDS_KEY) if record.extra else None
    for name, opponent in ((one, other), (other, one)):
        tally = results.get(name)
        if tally is None:
            tally = results[name] = PlayerResults()
        tally.games += 1
        clock = clocks.get(name) if isinstance(clocks, Mapping) else None
        if isinstance(clock, str):
            tally.time_odds[clock] = tally.time_odds.get(clock, 0) + 1
        tally.opponents[opponent] = tally.opponents.get(opponent, 0) + 1
        tally.handicap_games += handicap
        tally.draws += drawn
    if winner is not None:
        results[winner].wins += 1
    if record.termination.is_fault and loser is not None:
        faults = results[loser].faults
        faults[record.termination.value] = faults.get(record.termination.value, 0) + 1
    if not handicap:
        first = results.get(record.first)
        if first is not None:
            first.first_games += 1
            first.first_wins += winner == record.first
            first.first_draws += drawn
        second = results.get(record.second)
        if second is not None and _pie_offered(record):
            second.swap_chances += 1
            if record.moves[1].lower() == "swap":
                second.swaps += 1
                second.swap_wins += winner == record.second
                second.swap_draws += drawn


def _pie_offered(record: GameRecord) -> bool:
    """True when the second player could answer swap: a pie game (rules with `pie` on) with at least two moves."""
    rules = record.rules
    pie = rules.get("pie", False) if isinstance(rules, Mapping) else getattr(rules, "pie", False)
    return bool(pie) and len(record.moves) >= 2
