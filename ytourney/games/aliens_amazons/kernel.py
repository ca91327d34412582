"""Aliens and Amazons on the kernel protocol: node contents kept in step with two masks, precomputed step and jump
tables, incremental captures and an undo stack, and end tests that never generate the moves.

Actions: a placement is its node; a step or a jump chain is `encode_path` of its nodes (start and every landing,
the captures implied). A chain extends its parent's action by one 9-bit field, so generation packs as it walks.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ytourney.boards.board import Board
from ytourney.games.aliens_amazons import tables as t
from ytourney.games.bitboard import mask_of
from ytourney.games.kernel import DRAW, NODE_BITS, NODE_LIMIT, ONGOING, decode_path, encode_path
from ytourney.games.termination import Termination

IMMOBILIZED = Termination.define("immobilized")
CAPTURES = Termination.define("captures")

EMPTY, AMAZON, ALIEN = t.EMPTY, t.AMAZON, t.ALIEN
ALIENS, AMAZONS = t.ALIENS, t.AMAZONS
NO_LIMIT = 1 << 62
"""The move limit when the rules set none."""
FIRST_NODE_SHIFT = NODE_BITS + 1
"""Where a packed path's first node sits in an action (above the capture field and the packed flag)."""
AMAZONS_MOST = 60
"""The most Amazons the `amazons` rule allows (the book: 30)."""
MAX_CHAIN = 1024
"""The most nodes a chain's path can have, start included (the C core's too). Between two captures a chain's
landings are all different and each lies behind one of the two other Aliens (jumped, not captured), at most 6 behind
one node on kadon; with at most 60 captures a path has at most 1 + 60 * 13 + 12 = 793 nodes (tests check it)."""
DECODED_CAP = 1 << 17
"""Decoded actions kept per board before the cache starts over (chains are many; any int may be asked)."""

Decoded = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""(source, target, path, the nodes jumped over in order; empty for a step)."""


@dataclass(frozen=True)
class KernelTables:
    """What the kernel needs of one board, built once per board."""

    tables: t.Tables
    n: int
    full: int
    neighbour_mask: tuple[int, ...]
    need: tuple[int, ...]
    free_steps: tuple[dict[int, list[int]], ...]
    """free_steps[a][m]: the step actions from a to the neighbours in the mask m, in neighbour order, for every
    subset m of a's neighbours (a node has at most 6)."""
    jumps: tuple[dict[int, tuple[tuple[int, int, int], ...]], ...]
    """jumps[a][m]: (over, landing, landing + 1) of every jump from a over a neighbour in the mask m, in
    `Tables.jumps` order, for every subset m of a's neighbours (the stones next to a pick the jumps to try)."""
    decoded: dict[int, Decoded | None]


@functools.lru_cache(maxsize=16)
def kernel_tables(board: Board) -> KernelTables:
    """The kernel tables of `board`."""
    tables = t.tables_for(board.spec)
    n = board.num_cells
    steps = tuple(tuple((b, encode_path((a, b))) for b in tables.neighbors[a]) for a in range(n))
    jumps = tuple({subset: tuple((over, land, land + 1) for over, land in tables.jumps[a] if subset >> over & 1)
                   for subset in _submasks(mask_of(tables.neighbors[a]))} for a in range(n))
    free_steps = tuple({subset: [action for b, action in steps[a] if subset >> b & 1]
                        for subset in _submasks(mask_of(tables.neighbors[a]))} for a in range(n))
    return KernelTables(tables, n, (1 << n) - 1, tuple(mask_of(tables.neighbors[a]) for a in range(n)), tables.need,
                        free_steps, jumps, {})


def _submasks(mask: int) -> list[int]:
    """Every subset of a mask."""
    subsets, subset = [], mask
    while True:
        subsets.append(subset)
        if not subset:
            return subsets
        subset = (subset - 1) & mask


