"""Hostile processes: nothing an engine or a plugin starts outlives `run` or `validate`.

Classes covered (issue 24): an engine that double-forks, calls setsid and execs with an empty environment (no
session, no environment mark left to find it by); processes that plugins fork or spawn (a detached daemon, a
plain subprocess, a child never waited for) in the main process (the start check) and in workers; a TERM-deaf
engine whose stop is interrupted by its deadline's alarm (it was left running until the process ended).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.games.record import Termination
from ytourney.players.bots.random_bot import RandomBot
from ytourney.players.clock import TimeControl
from ytourney.players.gtp.engine import GtpBot
from ytourney.players.gtp.settings import GtpSettings
from ytourney.tournament.match import Seat, play_game
from ytourney.tournament.store import load_records
from ytourney.games.registry import get_game

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives

HERE = Path(__file__).resolve().parent
DETACHED = HERE / "fake_engines" / "fake_detached.py"
FORKING = HERE / "fake_plugins" / "forking.py"


def state(pid: int) -> tuple[str, int] | None:
    """(state letter, parent pid) of a process, None when there is none."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1])


def survivors(pids_file: Path) -> list[str]:
    """Processes started by the fakes that still run, or that we never reaped (zombies of this process)."""
    found = []
    for pid in {int(line) for line in pids_file.read_text().split()} if pids_file.exists() else set():
        seen = state(pid)
        if seen is None:
            continue
        letter, parent = seen
        if letter != "Z":
            found.append(f"{pid} runs")
        elif parent == os.getpid():
            found.append(f"{pid} is a zombie of ours")
    for name in filter(str.isdigit, os.listdir("/proc")):  # any daemon of this test, recorded or not
        try:
            with open(f"/proc/{name}/cmdline", "rb") as cmdline:
                if str(pids_file).encode() in cmdline.read() and (state(int(name)) or ("Z",))[0] != "Z":
                    found.append(f"{name} runs (found by its command line)")
        except OSError:
            continue
    return sorted(set(found))


def settle(pids_file: Path) -> list[str]:
    deadline = time.monotonic() + 5
    while survivors(pids_file) and time.monotonic() < deadline:
        time.sleep(0.05)
    return survivors(pids_file)


def write_config(tmp_path: Path, player: str) -> Path:
    path = tmp_path / "cup.yaml"
    path.write_text("name: cup\nboard: tri:4\nseed: 3\nschedule: {games_per_pair: 2}\nfault_limit: 0\n"
                    f"time: {{move_seconds: 2.0}}\nplayers: [{{name: good, bot: random}}, {{name: bad, {player}}}]\n")
    return path


@pytest.mark.parametrize("command", ["run", "validate"])
def test_a_detached_daemon_without_environment_of_an_engine_is_gone(tmp_path: Path, command: str) -> None:
    pids = tmp_path / "daemons.txt"
    config = write_config(tmp_path, f"gtp: {{command: ['{sys.executable}', '{DETACHED}', '{pids}']}}")
    args = ["run", str(config), "--out", str(tmp_path / "out"), "-q", "--workers", "1"] if command == "run" else \
        ["validate", str(config), "--no-probe"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    if command == "run":
        assert len(load_records(tmp_path / "out")) == 2
    started = pids.read_text().split()
    assert len(started) >= (2 if command == "run" else 1)  # the start check, and the worker's engine
    assert settle(pids) == []


@pytest.mark.parametrize("command", ["run", "validate"])
def test_processes_a_plugin_forks_or_spawns_are_ended_and_reaped(tmp_path: Path, command: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    pids = tmp_path / "plugin-pids.txt"
    monkeypatch.setenv("YTOURNEY_TEST_PIDS", str(pids))
    config = write_config(tmp_path, f"bot: '{FORKING}:Forking'")
    args = ["run", str(config), "--out", str(tmp_path / "out"), "-q", "--workers", "1"] if command == "run" else \
        ["validate", str(config)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    if command == "run":
        records = load_records(tmp_path / "out")
        assert len(records) == 2 and all(r.termination.value == "connection" for r in records)
    assert len(pids.read_text().split()) >= 2  # the subprocess and the child never waited for (a daemon may be
    assert settle(pids) == []                  # ended before it writes its pid: it is found by its command line)


def test_a_term_deaf_engine_past_its_hard_deadline_is_ended_at_once(tmp_path: Path) -> None:
    marker = tmp_path / "hang-hard.log"
    bot = GtpBot(GtpSettings(command=(sys.executable, str(HERE / "fake_engines" / "fake_gtp.py"), "--fault",
                                      "hang-hard", "--log", str(marker)), grace_seconds=0.2, command_seconds=1.0, game=get_game("y")))
    record = play_game([Seat("engine", bot), Seat("random", RandomBot(seed=1))], get_game("y"), "tri:5",
                       time_control=TimeControl(move_seconds=0.2, grace_seconds=0.2))
    assert record.termination is Termination.TIME  # the alarm rang again while the engine was being stopped
    running = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as cmdline:
                if str(marker).encode() in cmdline.read() and (state(int(name)) or ("Z",))[0] != "Z":
                    running.append(int(name))
        except OSError:
            continue
    bot.close()
    assert running == []  # ended with the fault, not left to the end of the process
