"""Engines are contained: output per answer is capped, and no process an engine starts outlives it.

Classes covered (issue 24, engines): output floods (no newline, an answer over the cap, the reader's own bound), a
double-forked daemon, an engine timed out under the referee's alarm; each loses cleanly and leaves no process
behind, under a memory cap. Detached engines (setsid, a cleared environment) are in tests/test_hostile_processes.py.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.games.registry import get_game
from ytourney.games.record import Termination
from ytourney.tournament.store import load_records

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives

ENGINES = Path(__file__).resolve().parent.parent / "fake_engines"


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def processes() -> set[int]:
    """Live processes running one of the fake engines (the machine is shared: other processes come and go)."""
    found = set()
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as cmdline:
                if str(ENGINES).encode() in cmdline.read() and alive(int(name)):
                    found.add(int(name))
        except OSError:
            continue
    return found


def left_after(before: set[int], seconds: float = 5.0) -> set[int]:
    """The fake engines started since `before` still alive once they had `seconds` to go (a loaded machine is slow
    to end them; a fixed 0.2 s wait was not always enough)."""
    deadline = time.monotonic() + seconds
    while processes() - before and time.monotonic() < deadline:
        time.sleep(0.05)
    return processes() - before


def run_league(tmp_path: Path, command: str, *args: str) -> list:
    config = tmp_path / "cup.yaml"
    config.write_text("name: cup\nboard: tri:5\nseed: 3\nschedule: {games_per_pair: 2}\nfault_limit: 0\n"
                      f"players: [{{name: good, bot: random}}, {{name: bad, gtp: {{command: {command}}}}}]\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "-q", *args])
    assert result.exit_code == 0, result.output
    return load_records(out)


def test_an_engine_flooding_stdout_without_newlines_is_a_protocol_fault(tmp_path: Path) -> None:
    before = processes()
    begin = time.monotonic()
    records = run_league(tmp_path, f"[{sys.executable}, {ENGINES / 'fake_flood.py'}]", "--workers", "1")
    assert len(records) == 2
    assert all(r.termination is Termination.PROTOCOL and r.loser_name == "bad" for r in records)
    assert "more than 1048576 bytes" in records[0].reason
    assert time.monotonic() - begin < 30
    assert not left_after(before)


def test_the_reader_holds_at_most_the_cap(tmp_path: Path) -> None:
    from ytourney.errors import EngineProtocolError
    from ytourney.players.gtp.settings import GtpSettings
    from ytourney.players.gtp.transport import ANSWER_BYTES, ProcessTransport

    transport = ProcessTransport.start(GtpSettings(command=(sys.executable, str(ENGINES / "fake_flood.py")), game=get_game("y")))
    try:
        transport.send("genmove b")
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            while True:
                transport.receive(5.0)
        except EngineProtocolError as err:
            assert str(ANSWER_BYTES) in str(err)
        time.sleep(0.5)  # the engine keeps writing: it must block on the pipe, not grow us
        assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before < 16 * 1024  # KiB
    finally:
        transport.close(0.1)


def test_a_double_forked_daemon_of_an_engine_is_gone_after_the_run(tmp_path: Path) -> None:
    pids = tmp_path / "daemons.txt"
    before = processes()
    records = run_league(tmp_path, f"[{sys.executable}, {ENGINES / 'fake_double_fork.py'}, {pids}]", "--workers", "1")
    assert len(records) == 2
    started = [int(line) for line in pids.read_text().split()]
    assert started  # the check before the run and the worker's engine each left one
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in started if alive(pid)]
    assert not left_after(before)


def test_an_answer_longer_than_the_cap_is_a_protocol_fault() -> None:
    from ytourney.errors import EngineProtocolError
    from ytourney.players.gtp.client import GtpClient
    from ytourney.players.gtp.transport import ANSWER_BYTES

    class Endless:
        """A transport whose engine answers '= ' and then lines without end."""

        pid = None

        def __init__(self) -> None:
            self.sent = False

        def send(self, line: str) -> None:
            self.sent = True

        def receive(self, timeout: float) -> str | None:
            if not self.sent:
                raise TimeoutError
            if self.sent is True:
                self.sent = 1
                return "= a"
            return "x" * 1000

    try:
        GtpClient(Endless(), "endless").command("genmove b", 60.0)
    except EngineProtocolError as err:
        assert f"more than {ANSWER_BYTES} bytes" in str(err)
    else:
        raise AssertionError("no protocol fault")


def test_an_engine_timed_out_under_the_referees_alarm_is_ended_by_the_game_itself() -> None:
    """A TERM-deaf engine that never answers: the referee's alarm rings while its close waits between TERM and KILL.
    The KILL must still be sent, in the game (no `close` called after it), and the engine must be reaped."""
    from ytourney.games.registry import get_game
    from ytourney.players.bots.random_bot import RandomBot
    from ytourney.players.clock import TimeControl
    from ytourney.players.gtp.engine import GtpBot
    from ytourney.players.gtp.settings import GtpSettings
    from ytourney.players.gtp.transport import ProcessTransport
    from ytourney.tournament.match import Seat, play_game

    started: list[int] = []

    def start(settings: GtpSettings) -> ProcessTransport:
        transport = ProcessTransport.start(settings)
        started.append(transport._process.pid)
        return transport

    settings = GtpSettings(command=(sys.executable, str(ENGINES / "fake_gtp.py"), "--fault", "hang-hard"),
                           grace_seconds=0.2, command_seconds=1.0, game=get_game("y"))
    bot = GtpBot(settings, transport_factory=start)
    record = play_game([Seat("engine", bot), Seat("random", RandomBot(seed=1))], get_game("y"), "tri:5",
                       time_control=TimeControl(move_seconds=0.2, grace_seconds=0.2))
    assert record.termination is Termination.TIME
    assert len(started) == 1
    assert not alive(started[0])  # killed before play_game returned, and not left a zombie either
    with open(f"/proc/{os.getpid()}/task/{os.getpid()}/children") as children:
        assert str(started[0]) not in children.read().split()
    bot.close()
