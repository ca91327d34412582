"""Tests of the run: the worker side, the local executors, storing, resume, worker deaths, faulty bots."""

from __future__ import annotations

import collections
import pickle
import sqlite3
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from ytourney.errors import ConfigMismatchError, RunnerError
from ytourney.games.record import Termination
from ytourney.players import create_bot
from ytourney.tournament.config import parse_config
from ytourney.tournament.match import Seat, play_game
from ytourney.tournament.pool import InProcessExecutor, ProcessExecutor
from ytourney.tournament.run import Runner
from ytourney.tournament.schedule import GameTask, build_slots, sprt_condition
from ytourney.tournament.store import encode_moves, load_info, load_records
from ytourney.tournament.worker import (
    GamePlayer,
    PlayedGame,
    TournamentContext,
    seat_seed,
)
from ytourney.games.y.state import CONNECTION
from ytourney.games.registry import get_game

Y = get_game("y")

REPO = Path(__file__).resolve().parents[2]
FAKE = REPO / "tests" / "fake_engines" / "fake_gtp.py"

PLUGINS = textwrap.dedent("""
    import os, sys
    from ytourney.players import BaseBot

    class First(BaseBot):
        def move(self, state, limit):
            return state.empty_cells()[0]

    class Exits(BaseBot):
        def move(self, state, limit):
            sys.exit(3)

    class Dies(BaseBot):
        def move(self, state, limit):
            os._exit(9)

    class Raises(BaseBot):
        def __init__(self, seed=None):
            raise RuntimeError("no weights")
        def move(self, state, limit):
            return 0
""")


def in_process(context: TournamentContext, workers: int) -> InProcessExecutor:
    return InProcessExecutor(context)


def make(tmp_path: Path, body: str, games: int = 2, extra: str = ""):
    (tmp_path / "plugins.py").write_text(PLUGINS)
    text = f"name: t\nboard: tri:5\nseed: 4\nschedule: {{games_per_pair: {games}}}\n{extra}players:\n" + body
    return parse_config(textwrap.dedent(text), str(tmp_path / "t.yaml"), tmp_path)


RANDOMS = "  - {name: a, bot: random}\n  - {name: b, bot: random}\n  - {name: c, bot: 'random:swap_rate=0'}\n"


def test_in_process_run_stores_every_game_in_slot_order(tmp_path: Path) -> None:
    cfg = make(tmp_path, RANDOMS, games=4)
    summary = Runner(cfg, tmp_path / "out", executor_factory=in_process).run()
    assert summary.planned == summary.stored == summary.played == 12 and summary.complete
    records = load_records(tmp_path / "out")
    assert [r.id for r in records] == list(range(1, 13))
    assert all(r.tournament == "t" and r.termination is CONNECTION for r in records)
    first = collections.Counter(r.first for r in records)
    assert set(first.values()) == {4}


def test_games_do_not_depend_on_worker_count(tmp_path: Path) -> None:
    cfg = make(tmp_path, RANDOMS, games=4)
    Runner(cfg, tmp_path / "one", executor_factory=in_process).run()
    Runner(cfg, tmp_path / "two", workers=2).run()
    one, two = load_records(tmp_path / "one"), load_records(tmp_path / "two")
    assert [(r.id, r.first, r.moves, r.winner) for r in one] == [(r.id, r.first, r.moves, r.winner) for r in two]
    Runner(cfg, tmp_path / "again", executor_factory=in_process).run()
    assert [r.moves for r in load_records(tmp_path / "again")] == [r.moves for r in one]


def test_kept_bots_play_each_game_as_fresh_ones_seeded_from_the_slot(tmp_path: Path) -> None:
    cfg = make(tmp_path, RANDOMS, games=6)
    context = TournamentContext.from_config(cfg)
    tasks = [GameTask(s.id, s.round, s.players, 0, s.seed) for s in build_slots(cfg)]
    player = GamePlayer(context)
    forward = {task.slot: player.play(task).moves for task in tasks}
    assert len(player._kept) == 3  # the random bots were kept and reset for each game
    backward = {task.slot: player.play(task).moves for task in reversed(tasks)}
    replayed = {}
    for task in tasks:  # a game replayed from its record's seed with new bots
        seats = [Seat(context.players[p].name, create_bot(context.players[p].spec, seat_seed(task.seed, seat)))
                 for seat, p in enumerate(task.seats)]
        replayed[task.slot] = play_game(seats, Y, context.board, context.rules, seed=task.seed).moves
    assert forward == backward == replayed
    player.close()
    assert not player._kept


