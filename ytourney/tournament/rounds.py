"""The rounds of a Swiss or a knockout: what a plan holds, replayed from the stored results alone.

A plan is a pure function of the config and the stored results (tournament.swiss and tournament.knockout make it):
round 1 from the config, each later round (and each tie-break stage of a knockout) from the results of the games
before it, with game ids handed out in planning order. A run killed at any moment and started again therefore
plans the same rounds, with the same ids, seats and seeds, and plays only the games not stored yet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ytourney.errors import RunnerError
from ytourney.games.record import GameRecord, Termination
from ytourney.tournament.config import TournamentConfig, derive_seed
from ytourney.tournament.schedule import GameSlot


@dataclass(frozen=True)
class SwissStanding:
    """One player's line in the Swiss standings."""

    rank: int
    name: str
    score: float
    buchholz: float
    sonneborn_berger: float
    games: int
    byes: int


@dataclass(frozen=True)
class GameResult:
    """A stored game as the planner reads it: who took the first seat and the points that player scored."""

    first: str
    first_points: float
    fault: bool = False  # the loser's fault ended the game (a crash, a timeout, an illegal move, ...)
    forfeit: bool = False  # not played: the loser was suspended

    @classmethod
    def of(cls, record: GameRecord) -> GameResult:
        """The result of a stored record (a draw is half a point each)."""
        if record.winner is None:
            return cls(record.first, 0.5)
        return cls(record.first, 1.0 if record.winner_name == record.first else 0.0,
                   fault=record.termination.is_fault, forfeit=record.termination is Termination.FORFEIT)


@dataclass(frozen=True)
class Pairing:
    """Two players (the higher-ranked or better seed first) and the games planned for them so far."""

    players: tuple[int, int]
    games: tuple[GameSlot, ...]


@dataclass(frozen=True)
class Round:
    """One round: its pairings, the players sitting it out, and (once decided) who goes through a knockout round."""

    number: int
    pairings: tuple[Pairing, ...]
    byes: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()


@dataclass(frozen=True)
class RoundPlan:
    """Every round planned so far, the planned games not yet stored, and how the tournament stands."""

    names: tuple[str, ...]
    rounds: tuple[Round, ...]
    open_games: tuple[GameSlot, ...]
    planned: int
    done: bool
    stopped: str = ""
    points: Mapping[int, float] | None = None  # per game id: the first seat's points, for every stored game
    standings: tuple[SwissStanding, ...] = ()  # a Swiss's, after its complete rounds
    champion: int | None = None  # a knockout's winner, once decided
    regular_games: int = 0  # games of a pairing before any tie-break (games_per_pair)
    withdrawn: Mapping[str, str] | None = None  # a Swiss's suspended players, no longer paired, and why

    def pairing_score(self, pairing: Pairing) -> tuple[float, float, int]:
        """The points of each player of a pairing in its stored games, and how many of its games are stored."""
        a = b = 0.0
        stored = 0
        points = self.points or {}
        for game in pairing.games:
            if game.id not in points:
                continue
            stored += 1
            first = points[game.id]
            mine = first if game.players[0] == pairing.players[0] else 1.0 - first
            a, b = a + mine, b + 1.0 - mine
        return a, b, stored


def game_slot(config: TournamentConfig, game_id: int, round_number: int, pairing: int, first: int, second: int,
              group: int) -> GameSlot:
    """A planned game: its id, round, pairing, seats, seed (from the config's seed and the id) and opening group."""
    return GameSlot(game_id, round_number, pairing, (first, second), derive_seed(config.seed, "game", game_id), group)


def read_points(config: TournamentConfig, slots: Sequence[GameSlot],
                results: Mapping[int, GameResult]) -> dict[int, float] | None:
    """The first seat's points of each of `slots` if every one is stored (None while any is not); a stored game
    whose first seat is not the planned one is an error, since the plan would no longer be the one stored."""
    names = config.player_names
    points = {}
    for slot in slots:
        result = results.get(slot.id)
        if result is None:
            return None
        if result.first != names[slot.players[0]]:
            raise RunnerError(f"stored game {slot.id} had {result.first!r} in the first seat, but the plan seats "
                              f"{names[slot.players[0]]!r}: the results folder does not hold this tournament's games")
        points[slot.id] = result.first_points
    return points


def stored_points(results: Mapping[int, GameResult]) -> dict[int, float]:
    """The first seat's points of every stored game, by id."""
    return {game_id: result.first_points for game_id, result in results.items()}
