"""Bradley–Terry Elo: the maximum-likelihood fit over all games with 95% intervals, as Ordo and BayesElo compute it.

Model: P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400)). The fit maximises the likelihood of every
game at once (so it does not depend on the order of the games) by Newton's method on the ratings in natural units
(R ln 10 / 400), with a backtracking line search. Ratings are only defined up to a common shift; the anchor fixes it:
the pool average is 0 by default, or a named player is 0. Each interval is the rating ± 1.96 standard deviations from
the observed Fisher information (the negative Hessian of the log-likelihood at the optimum), taken for the anchored
rating: Var(A θ) = A C Aᵀ with A the anchoring map (θ minus the mean, or minus the anchor's θ), so the anchor itself
has a zero-width interval.

Draws (a record whose winner is None: a rule's draw, or a game stopped at `move-limit`) count as half a win for
each side, as Ordo does by default (a 1/2-1/2 in its PGN input): the likelihood of a matchup is
σ(d)^(wins_a + draws/2) · σ(-d)^(wins_b + draws/2). We chose this over BayesElo's drawelo model (a separate draw
band of width drawelo, estimated from the data) because it needs no extra parameter, gives the same ratings Ordo
gives for the same PGN, and leaves data without draws (Y) with exactly the fit they always had. A draw links the
two players both ways in the "beat" graph below, as half a win each way does.

Players the data cannot separate. The maximum-likelihood fit is finite only when the "beat" graph is strongly
connected: every player both beat and lost to someone inside every split of the pool into two groups (Zermelo,
Ford). Otherwise (a player won or lost every game, a group beat every outsider it met, or two groups never met)
some differences run off to infinity. Then, in the spirit of BayesElo's prior (2 virtual draws per player, which
BayesElo spreads over each player's opponents), every player gets `prior_games` virtual games (half won, half lost)
against a virtual opponent at the pool's centre, so that groups that never met stay finite too: a log-concave pull
that keeps every estimate finite and the fit unique, and whose information also enters the intervals. It is
added only when needed, so whenever the plain maximum-likelihood fit exists it is exactly what is returned (Ordo's
answer). Under the prior, a player is marked `bounded` unless it belongs to the main group of its pool: the strongly
connected component of the named anchor, or the unique largest one of that pool, of at least two players. A
bounded player's number says "far above (or below) the rest", not a measured difference. A pool is a connected
part of the comparison graph (who played whom, whoever won): when the games split into several pools that never met,
`pools` lists them, and the differences between pools are not measured at all (the prior holds each to the centre).

Handicap games (level >= 1: the weaker player is Black, moves first and places the level's stones) are left out and
counted in `handicap_games_left_out`, unless `level_elo` gives the Elo worth of the level: then the game counts
with that worth added to Black's rating for that game. Faults and forfeits count as the losses the records say
they are, as in the TrueSkill tables.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ytourney.errors import RatingsError
from ytourney.games.record import GameRecord

ELO_PER_NAT = 400 / math.log(10)
"""Elo points per unit of the natural-log odds scale the fit works in."""
Z95 = 1.959963984540054
"""Two-sided 95% normal quantile."""
DEFAULT_PRIOR_GAMES = 2.0
"""Virtual games per player when the data alone have no finite fit (BayesElo's default prior is 2 virtual draws)."""
MAX_NEWTON_STEPS = 200
STEP_TOLERANCE = 1e-12


@dataclass(frozen=True)
class EloRating:
    """One player's Elo with its 95% interval [low, high]; `bounded` marks an estimate held finite by the prior."""

    name: str
    elo: float
    low: float
    high: float
    games: int
    wins: int
    bounded: bool = False
    draws: int = 0

    @property
    def error(self) -> float:
        """Half-width of the 95% interval (the "±" of a table)."""
        return (self.high - self.low) / 2

    @property
    def losses(self) -> int:
        """Rated games this player lost."""
        return self.games - self.wins - self.draws

    @property
    def score(self) -> float:
        """This player's points per rated game: a win is 1, a draw 1/2."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def to_dict(self, *, with_draws: bool | None = None) -> dict[str, Any]:
        """JSON form; `draws` is there when `with_draws` says so (None: when this player drew a game), so the JSON
        of games without draws keeps the keys it always had."""
        data = {"name": self.name, "elo": self.elo, "low": self.low, "high": self.high, "error": self.error,
                "games": self.games, "wins": self.wins, "bounded": self.bounded}
        if self.draws if with_draws is None else with_draws:
            data["draws"] = self.draws
        return data


@dataclass(frozen=True)
class EloFit:
    """Every player's Elo (best first), the anchor (None: pool average 0) and what went into the fit."""

    ratings: tuple[EloRating, ...]
    anchor: str | None = None
    games_used: int = 0
    handicap_games_left_out: int = 0
    prior_games: float = 0.0
    """Virtual games each player got (0: the plain maximum-likelihood fit exists and is returned)."""
    pools: tuple[tuple[str, ...], ...] = ()
    """The groups of players that never met each other, largest first, when there are several (else empty)."""

    def rating(self, name: str) -> EloRating:
        """The rating of the named player."""
        for rating in self.ratings:
            if rating.name == name:
                return rating
        names = ", ".join(sorted(r.name for r in self.ratings)) or "none"
        raise RatingsError(f"no Elo rating for player {name!r}; rated players: {names}")

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"anchor": self.anchor, "games_used": self.games_used,
                "handicap_games_left_out": self.handicap_games_left_out, "prior_games": self.prior_games,
                "pools": [list(pool) for pool in self.pools],
                "ratings": [rating.to_dict(with_draws=self.draws > 0) for rating in self.ratings]}

    @property
    def draws(self) -> int:
        """Drawn games among those used."""
        return sum(rating.draws for rating in self.ratings) // 2


