"""Finished-game records: the termination reasons and the JSON form every tool reads (DESIGN §3)."""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ytourney.errors import YTourneyError


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
    """One finished game with everything needed to replay, rate and publish it."""

    tournament: str
    round: int
    board: str
    rules: dict[str, bool]
    handicap: int
    first: str
    second: str
    black: str
    white: str
    moves: tuple[str, ...]
    winner: str
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
        return self.black if self.winner == "black" else self.white

    @property
    def loser_name(self) -> str:
        """Name of the losing player."""
        return self.white if self.winner == "black" else self.black

    @property
    def swapped(self) -> bool:
        """True when the pie rule was used."""
        return "swap" in self.moves

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of DESIGN §3 (plus `second`, `reason`, `opening_plies`)."""
        data = asdict(self)
        data["termination"] = self.termination.value
        data["moves"] = list(self.moves)
        data["move_seconds"] = [round(t, 6) for t in self.move_seconds]
        data["winner_name"] = self.winner_name
        order = ["id", "tournament", "round", "board", "rules", "handicap", "first", "second", "black", "white",
                 "moves", "winner", "winner_name", "termination", "reason", "move_seconds", "seed", "started",
                 "finished", "opening_plies", "extra"]
        return {key: data[key] for key in order}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        """Rebuild a record from its JSON form."""
        try:
            return cls(
                id=data.get("id"),
                tournament=data.get("tournament", ""),
                round=int(data.get("round", 0)),
                board=data["board"],
                rules=dict(data.get("rules", {"pie": True, "misere": False})),
                handicap=int(data.get("handicap", 0)),
                first=data["first"],
                second=data.get("second") or (data["white"] if data["first"] == data["black"] else data["black"]),
                black=data["black"],
                white=data["white"],
                moves=tuple(data["moves"]),
                winner=data["winner"],
                termination=Termination(data["termination"]),
                move_seconds=tuple(float(t) for t in data.get("move_seconds", ())),
                seed=data.get("seed"),
                started=data.get("started", ""),
                finished=data.get("finished", ""),
                reason=data.get("reason", ""),
                opening_plies=int(data.get("opening_plies", 0)),
                extra=dict(data.get("extra") or {}),
            )
        except (KeyError, ValueError, TypeError) as err:
            raise YTourneyError(f"game record is malformed ({type(err).__name__}: {err}): {data!r:.200}") from err

    def with_id(self, game_id: int) -> GameRecord:
        """The same record carrying a store id."""
        return replace(self, id=game_id)
