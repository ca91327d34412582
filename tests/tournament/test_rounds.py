"""Tests of the Swiss and knockout formats: config errors, pairing properties, the bracket, resume exactness."""

from __future__ import annotations

import collections
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ytourney.errors import ConfigError
from ytourney.games.record import GameRecord, GameSetup
from ytourney.games.y.state import CONNECTION
from ytourney.tournament.config import parse_config
from ytourney.tournament.knockout import bracket_places
from ytourney.tournament.round_scheduler import (
    RoundScheduler,
    plan_rounds,
    report_lines,
)
from ytourney.tournament.rounds import GameResult, RoundPlan
from ytourney.tournament.schedule import GameTask


def config(players: int, schedule: str, seed: int = 1):
    names = ", ".join(f"{{name: p{i}, bot: random}}" for i in range(players))
    return parse_config(f"name: t\nboard: tri:5\nseed: {seed}\nschedule: {schedule}\nplayers: [{names}]\n")


def play_out(cfg, decide) -> tuple[RoundPlan, dict[int, GameResult]]:
    """Plan and store every round, `decide(first, second, game_id)` giving the first seat's points."""
    results: dict[int, GameResult] = {}
    while True:
        plan = plan_rounds(cfg, results)
        if not plan.open_games:
            return plan, results
        for slot in plan.open_games:
            first, second = slot.players
            results[slot.id] = GameResult(cfg.player_names[first], decide(first, second, slot.id))


def stronger(first: int, second: int, game_id: int) -> float:
    return 1.0 if first < second else 0.0


# --- config ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("schedule", "message"), [
    ("{format: swiss}", "schedule.rounds: missing; a swiss names how many rounds it plays"),
    ("{format: swiss, rounds: 0}", "schedule.rounds: expected a whole number >= 1; found 0"),
    ("{format: swiss, rounds: 5}", ("schedule.rounds: expected at most 3: a swiss of 4 players runs out of "
                                   "opponents not met before after that many rounds; found 5")),
    ("{format: knockout, rounds: 2}", "schedule.rounds: only used with format swiss, not 'knockout'"),
    ("{format: round-robin, rounds: 2}", "schedule.rounds: only used with format swiss, not 'round-robin'"),
    ("{format: swiss, rounds: 2, tiebreak_games: 2}",
     "schedule.tiebreak_games: only used with format knockout, not 'swiss'"),
    ("{format: knockout, tiebreak_games: 3}",
     "schedule.tiebreak_games: expected an even number (tie-break games are played in pairs, seats swapped)"),
    ("{format: knockout, tiebreak_games: -2}", "schedule.tiebreak_games: expected a whole number >= 0; found -2"),
])
def test_config_errors_name_the_key(schedule: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        config(4, schedule)
    assert message in str(info.value)


def test_handicaps_are_refused_in_rounds() -> None:
    with pytest.raises(ConfigError, match="format knockout plays even games; handicaps are for round-robin"):
        parse_config("name: t\nschedule: {format: knockout}\nhandicap: {mode: auto}\nplayers: [random, mcts]\n")


def test_older_formats_keep_their_canonical_key() -> None:
    key = config(4, "{format: round-robin}").key()
    assert set(key["schedule"]) == {"format", "games_per_pair", "challenger", "openings", "sprt"}
    assert config(4, "{format: swiss, rounds: 3}").key()["schedule"]["rounds"] == 3
    assert config(4, "{format: knockout}").key()["schedule"]["tiebreak_games"] == 4


# --- swiss ----------------------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 11), data=st.data(), games=st.integers(1, 3), seed=st.integers(0, 50))
def test_swiss_pairs_never_repeat_and_byes_go_to_distinct_players(players: int, data: st.DataObject, games: int,
                                                                  seed: int) -> None:
    most = players - 1 if players % 2 == 0 else players
    rounds = data.draw(st.integers(1, most))
    cfg = config(players, f"{{format: swiss, rounds: {rounds}, games_per_pair: {games}}}", seed)
    outcomes = random.Random(seed)
    plan, _results = play_out(cfg, lambda a, b, i: outcomes.choice((0.0, 1.0, 1.0, 0.5)))
    met = [frozenset(p.players) for r in plan.rounds for p in r.pairings]
    assert len(met) == len(set(met))  # never the same pair twice
    byes = [bye for r in plan.rounds for bye in r.byes]
    assert len(byes) == len(set(byes))  # byes to distinct players
    for round_ in plan.rounds:
        seated = [p for pairing in round_.pairings for p in pairing.players] + list(round_.byes)
        assert sorted(seated) == list(range(players))  # everyone plays or sits out, once
        assert len(round_.byes) == players % 2
        for pairing in round_.pairings:
            assert len(pairing.games) == games
    ids = [g.id for r in plan.rounds for p in r.pairings for g in p.games]
    assert ids == list(range(1, len(ids) + 1))
    if plan.stopped:
        assert "cannot be paired without a rematch" in plan.stopped
    else:
        assert len(plan.rounds) == rounds and len(ids) == plan.planned


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 10), seed=st.integers(0, 50))
def test_swiss_seats_balance(players: int, seed: int) -> None:
    most = players - 1 if players % 2 == 0 else players
    even = config(players, f"{{format: swiss, rounds: {most}, games_per_pair: 2}}", seed)
    outcomes = random.Random(seed)
    plan, _ = play_out(even, lambda a, b, i: outcomes.choice((0.0, 1.0)))
    firsts, seconds = collections.Counter(), collections.Counter()
    for round_ in plan.rounds:
        for pairing in round_.pairings:
            for game in pairing.games:
                firsts[game.players[0]] += 1
                seconds[game.players[1]] += 1
    assert firsts == seconds  # an even count: every player takes the first seat in half its games
    odd = config(players, f"{{format: swiss, rounds: {most}, games_per_pair: 1}}", seed)
    plan, _ = play_out(odd, lambda a, b, i: outcomes.choice((0.0, 1.0)))
    owed = collections.Counter()
    for round_ in plan.rounds:
        for pairing in round_.pairings:
            first, second = pairing.games[0].players
            assert owed[first] >= owed[second]  # the first seat goes to whoever had it less often
            owed[first] -= 1
            owed[second] += 1


