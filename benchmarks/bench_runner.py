"""Benchmark: tournament throughput with 2 workers and every game stored, against a plain one-process loop.

Baseline (same run, same engine): `play_game` between two random bots in a loop, nothing stored.
Tournament: `Runner` on a random-vs-random round-robin on tri:11 with 2 worker processes, each game its own
SQLite transaction. The ratio is tournament games/s over loop games/s; 2.0 is perfect on 2 cores.
Memory, at 5,000 and 50,000 games (3 random players on tri:7, 2 workers), each in a fresh subprocess: the peak
RSS (VmHWM) of a process that only runs the tournament (`Runner`), and the peak RSS of the whole
`ytourney run CONFIG` command, final rating table included (ru_maxrss of its process tree: the largest process).
Flat means the 50,000-game figure is within 20% of the 5,000-game one.

    python benchmarks/bench_runner.py                 # throughput (4,000 games, best of 3) and memory
    python benchmarks/bench_runner.py --games 10000 --no-memory
    python benchmarks/bench_runner.py --memory        # memory only
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from ytourney.games.registry import get_game
from ytourney.players import create_bot, parse_bot_spec
from ytourney.tournament.config import parse_config
from ytourney.tournament.match import Seat, play_game
from ytourney.tournament.run import Runner
from ytourney.tournament.store import stored_count


def tournament_config(games: int, board: str = "tri:11", players: int = 2):
    names = "".join(f"  - {{name: random-{i}, bot: random}}\n" for i in range(1, players + 1))
    pairs = players * (players - 1) // 2
    text = f"name: bench\nboard: {board}\nseed: 1\nschedule: {{games_per_pair: {games // pairs}}}\nplayers:\n{names}"
    return parse_config(textwrap.dedent(text), "bench.yaml")


def cpu_seconds() -> float:
    """CPU seconds used by this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def loop_rate(games: int, board: str = "tri:11") -> tuple[float, float]:
    """Games per second of a plain loop in this process, and CPU milliseconds per game."""
    bots = [create_bot(parse_bot_spec("random", get_game("y")), 1), create_bot(parse_bot_spec("random", get_game("y")), 2)]
    seats = [Seat("random-1", bots[0]), Seat("random-2", bots[1])]
    begin, cpu = time.perf_counter(), cpu_seconds()
    for seed in range(games):
        play_game(seats if seed % 2 == 0 else seats[::-1], board, seed=seed)
    return games / (time.perf_counter() - begin), 1000 * (cpu_seconds() - cpu) / games


def tournament_rate(games: int, workers: int) -> tuple[float, float]:
    """Games per second of a full tournament run (workers started, every game stored), and CPU ms per game."""
    config = tournament_config(games)
    with tempfile.TemporaryDirectory() as folder:
        begin, cpu = time.perf_counter(), cpu_seconds()
        summary = Runner(config, Path(folder) / "out", workers=workers).run()
        seconds, used = time.perf_counter() - begin, cpu_seconds() - cpu
        stored = stored_count(Path(folder) / "out")
    if stored != games or summary.stored != games:
        raise SystemExit(f"expected {games} stored games, found {stored}")
    return games / seconds, 1000 * used / games


def _burn(loops: int) -> float:
    """Pure-Python busy loop; returns its wall seconds."""
    begin = time.perf_counter()
    total = 0
    for i in range(loops):
        total += i * i
    return time.perf_counter() - begin


def machine_speedup(workers: int, loops: int = 10_000_000) -> float:
    """What this machine gives right now: the speedup of `workers` pure CPU burners run in parallel over one."""
    import multiprocess

    one = min(_burn(loops) for _ in range(2))
    with multiprocess.get_context().Pool(workers) as pool:
        begin = time.perf_counter()
        pool.map(_burn, [loops] * workers)
        together = time.perf_counter() - begin
    return workers * one / together


MEMORY_PLAYERS = 3
MEMORY_BOARD = "tri:7"


def peak_rss_child(games: int) -> None:
    """(subprocess) run `games` games with 2 workers and print this process's peak RSS in MiB."""
    config = tournament_config(games, board=MEMORY_BOARD, players=MEMORY_PLAYERS)
    with tempfile.TemporaryDirectory() as folder:
        begin = time.perf_counter()
        Runner(config, Path(folder) / "out", workers=2).run()
        seconds = time.perf_counter() - begin
        stored = stored_count(Path(folder) / "out")
    status = Path("/proc/self/status").read_text()
    peak_kib = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))
    print(f"{stored} {peak_kib / 1024:.1f} {seconds:.1f}")


