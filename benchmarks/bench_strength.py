"""Benchmark: `mcts-pro` against an opponent at equal seconds per move, with win rate, speed and deadline figures.

Each opening (`--random-plies` random cells, default 2) is played twice with the colours swapped, no pie rule, so
seats are balanced. The opponent is a ytourney bot spec (default today's `mcts`) or `openspiel` (OpenSpiel's C++
MCTSBot, from a scratch venv: benchmarks/bench_mcts.py's SpielBot). Prints the win rate with a 95% Wilson
interval, overall and by colour, each side's simulations per second, and the largest time a move of `mcts-pro`
took against the limit.

    nice python benchmarks/bench_strength.py --games 100 --seconds 0.5
    nice python benchmarks/bench_strength.py --opponent openspiel --games 40
    python benchmarks/bench_strength.py --deadline 1000 --seconds 0.1   # move times only, self-play
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from intervals import wilson

from ytourney.boards.board import parse_board
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import GameState
from ytourney.players import create_bot, parse_bot_spec
from ytourney.games.bot import Limit
from ytourney.players.clock import TimeControl
from ytourney.tournament.match import Seat, play_game
from ytourney.games.registry import get_game

Y = get_game("y")


class Tracked:
    """Wraps a bot to add up its searches' simulations and seconds, and to time every decision it makes."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", "bot")
        self.simulations = 0
        self.seconds = 0.0
        self.times: list[float] = []

    def new_game(self, board, rules, color) -> None:  # noqa: ANN001 - the bot protocol
        self.bot.new_game(board, rules, color)

    def move(self, state: GameState, limit: Limit) -> int:
        begin = time.perf_counter()
        move = self.bot.move(state, limit)
        self._count(time.perf_counter() - begin)
        return move

    def swap(self, state: GameState, limit: Limit) -> bool:
        begin = time.perf_counter()
        answer = self.bot.swap(state, limit)
        self._count(time.perf_counter() - begin)
        return answer

    def close(self) -> None:
        self.bot.close()

    def _count(self, spent: float) -> None:
        self.times.append(spent)
        result = getattr(self.bot, "last_search", None)
        if result is not None:
            self.simulations += result.simulations
            self.seconds += result.seconds
        elif hasattr(self.bot, "total_simulations"):  # OpenSpiel's wrapper keeps its own totals
            self.simulations, self.seconds = self.bot.total_simulations, self.bot.spent