@dataclass(frozen=True)
class _Tally:
    """Games grouped by matchup: player indices a, b, Black's handicap worth (nats) and each side's points (a win
    1, a draw 1/2 each); per player: games, wins and draws."""

    names: tuple[str, ...]
    a: np.ndarray
    b: np.ndarray
    offset: np.ndarray
    wins_a: np.ndarray
    wins_b: np.ndarray
    games: tuple[int, ...]
    wins: tuple[int, ...]
    draws: tuple[int, ...]
    used: int
    left_out: int


def fit_elo(records: Iterable[GameRecord], *, anchor: str | None = None,
            level_elo: Mapping[int, float] | None = None, prior_games: float = DEFAULT_PRIOR_GAMES) -> EloFit:
    """The Bradley–Terry Elo of every player in `records`, whatever their order (see the module docstring)."""
    if isinstance(prior_games, bool) or not isinstance(prior_games, (int, float)) or not (
            math.isfinite(prior_games) and prior_games > 0):
        raise RatingsError(f"elo prior_games must be a positive number, got {prior_games!r}")
    tally = _tally(records, _level_worths(level_elo))
    names = tally.names
    if anchor is not None and anchor not in names:
        known = ", ".join(names) or "none"
        raise RatingsError(f"elo anchor {anchor!r} played no rated game; expected one of: {known}")
    if not names:
        return EloFit((), anchor, 0, tally.left_out, 0.0)
    reach = _reachability(tally)
    separated = bool(reach.all())
    prior = 0.0 if separated else float(prior_games)
    theta, covariance = _solve(tally, prior)
    anchored = _anchor_map(len(names), None if anchor is None else names.index(anchor))
    elo = anchored @ theta * ELO_PER_NAT
    spread = np.sqrt(np.clip(np.diag(anchored @ covariance @ anchored.T), 0.0, None)) * ELO_PER_NAT
    pools = _pools(tally)
    bounded = [False] * len(names)
    if prior:
        for pool in pools:  # each pool's own main group: pools that never met are told apart by `pools` instead
            inside = np.array(pool, dtype=np.intp)
            home = None if anchor is None or names.index(anchor) not in pool else pool.index(names.index(anchor))
            for i, flag in zip(pool, _bounded(reach[np.ix_(inside, inside)], home)):
                bounded[i] = flag
    ratings = [EloRating(name, float(elo[i]), float(elo[i] - Z95 * spread[i]), float(elo[i] + Z95 * spread[i]),
                         tally.games[i], tally.wins[i], bounded[i], tally.draws[i]) for i, name in enumerate(names)]
    ratings.sort(key=lambda r: (-r.elo, r.name))
    split = tuple(tuple(names[i] for i in pool) for pool in pools) if len(pools) > 1 else ()
    return EloFit(tuple(ratings), anchor, tally.used, tally.left_out, prior, split)


