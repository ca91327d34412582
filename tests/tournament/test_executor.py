"""Tests of what every executor shares: chunk pacing, dealing to the least loaded worker, dead-worker blame."""

from __future__ import annotations

from ytourney.games.variant import Variant
from ytourney.games.registry import get_game
from ytourney.boards.board import parse_board
from ytourney.games.record import Termination
from ytourney.games.y.rules import Rules
from ytourney.players.spec import parse_bot_spec
from ytourney.tournament.executor import (
    CHUNK_SECONDS,
    MAX_CHUNK,
    PREFETCH,
    Pacing,
    WorkQueue,
    dead_worker_outcomes,
    least_loaded,
)
from ytourney.tournament.schedule import GameTask
from ytourney.tournament.worker import PlayerEntry, TournamentContext


def tasks(*slots: int) -> list[GameTask]:
    return [GameTask(slot, 1, (0, 1), 0, slot) for slot in slots]


def test_pacing_sends_short_games_in_chunks_and_long_ones_singly() -> None:
    pacing = Pacing()
    assert (pacing.chunk, pacing.depth, pacing.capacity(2)) == (1, 1, 2)
    pacing.learn(0.01, 10)  # 1 ms games
    assert pacing.chunk == min(MAX_CHUNK, round(CHUNK_SECONDS / 0.001)) and pacing.depth == PREFETCH
    assert pacing.capacity(2) == 2 * pacing.chunk * PREFETCH
    for _ in range(40):
        pacing.learn(3.0, 1)  # the mean moves to 3 s games
    assert (pacing.chunk, pacing.depth, pacing.capacity(3)) == (1, 1, 3)
    pacing.learn(0.0, 0)  # nothing learned from no games
    assert pacing.chunk == 1


def test_work_queue_holds_a_partial_chunk_while_a_full_one_is_out() -> None:
    work = WorkQueue()
    work.waiting += tasks(1, 2, 3, 4, 5)
    assert [[t.slot for t in chunk] for chunk in work.chunks(2)] == [[1, 2], [3, 4]]
    assert [t.slot for t in work.sent] == [1, 2, 3, 4] and [t.slot for t in work.waiting] == [5]
    assert [t.slot for t in work.report(2)] == [1, 2] and list(work.chunks(2)) == []  # 3, 4 still out
    work.report(1)
    assert [[t.slot for t in chunk] for chunk in work.chunks(2)] == [[5]] and work.load == 2
    assert [t.slot for t in work.clear()] == [4, 5] and work.load == 0


class Lane:
    def __init__(self, load: int) -> None:
        self.work = WorkQueue()
        self.work.waiting += tasks(*range(load))


def test_tasks_go_to_the_least_loaded_worker_first_on_a_tie() -> None:
    lanes = [Lane(2), Lane(1), Lane(1)]
    assert least_loaded(lanes) is lanes[1]


def test_a_dead_worker_costs_only_the_game_of_the_seat_that_was_thinking() -> None:
    y = get_game("y")
    context = TournamentContext("t", Variant(y, parse_board("tri:5"), Rules()), None,
                                (PlayerEntry("a", parse_bot_spec("random", y)), PlayerEntry("b", parse_bot_spec("random", y))))
    how = "worker process died (exit code 9)"
    blamed = dead_worker_outcomes(context, tasks(1, 2, 3), 2, 2, how)
    assert [(o.task.slot, o.record is None, o.blameless) for o in blamed] == [(1, True, True), (2, False, False),
                                                                               (3, True, True)]
    record = blamed[1].record
    assert record.loser_name == "b" and record.termination is Termination.CRASH and record.id == 2
    assert record.reason == f"{how} while this bot was thinking" and record.moves == ()
    unknown = dead_worker_outcomes(context, tasks(1, 2), 0, 2, how)
    assert [(o.record, o.failure, o.blameless) for o in unknown] == [(None, how, True), (None, how, False)]
