"""SPRT in Elo for a two-player match, on seat-reversed game pairs (pentanomial), games (trinomial) or Bernoulli.

H0: the tested player is elo0 stronger than its opponent; H1: elo1 stronger (elo0 < elo1, logistic Elo: expected
score s = 1 / (1 + 10^(-elo / 400))). The test continues while ln(beta / (1 - alpha)) < LLR < ln((1 - beta) / alpha),
accepts H1 at the upper bound and H0 at the lower one; the first crossing decides (later results still count in the
totals and the LLR, never in the decision).

Models, as fishtest, fastchess and OpenBench compute them:
- pentanomial: each seat-reversed game pair (the two games of the match in the same round of the same tournament)
  scores 0, ½, 1, 1½ or 2 points for the tested player; the five counts give the generalized SPRT log-likelihood
  ratio N · Σ p̂ᵢ ln(q1ᵢ / q0ᵢ), where p̂ is the observed distribution of the pair score (empty bins regularized to
  1e-3 as fishtest's LLRcalc does) and qₖ is the distribution closest to p̂ (maximum likelihood) whose mean score is
  s(eloₖ). A pair counts once both of its games are in. A draw (a record whose winner is None: a rule's draw or
  a `move-limit`) is one half-point, so games without draws (Y) leave the ½ and 1½ bins empty.
- trinomial: the same generalized LLR on each game's loss / draw / win.
- bernoulli: classic Wald on each game, win probability s(elo0) against s(elo1); a draw counts as half a win and
  half a loss (it is not ignored: ignoring draws would test the decisive games' win rate, not the score).
Elo ± error (95%) and the LOS come from the model's own counts (pairs or games) as fishtest's `get_elo` does.

The decision depends on the order results arrive, so the records form (`sprt_from_records`) counts them in the
order given: pass them in completion order (the store's `completion_order=True`) to show the decision the run took.
The scheduler feeds the same records one by one to `EloSprt.update` (or folds `sprt_step`) and gets the same state.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ytourney.games.record import GameRecord
from ytourney.stats.normal import normal_cdf
from ytourney.stats.sprt import SprtDecision, judge

REGULARIZATION = 1e-3
"""What an empty outcome bin counts as in the generalized LLR and the Elo estimate (fishtest's LLRcalc)."""
Z95 = 1.959963984540054
ELO_CLAMP = 1e-3
"""Scores are clamped to [1e-3, 1 - 1e-3] before turning into Elo (fishtest's stat_util.elo): +-1200 at most."""
PENTANOMIAL_LABELS = ("0", "½", "1", "1½", "2")
_ROOT_STEPS = 100


class SprtModel(str, enum.Enum):
    """What one observation of the test is: a game pair's score, a game's loss/draw/win, or a game as win/loss."""

    PENTANOMIAL = "pentanomial"
    TRINOMIAL = "trinomial"
    BERNOULLI = "bernoulli"


def expected_score(elo: float) -> float:
    """Logistic expected score of a player `elo` points stronger than its opponent."""
    return 1 / (1 + 10 ** (-elo / 400))


def score_elo(score: float) -> float:
    """Elo difference that gives this expected score, the score clamped to [1e-3, 1 - 1e-3] (at most 1200)."""
    score = min(max(score, ELO_CLAMP), 1 - ELO_CLAMP)
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: an even score is 0, not -0


def _regularized(counts: np.ndarray) -> np.ndarray:
    return np.where(counts == 0, REGULARIZATION, counts)


def _secular_root(p: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Root x of Σ pᵢ dᵢ / (1 + x dᵢ) = 0 with every 1 + x dᵢ > 0, for each row of p (pᵢ > 0, min d < 0 < max d).

    The sum falls strictly from +inf to -inf over that interval: Newton steps, bisection when one leaves the
    bracket; rows leave the iteration as they converge.
    """
    roots = np.empty(len(p))
    todo = np.arange(len(p))
    x = np.zeros(len(p))
    lo = np.full(len(p), -1 / d.max())
    hi = np.full(len(p), -1 / d.min())
    weighted = p * d
    curved = weighted * d
    for _ in range(_ROOT_STEPS):
        inverse = x[:, None] * d
        inverse += 1
        np.reciprocal(inverse, out=inverse)
        f = np.einsum("ij,ij->i", weighted, inverse)
        inverse *= inverse
        newton = x + f / np.einsum("ij,ij->i", curved, inverse)
        # the LLR is stationary in x at the root, so an error e in x moves it by about N e^2 only
        done = np.abs(newton - x) <= 1e-10 * (1 + np.abs(x))
        roots[todo[done]] = newton[done]
        if done.all():
            return roots
        going = ~done
        todo, weighted, curved, x, f, newton = (todo[going], weighted[going], curved[going], x[going], f[going],
                                                newton[going])
        lo = np.where(f > 0, x, lo[going])
        hi = np.where(f < 0, x, hi[going])
        x = np.where((newton > lo) & (newton < hi), newton, (lo + hi) / 2)
    roots[todo] = x
    return roots


def gsprt_llr(counts: Any, score0: float, score1: float) -> np.ndarray:
    """Generalized SPRT log-likelihood ratio of mean score `score1` against `score0` (fishtest's LLR_logistic).

    `counts` has k outcome counts on its last axis, for scores 0, 1/(k-1), ..., 1 (k = 5: a pair's points / 2;
    k = 3: a game's loss, draw, win); leading axes are independent tests. Empty bins count as 1e-3.
    """
    counts = _regularized(np.asarray(counts, dtype=float))
    shape, bins = counts.shape[:-1], counts.shape[-1]
    rows = counts.reshape(-1, bins)
    total = rows @ np.ones(bins)  # row sums: much faster than sum(axis=1) over a short last axis
    p = rows / total[:, None]
    values = np.linspace(0.0, 1.0, bins)
    jumps = np.zeros_like(p)
    for sign, score in ((-1.0, score0), (1.0, score1)):
        d = values - score
        x = _secular_root(p, d)
        # the constrained estimate is qᵢ = pᵢ / (1 + x dᵢ), so ln q1 - ln q0 needs only the two roots
        jumps -= sign * np.log1p(x[:, None] * d)
    return (total * np.einsum("ij,ij->i", p, jumps)).reshape(shape)


def wald_llr(wins: Any, draws: Any, losses: Any, score0: float, score1: float) -> np.ndarray:
    """Classic Wald log-likelihood ratio of win probability `score1` against `score0`; a draw is half a win."""
    won = np.asarray(wins, dtype=float) + np.asarray(draws, dtype=float) / 2
    lost = np.asarray(losses, dtype=float) + np.asarray(draws, dtype=float) / 2
    return won * math.log(score1 / score0) + lost * math.log((1 - score1) / (1 - score0))


@dataclass(frozen=True)
class EloEstimate:
    """Elo difference with its 95% half-width and the likelihood of superiority (fishtest's get_elo)."""

    elo: float
    error: float
    los: float


def estimate_elo(counts: Iterable[int]) -> EloEstimate:
    """Elo ± error and LOS from 2n+1 outcome counts of n games each (pentanomial: n = 2; trinomial: n = 1)."""
    results = _regularized(np.asarray(tuple(counts), dtype=float))
    bins = len(results)
    points = np.arange(bins) / 2  # the outcome's points over its n = (bins - 1) / 2 games
    games = results.sum() * (bins - 1) / 2
    mean = float(np.sum(results * points) / games)
    variance = float(np.sum(results * (points - mean * (bins - 1) / 2) ** 2) / games)
    spread = math.sqrt(variance / games)
    low, high = mean - Z95 * spread, mean + Z95 * spread
    los = normal_cdf((mean - 0.5) / spread) if spread > 0 else float(mean > 0.5)
    return EloEstimate(score_elo(mean), (score_elo(high) - score_elo(low)) / 2, los)


@dataclass(frozen=True)
class EloSprtSettings:
    """Hypotheses elo0 < elo1 (the tested player's Elo over its opponent), error rates and the model (a plain value:
    the config reader checks that elo0 < elo1 are finite, 0 < alpha, beta and alpha + beta < 1)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: SprtModel = SprtModel.PENTANOMIAL

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) LLR bounds: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha)."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    @property
    def scores(self) -> tuple[float, float]:
        """Expected scores of the two hypotheses."""
        return expected_score(self.elo0), expected_score(self.elo1)

    def llr(self, pentanomial: tuple[int, ...], trinomial: tuple[int, int, int]) -> float:
        """The model's log-likelihood ratio of H1 against H0 for these counts (trinomial: losses, draws, wins)."""
        score0, score1 = self.scores
        if self.model is SprtModel.PENTANOMIAL:
            return float(gsprt_llr(pentanomial, score0, score1)) if sum(pentanomial) else 0.0
        if self.model is SprtModel.TRINOMIAL:
            return float(gsprt_llr(trinomial, score0, score1)) if sum(trinomial) else 0.0
        losses, draws, wins = trinomial
        return float(wald_llr(wins, draws, losses, score0, score1))

    def judge(self, llr: float) -> SprtDecision:
        """The decision an LLR value calls for, ignoring earlier crossings."""
        return judge(llr, self.bounds)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "model": self.model.value}


@dataclass(frozen=True)
class EloSprtState:
    """The test after some results: pentanomial and per-game counts, first games waiting for their pair, LLR and
    decision (with the games counted and the LLR when it was reached)."""

    settings: EloSprtSettings
    player: str = ""
    opponent: str = ""
    pentanomial: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    trinomial: tuple[int, int, int] = (0, 0, 0)
    waiting: tuple[tuple[tuple[str, int], int], ...] = ()
    """First games of unfinished pairs: ((tournament, round), the tested player's half-points in that game)."""
    llr: float = 0.0
    decision: SprtDecision = SprtDecision.CONTINUE
    decided_after: int | None = None
    """Games counted by the model when the decision was reached (pentanomial: twice the pairs)."""
    decided_llr: float | None = None

    @property
    def pairs(self) -> int:
        """Complete game pairs counted."""
        return sum(self.pentanomial)

    @property
    def games(self) -> int:
        """Every game of the match counted so far (paired or not)."""
        return sum(self.trinomial)

    @property
    def counted(self) -> int:
        """Games the model's LLR is built on: every game, or (pentanomial) the games of complete pairs."""
        return 2 * self.pairs if self.settings.model is SprtModel.PENTANOMIAL else self.games

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) LLR bounds."""
        return self.settings.bounds

    @property
    def finished(self) -> bool:
        """True once a hypothesis is accepted: the scheduler stops the match."""
        return self.decision is not SprtDecision.CONTINUE

    @property
    def estimate(self) -> EloEstimate:
        """Elo ± error (95%) and LOS of the tested player from the model's counts."""
        paired = self.settings.model is SprtModel.PENTANOMIAL
        return estimate_elo(self.pentanomial if paired else self.trinomial)

    def summary(self) -> str:
        """One line for tables: the test, Elo ± error, the counts, the LLR against its bounds, and the decision."""
        s = self.settings
        lower, upper = self.bounds
        who = f"{self.player} vs {self.opponent}" if self.player else "match"
        estimate = self.estimate
        losses, draws, wins = self.trinomial
        counts = f"W-D-L {wins}-{draws}-{losses}"
        if s.model is SprtModel.PENTANOMIAL:
            counts += f", pairs {self.pairs} Ptnml(0-2) [{', '.join(str(c) for c in self.pentanomial)}]"
        head = (f"SPRT {who} (elo0 {s.elo0:g}, elo1 {s.elo1:g}, alpha {s.alpha:g}, beta {s.beta:g}, {s.model.value}): "
                f"Elo {estimate.elo:+.1f} ± {estimate.error:.1f} (LOS {100 * estimate.los:.1f}%), {counts}, "
                f"LLR {self.llr:.2f} in [{lower:.2f}, {upper:.2f}]")
        if not self.finished:
            return f"{head}: continue (no decision yet)"
        crossed = ""
        if self.counted > (self.decided_after or 0) and self.decided_llr is not None:
            crossed = f", LLR {self.decided_llr:.2f} then; later games counted but not tested"
        subject = self.player or "the tested player"
        accepted, claim = (("H1", f">= {s.elo1:g}") if self.decision is SprtDecision.ACCEPT_H1
                           else ("H0", f"<= {s.elo0:g}"))
        after = f"{self.decided_after} games"
        if s.model is SprtModel.PENTANOMIAL:
            after = f"{(self.decided_after or 0) // 2} pairs ({after})"
        return f"{head}: {accepted} accepted after {after}{crossed} ({subject} Elo {claim})"

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        lower, upper = self.bounds
        estimate = self.estimate
        return {**self.settings.to_dict(), "player": self.player, "opponent": self.opponent,
                "pentanomial": list(self.pentanomial), "wins": self.trinomial[2], "draws": self.trinomial[1],
                "losses": self.trinomial[0], "pairs": self.pairs, "games": self.games, "llr": self.llr,
                "lower": lower, "upper": upper, "elo": estimate.elo, "elo_error": estimate.error,
                "los": estimate.los, "decision": self.decision.value, "decided_after": self.decided_after,
                "decided_llr": self.decided_llr}


def sprt_step(state: EloSprtState, record: GameRecord) -> EloSprtState:
    """The state after one more finished game (pure); games of other players are ignored.

    The first game of a pair waits (key: tournament and round) until the second one arrives; the pair then counts
    as the sum of the two games' points. The first crossing of a bound decides for good.
    """
    player = state.player
    if player not in (record.black, record.white):
        return state
    other = record.white if record.black == player else record.black
    if state.opponent and other != state.opponent:
        return state
    winner = record.winner_name
    half_points = 1 if winner is None else 2 if winner == player else 0
    trinomial = list(state.trinomial)
    trinomial[half_points] += 1
    changed = replace(state, opponent=state.opponent or other, trinomial=(trinomial[0], trinomial[1], trinomial[2]))
    key = (record.tournament, record.round)
    partner = next((i for i, (waiting_key, _) in enumerate(state.waiting) if waiting_key == key), None)
    if partner is None:
        changed = replace(changed, waiting=(*state.waiting, (key, half_points)))
    else:
        pentanomial = list(state.pentanomial)
        pentanomial[state.waiting[partner][1] + half_points] += 1
        changed = replace(changed, waiting=state.waiting[:partner] + state.waiting[partner + 1:],
                          pentanomial=(pentanomial[0], pentanomial[1], pentanomial[2], pentanomial[3], pentanomial[4]))
    if changed.counted == state.counted:
        return changed  # a first game of a pair: the pentanomial LLR is unchanged
    llr = changed.settings.llr(changed.pentanomial, changed.trinomial)
    changed = replace(changed, llr=llr)
    if state.finished:
        return changed
    decision = changed.settings.judge(llr)
    if decision is SprtDecision.CONTINUE:
        return changed
    return replace(changed, decision=decision, decided_after=changed.counted, decided_llr=llr)


def sprt_from_records(records: Iterable[GameRecord], settings: EloSprtSettings, player: str,
                      opponent: str | None = None) -> EloSprtState:
    """The test over a match's records in the order given; `player` is the tested side (H1: the stronger)."""
    state = EloSprtState(settings, player=player, opponent=opponent or "")
    for record in records:
        state = sprt_step(state, record)
    return state


class EloSprt:
    """A running test the scheduler feeds game by game in completion order: `update(record)` returns the decision."""

    def __init__(self, settings: EloSprtSettings, player: str, opponent: str | None = None) -> None:
        self.state = EloSprtState(settings, player=player, opponent=opponent or "")

    def update(self, record: GameRecord) -> SprtDecision:
        """Count one finished game and return the decision."""
        self.state = sprt_step(self.state, record)
        return self.state.decision

    @property
    def decision(self) -> SprtDecision:
        """CONTINUE, ACCEPT_H0 or ACCEPT_H1."""
        return self.state.decision
