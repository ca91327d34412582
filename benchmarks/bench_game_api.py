"""Did moving Y onto the game API cost speed? This tree against the named baseline, ytourney before the API.

The baseline is commit 73a601e (the last one before the game API), exported from this repository's history into a
temporary folder and built in place (its C core included). Both trees are measured in the same run, alternating:

  (a) move by move: random tri:11 games through the Y state's `play` (cell indices, what Y's own bots and the
      C core run), in a fresh interpreter per tree, C core and pure Python; and, for this tree, the same games
      through the game API (`legal_moves` -> Move -> `play`, what the referee and generic bots run);
  (b) tournament CPU per game: `python -m ytourney run` of a 4-random-bot round-robin on tri:11 and of
      configs/quickstart.yaml, CPU of the command and its workers per stored game.

Printed: each figure and the ratio this tree / baseline (above 1: this tree is faster for moves, for CPU per game
read it as baseline / this tree so above 1 is better too).

    python benchmarks/bench_game_api.py [--repeats 3] [--random-games 1500] [--baseline 73a601e]
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "73a601e"

MOVES_CODE = """
import random, time, sys
from {module} import GameState, PyGameState
from {board_module} import parse_board
cls = PyGameState if {pure} else GameState
board = parse_board("tri:11")
rng = random.Random(1)
orders = []
for _ in range({games}):
    cells = list(range(board.num_cells))
    rng.shuffle(cells)
    orders.append(cells)
best = 0.0
for _ in range({repeats}):
    moves = 0
    start = time.process_time()
    for cells in orders:
        state = cls(board)
        for cell in cells:
            if state.play(cell) is not None:
                break
        moves += len(state.moves)
    best = max(best, moves / (time.process_time() - start))
print(best)
"""

API_CODE = """
import random, time
from ytourney.games.registry import get_game
game = get_game("y")
board = game.parse_board("tri:11")
rules = game.parse_rules({{"pie": False}})
rng = random.Random(1)
best = 0.0
for _ in range({repeats}):
    moves = 0
    start = time.process_time()
    for _ in range({games}):
        state = game.new_state(board, rules)
        while state.outcome is None:
            state.play(rng.choice(state.legal_moves()))
        moves += len(state.history)
    best = max(best, moves / (time.process_time() - start))
print(best)
"""


def export_baseline(commit: str, folder: Path) -> Path:
    """The baseline tree, exported from git and built in place (C core where a compiler exists)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=folder, check=True,
                   capture_output=True)
    return folder


def environment(tree: Path, pure: bool = False) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree), "YTOURNEY_PURE_PYTHON": "1" if pure else "0"}


def python(tree: Path, code: str, pure: bool = False) -> float:
    result = subprocess.run([sys.executable, "-c", code], env=environment(tree, pure), capture_output=True,
                            text=True, check=True, cwd=tree)
    return float(result.stdout.strip())


def moves_per_second(tree: Path, baseline: bool, pure: bool, games: int, repeats: int) -> float:
    module = "ytourney.game.state" if baseline else "ytourney.games.y.state"
    board_module = "ytourney.game.board" if baseline else "ytourney.boards.board"
    return python(tree, MOVES_CODE.format(module=module, board_module=board_module, pure=pure, games=games,
                                          repeats=repeats), pure)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_per_game(tree: Path, config: Path) -> float:
    """CPU milliseconds per stored game of one `ytourney run` of `config` with `tree`'s code."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out"
        before = children_cpu()
        subprocess.run([sys.executable, "-m", "ytourney", "run", str(config), "--out", str(out), "--quiet"],
                       env=environment(tree), cwd=tree, stdout=subprocess.DEVNULL, check=True)
        used = children_cpu() - before
        games = int(subprocess.run(
            [sys.executable, "-c", f"import sqlite3; print(sqlite3.connect({str(out / 'tournament.db')!r})"
                                   ".execute('select count(*) from games').fetchone()[0])"],
            capture_output=True, text=True, check=True).stdout)
    return 1000 * used / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=3000, help="games per move-by-move measurement")
    parser.add_argument("--random-games", type=int, default=1500, help="games of the random round-robin")
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        base = export_baseline(args.baseline, Path(scratch) / "baseline")
        trees = {"baseline": base, "this tree": ROOT}
        print(f"baseline: ytourney at {args.baseline} (before the game API), built in {base}")

        print("(a) tri:11 random games, moves per CPU second (best of repeats)")
        for pure in (False, True):
            label = "pure Python" if pure else "C core"
            old = moves_per_second(base, True, pure, args.games, args.repeats)
            new = moves_per_second(ROOT, False, pure, args.games, args.repeats)
            print(f"    Y state play, {label:11s}: baseline {old / 1e6:6.2f} M/s  this tree {new / 1e6:6.2f} M/s  "
                  f"ratio {new / old:.3f}")
            api = python(ROOT, API_CODE.format(games=args.games // 3, repeats=args.repeats), pure)
            print(f"    game API (legal_moves + Move), {label}: {api / 1e6:6.2f} M/s "
                  f"({api / new:.2f} of the state's own play)")

        configs = {}
        players = [{"name": f"random-{i}", "bot": "random"} for i in range(1, 5)]
        random_rr = {"name": "random-rr", "board": "tri:11", "seed": 1, "players": players,
                     "schedule": {"format": "round-robin", "games_per_pair": max(2, args.random_games // 6)}}
        configs["random round-robin"] = Path(scratch) / "random.yaml"
        configs["random round-robin"].write_text(yaml.safe_dump(random_rr))
        configs["quickstart"] = ROOT / "configs" / "quickstart.yaml"
        print("(b) tournament CPU per game (ms, median of repeats, trees alternating)")
        for name, config in configs.items():
            runs: dict[str, list[float]] = {label: [] for label in trees}
            for repeat in range(args.repeats):
                order = list(trees.items()) if repeat % 2 == 0 else list(trees.items())[::-1]
                for label, tree in order:
                    runs[label].append(cpu_per_game(tree, config))
            old, new = (statistics.median(runs[label]) for label in trees)
            print(f"    {name:20s}: baseline {old:7.2f} ms/game  this tree {new:7.2f} ms/game  "
                  f"ratio baseline/this {old / new:.3f}  (runs {runs})")


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"done in {time.perf_counter() - started:.0f} s")
