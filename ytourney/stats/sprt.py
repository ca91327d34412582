"""Wald's sequential probability ratio test for a two-player match with win/loss results.

H0: the tested player wins with probability p0; H1: with probability p1 (p0 < p1). After w wins and l losses the
log-likelihood ratio is LLR = w ln(p1/p0) + l ln((1-p1)/(1-p0)). A draw (a record whose winner is None) counts as
half a win and half a loss, as the Elo SPRT's Bernoulli model does: it adds (ln(p1/p0) + ln((1-p1)/(1-p0))) / 2, so a
draw moves the test towards the hypothesis whose p is closer to 1/2, and data without draws keep their exact LLR.
The test continues while
ln(beta/(1-alpha)) < LLR < ln((1-beta)/alpha), accepts H1 at the upper bound and H0 at the lower one; the first
crossing decides (later results still count in the totals but never change the decision).

The scheduler calls the pure `sprt_step(state, win)` after each result (`win` None for a draw; `game_result` reads
it from a record) or keeps a mutable `Sprt`, and stops the match once `state.decision` is not CONTINUE; reports
rebuild the state with `sprt_from_records`.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from ytourney.games.record import GameRecord, replay_order

_KEYS = ("p0", "p1", "alpha", "beta")


class SprtDecision(enum.Enum):
    """State of the test: still running, or which hypothesis it accepted."""

    CONTINUE = "continue"
    ACCEPT_H0 = "H0"
    ACCEPT_H1 = "H1"


def judge(llr: float, bounds: tuple[float, float]) -> SprtDecision:
    """The decision an LLR value calls for between its (lower, upper) bounds, ignoring earlier crossings."""
    lower, upper = bounds
    if llr >= upper:
        return SprtDecision.ACCEPT_H1
    if llr <= lower:
        return SprtDecision.ACCEPT_H0
    return SprtDecision.CONTINUE


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses (win probabilities p0 < p1 of the tested player) and the error rates alpha, beta (a plain
    value: the config reader checks that 0 < p0 < p1 < 1 and alpha + beta < 1)."""

    p0: float
    p1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) LLR bounds: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha)."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    @property
    def win_step(self) -> float:
        """LLR added by a win: ln(p1 / p0)."""
        return math.log(self.p1 / self.p0)

    @property
    def loss_step(self) -> float:
        """LLR added by a loss: ln((1 - p1) / (1 - p0)), negative."""
        return math.log((1 - self.p1) / (1 - self.p0))

    def llr(self, wins: int, losses: int, draws: int = 0) -> float:
        """The log-likelihood ratio of H1 against H0 after these results (a draw is half a win, half a loss)."""
        llr = wins * self.win_step + losses * self.loss_step
        if draws:
            llr += draws * (self.win_step + self.loss_step) / 2
        return llr

    def judge(self, llr: float) -> SprtDecision:
        """The decision an LLR value calls for, ignoring earlier crossings."""
        return judge(llr, self.bounds)

    def to_dict(self) -> dict[str, float]:
        """JSON form."""
        return {key: getattr(self, key) for key in _KEYS}


