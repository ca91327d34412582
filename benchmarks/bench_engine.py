"""Engine speed against OpenSpiel's Y in the same process: (a) random games move by move through the public game
API (the C-core GameState and the pure-Python one), (b) the playout kernel the `mcts` bot runs, called as mcts
calls it and in big batches, against OpenSpiel's C++ random rollouts.

    python benchmarks/bench_engine.py [--quick]

Times are the CPU time of this process (every measured path is single-threaded), best of several runs, so other
work on the machine disturbs the figures less. Without open_spiel importable the OpenSpiel baselines are reported
as missing and only our own figures (and the plain-Python baseline for (b)) are printed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from ytourney.boards.board import Board, parse_board
from ytourney.games.y.playout import RandomFill
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CGameState, GameState, PyGameState
from ytourney.games.y.bots.mcts import DEFAULT_BATCH, DEFAULT_LEAVES

BIG_BATCH = 4096  # playouts of one position in one call: big, yet its (playouts x cells) keys fit in cache-sized memory

try:  # optional bench extra; never imported by the library or the tests
    import pyspiel
except ImportError:  # pragma: no cover - depends on the machine
    pyspiel = None


def best_rate(work: Callable[[], int], repeats: int) -> float:
    """Best units per CPU second over `repeats` runs of `work` (which returns the units it did)."""
    best = 0.0
    for _ in range(repeats):
        start = time.process_time()
        units = work()
        elapsed = time.process_time() - start
        best = max(best, units / max(elapsed, 1e-9))
    return best


def spiel_action(board: Board, cell: int) -> int:
    """OpenSpiel's action for a tri cell: x + y * board_size (checked in `check_spiel_mapping`)."""
    x, y = board.coords[cell]
    return x + y * board.size


def check_spiel_mapping(board: Board) -> None:
    """OpenSpiel's legal actions on the empty board and their names must be exactly our cells."""
    game = pyspiel.load_game("y", {"board_size": board.size})
    state = game.new_initial_state()
    actions = state.legal_actions()
    ours = sorted(spiel_action(board, cell) for cell in range(board.num_cells))
    assert actions == ours, "OpenSpiel's y actions are not x + y * board_size"
    for cell in range(board.num_cells):
        name = state.action_to_string(spiel_action(board, cell)).lower()
        assert name == board.names[cell], (name, board.names[cell])


# --- (a) move by move through the public API ----------------------------------------------------


def bench_moves(games: int, repeats: int) -> None:
    board = parse_board("tri:11")
    rng = random.Random(2026)
    orders = []
    for _ in range(games):
        order = list(range(board.num_cells))
        rng.shuffle(order)
        orders.append(order)
    rules = Rules(pie=False)  # the game's options, made once as OpenSpiel's game object is

    def ours_return(state_class: type[GameState]) -> int:
        moves = 0
        for order in orders:
            state = state_class(board, rules)
            for cell in order:
                moves += 1
                if state.play(cell) is not None:  # play returns the winner once the game is decided
                    break
        return moves

    def ours_is_over(state_class: type[GameState]) -> int:
        moves = 0
        for order in orders:
            state = state_class(board, rules)
            for cell in order:
                state.play(cell)
                moves += 1
                if state.is_over:
                    break
        return moves

    implementations = [("C core", CGameState), ("pure Python", PyGameState)] if CGameState else []
    implementations = implementations or [("pure Python", PyGameState)]
    default = "C core" if GameState is CGameState else "pure Python"
    print(f"(a) random games move by move, tri:11, {games} games from pre-shuffled cell lists")
    print(f"    GameState here is the {default} implementation" + ("" if CGameState else " (C core not built)"))
    rates = {}
    for label, state_class in implementations:
        returned = best_rate(lambda c=state_class: ours_return(c), repeats)
        is_over = best_rate(lambda c=state_class: ours_is_over(c), repeats)
        rates[f"ours, {label}: state.play(m) returns the winner"] = returned
        rates[f"ours, {label}: state.play(m); state.is_over"] = is_over
    our_moves = ours_return(PyGameState)
    for _, state_class in implementations:
        assert ours_return(state_class) == our_moves, "the implementations disagree on where the games end"
    spiel_rate = None
    if pyspiel is not None:
        check_spiel_mapping(board)
        game = pyspiel.load_game("y", {"board_size": board.size})
        action_orders = [[spiel_action(board, cell) for cell in order] for order in orders]

        def spiel() -> int:
            moves = 0
            for actions in action_orders:
                state = game.new_initial_state()
                for action in actions:
                    state.apply_action(action)
                    moves += 1
                    if state.is_terminal():
                        break
            return moves

        spiel_moves = spiel()
        # the same move lists must end at the same move in both engines: an end-to-end check of the win test
        assert spiel_moves == our_moves, (spiel_moves, our_moves)
        spiel_rate = best_rate(spiel, repeats)
        rates["OpenSpiel y (C++ via pybind): apply_action; is_terminal"] = spiel_rate
    for name, rate in rates.items():
        ratio = f"  {rate / spiel_rate:5.2f}x OpenSpiel" if spiel_rate else ""
        print(f"    {name:58s} {rate / 1e6:6.2f} M moves/s{ratio}")
    if spiel_rate is None:
        print("    OpenSpiel baseline missing: open_spiel is not importable (pip install '.[bench]')")
    print(f"    ({our_moves} moves in total; both engines end every game at the same move)")
    bench_copies(board, orders, implementations, repeats)


