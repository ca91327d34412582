"""Benchmark: the `mcts` bot against a baseline at equal seconds per move on tri:11, colours alternated, no pie.

The baseline is OpenSpiel's C++ UCT (`pyspiel.MCTSBot` with one random rollout per simulation), its simulation
count calibrated so that a move takes about `--seconds`; without open_spiel it is ytourney's `heuristic` bot.
Prints the win rate of `mcts` with a 95% Wilson interval and both sides' simulations per second.

    python benchmarks/bench_mcts.py --games 100 --seconds 0.2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from intervals import wilson

from ytourney.games.registry import get_game
from ytourney.boards.board import Board, parse_board
from ytourney.games.y.notation import SWAP
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import GameState
from ytourney.players import create_bot, parse_bot_spec
from ytourney.games.bot import BaseBot, Limit
from ytourney.players.clock import TimeControl
from ytourney.tournament.match import Seat, play_game


class SpielBot(BaseBot):
    """OpenSpiel's C++ MCTSBot behind the ytourney bot protocol (a fresh search each move, as OpenSpiel does).

    With `seconds`, each move's max_simulations is recalibrated from the simulations per second measured on its
    previous moves, so the baseline keeps spending about `seconds` a move however busy the machine gets.
    """

    name = "openspiel-mcts"

    def __init__(
        self, board: Board, simulations: int, uct_c: float, seed: int, solve: bool, seconds: float | None = None
    ) -> None:
        import pyspiel

        super().__init__(seed)
        self.pyspiel = pyspiel
        self.game = pyspiel.load_game(f"y(board_size={board.size})")
        self.size = board.size
        self.coords = board.coords
        self.uct_c = uct_c
        self.solve = solve
        self.evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self.simulations = simulations
        self.target = seconds
        self.rate = simulations / seconds if seconds else None
        self.total_simulations = 0
        self.spent = 0.0
        self.searches = 0
        self._actions = {self.coords[c][0] + self.coords[c][1] * self.size: c for c in range(len(self.coords))}

    def move(self, state: GameState, limit: Limit) -> int:
        """One C++ search from the current position."""
        spiel_state = self.game.new_initial_state()
        for move in state.moves:
            if move != SWAP:
                x, y = self.coords[move]
                spiel_state.apply_action(x + y * self.size)
        simulations = self.simulations
        if self.rate is not None:
            simulations = max(100, int(self.rate * self.target))
        bot = self.pyspiel.MCTSBot(
            self.game, self.evaluator, self.uct_c, simulations, 1000, self.solve, self.seed or 0, False
        )
        begin = time.perf_counter()
        action = bot.step(spiel_state)
        spent = time.perf_counter() - begin
        if self.rate is not None and spent > 0.25 * self.target:
            # Short searches (a solved position stops early) say nothing about the speed; skip them.
            measured = min(2.0 * self.rate, max(0.5 * self.rate, simulations / spent))
            self.rate = 0.7 * self.rate + 0.3 * measured
        self.spent += spent
        self.total_simulations += simulations
        self.searches += 1
        return self._actions[action]


def calibrate(board: Board, seconds: float, uct_c: float, solve: bool) -> tuple[int, float]:
    """Simulations that take OpenSpiel about `seconds` per move, and its measured simulations per second."""
    probe = 4000
    bot = SpielBot(board, probe, uct_c, seed=1, solve=solve)
    state = GameState(board, Rules(pie=False))
    rates = []
    for move in (None, 0, 1, 2, 3, 4, 5):
        if move is not None:
            state.play(state.empty_cells()[len(state.empty_cells()) // 2])
        begin = time.perf_counter()
        bot.move(state, Limit())
        rates.append(probe / (time.perf_counter() - begin))
    rate = statistics.median(rates)
    return max(100, int(rate * seconds)), rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=0.2, help="seconds per move for both sides")
    parser.add_argument("--board", default="tri:11")
    parser.add_argument("--bot", default="mcts", help="ytourney bot spec under test")
    parser.add_argument("--uct-c", type=float, default=2.0, help="OpenSpiel's exploration constant (rewards in -1..1)")
    parser.add_argument("--no-solve", action="store_true", help="turn off OpenSpiel's MCTS-Solver backups")
    parser.add_argument("--baseline", choices=("auto", "openspiel", "heuristic"), default="auto")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    board = parse_board(args.board)
    baseline = args.baseline
    if baseline == "auto":
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            baseline = "heuristic"
        else:
            baseline = "openspiel"
    solve = not args.no_solve
    if baseline == "openspiel":
        simulations, rate = calibrate(board, args.seconds, args.uct_c, solve)
        print(
            f"baseline: OpenSpiel C++ MCTSBot uct_c={args.uct_c} solve={solve}, 1 random rollout per simulation, "
            f"starting at {simulations} simulations per move (calibrated at {rate:,.0f} sims/s for {args.seconds}s), "
            "recalibrated after every move from its measured speed"
        )
    else:
        print("baseline: ytourney heuristic bot (open_spiel is not importable)")
    print(f"board {board.spec}, no pie, colours alternated, {args.seconds}s per move, {args.games} games")

    wins = 0
    our_sims = 0
    our_seconds = 0.0
    their_sims = 0
    their_seconds = 0.0
    our_moves = 0
    their_moves = 0
    tracked_descents = 0
    spec = parse_bot_spec(args.bot, get_game("y"))
    began = time.perf_counter()
    for game in range(args.games):
        seed = args.seed * 1000 + game
        ours = create_bot(spec, seed=seed)
        if baseline == "openspiel":
            theirs = SpielBot(board, simulations, args.uct_c, seed=seed, solve=solve, seconds=args.seconds)
            simulations = max(100, int(theirs.rate * args.seconds))
        else:
            theirs = create_bot(parse_bot_spec("heuristic", get_game("y")), seed=seed)
        tracked = _Tracked(ours)
        seats = [Seat("mcts", tracked), Seat("baseline", theirs)]
        if game % 2:
            seats.reverse()
        record = play_game(
            seats, board, Rules(pie=False), time_control=TimeControl(move_seconds=args.seconds, grace_seconds=2.0),
            seed=seed,
        )
        wins += record.winner_name == "mcts"
        if record.termination.is_fault:
            print(f"  game {game + 1}: {record.termination.value} ({record.reason})")
        our_sims += tracked.simulations
        our_seconds += tracked.seconds
        if isinstance(theirs, SpielBot):
            their_sims += theirs.total_simulations
            their_seconds += theirs.spent
            their_moves += theirs.searches
            simulations = max(100, int(theirs.rate * args.seconds))
        our_moves += tracked.searches
        tracked_descents += tracked.descents
        low, high = wilson(wins, game + 1)
        print(
            f"  after {game + 1:3d} games: mcts {wins}/{game + 1} = {wins / (game + 1):.1%} "
            f"[{low:.1%}, {high:.1%}]  ({time.perf_counter() - began:.0f}s)",
            flush=True,
        )
    low, high = wilson(wins, args.games)
    print(f"\nmcts win rate: {wins / args.games:.1%}  95% Wilson [{low:.1%}, {high:.1%}] over {args.games} games")
    if our_seconds:
        print(
            f"mcts simulations/s: {our_sims / our_seconds:,.0f} random playouts in "
            f"{tracked_descents / our_seconds:,.0f} tree descents/s  ({our_seconds / max(1, our_moves):.3f}s per move)"
        )
    if their_seconds:
        print(
            f"baseline simulations/s: {their_sims / their_seconds:,.0f}  "
            f"({their_seconds / max(1, their_moves):.3f}s per move, {their_sims / max(1, their_moves):,.0f} per move)"
        )
        print(f"ratio (mcts / baseline simulations/s): {(our_sims / our_seconds) / (their_sims / their_seconds):.2f}")


class _Tracked:
    """Wraps a ytourney bot to add up its searches' simulations and seconds."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.simulations = 0
        self.seconds = 0.0
        self.searches = 0
        self.descents = 0

    def new_game(self, board, rules, color) -> None:
        self.bot.new_game(board, rules, color)

    def move(self, state: GameState, limit: Limit) -> int:
        move = self.bot.move(state, limit)
        self._count()
        return move

    def swap(self, state: GameState, limit: Limit) -> bool:
        answer = self.bot.swap(state, limit)
        self._count()
        return answer

    def close(self) -> None:
        self.bot.close()

    def _count(self) -> None:
        result = getattr(self.bot, "last_search", None)
        if result is not None:
            self.simulations += result.simulations
            self.seconds += result.seconds
            self.searches += 1
            self.descents += getattr(result, "descents", 0)


if __name__ == "__main__":
    main()
