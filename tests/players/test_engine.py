"""External GTP engines: settings, dialects, the client against in-memory and real engines, faults and cleanup."""

from __future__ import annotations

import os
import pickle
import random
import re
import stat
import sys
import time
from collections import deque
from pathlib import Path

import pytest

from ytourney.errors import (
    ConfigError,
    EngineCrashError,
    EngineProtocolError,
    EngineTimeoutError,
)
from ytourney.boards.board import parse_board
from ytourney.games.y.notation import SWAP, parse_moves
from ytourney.games.record import Termination
from ytourney.games.api import Color, Move, MoveKind
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import GameState
from ytourney.players import BaseBot, Limit, create_bot, parse_bot_spec
from ytourney.players.bots.random_bot import RandomBot
from ytourney.players.clock import TimeControl
from ytourney.players.gtp.client import GtpClient
from ytourney.games.dialect import side_distances
from ytourney.players.gtp.dialect import decide_pie
from ytourney.players.gtp.engine import GtpBot
from ytourney.players.gtp.server import GtpServer
from ytourney.players.gtp.settings import GtpSettings, check_board, check_engine
from ytourney.players.spec import BotKind, BotSpec
from ytourney.games.registry import get_game
from ytourney.tournament.match import Seat
from ytourney.tournament.match import play_game as play_any_game

Y = get_game("y")