def bench_copies(
    board: Board, orders: list[list[int]], implementations: list[tuple[str, type[GameState]]], repeats: int
) -> None:
    """Copies of mid-game states (what a tree search does before every descent) against OpenSpiel's clone()."""
    rules = Rules(pie=False)
    positions = {}
    for label, state_class in implementations:
        states = []
        for order in orders[:200]:
            state = state_class(board, rules)
            for cell in order[:30]:
                if state.play(cell) is not None:
                    break
            states.append(state)
        positions[label] = states
    rates = {}
    for label, states in positions.items():
        rates[f"ours, {label}: state.copy()"] = best_rate(lambda s=states: len([x.copy() for x in s * 20]), repeats)
    spiel_rate = None
    if pyspiel is not None:
        game = pyspiel.load_game("y", {"board_size": board.size})
        spiel_states = []
        for order in orders[:200]:
            state = game.new_initial_state()
            for cell in order[:30]:
                state.apply_action(spiel_action(board, cell))
                if state.is_terminal():
                    break
            spiel_states.append(state)
        spiel_rate = best_rate(lambda: len([x.clone() for x in spiel_states * 20]), repeats)
        rates["OpenSpiel y: state.clone()"] = spiel_rate
    print("    copies of positions 30 moves in:")
    for name, rate in rates.items():
        ratio = f"  {rate / spiel_rate:5.2f}x OpenSpiel" if spiel_rate else ""
        print(f"    {name:58s} {rate / 1e6:6.2f} M copies/s{ratio}")


# --- (b) the playout kernel the bots run -------------------------------------------------------------------


def python_playouts(spec: str, games: int, seed: int) -> int:
    """Plain move-by-move random playouts through GameState (the baseline we always have)."""
    rng = random.Random(seed)
    board = parse_board(spec)
    cells = list(range(board.num_cells))
    for _ in range(games):
        state = GameState(board, Rules(pie=False))
        rng.shuffle(cells)
        for cell in cells:
            if state.play(cell) is not None:
                break
    return games


