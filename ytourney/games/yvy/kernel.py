"""YvY's kernel: place or pass on int actions, a loop found incrementally wins at once, two passes in a row end
with the count, every step undone from a stack.

Actions: a placement is its cell, a pass `PASS_ACTION`. The legal actions are the empty cells in ascending order,
then the pass (always legal, so the side to move never runs out of moves). The loop tracker (geometry.LoopTracker)
is a union-find without path compression whose unions are undone from its log. The optional C core
(_yvycore.c, wrapped by ckernel.py) implements this same kernel and its playouts, move for move.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import TypeVar

from ytourney.boards.board import Board
from ytourney.games.kernel import DRAW, ONGOING, PASS_ACTION
from ytourney.games.termination import Termination
from ytourney.games.yvy.geometry import (
    ARC_STARTS,
    EMPTY,
    FULL,
    MAY_CLOSE,
    Geometry,
    LoopTracker,
    geometry,
)
from ytourney.games.yvy.scoring import Count, count

BLACK = 1
WHITE = 2
MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
"""splitmix64's constants: the playouts' random stream, the same in the C core (_yvycore.c)."""
T = TypeVar("T")
SWAP_MARK = -1
"""The undo stack's entry for the pie answer's ply."""

LOOP = Termination.define("loop")
SCORE = Termination.define("score")


class YvyKernel:
    """One YvY position: stones, empty cells, the loop tracker, consecutive passes and the end."""

    __slots__ = ("cells", "count", "empties", "geo", "loop_at", "masks", "max_plies", "n", "passes", "plies",
                 "result", "score", "shared", "stack", "termination", "to_move", "tracker")

    def __init__(self, board: Board, max_plies: int) -> None:
        self.geo: Geometry = geometry(board)
        self.n = board.num_cells
        self.max_plies = max_plies
        self.cells = [EMPTY] * self.n
        self.empties = list(range(self.n))
        self.masks = [0, 0, 0]
        """The stones of each colour as bits (index 1 Black, 2 White)."""
        self.tracker = LoopTracker(self.geo)
        self.shared = False
        """True while the tracker is shared with a clone: the first stone placed or taken back copies it."""
        self.to_move = WHITE
        self.plies = 0
        self.passes = 0
        """Passes in a row just played (2 ends the game)."""
        self.result = ONGOING
        self.termination: Termination | None = None
        self.score: tuple[float, float] | None = None
        self.loop_at: int | None = None
        """The cell whose stone closed the winning loop."""
        self.count: Count | None = None
        """The count that ended the game after two passes."""
        self.stack: list[tuple[int, int, int]] = []

    @classmethod
    def setup(cls, board: Board, black: list[int], white: list[int], to_move: int = WHITE,
              max_plies: int = 1000) -> YvyKernel:
        """A position with these stones (no ply counted, no loop judged), `to_move` to move: for tests and tools."""
        kernel = cls(board, max_plies)
        for colour, cells in ((1, black), (WHITE, white)):
            for cell in cells:
                kernel.cells[cell] = colour
                kernel.empties.remove(cell)
                kernel.masks[colour] |= 1 << cell
                kernel.tracker.place(kernel.cells, cell, colour)
        kernel.tracker.log.clear()
        kernel.to_move = to_move
        return kernel

    def legal_actions(self) -> list[int]:
        """The empty cells in ascending order, then the pass; empty once over."""
        if self.result != ONGOING:
            return []
        actions = self.empties.copy()
        actions.append(PASS_ACTION)
        return actions

    def legal_objects(self, objects: Sequence[T]) -> list[T]:
        """`objects[a]` for each legal action a, `objects[n]` standing for the pass (the front's Moves)."""
        if self.result != ONGOING:
            return []
        found = [objects[action] for action in self.empties]  # map(tuple.__getitem__) is twice as slow
        found.append(objects[self.n])
        return found

    def is_legal(self, action: int) -> bool:
        """An empty cell or the pass, while the game goes on."""
        if self.result != ONGOING or type(action) is not int:
            return False
        if action == PASS_ACTION:
            return True
        return 0 <= action < self.n and self.cells[action] == EMPTY

    def apply(self, action: int) -> None:
        """Place or pass, then judge: a loop, two passes (the count), the move limit."""
        colour = self.to_move
        self.to_move = 3 - colour
        self.plies += 1
        if action == PASS_ACTION:
            self.stack.append((PASS_ACTION, 0, self.passes))
            self.passes += 1
            if self.passes >= 2:
                self._count()
            elif self.plies >= self.max_plies:
                self.result, self.termination = DRAW, Termination.MOVE_LIMIT
            return
        self.cells[action] = colour
        empties = self.empties
        index = bisect_left(empties, action)
        del empties[index]
        self.masks[colour] |= 1 << action
        self.stack.append((action, index, self.passes))
        self.passes = 0
        if self.shared:
            self._own_tracker()
        if self.tracker.place(self.cells, action, colour):
            self.result, self.termination, self.loop_at = colour, LOOP, action
        elif self.plies >= self.max_plies:
            self.result, self.termination = DRAW, Termination.MOVE_LIMIT

    def _count(self) -> None:
        """End by the count of the position as it stands."""
        final = self.count = count(self.geo, self.cells)
        black, white = final.score
        self.score = (float(black), float(white))
        self.result = DRAW if black == white else 1 if black > white else WHITE
        self.termination = SCORE

    def undo(self) -> None:
        """Take back the last action or the pie answer's ply."""
        action, index, passes = self.stack.pop()
        self.plies -= 1
        if action == SWAP_MARK:
            return
        self.to_move = colour = 3 - self.to_move
        self.passes = passes
        if self.result != ONGOING:
            self.result, self.termination, self.score, self.loop_at, self.count = ONGOING, None, None, None, None
        if action == PASS_ACTION:
            return
        cells = self.cells
        cells[action] = EMPTY
        self.empties.insert(index, action)
        self.masks[colour] ^= 1 << action
        if self.shared:
            self._own_tracker()
        self.tracker.undo()

    def count_swap(self) -> None:
        """The pie answer's ply: counted, nothing else changes."""
        self.plies += 1
        self.stack.append((SWAP_MARK, 0, 0))

    def key(self) -> int:
        """The stones, the side to move and whether the last action was a pass (a second one ends the game), packed
        exactly into one int (a hash of the masks would fold cell c + 61 onto cell c: ints hash modulo 2**61 - 1)."""
        return (((self.masks[2] << self.n | self.masks[1]) << 2 | self.passes) << 2) | self.to_move

    def clone(self) -> YvyKernel:
        """An independent copy, undo history included (the loop tracker copied on the first write of either)."""
        new = object.__new__(YvyKernel)
        new.geo, new.n, new.max_plies = self.geo, self.n, self.max_plies
        new.cells = self.cells.copy()
        new.empties = self.empties.copy()
        new.masks = self.masks.copy()
        new.tracker = self.tracker  # copied by whichever of the two places or takes back a stone first
        new.shared = self.shared = True
        new.to_move, new.plies, new.passes = self.to_move, self.plies, self.passes
        new.result, new.termination, new.score = self.result, self.termination, self.score
        new.loop_at, new.count = self.loop_at, self.count
        new.stack = self.stack.copy()
        return new

    def _own_tracker(self) -> None:
        """A tracker of this kernel's own, before it changes one shared with a clone."""
        self.tracker = self.tracker.copy()
        self.shared = False

    def first_loop(self, seed: int, stones: int) -> tuple[int, list[int], list[int]]:
        """Fill up to `stones` empty cells, each drawn from the splitmix64 stream of `seed` (`next() % left` over
        the pool of the empty cells, ascending at first, each pick swapped with the pool's last), colours alternating
        from the side to move, on copies of the tables (this position is left alone, the move limit not applied): the
        colour that closed the first loop (0 for none), the cells played in order and the cells after them. A
        playout's fast path, drawn exactly as the C core draws (nothing to undo, the copies are dropped)."""
        cells = self.cells.copy()
        pool = self.empties.copy()
        tracker = self.tracker
        parent = tracker.parent.copy()
        patterns = (tracker.pattern[0], tracker.pattern[1].copy(), tracker.pattern[2].copy())
        around = tracker.around
        links = tracker.links
        starts = ARC_STARTS
        colour = self.to_move
        left = len(pool)
        end = max(left - stones, 0)
        winner = 0
        state = seed & MASK64
        while left > end:
            state = (state + GOLDEN) & MASK64
            z = ((state ^ (state >> 30)) * MIX1) & MASK64
            z = ((z ^ (z >> 27)) * MIX2) & MASK64
            pick = (z ^ (z >> 31)) % left
            left -= 1
            cell = pool[pick]
            pool[pick] = pool[left]
            pool[left] = cell  # the cells played gather at the end of the pool, last first
            cells[cell] = colour
            pattern = patterns[colour]
            own = pattern[cell]
            if own == FULL:
                winner = colour
                break
            ring = around[cell]
            roots = []
            for d in starts[own]:
                root = ring[d]
                while parent[root] != root:
                    parent[root] = root = parent[parent[root]]  # path halving: these tables are thrown away
                if root in roots:
                    winner = colour
                    break
                roots.append(root)
            if winner:
                break
            for nb, bit in links[cell]:
                mask = pattern[nb] | bit
                pattern[nb] = mask
                if mask == FULL and cells[nb] == colour:
                    winner = colour
            if winner:
                break
            for root in roots:
                parent[root] = cell
            colour = 3 - colour
        played = pool[left:]
        played.reverse()
        return winner, played, cells

    def rollout(self, seed: int, plies: int, trace: list[int] | None = None) -> float:
        """Black's value of the empty cells filled in random order (`first_loop`) from the side to move, stopping at
        the first loop (a full board without one is counted); a draw when `plies` stones, or the move limit, leave
        the board unfilled. The stones within the move limit are appended to `trace` when given."""
        if self.result != ONGOING:
            return 0.5 if self.result == DRAW else float(self.result == BLACK)
        room = self.max_plies - self.plies
        winner, played, cells = self.first_loop(seed, plies)
        if trace is not None:
            trace.extend(played[:room])
        if winner and len(played) <= room:
            return float(winner == BLACK)
        if len(played) >= room or len(played) < len(self.empties):
            return 0.5
        black, white = count(self.geo, cells).score
        return 0.5 if black == white else float(black > white)

    @property
    def empty_count(self) -> int:
        """Empty cells."""
        return len(self.empties)

    def placements(self) -> list[int]:
        """The empty cells, a fresh list."""
        return self.empties.copy()

    def count_score(self) -> tuple[int, int]:
        """(Black's, White's) score of the count of the position as it stands."""
        return count(self.geo, self.cells).score

    def first_closing(self, colour: int) -> int | None:
        """The first empty cell (ascending) where a stone of `colour` closes a loop, or None."""
        tracker = self.tracker
        pattern = tracker.pattern[colour]
        closes = tracker.closes
        cells = self.cells
        for cell in self.empties:
            if MAY_CLOSE[pattern[cell]] and closes(cells, cell, colour):
                return cell
        return None

    def closing_cells(self, colour: int) -> list[int]:
        """The empty cells where a stone of `colour` would close a loop now."""
        return self.tracker.closing_cells(self.cells, self.empties, colour)
