#!/usr/bin/env python3
"""A standalone Y bot speaking GTP on stdin/stdout: plain Python 3, standard library only, no ytourney import.

Use it as the template for a bot in any language. What ytourney (and other GTP controllers) need from an engine:

* Read one command per line from stdin; answer on stdout with `= result` (success) or `? message` (failure),
  each answer followed by one empty line, and flush after every answer. A command may start with a numeric id;
  echo it right after `=` / `?` (`=7 c3`). Ignore empty lines and everything after `#`. Never print anything
  else on stdout: logs go to stderr.
* Board: `boardsize N` selects the triangle with N cells per side (`tri:N`) and empties it; `clear_board` empties it.
* Cells: a column letter and a row number, `a1`. With x = letter index (a = 0) and y = row - 1 a cell exists when
  x + y < N. Row 1 is one side, column a another, the cells with x + y = N - 1 the third. Neighbours of (x, y):
  (x-1, y), (x+1, y), (x, y-1), (x, y+1), (x+1, y-1), (x-1, y+1).
* Colours: `b`/`black` places the first stone, `w`/`white` the second; they alternate, except that in a handicap
  game Black places several stones in a row (you get several `genmove b` / `play b` in a row).
* `play COLOR CELL` records a stone; `genmove COLOR` asks for one and the bot records it itself.
* Pie rule: after the first stone the second player may answer `swap` instead of a cell. Stones never change
  colour: after a swap the players exchange colours, and White moves next. With `--swap` this bot answers `swap`
  when the first stone is far from the sides (set `swap: genmove` in the ytourney config for it); without it, it
  never does (use `swap: none` and a `pie_policy`). It accepts `play COLOR swap` either way.
* `quit` answers `=` and exits. Unknown commands answer `? unknown command`.

Strategy: win at once if possible, else block the opponent's immediate win, else take the cell that best joins its
own stones, touches the opponent's and stays central. Run: `python3 bots/standalone_gtp_bot.py [--seed S] [--swap]`.
Config:  `gtp: {command: [python3, bots/standalone_gtp_bot.py, --swap], swap: genmove}`.
"""

from __future__ import annotations

import argparse
import random
import sys

NAME = "standalone-y"
VERSION = "1.0"
COMMANDS = ["protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
            "clear_board", "play", "genmove", "showboard", "time_settings", "time_left"]