def test_swiss_pairs_equal_scores_and_ranks_by_score_then_tiebreaks() -> None:
    cfg = config(8, "{format: swiss, rounds: 3, games_per_pair: 2}")
    plan, _ = play_out(cfg, stronger)
    second_round = plan.rounds[1]
    for pairing in second_round.pairings:
        a, b = pairing.players
        assert (a < 4) == (b < 4) or abs(a - b) == 1  # the round 1 winners meet each other
    assert [s.name for s in plan.standings][:1] == ["p0"] and plan.standings[0].score == 6
    text = "\n".join(report_lines(plan, cfg.schedule.format, 3))
    assert "Swiss standings after 3 of 3 rounds" in text and "buchholz" in text


def test_swiss_bye_scores_a_won_pairing_without_a_game() -> None:
    cfg = config(3, "{format: swiss, rounds: 3, games_per_pair: 2}")
    plan, results = play_out(cfg, stronger)
    assert len(results) == 3 * 2  # one pairing of two games a round; the bye plays none
    assert sorted(bye for r in plan.rounds for bye in r.byes) == [0, 1, 2]
    scores = {s.name: (s.score, s.byes, s.games) for s in plan.standings}
    assert scores == {"p0": (6.0, 1, 4), "p1": (4.0, 1, 4), "p2": (2.0, 1, 4)}


# --- knockout -------------------------------------------------------------------------------------------------


