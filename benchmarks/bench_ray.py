"""Benchmark: tournament throughput on the Ray backend against the local multiprocess pool, in the same run.

Baseline: `Runner` with the default executor (2 `multiprocess` workers). Measured: the same tournament with
`RayExecutor` (2 actors, each keeping its bots between games) and, to justify actors, a plain Ray-task executor
(each chunk of games a stateless task that builds its players afresh). Every game is stored (one SQLite
transaction each). Ray itself is started once before timing (its start-up is printed separately); each
executor's own start (worker processes, actors) is counted in its run.

Scenarios (round-robins on tri:11):
  timed    random moves that spend --move-seconds of CPU each (the target: Ray >= 0.8 of the pool)
  instant  plain random bots, where per-game overhead dominates
  engine   a GTP engine (tests/fake_engines/fake_gtp.py) against random: what restarting engines costs tasks

    python benchmarks/bench_ray.py                       # all three, best of 2
    python benchmarks/bench_ray.py --only timed --timed-games 40 --repeat 3
"""

from __future__ import annotations

import argparse
import collections
import logging
import random
import statistics
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ytourney.games.y.state import GameState
from ytourney.games.bot import BaseBot, Limit
from ytourney.tournament.config import parse_config
from ytourney.tournament.executor import GameOutcome, Pacing
from ytourney.tournament.run import Runner, local_executor
from ytourney.tournament.schedule import GameTask
from ytourney.tournament.store import stored_count
from ytourney.tournament.worker import GamePlayer, PlayedGame, TournamentContext

HERE = Path(__file__).resolve()
FAKE_ENGINE = HERE.parents[1] / "tests" / "fake_engines" / "fake_gtp.py"
WORKERS = 2


class BusyRandom(BaseBot):
    """A random player that spends `seconds` of CPU on every move (a stand-in for a bot thinking)."""

    name = "busy-random"

    def __init__(self, seed: int | None = None, seconds: float = 0.05) -> None:
        super().__init__(seed)
        self.seconds = seconds
        self.rng = random.Random(seed)

    def move(self, state: GameState, limit: Limit) -> int:
        """Burn the move's time, then play a random empty cell."""
        deadline = time.perf_counter() + self.seconds
        while time.perf_counter() < deadline:
            pass
        return self.rng.choice(state.empty_cells())

    def swap(self, state: GameState, limit: Limit) -> bool:
        """Never swap."""
        return False


def config_text(scenario: str, games: int, move_seconds: float) -> str:
    """The tournament config of a scenario: two players, `games` games."""
    if scenario == "timed":
        spec = f"'{HERE}:BusyRandom'"
        players = f"  - {{name: busy-1, bot: {spec}}}\n  - {{name: busy-2, bot: {spec}}}\n"
        extra = f"time: {{move_seconds: {max(1.0, 10 * move_seconds)}}}\n"
    elif scenario == "instant":
        players, extra = "  - {name: random-1, bot: random}\n  - {name: random-2, bot: random}\n", ""
    else:
        players = (f"  - {{name: engine, gtp: {{command: ['{sys.executable}', '{FAKE_ENGINE}']}}}}\n"
                   "  - {name: random, bot: random}\n")
        extra = ""
    return (f"name: bench-{scenario}\nboard: tri:11\nseed: 1\nfault_limit: 0\nschedule: {{games_per_pair: {games}}}\n"
            f"{extra}players:\n{players}")


def run_rate(text: str, factory: Callable[[TournamentContext, int], Any], games: int) -> tuple[float, float]:
    """Games per second of a full tournament run with this executor (every game stored): counting the executor's
    start (worker processes or actors), and without it."""
    config = parse_config(textwrap.dedent(text), "bench.yaml")
    start = []

    def timed_factory(context: TournamentContext, workers: int) -> Any:
        begin = time.perf_counter()
        executor = factory(context, workers)
        start.append(time.perf_counter() - begin)
        return executor

    with tempfile.TemporaryDirectory() as folder:
        begin = time.perf_counter()
        summary = Runner(config, Path(folder) / "out", workers=WORKERS, executor_factory=timed_factory).run()
        seconds = time.perf_counter() - begin
        stored = stored_count(Path(folder) / "out")
    if stored != games or summary.stored != games:
        raise SystemExit(f"expected {games} stored games, found {stored}")
    return games / seconds, games / (seconds - sum(start))


# --- the alternative design: one stateless Ray task per chunk of games ------------------------------------


def play_chunk(context: TournamentContext, tasks: list[GameTask]) -> tuple[list[PlayedGame], float]:
    """(Ray task) Build the players, play a chunk of games, close the players."""
    player = GamePlayer(context)
    begin = time.perf_counter()
    try:
        games = [PlayedGame.of(player.play(task)) for task in tasks]
    finally:
        player.close()
    return games, time.perf_counter() - begin


