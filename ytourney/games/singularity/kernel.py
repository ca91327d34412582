"""Singularity's kernel: slides of 1-3 nodes over bit masks, fusions looked up in per-node partner masks, undo.

Every slide `s-t` has one path (the game checks it when building the tables), so its action is
`encode_path((s, t))`, and `encode_path((s, t), c)` when the mover names the fused stone `c`. A source's slides are
read from tables of every occupancy of its lines (a few lines, at most 6 nodes, a table); a target with no possible
fusion and off the central nodes is legal at once, the few others are checked against the partner masks.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ytourney.boards.board import Board
from ytourney.boards.regions import region
from ytourney.errors import BoardSpecError
from ytourney.games.bitboard import bits, mask_of
from ytourney.games.kernel import DRAW, ONGOING, encode_path
from ytourney.games.termination import Termination

SINGULARITY = Termination.define("singularity")
MAX_SLIDE = 3
BLACK_START = ("A1", "C1", "E1", "G1", "I1", "K3", "M5", "K7", "A9", "A7", "A5", "A3")
WHITE_START = ("B1", "D1", "F1", "H1", "J2", "L4", "L6", "J8", "A8", "A6", "A4", "A2")
"""DESIGN §1b: alternating round the perimeter, Black on the corners and side middles."""

GROUP_BITS = 6
"""Nodes one table of a source's lines may cover (2**6 occupancies; a source has about three such groups)."""
Check = tuple[int, int, int, int]
"""A slide whose fusion or central count must be checked: (target, plain action, partner mask, central)."""
Slow = tuple[tuple[int, ...], tuple[Check, ...]]
"""The slides to check of one occupancy: their plain actions (legal as they are when no fusion and no second
central stone can happen), and each with what its check reads."""
Line = tuple[tuple[int, ...], tuple[tuple[int, int, bool], ...]]
"""One line from a source: the nodes it shares with an earlier fork (which must be empty), then its own targets
as (target, plain action, needs a check) in order."""
Group = tuple[int, dict[int, tuple[int, ...]], dict[int, Slow] | None]
"""Some lines of a source: (mask of their nodes, plain actions by `occupied & mask`, slides to check by the same)."""


def group_tables(lines: list[Line], partners: tuple[int, ...], central: tuple[int, ...]) -> Group:
    """The slides along `lines` for every occupancy of their nodes (each reached up to the first occupied one)."""
    order = list(dict.fromkeys(node for guard, nodes in lines for node in (*guard, *(t for t, _, _ in nodes))))
    plain: dict[int, tuple[int, ...]] = {}
    slow: dict[int, Slow] = {}
    for pattern in range(1 << len(order)):
        occupied = mask_of(node for i, node in enumerate(order) if pattern >> i & 1)
        fast: list[int] = []
        check: list[Check] = []
        for guard, nodes in lines:
            if occupied & mask_of(guard):
                continue
            for target, action, needs_check in nodes:
                if occupied >> target & 1:
                    break
                if needs_check:
                    check.append((target, action, partners[target], central[target]))
                else:
                    fast.append(action)
        plain[occupied] = tuple(fast)
        slow[occupied] = (tuple(c[1] for c in check), tuple(check))
    return mask_of(order), plain, (slow if any(entries for _, entries in slow.values()) else None)


def line_groups(lines: list[Line]) -> tuple[tuple[Line, ...], ...]:
    """A source's lines in groups of at most GROUP_BITS nodes, in order."""
    groups: list[list[Line]] = []
    size = GROUP_BITS + 1
    for line in lines:
        width = len(line[0]) + len(line[1])
        if size + width > GROUP_BITS:
            groups.append([])
            size = 0
        groups[-1].append(line)
        size += width
    return tuple(tuple(group) for group in groups)


@dataclass(frozen=True)
class Tables:
    """Per-board, per-fusion-zone tables, built once."""

    branches: tuple[tuple[Group, ...], ...]
    """branches[s]: the lines leaving s in groups, each target listed by one line only (a fork's later branch keeps
    the nodes it shares with the earlier one in its mask: they must be empty for its own targets)."""
    lines: tuple[tuple[tuple[Line, ...], ...], ...]
    """lines[s]: the groups of lines behind branches[s], as lines (the C core lists slides from them, in the same
    order: per group, the targets needing no check line by line, then those needing one)."""
    paths: tuple[dict[int, tuple[int, ...]], ...]
    """paths[s][t]: the nodes a slide from s to t passes, t included."""
    on_line: tuple[frozenset[int], ...]
    """on_line[s]: every node some line from s reaches, at any distance (for refusals)."""
    partners: tuple[int, ...]
    """partners[t]: the mask of nodes a stone landing on t fuses with, when they hold the mover's colour."""
    central: tuple[int, ...]
    """central[n]: 1 when n is one of the three central nodes F6 G6 F7, else 0."""
    central_nodes: tuple[int, ...]
    central_mask: int
    decode: dict[int, tuple[int, int, int, int]]
    """decode[action]: (source, target, named capture or -1, mask of the slide's path) of every well-formed slide."""
    named: dict[tuple[int, int, int], int]
    """named[(s, t, c)]: the action of the slide s-t naming the capture c."""
    zones: tuple[int, ...]
    """zones[s]: every node a slide from s may fuse with (no own stone there: no fusion to check)."""
    easy_steps: tuple[int, ...]
    """easy_steps[s]: one-node slides from s onto nodes that never fuse and are not central (a quick has-a-move)."""


