"""Hostile plugins: plugin code runs only behind a deadline and a process boundary, and costs at most its games.

Classes covered (issue 24): a loop at import, in the constructor or in close(), and os._exit or sys.exit at import
or in the constructor, under `run` and `validate` (one line, exit 1, within seconds, nothing stored); an answer or
an error whose repr, str, eq or bool loops or raises, in a worker and under `play` (a lost game, never a hang or a
traceback); os._exit at import, in the constructor and in a move under `play` and `gtp` (a clear line, not a
silent end); a plugin that forks and returns twice or closes the worker's descriptors, or whose close() never
returns after a fault (one lost game, not the end of the tournament); `ytourney gtp` serving a bot that hangs (a
GTP error at its deadline: time_settings or --deadline; the next genmove starts it again) or that reads the
controller's commands (it cannot); memory without bound (the `memory_mb` limit, one lost game; a bad `memory_mb`
is one line), and messages without end (stored capped). Every test checks that no process is left behind.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ytourney.players.host as host
import ytourney.tournament.pool as pool
import ytourney.tournament.worker as worker
from ytourney.players.untrusted import MESSAGE_CHARS
from ytourney.tournament.store import load_records
from cli_run import invoke

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives

HOSTILE = Path(__file__).resolve().parent / "fake_plugins" / "hostile.py"
IMPORTS = {
    "import-loop": "import time\nwhile True:\n    time.sleep(0.01)\n",
    "import-exit": "import os\nos._exit(3)\n",
    "import-sys-exit": "import sys\nsys.exit(0)\n",
}


@pytest.fixture(autouse=True)
def short_deadlines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start and close deadlines of a few seconds, so every hang here ends quickly."""
    monkeypatch.setattr(host, "START_SECONDS", 3.0)
    monkeypatch.setattr(host, "CLOSE_SECONDS", 1.0)


def children() -> list[int]:
    """Live (not zombie) children of this process."""
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z":
            found.append(int(name))
    return found


@pytest.fixture(autouse=True)
def nothing_left_behind() -> object:
    """No process a test started (a plugin host, a worker, what a plugin forked) is alive after it."""
    before = set(children())
    yield
    deadline = time.monotonic() + 5
    while set(children()) - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert set(children()) - before == set()


def plugin_spec(tmp_path: Path, kind: str) -> str:
    """A plugin spec: a class of tests/fake_plugins/hostile.py, or a file doing `kind` at import."""
    if kind in IMPORTS:
        path = tmp_path / f"{kind.replace('-', '_')}.py"
        path.write_text(IMPORTS[kind])
        return f"{path}:Bot"
    return f"{HOSTILE}:{kind}"


def write_config(tmp_path: Path, spec: str, extra: str = "") -> Path:
    path = tmp_path / "cup.yaml"
    path.write_text("name: cup\nboard: tri:4\nseed: 3\nschedule: {games_per_pair: 2}\nfault_limit: 0\n"
                    f"time: {{move_seconds: 0.3, grace_seconds: 0.2}}\n{extra}"
                    f"players: [{{name: good, bot: random}}, {{name: bad, bot: '{spec}'}}]\n")
    return path


def error_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("Error:")]


# --- run and validate: the start check, in a child process under deadlines ---------------------------------------


@pytest.mark.parametrize("kind", ["import-loop", "import-exit", "import-sys-exit", "InitLoops", "InitExits",
                                  "CloseLoops"])
def test_run_refuses_a_plugin_that_hangs_or_exits_outside_a_move_in_one_line(tmp_path: Path, kind: str) -> None:
    out = tmp_path / "out"
    begin = time.monotonic()
    result = invoke("run", str(write_config(tmp_path, plugin_spec(tmp_path, kind))), "--out", str(out), "-q",
                    "--workers", "1")
    assert time.monotonic() - begin < 15
    assert result.exit_code == 1, result.output
    lines = error_lines(result.output)
    assert len(lines) == 1 and "'bad' cannot be started" in lines[0] and "nothing was played" in lines[0], lines
    expected = {"import-loop": "no answer within 3s", "InitLoops": "no answer within 3s",
                "CloseLoops": "close() failed: gave no answer within 1s", "import-exit": "(exit code 3)",
                "InitExits": "(exit code 4)", "import-sys-exit": "SystemExit"}[kind]
    assert expected in lines[0]
    assert not (out / "tournament.db").exists()