def test_results_travel_with_their_moves_encoded_for_the_store(tmp_path: Path) -> None:
    cfg = make(tmp_path, RANDOMS, games=2)
    context = TournamentContext.from_config(cfg)
    slot = build_slots(cfg)[0]
    record = GamePlayer(context).play(GameTask(slot.id, slot.round, slot.players, 0, slot.seed))
    played = pickle.loads(pickle.dumps(PlayedGame.of(record)))
    assert played.moves == encode_moves(record) and played.moves.count == len(record.moves) > 0
    assert played.record == replace(record, moves=(), move_seconds=())
    odd = replace(record, move_seconds=record.move_seconds[:-1])  # the store refuses it, so it travels whole
    assert PlayedGame.of(odd) == PlayedGame(odd)
    Runner(cfg, tmp_path / "out", workers=2).run()
    stored = {r.id: r for r in load_records(tmp_path / "out")}
    assert stored[slot.id].moves == record.moves and stored[slot.id].move_seconds


def test_rerun_resumes_and_a_finished_run_plays_nothing(tmp_path: Path) -> None:
    cfg = make(tmp_path, RANDOMS, games=2)
    partial = make(tmp_path, RANDOMS, games=2)
    seen = []

    def stop(record):
        seen.append(record.id)
        return len(seen) >= 2

    first = Runner(partial, tmp_path / "out", executor_factory=in_process, stop_condition=stop).run()
    assert first.stored == 2 and first.stopped
    second = Runner(cfg, tmp_path / "out", executor_factory=in_process).run()
    assert second.stored_before == 2 and second.played == 4 and second.stored == 6
    third = Runner(cfg, tmp_path / "out", executor_factory=in_process).run()
    assert third.played == 0 and third.stored == 6
    assert sorted(r.id for r in load_records(tmp_path / "out")) == list(range(1, 7))


def test_other_config_on_same_folder_is_refused(tmp_path: Path) -> None:
    Runner(make(tmp_path, RANDOMS, games=4), tmp_path / "out", executor_factory=in_process).run()
    with pytest.raises(ConfigMismatchError, match=r"differs in: schedule\.games_per_pair, 4 when stored and now 2: "
                                                  r"games per pair may grow, never shrink.*--out"):
        Runner(make(tmp_path, RANDOMS, games=2), tmp_path / "out", executor_factory=in_process).run()
    with pytest.raises(ConfigMismatchError, match=r"differs in: players\[2\]\.bot, schedule\.games_per_pair\);.*--out"):
        Runner(make(tmp_path, RANDOMS.replace("swap_rate=0", "swap_rate=1"), games=8), tmp_path / "out",
               executor_factory=in_process).run()
    assert len(load_records(tmp_path / "out")) == 12
    other_workers = make(tmp_path, RANDOMS, games=4, extra="workers: 7\nfault_limit: 2\n")
    assert Runner(other_workers, tmp_path / "out", executor_factory=in_process).run().complete


def test_plugin_bots_play_and_faulty_ones_lose(tmp_path: Path) -> None:
    body = ("  - {name: first, bot: 'plugins.py:First'}\n  - {name: exits, bot: 'plugins.py:Exits'}\n"
            "  - {name: raises, bot: 'plugins.py:Raises'}\n")
    cfg = make(tmp_path, body, games=2, extra="fault_limit: 0\n")
    Runner(cfg, tmp_path / "out", executor_factory=in_process).run()
    records = load_records(tmp_path / "out")
    assert len(records) == 6
    for record in records:
        if "first" in (record.black, record.white):
            assert record.winner_name == "first"
    exits_vs_raises = [r for r in records if {r.first, r.second} == {"exits", "raises"}]
    assert all(r.winner_name == "exits" for r in exits_vs_raises)  # raises cannot even be created
    raised = next(r for r in records if r.loser_name == "raises")
    assert raised.termination is Termination.CRASH and "could not start" in raised.reason and "no weights" in raised.reason
    exited = next(r for r in records if r.loser_name == "exits")
    assert exited.termination is Termination.CRASH and "SystemExit" in exited.reason


def test_plugin_killing_its_worker_loses_and_the_run_goes_on(tmp_path: Path) -> None:
    body = "  - {name: first, bot: 'plugins.py:First'}\n  - {name: dies, bot: 'plugins.py:Dies'}\n"
    cfg = make(tmp_path, body, games=4, extra="fault_limit: 0\n")
    summary = Runner(cfg, tmp_path / "out", workers=2).run()
    records = load_records(tmp_path / "out")
    assert summary.stored == 4 and len(records) == 4
    assert all(r.winner_name == "first" and r.termination is Termination.CRASH for r in records)
    assert "worker process died (exit code 9) while this bot was thinking" in records[0].reason


