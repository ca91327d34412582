"""Leap Over's endgame planner: the fewest own moves that bring the last stragglers into the goal, the opponent's
stones held where they stand.

The race evaluation cannot see that a straggler next to the goal has no chain into it: the last holes of a goal
are its front nodes, and a stone lands there only by jumping over a stone outside it, which the side must first
bring (a plan of several moves). When at most `STRAGGLERS` own stones are outside the goal, an iterative-deepening
search over the mover's own moves (one per stone and landing: a chain is one move, so a stone's landings are
every node its chains reach) finds such a plan; each move moves one stone, so the stones still outside bound the
moves left from below. The first move of a plan found is the side's move (the knowledge's urgent action); the
plan is made afresh every move, so the opponent's moves in between are taken into account.

Under the book's goal a stone the opponent leaves at home blocks the side's goal for ever, and such a stone is
often stuck: its neighbours have left and the side's arriving stones fill its landings. When the side is nearly
home, at most `BLOCKERS` opponent stones stand in its goal and none of them can leap, the side opens a door:
the move after which the most of them can leap, out of the goal first (`assist_action`).
"""

from __future__ import annotations

from ytourney.games.kernel import Kernel
from ytourney.games.leap_over.kernel import Tables

STRAGGLERS = 3
"""The planner is asked only when at most this many own stones are outside the goal."""
DEPTH = 8
"""The longest plan looked for, in own moves."""
BLOCKERS = 2
"""Opponent stones in the goal the side opens a door for (more: the opponent is not leaving home at all)."""
NODES = 12000
"""Positions a plan search may visit before it gives up (about a tenth of a second on a free core; the time is
taken from the move's search, so a move keeps to its budget)."""


def reach(t: Tables, stone: int, occupied: int) -> int:
    """The nodes a stone on `stone` lands on by some chain (one move), among the stones `occupied` (the stone's
    own node included in it); a chain never jumps over its own start."""
    lifted = t.over_start[stone]
    seen = 1 << stone
    frontier = [stone]
    for p in frontier:
        new = t.landings(p, occupied) & ~(seen | lifted[p])
        while new:
            low = new & -new
            new ^= low
            seen |= low
            frontier.append(low.bit_length() - 1)
    return seen & ~(1 << stone)


class Planner:
    """Own-move plans on one board: `plan` answers (source, target) of the first move, or None."""

    def __init__(self, t: Tables) -> None:
        self.t = t
        self.nodes = 0
        self.failed: dict[int, int] = {}
        """Own stones -> the most moves a search from there found no plan in (transpositions are many)."""

    def plan(self, mine: int, theirs: int, colour: int) -> tuple[int, int] | None:
        """The first move (source, target) of a shortest plan of at most DEPTH own moves that fills the goal of
        `colour` with the stones `mine`, `theirs` standing still; None when there is none within the budget."""
        target = self.t.targets[colour]
        outside = (mine & ~target).bit_count()
        if outside == 0 or outside > STRAGGLERS or theirs & target or mine.bit_count() != target.bit_count():
            return None
        self.nodes = 0
        self.failed.clear()
        for depth in range(outside, DEPTH + 1):
            found = self._search(mine, theirs, target, depth)
            if found is not None:
                return found
            if self.nodes >= NODES:
                return None
        return None

    def _search(self, mine: int, theirs: int, target: int, depth: int) -> tuple[int, int] | None:
        """A first move of a plan of at most `depth` moves from `mine`, or None."""
        self.nodes += 1
        if self.nodes > NODES:
            return None
        outside = mine & ~target
        if outside.bit_count() > depth or self.failed.get(mine, 0) >= depth:
            return None
        occupied = mine | theirs
        moves: list[tuple[int, int, int]] = []
        stones = mine
        while stones:
            low = stones & -stones
            stones ^= low
            s = low.bit_length() - 1
            landings = reach(self.t, s, occupied)
            while landings:
                bit = landings & -landings
                landings ^= bit
                q = bit.bit_length() - 1
                gain = (not target & low) and bool(target & bit)  # a straggler arrives
                moves.append((0 if gain else 1 if not target & low else 2, s, q))
        moves.sort()
        for _, s, q in moves:
            after = (mine ^ (1 << s)) | (1 << q)
            if after & ~target == 0:
                return s, q
            if depth > 1 and self._search(after, theirs, target, depth - 1) is not None:
                return s, q
            if self.nodes > NODES:
                return None
        self.failed[mine] = depth
        return None


def plan_action(kernel: Kernel, t: Tables, actions: list[int], path_of: object) -> int | None:
    """The action of the first move of an endgame plan for the side to move on `kernel`, among `actions` (one per
    stone and landing), or None."""
    colour = kernel.to_move
    masks = kernel.masks  # type: ignore[attr-defined]
    found = Planner(t).plan(masks[colour], masks[3 - colour], colour)
    if found is None:
        return None
    for action in actions:
        path = path_of(action)  # type: ignore[operator]
        if path is not None and path[0] == found[0] and path[-1] == found[1]:
            return action
    return None


def assist_action(kernel: Kernel, t: Tables, actions: list[int], path_of: object) -> int | None:
    """The action after which the most stuck opponent stones in the side's goal can leap (out of the goal counting
    double), the first such in `actions`; None unless the side is nearly home (at most STRAGGLERS + BLOCKERS own
    stones outside its goal), 1 to BLOCKERS opponent stones stand in its goal and none of them can leap now."""
    colour = kernel.to_move
    masks = kernel.masks  # type: ignore[attr-defined]
    mine, theirs, target = masks[colour], masks[3 - colour], t.targets[colour]
    blockers = [node for node in range(t.size) if (theirs & target) >> node & 1]
    if not 0 < len(blockers) <= BLOCKERS or (mine & ~target).bit_count() > STRAGGLERS + BLOCKERS:
        return None
    occupied = mine | theirs
    if any(reach(t, b, occupied) for b in blockers):
        return None
    best, chosen = 0, None
    for action in actions:
        path = path_of(action)  # type: ignore[operator]
        if path is None or len(path) < 2:
            continue
        after = (occupied ^ (1 << path[0])) | (1 << path[-1])
        value = 0
        for b in blockers:
            exits = reach(t, b, after)
            value += 2 * bool(exits & ~target) + bool(exits)
        if value > best:
            best, chosen = value, action
    return chosen
