"""TrueSkill replay: order independence, hand-checked values, extreme upsets, leagues, handicap marking."""

from __future__ import annotations

import math
import random

import pytest
import trueskill

from ytourney.games.record import GameRecord, Termination, league_order, replay_order
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.stats.ratings import (
    Backend,
    HandicapRating,
    PlayerRating,
    Ratings,
    RatingSettings,
    make_env,
    rate_records,
    superiority,
)

EVEN = RatingSettings(handicap=HandicapRating.EVEN)


def game(game_id: int | None, winner: str, loser: str, *, first: str | None = None, handicap: int = 0,
         tournament: str = "t", moves: tuple[str, ...] = ("a1", "b1"), started: str = "",
         termination: Termination = CONNECTION) -> GameRecord:
    """A hand-built record: `winner` beat `loser`; `first` (default the winner) placed the first stone as Black."""
    first = first or winner
    second = loser if first == winner else winner
    return GameRecord(game="y",
        tournament=tournament, round=1, board="tri:5", rules=Rules(pie=handicap == 0, misere=False),
        handicap=handicap, first=first, second=second, black=first, white=second, moves=moves,
        winner=Color.BLACK if winner == first else Color.WHITE, termination=termination, move_seconds=(),
        seed=game_id, started=started, finished=started, id=game_id,
    )


def random_games(count: int, names: list[str], seed: int) -> list[GameRecord]:
    rng = random.Random(seed)
    games = []
    for game_id in range(1, count + 1):
        a, b = rng.sample(names, 2)
        games.append(game(game_id, a, b, first=rng.choice([a, b])))
    return games


def test_defaults_are_the_standard_trueskill_parameters() -> None:
    settings = RatingSettings()
    assert (settings.mu, settings.sigma, settings.beta, settings.tau) == (25.0, 25 / 3, 25 / 6, 25 / 300)
    env = make_env(settings)
    assert env.draw_probability == 0
    assert (env.mu, env.sigma, env.beta, env.tau) == (25.0, 25 / 3, 25 / 6, 25 / 300)


def test_shuffled_completion_order_gives_identical_ratings() -> None:
    games = random_games(60, ["a", "b", "c", "d"], seed=3)
    reference = rate_records(games)
    rng = random.Random(9)
    for _ in range(5):
        shuffled = games[:]
        rng.shuffle(shuffled)
        again = rate_records(shuffled)
        assert again.players == reference.players
        assert again.history == reference.history


def test_records_without_ids_replay_in_a_stable_order() -> None:
    games = [game(None, "a", "b", started=f"2026-01-01T00:00:{i:02d}Z") for i in range(5)]
    games += [game(None, "b", "a", started=f"2026-01-01T00:01:{i:02d}Z") for i in range(5)]
    games.append(game(7, "b", "a"))
    ordered = replay_order(games)
    assert ordered[0].id == 7
    assert replay_order(list(reversed(games))) == ordered
    assert rate_records(list(reversed(games))).players == rate_records(games).players


def test_known_sequence_matches_trueskill_by_hand() -> None:
    settings = RatingSettings(mu=25, sigma=25 / 3, beta=25 / 6, tau=25 / 300)
    env = trueskill.TrueSkill(mu=25, sigma=25 / 3, beta=25 / 6, tau=25 / 300, draw_probability=0)
    a, b, c = env.create_rating(), env.create_rating(), env.create_rating()
    a, b = trueskill.rate_1vs1(a, b, env=env)  # game 1: a beats b
    c, a = trueskill.rate_1vs1(c, a, env=env)  # game 2: c beats a
    b, c = trueskill.rate_1vs1(b, c, env=env)  # game 3: b beats c
    games = [game(3, "b", "c"), game(1, "a", "b"), game(2, "c", "a")]  # stored out of order on purpose
    ratings = rate_records(games, settings)
    for name, expected in (("a", a), ("b", b), ("c", c)):
        assert ratings.players[name].mu == pytest.approx(expected.mu, abs=1e-12)
        assert ratings.players[name].sigma == pytest.approx(expected.sigma, abs=1e-12)
    # the hand computation: after game 1 the winner's mu rose by sigma²/c · v(t)
    first = ratings.history["a"][0]
    sigma2 = (25 / 3) ** 2 + (25 / 300) ** 2
    c_total = math.sqrt(2 * sigma2 + 2 * (25 / 6) ** 2)
    v = math.exp(-0.0) / math.sqrt(2 * math.pi) / 0.5  # pdf(0) / cdf(0)
    assert first.mu == pytest.approx(25 + sigma2 / c_total * v, abs=1e-6)  # trueskill's erfc is approximate


