"""Leap Over's endgame planner: the fewest own moves that bring the last stragglers into the goal, the opponent's
stones held where they stand.

The race evaluation cannot see that a straggler next to the goal has no chain into it: the last holes of a goal
are its front nodes, and a stone lands there only by jumping over a stone outside it, which the side must first
bring (a plan of several moves). When at most `STRAGGLERS` own stones are outside the goal, an iterative-deepening
search over the mover's own moves (one per stone and landing: a chain is one move, so a stone's landings are
every node its chains reach) finds such a plan; each move moves one stone, so the stones still outside bound the
moves left from below. The first move of a plan found is the side's move (the knowledge's urgent action). The
side follows a plan found while it still fills the goal after the opponent's moves (checked move by move), and
searches afresh when it does not. A search has a budget of positions a move; one that runs out is kept and
resumed when the same position comes back (a jam's shuffles bring it back), up to a budget a position.

Under the book's goal a stone the opponent leaves at home blocks the side's goal for ever, and such a stone is
often stuck: its neighbours have left and the side's arriving stones fill its landings. When the side is nearly
home, at most `BLOCKERS` opponent stones stand in its goal and none of them can leap, the side opens a door:
the move after which the most of them can leap, out of the goal first (`assist_action`).
"""

from __future__ import annotations

from ytourney.games.kernel import Kernel
from ytourney.games.leap_over.kernel import Tables

STRAGGLERS = 4
"""The planner is asked only when at most this many own stones are outside the goal."""
DEPTH = 10
"""The longest plan looked for, in own moves."""
BLOCKERS = 2
"""Opponent stones in the goal the side opens a door for (more: the opponent is not leaving home at all)."""
NODES = 15000
"""Positions a plan search visits in one move before it stops for that move (about a twentieth of a second on a
free core; the time is taken from the move's search, so a move keeps to its budget)."""
POSITION_NODES = 120000
"""Positions searched from one position (own and opponent stones) in all, over the moves it recurs in (a jam's
shuffles bring it back), before the planner gives up on it."""
POSITIONS_KEPT = 8
"""Unfinished searches kept to resume (a jam cycles through a few positions)."""


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
    """Own-move plans from one position, searched by iterative deepening that a later move may resume: `plan`
    answers the moves (source, target) of a plan, or None."""

    def __init__(self, t: Tables, mine: int, theirs: int, colour: int) -> None:
        self.t = t
        self.mine, self.theirs, self.target = mine, theirs, t.targets[colour]
        outside = (mine & ~self.target).bit_count()
        self.hopeless = (outside == 0 or outside > STRAGGLERS or bool(theirs & self.target)
                         or mine.bit_count() != self.target.bit_count())
        self.depth = outside
        """The depth the deepening is at (every shallower one has failed)."""
        self.spent = 0
        self.nodes = 0
        self.budget = 0
        self.failed: dict[int, int] = {}
        """Own stones -> the most moves a search from there found no plan in (transpositions are many); an aborted
        search records nothing, so the table stays true when a later move resumes."""

    @property
    def exhausted(self) -> bool:
        """True once no plan is left to find: none possible, none within DEPTH moves, or POSITION_NODES spent."""
        return self.hopeless or self.depth > DEPTH or self.spent >= POSITION_NODES

    def plan(self, nodes: int = NODES) -> list[tuple[int, int]] | None:
        """The moves of a shortest plan of at most DEPTH own moves that fills the goal, the opponent's stones
        standing still, searching at most `nodes` positions now; None when none is found (yet)."""
        if self.exhausted:
            return None
        self.nodes, self.budget = 0, nodes
        while self.depth <= DEPTH:
            found = self._search(self.mine, self.depth)
            self.spent += self.nodes
            self.nodes = 0
            if found is not None:
                return found
            if self.budget <= 0 or self.spent >= POSITION_NODES:
                return None
            self.depth += 1
        return None

    def _search(self, mine: int, depth: int) -> list[tuple[int, int]] | None:
        """A plan of at most `depth` moves from `mine`, or None (none, or the budget ran out: `budget` <= 0)."""
        self.nodes += 1
        self.budget -= 1
        if self.budget < 0:
            return None
        target = self.target
        outside = mine & ~target
        if outside.bit_count() > depth or self.failed.get(mine, 0) >= depth:
            return None
        occupied = mine | self.theirs
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
                return [(s, q)]
            if depth > 1:
                rest = self._search(after, depth - 1)
                if rest is not None:
                    return [(s, q), *rest]
            if self.budget < 0:
                return None
        self.failed[mine] = depth
        return None


