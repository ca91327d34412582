"""A plugin can never hang or break a run: deadlines, any exception, stdout, and answers of the wrong type."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from list_executor import ListExecutor, write_cup_config

from ytourney.cli import main
from ytourney.games.record import Termination
from ytourney.players.clock import TimeControl
from ytourney.players.spec import create_bot, parse_bot_spec
from ytourney.tournament.match import Seat, play_game
from ytourney.tournament.store import load_records
from ytourney.games.registry import get_game

Y = get_game("y")

PLUGINS = Path(__file__).resolve().parent.parent / "fake_plugins" / "broken.py"


def plugin(name: str) -> Seat:
    return Seat(name, create_bot(parse_bot_spec(f"{PLUGINS}:{name}", get_game("y")), 1))


def random_seat() -> Seat:
    return Seat("random", create_bot(parse_bot_spec("random:swap_rate=0", get_game("y")), 1))


def run_league(tmp_path: Path, bad: str, *args: str, time_section: str = "") -> tuple[list, str]:
    config = tmp_path / "cup.yaml"
    config.write_text(f"name: cup\nboard: tri:5\nseed: 3\nschedule: {{games_per_pair: 2}}\nfault_limit: 0\n"
                      f"{time_section}players: [{{name: good, bot: random}}, {{name: bad, bot: '{PLUGINS}:{bad}'}}]\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "-q", *args])
    assert result.exit_code == 0, result.output
    return load_records(out), result.stdout


def test_a_plugin_past_its_hard_deadline_loses_on_time_in_process() -> None:
    begin = time.monotonic()
    record = play_game([plugin("Hangs"), random_seat()], Y, "tri:5", time_control=TimeControl(0.2, 0.1), seed=1)
    assert record.termination is Termination.TIME and record.loser_name == "Hangs"
    assert len(record.moves) >= 4  # the plies played before the hang are kept
    assert time.monotonic() - begin < 5


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_hanging_plugin_loses_on_time_and_the_run_goes_on(tmp_path: Path, workers: str) -> None:
    records, _ = run_league(tmp_path, "Hangs", "--workers", workers,
                            time_section="time: {move_seconds: 0.2, grace_seconds: 0.1}\n")
    assert len(records) == 2
    assert all(r.termination is Termination.TIME and r.loser_name == "bad" for r in records)


@pytest.mark.slow
def test_a_plugin_swallowing_the_alarm_has_its_worker_killed(tmp_path: Path) -> None:
    begin = time.monotonic()
    records, _ = run_league(tmp_path, "HangsStubborn", "--workers", "1",
                            time_section="time: {move_seconds: 0.2, grace_seconds: 0.1}\n")
    assert len(records) == 2
    assert all(r.termination is Termination.TIME and r.loser_name == "bad" for r in records)
    assert "hard deadline" in records[0].reason
    assert time.monotonic() - begin < 40


@pytest.mark.parametrize("workers", ["1", "2"])
def test_keyboard_interrupt_from_a_plugin_is_its_loss_not_a_respawn_loop(tmp_path: Path, workers: str) -> None:
    records, _ = run_league(tmp_path, "Interrupts", "--workers", workers)
    assert len(records) == 2
    assert all(r.termination is Termination.CRASH and r.loser_name == "bad" for r in records)
    assert all("KeyboardInterrupt" in r.reason for r in records)


def test_sys_exit_in_move_keeps_the_plies_played() -> None:
    record = play_game([plugin("Exits"), random_seat()], Y, "tri:5", seed=1)
    assert record.termination is Termination.CRASH and record.loser_name == "Exits"
    assert "SystemExit" in record.reason
    assert len(record.moves) == 4


def test_sys_exit_in_a_worker_keeps_the_plies_played(tmp_path: Path) -> None:
    records, _ = run_league(tmp_path, "Exits", "--workers", "1")
    assert all(r.termination is Termination.CRASH and r.loser_name == "bad" for r in records)
    assert all(len(r.moves) >= 4 for r in records)


def test_a_swap_answer_must_be_a_bool() -> None:
    from ytourney.games.y.rules import Rules

    record = play_game([random_seat(), plugin("SaysNo")], Y, "tri:5", Rules(pie=True), seed=1)
    assert record.termination is Termination.ILLEGAL and record.loser_name == "SaysNo"
    assert "'no'" in record.reason and not record.swapped


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_printing_plugin_never_reaches_the_table_and_its_output_is_kept(tmp_path: Path, workers: str) -> None:
    records, stdout = run_league(tmp_path, "Prints", "--workers", workers)
    assert "thinking" not in stdout
    assert all("= thinking hard" in r.extra["stdout"]["bad"] for r in records)


def test_a_printing_plugin_never_reaches_the_gtp_protocol(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-m", "ytourney", "gtp", f"{PLUGINS}:Prints", "--board", "tri:5"],
                          input="genmove b\nquit\n", capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n\n")[0].startswith("= ") and "thinking" not in done.stdout
    assert "thinking" in done.stderr


def test_a_printing_plugin_never_mixes_with_the_board_of_play() -> None:
    result = CliRunner().invoke(main, ["play", f"{PLUGINS}:Prints", "random", "--board", "tri:5", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "thinking" not in result.stdout


def test_play_ends_when_a_plugin_hangs(tmp_path: Path) -> None:
    import subprocess
    import sys

    for bad in ("Hangs", "HangsStubborn"):  # a plugin swallowing the alarm too: its process is killed
        done = subprocess.run([sys.executable, "-m", "ytourney", "play", f"{PLUGINS}:{bad}", "random", "--board",
                               "tri:5", "--move-seconds", "0.2", "--seed", "1"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "wins by time" in done.stdout and "Traceback" not in done.stderr


@pytest.mark.parametrize("blameless", [False, True])
def test_a_game_is_never_handed_back_endlessly(tmp_path: Path, blameless: bool) -> None:
    from ytourney.errors import RunnerError
    from ytourney.tournament.config import load_config
    from ytourney.tournament.executor import GameOutcome
    from ytourney.tournament.run import HANDED_BACK_RETRIES, WORKER_RETRIES, Runner

    class Dying(ListExecutor):
        """An executor whose worker dies under every game."""

        def __init__(self) -> None:
            super().__init__()
            self.losses = 0

        def results(self, timeout: float) -> list[GameOutcome]:
            self.losses += 1
            return [GameOutcome(self.tasks.pop(), None, "worker died", blameless=blameless)]

    config = write_cup_config(tmp_path)
    executors: list[Dying] = []

    def factory(context: object, workers: int) -> Dying:
        executors.append(Dying())
        return executors[-1]

    with pytest.raises(RunnerError, match="lost its worker process"):
        Runner(load_config(config), tmp_path / "out", workers=1, executor_factory=factory).run()
    assert executors[0].losses == (HANDED_BACK_RETRIES if blameless else WORKER_RETRIES) + 1