@pytest.mark.parametrize("kind", ["import-loop", "InitExits", "CloseLoops"])
def test_validate_names_the_plugin_problem_and_exits_1(tmp_path: Path, kind: str) -> None:
    result = invoke("validate", str(write_config(tmp_path, plugin_spec(tmp_path, kind))))
    assert result.exit_code == 1
    problems = [line for line in result.output.splitlines() if "PROBLEM" in line]
    assert len(problems) == 1 and problems[0].lstrip().startswith("bad"), result.output


# --- run: what plugin code does in a worker costs its games, never the tournament --------------------------------


@pytest.mark.parametrize(("kind", "termination", "words"), [
    # a move answer's repr is never called (refused by its type); a pie answer's repr is, under the deadline
    ("AnswersEndless", "illegal|time", "an object of type Endless, which is not a move|hard deadline"),
    ("AnswersUnprintable", "illegal", "an object of type Unprintable, which is not a move|repr raised RuntimeError"),
    ("RaisesEndless", "time", "error message"),
    ("RaisesHuge", "crash", "RuntimeError: xxx"),
    ("MoveExits", "crash", "exit code 5"),
    ("ForksTwice", "connection", ""),
    ("ClosesDescriptors", "crash", "pipe"),
    ("Greedy", "crash", "MemoryError"),
])
def test_a_hostile_plugin_in_a_worker_loses_its_games_and_the_run_ends_well(
        tmp_path: Path, kind: str, termination: str, words: str) -> None:
    out = tmp_path / "out"
    begin = time.monotonic()
    result = invoke("run", str(write_config(tmp_path, plugin_spec(tmp_path, kind))), "--out", str(out), "-q",
                    "--workers", "1")
    assert result.exit_code == 0, result.output
    assert time.monotonic() - begin < 30
    records = load_records(out)
    assert sorted(r.id for r in records) == [1, 2]  # each game stored once
    for record in records:
        assert record.termination.value in termination.split("|"), (record.termination, record.reason)
        if termination != "connection":
            assert record.loser_name == "bad" and any(w in record.reason for w in words.split("|")), record.reason
            assert len(record.reason) <= MESSAGE_CHARS + 100


def test_a_close_that_never_returns_in_a_worker_costs_its_game_only(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker, "START_SECONDS", 1.0)  # the workers are forked: they inherit both
    monkeypatch.setattr(pool, "KILL_MARGIN", 0.5)
    out = tmp_path / "out"
    result = invoke("run", str(write_config(tmp_path, plugin_spec(tmp_path, "CloseLoopsAfterFault"))), "--out",
                    str(out), "-q", "--workers", "1")
    assert result.exit_code == 0, result.output
    records = load_records(out)
    assert sorted(r.id for r in records) == [1, 2] and all(r.loser_name == "bad" for r in records)


def test_a_memory_limit_from_the_config_stops_a_greedy_plugin(tmp_path: Path) -> None:
    out = tmp_path / "out"
    config = write_config(tmp_path, plugin_spec(tmp_path, "Greedy"), "memory_mb: 1024\n")
    result = invoke("run", str(config), "--out", str(out), "-q", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert all("MemoryError" in r.reason and r.loser_name == "bad" for r in load_records(out))


@pytest.mark.parametrize(("value", "words"), [("100", "too small"), ("-1", ">= 0"), ("lots", "whole number")])
def test_a_bad_memory_limit_is_one_line(tmp_path: Path, value: str, words: str) -> None:
    config = write_config(tmp_path, "random", f"memory_mb: {value}\n")
    result = invoke("validate", str(config))
    lines = error_lines(result.output)
    assert result.exit_code == 1 and len(lines) == 1 and "memory_mb" in lines[0] and words in lines[0], lines


# --- play: plugins run in a child process ------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "words"), [("import-exit", "exit code 3"), ("InitExits", "exit code 4"),
                                             ("import-loop", "no answer within 3s")])
