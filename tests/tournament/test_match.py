"""The referee: complete games, records, and every in-process fault turned into a termination."""

from __future__ import annotations

import time

import pytest

from ytourney.errors import EngineProtocolError, YTourneyError
from ytourney.games.y.notation import parse_moves
from ytourney.games.record import Termination
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import GameState
from ytourney.players import BaseBot, Limit, create_bot, parse_bot_spec
from ytourney.players.clock import TimeControl
from ytourney.tournament.match import Seat, play_game
from ytourney.games.y.state import CONNECTION
from ytourney.games.registry import get_game

Y = get_game("y")


class ScriptedBot(BaseBot):
    """Plays a fixed list of cell names, then the first empty cell; swaps when told to."""

    name = "scripted"

    def __init__(self, moves: list[str] = (), swap: bool = False, delay: float = 0.0) -> None:
        super().__init__()
        self.script = list(moves)
        self.wants_swap = swap
        self.delay = delay
        self.limits: list[Limit] = []

    def move(self, state: GameState, limit: Limit) -> int:
        self.limits.append(limit)
        time.sleep(self.delay)
        while self.script:
            cell = state.board.index_of(self.script.pop(0))
            if state.is_legal(cell):
                return cell
        return state.empty_cells()[0]

    def swap(self, state: GameState, limit: Limit) -> bool:
        return self.wants_swap


class FaultyBot(BaseBot):
    """Misbehaves in a chosen way on its first move."""

    def __init__(self, fault: str) -> None:
        super().__init__()
        self.fault = fault

    def move(self, state: GameState, limit: Limit) -> int:
        if self.fault == "raise":
            raise RuntimeError("boom")
        if self.fault == "occupied":
            return next(i for i, c in enumerate(state.cells) if c) if state.num_stones else 0
        if self.fault == "string":
            return "zz99"  # type: ignore[return-value]
        if self.fault == "outside":
            return 10_000
        if self.fault == "protocol":
            raise EngineProtocolError("answered 'banana' to genmove")
        if self.fault == "slow":
            time.sleep(0.3)
            return state.empty_cells()[0]
        raise AssertionError(self.fault)


def random_seat(name: str, seed: int) -> Seat:
    return Seat(name, create_bot(parse_bot_spec("random:swap_rate=0", get_game("y")), seed))


@pytest.mark.parametrize("spec", ["tri:2", "tri:5", "tri:11", "kadon"])
def test_random_games_finish_by_connection(spec: str) -> None:
    for seed in range(5):
        record = play_game([random_seat("a", seed), random_seat("b", seed + 100)], Y, spec, seed=seed)
        assert record.termination is CONNECTION
        assert record.first == "a" and record.second == "b"
        assert record.winner in (Color.BLACK, Color.WHITE)
        assert len(record.moves) == len(record.move_seconds)
        state = GameState(spec, Rules())
        for move in parse_moves(state.board, record.moves):
            state.play(move)
        assert state.is_over and state.winner == record.winner


def test_swap_is_recorded_and_colours_follow() -> None:
    first = ScriptedBot(["c3", "a1", "b1"])
    second = ScriptedBot(["e1", "d1"], swap=True)
    record = play_game([Seat("first", first), Seat("second", second)], Y, "tri:5", seed=1)
    assert record.moves[:2] == ("c3", "swap")
    assert record.black == "second" and record.white == "first"
    assert record.first == "first"
    assert record.swapped


def test_handicap_game_gives_black_k_stones() -> None:
    record = play_game([random_seat("weak", 1), random_seat("strong", 2)], Y, "tri:9", handicap=3, seed=1)
    state = GameState("tri:9", Rules(), 3)
    moves = parse_moves(state.board, record.moves)
    for move in moves[:3]:
        assert state.to_move is Color.BLACK
        state.play(move)
    assert state.to_move is Color.WHITE
    assert record.black == "weak" and "swap" not in record.moves and record.handicap == 3


@pytest.mark.parametrize(
    ("fault", "termination", "reason"),
    [
        ("raise", Termination.CRASH, "RuntimeError: boom"),
        ("occupied", Termination.ILLEGAL, "is already occupied"),
        ("string", Termination.ILLEGAL, "unknown cell 'zz99'"),
        ("outside", Termination.ILLEGAL, "outside the board"),
        ("protocol", Termination.PROTOCOL, "banana"),
    ],
)
def test_faults_lose_the_game_with_a_reason(fault: str, termination: Termination, reason: str) -> None:
    record = play_game([random_seat("good", 3), Seat("bad", FaultyBot(fault))], Y, "tri:7", Rules(pie=False))
    assert record.termination is termination
    assert reason in record.reason
    assert record.winner_name == "good" and record.loser_name == "bad"


def test_slow_bot_loses_on_time() -> None:
    clock = TimeControl(move_seconds=0.05, grace_seconds=0.05)
    record = play_game([Seat("slow", FaultyBot("slow")), random_seat("fast", 1)], Y, "tri:5", time_control=clock)
    assert record.termination is Termination.TIME
    assert record.winner_name == "fast" and record.winner is Color.WHITE


def test_game_clock_counts_down_and_is_passed_to_bots() -> None:
    slow = ScriptedBot(delay=0.03)
    clock = TimeControl(game_seconds=0.1, increment=0.0, grace_seconds=0.0)
    record = play_game([Seat("slow", slow), random_seat("fast", 1)], Y, "tri:9", Rules(pie=False), time_control=clock)
    assert record.termination is Termination.TIME and record.loser_name == "slow"
    remaining = [limit.remaining for limit in slow.limits]
    assert remaining[0] == pytest.approx(0.1)
    assert all(a > b for a, b in zip(remaining, remaining[1:]))


def test_new_game_failure_is_a_crash() -> None:
    class Broken(ScriptedBot):
        def new_game(self, board, rules, color):
            raise OSError("cannot start")

    record = play_game([random_seat("ok", 1), Seat("broken", Broken())], Y, "tri:5")
    assert record.termination is Termination.CRASH and record.loser_name == "broken"
    assert record.moves == ()


def test_opening_is_played_before_the_bots() -> None:
    board_moves = [0, 5]
    record = play_game([random_seat("a", 1), random_seat("b", 2)], Y, "tri:6", Rules(pie=False), opening=board_moves)
    assert record.moves[:2] == ("a1", "f1") and record.opening_plies == 2


def test_bots_cannot_corrupt_the_referee_state() -> None:
    class Vandal(ScriptedBot):
        def move(self, state, limit):
            cell = super().move(state, limit)
            state.cells[:] = [1] * len(state.cells)
            return cell

    record = play_game([Seat("vandal", Vandal()), random_seat("b", 2)], Y, "tri:6", Rules(pie=False))
    assert record.termination is CONNECTION


def test_seat_count_is_checked() -> None:
    with pytest.raises(YTourneyError, match="exactly 2 seats"):
        play_game([random_seat("a", 1)], Y, "tri:5")