def peak_rss_cli_child(games: int) -> None:
    """(subprocess) run `ytourney run` on a `games`-game config and print the peak RSS of its process tree in MiB
    (this helper's children: the command and the workers it reaped), stored games and seconds."""
    pairs = MEMORY_PLAYERS * (MEMORY_PLAYERS - 1) // 2
    names = "".join(f"  - {{name: random-{i}, bot: random}}\n" for i in range(1, MEMORY_PLAYERS + 1))
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "memory.yaml"
        config.write_text(f"name: memory\nboard: {MEMORY_BOARD}\nseed: 1\n"
                          f"schedule: {{games_per_pair: {games // pairs}}}\nplayers:\n{names}")
        begin = time.perf_counter()
        subprocess.run([sys.executable, "-m", "ytourney", "run", str(config), "--out", str(Path(folder) / "out"),
                        "--workers", "2", "--quiet"], check=True, stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - begin
        stored = stored_count(Path(folder) / "out")
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
    print(f"{stored} {peak_kib / 1024:.1f} {seconds:.1f}")


def memory(counts: list[int]) -> None:
    """Peak RSS of subprocess runs of each size: the run alone, then the whole CLI command."""
    for what, flag in (("run (Runner only)", "--child-memory"), ("ytourney run CLI", "--child-cli-memory")):
        results = []
        for games in counts:
            out = subprocess.run([sys.executable, __file__, flag, str(games)], capture_output=True, text=True,
                                 check=True)
            stored, peak, seconds = out.stdout.split()
            results.append(float(peak))
            print(f"memory: {what:<18} {int(stored):>6} games stored  peak RSS {float(peak):6.1f} MiB  ({seconds}s)")
        growth = results[-1] / results[0] - 1
        print(f"memory: {what:<18} peak RSS grows {100 * growth:+.1f}% from {counts[0]} to {counts[-1]} games "
              "(target within 20%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-memory", action="store_true", help="throughput only")
    parser.add_argument("--memory", action="store_true", help="memory only (run and CLI at 5,000 and 50,000 games)")
    parser.add_argument("--child-memory", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--child-cli-memory", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_memory:
        peak_rss_child(args.child_memory)
        return
    if args.child_cli_memory:
        peak_rss_cli_child(args.child_cli_memory)
        return
    if args.memory:
        memory([5000, 50000])
        return
    loops, tours, loop_cpu, tour_cpu, machine = [], [], [], [], []
    for _ in range(args.repeat):  # interleaved, so all three see the same machine load
        machine.append(machine_speedup(args.workers))
        rate, cpu = loop_rate(args.games)
        loops.append(rate)
        loop_cpu.append(cpu)
        rate, cpu = tournament_rate(args.games, args.workers)
        tours.append(rate)
        tour_cpu.append(cpu)
    loop, tour = max(loops), max(tours)
    print(f"baseline: plain loop, 1 process, nothing stored: {loop:8.0f} games/s "
          f"(runs: {', '.join(f'{r:.0f}' for r in loops)}; {min(loop_cpu):.3f} CPU ms/game)")
    print(f"ytourney: {args.workers} workers, {args.games} games stored: {tour:8.0f} games/s "
          f"(runs: {', '.join(f'{r:.0f}' for r in tours)}; {min(tour_cpu):.3f} CPU ms/game, all processes)")
    print(f"ratio: {tour / loop:.2f} (best runs; median {statistics.median(tours) / statistics.median(loops):.2f}; "
          f"2.0 is perfect on 2 cores, target >= 1.5)")
    print(f"machine check: {args.workers} pure CPU burners run {max(machine):.2f}x as fast as one right now "
          f"(runs: {', '.join(f'{m:.2f}' for m in machine)}); ytourney reaches "
          f"{100 * (tour / loop) / max(machine):.0f}% of that")
    print(f"cpu-bound ratio on {args.workers} idle cores: {args.workers * min(loop_cpu) / min(tour_cpu):.2f} "
          f"(from CPU time per game; what the wall ratio approaches when nothing else runs)")
    load = os.getloadavg()[0]
    if load > args.workers + 0.5:
        print(f"note: load average {load:.1f} on this machine: other processes compete, wall figures are noisy")
    if not args.no_memory:
        memory([5000, 50000])


if __name__ == "__main__":
    main()
