#!/usr/bin/env python3
"""A strict fake of the row-reversed Y engines (Hayward's Fuego-based Y engine): stdlib only, for tests.

Its conventions, as the real engine's:
  - cells: row r holds r cells a<r> .. <r-th letter><r>; row 1 is the single top cell, row N the long edge; a name
    with no cell in that notation is refused with `? invalid vertex`;
  - Black moves first; `play C swap` is accepted on move 2; genmove may answer `swap` on move 2 (--swap: `center`,
    the default, swaps a first stone off every side; `always`; `never`);
  - --swap-style recolor (the real engine's, HexGUI's convention): a swap changes the first stone to White in place,
    the players keep their colours and Black moves next; asked to genmove for the other colour right after a swap, it
    resigns, as the real engine does when its board disagrees. The default, exchange, keeps the stone's colour and
    White moves next (the players exchange colours, as ytourney does);
  - time: `y_param max_time S`, never less than 0.5 s (the sleep is `--time-scale` times that, 0 to skip it);
    it knows a `time_left` of one argument and answers the standard three with `? command needs one argument`;
  - it answers at once with a winning cell once it sees one;
  - boardsize 1..15.
The real engine does not enforce turns; this fake checks that the colours it is told alternate (Black first, a swap
changing nothing) unless --lenient-turns, so a client that mixes colour names up is caught. --log FILE appends every
command; --seed S seeds its random moves.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from fake_board import Triangle, parse_colour, serve

MAX_SIZE = 15
MIN_SECONDS = 0.5
COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
            "clear_board", "play", "genmove", "y_param", "showboard", "time_left")


class Engine:
    """The game as this engine sees it."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.rng = random.Random(options.seed)
        self.board = Triangle(11, apex_first=True)
        self.swapped = False
        self.max_time = 1.0

    def expected_colour(self) -> str:
        """Black first, then the colour that did not place the last stone (as it stands after a recolouring swap)."""
        if not self.board.stones:
            return "b"
        return "w" if list(self.board.stones.values())[-1] == "b" else "b"

    def take_swap(self) -> None:
        self.swapped = True
        if self.options.swap_style == "recolor":
            (first,) = self.board.stones
            self.board.stones[first] = "w"

    def turn_error(self, colour: str) -> str | None:
        if self.options.lenient_turns or colour == self.expected_colour():
            return None
        return f"inconsistent colour: {'black' if self.expected_colour() == 'b' else 'white'} should play now"

    def can_swap(self, colour: str) -> bool:
        return len(self.board.stones) == 1 and not self.swapped and colour == "w"

    def wants_swap(self) -> bool:
        if self.options.swap == "never":
            return False
        (first,) = self.board.stones
        return self.options.swap == "always" or self.board.sides(first) == 0

    def handle(self, command: str, args: list[str]) -> tuple[bool, str]:
        if command == "protocol_version":
            return True, "2"
        if command == "name":
            return True, "fake-row-reversed"
        if command == "version":
            return True, "1.0"
        if command == "known_command":
            return True, "true" if args and args[0] in COMMANDS else "false"
        if command == "list_commands":
            return True, "\n".join(COMMANDS)
        if command == "boardsize":
            if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= MAX_SIZE:
                return False, "unacceptable size"
            self.board = Triangle(int(args[0]), apex_first=True)
            self.swapped = False
            return True, ""
        if command == "clear_board":
            self.board = Triangle(self.board.size, apex_first=True)
            self.swapped = False
            return True, ""
        if command == "y_param":
            return self.y_param(args)
        if command == "play":
            return self.play(args)
        if command == "genmove":
            return self.genmove(args)
        if command == "showboard":
            return True, self.showboard()
        if command == "time_left":
            return (True, "") if len(args) == 1 else (False, "command needs one argument")
        return False, "unknown command"

    def y_param(self, args: list[str]) -> tuple[bool, str]:
        if not args:
            return True, f"max_time {self.max_time}"
        if args[0] != "max_time" or len(args) != 2:
            return False, f"unknown parameter {' '.join(args)}"
        try:
            seconds = float(args[1])
        except ValueError:
            return False, f"max_time {args[1]!r} is not a number"
        if not seconds > 0:
            return False, "max_time must be > 0"
        self.max_time = max(seconds, MIN_SECONDS)
        return True, ""

    def play(self, args: list[str]) -> tuple[bool, str]:
        if len(args) != 2 or parse_colour(args[0]) is None:
            return False, "syntax: play COLOR VERTEX"
        colour = parse_colour(args[0])
        if self.board.winner() is not None:
            return False, "game over"
        error = self.turn_error(colour)
        if error:
            return False, error
        if args[1].lower() == "swap":
            if not self.can_swap(colour):
                return False, "illegal move: swap"
            self.take_swap()
            return True, ""
        cell = self.board.parse(args[1])
        if cell is None:
            return False, f"invalid vertex {args[1]}"
        if cell in self.board.stones:
            return False, f"illegal move: {args[1]} is occupied"
        self.board.stones[cell] = colour
        return True, ""

    def genmove(self, args: list[str]) -> tuple[bool, str]:
        if len(args) != 1 or parse_colour(args[0]) is None:
            return False, "syntax: genmove COLOR"
        colour = parse_colour(args[0])
        if self.board.winner() is not None:
            return False, "game over"
        error = self.turn_error(colour)
        if error and self.swapped and self.options.swap_style == "recolor" and len(self.board.stones) <= 2:
            return True, "resign"  # its board disagrees with the colour it is asked for: it gives up
        if error:
            return False, error
        winning = self.board.winning_cells(colour)
        if winning:  # a won position: answer at once
            cell = self.rng.choice(winning)
        else:
            time.sleep(self.max_time * self.options.time_scale)
            if self.can_swap(colour) and self.wants_swap():
                self.take_swap()
                return True, "swap"
            cell = self.rng.choice(self.board.empty())
        self.board.stones[cell] = colour
        return True, self.board.name(cell)

    def showboard(self) -> str:
        lines = [""]
        for row in range(1, self.board.size + 1):
            marks = [".XO"["_bw".index(self.board.stones.get((x, row), "_"))] for x in range(row)]
            lines.append(f"{row:>2} {' ' * (self.board.size - row)}{' '.join(marks)}")
        return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--time-scale", type=float, default=1.0)
    parser.add_argument("--swap", choices=("center", "always", "never"), default="center")
    parser.add_argument("--swap-style", choices=("exchange", "recolor"), default="exchange")
    parser.add_argument("--lenient-turns", action="store_true")
    parser.add_argument("--log")
    options = parser.parse_args()
    return serve(Engine(options), options.log)


if __name__ == "__main__":
    sys.exit(main())