def test_crashing_engine_is_suspended_and_the_tournament_finishes(tmp_path: Path) -> None:
    body = (f"  - {{name: crash, gtp: {{command: ['{sys.executable}', '{FAKE}', --fault, die-at-start]}}}}\n"
            + RANDOMS)
    cfg = make(tmp_path, body, games=4, extra="fault_limit: 3\n")
    summary = Runner(cfg, tmp_path / "out", workers=2).run()
    records = load_records(tmp_path / "out")
    assert summary.complete and len(records) == 6 * 4
    crash_games = [r for r in records if "crash" in (r.black, r.white)]
    assert all(r.loser_name == "crash" for r in crash_games)
    faults = [r for r in crash_games if r.termination is Termination.CRASH]
    forfeits = [r for r in crash_games if r.termination is Termination.FORFEIT]
    # games already handed to a worker when the third fault arrives are still played (and lost by crash)
    assert len(faults) >= 3 and len(faults) + len(forfeits) == 12
    assert all("crash was suspended after 3 faults in a row" in r.reason for r in forfeits)
    assert summary.suspended and "crash" in summary.suspended
    with sqlite3.connect(tmp_path / "out" / "tournament.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_suspension_is_exact_with_one_game_at_a_time(tmp_path: Path) -> None:
    body = (f"  - {{name: crash, gtp: {{command: ['{sys.executable}', '{FAKE}', --fault, die-at-start]}}}}\n"
            + RANDOMS)
    cfg = make(tmp_path, body, games=4, extra="fault_limit: 3\n")
    Runner(cfg, tmp_path / "out", executor_factory=in_process).run()
    crash_games = [r for r in load_records(tmp_path / "out") if "crash" in (r.black, r.white)]
    terminations = collections.Counter(r.termination for r in crash_games)
    assert terminations == {Termination.CRASH: 3, Termination.FORFEIT: 9}
    first_forfeit = min(r.id for r in crash_games if r.termination is Termination.FORFEIT)
    assert all(r.termination is Termination.CRASH for r in crash_games if r.id < first_forfeit)
    assert "cannot load weights" in next(r.reason for r in crash_games if r.termination is Termination.CRASH)


def test_game_player_reuses_engines_and_restarts_them_after_a_fault(tmp_path: Path) -> None:
    body = (f"  - {{name: slow, gtp: {{command: ['{sys.executable}', '{FAKE}', --fault, slow, --delay, '0.5']}}}}\n"
            f"  - {{name: ok, gtp: {{command: ['{sys.executable}', '{FAKE}']}}}}\n")
    # the slow engine answers after 0.5 s, past its 0.35 s; the grace leaves the ok one room on a loaded machine
    cfg = make(tmp_path, body, games=2, extra="time: {move_seconds: 0.05, grace_seconds: 0.3}\n")
    player = GamePlayer(TournamentContext.from_config(cfg))
    try:
        slots = build_slots(cfg)
        records = [player.play(GameTask(s.id, s.round, s.players, 0, s.seed)) for s in slots]
        assert all(r.loser_name == "slow" and r.termination is Termination.TIME for r in records)
        ok_bot = player._cache[1]
        assert ok_bot is not None and 0 not in player._cache  # slow was dropped after its fault, ok kept
    finally:
        player.close()
    assert not player._cache


def test_worker_death_without_blame_replays_the_game(tmp_path: Path) -> None:
    cfg = make(tmp_path, RANDOMS, games=2)
    executor = ProcessExecutor(TournamentContext.from_config(cfg), 1)
    try:
        slot = build_slots(cfg)[0]
        task = GameTask(slot.id, slot.round, slot.players, 0, slot.seed)
        executor._workers[0].process.kill()
        executor._workers[0].process.join()
        executor.submit(task)
        outcomes = []
        for _ in range(20):
            outcomes += executor.results(0.5)
            if outcomes:
                break
        assert outcomes[0].record is None and "worker process died" in outcomes[0].failure
        executor.submit(task)
        for _ in range(20):
            outcomes = executor.results(0.5)
            if outcomes:
                break
        assert outcomes[0].record is not None and outcomes[0].record.id == slot.id
    finally:
        executor.shutdown()


def test_sprt_condition_stops_a_match(tmp_path: Path) -> None:
    text = ("name: m\nboard: tri:5\nseed: 1\nschedule: {format: match, games_per_pair: 200, "
            "sprt: {p0: 0.3, p1: 0.4}}\nplayers: [{name: a, bot: random}, {name: b, bot: random}]\n")
    match = parse_config(text)
    stop, state = sprt_condition(match)
    summary = Runner(match, tmp_path / "m", executor_factory=in_process, stop_condition=stop).run()
    assert summary.stopped and summary.stored < 200 and state().finished
    assert summary.complete and summary.skipped == 200 - summary.stored


def test_executor_rejects_zero_workers(tmp_path: Path) -> None:
    with pytest.raises(RunnerError, match="at least 1"):
        ProcessExecutor(TournamentContext.from_config(make(tmp_path, RANDOMS)), 0)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_plain_progress_prints_a_line_every_interval(tmp_path: Path) -> None:
    import io

    from ytourney.tournament.progress import Progress

    cfg = make(tmp_path, RANDOMS, games=2)
    Runner(cfg, tmp_path / "out", executor_factory=in_process).run()
    records = load_records(tmp_path / "out")
    clock, stream = FakeClock(), io.StringIO()
    progress = Progress(stream, live=False, interval=5.0, clock=clock)
    progress.start(10, 4, 2)
    assert stream.getvalue() == ""
    for record in records[:3]:
        clock.now += 1.0
        progress.game(record, lambda: "a 2/3")
    assert stream.getvalue() == ""
    clock.now += 3.0
    progress.game(records[3], lambda: "a 3/4")
    line = stream.getvalue()
    assert line == "ytourney: 8/10 games (80%)  1.5 s/game  ETA 0:03  leader a 3/4\n"  # slow games: s/game
    progress.finish()
    assert stream.getvalue().count("\n") == 2 and "leader a 3/4" in stream.getvalue().splitlines()[-1]


def test_live_progress_redraws_one_line(tmp_path: Path) -> None:
    import io

    from ytourney.tournament.progress import Progress

    cfg = make(tmp_path, RANDOMS, games=2)
    Runner(cfg, tmp_path / "out", executor_factory=in_process).run()
    record = load_records(tmp_path / "out")[0]
    clock, stream = FakeClock(), io.StringIO()
    progress = Progress(stream, live=True, clock=clock)
    progress.start(4, 0, 2)
    clock.now += 1.0
    progress.game(record, lambda: "a 1/1")
    progress.note("b was suspended")
    progress.finish()
    text = stream.getvalue()
    assert text.startswith("\r[") and "\x1b[K" in text and "1/4 games (25%)" in text
    assert "\nytourney: b was suspended\n" in text.replace("\r\x1b[K", "\n") and text.endswith("\n")


def test_a_stopped_match_overshoots_by_at_most_two_games_per_worker(tmp_path: Path) -> None:
    text = ("name: m\nboard: tri:5\nseed: 2\nschedule: {format: match, games_per_pair: 5000, "
            "sprt: {p0: 0.3, p1: 0.4}}\nplayers: [{name: a, bot: random}, {name: b, bot: random}]\n")
    match = parse_config(text)
    stop, state = sprt_condition(match)
    summary = Runner(match, tmp_path / "m", workers=2, stop_condition=stop).run()
    assert state().finished and summary.stopped
    assert state().decided_after <= summary.stored <= state().decided_after + 2 * 2


def test_more_games_per_pair_grow_the_stored_tournament_in_balanced_seats(tmp_path: Path) -> None:
    out = tmp_path / "out"
    Runner(make(tmp_path, RANDOMS, games=2), out, executor_factory=in_process).run()
    before = {r.id: r for r in load_records(out)}
    grown = Runner(make(tmp_path, RANDOMS, games=6), out, executor_factory=in_process).run()
    assert (grown.planned, grown.stored_before, grown.played, grown.stored) == (18, 6, 12, 18)
    records = load_records(out)
    assert [r.id for r in records] == list(range(1, 19))
    assert all(records[i - 1].moves == game.moves and records[i - 1].first == game.first
               for i, game in before.items())  # stored games kept as they were
    for pair in ({"a", "b"}, {"a", "c"}, {"b", "c"}):  # every pair: each player places the first stone 3 times
        firsts = collections.Counter(r.first for r in records if {r.first, r.second} == pair)
        assert sorted(firsts.values()) == [3, 3], (pair, firsts)
    assert load_info(out).planned_games == 18
    # the grown folder is the same as one planned with 6 games from the start
    fresh = tmp_path / "fresh"
    Runner(make(tmp_path, RANDOMS, games=6), fresh, executor_factory=in_process).run()
    assert [(r.id, r.first, r.moves) for r in load_records(fresh)] == [(r.id, r.first, r.moves) for r in records]


def test_an_odd_games_per_pair_grows_only_where_no_stored_game_moves(tmp_path: Path) -> None:
    out = tmp_path / "out"
    Runner(make(tmp_path, RANDOMS, games=3), out, executor_factory=in_process).run()
    with pytest.raises(ConfigMismatchError, match=r"schedule\.games_per_pair, 3 when stored and now 4: the last "
                                                  r"round of an odd count"):
        Runner(make(tmp_path, RANDOMS, games=4), out, executor_factory=in_process).run()
    two = "  - {name: a, bot: random}\n  - {name: b, bot: random}\n"
    match = tmp_path / "match"
    Runner(make(tmp_path, two, games=3), match, executor_factory=in_process).run()
    assert Runner(make(tmp_path, two, games=4), match, executor_factory=in_process).run().stored == 4