def _level_worths(level_elo: Mapping[int, float] | None) -> dict[int, float]:
    """Checked level worths in natural units."""
    worths: dict[int, float] = {}
    for level, elo in (level_elo or {}).items():
        if isinstance(level, bool) or not isinstance(level, int) or level < 1:
            raise RatingsError(f"elo level worth keys must be handicap levels >= 1, got {level!r}")
        if isinstance(elo, bool) or not isinstance(elo, (int, float)) or not math.isfinite(elo):
            raise RatingsError(f"elo worth of handicap level {level} must be a finite number, got {elo!r}")
        worths[level] = float(elo) / ELO_PER_NAT
    return worths


def _tally(records: Iterable[GameRecord], worths: Mapping[int, float]) -> _Tally:
    """Count points per matchup (a draw is half a point each); handicap games without a worth are left out."""
    counts: dict[tuple[str, str, int], list[float]] = {}
    games: dict[str, int] = {}
    wins: dict[str, int] = {}
    draws: dict[str, int] = {}
    left_out = used = 0
    for record in records:
        if record.black == record.white:
            continue  # self-play says nothing about strength (TrueSkill leaves it unrated too)
        level = record.player_handicap
        if level > 0 and level not in worths:
            left_out += 1
            continue
        if level > 0:
            key = (record.black, record.white, level)  # Black received the handicap: the order matters
        else:
            key = (min(record.black, record.white), max(record.black, record.white), 0)
        points = counts.setdefault(key, [0.0, 0.0])
        used += 1
        for name in key[:2]:
            games[name] = games.get(name, 0) + 1
        winner = record.winner_name
        if winner is None:
            points[0] += 0.5
            points[1] += 0.5
            for name in key[:2]:
                draws[name] = draws.get(name, 0) + 1
        else:
            points[winner != key[0]] += 1.0
            wins[winner] = wins.get(winner, 0) + 1
    names = tuple(sorted(games))
    index = {name: i for i, name in enumerate(names)}
    keys = sorted(counts)
    return _Tally(
        names=names,
        a=np.array([index[k[0]] for k in keys], dtype=np.intp),
        b=np.array([index[k[1]] for k in keys], dtype=np.intp),
        offset=np.array([worths.get(k[2], 0.0) for k in keys], dtype=float),
        wins_a=np.array([counts[k][0] for k in keys], dtype=float),
        wins_b=np.array([counts[k][1] for k in keys], dtype=float),
        games=tuple(games[name] for name in names),
        wins=tuple(wins.get(name, 0) for name in names),
        draws=tuple(draws.get(name, 0) for name in names),
        used=used,
        left_out=left_out,
    )


def _reachability(tally: _Tally) -> np.ndarray:
    """reach[i, j]: a chain of wins leads from i down to j (i beat k, k beat ... j), or i == j."""
    n = len(tally.names)
    reach = np.eye(n, dtype=bool)
    reach[tally.a[tally.wins_a > 0], tally.b[tally.wins_a > 0]] = True
    reach[tally.b[tally.wins_b > 0], tally.a[tally.wins_b > 0]] = True
    while True:
        closed = (reach.astype(np.int64) @ reach.astype(np.int64)) > 0
        if (closed == reach).all():
            return reach
        reach = closed


def _pools(tally: _Tally) -> list[list[int]]:
    """Connected parts of the comparison graph (an edge for every matchup with a game), largest first, each sorted."""
    n = len(tally.names)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in zip(tally.a.tolist(), tally.b.tolist()):
        parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values(), key=lambda pool: (-len(pool), pool))


