"""Finished-game records: the termination reasons and the JSON form every tool reads (DESIGN §3)."""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ytourney.errors import RecordError, YTourneyError
from ytourney.game.notation import SWAP_TOKEN
from ytourney.game.rules import Color, Rules


class Termination(enum.Enum):
    """Why a game ended; every game ends with exactly one."""

    CONNECTION = "connection"
    TIME = "time"
    ILLEGAL = "illegal"
    CRASH = "crash"
    PROTOCOL = "protocol"
    FORFEIT = "forfeit"

    @property
    def is_fault(self) -> bool:
        """True for every ending other than a completed Y."""
        return self is not Termination.CONNECTION


def utc_now() -> str:
    """Current UTC time as an ISO 8601 string with a Z suffix (millisecond precision)."""
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class GameRecord:
    """One finished game with everything needed to replay, rate and publish it.

    `black` and `white` are the final owners of the colours (after any swap); `first` placed the first stone and
    `second` is the other player; `winner` is the winning colour.
    """

    tournament: str
    round: int
    board: str
    rules: Rules
    handicap: int
    first: str
    second: str
    black: str
    white: str
    moves: tuple[str, ...]
    winner: Color
    termination: Termination
    move_seconds: tuple[float, ...]
    seed: int | None
    started: str
    finished: str
    id: int | None = None
    reason: str = ""
    opening_plies: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def winner_name(self) -> str:
        """Name of the winning player."""
        return self.black if self.winner is Color.BLACK else self.white

    @property
    def loser_name(self) -> str:
        """Name of the losing player."""
        return self.white if self.winner is Color.BLACK else self.black

    @property
    def swapped(self) -> bool:
        """True when the pie rule was used."""
        return SWAP_TOKEN in self.moves

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Workers send records to the parent: the field values alone pickle smaller and faster than the dict.
        return (GameRecord, tuple(getattr(self, name) for name in _FIELDS))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of DESIGN §3 (plus `second`, `reason`, `opening_plies`, `extra`)."""
        return {
            "id": self.id, "tournament": self.tournament, "round": self.round, "board": self.board,
            "rules": self.rules.to_dict(), "handicap": self.handicap, "first": self.first, "second": self.second,
            "black": self.black, "white": self.white, "moves": list(self.moves), "winner": str(self.winner),
            "winner_name": self.winner_name, "termination": self.termination.value, "reason": self.reason,
            "move_seconds": [round(t, 6) for t in self.move_seconds], "seed": self.seed, "started": self.started,
            "finished": self.finished, "opening_plies": self.opening_plies, "extra": dict(self.extra),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """Rebuild a record from its JSON form."""
        try:
            return cls(
                id=data.get("id"),
                tournament=data.get("tournament", ""),
                round=int(data.get("round", 0)),
                board=data["board"],
                rules=Rules.from_dict(data.get("rules")),
                handicap=int(data.get("handicap", 0)),
                first=data["first"],
                second=data.get("second") or (data["white"] if data["first"] == data["black"] else data["black"]),
                black=data["black"],
                white=data["white"],
                moves=tuple(data["moves"]),
                winner=Color.parse(data["winner"]),
                termination=Termination(data["termination"]),
                move_seconds=tuple(float(t) for t in data.get("move_seconds", ())),
                seed=data.get("seed"),
                started=data.get("started", ""),
                finished=data.get("finished", ""),
                reason=data.get("reason", ""),
                opening_plies=int(data.get("opening_plies", 0)),
                extra=dict(data.get("extra") or {}),
            )
        except (KeyError, ValueError, TypeError, YTourneyError) as err:
            raise RecordError(f"game record is malformed ({type(err).__name__}: {err}): {dict(data)!r:.200}") from err


_FIELDS = tuple(f.name for f in fields(GameRecord))


@dataclass(frozen=True)
class GameSetup:
    """What a game's record holds before its first move: who plays, where, under which rules, and its slot.

    The referee turns it into the record of a played game (`record`), and the tournament into the record of a game
    lost before a stone was placed (`lost_by`): an engine that could not start, a worker that died, a forfeit.
    """

    board: str
    first: str
    second: str
    rules: Rules = Rules()
    handicap: int = 0
    tournament: str = ""
    round: int = 0
    seed: int | None = None
    id: int | None = None
    opening_plies: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)

    def record(self, *, moves: tuple[str, ...], move_seconds: tuple[float, ...], swapped: bool, winner: Color,
               termination: Termination, reason: str = "", started: str, finished: str | None = None) -> GameRecord:
        """The record of this game as it ended; after a swap the second player owns Black."""
        black, white = (self.second, self.first) if swapped else (self.first, self.second)
        return GameRecord(
            tournament=self.tournament, round=self.round, board=self.board, rules=self.rules,
            handicap=self.handicap, first=self.first, second=self.second, black=black, white=white, moves=moves,
            winner=winner, termination=termination, move_seconds=move_seconds, seed=self.seed, started=started,
            finished=finished if finished is not None else utc_now(), id=self.id, reason=reason,
            opening_plies=self.opening_plies, extra=dict(self.extra),
        )

    def lost_by(self, seat: int, termination: Termination, reason: str) -> GameRecord:
        """The record of this game lost by `seat` (0 first, 1 second) before any move: no stones, no swap."""
        now = utc_now()
        return self.record(moves=(), move_seconds=(), swapped=False, winner=Color.WHITE if seat == 0 else Color.BLACK,
                           termination=termination, reason=reason, started=now, finished=now)


def replay_key(record: GameRecord) -> tuple[Any, ...]:
    """Sort key of the replay: game id first; records without an id after them, by their content."""
    content = (record.tournament, record.started, record.finished, record.round, record.first, record.second,
               record.moves, record.seed if record.seed is not None else -1, record.winner.value,
               record.termination.value)
    return (record.id is None, record.id if record.id is not None else 0, content)


def replay_order(records: Iterable[GameRecord]) -> list[GameRecord]:
    """Records in replay order (game id, then content for records without an id)."""
    return sorted(records, key=replay_key)


def league_order(groups: Iterable[Iterable[GameRecord]]) -> list[GameRecord]:
    """Records of several tournaments in league order: group by group as given, each group in replay order."""
    ordered: list[GameRecord] = []
    for group in groups:
        ordered.extend(replay_order(group))
    return ordered