@functools.lru_cache(maxsize=8)
def tables(board: Board, fusion: str = "both") -> Tables:
    """The tables of `board` for a fusion zone ('both', 'landing' or 'resting')."""
    n = board.num_cells
    triangle = set(region(board, "central-triangle"))
    central_nodes = region(board, "central-nodes")
    central = tuple(int(c in central_nodes) for c in range(n))
    partners = []
    for t in range(n):
        if fusion == "both":
            found = [c for c in board.neighbors[t] if t in triangle and c in triangle]
        elif fusion == "landing":
            found = [c for c in board.neighbors[t] if t in triangle]
        else:
            found = [c for c in board.neighbors[t] if c in triangle]
        partners.append(mask_of(found))
    paths, on_line, branches, line_lists, easy_steps, zones = [], [], [], [], [], []
    decode: dict[int, tuple[int, int, int, int]] = {}
    named: dict[tuple[int, int, int], int] = {}
    for s in range(n):
        reach: dict[int, tuple[int, ...]] = {}
        entries = []
        easy = 0
        for line in board.lines_through(s, MAX_SLIDE):
            nodes = line[1:]
            shared = 0
            while shared < len(nodes) and nodes[shared] in reach and reach[nodes[shared]] == nodes[:shared + 1]:
                shared += 1
            for k in range(len(nodes)):
                previous = reach.setdefault(nodes[k], nodes[:k + 1])
                if previous != nodes[:k + 1]:
                    raise BoardSpecError(f"two slides from {board.names[s]} reach {board.names[nodes[k]]}")
            fresh = nodes[shared:]
            if fresh:
                entries.append((nodes[:shared], tuple(
                    (t, encode_path((s, t)), bool(partners[t] or central[t])) for t in fresh)))
            if not partners[nodes[0]] and not central[nodes[0]]:
                easy |= 1 << nodes[0]
        for t, path in reach.items():
            decode[encode_path((s, t))] = (s, t, -1, mask_of(path))
            for c in bits(partners[t]):
                action = named[s, t, c] = encode_path((s, t), c)
                decode[action] = (s, t, c, mask_of(path))
        paths.append(reach)
        groups = line_groups(entries)
        line_lists.append(groups)
        branches.append(tuple(group_tables(list(group), tuple(partners), central) for group in groups))
        zones.append(functools.reduce(int.__or__, (partners[t] for t in reach), 0))
        easy_steps.append(easy)
        on_line.append(frozenset(c for line in board.lines_through(s) for c in line[1:]))
    return Tables(branches=tuple(branches), lines=tuple(line_lists), paths=tuple(paths), on_line=tuple(on_line),
                  partners=tuple(partners), central=central, central_nodes=central_nodes, central_mask=mask_of(central_nodes),
                  decode=decode, named=named, easy_steps=tuple(easy_steps), zones=tuple(zones))


def start_nodes(board: Board, corners: str) -> tuple[list[int], list[int]]:
    """Black's and White's start nodes; `corners: white` swaps the two sets."""
    black, white = (BLACK_START, WHITE_START) if corners == "black" else (WHITE_START, BLACK_START)
    return [board.index_of(x) for x in black], [board.index_of(x) for x in white]  # type: ignore[misc]