def test_the_global_trueskill_environment_is_untouched() -> None:
    before = trueskill.global_env()
    rate_records([game(1, "a", "b")], RatingSettings(mu=100, sigma=10, beta=5, tau=0))
    after = trueskill.global_env()
    assert (after.mu, after.sigma, after.beta) == (before.mu, before.sigma, before.beta)


def test_extreme_upset_is_rated_without_crashing() -> None:
    initial = {"strong": PlayerRating("strong", 50, 0.5), "weak": PlayerRating("weak", 0, 0.5)}
    ratings = rate_records([game(1, "weak", "strong")], initial=initial)
    assert ratings.players["weak"].mu > 0 > ratings.players["strong"].mu - 50
    assert all(math.isfinite(p.mu) and math.isfinite(p.sigma) for p in ratings.players.values())


def test_floating_point_error_path_retries_with_mpmath() -> None:
    strong, weak = trueskill.Rating(1000, 0.5), trueskill.Rating(0, 0.5)
    with pytest.raises(FloatingPointError):
        trueskill.rate_1vs1(weak, strong, env=make_env())  # the float backend gives up on this upset
    ratings = rate_records([game(1, "weak", "strong")], initial={"strong": strong, "weak": weak})
    rated = ratings.games[0]
    assert rated.backend is Backend.MPMATH
    assert ratings.mpmath_games == 1
    assert ratings.players["weak"].mu > 0.5
    assert ratings.players["strong"].mu < 999.5
    assert isinstance(ratings.players["weak"].mu, float)


def test_beyond_every_backend_the_game_is_skipped_not_a_crash() -> None:
    strong, weak = trueskill.Rating(1e7, 0.5), trueskill.Rating(0, 0.5)
    ratings = rate_records([game(1, "weak", "strong"), game(2, "strong", "weak")],
                           initial={"strong": strong, "weak": weak})
    assert ratings.games[0].backend in (Backend.MPMATH, Backend.SKIPPED)
    assert all(math.isfinite(p.mu) for p in ratings.players.values())


def test_league_replays_folder_by_folder_then_by_id() -> None:
    first = [game(2, "a", "b", tournament="one"), game(1, "b", "a", tournament="one")]
    second = [game(1, "c", "a", tournament="two"), game(3, "a", "c", tournament="two")]
    order = league_order([first, second])
    assert [(g.tournament, g.id) for g in order] == [("one", 1), ("one", 2), ("two", 1), ("two", 3)]
    league = rate_records(order, ordered=True)
    assert set(league.players) == {"a", "b", "c"}
    assert [h.tournament for h in league.history["a"]] == ["one", "one", "two", "two"]


def test_history_has_one_point_per_game_ending_at_the_final_rating() -> None:
    games = random_games(30, ["a", "b", "c"], seed=1)
    ratings = rate_records(games)
    for name, player in ratings.players.items():
        played = sum(name in (g.black, g.white) for g in games)
        points = ratings.history[name]
        assert len(points) == played
        assert [p.game for p in points] == sorted(p.game for p in points)
        assert (points[-1].mu, points[-1].sigma) == (player.mu, player.sigma)