def _bounded(reach: np.ndarray, anchor: int | None) -> list[bool]:
    """Players outside the main strongly connected group (the anchor's, or the unique largest; >= 2 players)."""
    together = reach & reach.T
    sizes = together.sum(axis=1)
    if anchor is not None:
        main = together[anchor] if sizes[anchor] >= 2 else np.zeros(len(sizes), dtype=bool)
    else:
        largest = sizes.max()
        leaders = np.flatnonzero(sizes == largest)
        # members of one group share a row; two groups of the largest size leave no main group
        unique = all((together[i] == together[leaders[0]]).all() for i in leaders)
        main = together[leaders[0]] if largest >= 2 and unique else np.zeros(len(sizes), dtype=bool)
    return [not bool(inside) for inside in main]


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    """log(1 / (1 + e^-x)) without overflow."""
    return -np.logaddexp(0.0, -x)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    """1 / (1 + e^-x) without overflow."""
    return np.exp(_log_sigmoid(x))


def _log_likelihood(tally: _Tally, theta: np.ndarray, prior: float) -> float:
    """Log-likelihood of the games (plus the prior's virtual games) at ratings theta (natural units)."""
    d = theta[tally.a] - theta[tally.b] + tally.offset
    total = float(np.sum(tally.wins_a * _log_sigmoid(d) + tally.wins_b * _log_sigmoid(-d)))
    if prior:
        total += float(np.sum(prior / 2 * (_log_sigmoid(theta) + _log_sigmoid(-theta))))
    return total


def _gradient_and_information(tally: _Tally, theta: np.ndarray, prior: float) -> tuple[np.ndarray, np.ndarray]:
    """Gradient of the log-likelihood and the observed information (its negative Hessian)."""
    n = len(theta)
    d = theta[tally.a] - theta[tally.b] + tally.offset
    p = _sigmoid(d)
    played = tally.wins_a + tally.wins_b
    surplus = tally.wins_a - played * p
    weight = played * p * (1 - p)
    gradient = np.bincount(tally.a, surplus, n) - np.bincount(tally.b, surplus, n)
    information = np.zeros((n, n))
    np.add.at(information, (tally.a, tally.b), -weight)
    np.add.at(information, (tally.b, tally.a), -weight)
    information[np.diag_indices(n)] += np.bincount(tally.a, weight, n) + np.bincount(tally.b, weight, n)
    if prior:
        q = _sigmoid(theta)
        gradient += prior * (0.5 - q)
        information[np.diag_indices(n)] += prior * q * (1 - q)
    return gradient, information


def _solve(tally: _Tally, prior: float) -> tuple[np.ndarray, np.ndarray]:
    """Newton's method with backtracking: the ratings (natural units) and a covariance fit for anchored contrasts.

    Without the prior the information matrix is singular along the common shift (the all-ones direction u); Newton
    steps and the covariance then use information + u uᵀ, whose inverse is the pseudo-inverse plus u uᵀ: every
    anchored contrast (A u = 0) gets the pseudo-inverse's covariance, and the steps keep the mean of theta at 0.
    """
    n = len(tally.names)
    shift = 0.0 if prior else 1.0 / n
    theta = np.zeros(n)
    value = _log_likelihood(tally, theta, prior)
    for _ in range(MAX_NEWTON_STEPS):
        gradient, information = _gradient_and_information(tally, theta, prior)
        step = np.linalg.solve(information + shift, gradient)
        scale = 1.0
        while True:
            candidate = theta + scale * step
            candidate_value = _log_likelihood(tally, candidate, prior)
            if candidate_value >= value - 1e-12 * abs(value) or scale < 1e-6:
                break
            scale /= 2
        theta, value = candidate, candidate_value
        if np.max(np.abs(scale * step)) < STEP_TOLERANCE:
            break
    _, information = _gradient_and_information(tally, theta, prior)
    return theta, np.linalg.inv(information + shift)


def _anchor_map(n: int, anchor: int | None) -> np.ndarray:
    """The linear map from fitted ratings to anchored ones: minus the mean, or minus the anchor's rating."""
    if anchor is None:
        return np.eye(n) - np.full((n, n), 1.0 / n)
    anchored = np.eye(n)
    anchored[:, anchor] -= 1.0
    return anchored
