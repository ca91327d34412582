"""Move generation of every registered game against Y on kadon, the baseline, in the same process.

For each game on its default board: legal-move lists per second (the `legal_moves` of positions sampled from random
games, each asked on a fresh copy so no cache answers) and whole random games per second through the game API
(`legal_moves` -> a random Move -> `play`, what the random bot and the generic mcts's playouts run). Printed: each
figure, moves per position, plies per game, and the ratio to Y on kadon.

    python benchmarks/bench_games.py [--seconds 2] [--only tetra]
"""

from __future__ import annotations

import argparse
import random
import time

from ytourney.games.api import State
from ytourney.games.registry import game_names, get_game

BASELINE = ("y", "kadon")


def new_state(name: str, board_spec: str | None = None) -> State:
    game = get_game(name)
    board = game.parse_board(board_spec or game.default_board)
    return game.new_state(board, game.parse_rules(None))


def random_games(name: str, board_spec: str | None, seconds: float, seed: int = 1) -> tuple[float, float, list[State]]:
    """Random games per CPU second, plies per game, and positions sampled along the way."""
    rng = random.Random(seed)
    games = plies = 0
    samples: list[State] = []
    start = time.process_time()
    while time.process_time() - start < seconds or games < 3:
        state = new_state(name, board_spec)
        while state.outcome is None:
            if rng.random() < 0.05 and len(samples) < 2000:
                samples.append(state.copy())
            state.play(rng.choice(state.legal_moves()))
            plies += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, plies / games, samples


def legal_lists(samples: list[State], seconds: float) -> tuple[float, float]:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    parser.add_argument("--only", action="append", help="measure only these games (the baseline always)")
    args = parser.parse_args()
    rows = [(BASELINE[0], BASELINE[1])] + [(name, None) for name in game_names()
                                           if name != "y" and (not args.only or name in args.only)]
    results = {}
    for name, spec in rows:
        games_rate, plies, samples = random_games(name, spec, args.seconds)
        lists_rate, per_list = legal_lists(samples, args.seconds)
        results[(name, spec)] = (games_rate, plies, lists_rate, per_list)
    base_games, _, base_lists, _ = results[BASELINE]
    base_moves = base_lists * results[BASELINE][3]
    print(f"{'game':16s} {'board':8s} {'legal lists/s':>14s} {'moves/list':>10s} {'legal moves/s':>14s} {'ratio':>6s}  "
          f"{'random games/s':>14s} {'plies/game':>10s} {'ratio':>6s}")
    for (name, spec), (games_rate, plies, lists_rate, per_list) in results.items():
        board = spec or get_game(name).default_board
        moves_rate = lists_rate * per_list
        print(f"{name:16s} {board:8s} {lists_rate:14.0f} {per_list:10.1f} {moves_rate:14.0f} "
              f"{moves_rate / base_moves:6.2f}  {games_rate:14.1f} {plies:10.1f} {games_rate / base_games:6.2f}")
    print(f"baseline: {BASELINE[0]} on {BASELINE[1]} through the same API (ratios are game / baseline)")


if __name__ == "__main__":
    main()
