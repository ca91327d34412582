"""Tests of the slot list (pairings, seat balance, seeds) and of dispatch-time decisions by the Scheduler."""

from __future__ import annotations

import collections
from dataclasses import replace

from ytourney.games.record import GameRecord, Termination
from ytourney.games.api import Color
from ytourney.tournament.config import parse_config
from ytourney.tournament.schedule import GameTask, Scheduler, build_slots, pairings
from ytourney.games.y.state import CONNECTION

PLAYERS = "players: [{name: a, bot: random}, {name: b, bot: random}, {name: c, bot: random}, {name: d, bot: random}]\n"


def config(extra: str = "", players: str = PLAYERS):
    return parse_config("name: t\nboard: tri:7\nseed: 1\n" + extra + players)


def result(task: GameTask, cfg, winner_seat: int = 0, termination: Termination = CONNECTION,
           reason: str = "") -> GameRecord:
    names = [cfg.player_names[i] for i in task.seats]
    return GameRecord(game="y",
        tournament=cfg.name, round=task.round, board=cfg.board, rules=cfg.rules.to_dict(), handicap=task.handicap,
        first=names[0], second=names[1], black=names[0], white=names[1], moves=("a1",),
        winner=Color.BLACK if winner_seat == 0 else Color.WHITE, termination=termination, move_seconds=(0.0,),
        seed=task.seed, started="", finished="", id=task.slot, reason=reason,
    )


def drain(scheduler: Scheduler, cfg, decide=lambda task: 0):
    items = []
    while (item := scheduler.next_item()) is not None:
        items.append(item)
        if isinstance(item, GameTask):
            scheduler.record(result(item, cfg, decide(item)))
        else:
            scheduler.record(item)
    return items


def test_round_robin_slots_balance_seats_and_are_deterministic() -> None:
    cfg = config("schedule: {games_per_pair: 4}\n")
    slots = list(build_slots(cfg))
    assert len(slots) == 6 * 4 and [s.id for s in slots] == list(range(1, 25))
    assert list(build_slots(cfg)) == slots
    per_pair = collections.Counter(frozenset(s.players) for s in slots)
    assert set(per_pair.values()) == {4}
    first = collections.Counter(s.players[0] for s in slots)
    assert set(first.values()) == {6}  # each player moves first in half of its 12 games
    for a, b in zip(slots[::2], slots[1::2]):
        assert a.players == b.players[::-1] and a.round == b.round and a.opening_group == b.opening_group
    assert len({s.seed for s in slots}) == len(slots)
    assert list(build_slots(replace(cfg, seed=2))) != slots


def test_more_games_per_pair_only_appends_slots() -> None:
    short = list(build_slots(config("schedule: {games_per_pair: 4}\n")))
    long = list(build_slots(config("schedule: {games_per_pair: 7}\n")))
    assert long[: len(short)] == short and len(long) == 6 * 7


def test_odd_games_per_pair_alternates_first_seat_across_pairs() -> None:
    slots = build_slots(config("schedule: {games_per_pair: 1}\n"))
    assert len(slots) == 6
    first = collections.Counter(s.players[0] for s in slots)
    assert max(first.values()) - min(first.values()) <= 1


def test_gauntlet_and_match_pairings() -> None:
    gauntlet = config("schedule: {format: gauntlet, challenger: c, games_per_pair: 2}\n")
    assert pairings(gauntlet) == [(2, 0), (2, 1), (2, 3)]
    assert all(2 in s.players for s in build_slots(gauntlet)) and len(build_slots(gauntlet)) == 6
    match = config("schedule: {format: match, games_per_pair: 5}\n",
                   players="players: [{name: x, bot: random}, {name: y, bot: random}]\n")
    slots = build_slots(match)
    assert len(slots) == 5 and {frozenset(s.players) for s in slots} == {frozenset((0, 1))}


def test_scheduler_hands_out_every_slot_once_and_resumes_with_the_rest() -> None:
    cfg = config("schedule: {games_per_pair: 2}\n")
    slots = build_slots(cfg)
    scheduler = Scheduler(cfg, slots)
    tasks = [scheduler.next_item() for _ in range(5)]
    assert [t.slot for t in tasks] == [1, 2, 3, 4, 5]
    assert all(t.handicap == 0 and t.opening == () for t in tasks)
    stored = [result(t, cfg) for t in tasks[:3]]
    resumed = Scheduler(cfg, slots, stored)
    rest = drain(resumed, cfg)
    assert [t.slot for t in rest] == [s.id for s in list(slots)[3:]]
    assert resumed.next_item() is None and resumed.skipped == 0


def test_fixed_handicap_goes_to_the_player_losing_the_head_to_head() -> None:
    cfg = config("handicap: {mode: fixed, level: 2}\nschedule: {games_per_pair: 6}\n",
                 players="players: [{name: strong, bot: random}, {name: weak, bot: random}]\n")
    scheduler = Scheduler(cfg, build_slots(cfg))
    first = scheduler.next_item()
    assert first.handicap == 2 and first.seats == (1, 0)  # no results yet: the later-listed player is weaker
    scheduler.record(result(first, cfg, winner_seat=1))  # strong wins
    for _ in range(5):
        task = scheduler.next_item()
        assert task.handicap == 2 and cfg.player_names[task.seats[0]] == "weak"
        scheduler.record(result(task, cfg, winner_seat=1))


def test_fractional_fixed_level_is_rounded_per_game_from_the_slot_seed() -> None:
    cfg = config("handicap: {mode: fixed, level: 1.5}\nschedule: {games_per_pair: 40}\n",
                 players="players: [{name: a, bot: random}, {name: b, bot: random}]\n")
    levels = [t.handicap for t in drain(Scheduler(cfg, build_slots(cfg)), cfg)]
    again = [t.handicap for t in drain(Scheduler(cfg, build_slots(cfg)), cfg)]
    assert levels == again and set(levels) == {1, 2}