def test_play_says_why_a_plugin_could_not_start(tmp_path: Path, kind: str, words: str) -> None:
    result = invoke("play", "random", plugin_spec(tmp_path, kind), "--board", "tri:4", "--seed", "1")
    lines = error_lines(result.output)
    assert result.exit_code == 1 and len(lines) == 1 and words in lines[0], result.output


@pytest.mark.parametrize(("kind", "words"), [("MoveExits", "wins by crash after 1 move|(ended its process"),
                                             ("AnswersEndless", "wins by time"),
                                             ("RaisesEndless", "wins by time"),
                                             ("ForksTwice", "wins by completing a Y"),
                                             ("Greedy", "wins by crash after|(MemoryError (memory limit")])
def test_play_ends_a_game_against_a_hostile_plugin_with_a_result(tmp_path: Path, kind: str, words: str) -> None:
    result = invoke("play", "random", plugin_spec(tmp_path, kind), "--board", "tri:4", "--seed", "1",
                    "--move-seconds", "0.3")
    assert result.exit_code == 0, result.output
    assert all(part in result.output.splitlines()[-1] for part in words.split("|")), result.output


# --- gtp: the served bot has a deadline and runs in a child process ----------------------------------------------


def serve(bot: str, commands: str, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ytourney", "gtp", bot, "--board", "tri:5", *options],
                          input=commands, capture_output=True, text=True, timeout=60)


def answers(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [block.strip() for block in done.stdout.split("\n\n") if block.strip()]


def test_gtp_answers_an_error_at_the_deadline_and_serves_on(tmp_path: Path) -> None:
    begin = time.monotonic()
    done = serve(f"{HOSTILE}:MoveHangs", "genmove b\nplay b a1\nname\nquit\n", "--deadline", "1")
    assert time.monotonic() - begin < 20
    got = answers(done)
    assert done.returncode == 0 and got[0].startswith("? bot failed: gave no answer within 1s"), got
    assert got[1:] == ["=", "= ytourney-bot", "="]


def test_gtp_time_settings_set_the_deadline(tmp_path: Path) -> None:
    begin = time.monotonic()
    done = serve(f"{HOSTILE}:MoveHangs", "time_settings 0 1 1\ngenmove b\nquit\n")  # 1s a move: 0.8 + 2 of grace
    assert time.monotonic() - begin < 20
    assert answers(done)[1].startswith("? bot failed: gave no answer within 2.8s"), done.stdout


def test_gtp_reports_a_plugin_that_ends_its_process_and_restarts_it(tmp_path: Path) -> None:
    done = serve(f"{HOSTILE}:MoveExits", "genmove b\ngenmove b\nquit\n")
    got = answers(done)
    assert got[0] == "? bot failed: ended its process while choosing a move (exit code 5)", got
    assert got[1] == got[0] and done.returncode == 0  # started again for the second genmove


def test_gtp_answers_a_bot_error_with_blank_lines_as_one_error() -> None:
    done = serve(f"{HOSTILE}:RaisesLines", "genmove b\nname\nquit\n")
    assert answers(done) == ["? bot failed: RuntimeError: first = a1 last", "= ytourney-bot", "="], done.stdout


def test_gtp_keeps_the_controllers_commands_from_the_bot(tmp_path: Path) -> None:
    done = serve(f"{HOSTILE}:ReadsStdin", "genmove b\ngenmove w\nname\nquit\n")
    assert answers(done) == ["= a1", "= b1", "= ytourney-bot", "="], done.stdout


def test_gtp_says_why_a_plugin_could_not_start(tmp_path: Path) -> None:
    done = serve(plugin_spec(tmp_path, "import-exit"), "name\n")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"Error: plugin class 'Bot' in {str(tmp_path / 'import_exit.py')!r} could not be started: ended its "
        "process while loading and building it (exit code 3)"]
