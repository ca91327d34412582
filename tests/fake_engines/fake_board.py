"""A tri board as a fake engine knows it, in the engine's own cell names (stdlib only, shared by the fake engines).

`apex_first=False` is our notation (row 1 the long edge, row r holding N+1-r cells); `apex_first=True` is the one of
the row-reversed engines (row 1 the top cell, row r holding r cells). Each geometry is written out in its own
coordinates, so a fake checks the translation of the client instead of repeating it.
"""

from __future__ import annotations

import re
import sys

_NAME = re.compile(r"([a-z])([1-9][0-9]?)")
LEFT, BOTTOM, RIGHT = 1, 2, 4  # the three sides; a Y touches all of them


class Triangle:
    """Stones on a tri:N board addressed by (column, row) in the engine's own numbering."""

    def __init__(self, size: int, apex_first: bool) -> None:
        self.size = size
        self.apex_first = apex_first
        self.stones: dict[tuple[int, int], str] = {}
        self.cells = [(x, r) for r in range(1, size + 1) for x in range(self.row_length(r))]

    def row_length(self, row: int) -> int:
        return row if self.apex_first else self.size + 1 - row

    def parse(self, token: str) -> tuple[int, int] | None:
        """The (column, row) a name stands for, or None when no such cell exists in this notation."""
        match = _NAME.fullmatch(token.lower())
        if match is None:
            return None
        x, row = ord(match.group(1)) - ord("a"), int(match.group(2))
        if not 1 <= row <= self.size or x >= self.row_length(row):
            return None
        return x, row

    @staticmethod
    def name(cell: tuple[int, int]) -> str:
        return f"{chr(ord('a') + cell[0])}{cell[1]}"

    def neighbours(self, cell: tuple[int, int]) -> list[tuple[int, int]]:
        x, r = cell
        if self.apex_first:  # a cell touches two cells of the shorter row above and two of the longer row below
            around = [(x - 1, r), (x + 1, r), (x - 1, r - 1), (x, r - 1), (x, r + 1), (x + 1, r + 1)]
        else:  # our notation: the longer row is below (row - 1)
            around = [(x - 1, r), (x + 1, r), (x, r - 1), (x + 1, r - 1), (x, r + 1), (x - 1, r + 1)]
        return [(cx, cr) for cx, cr in around if 1 <= cr <= self.size and 0 <= cx < self.row_length(cr)]

    def sides(self, cell: tuple[int, int]) -> int:
        x, r = cell
        mask = LEFT if x == 0 else 0
        if r == (self.size if self.apex_first else 1):
            mask |= BOTTOM
        if x == self.row_length(r) - 1:
            mask |= RIGHT
        return mask

    def empty(self) -> list[tuple[int, int]]:
        return [cell for cell in self.cells if cell not in self.stones]

    def has_y(self, colour: str, extra: tuple[int, int] | None = None) -> bool:
        """True when `colour` (with one more stone on `extra`) has a group touching all three sides."""
        own = {cell for cell, owner in self.stones.items() if owner == colour}
        if extra is not None:
            own.add(extra)
        seen: set[tuple[int, int]] = set()
        for start in own:
            if start in seen:
                continue
            mask, frontier = 0, [start]
            seen.add(start)
            while frontier:
                cell = frontier.pop()
                mask |= self.sides(cell)
                for near in self.neighbours(cell):
                    if near in own and near not in seen:
                        seen.add(near)
                        frontier.append(near)
            if mask == LEFT | BOTTOM | RIGHT:
                return True
        return False

    def winner(self) -> str | None:
        return next((colour for colour in "bw" if self.has_y(colour)), None)

    def winning_cells(self, colour: str) -> list[tuple[int, int]]:
        """Empty cells on which `colour` completes a Y at once."""
        return [cell for cell in self.empty() if self.has_y(colour, cell)]


def parse_colour(word: str) -> str | None:
    """'b' or 'w' for a GTP colour word, None when it is none."""
    return {"b": "b", "black": "b", "w": "w", "white": "w"}.get(word.lower())


def write(text: str, ok: bool = True, command_id: str = "") -> None:
    """Write one framed GTP response on stdout."""
    sys.stdout.write(("=" if ok else "?") + command_id + (" " + text if text else "") + "\n\n")
    sys.stdout.flush()


def serve(engine: object, log_path: str | None) -> int:
    """The GTP loop both fakes share: read commands (ids and comments allowed), log them, answer through `handle`."""
    for line in sys.stdin:
        if log_path:
            with open(log_path, "a", encoding="utf-8") as log:
                log.write(line)
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        command_id = words.pop(0) if words[0].isdigit() else ""
        if not words:
            continue
        if words[0] == "quit":
            write("", command_id=command_id)
            return 0
        ok, text = engine.handle(words[0], words[1:])  # type: ignore[attr-defined]
        write(text, ok, command_id)
    return 0