def play_game(seats, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN201 - the referee, seated for Y
    return play_any_game(seats, Y, *args, **kwargs)
from ytourney.games.y.state import CONNECTION

ROOT = Path(__file__).resolve().parents[2]
FAKE = str(ROOT / "tests" / "fake_engines" / "fake_gtp.py")
STANDALONE = str(ROOT / "bots" / "standalone_gtp_bot.py")
SERVE = "import sys; from ytourney.cli import main; sys.exit(main())"
FAST = TimeControl(move_seconds=0.2, grace_seconds=0.2)


def fake(*args: str, **settings: object) -> GtpSettings:
    """Settings for the fake engine with small deadlines."""
    values = {"grace_seconds": 0.2, "command_seconds": 1.0, "startup_seconds": 5.0, **settings}
    return GtpSettings(command=(sys.executable, FAKE, *args), **values, game=get_game("y"))  # type: ignore[arg-type]


def replay(record) -> GameState:
    """The final position of a record, checked move by move by the rules."""
    board = parse_board(record.board)
    state = GameState(board, record.rules, record.handicap)
    for move in parse_moves(board, record.moves):
        state.play(move)
    return state


def gone(pid: int) -> bool:
    """True when no live process has this pid (an exited, unreaped grandchild of init counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True


def wait_gone(pid: int, seconds: float = 3.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if gone(pid):
            return True
        time.sleep(0.02)
    return gone(pid)


# --- settings ------------------------------------------------------------------------------------------------------


def test_settings_pickle_and_name_the_engine_sensibly() -> None:
    settings = GtpSettings(command=("engine", "--threads", "2"), name="ext", env=(("OMP_NUM_THREADS", "1"),), game=get_game("y"))
    assert settings.environment is not None and settings.environment["OMP_NUM_THREADS"] == "1"
    assert GtpSettings(command=("e",), game=get_game("y")).environment is None
    assert pickle.loads(pickle.dumps(settings)) == settings and settings.display_name == "ext"
    names = {
        ("python3", "bots/x.py"): "x.py",
        ("python3", "-u", "bots/x.py"): "x.py",
        ("python", "-m", "leela_y", "--gtp"): "leela_y",
        ("/opt/engines/katay", "--gtp"): "katay",
        ("my-engine", "--name", "two words"): "my-engine",
    }
    for command, name in names.items():
        assert GtpSettings(command=command, game=get_game("y")).display_name == name


def test_check_engine_finds_programs_without_starting_them(tmp_path: Path) -> None:
    check_engine(GtpSettings(command=(Path(sys.executable).name, "x"), game=get_game("y")))
    check_engine(GtpSettings(command=(sys.executable,), game=get_game("y")))
    script = tmp_path / "engine.sh"
    script.write_text("#!/bin/sh\n")
    with pytest.raises(ConfigError, match="is not executable; run 'chmod \\+x"):
        check_engine(GtpSettings(command=(str(script),), game=get_game("y")))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    check_engine(GtpSettings(command=(str(script),), game=get_game("y")))
    check_engine(GtpSettings(command=("./engine.sh",), cwd=str(tmp_path), game=get_game("y")))
    with pytest.raises(ConfigError, match="does not exist"):
        check_engine(GtpSettings(command=(str(tmp_path / "missing"),), game=get_game("y")))
    with pytest.raises(ConfigError, match="is a directory"):
        check_engine(GtpSettings(command=(str(tmp_path) + "/",), game=get_game("y")))
    with pytest.raises(ConfigError, match="'no-such-engine-xyz' is not found on PATH"):
        check_engine(GtpSettings(command=("no-such-engine-xyz",), game=get_game("y")))
    with pytest.raises(ConfigError, match="working directory"):
        check_engine(GtpSettings(command=("sh",), cwd=str(tmp_path / "nowhere"), game=get_game("y")))
    with pytest.raises(ConfigError, match="cannot play board 'kadon'"):
        check_engine(GtpSettings(command=("sh",), game=get_game("y")), parse_board("kadon"))


# --- dialects ------------------------------------------------------------------------------------------------------


def test_kadon_needs_a_boardsize_argument_and_normal_rows() -> None:
    kadon = parse_board("kadon")
    with pytest.raises(ConfigError, match="cannot play board 'kadon'.*kadon_boardsize"):
        check_board(GtpSettings(command=("e",), game=get_game("y")), kadon)
    with pytest.raises(ConfigError, match="tri boards only"):
        check_board(GtpSettings(command=("e",), kadon_boardsize="kadon", rows="flipped", game=get_game("y")), kadon)
    check_board(GtpSettings(command=("e",), kadon_boardsize="kadon", game=get_game("y")), kadon)
    check_board(GtpSettings(command=("e",), game=get_game("y")), parse_board("tri:9"))


def test_pie_policies() -> None:
    board = parse_board("tri:11")
    rng = random.Random(1)
    center, edge = GameState(board), GameState(board)
    center.play(board.index_of("d4"))
    edge.play(board.index_of("f1"))
    assert side_distances(board)[board.index_of("d4")] == 3 and max(side_distances(board)) == 3
    assert decide_pie("center", center, rng) and not decide_pie("center", edge, rng)
    assert decide_pie("always", edge, rng) and not decide_pie("never", center, rng)
    answers = {decide_pie("random", center, rng) for _ in range(40)}
    assert answers == {True, False}


# --- in-memory transport -------------------------------------------------------------------------------------------


class MemoryTransport:
    """A transport to an in-process engine object with `handle(line) -> framed response | None`."""

    pid = None

    def __init__(self, engine: object) -> None:
        self.engine = engine
        self.sent: list[str] = []
        self.lines: deque[str] = deque()
        self.closed = False

    def send(self, line: str) -> None:
        if self.closed:
            raise EngineCrashError("closed")
        self.sent.append(line)
        response = self.engine.handle(line)  # type: ignore[attr-defined]
        if response is not None:
            self.lines.extend(response.split("\n")[:-1])

    def receive(self, timeout: float) -> str | None:
        if self.lines:
            return self.lines.popleft()
        if getattr(self.engine, "finished", False) or self.closed:
            return None
        time.sleep(max(0.0, timeout))
        raise TimeoutError

    def exit_code(self) -> int | None:
        return 0 if self.closed else None

    def stderr_tail(self) -> list[str]:
        return ["last words"]

    def close(self, wait: float) -> None:
        self.closed = True


class Canned:
    """An engine that answers from a fixed list of raw outputs, one per command."""

    def __init__(self, *outputs: str) -> None:
        self.outputs = list(outputs)

    def handle(self, line: str) -> str | None:
        return self.outputs.pop(0) if self.outputs else None


def served(bot: object, **settings: object) -> tuple[GtpBot, list[MemoryTransport]]:
    """A GtpBot talking to our GtpServer around `bot` in memory; also returns the transports it opened."""
    opened: list[MemoryTransport] = []

    def factory(_: GtpSettings) -> MemoryTransport:
        opened.append(MemoryTransport(GtpServer(bot, game=get_game("y"))))
        return opened[-1]

    return GtpBot(GtpSettings(command=("memory",), **settings, game=get_game("y")), transport_factory=factory), opened  # type: ignore[arg-type]


def test_client_reads_ids_multiline_answers_and_failures() -> None:
    client = GtpClient(MemoryTransport(Canned("=1 a\nb\n\n", "?2 nope\n\n", "\n\n=\n\n")), "engine 'x'")
    assert client.command("1 list_commands", 1.0).text == "a\nb"
    response = client.command("2 play b z9", 1.0)
    assert not response.ok and response.text == "nope"
    assert client.command("clear_board", 1.0).ok


@pytest.mark.parametrize(
    ("outputs", "error", "message"),
    [
        (("hello\n\n",), EngineProtocolError, "answered 'genmove b' with 'hello', which is not a GTP response"),
        (("= a1\n",), EngineProtocolError, "never ended the response with an empty line"),
        ((), EngineTimeoutError, "gave no answer to 'genmove b' within 0.05s"),
    ],
)
def test_client_faults(outputs: tuple[str, ...], error: type, message: str) -> None:
    client = GtpClient(MemoryTransport(Canned(*outputs)), "engine 'x'")
    with pytest.raises(error, match=message):
        client.command("genmove b", 0.05)


def test_client_reports_unsolicited_output_and_death() -> None:
    transport = MemoryTransport(Canned("= a1\n\n= b1\n\n"))
    client = GtpClient(transport, "engine 'x'")
    client.command("genmove b", 1.0)
    with pytest.raises(EngineProtocolError, match="wrote '= b1' without being asked"):
        client.command("play w c1", 1.0)
    transport.close(0)
    with pytest.raises(EngineCrashError, match="exited with code 0 between commands; stderr: last words"):
        client.command("name", 1.0)


def test_sync_sends_only_the_moves_the_engine_has_not_seen() -> None:
    bot, opened = served(RandomBot(seed=3))
    board = parse_board("tri:6")
    bot.new_game(board, Rules(pie=False), Color.WHITE)
    state = GameState(board, Rules(pie=False))
    state.play(board.index_of("c2"))
    state.play(bot.move(state, Limit()))
    state.play(board.index_of("a1"))
    answer = bot.move(state, Limit())
    assert isinstance(answer, Move) and answer.kind is MoveKind.PLACE and state.is_legal(answer)  # a Move of the API
    state.play(answer)
    sent = opened[0].sent
    assert [line for line in sent if line.startswith(("play", "genmove"))] == [
        "play b c2", "genmove w", "play b a1", "genmove w"
    ]
    assert sent[sent.index("clear_board") + 1] == "ytourney-rules pie=off misere=off genmove_swap=off"
    # A history that diverges from what the engine saw is replayed from an empty board.
    other = GameState(board, Rules(pie=False))
    other.play(board.index_of("d1"))
    opened[0].sent.clear()
    bot.move(other, Limit())
    assert opened[0].sent[:3] == ["clear_board", "ytourney-rules pie=off misere=off genmove_swap=off", "play b d1"]
    bot.close()
    assert opened[0].closed and opened[0].sent[-1] == "quit"


def test_handicap_turn_asks_several_genmoves_for_black() -> None:
    bot, opened = served(RandomBot(seed=5))
    record = play_game([Seat("gtp", bot), Seat("random", RandomBot(seed=6))], "tri:7", handicap=3, seed=1)
    genmoves = [line for line in opened[0].sent if line.startswith("genmove")]
    assert genmoves[:4] == ["genmove b", "genmove b", "genmove b", "genmove b"]
    assert record.termination is CONNECTION
    replay(record)
    bot.close()


class DialectEngine:
    """An engine living in its own dialect: its own colour names, its own row numbering and swap habits.

    It keeps its own game in its own coordinates and checks every command against it, so a wrong translation
    shows up as a refused command, and its own idea of the winner must match the referee's.
    """

    def __init__(self, first_color: str, swap: str, seed: int, rows: str) -> None:
        self.rows = rows
        self.first_word = "w" if first_color == "white" else "b"
        self.second_word = "b" if first_color == "white" else "w"
        self.swap = swap
        self.rng = random.Random(seed)
        self.state = GameState("tri:9", Rules(pie=True))
        self.swaps_heard = 0
        self.finished = False

    def word(self, color: Color) -> str:
        return self.first_word if color is Color.BLACK else self.second_word

    def name(self, cell: int) -> str:
        """Its own name of a cell: rows counted from the long edge (normal) or from the top corner (flipped)."""
        board = self.state.board
        x, y = board.coords[cell]
        return f"{chr(ord('a') + x)}{board.size - y if self.rows == 'flipped' else y + 1}"

    def cell(self, name: str) -> int | None:
        return next((cell for cell in range(self.state.board.num_cells) if self.name(cell) == name), None)

    def handle(self, line: str) -> str:
        words = line.split()
        command, args = words[0], words[1:]
        if command == "known_command" or command in ("name", "version"):
            return "= false\n\n" if command == "known_command" else "= dialect\n\n"
        if command == "boardsize":
            self.state = GameState(f"tri:{args[0]}", Rules(pie=True))
            return "=\n\n"
        if command == "clear_board":
            self.state = GameState(self.state.board, Rules(pie=True))
            return "=\n\n"
        if command == "quit":
            self.finished = True
            return "=\n\n"
        if args[0] != self.word(self.state.to_move):
            return f"? {args[0]} is not to move\n\n"
        if command == "play":
            if args[1] == "swap":
                if self.swap == "none":
                    return "? unknown move swap\n\n"
                self.swaps_heard += 1
                self.state.play(SWAP)
                return "=\n\n"
            cell = self.cell(args[1])
            if cell is None or not self.state.is_legal(cell):
                return f"? illegal move {args[1]}\n\n"
            self.state.play(cell)
            return "=\n\n"
        if command == "genmove":
            if self.swap == "genmove" and self.state.can_swap():
                self.state.play(SWAP)
                return "= swap\n\n"
            cell = self.rng.choice(self.state.empty_cells())
            self.state.play(cell)
            return f"= {self.name(cell)}\n\n"
        return "? unknown command\n\n"


@pytest.mark.parametrize("first_color", ["black", "white"])
@pytest.mark.parametrize("rows", ["normal", "flipped"])
@pytest.mark.parametrize("swap", ["none", "genmove", "play"])
def test_dialects_round_trip_through_whole_games(first_color: str, rows: str, swap: str) -> None:
    for seed, engine_seat in ((1, 0), (2, 1)):
        engine = DialectEngine(first_color, swap, seed, rows)
        settings = GtpSettings(command=("memory",), first_color=first_color, rows=rows, swap=swap,
                               pie_policy="always", game=get_game("y"))
        bot = GtpBot(settings, transport_factory=lambda _, e=engine: MemoryTransport(e))
        seats = [Seat("other", RandomBot(seed=seed, swap_rate=1.0)), Seat("gtp", bot)]
        if engine_seat == 0:
            seats.reverse()
        record = play_game(seats, "tri:9", Rules(pie=True), seed=seed)
        assert record.termination is CONNECTION, record.reason
        assert record.moves[1] == "swap"  # both sides swap whenever offered in this test
        final = replay(record)
        # The engine saw the same game in its own words: the same stones in order (it never hears the winning move
        # of its opponent, so we hand it over), and its own rules find the same winner.
        ours = [m for m in final.moves if m != SWAP]
        theirs = [m for m in engine.state.moves if m != SWAP]
        assert theirs == ours[: len(theirs)] and len(ours) - len(theirs) in (0, 1)
        if len(theirs) < len(ours):
            engine.state.play(ours[-1])
        assert engine.state.winner is final.winner
        # The engine hears of a swap in the `play` dialect, and in the `genmove` one when it did not decide it.
        assert engine.swaps_heard == (1 if swap == "play" or (swap == "genmove" and engine_seat == 0) else 0)
        bot.close()


def test_swap_genmove_engine_decides_the_pie_and_keeps_its_move_for_later() -> None:
    class Swapper(BaseBot):
        name = "swapper"

        def __init__(self, answer: bool) -> None:
            super().__init__()
            self.answer = answer

        def move(self, state: GameState, limit: Limit) -> int:
            return state.empty_cells()[0]

        def swap(self, state: GameState, limit: Limit) -> bool:
            return self.answer

    for answer in (True, False):
        bot, opened = served(Swapper(answer), swap="genmove")
        record = play_game([Seat("first", RandomBot(seed=1)), Seat("gtp", bot)], "tri:5", seed=1)
        assert (record.moves[1] == "swap") is answer
        assert sum(line.startswith("genmove") for line in opened[0].sent[:12]) >= 1
        replay(record)
        bot.close()


def test_pie_policy_decides_for_a_served_bot_that_would_swap() -> None:
    bot, opened = served(RandomBot(seed=1, swap_rate=1.0), pie_policy="never")  # swap: none
    for seed in (1, 2, 3):
        record = play_game([Seat("random", RandomBot(seed=seed)), Seat("gtp", bot)], "tri:5", seed=seed)
        assert record.termination is CONNECTION and record.moves[1] != "swap"
    bot.close()


def test_time_commands_follow_the_game_clock() -> None:
    bot, opened = served(RandomBot(seed=2))
    clock = TimeControl(game_seconds=30, increment=2)
    play_game([Seat("gtp", bot), Seat("random", RandomBot(seed=3))], "tri:5", Rules(pie=False), time_control=clock)
    sent = opened[0].sent
    assert "kgs-time_settings fischer 30 2" in sent
    assert any(line.startswith("time_left b 3") for line in sent)  # 30 s, minus next to nothing
    bot.close()
    bot, opened = served(RandomBot(seed=2))
    play_game([Seat("random", RandomBot(seed=3)), Seat("gtp", bot)], "tri:5", Rules(pie=False), time_control=FAST)
    assert "time_settings 0 1 1" in opened[0].sent and "time_left w 1 1" in opened[0].sent
    bot.close()


def test_kadon_game_with_a_boardsize_argument() -> None:
    bot, opened = served(RandomBot(seed=4), kadon_boardsize="kadon")
    record = play_game([Seat("gtp", bot), Seat("random", RandomBot(seed=5))], "kadon", seed=3)
    assert record.termination is CONNECTION
    assert "boardsize kadon" in opened[0].sent
    bot.close()
    refusing, opened = served(RandomBot(seed=4))
    record = play_game([Seat("gtp", refusing), Seat("random", RandomBot(seed=5))], "kadon", seed=3)
    assert record.termination is Termination.CRASH and "cannot play board 'kadon'" in record.reason
    assert not opened  # refused before any engine was started


# --- real subprocesses ---------------------------------------------------------------------------------------------


def test_full_game_against_ytourney_gtp_random_subprocess() -> None:
    settings = GtpSettings(command=(sys.executable, "-c", SERVE, "gtp", "random", "--seed", "4"), swap="genmove",
                           name="served-random", game=get_game("y"))
    bot = GtpBot(settings)
    try:
        for seed in (1, 2):
            record = play_game([Seat("gtp", bot), Seat("random", RandomBot(seed=seed))], "tri:7", seed=seed)
            assert record.termination is CONNECTION, record.reason
            replay(record)
        assert bot.engine_name == "ytourney-random" and bot.restarts == 0
    finally:
        bot.close()


def test_full_game_against_ytourney_gtp_mcts_subprocess() -> None:
    settings = GtpSettings(command=(sys.executable, "-c", SERVE, "gtp", "mcts:playouts=200", "--seed", "1"),
                           swap="genmove", game=get_game("y"))
    bot = GtpBot(settings)
    try:
        record = play_game([Seat("random", RandomBot(seed=1)), Seat("gtp-mcts", bot)], "tri:6", seed=1,
                           time_control=TimeControl(move_seconds=1.0, grace_seconds=2.0))
        assert record.termination is CONNECTION, record.reason
        replay(record)
    finally:
        bot.close()


def test_full_game_against_the_standalone_bot() -> None:
    bot = GtpBot(GtpSettings(command=(sys.executable, STANDALONE, "--seed", "1", "--swap"), swap="genmove", game=get_game("y")))
    try:
        for seats in ([Seat("standalone", bot), Seat("random", RandomBot(seed=1))],
                      [Seat("random", RandomBot(seed=2)), Seat("standalone", bot)]):
            record = play_game(seats, "tri:9", seed=1, time_control=FAST)
            assert record.termination is CONNECTION, record.reason
            assert record.winner_name == "standalone"  # its heuristic beats random play
            replay(record)
    finally:
        bot.close()


def test_gtp_bot_spec_goes_through_create_bot() -> None:
    spec = BotSpec(BotKind.GTP, "ext", gtp=fake(), game=get_game("y"))
    bot = create_bot(spec, seed=1)
    try:
        record = play_game([Seat("ext", bot), Seat("random", RandomBot(seed=1))], "tri:4", seed=1)
        assert record.termination is CONNECTION
    finally:
        bot.close()
    assert isinstance(create_bot(parse_bot_spec("random", get_game("y"))), RandomBot)


# Fake engine fault -> termination and a pattern of the recorded reason (after "engine 'fake_gtp.py' ").
FAULTS = [
    ("die", Termination.CRASH, "exited with code 1 while answering 'genmove w'; stderr: segmentation fault"),
    ("hang", Termination.TIME, "gave no answer to 'genmove w' within 0.40s"),
    ("slow", Termination.TIME, "gave no answer to 'genmove w' within 0.40s"),
    ("garbage", Termination.PROTOCOL, r"answered 'genmove w' with 'I am thinking\.\.\.', which is not a GTP response"),
    ("not-a-cell", Termination.PROTOCOL, "answered 'genmove w' with 'hello world', which is not a cell"),
    ("no-blank", Termination.PROTOCOL, "began answering 'genmove w' but never ended the response with an empty line"),
    ("unsolicited", Termination.PROTOCOL, "wrote '= b1' without being asked"),
    ("refuse-genmove", Termination.PROTOCOL, r"refused 'genmove w': \? not now"),
    ("refuse-play", Termination.PROTOCOL, r"refused 'play b [a-e][1-5]': \? illegal move"),
    ("off-board", Termination.ILLEGAL, "answered 'f6' to 'genmove w': 'f6' is not a cell of board 'tri:5'"),
    ("occupied", Termination.ILLEGAL, "answered '[a-e][1-5]' to 'genmove w', a cell that is already occupied"),
    ("bad-swap", Termination.ILLEGAL, "answered 'swap' to 'genmove w' where the rules allow no swap"),
    ("pass", Termination.ILLEGAL, "answered 'pass' to 'genmove w'; Y has no passing"),
    ("resign", Termination.FORFEIT, "resigned"),
    ("wrong-color", Termination.PROTOCOL, "answered 'genmove w' with 'white [a-e][1-5]', which is not a cell"),
    ("empty", Termination.PROTOCOL, "answered 'genmove w' with nothing: an empty '=' names no move"),
]


@pytest.mark.parametrize(("fault", "termination", "reason"), FAULTS, ids=[f[0] for f in FAULTS])
def test_faults_lose_the_game_and_the_next_game_works(
    tmp_path: Path, fault: str, termination: Termination, reason: str
) -> None:
    settings = fake("--fault", fault, "--after", "2", "--delay", "0.6", "--once", str(tmp_path / "faulted"))
    bot = GtpBot(settings)
    try:
        opener = RandomBot(seed=1)
        first = play_game([Seat("random", opener), Seat("engine", bot)], "tri:5", time_control=FAST)
        assert first.termination is termination
        assert first.winner_name == "random"
        assert re.fullmatch(f"engine 'fake_gtp.py' {reason}.*", first.reason), first.reason
        second = play_game([Seat("random", RandomBot(seed=2)), Seat("engine", bot)], "tri:5", time_control=FAST)
        assert second.termination is CONNECTION, second.reason
        replay(second)
        expected_restarts = 1 if termination in (Termination.CRASH, Termination.TIME, Termination.PROTOCOL) else 0
        assert bot.restarts == expected_restarts
    finally:
        bot.close()


def test_engine_that_dies_at_start_loses_by_crash_every_time() -> None:
    bot = GtpBot(fake("--fault", "die-at-start"))
    for seed in (1, 2):
        record = play_game([Seat("engine", bot), Seat("random", RandomBot(seed=seed))], "tri:5", time_control=FAST)
        assert record.termination is Termination.CRASH and record.winner_name == "random"
        assert "exited with code 3 while answering 'name'; stderr: fatal: cannot load weights" in record.reason
        assert record.moves == ()
    bot.close()


def test_engine_told_the_wrong_colour_names_refuses_and_loses_by_protocol() -> None:
    strict = fake("--strict-colors", first_color="white")  # the engine really calls the first mover black
    bot = GtpBot(strict)
    record = play_game([Seat("engine", bot), Seat("random", RandomBot(seed=1))], "tri:5", time_control=FAST)
    assert record.termination is Termination.PROTOCOL
    assert record.reason == "engine 'fake_gtp.py' refused 'genmove w': ? wrong colour: black is to move"
    bot.close()
    bot = GtpBot(fake("--strict-colors"))
    for seats in ([Seat("engine", bot), Seat("random", RandomBot(seed=1))],
                  [Seat("random", RandomBot(seed=2, swap_rate=1.0)), Seat("engine", bot)]):
        assert play_game(seats, "tri:5", time_control=FAST).termination is CONNECTION
    bot.close()


def test_engine_that_cannot_start_loses_by_crash() -> None:
    bot = GtpBot(GtpSettings(command=("/nonexistent/engine",), game=get_game("y")))
    record = play_game([Seat("engine", bot), Seat("random", RandomBot(seed=1))], "tri:5")
    assert record.termination is Termination.CRASH
    assert "could not start '/nonexistent/engine'" in record.reason
    bot.close()


def test_hanging_engine_costs_about_the_move_time_plus_grace() -> None:
    for fault in ("hang", "hang-hard"):
        bot = GtpBot(fake("--fault", fault))
        # started before the clock: the bound is on the move and its teardown, not on starting Python, which took
        # up to 0.3 s of the 0.4 s margin on a loaded 2-core machine
        bot.new_game(parse_board("tri:5"), Rules(), Color.BLACK)
        begin = time.monotonic()
        record = play_game([Seat("engine", bot), Seat("random", RandomBot(seed=1))], "tri:5", time_control=FAST)
        elapsed = time.monotonic() - begin
        assert record.termination is Termination.TIME
        # 0.2 s move + 0.2 s grace; a TERM-deaf engine adds the short wait before KILL.
        assert elapsed < 0.4 + (0.9 if fault == "hang-hard" else 0.4), elapsed
        bot.close()


def test_slow_answer_beyond_the_referees_allowance_loses_on_time() -> None:
    bot = GtpBot(fake("--fault", "slow", "--delay", "0.5", grace_seconds=2.0))
    record = play_game([Seat("engine", bot), Seat("random", RandomBot(seed=1))], "tri:5", time_control=FAST)
    assert record.termination is Termination.TIME and "took 0.5" in record.reason
    bot.close()


def test_close_ends_the_whole_process_group(tmp_path: Path) -> None:
    for fault in ("none", "hang-hard"):
        pidfile = tmp_path / f"child-{fault}"
        bot = GtpBot(fake("--spawn-child", str(pidfile), "--fault", fault))
        board = parse_board("tri:5")
        bot.new_game(board, Rules(), Color.BLACK)
        leader = bot._client.transport.pid  # the engine process the bot started
        child = int(pidfile.read_text())
        assert leader is not None and not gone(leader) and not gone(child)
        if fault == "hang-hard":
            with pytest.raises(EngineTimeoutError):
                bot.move(GameState(board), Limit(seconds=0.1))
        bot.close()
        assert gone(leader)  # our own child is reaped, not a zombie
        with pytest.raises(ProcessLookupError):
            os.kill(leader, 0)
        assert wait_gone(child)


def test_setup_commands_and_time_commands_reach_a_real_engine(tmp_path: Path) -> None:
    log = tmp_path / "log"
    bot = GtpBot(fake("--log", str(log), "--time-commands", setup=("set strength 3",)))
    try:
        record = play_game([Seat("engine", bot), Seat("random", RandomBot(seed=1))], "tri:4", Rules(pie=False),
                           time_control=FAST)
        assert record.termination is CONNECTION
    finally:
        bot.close()
    lines = log.read_text().splitlines()
    assert lines.index("set strength 3") < lines.index("boardsize 4") < lines.index("clear_board")
    assert "time_settings 0 1 1" in lines and lines[-1] == "quit"


@pytest.mark.parametrize("fault", ["resign", "occupied", "pass", "empty", "binary", "garbage", "not-a-cell",
                                   "refuse-genmove", "die", "unsolicited", "no-blank"])
def test_the_swap_style_hint_comes_only_with_the_faults_a_swap_style_causes(fault: str) -> None:
    """Right after a swap, a resignation or an occupied cell points at gtp.swap_style; nothing else does."""
    bot = GtpBot(fake("--fault", fault, "--after", "2", swap="play"))
    try:
        record = play_game([Seat("engine", bot), Seat("random", RandomBot(seed=1, swap_rate=1.0))], "tri:5",
                           time_control=FAST)
    finally:
        bot.close()
    assert record.moves[1] == "swap" and record.loser_name == "engine", record.reason
    assert ("check gtp.swap_style" in record.reason) is (fault in ("resign", "occupied")), record.reason


def test_an_engine_is_named_after_its_player_not_its_file() -> None:
    from ytourney.tournament.config import parse_config

    text = (f"name: n\nboard: tri:5\ntime: {{move_seconds: 0.2, grace_seconds: 0.2}}\nplayers:\n"
            f"  - {{name: hy, gtp: {{command: ['{sys.executable}', '{FAKE}', --fault, resign]}}}}\n"
            f"  - {{name: other, gtp: {{command: ['{sys.executable}', '{FAKE}'], name: its-own}}}}\n")
    config = parse_config(text)
    first, second = (player.spec for player in config.players)
    assert first.gtp.display_name == "hy" and second.gtp.display_name == "its-own"
    bot = create_bot(first, 1)
    try:
        record = play_game([Seat("hy", bot), Seat("random", RandomBot(seed=1))], "tri:5", time_control=FAST)
    finally:
        bot.close()
    assert record.reason == "engine 'hy' resigned", record.reason
