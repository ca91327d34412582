"""Leap Over's kernel: stones as two bit masks, every node's first-jump landings, chains by a DFS over masks.

For each node p the kernel has `reach()[p]`, the mask of the nodes a stone on p could reach in one jump (the stone
jumped over present, the landing empty). The pure-Python lister keeps it up to date, recomputing after a move only
the nodes whose jumps cross the two nodes that changed; with the C core, which lists chains from the masks alone, it
is computed when asked. A stone's chains are the simple paths of that jump graph from its node, less the jumps over
its own start (the stone is lifted): a DFS over masks, each chain's action built by one addition.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from itertools import combinations

from ytourney.boards.board import Board
from ytourney.boards.regions import region
from ytourney.games.api import EMPTY, Termination
from ytourney.games.kernel import DRAW, NODE_BITS, NODE_LIMIT, ONGOING, PASS_ACTION

FILLED = Termination.define("filled")
BLOCKED = Termination.define("blocked")

try:
    from ytourney.games.leap_over import _leapcore
except ImportError:  # no compiler at install time: the pure-Python chains serve alone
    _leapcore = None

CORE_ROW = 8
"""(over, landing) pairs a node's row holds in the C core's table (a kadon node has at most 7 jumps)."""
LOW = (1 << 64) - 1

FIRST_FIELD = NODE_BITS + 1
"""Where a packed path's first node starts: after its flag bit and its (empty) capture field."""


def pure_python() -> bool:
    """True when YTOURNEY_PURE_PYTHON asks for pure Python even though the C core is built."""
    return os.environ.get("YTOURNEY_PURE_PYTHON", "").strip().lower() not in ("", "0", "false", "no")


class Tables:
    """Per-board tables of the jumps: (over, landing) pairs as bits, their orders and the start triangles."""

    def __init__(self, board: Board) -> None:
        n = self.size = board.num_cells
        jumps: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for (a, b), nexts in sorted(board.continuation_table.items()):
            for c in nexts:
                jumps[a].append((b, c))
        self.jumps = tuple(tuple(row) for row in jumps)
        """jumps[p]: every (over, landing) of a stone on p, in the order the chains are listed."""
        self.over = {(p, to): over for p in range(n) for over, to in jumps[p]}
        """over[(p, q)]: the node a jump from p to q passes over (one per pair on the kadon board)."""
        self.pairs = tuple(tuple((1 << over, 1 << to) for over, to in row) for row in jumps)
        self.near = tuple(_mask(x for pair in row for x in pair) for row in jumps)
        """near[p]: the nodes whose contents decide p's first jumps."""
        self.touched = tuple(tuple(p for p in range(n) if self.near[p] >> x & 1) for x in range(n))
        """touched[x]: the nodes whose first jumps change when x changes."""
        self.memo: tuple[dict[int, int], ...] = tuple({} for _ in range(n))
        self.order = tuple(_orders(row) for row in jumps)
        """order[p][landings]: those landings of p as (node, bit), in the jump order."""
        over_start = [[0] * n for _ in range(n)]
        for p in range(n):
            for over, to in jumps[p]:
                over_start[over][p] |= 1 << to
        self.over_start = tuple(tuple(row) for row in over_start)
        """over_start[s][p]: the landings of the jumps from p over s (a lifted start is jumped over by none)."""
        self.shift = tuple(tuple((q + 1) << (FIRST_FIELD + NODE_BITS * d) for q in range(n))
                           for d in range(n))
        """shift[d][q]: q's term in a packed path when it is the path's node d."""
        triples = {(a, b, c) for a, row in enumerate(jumps) for b, c in row}
        self.reversible = all((c, b, a) in triples for a, b, c in triples)
        """True when every jump can be jumped back: the side that just leapt can always leap again."""
        homes = (region(board, "side-triangle-2"), region(board, "side-triangle-3"))
        self.homes = (0, _mask(homes[0]), _mask(homes[1]))
        self.targets = (0, self.homes[2], self.homes[1])
        self.home_nodes = (), tuple(homes[0]), tuple(homes[1])

    def core(self) -> Callable[..., list[int]] | None:
        """The C core's chain lister bound to this board's table, or None (not built, a board it cannot hold, or
        YTOURNEY_PURE_PYTHON=1)."""
        return None if pure_python() else self._core

    @functools.cached_property
    def _core(self) -> Callable[..., list[int]] | None:
        if _leapcore is None or self.size > 128 or any(len(row) > CORE_ROW for row in self.jumps):
            return None
        table = bytearray()
        for row in self.jumps:
            for over, to in row:
                table += bytes((over, to))
            table += b"\xff\xff" * (CORE_ROW - len(row))
        return functools.partial(_leapcore.chains, bytes(table))

    def landings(self, p: int, occupied: int) -> int:
        """The first-jump landings of a stone on p among `occupied` (memoised on the nodes that decide them)."""
        local = occupied & self.near[p]
        found = self.memo[p].get(local)
        if found is None:
            found = 0
            for over, to in self.pairs[p]:
                if local & over and not local & to:
                    found |= to
            self.memo[p][local] = found
        return found