def test_bracket_places_keep_top_seeds_apart() -> None:
    assert bracket_places(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    places = bracket_places(16)
    assert sorted(places) == list(range(1, 17)) and places.index(2) >= 8 and places.index(1) == 0


def test_knockout_gives_byes_to_top_seeds_and_the_best_wins() -> None:
    cfg = config(6, "{format: knockout, games_per_pair: 2}")
    plan, results = play_out(cfg, stronger)
    first = plan.rounds[0]
    assert first.byes == (0, 1)  # 6 players in a bracket of 8: seeds 1 and 2 go straight to round 2
    assert {pairing.players for pairing in first.pairings} == {(3, 4), (2, 5)}
    assert plan.champion == 0 and plan.done and len(plan.rounds) == 3
    assert len(results) == 5 * 2 == plan.planned
    assert "winner: p0" in report_lines(plan, cfg.schedule.format, 0)


def test_knockout_tie_plays_extra_games_in_pairs_then_seed_decides() -> None:
    cfg = config(2, "{format: knockout, games_per_pair: 2, tiebreak_games: 4}")
    plan, results = play_out(cfg, lambda a, b, i: 1.0)  # the first seat always wins: every pair of games ties
    pairing = plan.rounds[0].pairings[0]
    assert len(pairing.games) == 2 + 4 and len(results) == 6 == plan.planned
    assert [g.players[0] for g in pairing.games] in ([0, 1] * 3, [1, 0] * 3)  # seats swap in every pair
    assert plan.champion == 0  # still tied: the better seed goes through
    assert "(4 tie-break games): p0 goes through on seed" in "\n".join(report_lines(plan, cfg.schedule.format, 0))
    decided = config(2, "{format: knockout, games_per_pair: 2, tiebreak_games: 4}")
    plan, results = play_out(decided, lambda a, b, i: 1.0 if i <= 2 else (1.0 if b == 0 else 0.0))
    assert len(results) == 4 and plan.champion == 1  # the first tie-break pair decides it for seed 2
    none = config(2, "{format: knockout, games_per_pair: 2, tiebreak_games: 0}")
    plan, results = play_out(none, lambda a, b, i: 1.0)
    assert len(results) == 2 and plan.champion == 0


# --- resume ---------------------------------------------------------------------------------------------------


def result(task: GameTask, cfg, winner_seat: int) -> GameRecord:
    names = [cfg.player_names[i] for i in task.seats]
    setup = GameSetup(cfg.variant, first=names[0], second=names[1], tournament=cfg.name, round=task.round,
                      seed=task.seed, id=task.slot)
    return setup.lost_by(1 - winner_seat, CONNECTION, "")


def drain_round(scheduler: RoundScheduler) -> list[GameTask]:
    tasks = []
    while isinstance(item := scheduler.next_item(), GameTask):
        tasks.append(item)
    return tasks


@pytest.mark.parametrize("schedule", ["{format: swiss, rounds: 4, games_per_pair: 2}",
                                      "{format: knockout, games_per_pair: 2, tiebreak_games: 2}"])
def test_a_restarted_scheduler_plans_the_same_games(schedule: str) -> None:
    cfg = config(7, schedule, seed=5)
    outcomes = random.Random(3)
    whole, stored, tasks = RoundScheduler(cfg), [], []
    while batch := drain_round(whole):
        assert whole.next_item() is None  # the next round waits for this one's results
        for task in batch:
            record = result(task, cfg, outcomes.choice((0, 1)))
            whole.record(record)
            stored.append(record)
        tasks += batch
    assert tasks and whole.next_item() is None
    for cut in (1, len(tasks) // 2, len(tasks) - 1):
        resumed = RoundScheduler(cfg, stored[:cut])  # a new run over the stored games: the rest is the same
        again = []
        while batch := drain_round(resumed):
            for task in batch:
                resumed.record(stored[task.slot - 1])
            again += batch
        assert again == [task for task in tasks if task.slot > cut]


def test_planned_counts_a_tie_break_as_soon_as_the_tied_match_is_stored() -> None:
    """The progress line's total grows when the tie is stored, not after the tie-break games are played
    ('6/2 games (300%)' was shown while a knockout's tie-breaks ran)."""
    cfg = config(2, "{format: knockout, games_per_pair: 2, tiebreak_games: 4}")
    scheduler = RoundScheduler(cfg)
    regular = drain_round(scheduler)
    assert scheduler.planned == 2
    for task in regular:
        scheduler.record(result(task, cfg, 0))  # the first seat wins both: 1-1
    assert scheduler.planned == 4
    assert len(drain_round(scheduler)) == 2


def test_the_scheduler_plans_again_only_when_results_were_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planning a Swiss replays the pairing of every round (costly with many players): asked again for a game at the
    end, the scheduler must not plan again over the same results."""
    import ytourney.tournament.round_scheduler as round_scheduler

    cfg = config(4, "{format: swiss, rounds: 2, games_per_pair: 1}")
    calls = []
    real = round_scheduler.plan_rounds
    monkeypatch.setattr(round_scheduler, "plan_rounds", lambda *args: calls.append(1) or real(*args))
    scheduler = RoundScheduler(cfg)
    while batch := drain_round(scheduler):
        for task in batch:
            scheduler.record(result(task, cfg, 0))
    rounds = len(calls)
    assert rounds == 3  # the start, and once after each complete round
    assert scheduler.next_item() is None and scheduler.next_item() is None and len(calls) == rounds


def suspended_config(players: int, schedule: str, limit: int):
    names = ", ".join(f"{{name: p{i}, bot: random}}" for i in range(players))
    return parse_config(f"name: t\nboard: tri:5\nseed: 1\nfault_limit: {limit}\nschedule: {schedule}\n"
                        f"players: [{names}]\n")


def test_a_swiss_no_longer_pairs_a_player_suspended_for_faults_nor_gives_it_a_bye() -> None:
    """A suspended player stayed in the Swiss: paired every round as a forfeit, and it could be given a bye."""
    cfg = suspended_config(4, "{format: swiss, rounds: 3, games_per_pair: 1}", limit=2)
    results: dict[int, GameResult] = {}
    while (plan := plan_rounds(cfg, results)).open_games:
        for slot in plan.open_games:
            first, second = slot.players
            faulty_first = first == 3
            points = 0.0 if faulty_first else 1.0 if second == 3 else 0.5
            results[slot.id] = GameResult(cfg.player_names[first], points, fault=3 in slot.players)
    assert [3 in [p for pairing in r.pairings for p in pairing.players] for r in plan.rounds] == [True, True, False]
    assert [r.byes for r in plan.rounds][2] and 3 not in plan.rounds[2].byes  # three left: the bye is theirs
    assert plan.withdrawn == {"p3": "was suspended after 2 faults in a row (withdrawn after round 2)"}
    assert [s.byes for s in plan.standings if s.name == "p3"] == [0]


def test_a_swiss_withdraws_a_player_who_lost_a_game_as_suspended() -> None:
    cfg = suspended_config(5, "{format: swiss, rounds: 3, games_per_pair: 1}", limit=3)
    results: dict[int, GameResult] = {}
    forfeited_in: list[int] = []
    while (plan := plan_rounds(cfg, results)).open_games:
        for slot in plan.open_games:
            first, second = slot.players
            lost = 4 in slot.players and not forfeited_in  # suspended live: its first game a forfeit
            forfeited_in += [slot.round] if lost else []
            points = (0.0 if first == 4 else 1.0) if lost else 1.0 if first < second else 0.0
            results[slot.id] = GameResult(cfg.player_names[first], points, fault=lost, forfeit=lost)
    after = plan.rounds[forfeited_in[0]:]
    assert len(plan.rounds) == 3 and after
    assert all(4 not in [p for pairing in r.pairings for p in pairing.players] for r in after)
    assert all(not r.byes for r in after)  # four left: no bye
    assert plan.withdrawn == {"p4": f"was suspended (withdrawn after round {forfeited_in[0]})"}


def test_a_swiss_with_fewer_than_two_players_left_ends_saying_why() -> None:
    cfg = suspended_config(3, "{format: swiss, rounds: 3, games_per_pair: 1}", limit=1)
    results: dict[int, GameResult] = {}
    while (plan := plan_rounds(cfg, results)).open_games:
        for slot in plan.open_games:  # the first seat always faults
            results[slot.id] = GameResult(cfg.player_names[slot.players[0]], 0.0, fault=True)
    assert "fewer than two players are left to pair in round" in plan.stopped


def test_the_round_scheduler_stops_handing_a_suspended_player_games_also_after_a_resume() -> None:
    from ytourney.games.record import Termination

    cfg = suspended_config(4, "{format: swiss, rounds: 3, games_per_pair: 1}", limit=1)
    scheduler, stored, seen = RoundScheduler(cfg), [], []
    while batch := drain_round(scheduler):
        for task in batch:
            names = [cfg.player_names[i] for i in task.seats]
            setup = GameSetup(cfg.variant, first=names[0], second=names[1], tournament=cfg.name, round=task.round,
                              seed=task.seed, id=task.slot)
            crashed = "p0" in names  # p0 crashes its first game: suspended with a limit of 1
            record = (setup.lost_by(names.index("p0"), Termination.CRASH, "boom") if crashed
                      else setup.lost_by(1, CONNECTION, ""))
            scheduler.record(record)
            stored.append(record)
        seen.append(sorted({name for task in batch for name in (cfg.player_names[i] for i in task.seats)}))
    assert "p0" in seen[0] and all("p0" not in names for names in seen[1:]) and len(seen) == 3
    assert scheduler.planned == len(stored) == 2 + 1 + 1  # the progress total counts the games of three players
    assert "p0" in scheduler.suspended()
    assert "p0" in RoundScheduler(cfg, stored).suspended()  # a resumed run replays the withdrawal


def test_a_swiss_round_that_no_pairing_avoids_a_rematch_is_refused_without_a_search() -> None:
    """Two players who have met everyone but the same third one cannot both be paired: decided exactly, not after
    PAIRING_BUDGET steps of search."""
    from ytourney.tournament.swiss import SwissHistory, pair_round

    history = SwissHistory(40)
    for lonely in (0, 1):
        for other in range(2, 39):
            history.add_game(lonely, other, 0.5)
    history.add_game(0, 1, 0.5)
    assert pair_round(history) is None
    paired = pair_round(history, withdrawn={0})
    assert paired is not None and (1, 39) in paired[0] and paired[1] not in (1, 39)