def spiel_rollouts(size: int, rollouts: int) -> float:
    """OpenSpiel's C++ random rollouts per CPU second: MCTSBot searches whose every leaf is valued by
    RandomRolloutEvaluator (the evaluator itself is not callable from Python); with many rollouts per leaf and
    few simulations the search is almost all rollouts."""
    game = pyspiel.load_game("y", {"board_size": size})
    per_leaf, simulations = 1000, max(1, rollouts // 1000)
    evaluator = pyspiel.RandomRolloutEvaluator(per_leaf, 7)
    bot = pyspiel.MCTSBot(game, evaluator, 1.4, simulations, 1000, False, 7, False)

    def work() -> int:
        bot.mcts_search(game.new_initial_state())
        return per_leaf * simulations

    return best_rate(work, 3)


def mcts_leaves(spec: str, calls: int, seed: int) -> list[list[GameState]]:
    """`calls` groups of DEFAULT_LEAVES positions a few random moves in, as a search's leaves look."""
    rng = random.Random(seed)
    groups = []
    for _ in range(calls):
        leaves = []
        for _ in range(DEFAULT_LEAVES):
            state = GameState(spec, Rules(pie=False))
            cells = list(range(state.board.num_cells))
            rng.shuffle(cells)
            for cell in cells[: rng.randrange(0, 12)]:
                if state.play(cell) is not None:
                    break
            leaves.append(state)
        groups.append(leaves)
    return groups


def bench_playouts(quick: bool) -> None:
    """RandomFill.play as mcts calls it (DEFAULT_LEAVES leaves x DEFAULT_BATCH playouts a call) and in big batches."""
    print(f"(b) the playout kernel mcts runs (RandomFill.play): mcts-sized calls of {DEFAULT_LEAVES} leaves x "
          f"{DEFAULT_BATCH} playouts, and big calls of 1 position x {BIG_BATCH} playouts from the empty board")
    repeats = 2 if quick else 3
    rollouts = 20_000 if quick else 100_000
    spiel_tri11 = spiel_rollouts(11, rollouts) if pyspiel is not None else None
    spiel_tri13 = spiel_rollouts(13, rollouts) if pyspiel is not None else None
    rng = np.random.default_rng(2026)
    big_calls = 5 if quick else 20
    for spec, spiel_rate, spiel_name in (
        ("tri:11", spiel_tri11, "OpenSpiel tri:11"),
        ("kadon", spiel_tri13, "OpenSpiel tri:13 (91 cells; OpenSpiel has no kadon board)"),
    ):
        board = parse_board(spec)
        fill = RandomFill(board)
        groups = mcts_leaves(spec, 100 if quick else 400, seed=5)
        empty = [GameState(board, Rules(pie=False))]

        def mcts_sized(fill: RandomFill = fill, groups: list[list[GameState]] = groups) -> int:
            return sum(fill.play(leaves, DEFAULT_BATCH, rng)[0].size for leaves in groups)

        def big_batches(fill: RandomFill = fill, empty: list[GameState] = empty) -> int:
            return sum(fill.play(empty, BIG_BATCH, rng)[0].size for _ in range(big_calls))

        small = best_rate(mcts_sized, repeats)
        big = best_rate(big_batches, repeats)
        plain = best_rate(lambda spec=spec: python_playouts(spec, 300 if quick else 1000, 1), 2)
        call_ms = DEFAULT_LEAVES * DEFAULT_BATCH / small * 1e3
        print(f"  {spec}: mcts-sized calls {small / 1e3:8.1f} k playouts/s ({call_ms:.2f} ms a call); "
              f"big calls {big / 1e3:8.1f} k playouts/s")
        print(f"    plain GameState random games move by move {plain / 1e3:8.1f} k/s   "
              f"ours {small / plain:6.1f}x (mcts-sized) / {big / plain:6.1f}x (big)")
        if spiel_rate is None:
            print("    OpenSpiel baseline missing: open_spiel is not importable (pip install '.[bench]')")
        else:
            print(f"    {spiel_name} C++ random rollouts {spiel_rate / 1e3:8.1f} k/s   "
                  f"ours {small / spiel_rate:6.1f}x (mcts-sized) / {big / spiel_rate:6.1f}x (big)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller workloads (a few seconds)")
    args = parser.parse_args()
    print(f"open_spiel: {'pyspiel ' + getattr(pyspiel, '__version__', '') if pyspiel else 'not importable'}")
    bench_moves(games=500 if args.quick else 5000, repeats=3 if args.quick else 5)
    bench_playouts(args.quick)


if __name__ == "__main__":
    main()