class RayTaskExecutor:
    """Each chunk of games is a Ray task (no state between tasks: plugins and engines start for every chunk)."""

    in_process = False

    def __init__(self, context: TournamentContext, workers: int) -> None:
        import ray

        self._ray = ray
        self._remote = ray.remote(num_cpus=1, max_retries=0)(play_chunk)
        self._context = ray.put(context)
        self._workers = workers
        self._pacing = Pacing()
        self._buffer: list[GameTask] = []
        self._calls: dict[Any, list[GameTask]] = {}

    @property
    def capacity(self) -> int:
        """Two chunks per worker."""
        return 2 * self._workers * self._pacing.chunk

    @property
    def in_flight(self) -> int:
        """Tasks given out and not reported."""
        return len(self._buffer) + sum(len(chunk) for chunk in self._calls.values())

    def submit(self, task: GameTask) -> None:
        """Buffer a task."""
        self._buffer.append(task)

    def results(self, timeout: float) -> list[GameOutcome]:
        """Send full chunks, wait for finished ones."""
        while self._buffer:
            size = self._pacing.chunk
            chunk, self._buffer = self._buffer[:size], self._buffer[size:]
            self._calls[self._remote.remote(self._context, chunk)] = chunk
        if not self._calls:
            return []
        done, _ = self._ray.wait(list(self._calls), num_returns=1, timeout=timeout)
        if done:
            done, _ = self._ray.wait(list(self._calls), num_returns=len(self._calls), timeout=0)
        outcomes = []
        for ref in done:
            chunk = self._calls.pop(ref)
            games, busy = self._ray.get(ref)
            outcomes.extend(map(GameOutcome.played, chunk, games))
            self._pacing.learn(busy, len(games))
        return outcomes

    def shutdown(self, abandon: bool = False) -> None:
        """Drop references (tasks end by themselves)."""
        self._calls.clear()
        self._buffer.clear()


def ray_actors(context: TournamentContext, workers: int) -> Any:
    from ytourney.tournament.ray import RayExecutor

    return RayExecutor(context, workers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("timed", "instant", "engine"), action="append")
    parser.add_argument("--move-seconds", type=float, default=0.05)
    parser.add_argument("--timed-games", type=int, default=24)
    parser.add_argument("--instant-games", type=int, default=4000)
    parser.add_argument("--engine-games", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--no-tasks", action="store_true", help="skip the Ray-task executor")
    args = parser.parse_args()
    import ray

    begin = time.perf_counter()
    ray.init(address="local", num_cpus=WORKERS, include_dashboard=False, logging_level=logging.ERROR,
             object_store_memory=128 * 1024 * 1024, log_to_driver=False)
    print(f"ray {ray.__version__}: local instance with {WORKERS} CPUs started in {time.perf_counter() - begin:.1f} s "
          "(not counted below)")
    context = TournamentContext.from_config(parse_config(config_text("instant", 2, args.move_seconds), "bench.yaml"))
    starts = []
    for name, factory in (("pool", local_executor), ("ray actors", ray_actors)):
        begin = time.perf_counter()
        factory(context, WORKERS).shutdown()
        starts.append(f"{name} {time.perf_counter() - begin:.2f} s")
    print(f"executor start and stop (counted in every run below): {', '.join(starts)}")
    backends: dict[str, Callable[[TournamentContext, int], Any]] = {"pool": local_executor, "ray actors": ray_actors}
    if not args.no_tasks:
        backends["ray tasks"] = RayTaskExecutor
    games = {"timed": args.timed_games, "instant": args.instant_games, "engine": args.engine_games}
    titles = {"timed": f"timed: busy-random vs busy-random, {args.move_seconds:g} s CPU per move",
              "instant": "instant: random vs random", "engine": "engine: GTP fake engine vs random"}
    for scenario in args.only or ("timed", "instant", "engine"):
        text = config_text(scenario, games[scenario], args.move_seconds)
        rates: dict[str, list[float]] = collections.defaultdict(list)
        steady: dict[str, list[float]] = collections.defaultdict(list)
        for _ in range(args.repeat):  # interleaved, so every backend sees the same machine load
            for name, factory in backends.items():
                total, without_start = run_rate(text, factory, games[scenario])
                rates[name].append(total)
                steady[name].append(without_start)
        print(f"{titles[scenario]} (tri:11, {games[scenario]} games stored, {WORKERS} workers, best of {args.repeat})")
        for name in backends:
            line = f"  {name:<10} {max(rates[name]):9.2f} games/s (runs: {', '.join(f'{r:.2f}' for r in rates[name])})"
            if name != "pool":
                line += (f"  ratio {max(rates[name]) / max(rates['pool']):.2f} (median "
                         f"{statistics.median(rates[name]) / statistics.median(rates['pool']):.2f})")
            line += f"; without executor start {max(steady[name]):.2f} games/s"
            if name != "pool":
                line += f", ratio {max(steady[name]) / max(steady['pool']):.2f}"
            print(line)
    ray.shutdown()


if __name__ == "__main__":
    main()