class Game:
    """The stones on a tri:N board, the neighbour table and a few Y helpers."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.cells = [(x, y) for y in range(size) for x in range(size - y)]
        self.stones: dict[tuple[int, int], str] = {}  # cell -> "b" or "w"
        self.history: list[str] = []

    def on_board(self, x: int, y: int) -> bool:
        return x >= 0 and y >= 0 and x + y < self.size

    def neighbours(self, cell: tuple[int, int]) -> list[tuple[int, int]]:
        x, y = cell
        steps = ((-1, 0), (1, 0), (0, -1), (0, 1), (1, -1), (-1, 1))
        return [(x + dx, y + dy) for dx, dy in steps if self.on_board(x + dx, y + dy)]

    def sides(self, cell: tuple[int, int]) -> int:
        """Bit mask of the sides the cell lies on: 1 row 1, 2 column a, 4 the long diagonal."""
        x, y = cell
        return (1 if y == 0 else 0) | (2 if x == 0 else 0) | (4 if x + y == self.size - 1 else 0)

    def distance_to_side(self, cell: tuple[int, int]) -> int:
        x, y = cell
        return min(x, y, self.size - 1 - x - y)

    def completes_y(self, cell: tuple[int, int], color: str) -> bool:
        """True when a `color` stone on the empty `cell` would join a group touching all three sides."""
        seen = {cell}
        stack = [cell]
        mask = 0
        while stack:
            current = stack.pop()
            mask |= self.sides(current)
            for nb in self.neighbours(current):
                if nb not in seen and self.stones.get(nb) == color:
                    seen.add(nb)
                    stack.append(nb)
        return mask == 7


def parse_cell(game: Game, token: str) -> tuple[int, int] | None:
    token = token.strip().lower()
    if len(token) < 2 or not token[0].isalpha() or not token[1:].isdigit():
        return None
    x, y = ord(token[0]) - ord("a"), int(token[1:]) - 1
    return (x, y) if game.on_board(x, y) else None


def cell_name(cell: tuple[int, int]) -> str:
    return f"{chr(ord('a') + cell[0])}{cell[1] + 1}"


def parse_color(token: str) -> str | None:
    return {"b": "b", "black": "b", "w": "w", "white": "w"}.get(token.lower())


def choose_move(game: Game, color: str, rng: random.Random) -> tuple[int, int]:
    """Win now, else block a win, else the best-scoring empty cell (small random tie-break)."""
    other = "w" if color == "b" else "b"
    empty = [cell for cell in game.cells if cell not in game.stones]
    for who in (color, other):
        for cell in empty:
            if game.completes_y(cell, who):
                return cell

    def score(cell: tuple[int, int]) -> float:
        own = sum(1 for nb in game.neighbours(cell) if game.stones.get(nb) == color)
        theirs = sum(1 for nb in game.neighbours(cell) if game.stones.get(nb) == other)
        return 3 * min(own, 2) + 1.5 * min(theirs, 2) + game.distance_to_side(cell) + rng.random()

    return max(empty, key=score)


def wants_swap(game: Game) -> bool:
    """Take the first stone when it stands at least a third of the board's depth away from every side."""
    first = next(iter(game.stones))
    deepest = (game.size - 1) // 3
    return game.distance_to_side(first) >= max(1, -(-deepest // 3))


def main() -> int:
    parser = argparse.ArgumentParser(description="A standalone Y bot over GTP.")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--swap", action="store_true", help="answer `swap` to genmove when the pie is worth taking")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    game = Game(11)

    for raw in sys.stdin:
        line = raw.split("#", 1)[0].replace("\t", " ").strip()
        if not line:
            continue
        words = line.split()
        ident = words.pop(0) if words[0].isdigit() else ""
        if not words:
            continue
        command, args = words[0].lower(), words[1:]
        ok, answer = True, ""
        if command == "protocol_version":
            answer = "2"
        elif command == "name":
            answer = NAME
        elif command == "version":
            answer = VERSION
        elif command == "known_command":
            answer = "true" if args and args[0].lower() in COMMANDS else "false"
        elif command == "list_commands":
            answer = "\n".join(COMMANDS)
        elif command == "boardsize":
            if len(args) == 1 and args[0].isdigit() and 2 <= int(args[0]) <= 26:
                game = Game(int(args[0]))
            else:
                ok, answer = False, "unacceptable size"
        elif command == "clear_board":
            game = Game(game.size)
        elif command == "play":
            color = parse_color(args[0]) if len(args) == 2 else None
            if color is None:
                ok, answer = False, "syntax error; expected: play COLOR VERTEX"
            elif args[1].lower() == "swap":
                if len(game.history) != 1:
                    ok, answer = False, "illegal move: swap is only allowed after the first stone"
                else:
                    game.history.append("swap")
            else:
                cell = parse_cell(game, args[1])
                if cell is None or cell in game.stones:
                    ok, answer = False, "illegal move"
                else:
                    game.stones[cell] = color
                    game.history.append(cell_name(cell))
        elif command == "genmove":
            color = parse_color(args[0]) if len(args) == 1 else None
            if color is None:
                ok, answer = False, "syntax error; expected: genmove COLOR"
            elif len(game.stones) == len(game.cells):
                ok, answer = False, "board is full"
            elif options.swap and len(game.history) == 1 and color == "w" and wants_swap(game):
                game.history.append("swap")
                answer = "swap"
            else:
                cell = choose_move(game, color, rng)
                game.stones[cell] = color
                game.history.append(cell_name(cell))
                answer = cell_name(cell)
        elif command == "showboard":
            rows = []
            for y in range(game.size - 1, -1, -1):
                marks = [{"b": "X", "w": "O"}.get(game.stones.get((x, y), ""), ".") for x in range(game.size - y)]
                rows.append(f"{y + 1:>2} " + " " * (y) + " ".join(marks))
            answer = "\n" + "\n".join(rows)
        elif command in ("time_settings", "time_left"):
            answer = ""  # this bot thinks fast; a real bot would budget its time here
        elif command == "quit":
            sys.stdout.write(f"={ident}\n\n")
            sys.stdout.flush()
            return 0
        else:
            ok, answer = False, "unknown command"
        sys.stdout.write(f"{'=' if ok else '?'}{ident}{' ' + answer if answer else ''}\n\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
