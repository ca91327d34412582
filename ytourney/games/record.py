"""Finished-game records of any game: the JSON form every tool reads (DESIGN §3)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ytourney.errors import RecordError, YTourneyError
from ytourney.games.api import SWAP_TOKEN, Color, Game, Termination
from ytourney.games.legacy import game_of
from ytourney.games.registry import get_game
from ytourney.games.variant import Variant

__all__ = ["TIME_ODDS_KEY", "GameRecord", "GameSetup", "Termination", "league_order", "replay_order",
           "utc_now"]


TIME_ODDS_KEY = "time_controls"
"""The key of a record's `extra` holding each side's time control ({player: "0.2s/move"}) in a game played at time
odds; games whose sides shared one time control leave it out."""


def utc_now() -> str:
    """Current UTC time as an ISO 8601 string with a Z suffix (millisecond precision)."""
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class GameRecord:
    """One finished game with everything needed to replay, rate and publish it.

    `game` is the game's registry name (records are data: the name is read back into the Game by `game_rules`);
    `black` and `white` are the final owners of the colours (after any swap); `first` made the first move and
    `second` is the other player; `winner` is the winning colour, None for a draw; `rules` is the game's own rules
    value; `score` is (Black's, White's) where the game keeps one.
    """

    tournament: str
    game: str
    round: int
    board: str
    rules: Any
    handicap: int
    first: str
    second: str
    black: str
    white: str
    moves: tuple[str, ...]
    winner: Color | None
    termination: Termination
    move_seconds: tuple[float, ...]
    seed: int | None
    started: str
    finished: str
    id: int | None = None
    reason: str = ""
    opening_plies: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    score: tuple[float, float] | None = None

    @property
    def game_rules(self) -> Game:
        """The game this record was played in, read from its name."""
        return get_game(self.game)

    @property
    def variant(self) -> Variant:
        """The game, board and rules this record was played under."""
        game = self.game_rules
        return Variant(game, game.parse_board(self.board), self.rules)

    @property
    def rules_dict(self) -> dict[str, Any]:
        """The rules in their JSON form."""
        return self.game_rules.rules_dict(self.rules)

    @property
    def rules_in_force(self) -> dict[str, Any]:
        """The rules as they applied to this game, in their JSON form: a handicap game (level >= 1) is played
        without the pie whatever the tournament's rules say."""
        rules = self.rules_dict
        if self.handicap > 0 and rules.get("pie") is True:
            rules["pie"] = False
        return rules

    @property
    def handicap_receiver(self) -> str:
        """The player a handicap level went to: whoever played the side the game's levels favour, else the weaker
        player, who moved first."""
        axis = self.game_rules.handicap_axis
        if axis is not None and axis.favours is not None:
            return self.black if axis.favours is Color.BLACK else self.white
        return self.first

    @property
    def player_handicap(self) -> int:
        """The level as a player's head start, for ratings: 0 when the game's levels favour a side, whoever plays it
        (both players play each side, so such a game rates as a plain result)."""
        axis = self.game_rules.handicap_axis
        return 0 if axis is not None and axis.favours is not None else self.handicap

    @property
    def is_draw(self) -> bool:
        """True when the game ended without a winner."""
        return self.winner is None

    @property
    def winner_name(self) -> str | None:
        """Name of the winning player, None for a draw."""
        if self.winner is None:
            return None
        return self.black if self.winner is Color.BLACK else self.white

    @property
    def loser_name(self) -> str | None:
        """Name of the losing player, None for a draw."""
        if self.winner is None:
            return None
        return self.white if self.winner is Color.BLACK else self.black

    @property
    def swapped(self) -> bool:
        """True when the pie rule was used."""
        return SWAP_TOKEN in self.moves

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Workers send records to the parent: the field values alone pickle smaller and faster than the dict.
        return (GameRecord, tuple(getattr(self, name) for name in _FIELDS))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of DESIGN §3 (plus `second`, `reason`, `opening_plies`, `extra`; `score` where kept)."""
        data = {
            "id": self.id, "tournament": self.tournament, "game": self.game, "round": self.round,
            "board": self.board, "rules": self.rules_in_force, "handicap": self.handicap,
            "first": self.first, "second": self.second, "black": self.black, "white": self.white,
            "moves": list(self.moves), "winner": None if self.winner is None else str(self.winner),
            "winner_name": self.winner_name, "termination": self.termination.value, "reason": self.reason,
            "move_seconds": [round(t, 6) for t in self.move_seconds], "seed": self.seed, "started": self.started,
            "finished": self.finished, "opening_plies": self.opening_plies, "extra": dict(self.extra),
        }
        if self.score is not None:
            data["score"] = list(self.score)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """Rebuild a record from its JSON form."""
        try:
            game = get_game(game_of(data))  # records written before games existed are Y's
            winner = data["winner"]
            score = data.get("score")
            second = data.get("second") or (data["white"] if data["first"] == data["black"] else data["black"])
            refuse_self_play(data["black"], data["white"], data["first"], second)
            return cls(
                id=data.get("id"),
                tournament=data.get("tournament", ""),
                game=game.name,
                round=int(data.get("round", 0)),
                board=data["board"],
                rules=game.parse_rules(data.get("rules")),
                handicap=int(data.get("handicap", 0)),
                first=data["first"],
                second=second,
                black=data["black"],
                white=data["white"],
                moves=tuple(data["moves"]),
                winner=None if winner is None else Color.parse(winner),
                termination=Termination.parse(data["termination"]),
                move_seconds=tuple(float(t) for t in data.get("move_seconds", ())),
                seed=data.get("seed"),
                started=data.get("started", ""),
                finished=data.get("finished", ""),
                reason=data.get("reason", ""),
                opening_plies=int(data.get("opening_plies", 0)),
                extra=dict(data.get("extra") or {}),
                score=None if score is None else (float(score[0]), float(score[1])),
            )
        except (KeyError, ValueError, TypeError, YTourneyError) as err:
            raise RecordError(f"game record is malformed ({type(err).__name__}: {err}): {dict(data)!r:.200}") from err


_FIELDS = tuple(f.name for f in fields(GameRecord))


def refuse_self_play(black: str, white: str, first: str, second: str) -> None:
    """RecordError for a game against oneself (one name on both sides), which ytourney never plays: every reader of
    records (a store, JSON lines, SGF import) refuses it rather than count a game no rating can use."""
    for one, other, what in ((black, white, "black and white"), (first, second, "first and second")):
        if one == other:
            raise RecordError(f"{what} both name {one!r}; a game against oneself is not rated, expected two players")


@dataclass(frozen=True)
class GameSetup:
    """What a game's record holds before its first move: the variant played, who plays, and its slot.

    The referee turns it into the record of a played game (`record`), and the tournament into the record of a game
    lost before a stone was placed (`lost_by`): an engine that could not start, a worker that died, a forfeit.
    """

    variant: Variant
    first: str
    second: str
    handicap: int = 0
    tournament: str = ""
    round: int = 0
    seed: int | None = None
    id: int | None = None
    opening_plies: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)

    def record(self, *, moves: tuple[str, ...], move_seconds: tuple[float, ...], swapped: bool,
               winner: Color | None, termination: Termination, reason: str = "", started: str,
               finished: str | None = None, score: tuple[float, float] | None = None) -> GameRecord:
        """The record of this game as it ended; the first mover holds the game's first colour until a swap."""
        variant = self.variant
        first_is_black = (variant.game.first_color is Color.BLACK) != swapped
        black, white = (self.first, self.second) if first_is_black else (self.second, self.first)
        return GameRecord(
            game=variant.name, score=score,
            tournament=self.tournament, round=self.round, board=variant.board.spec, rules=variant.rules,
            handicap=self.handicap, first=self.first, second=self.second, black=black, white=white, moves=moves,
            winner=winner, termination=termination, move_seconds=move_seconds, seed=self.seed, started=started,
            finished=finished if finished is not None else utc_now(), id=self.id, reason=reason,
            opening_plies=self.opening_plies, extra=dict(self.extra),
        )

    def lost_by(self, seat: int, termination: Termination, reason: str) -> GameRecord:
        """The record of this game lost by `seat` (0 first, 1 second) before any move: no stones, no swap."""
        now = utc_now()
        first = self.variant.game.first_color
        return self.record(moves=(), move_seconds=(), swapped=False, winner=first.other if seat == 0 else first,
                           termination=termination, reason=reason, started=now, finished=now)


def replay_key(record: GameRecord) -> tuple[Any, ...]:
    """Sort key of the replay: game id first; records without an id after them, by their content."""
    content = (record.tournament, record.started, record.finished, record.round, record.first, record.second,
               record.moves, record.seed if record.seed is not None else -1,
               0 if record.winner is None else record.winner.value, record.termination.value)
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
