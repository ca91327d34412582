"""Handicaps of a game whose levels favour a fixed side: seats stay the schedule's, levels follow the sides' score,
and the config refuses a ladder the rules cannot reach."""

from __future__ import annotations

import pytest

from ytourney.errors import ConfigError
from ytourney.games.aliens_amazons.state import CAPTURES
from ytourney.games.api import Color
from ytourney.games.record import GameRecord
from ytourney.stats.handicap_sides import SidePlanner
from ytourney.tournament.config import parse_config
from ytourney.tournament.schedule import GameTask, Scheduler, build_slots

PLAYERS = "players: [{name: a, bot: random}, {name: b, bot: random}]\n"


def config(handicap: str, extra: str = "", game: str = "aliens-amazons"):
    return parse_config(f"name: t\ngame: {game}\nseed: 3\nschedule: {{games_per_pair: 24}}\nhandicap: {handicap}\n"
                        + extra + PLAYERS)


def aliens_win(task: GameTask, cfg) -> GameRecord:
    """The Aliens (seat 0, White, first) win: the player in seat 1 played the Amazons."""
    aliens, amazons = (cfg.player_names[i] for i in task.seats)
    return GameRecord(game="aliens-amazons", tournament=cfg.name, round=task.round, board="kadon",
                      rules=cfg.rules, handicap=task.handicap, first=aliens, second=amazons, black=amazons,
                      white=aliens, moves=("E5",), winner=Color.WHITE, termination=CAPTURES, move_seconds=(0.0,),
                      seed=task.seed, started="", finished="", id=task.slot)


def test_auto_levels_go_to_the_amazons_seat_and_climb_while_the_aliens_win() -> None:
    cfg = config("{mode: auto}")
    slots = {slot.id: slot for slot in build_slots(cfg)}
    scheduler = Scheduler(cfg, build_slots(cfg))
    assert isinstance(scheduler.planner, SidePlanner)
    tasks = []
    while (task := scheduler.next_item()) is not None:
        assert isinstance(task, GameTask)
        tasks.append(task)
        scheduler.record(aliens_win(task, cfg))
    assert all(task.seats == slots[task.slot].players for task in tasks)  # no reseating: both seatings pooled
    assert {task.seats for task in tasks} == {(0, 1), (1, 0)}
    assert tasks[0].handicap == 0 and max(task.handicap for task in tasks) == 6
    assert tasks[-1].handicap == 6  # the Amazons keep losing: the top of the axis
    assert scheduler.planner.estimates()[("a", "b")].above_top


def test_a_fixed_level_keeps_the_seats_too() -> None:
    cfg = config("{mode: fixed, level: 2}")
    slots = {slot.id: slot for slot in build_slots(cfg)}
    scheduler = Scheduler(cfg, build_slots(cfg))
    tasks = [scheduler.next_item() for _ in range(4)]
    assert [task.handicap for task in tasks] == [2, 2, 2, 2]
    assert all(task.seats == slots[task.slot].players for task in tasks)


@pytest.mark.parametrize(("handicap", "rules", "message"), [
    ("{mode: auto, max_level: 7}", "", (r"handicap\.max_level: handicap max_level 7 is above the top of "
                                        r"aliens-amazons's ladder under these rules \(5 Amazons a level.*\): level 6")),
    ("{mode: auto, max_level: 6}", "rules: {amazons: 45}\n", r"handicap max_level 6 is above the top .*: level 3"),
    ("{mode: auto}", "rules: {amazons: 60}\n", r"handicap\.mode: aliens-amazons's ladder has no level above 0"),
    ("{mode: fixed, level: 6.5, max_level: 7}", "", r"handicap\.level: handicap level 7 is above the top"),
])
def test_a_ladder_past_the_rules_range_is_refused(handicap: str, rules: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config(handicap, rules)


def test_auto_without_its_own_max_level_stops_at_the_ladders_top() -> None:
    assert config("{mode: auto}", "rules: {amazons: 45}\n").handicap.max_level == 3
    assert config("{mode: auto}").handicap.max_level == 6  # 30 + 5 * 6 = 60: the default fits


def test_a_game_without_a_ladder_is_refused_in_one_line() -> None:
    with pytest.raises(ConfigError, match=r"^<string>: handicap: game 'tetra' has no handicap ladder$|has no handicap "
                                          r"ladder$") as caught:
        config("{mode: auto}", game="tetra")
    assert "\n" not in str(caught.value)
    config("{mode: auto, max_level: 3}", "rules: {amazons: 45}\n")  # within the range: accepted


def test_a_resumed_tournament_picks_the_same_levels_from_its_stored_games_in_any_order() -> None:
    cfg = config("{mode: auto}")

    def outcome(task: GameTask) -> GameRecord:  # the Aliens win, except a draw at every third slot
        played = aliens_win(task, cfg)
        if task.slot % 3 == 0:
            return GameRecord.from_dict({**played.to_dict(), "winner": None, "winner_name": None,
                                         "termination": "adjudicated-draw"})
        return played

    whole = Scheduler(cfg, build_slots(cfg))
    tasks, records = [], []
    while (task := whole.next_item()) is not None:
        tasks.append(task)
        records.append(outcome(task))
        whole.record(records[-1])
    stored = records[:10]
    resumed = Scheduler(cfg, build_slots(cfg), stored=stored[::-1])
    rest = []
    while (task := resumed.next_item()) is not None:
        rest.append(task)
        resumed.record(outcome(task))
    assert rest == tasks[10:] and {task.handicap for task in rest} != {0}