def test_ranking_uses_the_conservative_rating() -> None:
    # 'steady' wins many games against a field; 'lucky' wins its only game: higher mu is possible, but wider.
    games = [game(i, "steady", f"x{i % 3}") for i in range(1, 16)] + [game(16, "lucky", "x0")]
    ratings = rate_records(games)
    names = [p.name for p in ratings.ranking()]
    assert names[0] == "steady"
    assert list(ratings.players) == names
    conservative = [p.conservative for p in ratings.ranking()]
    assert conservative == sorted(conservative, reverse=True)


def test_handicap_games_are_rated_as_even_and_marked_when_asked() -> None:
    games = [game(1, "weak", "strong", handicap=2), game(2, "strong", "weak")]
    ratings = rate_records(games, EVEN)
    assert ratings.handicap_games == 1
    assert ratings.games[0].handicap_as_even and not ratings.games[1].handicap_as_even
    assert ratings.level_worth == ()
    plain = rate_records([game(1, "weak", "strong"), game(2, "strong", "weak")])
    assert ratings.players == plain.players
    learned = rate_records(games)  # the default: the level's learned worth plays on the weaker side
    assert learned.games[0].handicap_adjusted and not learned.games[0].handicap_as_even


def test_the_learned_worth_of_a_level_follows_the_result() -> None:
    games = [game(1, "weak", "strong", handicap=2)]
    learned = rate_records(games)
    even = rate_records(games, EVEN)
    assert learned.games[0].handicap_adjusted
    # a win the handicap explains in part moves the ratings less than an even win
    assert learned.players["weak"].mu - 25 < even.players["weak"].mu - 25
    prior = 2 * RatingSettings().beta  # level L starts worth L betas
    assert {v.level: v.mu for v in learned.level_worth}[2] > prior
    # the weaker side losing with its handicap
    lost = rate_records([game(1, "strong", "weak", first="weak", handicap=2)])
    assert lost.players["weak"].mu < 25 and {v.level: v.mu for v in lost.level_worth}[2] < prior


def test_self_play_is_skipped() -> None:
    record = game(1, "a", "b")
    selfplay = GameRecord(**{**record.__dict__, "black": "a", "white": "a", "first": "a", "second": "a"})
    ratings = rate_records([selfplay])
    assert ratings.games[0].backend is Backend.SKIPPED
    assert ratings.players["a"].mu == 25


def test_superiority() -> None:
    a, b = PlayerRating("a", 30, 2), PlayerRating("b", 25, 1)
    assert superiority(a, b) + superiority(b, a) == pytest.approx(1.0)
    expected = 0.5 * math.erfc(-(5 / math.sqrt(5)) / math.sqrt(2))
    assert superiority(a, b) == pytest.approx(expected)
    assert superiority(PlayerRating("x", 1, 0), PlayerRating("y", 1, 0)) == 0.5


def test_a_replay_without_detail_keeps_no_games_and_gives_the_same_table_figures() -> None:
    games = random_games(80, ["a", "b", "c", "d"], seed=4)
    games += [game(81, "a", "b", handicap=2), game(82, "c", "d", termination=Termination.TIME)]
    full = rate_records(games)
    lean = rate_records(iter(replay_order(games)), ordered=True, detail=False)
    assert lean.games == () and lean.history == {} and not lean.detailed and full.detailed
    assert lean.players == full.players
    assert lean.level_worth == full.level_worth
    assert (lean.game_count, lean.handicap_games, lean.handicap_adjusted_games, lean.tournaments) == (
        full.game_count, full.handicap_games, full.handicap_adjusted_games, full.tournaments) == (82, 1, 1, ("t",))
    assert lean.player_results() == full.player_results()
    assert lean.player_results()["d"].faults == {"time": 1}
    rebuilt = Ratings(full.settings, full.players, full.history, full.games, full.level_worth)  # counted from games
    assert rebuilt.player_results() == full.player_results() and rebuilt.game_count == 82