class SingularityKernel:
    """A Singularity position: cells and a mask per colour, stone counts, the side to move, an undo stack."""

    __slots__ = (
        "_undo",
        "cells",
        "masks",
        "max_plies",
        "plies",
        "result",
        "score",
        "stones",
        "t",
        "termination",
        "to_move",
    )

    def __init__(self, board: Board, fusion: str, max_plies: int, black: list[int], white: list[int],
                 to_move: int = 1) -> None:
        self.t = tables(board, fusion)
        self.max_plies = max_plies
        self.cells = [0] * board.num_cells
        self.setup(black, white, to_move)

    def setup(self, black: list[int], white: list[int], to_move: int = 1) -> None:
        """Put exactly these stones on the board with `to_move` to move; the game goes on, the ply count stays."""
        cells = self.cells
        cells[:] = [0] * len(cells)
        for node in black:
            cells[node] = 1
        for node in white:
            cells[node] = 2
        self.masks = [0, mask_of(black), mask_of(white)]
        self.stones = [0, len(black), len(white)]
        self.to_move = to_move
        self.plies = getattr(self, "plies", 0)
        self.result = ONGOING
        self.termination: Termination | None = None
        self.score = None
        self._undo: list[tuple[int, int, int] | None] = []

    # --- moves -----------------------------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Every slide of the side to move with its fusion choices, keeping the central rule."""
        if self.result != ONGOING:
            return []
        return self._slides(self.to_move, False)

    def _slides(self, me: int, first: bool) -> list[int]:
        """The legal slides of `me` (only the first stone's with any when `first`)."""
        t = self.t
        own = self.masks[me]
        occ = own | self.masks[3 - me]
        central = t.central
        held = (own & t.central_mask).bit_count()
        branches = t.branches
        zones = t.zones
        out: list[int] = []
        mask = own
        while mask:
            low = mask & -mask
            mask ^= low
            s = low.bit_length() - 1
            base = held - central[s]
            others = own & ~low
            quick = base <= 0 and not others & zones[s]
            for bmask, plain, slow in branches[s]:
                key = occ & bmask
                if base <= 1:
                    out += plain[key]
                if slow is None:
                    continue
                actions, checks = slow[key]
                if quick:
                    out += actions
                    continue
                for target, action, partners, is_central in checks:
                    fusing = partners & others
                    after = base + is_central
                    if not fusing:
                        if after <= 1:
                            out.append(action)
                    elif not fusing & (fusing - 1):
                        if after - central[fusing.bit_length() - 1] <= 1:
                            out.append(action)
                    else:
                        for c in bits(fusing):
                            if after - central[c] <= 1:
                                out.append(t.named[s, target, c])
            if first and out:
                return out
        return out

    def has_move(self, me: int) -> bool:
        """True when `me` has a legal slide (a one-node step onto a plain empty node answers at once)."""
        own = self.masks[me]
        free = ~(own | self.masks[3 - me])
        if (own & self.t.central_mask).bit_count() <= 1:
            easy = self.t.easy_steps
            mask = own
            while mask:
                low = mask & -mask
                if easy[low.bit_length() - 1] & free:
                    return True
                mask ^= low
        return bool(self._slides(me, True))

    def is_legal(self, action: int) -> bool:
        """True when `action` is a legal slide now (any int may be asked)."""
        info = self.t.decode.get(action) if type(action) is int else None
        if info is None or self.result != ONGOING:
            return False
        s, target, named, path = info
        me = self.to_move
        own = self.masks[me]
        if not own >> s & 1 or path & (own | self.masks[3 - me]):
            return False
        central = self.t.central
        fusing = self.t.partners[target] & own & ~(1 << s)
        after = (own & self.t.central_mask).bit_count() - central[s] + central[target]
        if named >= 0:
            return bool(fusing & (fusing - 1)) and bool(fusing >> named & 1) and after - central[named] <= 1
        if not fusing:
            return after <= 1
        if fusing & (fusing - 1):
            return False
        return after - central[fusing.bit_length() - 1] <= 1

    def capture_of(self, action: int) -> int | None:
        """The stone a legal `action` fuses (named, or the only candidate), or None."""
        s, target, named, _ = self.t.decode[action]
        if named >= 0:
            return named
        fusing = self.t.partners[target] & self.masks[self.to_move] & ~(1 << s)
        return fusing.bit_length() - 1 if fusing else None

    # --- apply and undo ----------------------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Slide the stone, remove the fused one, pass the turn and decide the end."""
        t = self.t
        s, target, c, _ = t.decode[action]
        me = self.to_move
        cells = self.cells
        masks = self.masks
        own = masks[me] ^ (1 << s)
        if c < 0:
            fusing = t.partners[target] & own
            if fusing:
                c = fusing.bit_length() - 1
        cells[s] = 0
        cells[target] = me
        own |= 1 << target
        if c >= 0:
            cells[c] = 0
            own ^= 1 << c
            self.stones[me] -= 1
        masks[me] = own
        self._undo.append((s, target, c))
        self.plies += 1
        self.to_move = 3 - me
        if self.stones[me] == 1 and t.central[target]:
            self.result = me
            self.termination = SINGULARITY
        elif self.plies >= self.max_plies:
            self.result = DRAW
            self.termination = Termination.MOVE_LIMIT
        elif not self.has_move(3 - me):
            self.result = me
            self.termination = Termination.NO_MOVES

    def undo(self) -> None:
        """Take back the last apply or count_swap."""
        entry = self._undo.pop()
        self.plies -= 1
        self.result = ONGOING
        self.termination = None
        if entry is None:
            return
        s, target, c = entry
        me = 3 - self.to_move
        self.to_move = me
        cells = self.cells
        cells[target] = 0
        cells[s] = me
        own = self.masks[me] ^ (1 << target) ^ (1 << s)
        if c >= 0:
            cells[c] = me
            own |= 1 << c
            self.stones[me] += 1
        self.masks[me] = own

    def count_swap(self) -> None:
        """Count the pie answer's ply."""
        self.plies += 1
        self._undo.append(None)

    def key(self) -> int:
        """The stones of both sides and the side to move."""
        return hash((self.masks[1], self.masks[2], self.to_move))

    def clone(self) -> SingularityKernel:
        """An independent copy."""
        new = object.__new__(SingularityKernel)
        new.t = self.t
        new.max_plies = self.max_plies
        new.cells = self.cells.copy()
        new.masks = self.masks.copy()
        new.stones = self.stones.copy()
        new.to_move = self.to_move
        new.plies = self.plies
        new.result = self.result
        new.termination = self.termination
        new.score = self.score
        new._undo = self._undo.copy()
        return new