@dataclass(frozen=True)
class SprtState:
    """The test after some results: counts, LLR, decision and the game count at which it was reached."""

    settings: SprtSettings
    wins: int = 0
    losses: int = 0
    decision: SprtDecision = SprtDecision.CONTINUE
    decided_after: int | None = None
    decided_llr: float | None = None
    player: str = ""
    opponent: str = ""
    draws: int = 0

    @property
    def games(self) -> int:
        """Results counted so far."""
        return self.wins + self.losses + self.draws

    @property
    def points(self) -> float:
        """The tested player's score: wins plus half the draws."""
        return self.wins + self.draws / 2

    @property
    def llr(self) -> float:
        """Current log-likelihood ratio."""
        return self.settings.llr(self.wins, self.losses, self.draws)

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) LLR bounds."""
        return self.settings.bounds

    @property
    def finished(self) -> bool:
        """True once a hypothesis is accepted: the scheduler stops the match."""
        return self.decision is not SprtDecision.CONTINUE

    def summary(self) -> str:
        """One line for tables: the test, the counts, the LLR against its bounds, and the decision."""
        s = self.settings
        lower, upper = self.bounds
        who = f"{self.player} vs {self.opponent}" if self.player else "match"
        rate = f" ({100 * self.points / self.games:.1f}%)" if self.games else ""
        drawn = f" {self.draws} draws" if self.draws else ""
        head = (f"SPRT {who} (p0 {s.p0:g}, p1 {s.p1:g}, alpha {s.alpha:g}, beta {s.beta:g}): "
                f"{self.wins} wins {self.losses} losses{drawn}{rate}, LLR {self.llr:.2f} in [{lower:.2f}, {upper:.2f}]")
        subject = self.player or "the tested player"
        if not self.finished:
            return f"{head}: continue (no decision yet)"
        crossed = ""
        if self.games > (self.decided_after or 0) and self.decided_llr is not None:
            crossed = f", LLR {self.decided_llr:.2f} then; later games counted but not tested"
        if self.decision is SprtDecision.ACCEPT_H1:
            return f"{head}: H1 accepted after {self.decided_after} games{crossed} ({subject} wins >= {s.p1:g})"
        return f"{head}: H0 accepted after {self.decided_after} games{crossed} ({subject} wins <= {s.p0:g})"

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        lower, upper = self.bounds
        data: dict[str, Any] = {
            **self.settings.to_dict(), "player": self.player, "opponent": self.opponent, "wins": self.wins,
            "losses": self.losses, "llr": self.llr, "lower": lower, "upper": upper, "decision": self.decision.value,
            "decided_after": self.decided_after, "decided_llr": self.decided_llr}
        if self.draws:  # only where draws happened, so the JSON of games without draws is what it always was
            data["draws"] = self.draws
        return data


def game_result(record: GameRecord, player: str) -> bool | None:
    """The result of `record` for `player`: True for a win, False for a loss, None for a draw."""
    winner = record.winner_name
    return None if winner is None else winner == player


def sprt_step(state: SprtState, win: bool | None) -> SprtState:
    """The state after one more result of the tested player, None for a draw (pure; the first crossing decides for
    good)."""
    drawn = win is None
    won = not drawn and bool(win)
    counts = replace(state, wins=state.wins + won, losses=state.losses + (not drawn and not won),
                     draws=state.draws + drawn)
    if state.finished:
        return counts
    llr = counts.llr
    decision = state.settings.judge(llr)
    if decision is SprtDecision.CONTINUE:
        return counts
    return replace(counts, decision=decision, decided_after=counts.games, decided_llr=llr)


class Sprt:
    """A running SPRT: `update(win)` after each game; `state` holds the counts, the LLR and the decision."""

    def __init__(self, settings: SprtSettings, *, player: str = "", opponent: str = "") -> None:
        """A test with these settings, of `player` against `opponent`, before any result."""
        self.state = SprtState(settings, player=player, opponent=opponent)

    def update(self, win: bool | None) -> SprtDecision:
        """Count one result of the tested player (None for a draw) and return the decision."""
        self.state = sprt_step(self.state, win)
        return self.state.decision


def sprt_from_records(records: Iterable[GameRecord], settings: SprtSettings, player: str,
                      opponent: str | None = None, *, as_given: bool = False) -> SprtState:
    """The test replayed over a match's records in game-id order (in the order given with `as_given`, e.g. the
    store's completion order, the one the run's stop condition saw); `player` is the tested (H1: stronger) side."""
    state = SprtState(settings, player=player, opponent=opponent or "")
    for record in (records if as_given else replay_order(records)):
        if player not in (record.black, record.white):
            continue
        other = record.white if record.black == player else record.black
        if opponent is not None and other != opponent:
            continue
        if not state.opponent:
            state = replace(state, opponent=other)
        state = sprt_step(state, game_result(record, player))
    return state