def opponent_bot(spec: str, board_spec: str, seconds: float, seed: int) -> object:
    """The opponent for one game: a ytourney bot spec, or OpenSpiel's MCTSBot for `openspiel`."""
    if spec != "openspiel":
        return create_bot(parse_bot_spec(spec, get_game("y")), seed=seed)
    from bench_mcts import SpielBot, calibrate

    board = parse_board(board_spec)
    if not hasattr(opponent_bot, "simulations"):
        opponent_bot.simulations, _ = calibrate(board, seconds, 2.0, True)
    return SpielBot(board, opponent_bot.simulations, 2.0, seed=seed, solve=True, seconds=seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games (rounded up to an even number)")
    parser.add_argument("--seconds", type=float, default=0.5, help="seconds per move for both sides")
    parser.add_argument("--board", default="tri:11")
    parser.add_argument("--bot", default="mcts-pro", help="bot spec under test")
    parser.add_argument("--opponent", default="mcts", help="a bot spec, or 'openspiel'")
    parser.add_argument("--random-plies", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deadline", type=int, default=0, help="only time this many self-play moves")
    args = parser.parse_args()
    if args.deadline:
        deadline_only(args)
        return

    board = parse_board(args.board)
    rng = random.Random(args.seed)
    pairs = (args.games + 1) // 2
    print(f"{args.bot} vs {args.opponent}: board {board.spec}, no pie, {args.random_plies} random opening plies, "
          f"each opening played with both colours, {args.seconds}s per move, {2 * pairs} games", flush=True)
    wins = games = 0
    faults = 0
    by_colour = {"Black": [0, 0], "White": [0, 0]}  # wins, games of the bot under test with that colour
    ours_sims = ours_secs = theirs_sims = theirs_secs = 0.0
    our_times: list[float] = []
    began = time.perf_counter()
    clock = TimeControl(move_seconds=args.seconds, grace_seconds=2.0)
    for pair in range(pairs):
        opening = rng.sample(range(board.num_cells), args.random_plies)
        for swap in (False, True):
            seed = args.seed * 100_000 + 2 * pair + swap
            ours = Tracked(create_bot(parse_bot_spec(args.bot, get_game("y")), seed=seed))
            theirs = Tracked(opponent_bot(args.opponent, args.board, args.seconds, seed))
            seats = [Seat("ours", ours), Seat("theirs", theirs)]
            if swap:
                seats.reverse()
            record = play_game(seats, Y, board, Rules(pie=False), time_control=clock, seed=seed, opening=opening)
            if record.termination.is_fault:
                faults += 1
                print(f"  game {games + 1}: {record.termination.value} ({record.reason})", flush=True)
            games += 1
            wins += record.winner_name == "ours"
            tally = by_colour["White" if swap else "Black"]
            tally[0] += record.winner_name == "ours"
            tally[1] += 1
            ours_sims += ours.simulations
            ours_secs += ours.seconds
            theirs_sims += theirs.simulations
            theirs_secs += theirs.seconds
            our_times.extend(ours.times)
            low, high = wilson(wins, games)
            print(f"  after {games:3d} games: {wins}/{games} = {wins / games:.1%} [{low:.1%}, {high:.1%}]  "
                  f"({time.perf_counter() - began:.0f}s)", flush=True)
    low, high = wilson(wins, games)
    print(f"\n{args.bot} win rate vs {args.opponent}: {wins / games:.1%}  95% Wilson [{low:.1%}, {high:.1%}] "
          f"over {games} games ({faults} faults)")
    print("  " + ", ".join(f"as {colour} {won}/{played} [{wilson(won, played)[0]:.1%}, {wilson(won, played)[1]:.1%}]"
                           for colour, (won, played) in by_colour.items()))
    ours_rate = ours_sims / max(ours_secs, 1e-9)
    theirs_rate = theirs_sims / max(theirs_secs, 1e-9)
    print(f"simulations/s: {args.bot} {ours_rate:,.0f}, {args.opponent} {theirs_rate:,.0f}, "
          f"ratio {ours_rate / max(theirs_rate, 1e-9):.1f}x")
    if our_times:
        worst = max(our_times)
        print(f"{args.bot} move times over {len(our_times)} moves: mean {sum(our_times) / len(our_times):.3f}s, "
              f"max {worst:.3f}s, overrun past {args.seconds}s: {max(0.0, worst - args.seconds) * 1000:.1f} ms")


def deadline_only(args: argparse.Namespace) -> None:
    """Self-play of the bot under test from random openings, timing each decision against the limit."""
    board = parse_board(args.board)
    rng = random.Random(args.seed)
    times: list[float] = []
    game = 0
    while len(times) < args.deadline:
        players = [create_bot(parse_bot_spec(args.bot, get_game("y")), seed=args.seed * 1000 + game + side) for side in (0, 1)]
        state = GameState(board, Rules(pie=False))
        for cell in rng.sample(range(board.num_cells), args.random_plies):
            state.play(cell)
        while not state.is_over and len(times) < args.deadline:
            begin = time.perf_counter()
            move = players[state.to_move - 1].move(state.copy(), Limit(seconds=args.seconds))
            times.append(time.perf_counter() - begin)
            state.play(move)
        game += 1
    times.sort()
    print(f"{args.bot}: {len(times)} moves at {args.seconds}s on {board.spec} ({game} games): "
          f"mean {sum(times) / len(times):.4f}s, p99 {times[int(0.99 * (len(times) - 1))]:.4f}s, "
          f"max {times[-1]:.4f}s, overrun past the limit {max(0.0, times[-1] - args.seconds) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
