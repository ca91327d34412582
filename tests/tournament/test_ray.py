"""Tests of the Ray backend: same games as local workers, a killed actor loses no game, node checks, missing ray."""

from __future__ import annotations

import logging
import os
import signal
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.errors import BackendError, BackendMissingError
from ytourney.games.record import Termination
from ytourney.tournament.config import parse_config
from ytourney.tournament.executor import GameOutcome
from ytourney.tournament.run import Runner
from ytourney.tournament.store import load_records
from ytourney.tournament.worker import TournamentContext
from ytourney.games.y.state import CONNECTION

REPO = Path(__file__).resolve().parents[2]
FAKE = REPO / "tests" / "fake_engines" / "fake_gtp.py"

PLUGINS = textwrap.dedent("""
    import os
    from ytourney.players import BaseBot

    class Dies(BaseBot):
        def move(self, state, limit):
            os._exit(9)
""")

RANDOMS = "  - {name: a, bot: random}\n  - {name: b, bot: random}\n  - {name: c, bot: 'random:swap_rate=0'}\n"


def make(tmp_path: Path, body: str, games: int = 2, board: str = "tri:5", extra: str = ""):
    (tmp_path / "plugins.py").write_text(PLUGINS)
    text = f"name: t\nboard: {board}\nseed: 4\nschedule: {{games_per_pair: {games}}}\n{extra}players:\n" + body
    (tmp_path / "t.yaml").write_text(text)
    return parse_config(textwrap.dedent(text), str(tmp_path / "t.yaml"), tmp_path)


@pytest.fixture(scope="module")
def ray() -> Any:
    """One local Ray instance with 2 CPUs shared by every test here (startup costs seconds)."""
    ray = pytest.importorskip("ray")
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             object_store_memory=128 * 1024 * 1024)
    yield ray
    ray.shutdown()


def ray_executor(context: TournamentContext, workers: int) -> Any:
    from ytourney.tournament.ray import RayExecutor

    return RayExecutor(context, 2)


def test_ray_run_plays_the_same_games_as_local_workers(ray: Any, tmp_path: Path) -> None:
    cfg = make(tmp_path, RANDOMS, games=6)
    summary = Runner(cfg, tmp_path / "ray", executor_factory=ray_executor).run()
    assert summary.planned == summary.stored == summary.played == 18 and summary.complete
    Runner(cfg, tmp_path / "local", workers=2).run()
    on_ray, local = load_records(tmp_path / "ray"), load_records(tmp_path / "local")
    assert [r.id for r in on_ray] == list(range(1, 19))
    assert [(r.id, r.first, r.black, r.moves, r.winner, r.seed) for r in on_ray] == [
        (r.id, r.first, r.black, r.moves, r.winner, r.seed) for r in local]
    assert ray.is_initialized()  # the executor did not shut down a Ray it did not start


class KillOnce:
    """A RayExecutor that SIGKILLs one of its actors as soon as the first game result comes in."""

    def __init__(self, context: TournamentContext, workers: int) -> None:
        from ytourney.tournament.ray import RayExecutor

        self.inner = RayExecutor(context, 2)
        self.killed: list[int] = []
        self.failures: list[GameOutcome] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @property
    def capacity(self) -> int:
        return self.inner.capacity

    @property
    def in_flight(self) -> int:
        return self.inner.in_flight

    def results(self, timeout: float) -> list[GameOutcome]:
        outcomes = self.inner.results(timeout)
        self.failures += [o for o in outcomes if o.record is None]
        if outcomes and not self.killed:
            # an actor busy with a game right now; when none is (a loaded machine), try again at the next results
            pid = next((actor.pid for actor in self.inner._actors if actor.ready and actor.calls), None)
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
                self.killed.append(pid)
        return outcomes


@pytest.mark.slow
def test_killed_actor_mid_run_loses_and_doubles_no_game(ray: Any, tmp_path: Path) -> None:
    cfg = make(tmp_path, "  - {name: a, bot: 'mcts:seconds=0.01'}\n  - {name: b, bot: 'mcts:seconds=0.01'}\n",
               games=8, board="tri:4", extra="adjudication: off\n")  # every game played out to its connection
    executors: list[KillOnce] = []

    def factory(context: TournamentContext, workers: int) -> KillOnce:
        executors.append(KillOnce(context, workers))
        return executors[-1]

    summary = Runner(cfg, tmp_path / "out", executor_factory=factory).run()
    executor = executors[0]
    assert executor.killed and executor.failures  # an actor died with games in flight
    assert executor.killed[0] not in [actor.pid for actor in executor.inner._actors]  # and was replaced
    records = load_records(tmp_path / "out")
    assert sorted(r.id for r in records) == list(range(1, 9))
    assert summary.stored == summary.played == 8
    assert all(r.termination is CONNECTION for r in records)


def test_plugin_killing_its_actor_loses_the_game_and_the_run_goes_on(ray: Any, tmp_path: Path) -> None:
    cfg = make(tmp_path, "  - {name: dies, bot: 'plugins.py:Dies'}\n  - {name: r, bot: random}\n", games=2,
               extra="fault_limit: 0\n")
    summary = Runner(cfg, tmp_path / "out", executor_factory=ray_executor).run()
    records = load_records(tmp_path / "out")
    assert summary.stored == 2 and [r.id for r in records] == [1, 2]
    assert all(r.winner_name == "r" and r.termination is Termination.CRASH for r in records)
    assert all("died while this bot was thinking" in r.reason for r in records)


def test_validate_on_ray_names_the_node_and_what_it_lacks(ray: Any, tmp_path: Path) -> None:
    from ytourney.tournament.validation import check_cluster

    body = (f"  - {{name: ok, gtp: {{command: ['{sys.executable}', '{FAKE}']}}}}\n"
            "  - {name: gone, gtp: {command: [no-such-engine-xyz]}}\n  - {name: r, bot: random}\n")
    cfg = make(tmp_path, body)
    checks = check_cluster(cfg)
    assert len(checks) == 1 and checks[0].node.here
    assert [p.name for p in checks[0].players if p.problem] == ["gone"]
    lines = checks[0].lines()
    assert "[PROBLEM]" in lines[0] and "not found on PATH" in lines[1] and lines[1].lstrip().startswith("gone:")
    light = check_cluster(cfg, start=False)
    assert "not started" in light[0].players[0].note and light[0].players[1].problem
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "t.yaml"), "--backend", "ray"])
    assert result.exit_code == 1 and "ray nodes  1 alive" in result.output
    assert "gone: engine 'gone'" in result.output and "Traceback" not in result.output


def test_missing_ray_is_a_clean_error_saying_how_to_install_it(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from ytourney.tournament.run import executor_factory

    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    with pytest.raises(BackendMissingError, match=r'pip install "ytourney\[ray\]"'):
        executor_factory("ray")
    with pytest.raises(BackendError, match="unknown backend 'dask'"):
        executor_factory("dask")
    (tmp_path / "t.yaml").write_text(f"name: t\nboard: tri:4\nplayers:\n{RANDOMS}")
    result = CliRunner().invoke(main, ["run", str(tmp_path / "t.yaml"), "--backend", "ray", "--out",
                                       str(tmp_path / "out")])
    assert result.exit_code == 1 and 'pip install "ytourney[ray]"' in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()
    result = CliRunner().invoke(main, ["run", str(tmp_path / "t.yaml"), "--address", "10.0.0.1:6379"])
    assert result.exit_code == 1 and "--address needs --backend ray" in result.output