def _decode(kt: KernelTables, action: int) -> Decoded | None:
    """A packed action's source, target, path and jumped nodes; None unless it is a well-formed step or chain."""
    decoded = kt.decoded
    if action in decoded:
        return decoded[action]
    found: Decoded | None = None
    if action & 1 and action.bit_length() <= FIRST_NODE_SHIFT + NODE_BITS * MAX_CHAIN:
        path, capture = decode_path(action)
        if capture is None and len(path) >= 2 and all(0 <= node < kt.n for node in path) \
                and encode_path(path) == action:
            found = _hops(kt, path)
    if len(decoded) >= DECODED_CAP:
        decoded.clear()
    decoded[action] = found
    return found


def _hops(kt: KernelTables, path: tuple[int, ...]) -> Decoded | None:
    """The decoded form of a path of nodes: a step to a neighbour, else jumps along lines (None if not)."""
    tables = kt.tables
    if len(path) == 2 and path[1] in tables.neighbors[path[0]]:
        return path[0], path[1], path, ()
    middle = tables.middle
    overs = []
    for a, c in zip(path, path[1:]):
        over = middle.get((a, c))
        if over is None:
            return None
        overs.append(over)
    return path[0], path[-1], path, tuple(overs)


class KernelViews:
    """What the knowledge and the tests read of a kernel's actions, for the Python kernel and the C core's alike
    (from `kt` and `cells`)."""

    __slots__ = ()
    kt: KernelTables
    cells: list[int]

    def decoded(self, action: int) -> Decoded | None:
        """(source, target, path, jumped nodes) of a packed action (None for a placement or a malformed int)."""
        return None if action < NODE_LIMIT else _decode(self.kt, action)

    def source_target(self, action: int) -> tuple[int, int]:
        """(the node a stone leaves, -1 for a placement; the node it ends on) of a legal action."""
        if action < NODE_LIMIT:
            return -1, action
        decoded = self.kt.decoded.get(action) or _decode(self.kt, action)
        return (decoded[0], decoded[1]) if decoded is not None else (-1, -1)

    def gain(self, action: int) -> int:
        """Amazons an Alien action would capture now (0 for placements and steps)."""
        if action < NODE_LIMIT:
            return 0
        decoded = self.kt.decoded.get(action) or _decode(self.kt, action)
        if decoded is None:
            return 0
        cells = self.cells
        return sum(1 for over in decoded[3] if cells[over] == AMAZON)