def still_fills(t: Tables, mine: int, theirs: int, colour: int, steps: list[tuple[int, int]]) -> bool:
    """True when the moves `steps`, played in turn with `theirs` standing still, are each a move and fill the goal
    of `colour` with the stones `mine`."""
    for s, q in steps:
        if not mine >> s & 1 or not reach(t, s, mine | theirs) >> q & 1:
            return False
        mine = (mine ^ (1 << s)) | (1 << q)
    return mine & ~t.targets[colour] == 0


class PlanMemory:
    """What the planner keeps between moves: the rest of the plan each colour follows (a plan found is kept while it
    still fills the goal, so a long plan costs one search) and the unfinished searches of recent positions. Each
    bot's search of a game has its own (`LeapOverKnowledge.for_search`)."""

    def __init__(self) -> None:
        self.kept: dict[int, tuple[int, list[tuple[int, int]]]] = {}
        """colour -> (its stones when the plan's next move is due, the plan's moves from there)."""
        self.searches: dict[tuple[int, int, int], Planner] = {}
        """(colour, own stones, opponent stones) -> the search from there, to resume; oldest first."""
        self.plies: dict[int, int] = {}
        """colour -> the ply of its last call: a colour asked again at no later ply is in a new game."""

    def next_moves(self, t: Tables, mine: int, theirs: int, colour: int, plies: int) -> list[tuple[int, int]] | None:
        """The plan for `colour` from here, at ply `plies` of its game: the kept one while it still fills the goal,
        else a search's (resumed where an earlier move left it in this position). A new game starts afresh, so a
        game plays as it would alone."""
        if plies <= self.plies.get(colour, -1):
            self.kept.clear()
            self.searches.clear()
            self.plies.clear()
        self.plies[colour] = plies
        kept = self.kept.get(colour)
        if kept is not None and kept[0] == mine and still_fills(t, mine, theirs, colour, kept[1]):
            steps: list[tuple[int, int]] | None = kept[1]
        else:
            key = (colour, mine, theirs)
            planner = self.searches.pop(key, None) or Planner(t, mine, theirs, colour)
            steps = planner.plan()
            if steps is None and not planner.exhausted:
                self.searches[key] = planner
                while len(self.searches) > POSITIONS_KEPT:
                    del self.searches[next(iter(self.searches))]
        if not steps:
            self.kept.pop(colour, None)
            return None
        s, q = steps[0]
        self.kept[colour] = ((mine ^ (1 << s)) | (1 << q), steps[1:])
        return steps


def plan_action(kernel: Kernel, t: Tables, actions: list[int], path_of: object, memory: PlanMemory) -> int | None:
    """The action of the next move of an endgame plan for the side to move on `kernel` (the plan kept in `memory`
    while it still fills the goal), among `actions` (one per stone and landing), or None."""
    colour = kernel.to_move
    masks = kernel.masks  # type: ignore[attr-defined]
    steps = memory.next_moves(t, masks[colour], masks[3 - colour], colour, kernel.plies)
    if steps is None:
        return None
    source, landing = steps[0]
    for action in actions:
        path = path_of(action)  # type: ignore[operator]
        if path is not None and path[0] == source and path[-1] == landing:
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