def _mask(nodes: object) -> int:
    mask = 0
    for node in nodes:  # type: ignore[attr-defined]
        mask |= 1 << node
    return mask


def _orders(row: list[tuple[int, int]]) -> dict[int, tuple[tuple[int, int], ...]]:
    """Every subset of a row's landings (as a mask) to its landings in row order."""
    entries = [(to, 1 << to) for _, to in row]
    table: dict[int, tuple[tuple[int, int], ...]] = {}
    for size in range(len(entries) + 1):
        for subset in combinations(entries, size):
            mask = _mask(to for to, _ in subset)
            table[mask] = tuple(entry for entry in entries if mask & entry[1])
    return table


@functools.lru_cache(maxsize=4)
def tables(board: Board) -> Tables:
    """The jump tables of `board`, built once."""
    return Tables(board)


class LeapOverKernel:
    """A Leap Over position: the stones, the side to move, the first-jump landings and an undo chain."""

    __slots__ = ("cells", "to_move", "plies", "result", "termination", "score", "masks", "_reach", "goal_all",
                 "max_plies", "_t", "_undo", "_core")

    def __init__(self, board: Board, goal: str, max_plies: int) -> None:
        self._t = t = tables(board)
        self._core = t.core()
        self.goal_all = goal == "all"
        self.max_plies = max_plies
        self.plies = 0
        self.score = None
        self.cells = [EMPTY] * t.size
        self.masks = [0, 0, 0]
        self.setup(t.home_nodes[1], t.home_nodes[2], 1)

    def setup(self, black: object, white: object, to_move: int = 1) -> None:
        """Replace the stones and the side to move (a hand-made position); the ply count stays, the undo chain
        starts afresh and the game is on."""
        t = self._t
        cells = self.cells
        cells[:] = [EMPTY] * t.size
        self.masks = [0, 0, 0]
        for colour, nodes in ((1, black), (2, white)):
            for node in nodes:  # type: ignore[attr-defined]
                cells[node] = colour
                self.masks[colour] |= 1 << node
        self.to_move = int(to_move)
        occupied = self.masks[1] | self.masks[2]
        self._reach: tuple[int, ...] | None = tuple(t.landings(p, occupied) for p in range(t.size))
        self.result = ONGOING
        self.termination: Termination | None = None
        self._undo: tuple | None = None

    # --- moves -----------------------------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """Every jump chain of the side to move (stones in node order, chains depth first), or the pass alone."""
        if self.result != ONGOING:
            return []
        if self._core is not None:
            black, white = self.masks[1], self.masks[2]
            return self._core(black & LOW, black >> 64, white & LOW, white >> 64, self.to_move) or [PASS_ACTION]
        return self.python_actions()

    def python_actions(self) -> list[int]:
        """`legal_actions` in pure Python (what the C core computes, chain for chain)."""
        t = self._t
        reach, order, shift, over_start = self.reach(), t.order, t.shift, t.over_start
        found: list[int] = []
        append = found.append

        def extend(p: int, visited: int, action: int, depth: int, lifted: tuple[int, ...]) -> None:
            terms = shift[depth]
            for q, bit in order[p][reach[p] & ~(visited | lifted[p])]:
                longer = action + terms[q]
                append(longer)
                now = visited | bit
                if reach[q] & ~(now | lifted[q]):
                    extend(q, now, longer, depth + 1, lifted)

        mine = self.masks[self.to_move]
        while mine:
            low = mine & -mine
            mine ^= low
            s = low.bit_length() - 1
            if reach[s]:
                extend(s, low, 1 + ((s + 1) << FIRST_FIELD), 1, over_start[s])
        return found or [PASS_ACTION]

    def reach(self) -> tuple[int, ...]:
        """reach[p]: where a stone on p lands in one jump (a tuple: the undo chain keeps them, untracked by the gc)."""
        reach = self._reach
        if reach is None:
            occupied = self.masks[1] | self.masks[2]
            landings = self._t.landings
            reach = self._reach = tuple([landings(p, occupied) for p in range(self._t.size)])
        return reach

    def can_leap(self, colour: int) -> bool:
        """True when `colour` has a first jump."""
        occupied = self.masks[1] | self.masks[2]
        landings = self._t.landings
        mine = self.masks[colour]
        while mine:
            low = mine & -mine
            if landings(low.bit_length() - 1, occupied):
                return True
            mine ^= low
        return False

    def is_legal(self, action: int) -> bool:
        """Checked on the board jump by jump, for any int."""
        if type(action) is not int or self.result != ONGOING:
            return False
        if action == PASS_ACTION:
            return not self.can_leap(self.to_move)
        path = self.path_of(action)
        if path is None:
            return False
        cells, over = self.cells, self._t.over
        source = path[0]
        if cells[source] != self.to_move or len(set(path)) != len(path):
            return False
        for p, q in zip(path, path[1:]):
            between = over.get((p, q))
            if between is None or cells[q] or not cells[between] or between == source:
                return False
        return True

    def path_of(self, action: int) -> tuple[int, ...] | None:
        """The nodes of a packed chain of two nodes or more on this board, or None for any other int."""
        size = self._t.size
        if action < NODE_LIMIT or not action & 1 or action.bit_length() > FIRST_FIELD + NODE_BITS * (size + 1):
            return None
        packed = action >> 1
        if packed & (NODE_LIMIT - 1):
            return None  # Leap Over captures nothing
        packed >>= NODE_BITS
        path = []
        while packed:
            node = (packed & (NODE_LIMIT - 1)) - 1
            if not 0 <= node < size:
                return None
            path.append(node)
            packed >>= NODE_BITS
        return tuple(path) if len(path) >= 2 else None

    def apply(self, action: int) -> None:
        """Play a legal action: lift the stone, set it on its last landing; then decide the end."""
        me = self.to_move
        other = 3 - me
        self.plies += 1
        self.to_move = other
        if action == PASS_ACTION:
            self._undo = (-1, 0, self._reach, self._undo)
            if not self.can_leap(other) and not self.can_leap(me):
                self.result, self.termination = DRAW, BLOCKED
            elif self.plies >= self.max_plies:
                self.result, self.termination = DRAW, Termination.MOVE_LIMIT
            return
        source = ((action >> FIRST_FIELD) & (NODE_LIMIT - 1)) - 1
        target = (action >> ((action.bit_length() - FIRST_FIELD - 1) // NODE_BITS * NODE_BITS + FIRST_FIELD)) - 1
        t = self._t
        self._undo = (source, target, self._reach, self._undo)
        cells = self.cells
        cells[source] = EMPTY
        cells[target] = me
        masks = self.masks
        masks[me] ^= (1 << source) | (1 << target)
        if self._core is not None or self._reach is None:
            self._reach = None  # the C core lists chains from the masks: landings are computed when asked
        else:
            occupied = masks[1] | masks[2]
            reach = list(self._reach)
            near, memo = t.near, t.memo
            for p in t.touched[source] + t.touched[target]:
                local = occupied & near[p]
                found = memo[p].get(local)
                if found is None:
                    found = t.landings(p, occupied)
                reach[p] = found
            self._reach = tuple(reach)
        if self._filled(me):
            self.result, self.termination = me, FILLED
        elif self._filled(other):
            self.result, self.termination = other, FILLED
        elif not t.reversible and not self.can_leap(other) and not self.can_leap(me):
            self.result, self.termination = DRAW, BLOCKED
        elif self.plies >= self.max_plies:
            self.result, self.termination = DRAW, Termination.MOVE_LIMIT

    def _filled(self, colour: int) -> bool:
        """True when `colour` has reached its goal."""
        target = self._t.targets[colour]
        if self.goal_all:
            return self.masks[colour] & target == target
        return (self.masks[1] | self.masks[2]) & target == target and bool(self.masks[colour] & target)

    def undo(self) -> None:
        """Take back the last action or pie answer."""
        source, target, reach, self._undo = self._undo  # type: ignore[misc]
        self.plies -= 1
        self.result = ONGOING
        self.termination = None
        if source == -2:
            return
        self.to_move = mover = 3 - self.to_move
        self._reach = reach
        if source >= 0:
            cells = self.cells
            cells[target] = EMPTY
            cells[source] = mover
            self.masks[mover] ^= (1 << source) | (1 << target)

    def count_swap(self) -> None:
        """Count the pie answer's ply."""
        self._undo = (-2, 0, self._reach, self._undo)
        self.plies += 1

    def key(self) -> int:
        """The stones and the side to move."""
        return hash((self.masks[1], self.masks[2], self.to_move))

    def clone(self) -> LeapOverKernel:
        """A copy sharing the never-mutated landings lists and undo chain."""
        new = object.__new__(LeapOverKernel)
        new._t = self._t
        new._core = self._core
        new.goal_all = self.goal_all
        new.max_plies = self.max_plies
        new.cells = self.cells.copy()
        new.masks = self.masks.copy()
        new.to_move = self.to_move
        new.plies = self.plies
        new.result = self.result
        new.termination = self.termination
        new.score = None
        new._reach = self._reach
        new._undo = self._undo
        return new

    @property
    def tables(self) -> Tables:
        """The board's jump tables."""
        return self._t
