"""The generic `mcts` of every game: simulations per second of this tree's search library against the named
baseline, the generic UCT before the kernels (commit 61285af), on the same positions.

The baseline tree is exported from this repository's history into a temporary folder and built in place. For every
game, the same positions (sampled from seeded random games, passed as move notation) are searched by each tree's
generic `mcts` (`playouts` fixed, each game's own defaults), in a fresh interpreter per tree, alternating trees
over `--repeats`; the best CPU rate of each is kept. Printed: simulations per CPU second of each tree and the ratio
(above 1: this tree is faster), then the same for the game's share of the search: one more run under cProfile,
its time outside the search's own modules (the tree, selection and backup: search/, the bot) per simulation, which
is what a game's kernel and knowledge cost. Y is shown too, though its tournaments use its tuned `mcts`.

    python benchmarks/bench_search.py [--playouts 300] [--positions 8] [--repeats 2] [--only tetra]
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "61285af"

SEARCH_CODE = """
import json, sys, time
from ytourney.games.bot import Limit
from ytourney.games.registry import get_game
try:
    from ytourney.players.bots.mcts_bot import MctsBot as bot_class
except ImportError:  # the baseline tree: the generic UCT before the search library
    from ytourney.players.bots.uct import UctBot as bot_class
spec = json.loads(sys.argv[1])
game = get_game(spec["game"])
board = game.parse_board(spec["board"])
rules = game.parse_rules(spec["rules"])
states = []
for line in spec["positions"]:
    state = game.new_state(board, rules)
    for token in line:
        state.play(game.parse_move(board, token))
    states.append(state)
def search_all():
    simulations = 0
    for index, state in enumerate(states):
        bot = bot_class(seed=index, playouts=spec["playouts"])
        bot.new_game(board, rules, state.to_move)
        bot.move(state.copy(), Limit())
        last = getattr(bot, "last_search", None)  # the search library counts its simulations (a proof stops early)
        simulations += spec["playouts"] if last is None else last.simulations
    return simulations

best = 0.0
for _ in range(spec["repeats"]):
    start = time.process_time()
    simulations = search_all()
    best = max(best, simulations / (time.process_time() - start))
# the game's share: the profile's time outside the search's own functions (tree, selection, backup), per simulation
import cProfile, pstats
profile = cProfile.Profile()
profile.enable()
simulations = search_all()
profile.disable()
stats = pstats.Stats(profile).stats
total = sum(row[2] for row in stats.values())
OWN = ("/search/", "/players/bots/uct.py", "/players/bots/mcts_bot.py")
own = sum(row[2] for (filename, _, _), row in stats.items() if any(part in filename for part in OWN))
print(best, simulations / (total - own))
"""


def export_baseline(commit: str, into: Path) -> Path:
    """The baseline tree exported and built in place (its C extensions included)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=into, check=True,
                   capture_output=True)
    return into


def positions(game_name: str, count: int, seed: int) -> tuple[str, dict[str, object], list[list[str]]]:
    """Positions from seeded random games of this tree, as move notation both trees read."""
    sys.path.insert(0, str(ROOT))
    from ytourney.games.registry import get_game  # noqa: PLC0415 - this tree, after the path is set

    game = get_game(game_name)
    board_spec = "tri:11" if game_name == "y" else game.default_board
    board = game.parse_board(board_spec)
    rules = {"pie": False} if "pie" in game.rule_options else {}
    rng = random.Random(seed)
    found: list[list[str]] = []
    while len(found) < count:
        state = game.new_state(board, game.parse_rules(rules))
        plies = rng.randrange(2, 60)
        played: list[str] = []
        for _ in range(plies):
            moves = [m for m in state.legal_moves() if not m.is_swap and not m.is_pass] or state.legal_moves()
            move = rng.choice(moves)
            state.play(move)
            if state.is_over:
                break
            played.append(game.format_move(board, move))
        knowledge = game.knowledge(board, state.rules)
        kernel = state.search_kernel()
        if not state.is_over and not knowledge.urgent_actions(kernel) and knowledge.winning_action(kernel) is None:
            found.append(played)  # a position both trees search (neither plays a win in one or a forced move)
    return board_spec, rules, found


def rates(tree: Path, spec: dict[str, object]) -> tuple[float, float]:
    """Simulations per CPU second of one tree's generic mcts over the positions, and per second of the game's share
    of it (under the profiler: the time outside the search's own functions)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", SEARCH_CODE, json.dumps(spec)], env=env, check=True,
                          capture_output=True, text=True, cwd=tree)
    whole, game = done.stdout.strip().splitlines()[-1].split()
    return float(whole), float(game)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--only", action="append")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from ytourney.games.registry import game_names  # noqa: PLC0415

    names = [name for name in game_names() if not args.only or name in args.only]
    with tempfile.TemporaryDirectory() as folder:
        baseline = export_baseline(args.baseline, Path(folder))
        print(f"{'game':16s} {'sims/s now':>11s} {'sims/s ' + args.baseline:>15s} {'ratio':>6s}   "
              f"{'game share now':>14s} {'game share ' + args.baseline:>19s} {'ratio':>6s}")
        for name in names:
            board, rules, lines = positions(name, args.positions, seed=7)
            spec = {"game": name, "board": board, "rules": rules, "positions": lines, "playouts": args.playouts,
                    "repeats": 1}
            now = before = (0.0, 0.0)
            for _ in range(args.repeats):
                now = tuple(map(max, now, rates(ROOT, spec)))
                before = tuple(map(max, before, rates(baseline, spec)))
            print(f"{name:16s} {now[0]:11.0f} {before[0]:15.0f} {now[0] / before[0]:6.2f}   "
                  f"{now[1]:14.0f} {before[1]:19.0f} {now[1] / before[1]:6.2f}", flush=True)
    print(f"baseline: the generic mcts of commit {args.baseline}, same positions, same playouts, CPU time; 'game share':"
          " simulations per second of the profiled time spent outside the search's own code (kernel, moves, playouts,"
          " evaluation, knowledge)")


if __name__ == "__main__":
    main()
