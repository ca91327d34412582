"""The search core of the `mcts-pro` bot: MCTS with RAVE and knowledge priors over one Y board.

Two implementations with one API: `CSearcher` from the optional C extension `ytourney.games.y._ysearch`, and
`PySearcher` here, the same algorithm step for step in pure Python (same random numbers, same floating-point
operations in the same order), so both choose the same move for the same seed and simulation budget; only the
speed differs. `Searcher` is the C one when it is built, unless YTOURNEY_PURE_PYTHON=1.

Each iteration walks down the tree by RAVE value plus a decaying knowledge bonus, expands a leaf once it has been
visited (a one-move win solves it, a single threat of the opponent leaves one child, two solve it as lost, and so
does a virtual connection: groups joined by bridges and tied to the sides by edge templates, with disjoint
carriers, solves it for their owner; with `vc1`, at the root and its children, one stone of the mover away
too), plays `rollouts` random playouts from it that answer bridge intrusions (optionally replay the last good
reply, `lgr`) and stop at the first Y, and backs up wins, AMAF counts and proven results. A root proven lost
through its children is searched again without virtual connections, for the move that resists best. A node
budget caps the tree; `reroot` keeps the subtree of the moves played.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

from ytourney.games.y.state import _pure_python_forced

TIME_EVERY = 1  # the C core reads its clock every 16 iterations; Python iterations are slow enough for every one
STOP_EVERY = 64  # the same in both cores: the early stop must fall on the same iteration
GOLDEN = 0x9E3779B97F4A7C15
MASK64 = (1 << 64) - 1


class Node:
    """One move in the tree: visits and wins for the player who made it, AMAF counts, prior, proof, children."""

    __slots__ = ("an", "aw", "best", "children", "know", "move", "n", "outcome", "w")

    def __init__(self, move: int, know: int = 0) -> None:
        self.move = move
        self.n = self.w = self.an = self.aw = 0
        self.know = know
        self.outcome = 0
        self.best = -1
        self.children: list[Node] | None = None


class PySearcher:
    """Pure-Python twin of the C `Searcher`: same constructor, methods and results."""

    def __init__(
        self,
        neighbors: Sequence[Sequence[int]],
        sides: Sequence[int],
        bridges: Sequence[Sequence[int]],
        distances: bytes,
        rollouts: int,
        rave: float,
        fpu: float,
        expand_at: int,
        local: int,
        near: int,
        connect: int,
        bridge: int,
        pattern: bool,
        max_nodes: int,
        vc: bool = True,
        lgr: bool = False,
        explore: float = 0.0,
        vc1: bool = False,
        ziggurats: Sequence[Sequence[int]] | None = None,
        mustplay: bool = False,
    ) -> None:
        n = len(sides)
        if len(neighbors) != n or len(bridges) != n or len(distances) != n * n:
            raise ValueError("neighbors, sides, bridges and distances must match the number of cells")
        if rollouts < 1 or max_nodes < 1 + 2 * n:
            raise ValueError("rollouts must be >= 1 and max_nodes >= 1 + 2 * cells")
        self.n = n
        self.nbr = [tuple(row) for row in neighbors]
        self.sides = list(sides)
        self.btab = [tuple(tuple(row[i : i + 3]) for i in range(0, len(row), 3)) for row in bridges]
        self.dist = bytes(distances)
        self.rollouts, self.rave, self.fpu, self.expand_at = rollouts, float(rave), float(fpu), expand_at
        self.k_local, self.k_near, self.k_connect, self.k_bridge = local, near, connect, bridge
        self.pattern = bool(pattern)
        self.max_nodes = max_nodes
        self.vc = bool(vc)
        self.vc1 = bool(vc1)
        self.lgr = bool(lgr)
        self.explore = float(explore)
        self.mustplay = bool(mustplay)
        self.zig = [(z[0], z[1], tuple(z[2:])) for z in ziggurats or ()]
        if any(len(z[2]) != 8 or z[1] not in (1, 2, 4) for z in self.zig) or len(self.zig) > 4 * n:
            raise ValueError("ziggurats: each a stone, a side bit (1, 2 or 4) and 8 carrier cells")
        self.reply = [-1] * (2 * n)
        self.rng = 0
        self.cells = [0] * n
        self.parent = list(range(n))
        self.mask = list(self.sides)
        self.to_move, self.stones_left, self.misere, self.last = 1, 1, False, -1
        self.clear()

    # --- the API --------------------------------------------------------------------------------------------

    def seed(self, value: int) -> None:
        """Seed the random numbers."""
        self.rng = value & MASK64

    def clear(self) -> None:
        """Drop the tree."""
        self.root = Node(-1)
        self.used = 1
        self.reply = [-1] * (2 * self.n)

    def set_position(self, cells: Sequence[int], to_move: int, stones_left: int, misere: bool, last: int) -> None:
        """The position the tree's root stands for."""
        if len(cells) != self.n or any(c not in (0, 1, 2) for c in cells):
            raise ValueError("cells: one value 0, 1 or 2 per cell")
        self.cells = list(cells)
        self.parent = list(range(self.n))
        self.mask = list(self.sides)
        for x in range(self.n):
            if not self.cells[x]:
                continue
            for y in self.nbr[x]:
                if y < x and self.cells[y] == self.cells[x]:
                    a, b = _find(self.parent, x), _find(self.parent, y)
                    if a != b:
                        self.parent[b] = a
                        self.mask[a] |= self.mask[b]
        self.to_move, self.stones_left, self.misere, self.last = to_move, stones_left, bool(misere), last

    def reroot(self, moves: Sequence[int]) -> bool:
        """Keep the subtree reached by these moves (True) or clear the tree (False)."""
        node: Node | None = self.root
        for move in moves:
            node = next((c for c in node.children or () if c.move == move), None)
            if node is None:
                self.clear()
                return False
        if node is not self.root:
            self.root = node
            self.used = _count(node)
        return True

    def children(self) -> list[tuple[int, int, int, int, int, int, int]]:
        """Root children as (move, n, w, amaf_n, amaf_w, know, outcome)."""
        return [(c.move, c.n, c.w, c.an, c.aw, c.know, c.outcome) for c in self.root.children or ()]

    def root_info(self) -> tuple[int, int, int]:
        """(root visits, root outcome, nodes in use)."""
        return self.root.n, self.root.outcome, self.used

    def search(self, max_sims: int, seconds: float, early: bool) -> tuple[int, float, int, int, int]:
        """Search until the budget, the time or an early stop; (move, value, simulations, iterations, nodes)."""
        started = time.perf_counter()
        deadline = started + seconds if seconds > 0 else 0.0
        if max_sims <= 0 and deadline <= 0:
            raise ValueError("search needs a simulation budget or a time limit")
        sims = iterations = 0
        resist, vc = False, self.vc
        try:
            while True:
                root = self.root
                if root.outcome:
                    # Lost through its children's proofs: search again without virtual connections, which an
                    # opponent may not know, for the move that resists best (tactics in one move are still proven).
                    if resist or root.outcome == self.to_move or root.children is None:
                        break
                    resist, self.vc = True, False
                    self.clear()
                    root = self.root
                sims += self._iterate()
                iterations += 1
                if max_sims > 0 and sims >= max_sims:
                    break
                if root.children is not None and len(root.children) <= 1:
                    break
                t = 0.0
                if deadline > 0 and iterations % TIME_EVERY == 0:
                    t = time.perf_counter()
                    # A Python iteration takes milliseconds: stop when the next one would end past the deadline.
                    if t + (t - started) / iterations >= deadline:
                        break
                if early and iterations % STOP_EVERY == 0:
                    remaining = float(max_sims - sims) if max_sims > 0 else 1e300
                    if deadline > 0:
                        if t == 0.0:
                            t = time.perf_counter()
                        rate = sims / max(t - started, 1e-9)
                        remaining = min(rate * (deadline - t), remaining)
                    if self._decided(remaining):
                        break
        finally:
            self.vc = vc
        move, chosen = self._choose()
        value = 0.5
        if resist:
            value = 0.0
        elif root.outcome:
            value = 1.0 if root.outcome == self.to_move else 0.0
        elif chosen is not None and chosen.n > 0:
            value = chosen.w / chosen.n
        return move, value, sims, iterations, self.used

    # --- one iteration --------------------------------------------------------------------------------------

    def _random_below(self, k: int) -> int:
        z = self.rng = (self.rng + GOLDEN) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        return ((z >> 32) * k) >> 32

    def _iterate(self) -> int:
        mover, left, last = self.to_move, self.stones_left, self.last
        c, m, p = self.cells.copy(), self.mask.copy(), self.parent.copy()
        e = [x for x in range(self.n) if not c[x]]
        pos = [0] * self.n
        for i, x in enumerate(e):
            pos[x] = i
        state = [c, m, p, e, pos]
        node = self.root
        path = [node]
        movers = [mover]
        result = 0
        while True:
            if node.outcome:
                result = node.outcome
                break
            if node.children is None:
                if node is self.root or node.n >= self.expand_at:
                    self._expand(node, state, mover, left, last, len(path) - 1)
                    if node.outcome:
                        result = node.outcome
                        break
                if node.children is None:
                    break
            node = self._select(node, mover)
            x = node.move
            won = _place(state, self.nbr, x, mover) == 7
            path.append(node)
            if won:
                result = 3 - mover if self.misere else mover
                node.outcome = result
                break
            if left > 1:
                left -= 1
            else:
                left = 1
                mover = 3 - mover
            last = x
            movers.append(mover)
        if result:
            for d in range(1, len(path)):
                path[d].n += 1
                path[d].w += movers[d - 1] == result
            self.root.n += 1
            self._prove(path, movers)
            return 1
        sims = 0
        saved = [list(a) for a in state]
        for r in range(self.rollouts):
            if r:
                state = [list(a) for a in saved]
            winner = self._playout(state, mover, left, last)
            final = state[0]
            for d, node in enumerate(path):
                node.n += 1
                if d:
                    node.w += movers[d - 1] == winner
                if node.children is not None:
                    pm = movers[d]
                    won = winner == pm
                    for child in node.children:
                        if final[child.move] == pm:
                            child.an += 1
                            child.aw += won
            sims += 1
        return sims

    def _prove(self, path: list[Node], movers: list[int]) -> None:
        for d in range(len(path) - 1, 0, -1):
            child, parent, pm = path[d], path[d - 1], movers[d - 1]
            if not child.outcome or parent.outcome:
                break
            if child.outcome == pm:
                parent.outcome, parent.best = pm, child.move
                continue
            if any(c.outcome != 3 - pm for c in parent.children):
                break
            parent.outcome, parent.best = 3 - pm, child.move

    def _value(self, c: Node, parent_n: int) -> float:
        v = self.fpu
        if c.n > 0 or c.an > 0:
            alpha = self.rave / (self.rave + c.n) if self.rave > 0 else 0.0
            v = 0.0
            if c.an > 0:
                v += alpha * (c.aw / c.an)
            if c.n > 0:
                v += (1.0 - alpha) * (c.w / c.n)
        if c.know > 0:
            if c.n <= 1:
                v += 0.01 * c.know
            elif c.n < 1000:
                v += 0.01 * c.know / math.sqrt(c.n)
        if self.explore > 0 and c.n > 0:
            v += self.explore * math.sqrt(math.log(parent_n) / c.n)
        return v

    def _select(self, node: Node, mover: int) -> Node:
        best = node.children[0]
        top = -1e300
        for c in node.children:
            if c.outcome:
                if c.outcome == mover:
                    return c
                v = -2.0
            else:
                v = self._value(c, node.n)
            if v > top:
                top, best = v, c
        return best

    def _reach(self, state: list[list[int]], x: int, color: int) -> int:
        c, m, p = state[0], state[1], state[2]
        sides = self.sides[x]
        for y in self.nbr[x]:
            if c[y] == color:
                sides |= m[_find(p, y)]
        return sides

    def _bridge_save(self, c: list[int], last: int, color: int, wanted: int) -> int:
        for a, b, y in self.btab[last]:
            if c[a] == color and (b < 0 or c[b] == color) and c[y] == 0 and (wanted < 0 or y == wanted):
                return y
        return -1

    def _expand(self, node: Node, state: list[list[int]], mover: int, left: int, last: int, depth: int) -> None:
        c = state[0]
        root = depth == 0
        opp = 3 - mover
        n = self.n
        if not self.misere:
            for x in range(n):
                if c[x] == 0 and self._reach(state, x, mover) == 7:
                    node.outcome, node.best = mover, x
                    return
        moves: list[int] = []
        threats: list[int] = []
        for x in range(n):
            if c[x]:
                continue
            if self.misere:
                if self._reach(state, x, mover) != 7:
                    moves.append(x)
            elif left == 1 and self._reach(state, x, opp) == 7:
                threats.append(x)
        if self.misere:
            if not moves:
                node.outcome, node.best = opp, next(x for x in range(n) if c[x] == 0)
                return
        elif len(threats) >= 2:
            node.outcome, node.best = opp, threats[0]
            return
        elif threats:
            moves = threats
        else:
            if self.vc:
                x = self._vc_win(state, mover)
                if x >= 0:
                    node.outcome, node.best = mover, x
                    return
                # Not at the root: a lost root is searched for the move that resists longest.
                x = -1 if root or left != 1 else self._vc_win(state, opp)
                if x >= 0:
                    node.outcome, node.best = opp, x
                    return
                # At the root and its children: a virtual connection one stone away wins for the mover.
                x = self._vc_threats(state, mover, False)[0] if self.vc1 and depth <= 1 and left == 1 else -1
                if x >= 0:
                    node.outcome, node.best = mover, x
                    return
                # There too: against the opponent's threats of a virtual connection, only the must-play region.
                if self.mustplay and depth <= 1 and left == 1:
                    threat, allow = self._vc_threats(state, opp, True)
                    if threat >= 0:
                        moves = [y for y in range(n) if c[y] == 0 and allow[y]]
                        if not moves and not root:
                            node.outcome, node.best = opp, threat
                            return
            if not moves:
                moves = [x for x in range(n) if c[x] == 0]
        if self.used + len(moves) > self.max_nodes:
            return
        last_is_opp = last >= 0 and c[last] == opp
        children = []
        for x in moves:
            know = 0
            if last >= 0 and self.k_local:
                d = self.dist[last * n + x]
                if d < 4:
                    know += self.k_local * (4 - d)
            if self.k_near and any(c[y] for y in self.nbr[x]):
                know += self.k_near
            if self.k_connect:
                r = self._reach(state, x, mover)
                know += self.k_connect * ((r & 1 != 0) + (r & 2 != 0) + (r & 4 != 0))
            if self.k_bridge and last_is_opp and self._bridge_save(c, last, mover, x) >= 0:
                know += self.k_bridge
            children.append(Node(x, min(know, 32767)))
        node.children = children
        self.used += len(children)

    def _vc_win(self, state: list[list[int]], color: int) -> int:
        """A cell of a virtual connection of `color` joining the three sides, or -1 (the C core's vc_win)."""
        c = state[0]
        vp, vm = list(state[2]), list(state[1])
        used = self.vused = [False] * self.n  # the carriers taken, read by _vc_threats
        sides = self.sides
        for x in range(self.n):
            if c[x] or used[x]:
                continue
            for a, b, y in self.btab[x]:
                if c[a] != color or c[y] or used[y]:
                    continue
                ra = _find(vp, a)
                if b >= 0:
                    if c[b] != color:
                        continue
                    rb = _find(vp, b)
                    if ra == rb:
                        continue
                    vp[rb] = ra
                    vm[ra] |= vm[rb]
                else:
                    side = sides[x] & sides[y]
                    if vm[ra] | side == vm[ra]:
                        continue
                    vm[ra] |= side
                used[x] = used[y] = True
                if vm[ra] == 7:
                    return x
                break
        for a, side, carrier in self.zig:
            if c[a] != color:
                continue
            ra = _find(vp, a)
            if vm[ra] & side or any(c[z] or used[z] for z in carrier):
                continue
            for z in carrier:
                used[z] = True
            vm[ra] |= side
            if vm[ra] == 7:
                return carrier[0]
        return -1

    def _vc_threats(self, state: list[list[int]], color: int, every: bool) -> tuple[int, list[bool]]:
        """The first cell where one stone of `color` makes a virtual connection win (-1: none) and, with `every`,
        the must-play region against all of them (the C core's vc_threats)."""
        c, m, p = state[0], state[1], state[2]
        saved_m, saved_p = m.copy(), p.copy()
        allow = [True] * self.n
        first = -1
        for x in range(self.n):
            if c[x]:
                continue
            _join(state, self.nbr, x, color)
            won = self._vc_win(state, color) >= 0
            c[x] = 0
            m[:], p[:] = saved_m, saved_p
            if not won:
                continue
            if first < 0:
                first = x
                if not every:
                    break
            allow = [a and (u or y == x) for y, (a, u) in enumerate(zip(allow, self.vused))]
        return first, allow

    def _playout(self, state: list[list[int]], mover: int, left: int, last: int) -> int:
        c, e = state[0], state[3]
        nbr = self.nbr
        n = self.n
        reply = self.reply
        start = last
        seq: list[int] = []
        while True:
            x = -1
            if self.pattern and last >= 0 and c[last] == 3 - mover:
                x = self._bridge_save(c, last, mover, -1)
            if x < 0 and self.lgr and last >= 0:
                r = reply[(mover - 1) * n + last]
                if r >= 0 and c[r] == 0:
                    x = r
            if x < 0:
                x = e[self._random_below(len(e))]
            seq.append(x)
            if _place(state, nbr, x, mover) == 7:
                winner = 3 - mover if self.misere else mover
                break
            if left > 1:
                left -= 1
            else:
                mover = 3 - mover
            last = x
        if self.lgr:
            for i, x in enumerate(seq):
                prev = seq[i - 1] if i else start
                if prev < 0:
                    continue
                color = c[x]
                slot = (color - 1) * n + prev
                if color == winner:
                    reply[slot] = x
                elif reply[slot] == x:
                    reply[slot] = -1
        return winner

    # --- the choice -----------------------------------------------------------------------------------------

    def _choose(self) -> tuple[int, Node | None]:
        root = self.root
        if root.children is None:
            return root.best, None
        mover = self.to_move
        best: Node | None = None
        for pass_ in (0, 1):
            for c in root.children:
                if c.outcome == mover:
                    return c.move, c
                if pass_ == 0 and c.outcome:
                    continue
                if best is None or c.n > best.n or (c.n == best.n and c.w > best.w):
                    best = c
            if best is not None:
                break
        return best.move, best

    def _decided(self, remaining: float) -> bool:
        root = self.root
        if root.outcome:
            return True
        if root.children is None:
            return False
        top = second = -1
        for c in root.children:
            if c.outcome:
                continue
            if c.n > top:
                top, second = c.n, top
            elif c.n > second:
                second = c.n
        if second < 0:
            return True
        return float(top - second) > remaining