def test_auto_handicap_moves_towards_the_weaker_player() -> None:
    cfg = config("handicap: {mode: auto, max_level: 4}\nschedule: {games_per_pair: 30}\n",
                 players="players: [{name: strong, bot: random}, {name: weak, bot: random}]\n")
    # strong always wins: the planner must start handing stones to weak
    tasks = drain(Scheduler(cfg, build_slots(cfg)), cfg,
                  decide=lambda task: 0 if cfg.player_names[task.seats[0]] == "strong" else 1)
    late = tasks[-10:]
    assert all(t.handicap >= 1 and cfg.player_names[t.seats[0]] == "weak" for t in late)


def test_auto_handicap_stop_width_skips_the_rest_of_a_pair() -> None:
    cfg = config("handicap: {mode: auto, max_level: 2, stop_width: 3.5}\nschedule: {games_per_pair: 200}\n",
                 players="players: [{name: a, bot: random}, {name: b, bot: random}]\n")
    scheduler = Scheduler(cfg, build_slots(cfg))
    tasks = drain(scheduler, cfg, decide=lambda task: task.slot % 2)
    assert len(tasks) < 200 and scheduler.skipped == 200 - len(tasks)


def test_openings_are_shared_by_a_pair_of_games_with_seats_reversed(tmp_path) -> None:
    cfg = config("rules: {pie: false}\nschedule: {games_per_pair: 4, openings: {random_plies: 3}}\n")
    tasks = drain(Scheduler(cfg, build_slots(cfg)), cfg)
    for a, b in zip(tasks[::2], tasks[1::2]):
        assert a.opening == b.opening and len(a.opening) == 3 and a.seats == b.seats[::-1]
    assert len({t.opening for t in tasks}) > 1
    (tmp_path / "o.txt").write_text("a1\nb1\nc1\n")
    lined = parse_config(f"name: t\nboard: tri:7\nrules: {{pie: false}}\n"
                         f"schedule: {{games_per_pair: 4, openings: {tmp_path / 'o.txt'}}}\n" + PLAYERS)
    indexes = [t.opening_index for t in drain(Scheduler(lined, build_slots(lined)), lined)]
    assert indexes[:8] == [0, 0, 1, 1, 2, 2, 0, 0]


def test_a_player_faulting_in_a_row_is_suspended_and_forfeits_the_rest() -> None:
    cfg = config("fault_limit: 2\nschedule: {games_per_pair: 4}\n")
    scheduler = Scheduler(cfg, build_slots(cfg))
    items = []
    while (item := scheduler.next_item()) is not None:
        items.append(item)
        if isinstance(item, GameTask):
            names = [cfg.player_names[i] for i in item.seats]
            if "d" in names:  # d crashes every game it plays
                record = result(item, cfg, winner_seat=1 - names.index("d"), termination=Termination.CRASH,
                                reason="engine died")
            else:
                record = result(item, cfg)
            scheduler.record(record)
        else:
            scheduler.record(item)
    forfeits = [i for i in items if isinstance(i, GameRecord)]
    assert len(items) == 24
    assert forfeits and all(r.termination is Termination.FORFEIT and r.loser_name == "d" for r in forfeits)
    assert "d was suspended after 2 faults in a row (last: crash: engine died)" == forfeits[0].reason
    assert set(scheduler.suspended()) == {"d"}
    assert len(forfeits) == 12 - 2


def test_resume_gives_suspended_players_a_fresh_start() -> None:
    cfg = config("fault_limit: 1\nschedule: {games_per_pair: 2}\n",
                 players="players: [{name: a, bot: random}, {name: b, bot: random}, {name: c, bot: random}]\n")
    slots = build_slots(cfg)
    scheduler = Scheduler(cfg, slots)
    first = scheduler.next_item()
    crashed = result(first, cfg, winner_seat=1, termination=Termination.CRASH)
    scheduler.record(crashed)
    assert scheduler.suspended()
    resumed = Scheduler(cfg, slots, [crashed])
    assert not resumed.suspended() and isinstance(resumed.next_item(), GameTask)


def test_stop_condition_ends_dispatch() -> None:
    cfg = config("schedule: {games_per_pair: 10}\n")
    seen = []

    def stop(record: GameRecord) -> bool:
        seen.append(record.id)
        return len(seen) >= 3

    scheduler = Scheduler(cfg, build_slots(cfg), stop_condition=stop)
    tasks = drain(scheduler, cfg)
    assert len(tasks) == 3 and scheduler.stopped and scheduler.skipped == 60 - 3
    stored = [result(t, cfg) for t in tasks]
    seen.clear()
    assert Scheduler(cfg, build_slots(cfg), stored, stop_condition=stop).next_item() is None
    assert seen == [1, 2, 3]


def test_forfeit_record_is_well_formed() -> None:
    cfg = config("fault_limit: 1\n", players="players: [{name: a, bot: random}, {name: b, bot: random}]\n")
    scheduler = Scheduler(cfg, build_slots(cfg))
    task = scheduler.next_item()
    scheduler.record(result(task, cfg, winner_seat=0, termination=Termination.TIME, reason="took 3s"))
    forfeit = scheduler.next_item()
    assert isinstance(forfeit, GameRecord) and forfeit.id == 2
    loser = cfg.player_names[task.seats[1]]
    assert forfeit.loser_name == loser and forfeit.moves == () and forfeit.move_seconds == ()
    assert GameRecord.from_dict(forfeit.to_dict()) == replace(forfeit)