class AliensAmazonsKernel(KernelViews):
    """One position: cells (EMPTY, AMAZON 1, ALIEN 2) and their masks, the counters, the side to move, the end."""

    __slots__ = ("aliens", "aliens_placed", "amazons", "amazons_placed", "amazons_total", "captured", "cells", "kt", "max_plies",
                 "plies", "result", "score", "tables", "termination", "threshold", "to_move", "_undo")

    def __init__(self, board: Board, threshold: int | None = None, max_plies: int | None = None,
                 amazons: int = AMAZONS) -> None:
        self.kt = kernel_tables(board)
        self.tables = self.kt.tables
        self.threshold = threshold or self.tables.threshold
        self.amazons_total = amazons
        """The Amazons of the game (30 by the book; the `amazons` rule gives more)."""
        self.max_plies = max_plies or NO_LIMIT
        self.cells = [EMPTY] * self.kt.n
        self.amazons = self.aliens = 0
        self.amazons_placed = self.aliens_placed = self.captured = 0
        self.to_move = ALIEN
        self.plies = 0
        self.result = ONGOING
        self.termination: Termination | None = None
        self.score: tuple[float, float] | None = None
        self._undo: tuple[object, object] | None = None
        """The undo chain: (last record, the chain before it); shared by clones, never mutated."""

    def setup(self, aliens: list[int], amazons: list[int], to_move: int = ALIEN, amazons_placed: int = -1,
              captured: int = 0) -> None:
        """Set up a hand-made position (tests, studies): stones on the given nodes, the counters as given (-1 Amazons
        placed: all of them); the end is not judged and the ply count and undo stack start over."""
        if amazons_placed < 0:
            amazons_placed = self.amazons_total
        self.cells = [EMPTY] * self.kt.n
        for node in aliens:
            self.cells[node] = ALIEN
        for node in amazons:
            self.cells[node] = AMAZON
        self.aliens, self.amazons = mask_of(aliens), mask_of(amazons)
        self.aliens_placed = self.aliens.bit_count()
        self.amazons_placed, self.captured, self.to_move = amazons_placed, captured, int(to_move)
        self.plies, self.result, self.termination = 0, ONGOING, None
        self._undo = None

    # --- legal actions -----------------------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Placements while placing; Alien steps and jump chains; Amazon steps (the old generators' order)."""
        if self.result != ONGOING:
            return []
        cells = self.cells
        if self.to_move == AMAZON:
            if self.amazons_placed < self.amazons_total:
                return [node for node, stone in enumerate(cells) if not stone]
            return self._amazon_steps()
        if self.aliens_placed < ALIENS:
            return [node for node, stone in enumerate(cells) if not stone]
        return self.alien_actions()

    def _amazon_steps(self) -> list[int]:
        """Every step of an Amazon to an empty neighbour (Amazons in node order, neighbours in board order)."""
        kt = self.kt
        free_steps, neighbour_mask = kt.free_steps, kt.neighbour_mask
        empty = kt.full & ~(self.amazons | self.aliens)
        out: list[int] = []
        for a, stone in enumerate(self.cells):
            if stone == AMAZON:
                free = neighbour_mask[a] & empty
                if free:
                    out += free_steps[a][free]
        return out

    def alien_actions(self) -> list[int]:
        """Every step and jump chain of the Aliens on the board (each chain's prefixes moves of their own)."""
        kt = self.kt
        free_steps, neighbour_mask, jumps = kt.free_steps, kt.neighbour_mask, kt.jumps
        stones = self.amazons | self.aliens
        empty = kt.full & ~stones
        out: list[int] = []
        aliens = self.aliens
        while aliens:
            low = aliens & -aliens
            aliens ^= low
            a = low.bit_length() - 1
            out += free_steps[a][neighbour_mask[a] & empty]
            if neighbour_mask[a] & stones:
                _chains(jumps, neighbour_mask, stones ^ low, self.amazons, a, 1 | ((a + 1) << FIRST_NODE_SHIFT),
                        FIRST_NODE_SHIFT + NODE_BITS, low, out)
        return out

    def capture_moves(self) -> tuple[int, list[int]]:
        """The most Amazons one Alien move captures now, and every move capturing that many (generation order;
        none when no move captures)."""
        kt = self.kt
        neighbour_mask, jumps = kt.neighbour_mask, kt.jumps
        stones = self.amazons | self.aliens
        best, chosen = [0], []
        aliens = self.aliens
        while aliens:
            low = aliens & -aliens
            aliens ^= low
            a = low.bit_length() - 1
            if neighbour_mask[a] & stones:
                _captures(jumps, neighbour_mask, stones ^ low, self.amazons, a, 1 | ((a + 1) << FIRST_NODE_SHIFT),
                          FIRST_NODE_SHIFT + NODE_BITS, low, 0, best, chosen)
        return best[0], chosen

    def is_legal(self, action: int) -> bool:
        """True when `action` is legal now, checked on the board (any int may be asked)."""
        if type(action) is not int or action < 0 or self.result != ONGOING:
            return False
        mover = self.to_move
        placing = self.amazons_placed < self.amazons_total if mover == AMAZON else self.aliens_placed < ALIENS
        if action < NODE_LIMIT:
            return placing and action < self.kt.n and not self.cells[action]
        if placing:
            return False
        decoded = _decode(self.kt, action)
        if decoded is None:
            return False
        source, target, path, overs = decoded
        cells = self.cells
        if cells[source] != mover:
            return False
        if not overs:
            return not cells[target]
        if mover != ALIEN:
            return False
        occupied = (self.amazons | self.aliens) & ~(1 << source)
        visited = 1 << source
        for over, land in zip(overs, path[1:]):
            bit = 1 << land
            if not occupied >> over & 1 or (occupied | visited) & bit:
                return False
            if self.amazons >> over & 1:
                occupied &= ~(1 << over)
                visited = bit  # a capture changed the board: the nodes left before may be landed on again
            else:
                visited |= bit
        return True

    # --- apply, undo ----------------------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Play a legal action and decide the end: captures or immobilized, then the move limit, then no moves."""
        cells = self.cells
        mover = self.to_move
        if action < NODE_LIMIT:
            cells[action] = mover
            if mover == AMAZON:
                self.amazons |= 1 << action
                self.amazons_placed += 1
            else:
                self.aliens |= 1 << action
                self.aliens_placed += 1
            self._undo = (action, self._undo)
        else:
            decoded = self.kt.decoded.get(action) or _decode(self.kt, action)
            source, target, _, overs = decoded  # type: ignore[misc]
            cells[source] = EMPTY
            moved = (1 << source) | (1 << target)
            taken: tuple[int, ...] = ()
            if overs:
                taken = tuple([over for over in overs if cells[over] == AMAZON])
                if taken:
                    for over in taken:
                        cells[over] = EMPTY
                        self.amazons ^= 1 << over
                    self.captured += len(taken)
            cells[target] = mover
            if mover == AMAZON:
                self.amazons ^= moved
            else:
                self.aliens = (self.aliens & ~(1 << source)) | (1 << target)  # a chain may end on its start
            self._undo = ((source, target, taken), self._undo)
        self.to_move = 3 - mover
        self.plies += 1
        if mover == ALIEN:
            if self.amazons_total - self.captured < self.threshold:
                self.result, self.termination = ALIEN, CAPTURES
                return
        elif not self._aliens_can_move():
            self.result, self.termination = AMAZON, IMMOBILIZED
            return
        if self.plies >= self.max_plies:
            self.result, self.termination = DRAW, Termination.MOVE_LIMIT
        elif mover == ALIEN and not self._amazons_can_move():
            self.result, self.termination = ALIEN, Termination.NO_MOVES

    def undo(self) -> None:
        """Take back the last action or counted swap."""
        record, self._undo = self._undo  # type: ignore[misc]
        self.plies -= 1
        if record is None:
            return
        self.result, self.termination = ONGOING, None
        mover = self.to_move = 3 - self.to_move
        cells = self.cells
        if type(record) is int:
            cells[record] = EMPTY
            if mover == AMAZON:
                self.amazons ^= 1 << record
                self.amazons_placed -= 1
            else:
                self.aliens ^= 1 << record
                self.aliens_placed -= 1
            return
        source, target, taken = record  # type: ignore[misc]
        cells[target] = EMPTY
        for over in taken:
            cells[over] = AMAZON
            self.amazons |= 1 << over
        self.captured -= len(taken)
        cells[source] = mover
        if mover == AMAZON:
            self.amazons ^= (1 << source) | (1 << target)
        else:
            self.aliens = (self.aliens & ~(1 << target)) | (1 << source)

    def count_swap(self) -> None:
        """Count the pie answer's ply."""
        self.plies += 1
        self._undo = (None, self._undo)

    def _aliens_can_move(self) -> bool:
        """True when the Aliens, to move, have a move: a placement, or an empty node of some Alien's need set
        (an empty neighbour is a step; with every neighbour filled, an empty landing is a jump)."""
        empty = self.kt.full & ~(self.amazons | self.aliens)
        if self.aliens_placed < ALIENS:
            return empty != 0
        need = self.kt.need
        aliens = self.aliens
        while aliens:
            low = aliens & -aliens
            if need[low.bit_length() - 1] & empty:
                return True
            aliens ^= low
        return False

    def _amazons_can_move(self) -> bool:
        """True when the Amazons, to move, have a placement or a step."""
        empty = self.kt.full & ~(self.amazons | self.aliens)
        if self.amazons_placed < self.amazons_total:
            return empty != 0
        neighbour_mask = self.kt.neighbour_mask
        amazons = self.amazons
        while amazons:
            low = amazons & -amazons
            if neighbour_mask[low.bit_length() - 1] & empty:
                return True
            amazons ^= low
        return False

    # --- key, copy -------------------------------------------------------------------------------------------

    def key(self) -> int:
        """A hash of the stones, the Amazons placed and captured, and the side to move."""
        return hash((self.amazons, self.aliens, self.to_move, self.amazons_placed, self.captured))

    def clone(self) -> AliensAmazonsKernel:
        """An independent copy (sharing the immutable undo chain, so it can take back the moves before it too)."""
        new = object.__new__(AliensAmazonsKernel)
        new.kt, new.tables, new.threshold, new.max_plies = self.kt, self.tables, self.threshold, self.max_plies
        new.amazons_total = self.amazons_total
        new.cells, new.amazons, new.aliens = self.cells.copy(), self.amazons, self.aliens
        new.amazons_placed, new.aliens_placed, new.captured = self.amazons_placed, self.aliens_placed, self.captured
        new.to_move, new.plies, new.result, new.termination = self.to_move, self.plies, self.result, self.termination
        new.score, new._undo = self.score, self._undo
        return new


