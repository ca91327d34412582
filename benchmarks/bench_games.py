"""Every game's speed against Y on kadon (the baseline in the same run) and against the named baseline tree.

For each game on its default board, through the game API that the referee, the random bot and plugins use:
random plies per CPU second (`legal_moves` -> a random Move -> `play`, whole games) and legal-move lists per CPU
second (the `legal_moves` of positions sampled from random games, each asked on a fresh copy so no cache answers).
The ratio column divides by Y on kadon measured the same way in the same process; run it twice, plain and with
YTOURNEY_PURE_PYTHON=1, to compare Python with Python. With `--baseline COMMIT` (default 61285af, the tree before
the kernels) that tree is exported from this repository's history and measured by this same script in a fresh
interpreter, and the last columns are this tree / that tree for each figure, and for move generation below the
front ('gen/s': the kernel's `legal_actions` on the sampled positions; that tree's uncached `generate_moves`).

    python benchmarks/bench_games.py [--seconds 2] [--only tetra] [--baseline 61285af | --no-baseline]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE_GAME = ("y", "kadon")
BASELINE_TREE = "61285af"


def random_games(name: str, board_spec: str | None, seconds: float, seed: int = 1) -> tuple[float, float, list]:
    """Random plies per CPU second, plies per game, and positions sampled along the way."""
    from ytourney.games.registry import get_game  # noqa: PLC0415 - the tree on the path when measured

    game = get_game(name)
    board = game.parse_board(board_spec or game.default_board)
    rules = game.parse_rules(None)
    rng = random.Random(seed)
    games = plies = 0
    samples = []
    start = time.process_time()
    while time.process_time() - start < seconds or games < 3:
        state = game.new_state(board, rules)
        while state.outcome is None:
            if rng.random() < 0.05 and len(samples) < 2000:
                samples.append(state.copy())
            state.play(rng.choice(state.legal_moves()))
            plies += 1
        games += 1
    elapsed = time.process_time() - start
    return plies / elapsed, plies / games, samples


def legal_lists(samples: list, seconds: float) -> tuple[float, float]:
    """Legal-move lists per CPU second over the sampled positions (each on a fresh copy), and moves per list."""
    copies = [s.copy() for s in samples]
    count = moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for state in copies:
            moves += len(state.legal_moves())
            count += 1
        copies = [s.copy() for s in samples]  # outside the measured calls' caches, inside the clock: both sides pay
    elapsed = time.process_time() - start
    return count / elapsed, moves / max(count, 1)


def generations(samples: list, seconds: float) -> float:
    """Move generations per CPU second over the sampled positions, below the front: the kernel's `legal_actions`
    (the tree before the kernels: its state's uncached `generate_moves`; Y: `legal_moves`)."""
    calls = []
    for state in samples:
        kernel = getattr(state, "kernel", None)
        calls.append(getattr(kernel, "legal_actions", None) or getattr(state, "generate_moves", None)
                     or state.legal_moves)
    count = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for call in calls:
            call()
        count += len(calls)
    return count / (time.process_time() - start)


def measure(names: list[str], seconds: float) -> dict[str, list[float]]:
    """Each game's [plies/s, plies/game, lists/s, moves/list, generations/s], the baseline game's under
    'baseline'."""
    from ytourney.games.registry import get_game  # noqa: PLC0415

    results = {}
    for key, name, spec in [("baseline", *BASELINE_GAME)] + [(name, name, None) for name in names]:
        plies_rate, plies, samples = random_games(name, spec, seconds)
        lists_rate, per_list = legal_lists(samples, seconds)
        results[key] = [plies_rate, plies, lists_rate, per_list, generations(samples, seconds)]
    results["boards"] = {name: get_game(name).default_board for name in names}  # type: ignore[assignment]
    return results


def export_tree(commit: str, into: Path) -> Path:
    """A tree of this repository's history exported and built in place (its C extensions included)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=into, check=True, capture_output=True)
    return into


def measure_in(tree: Path, names: list[str], seconds: float) -> dict[str, list[float]]:
    """`measure` run by this script in a fresh interpreter on `tree`."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    argv = [sys.executable, __file__, "--emit-json", "--seconds", str(seconds)] + [f"--only={n}" for n in names]
    done = subprocess.run(argv, env=env, check=True, capture_output=True, text=True, cwd=tree)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    parser.add_argument("--only", action="append", help="measure only these games (Y on kadon always)")
    parser.add_argument("--baseline", default=BASELINE_TREE, help="the tree to compare with (a commit)")
    parser.add_argument("--no-baseline", action="store_true", help="measure this tree only")
    parser.add_argument("--emit-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.emit_json:
        print(json.dumps(measure(args.only or [], args.seconds)))
        return
    sys.path.insert(0, str(ROOT))
    from ytourney.games.registry import game_names  # noqa: PLC0415

    names = [name for name in game_names() if name != "y" and (not args.only or name in args.only)]
    now = measure_in(ROOT, names, args.seconds)
    before = None
    if not args.no_baseline:
        with tempfile.TemporaryDirectory() as folder:
            before = measure_in(export_tree(args.baseline, Path(folder)), names, args.seconds)
    base_plies, _, base_lists, base_per_list, _ = now["baseline"]
    head = (f"{'game':16s} {'board':7s} {'plies/s':>9s} {'plies/game':>10s} {'x Y':>6s}  {'lists/s':>9s} "
            f"{'moves/list':>10s} {'x Y':>6s}")
    if before is not None:
        head += (f"  {'plies/s ' + args.baseline:>16s} {'x':>6s}  {'lists/s ' + args.baseline:>16s} {'x':>6s}"
                 f"  {'gen/s':>8s} {'gen/s ' + args.baseline:>14s} {'x':>6s}")
    print(head)
    for name in names:
        plies_rate, plies, lists_rate, per_list, generated = now[name]
        line = (f"{name:16s} {now['boards'][name]:7s} {plies_rate:9.0f} {plies:10.1f} {plies_rate / base_plies:6.3f}  "
                f"{lists_rate:9.0f} {per_list:10.1f} {lists_rate * per_list / (base_lists * base_per_list):6.3f}")
        if before is not None:
            old_plies, _, old_lists, _, old_generated = before[name]
            line += (f"  {old_plies:16.0f} {plies_rate / old_plies:6.2f}  {old_lists:16.0f} {lists_rate / old_lists:6.2f}"
                     f"  {generated:8.0f} {old_generated:14.0f} {generated / old_generated:6.2f}")
        print(line)
    print(f"Y on kadon in the same run: {base_plies:.0f} random plies/s, {base_lists:.0f} legal lists/s "
          f"({base_per_list:.1f} moves a list); 'x Y' columns: plies/s and legal moves/s as a share of Y's"
          + ("" if before is None else f"; 'x' columns: this tree / {args.baseline}, same script, same seconds"))
    print("the old 'lists/s' is inflated: that tree's state copy carried its cached move list into the copy")
    print("core:", "pure Python" if os.environ.get("YTOURNEY_PURE_PYTHON") == "1" else "C where built")


if __name__ == "__main__":
    main()
