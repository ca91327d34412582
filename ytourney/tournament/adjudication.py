"""Adjudication as cutechess-cli and fastchess offer it: a resign rule and a draw rule the referee applies after each
move, on top of the game's own `max_plies`.

- Resign: a side loses when its search has proved the loss (`proved`), or when its value has stayed below `score`
  for `movecount` of its moves in a row (with `twosided`, only while the opponent's stayed above 1 - `score` as
  long). Bots report their view through the optional `Bot.evaluation()` (games/bot.py); a bot that reports nothing
  never resigns.
- Draw: a game ends drawn after `plies` plies without progress, by the game's own measure (`Game.progress_marks`);
  `auto` takes the game's `no_progress_plies`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ytourney.games.api import Color, Game, State, Termination
from ytourney.games.bot import Evaluation
from ytourney.players.untrusted import describe


@dataclass(frozen=True)
class ResignRule:
    """When a side resigns: on a proved loss, and/or after `movecount` moves in a row valued below `score` (0: off)."""

    proved: bool = True
    movecount: int = 0
    score: float = 0.05
    twosided: bool = False

    @property
    def active(self) -> bool:
        """True when either part of the rule can end a game."""
        return self.proved or self.movecount > 0

    def to_dict(self) -> dict[str, Any]:
        """The config's form of the rule."""
        return {"proved": self.proved, "movecount": self.movecount, "score": self.score, "twosided": self.twosided}


@dataclass(frozen=True)
class DrawRule:
    """When a game is drawn: after `plies` plies without progress; None for the game's own number, 0 off."""

    plies: int | None = None

    def limit(self, game: Game) -> int:
        """The plies without progress that end a game of `game` (0: the rule is off)."""
        return game.no_progress_plies if self.plies is None else self.plies

    def to_dict(self) -> dict[str, Any]:
        """The config's form of the rule."""
        return {"plies": "auto" if self.plies is None else self.plies}


@dataclass(frozen=True)
class Adjudication:
    """The tournament's adjudication: its resign rule and its draw rule."""

    resign: ResignRule = ResignRule()
    draw: DrawRule = DrawRule()

    def to_dict(self) -> dict[str, Any]:
        """The config's form (what a match writes and the canonical key keeps)."""
        return {"resign": self.resign.to_dict(), "draw": self.draw.to_dict()}

    def describe(self, game: Game) -> str:
        """The rules in words, for a summary ('resign on a proved loss; draw after 80 plies without progress')."""
        parts = []
        resign = self.resign
        if resign.proved:
            parts.append("resign on a proved loss")
        if resign.movecount:
            parts.append(f"resign after {resign.movecount} moves valued below {resign.score:.0%}"
                         + (" (two-sided)" if resign.twosided else ""))
        plies = self.draw.limit(game)
        if plies:
            parts.append(f"draw after {plies} plies without progress ({game.progress_text})")
        return "; ".join(parts) or "off"


DEFAULT_ADJUDICATION = Adjudication()
"""What a config without `adjudication:` plays with: resign on a proved loss, no value rule, the game's draw rule."""
NO_ADJUDICATION = Adjudication(ResignRule(proved=False), DrawRule(0))
"""Nothing adjudicated: only the game's rules and its move limit end a game."""


@dataclass(frozen=True)
class Verdict:
    """An adjudicated end: the winning colour (None for a draw), the termination and the reason in words."""

    winner: Color | None
    termination: Termination
    reason: str


class Adjudicator:
    """Applies one game's adjudication as the referee plays it: told of every ply and of each mover's evaluation."""

    def __init__(self, rules: Adjudication, game: Game, state: State) -> None:
        self.rules = rules
        self.game = game
        self.draw_plies = rules.draw.limit(game)
        self.wants_evaluations = rules.resign.active
        self._seen: list[set[int]] = [{mark} for mark in game.progress_marks(state)] if self.draw_plies else []
        self._quiet = 0  # plies since the last progress
        self._low = [0, 0]  # per seat: its moves in a row valued below the score
        self._high = [0, 0]  # per seat: its moves in a row valued above 1 - score

    def after_ply(self, state: State) -> Verdict | None:
        """Count a ply just played (any ply: opening, swap, pass); the draw verdict once progress has stopped."""
        if not self.draw_plies:
            return None
        progressed = False
        for seen, mark in zip(self._seen, self.game.progress_marks(state)):
            if mark not in seen:
                seen.add(mark)
                progressed = True
        self._quiet = 0 if progressed else self._quiet + 1
        if state.outcome is None and self._quiet >= self.draw_plies:
            return Verdict(None, Termination.ADJUDICATED_DRAW, f"adjudicated: drawn after {self._quiet} plies "
                           f"without progress ({self.game.progress_text})")
        return None

    def after_move(self, state: State, seat: int, evaluation: Evaluation | None) -> Verdict | None:
        """Weigh the evaluation `seat` reported with its move (None: none); the resign verdict when a side resigns."""
        resign = self.rules.resign
        if state.outcome is not None or not resign.active:
            return None
        if evaluation is None:
            self._low[seat] = self._high[seat] = 0
            return None
        if resign.proved and evaluation.proved and evaluation.value <= 0.0:
            return self._resigned(state, seat, "its search proved the loss")
        self._low[seat] = self._low[seat] + 1 if evaluation.value < resign.score else 0
        self._high[seat] = self._high[seat] + 1 if evaluation.value > 1.0 - resign.score else 0
        if not resign.movecount:
            return None
        for side in (seat, 1 - seat):  # two-sided: the opponent's move may complete the other side's streak
            if self._low[side] >= resign.movecount and (not resign.twosided or
                                                        self._high[1 - side] >= resign.movecount):
                why = f"its value stayed below {resign.score:.0%} for {resign.movecount} moves"
                if resign.twosided:
                    why += f" and its opponent's above {1 - resign.score:.0%}"
                return self._resigned(state, side, why)
        return None

    @staticmethod
    def _resigned(state: State, seat: int, why: str) -> Verdict:
        loser = state.color_of_seat(seat)
        return Verdict(loser.other, Termination.ADJUDICATED_RESIGN, f"adjudicated: {loser} resigned ({why})")


def plain_evaluation(answer: object) -> Evaluation | None | str:
    """An untrusted bot's `evaluation()` answer as a fresh Evaluation (or None), else why it is not one: a value
    that is a real number from 0 to 1, and a bool `proved` that holds only of a value of exactly 0 or 1."""
    if answer is None:
        return None
    if type(answer) is not Evaluation:
        return f"answered evaluation() with {describe(answer)}, which is not an Evaluation or None"
    value, proved = answer.value, answer.proved
    if type(value) not in (int, float) or not 0.0 <= value <= 1.0:  # NaN fails the range too
        return f"reported the value {describe(value)}; expected a number from 0 to 1"
    if type(proved) is not bool:
        return f"reported proved={describe(proved)}; expected true or false"
    if proved and value not in (0.0, 1.0):
        return f"reported a proved value of {value!r}; a proof is a value of 0 (a loss) or 1 (a win)"
    return Evaluation(float(value), proved)