def _chains(jumps: tuple[dict[int, tuple[tuple[int, int, int], ...]], ...], neighbour_mask: tuple[int, ...],
            stones: int, amazons: int, at: int, action: int, shift: int, visited: int, out: list[int]) -> None:
    """Extend a chain ending on `at` (packed so far as `action`, the next landing going at `shift`; `stones` the
    stones still on the board but the moving Alien) by every jump: over any stone to an empty landing not in
    `visited`, the nodes landed on (the start included) since the chain's last capture; a jumped Amazon leaves the
    board at once, and that capture lets the chain land again where it has been (DESIGN §1b)."""
    blocked = stones | visited
    for over, land, field in jumps[at][neighbour_mask[at] & stones]:
        if blocked >> land & 1:
            continue
        longer = action | (field << shift)
        out.append(longer)
        bit = 1 << over
        if amazons & bit:
            _chains(jumps, neighbour_mask, stones ^ bit, amazons ^ bit, land, longer, shift + NODE_BITS, 1 << land,
                    out)
        else:
            _chains(jumps, neighbour_mask, stones, amazons, land, longer, shift + NODE_BITS, visited | (1 << land),
                    out)


def _captures(jumps: tuple[dict[int, tuple[tuple[int, int, int], ...]], ...], neighbour_mask: tuple[int, ...],
              stones: int, amazons: int, at: int, action: int, shift: int, visited: int, taken: int, best: list[int],
              chosen: list[int]) -> None:
    """Walk the chains as `_chains` does, keeping in `chosen` the ones that capture the most so far (`best[0]`)."""
    blocked = stones | visited
    for over, land, field in jumps[at][neighbour_mask[at] & stones]:
        if blocked >> land & 1:
            continue
        longer = action | (field << shift)
        bit = 1 << over
        if amazons & bit:
            if taken + 1 > best[0]:
                best[0] = taken + 1
                chosen.clear()
            if taken + 1 == best[0]:
                chosen.append(longer)
            _captures(jumps, neighbour_mask, stones ^ bit, amazons ^ bit, land, longer, shift + NODE_BITS,
                      1 << land, taken + 1, best, chosen)
        else:
            if taken and taken == best[0]:
                chosen.append(longer)
            _captures(jumps, neighbour_mask, stones, amazons, land, longer, shift + NODE_BITS, visited | (1 << land),
                      taken, best, chosen)
