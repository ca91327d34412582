"""TrueSkill ratings replayed from game records in a fixed order, so results never depend on how games finished.

Order of replay: `rate_records` sorts games by id (records without an id come after, by a content key), so the
same games give the same ratings whatever the worker count or completion order. A league (the
`ytourney ratings DIR1 DIR2` command) replays the first folder's games in id order, then the second folder's, and
so on (`ordered=True` with `league_order`); players are matched across folders by name.

Every environment is an explicit `trueskill.TrueSkill(mu, sigma, beta, tau, draw_probability)`; the module never
touches trueskill's global environment.

Draws. TrueSkill models a draw as a performance difference inside a draw margin that `draw_probability` fixes
(the chance that two equal players draw), and that margin shapes the update after a win too: the same win moves
ratings less in an environment that allows draws. So the draw probability is chosen per game, not per table:
- a game that cannot draw (`has_draws` False: Y) is rated with draw_probability 0, exactly as before draws existed,
  so Y ratings are the same numbers whatever else is in the data;
- a game that can draw (`has_draws`: YvY, Leap Over ...), and any drawn game (winner None, e.g. a `move-limit`
  draw of a game that otherwise has none), is rated with `RatingSettings.draw_probability` (default 0.10,
  trueskill's own default), a draw as `ranks=[0, 0]`.
A fixed setting rather than the observed share of draws: ratings must not depend on games not yet replayed (the
running leader and streamed league replays see each game once), and a setting keeps them a function of the games
so far. A draw pulls the two players' means toward each other and shrinks both deviations.

When an extreme upset makes the float backend give up (trueskill raises FloatingPointError), the game is rated
again with the mpmath backend at rising precision.

Handicap games (level >= 1: the weaker player is Black, moves first without pie, and places `level` stones) are
rated by default with a learned worth per level and board (see level_worth): the weaker player plays as a team
with a virtual team-mate whose skill is what the level is worth. So a bot that wins only with three stones is
rated below one that wins even games. `ratings: {handicap: even}` rates handicap games as plain wins instead.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import trueskill

from ytourney.games.api import Color
from ytourney.games.record import GameRecord, replay_order
from ytourney.stats.level_worth import BONUS_WEIGHT, LearnedLevelWorth, LevelValue
from ytourney.stats.normal import normal_cdf
from ytourney.stats.results import PlayerResults, count_results

__all__ = [
    "RATING_BOUNDS", "Backend", "HandicapRating", "HistoryPoint", "PlayerRating", "PlayerResults", "RatedGame",
    "RatingSettings",
    "Ratings", "ReplayCounts", "RunningRatings", "can_draw", "count_results", "make_env", "rate_records",
    "superiority",
]

DEFAULT_MU = 25.0
DEFAULT_SIGMA = DEFAULT_MU / 3
DEFAULT_BETA = DEFAULT_MU / 6
DEFAULT_TAU = DEFAULT_MU / 300
DEFAULT_DRAW_PROBABILITY = 0.10
"""Chance that two equal players draw, for games that can draw (trueskill's default; games without draws use 0)."""
CONSERVATIVE_SIGMAS = 3.0
"""The sort key of every table is the conservative rating mu - 3 sigma."""
MPMATH_PRECISIONS = (50, 400)
"""Decimal digits tried, in order, when the float backend fails on an extreme upset."""

_NUMBER_KEYS = ("mu", "sigma", "beta", "tau")
RATING_BOUNDS: dict[str, tuple[float, float]] = {
    "mu": (-1e6, 1e6),
    "sigma": (1e-3, 1e6),
    "beta": (1e-3, 1e6),
    "tau": (0.0, 1e6),
    "draw_probability": (1e-6, 1 - 1e-6),
}
"""Inclusive bounds of each setting that the config reader enforces: every combination of them rates upsets, draws
and handicap games to finite numbers (floats, else mpmath, else the game is left unrated); tests/stats check the
corners. Beyond them TrueSkill's floats overflow or divide by zero."""


class HandicapRating(str, enum.Enum):
    """How handicap games are rated: with each level's learned worth (default), or as plain wins and losses."""

    LEARN = "learn"
    EVEN = "even"


@dataclass(frozen=True)
class RatingSettings:
    """TrueSkill parameters (prior mean and deviation, performance spread beta, per-game drift tau), handicaps and
    the draw probability of games that can draw (a plain value: the config reader keeps each in RATING_BOUNDS)."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    beta: float = DEFAULT_BETA
    tau: float = DEFAULT_TAU
    handicap: HandicapRating = HandicapRating.LEARN
    draw_probability: float = DEFAULT_DRAW_PROBABILITY

    def to_dict(self) -> dict[str, float | str]:
        """JSON form (`draw_probability` only when it is not the default, so tables of today keep their keys)."""
        data: dict[str, float | str] = {key: getattr(self, key) for key in _NUMBER_KEYS}
        data["handicap"] = self.handicap.value
        if self.draw_probability != DEFAULT_DRAW_PROBABILITY:
            data["draw_probability"] = self.draw_probability
        return data


def make_env(settings: RatingSettings | None = None, backend: str | None = None, *,
             draws: bool = False) -> trueskill.TrueSkill:
    """A private TrueSkill environment with these settings (never the global one): without draws (probability 0),
    or with `draws` at the settings' draw probability (for games that can draw, see the module docstring)."""
    s = settings or RatingSettings()
    return trueskill.TrueSkill(mu=s.mu, sigma=s.sigma, beta=s.beta, tau=s.tau,
                               draw_probability=s.draw_probability if draws else 0.0, backend=backend)


def can_draw(record: GameRecord) -> bool:
    """True when the record is rated in an environment with draws: it is a draw, or its game can end in one."""
    return record.winner is None or record.game_rules.has_draws


@dataclass(frozen=True)
class PlayerRating:
    """A player's posterior skill: mean mu and deviation sigma."""

    name: str
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """The conservative rating mu - 3 sigma used to rank players."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma


@dataclass(frozen=True)
class HistoryPoint:
    """A player's rating right after one of their games (`game` counts games in replay order from 1)."""

    game: int
    game_id: int | None
    tournament: str
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """mu - 3 sigma at this point."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma


class Backend(enum.Enum):
    """How a game was rated: the float backend, the mpmath retry, or not at all."""

    FLOAT = "float"
    MPMATH = "mpmath"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class RatedGame:
    """One game as the ratings saw it: the record, ratings before and after, handicap handling, backend.

    In a draw (`drawn`) the "winner" fields hold Black and the "loser" fields White; `before` and `after` look a
    player up by name whatever the result.
    """

    index: int
    record: GameRecord
    winner_before: PlayerRating
    loser_before: PlayerRating
    winner_after: PlayerRating
    loser_after: PlayerRating
    handicap_adjusted: bool
    backend: Backend
    note: str = ""

    @property
    def drawn(self) -> bool:
        """True when the game was a draw."""
        return self.record.winner is None

    def before(self, name: str) -> PlayerRating:
        """The named player's rating before this game."""
        return self.winner_before if name == self.winner_before.name else self.loser_before

    def after(self, name: str) -> PlayerRating:
        """The named player's rating after this game."""
        return self.winner_after if name == self.winner_after.name else self.loser_after

    @property
    def handicap_as_even(self) -> bool:
        """True for a handicap game rated as a plain win/loss (`ratings.handicap: even`) or left unrated."""
        return self.record.handicap > 0 and not self.handicap_adjusted


@dataclass(frozen=True)
class ReplayCounts:
    """What every replay counts, whether or not it keeps the games: games, backends, handicaps, tournaments, draws."""

    games: int = 0
    mpmath: int = 0
    skipped: int = 0
    handicap: int = 0
    handicap_adjusted: int = 0
    tournaments: tuple[str, ...] = ()
    draws: int = 0


@dataclass(frozen=True)
class Ratings:
    """The result of a replay: final ratings, each player's results, and (with detail) each player's history and
    every game as rated, in replay order; without detail `history` and `games` are empty and memory stays flat."""

    settings: RatingSettings
    players: dict[str, PlayerRating]
    history: dict[str, tuple[HistoryPoint, ...]]
    games: tuple[RatedGame, ...]
    level_worth: tuple[LevelValue, ...] = ()
    counts: ReplayCounts | None = None
    results: dict[str, PlayerResults] | None = None

    def ranking(self) -> list[PlayerRating]:
        """Players by conservative rating, best first (ties: higher mu, then name)."""
        return sorted(self.players.values(), key=lambda p: (-p.conservative, -p.mu, p.name))

    @property
    def records(self) -> tuple[GameRecord, ...]:
        """The rated games' records in replay order (empty when the replay kept no detail)."""
        return tuple(game.record for game in self.games)

    @property
    def detailed(self) -> bool:
        """True when every rated game and each player's history were kept."""
        return self.counts is None or len(self.games) == self.counts.games

    @property
    def game_count(self) -> int:
        """Games replayed (rated or skipped)."""
        return self.counts.games if self.counts is not None else len(self.games)

    @property
    def mpmath_games(self) -> int:
        """Games that needed the mpmath backend (extreme upsets)."""
        if self.counts is not None:
            return self.counts.mpmath
        return sum(game.backend is Backend.MPMATH for game in self.games)

    @property
    def skipped_games(self) -> int:
        """Games left unrated (self-play, or an upset no backend could compute)."""
        if self.counts is not None:
            return self.counts.skipped
        return sum(game.backend is Backend.SKIPPED for game in self.games)

    @property
    def draw_games(self) -> int:
        """Games that ended in a draw."""
        if self.counts is not None:
            return self.counts.draws
        return sum(game.drawn for game in self.games)

    @property
    def handicap_games(self) -> int:
        """Games played with a handicap (level >= 1)."""
        if self.counts is not None:
            return self.counts.handicap
        return sum(game.record.handicap > 0 for game in self.games)

    @property
    def handicap_adjusted_games(self) -> int:
        """Handicap games rated with a level's worth (not as plain wins and losses)."""
        if self.counts is not None:
            return self.counts.handicap_adjusted
        return sum(game.handicap_adjusted for game in self.games)

    @property
    def tournaments(self) -> tuple[str, ...]:
        """Names of the tournaments whose games were rated, in replay order of their first game."""
        if self.counts is not None:
            return self.counts.tournaments
        return tuple(dict.fromkeys(g.record.tournament for g in self.games if g.record.tournament))

    def player_results(self) -> dict[str, PlayerResults]:
        """Each player's results (counted during the replay, or from the kept games)."""
        if self.results is not None:
            return self.results
        results: dict[str, PlayerResults] = {}
        for game in self.games:
            count_results(results, game.record)
        return results


def rate_records(
    records: Iterable[GameRecord],
    settings: RatingSettings | None = None,
    *,
    initial: Mapping[str, trueskill.Rating | PlayerRating] | None = None,
    ordered: bool = False,
    detail: bool = True,
) -> Ratings:
    """Rate games with TrueSkill, replayed in game-id order (`ordered=True` keeps the given order instead).

    Handicap games (level >= 1, `first` is the weaker player): the weaker player plays as a team with the learned
    worth of the level on its board (LearnedLevelWorth), or, when the settings say `handicap: even`, as plain wins
    and losses, marked as such.
    `initial` seeds players' priors (e.g. ratings carried over from an earlier event).
    With `ordered=True` the records are consumed as they come (a stream from the store is never held in memory);
    `detail=False` keeps no per-game data (no `games`, no `history`): final ratings, counts and results only,
    in memory that does not grow with the number of games.
    """
    config = settings or RatingSettings()
    sequence = records if ordered else replay_order(records)
    replay = _Replay(config, initial or {}, detail=detail)
    for index, record in enumerate(sequence, start=1):
        replay.play(index, record)
    return replay.result()


def superiority(a: PlayerRating, b: PlayerRating) -> float:
    """Likelihood of superiority P(skill_a > skill_b) from the two posteriors: Phi((mu_a - mu_b) / sqrt(sa² + sb²))."""
    spread = math.hypot(a.sigma, b.sigma)
    if spread == 0:
        return 0.5 if a.mu == b.mu else float(a.mu > b.mu)
    return normal_cdf((a.mu - b.mu) / spread)


class RunningRatings:
    """Ratings updated game by game in the order results arrive, in memory that does not grow with the games: what
    a progress display ranks its leader by (final tables replay in game-id order with `rate_records`)."""

    def __init__(self, settings: RatingSettings | None = None) -> None:
        self._replay = _Replay(settings or RatingSettings(), {}, detail=False)
        self.games = 0

    def add(self, record: GameRecord) -> None:
        """Rate one more game."""
        self.games += 1
        self._replay.play(self.games, record)

    def leader(self) -> PlayerRating | None:
        """The player with the best conservative rating so far, or None before any game."""
        ranking = self._replay.result().ranking() if self.games else []
        return ranking[0] if ranking else None


class _Replay:
    """Mutable state of one replay: current ratings, counts and results, and with detail histories and games."""

    def __init__(self, settings: RatingSettings, initial: Mapping[str, trueskill.Rating | PlayerRating], *,
                 detail: bool = True) -> None:
        self.settings = settings
        self.env = make_env(settings)
        self.draw_env = make_env(settings, draws=True)
        self.game_draws: dict[str, bool] = {}  # game name -> whether it can end in a draw
        self.detail = detail
        self.learned = settings.handicap is HandicapRating.LEARN
        self.boards: dict[str, LearnedLevelWorth] = {}  # the worth of each level, one model per board
        self.current: dict[str, trueskill.Rating] = {
            name: trueskill.Rating(mu=float(r.mu), sigma=float(r.sigma)) for name, r in initial.items()
        }
        self.played: dict[str, None] = {}  # players in order of their first game
        self.history: dict[str, list[HistoryPoint]] = {}
        self.games: list[RatedGame] = []
        self.results: dict[str, PlayerResults] = {}
        self.tournaments: dict[str, None] = {}
        self.adjusted: dict[tuple[str, int], int] = {}  # (board, level) -> games rated with its worth
        self.count = self.mpmath = self.skipped = self.handicap = self.draws = 0

    def rating(self, name: str) -> trueskill.Rating:
        if name not in self.played:
            self.played[name] = None
            if name not in self.current:
                self.current[name] = self.env.create_rating()
        return self.current[name]

    def can_draw(self, record: GameRecord) -> bool:
        """True when this game is rated with draws allowed (a draw, or a game that can draw); cached per game."""
        if record.winner is None:
            return True
        if record.game not in self.game_draws:
            self.game_draws[record.game] = can_draw(record)
        return self.game_draws[record.game]

    def play(self, index: int, record: GameRecord) -> None:
        winner, loser = record.black, record.white  # a draw keeps Black in the "winner" slots, White in the others
        if record.winner is Color.WHITE:
            winner, loser = loser, winner
        win_before, lose_before = self.rating(winner), self.rating(loser)
        bonus = None
        model = self._model(record)
        if record.handicap > 0 and model is not None and winner != loser:
            bonus = model.bonus(record.handicap)
        if winner == loser:
            backend, after, note = Backend.SKIPPED, (win_before, lose_before), "self-play is not rated"
            bonus_after = None
        else:
            backend, after, bonus_after, note = self._rate(win_before, lose_before, bonus, record)
        if model is not None and bonus is not None and bonus_after is not None:
            model.learn(record.handicap, bonus_after)
        self.current[winner], self.current[loser] = after
        adjusted = bonus is not None and backend is not Backend.SKIPPED
        self._count(record, backend, adjusted)
        if not self.detail:
            return
        for name, rating in ((winner, after[0]), (loser, after[1])):
            self.history.setdefault(name, []).append(
                HistoryPoint(index, record.id, record.tournament, float(rating.mu), float(rating.sigma))
            )
        self.games.append(RatedGame(
            index=index,
            record=record,
            winner_before=_player(winner, win_before),
            loser_before=_player(loser, lose_before),
            winner_after=_player(winner, after[0]),
            loser_after=_player(loser, after[1]),
            handicap_adjusted=adjusted,
            backend=backend,
            note=note,
        ))

    def _count(self, record: GameRecord, backend: Backend, adjusted: bool) -> None:
        """Counts and per-player results of one game."""
        self.count += 1
        self.draws += record.winner is None
        if backend is not Backend.FLOAT:
            self.mpmath += backend is Backend.MPMATH
            self.skipped += backend is Backend.SKIPPED
        if record.handicap > 0:
            self.handicap += 1
            if adjusted:
                key = (record.board, record.handicap)
                self.adjusted[key] = self.adjusted.get(key, 0) + 1
        if record.tournament and record.tournament not in self.tournaments:
            self.tournaments[record.tournament] = None
        count_results(self.results, record)

    def _model(self, record: GameRecord) -> LearnedLevelWorth | None:
        """The learned worth of the record's board for a handicap game (None for an even game or when not learning)."""
        if not self.learned or record.player_handicap <= 0:
            return None
        if record.board not in self.boards:  # one beta per level to start with, the players' prior deviation
            self.boards[record.board] = LearnedLevelWorth(self.settings.beta, self.settings.sigma)
        return self.boards[record.board]

    def _rate(self, winner: trueskill.Rating, loser: trueskill.Rating, bonus: trueskill.Rating | None,
              record: GameRecord) -> tuple[Backend, tuple[trueskill.Rating, trueskill.Rating],
                                           trueskill.Rating | None, str]:
        draws = self.can_draw(record)
        try:
            after, bonus_after = self._update(self.draw_env if draws else self.env, winner, loser, bonus, record)
            return Backend.FLOAT, after, bonus_after, ""
        except (FloatingPointError, ValueError, ZeroDivisionError, OverflowError):
            pass  # floats gave up (an extreme upset, or settings at the edge of their bounds): mpmath tries
        import mpmath  # only extreme upsets need it

        env = make_env(self.settings, backend="mpmath", draws=draws)
        for digits in MPMATH_PRECISIONS:
            try:
                with mpmath.workdps(digits):
                    after, bonus_after = self._update(env, winner, loser, bonus, record)
                return Backend.MPMATH, after, bonus_after, f"extreme upset rated with mpmath ({digits} digits)"
            except (FloatingPointError, ValueError, ZeroDivisionError, OverflowError):
                continue
        # No backend could compute the update: keep the ratings, only the per-game drift tau applies.
        tau = self.settings.tau
        drifted = tuple(trueskill.Rating(mu=float(r.mu), sigma=math.hypot(float(r.sigma), tau))
                        for r in (winner, loser))
        return Backend.SKIPPED, drifted, None, "upset too extreme for any backend; ratings left unchanged"

    def _update(self, env: trueskill.TrueSkill, winner: trueskill.Rating, loser: trueskill.Rating,
                bonus: trueskill.Rating | None, record: GameRecord
                ) -> tuple[tuple[trueskill.Rating, trueskill.Rating], trueskill.Rating | None]:
        ranks = [0, 0] if record.winner is None else [0, 1]
        if bonus is None:
            (new_winner,), (new_loser,) = env.rate([(winner,), (loser,)], ranks=ranks)
            return (_float_rating(new_winner), _float_rating(new_loser)), None
        # the receiver (the weaker player, first) is in the winner slot when it won, and in a draw when it is Black
        weaker_first = (record.white if record.winner is Color.WHITE else record.black) == record.handicap_receiver
        scaled = trueskill.Rating(mu=float(bonus.mu) / BONUS_WEIGHT, sigma=float(bonus.sigma) / BONUS_WEIGHT)
        if weaker_first:
            teams, weights = [(winner, scaled), (loser,)], [(1.0, BONUS_WEIGHT), (1.0,)]
        else:
            teams, weights = [(winner,), (loser, scaled)], [(1.0,), (1.0, BONUS_WEIGHT)]
        rated = env.rate(teams, ranks=ranks, weights=weights)
        if weaker_first:
            (new_winner, new_bonus), (new_loser,) = rated
        else:
            (new_winner,), (new_loser, new_bonus) = rated
        worth = trueskill.Rating(mu=float(new_bonus.mu) * BONUS_WEIGHT, sigma=float(new_bonus.sigma) * BONUS_WEIGHT)
        return (_float_rating(new_winner), _float_rating(new_loser)), worth

    def result(self) -> Ratings:
        players = {name: _player(name, self.current[name]) for name in self.played}
        ranked = sorted(players.values(), key=lambda p: (-p.conservative, -p.mu, p.name))
        counts = ReplayCounts(self.count, self.mpmath, self.skipped, self.handicap, sum(self.adjusted.values()),
                              tuple(self.tournaments), self.draws)
        return Ratings(
            settings=self.settings,
            players={p.name: p for p in ranked},
            history={p.name: tuple(self.history.get(p.name, ())) for p in ranked} if self.detail else {},
            games=tuple(self.games),
            level_worth=self._level_worth(),
            counts=counts,
            results={p.name: self.results.get(p.name) or PlayerResults() for p in ranked},
        )

    def _level_worth(self) -> tuple[LevelValue, ...]:
        """Final worth of every level up to the highest played, per board."""
        played: dict[str, dict[int, int]] = {}
        for (board, level), games in self.adjusted.items():
            played.setdefault(board, {})[level] = games
        values = []
        for board in sorted(played):
            model = self.boards[board]
            counts = played[board]
            values.append(LevelValue(board, 0, 0.0, 0.0, 0))
            for level in range(1, max(counts) + 1):
                bonus = model.bonus(level)
                if bonus is not None:
                    values.append(LevelValue(board, level, float(bonus.mu), float(bonus.sigma), counts.get(level, 0)))
        return tuple(values)


def _float_rating(rating: trueskill.Rating) -> trueskill.Rating:
    """A float rating; FloatingPointError when the backend's answer is not finite (the next backend tries)."""
    mu, sigma = float(rating.mu), float(rating.sigma)
    if not (math.isfinite(mu) and math.isfinite(sigma)):
        raise FloatingPointError(f"rating mu {mu!r}, sigma {sigma!r} is not finite")
    return trueskill.Rating(mu=mu, sigma=sigma)


def _player(name: str, rating: trueskill.Rating) -> PlayerRating:
    return PlayerRating(name, float(rating.mu), float(rating.sigma))