def _find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _place(state: list[list[int]], nbr: list[tuple[int, ...]], x: int, color: int) -> int:
    """Put a stone on empty cell x of a descent state; the side mask of its group."""
    e, pos = state[3], state[4]
    last = e.pop()
    if last != x:
        at = pos[x]
        e[at] = last
        pos[last] = at
    return _join(state, nbr, x, color)


def _join(state: list[list[int]], nbr: list[tuple[int, ...]], x: int, color: int) -> int:
    """A stone of `color` on cell x joins its neighbouring groups; the side mask of its group."""
    c, m, p = state[0], state[1], state[2]
    c[x] = color
    sides = m[x]
    for y in nbr[x]:
        if c[y] == color:
            r = _find(p, y)
            if r != x:
                p[r] = x
                sides |= m[r]
    m[x] = sides
    return sides


def _count(node: Node) -> int:
    total = 1
    stack = [node]
    while stack:
        for child in stack.pop().children or ():
            total += 1
            if child.children is not None:
                stack.append(child)
    return total


try:
    from ytourney.games.y._ysearch import Searcher as CSearcher
except ImportError:  # no compiler at install time: the Python twin serves alone
    CSearcher = None

Searcher = PySearcher if CSearcher is None or _pure_python_forced() else CSearcher
"""The search core in use: the C one when built (and not refused by YTOURNEY_PURE_PYTHON=1), else PySearcher."""
