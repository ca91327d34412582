"""Benchmark: `ytourney publish` of a 50,000-game results folder against a 5,000-game one.

Both folders are written straight through the store API with random-bot-like records (8 players on tri:9, random
legal move lists of 20 to 45 stones, winners drawn from fixed strengths), not by playing. Each publish runs in a
fresh process, which reports its wall time and its peak memory above what the imports took. Per game, the large
folder must stay within 2x of the small one in time and in memory, and no page may be over about 2 MB.

Run: PYTHONPATH=. python benchmarks/bench_publish.py [--small 5000] [--large 50000] [--repeat 1] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ytourney.boards.board import parse_board  # noqa: E402
from ytourney.games.record import GameRecord  # noqa: E402
from ytourney.games.api import Color  # noqa: E402
from ytourney.games.y.rules import Rules  # noqa: E402
from ytourney.tournament.store import ResultStore, StoredPlayer  # noqa: E402
from ytourney.games.y.state import CONNECTION

BOARD = "tri:9"
PLAYERS = tuple(f"bot-{k}" for k in range(8))
STRENGTH = {name: 0.4 * k for k, name in enumerate(PLAYERS)}
MAX_RATIO = 2.0
MAX_PAGE_BYTES = 2_000_000


def make_folder(folder: Path, games: int, seed: int) -> None:
    """A results folder of `games` random-bot-like games, written through the store."""
    rng = random.Random(seed)
    board = parse_board(BOARD)
    names = list(board.names)
    config = json.dumps({"name": folder.name, "board": BOARD, "players": [{"name": p, "bot": "random"}
                                                                          for p in PLAYERS]})
    with ResultStore.open(folder, name=folder.name, config_text=config, config_hash=folder.name,
                          config_key={"bench": folder.name}, planned_games=games,
                          players=[StoredPlayer(p, "random", "builtin") for p in PLAYERS]) as store:
        for game_id in range(1, games + 1):
            first, second = rng.sample(PLAYERS, 2)
            moves = tuple(rng.sample(names, rng.randint(20, 45)))
            edge = STRENGTH[first] - STRENGTH[second]
            first_wins = rng.random() < 1 / (1 + 10 ** (-edge))
            winner = Color.BLACK if first_wins else Color.WHITE
            store.add_game(GameRecord(game="y",
                tournament=folder.name, round=game_id // 28 + 1, board=BOARD, rules=Rules(pie=True), handicap=0,
                first=first, second=second, black=first, white=second, moves=moves, winner=winner,
                termination=CONNECTION, move_seconds=tuple(0.01 for _ in moves), seed=game_id,
                started="2026-11-30T12:00:00Z", finished="2026-11-30T12:00:01Z", id=game_id))


def rss_kb() -> int:
    """Resident memory of this process now, in KiB."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() // 1024


def publish_once(folder: str, out: str) -> None:
    """Child process: publish `folder` into `out` and print the figures as JSON."""
    from ytourney.publish.live import publish_results

    before = rss_kb()
    begin = time.perf_counter()
    result = publish_results([folder], out)
    seconds = time.perf_counter() - begin
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    files = [p for p in Path(out).rglob("*") if p.is_file()]
    pages = [p for p in files if p.suffix == ".html"]
    largest = max(pages, key=lambda p: p.stat().st_size)
    print(json.dumps({"games": result.games, "seconds": seconds, "peak_kb": peak - before, "pages": len(pages),
                      "largest_page": largest.stat().st_size, "largest_name": str(largest.relative_to(out)),
                      "largest_file": max(p.stat().st_size for p in files),
                      "bytes": sum(p.stat().st_size for p in files)}))


def measure(folder: Path, out: Path) -> dict[str, float]:
    done = subprocess.run([sys.executable, __file__, "--child", str(folder), str(out)], check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=5_000)
    parser.add_argument("--large", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=1, help="publishes per size (the fastest one counts)")
    parser.add_argument("--keep", type=Path, default=None, help="keep the folders and sites here")
    parser.add_argument("--child", nargs=2, metavar=("FOLDER", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        publish_once(*args.child)
        return 0
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-publish-"))
    figures = {}
    for size in (args.small, args.large):
        folder = work / f"results-{size}"
        if not (folder / "tournament.db").is_file():
            begin = time.perf_counter()
            make_folder(folder, size, seed=size)
            print(f"made a {size}-game folder in {time.perf_counter() - begin:.1f} s", flush=True)
        runs = []
        for k in range(args.repeat):
            runs.append(measure(folder, work / f"site-{size}-{k}"))
        best = min(runs, key=lambda r: r["seconds"])
        best["peak_kb"] = max(r["peak_kb"] for r in runs)
        figures[size] = best
        print(f"{size:>6} games: {best['seconds']:7.1f} s ({1000 * best['seconds'] / size:.2f} ms/game, runs: "
              + ", ".join(f"{r['seconds']:.1f}" for r in runs) + f"), peak +{best['peak_kb'] / 1024:.0f} MiB "
              f"({best['peak_kb'] / size:.1f} KiB/game), {best['pages']} pages, {best['bytes'] / 2**20:.0f} MiB, "
              f"largest page {best['largest_page'] / 1024:.0f} KiB ({best['largest_name']}), largest file "
              f"{best['largest_file'] / 1024:.0f} KiB", flush=True)
    small, large = figures[args.small], figures[args.large]
    time_ratio = (large["seconds"] / args.large) / (small["seconds"] / args.small)
    memory_ratio = (large["peak_kb"] / args.large) / (small["peak_kb"] / args.small)
    print(f"per game, {args.large} vs {args.small}: time x{time_ratio:.2f}, peak memory x{memory_ratio:.2f} "
          f"(limit x{MAX_RATIO:g})")
    worst_page = max(small["largest_page"], large["largest_page"])
    ok = time_ratio <= MAX_RATIO and memory_ratio <= MAX_RATIO and worst_page <= MAX_PAGE_BYTES
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
