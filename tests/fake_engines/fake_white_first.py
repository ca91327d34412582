#!/usr/bin/env python3
"""A strict fake of the white-first Y engines (morat's Y engine): stdlib only, for tests.

Its conventions, as the real engine's:
  - the first mover is called white: `play b ...` on an empty board is refused, and every `play` out of turn;
  - `genmove [COLOR]` ignores its colour and plays for the side to move;
  - no swap: `play C swap` is an invalid vertex;
  - cells in our notation (row 1 the long edge); a name with no cell is refused with `? invalid vertex`;
  - time: `time -m S -g G -f F` (seconds per move; game and flexible time are accepted and ignored); the sleep is
    `--time-scale` times the move time, 0 to skip it;
  - --stats N lines of search statistics on stdout before every genmove answer (default 3);
  - boardsize 5..25; it answers at once with a winning cell once it sees one.
--log FILE appends every command; --seed S seeds its random moves.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from fake_board import Triangle, parse_colour, serve

SIZES = range(5, 26)
COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
            "clear_board", "play", "genmove", "time", "showboard")
TIME_OPTIONS = {"-m": "move", "--move": "move", "-g": "game", "--game": "game", "-f": "flexible",
                "--flexible": "flexible"}


class Engine:
    """The game as this engine sees it."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.rng = random.Random(options.seed)
        self.board = Triangle(11, apex_first=False)
        self.move_time = 1.0

    def to_move(self) -> str:
        return "w" if len(self.board.stones) % 2 == 0 else "b"

    def handle(self, command: str, args: list[str]) -> tuple[bool, str]:
        if command == "protocol_version":
            return True, "2"
        if command == "name":
            return True, "fake-white-first"
        if command == "version":
            return True, "1.0"
        if command == "known_command":
            return True, "true" if args and args[0] in COMMANDS else "false"
        if command == "list_commands":
            return True, "\n".join(COMMANDS)
        if command == "boardsize":
            if len(args) != 1 or not args[0].isdigit() or int(args[0]) not in SIZES:
                return False, f"Size {' '.join(args)} is out of range, must be 5..25"
            self.board = Triangle(int(args[0]), apex_first=False)
            return True, ""
        if command == "clear_board":
            self.board = Triangle(self.board.size, apex_first=False)
            return True, ""
        if command == "time":
            return self.time(args)
        if command == "play":
            return self.play(args)
        if command == "genmove":
            return self.genmove(args)
        if command == "showboard":
            return True, self.showboard()
        return False, "unknown command"

    def time(self, args: list[str]) -> tuple[bool, str]:
        if len(args) % 2:
            return False, "time: options take a value each: time -m S -g G -f F"
        for flag, value in zip(args[::2], args[1::2]):
            if flag not in TIME_OPTIONS:
                return False, f"time: unknown option {flag}"
            try:
                seconds = float(value)
            except ValueError:
                return False, f"time: {value!r} is not a number"
            if seconds < 0:
                return False, f"time: {value} must be >= 0"
            if TIME_OPTIONS[flag] == "move":
                self.move_time = seconds
        return True, ""

    def play(self, args: list[str]) -> tuple[bool, str]:
        if len(args) != 2 or parse_colour(args[0]) is None:
            return False, "Wrong number of arguments or bad colour: play COLOR VERTEX"
        if self.board.winner() is not None:
            return False, "game is over"
        if parse_colour(args[0]) != self.to_move():
            return False, f"It's {'white' if self.to_move() == 'w' else 'black'}'s turn"
        cell = self.board.parse(args[1])
        if cell is None:
            return False, f"invalid vertex {args[1]}"
        if cell in self.board.stones:
            return False, f"Invalid placement, already occupied: {args[1]}"
        self.board.stones[cell] = self.to_move()
        return True, ""

    def genmove(self, args: list[str]) -> tuple[bool, str]:
        if len(args) > 1 or (args and parse_colour(args[0]) is None):
            return False, "syntax: genmove [COLOR]"
        if self.board.winner() is not None:
            return False, "game is over"
        colour = self.to_move()  # the colour asked for does not matter
        winning = self.board.winning_cells(colour)
        if winning:
            cell = self.rng.choice(winning)
        else:
            time.sleep(self.move_time * self.options.time_scale)
            cell = self.rng.choice(self.board.empty())
        playouts = self.rng.randrange(1000, 9000)
        stats = [f"Think time: {self.move_time:.2f} s", f"Playouts: {playouts}, {playouts * 3} nodes",
                 f"Score: {self.rng.random():.3f}, PV: {self.board.name(cell)}"]
        for position in range(self.options.stats):
            sys.stdout.write(stats[position % len(stats)] + "\n")
        self.board.stones[cell] = colour
        return True, self.board.name(cell)

    def showboard(self) -> str:
        lines = [""]
        for row in range(self.board.size, 0, -1):
            marks = [".OX"["_wb".index(self.board.stones.get((x, row), "_"))] for x in range(self.board.row_length(row))]
            lines.append(f"{row:>2} {' ' * (row - 1)}{' '.join(marks)}")
        return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--time-scale", type=float, default=1.0)
    parser.add_argument("--stats", type=int, default=3)
    parser.add_argument("--log")
    options = parser.parse_args()
    return serve(Engine(options), options.log)


if __name__ == "__main__":
    sys.exit(main())
