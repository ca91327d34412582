"""Does the optional C core pay where users run? `ytourney run` with and without it on three workloads.

Each workload is a real `python -m ytourney run CONFIG --out TMP --quiet` in a fresh subprocess, once with the C
core (the default where it is built) and once with YTOURNEY_PURE_PYTHON=1 (what users without a compiler get),
alternating, `--repeats` times. Printed per run: wall seconds and CPU milliseconds per game (the command and its
worker processes); per workload: the medians and the ratio pure / C (above 1: the C core saves that factor).

  quickstart  configs/quickstart.yaml as shipped (60 games, tri:9, random/heuristic/mcts-200/mcts-1k)
  ladder      configs/ladder.yaml with games_per_pair cut to --ladder-games (the shipped 20 takes minutes a run)
  random      a round-robin of 4 random bots on tri:11, --random-games games in all

    python benchmarks/bench_core.py [--repeats 3] [--ladder-games 4] [--random-games 3000] [--only random]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from ytourney.tournament.store import stored_count

ROOT = Path(__file__).resolve().parents[1]
MODES = (("C core", "0"), ("pure Python", "1"))


@dataclass(frozen=True)
class Run:
    """One `ytourney run`: wall seconds, CPU seconds of the command and its workers, games stored."""

    wall: float
    cpu: float
    games: int

    @property
    def cpu_ms_per_game(self) -> float:
        """CPU milliseconds per stored game."""
        return 1000 * self.cpu / self.games


def children_cpu() -> float:
    """CPU seconds of every finished child process of this one (their own children included once waited for)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def environment(pure: str) -> dict[str, str]:
    """This environment with the worktree importable first and the C core switched by YTOURNEY_PURE_PYTHON."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, "YTOURNEY_PURE_PYTHON": pure}


def accelerated(pure: str) -> bool:
    """Whether a fresh interpreter with this setting plays on the C core."""
    code = "from ytourney.games.y.state import CGameState, GameState; print(GameState is CGameState)"
    result = subprocess.run([sys.executable, "-c", code], env=environment(pure), capture_output=True, text=True,
                            check=True)
    return result.stdout.strip() == "True"


def run_once(config: Path, pure: str, workers: int | None) -> Run:
    """One full `ytourney run` of `config` into a new temporary folder."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out"
        command = [sys.executable, "-m", "ytourney", "run", str(config), "--out", str(out), "--quiet"]
        if workers:
            command += ["--workers", str(workers)]
        cpu, begin = children_cpu(), time.perf_counter()
        subprocess.run(command, env=environment(pure), cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
        wall, used = time.perf_counter() - begin, children_cpu() - cpu
        return Run(wall, used, stored_count(out))


def workloads(folder: Path, ladder_games: int, random_games: int) -> dict[str, Path]:
    """The three configs: the quickstart as shipped, a shortened ladder copy, a random-bot round-robin."""
    ladder = yaml.safe_load((ROOT / "configs" / "ladder.yaml").read_text())
    ladder["schedule"]["games_per_pair"] = ladder_games
    (folder / "ladder.yaml").write_text(yaml.safe_dump(ladder))
    players = [{"name": f"random-{i}", "bot": "random"} for i in range(1, 5)]
    pairs = len(players) * (len(players) - 1) // 2
    random_rr = {"name": "random-rr", "board": "tri:11", "seed": 1,
                 "schedule": {"format": "round-robin", "games_per_pair": max(1, random_games // pairs)},
                 "players": players}
    (folder / "random.yaml").write_text(yaml.safe_dump(random_rr))
    return {"quickstart": ROOT / "configs" / "quickstart.yaml", "ladder": folder / "ladder.yaml",
            "random": folder / "random.yaml"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3, help="runs of each workload in each mode")
    parser.add_argument("--ladder-games", type=int, default=4, help="games per pair of the ladder copy")
    parser.add_argument("--random-games", type=int, default=3000, help="games of the random round-robin")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: the command's own)")
    parser.add_argument("--only", choices=("quickstart", "ladder", "random"), action="append")
    args = parser.parse_args()
    if not accelerated("0"):
        raise SystemExit("the C core is not built here (pip install -e . with a C compiler): nothing to compare")
    if accelerated("1"):
        raise SystemExit("YTOURNEY_PURE_PYTHON=1 did not switch the C core off")
    with tempfile.TemporaryDirectory() as folder:
        configs = workloads(Path(folder), args.ladder_games, args.random_games)
        for name, config in configs.items():
            if args.only and name not in args.only:
                continue
            runs: dict[str, list[Run]] = {label: [] for label, _ in MODES}
            for repeat in range(args.repeats):
                for label, pure in MODES if repeat % 2 == 0 else MODES[::-1]:
                    run = run_once(config, pure, args.workers)
                    runs[label].append(run)
                    print(f"  {name:10s} {label:11s} {run.games:5d} games  {run.wall:7.1f} s wall  "
                          f"{run.cpu_ms_per_game:9.2f} CPU ms/game", flush=True)
            wall = {label: statistics.median(r.wall for r in rs) for label, rs in runs.items()}
            cpu = {label: statistics.median(r.cpu_ms_per_game for r in rs) for label, rs in runs.items()}
            spread = {label: (min(r.cpu_ms_per_game for r in rs), max(r.cpu_ms_per_game for r in rs))
                      for label, rs in runs.items()}
            print(f"{name}: median wall C {wall['C core']:.1f} s, pure {wall['pure Python']:.1f} s "
                  f"(pure / C {wall['pure Python'] / wall['C core']:.2f}); median CPU ms/game "
                  f"C {cpu['C core']:.2f} [{spread['C core'][0]:.2f}-{spread['C core'][1]:.2f}], "
                  f"pure {cpu['pure Python']:.2f} [{spread['pure Python'][0]:.2f}-{spread['pure Python'][1]:.2f}] "
                  f"(pure / C {cpu['pure Python'] / cpu['C core']:.2f})", flush=True)


if __name__ == "__main__":
    main()
