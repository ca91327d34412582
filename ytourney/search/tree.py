"""The search tree's nodes: statistics seen from the side that moved into the node, AMAF statistics, proofs.

A parent keeps its children's means and exploration factors in two parallel lists, so that choosing a child is one
list comprehension and a max, not a loop of attribute reads: the selection is most of a search's own time.
"""

from __future__ import annotations

import math

UNKNOWN = 0
PROVEN_WIN = 1
"""The side that moved into the node wins with best play."""
PROVEN_LOSS = -1
"""The side that moved into the node loses with best play."""
LOST = -1e9
"""The mean a parent keeps for a child proved lost, so that no selection takes it while another is left."""


class Node:
    """One position of the tree, reached by `action` played by `mover` (a Color value; 0 at the root), the
    `index`-th child of its parent."""

    __slots__ = ("action", "amaf_visits", "amaf_wins", "children", "explores", "index", "means", "mover", "priors",
                 "proof", "untried", "visits", "winning", "wins")

    def __init__(self, action: int, mover: int, index: int = 0, visits: float = 0.0, wins: float = 0.0) -> None:
        self.action = action
        self.mover = mover
        self.index = index
        self.children: list[Node] = []
        self.means: list[float] = []
        """Each child's mean result for its mover (LOST once proved lost), by the child's index."""
        self.explores: list[float] = []
        """Each child's 1 / sqrt(visits), by the child's index."""
        self.untried: list[int] | None = None
        """Actions not yet expanded; None until the node is first passed through (most leaves never are)."""
        self.visits = visits
        self.wins = wins
        self.amaf_visits = 0.0
        self.amaf_wins = 0.0
        self.proof = UNKNOWN
        self.winning: Node | None = None
        """A child proved won for the side to move here, once one is."""
        self.priors: dict[int, float] | None = None
        """The mover's prior value of each untried action, while some are left."""

    @property
    def expanded(self) -> bool:
        """True once every action of the node has a child."""
        return self.untried is not None and not self.untried

    @property
    def mean(self) -> float:
        """The mover's average result here (0.5 before any visit)."""
        return self.wins / self.visits if self.visits else 0.5

    def adopt(self, child: Node) -> None:
        """Add a new child, its statistics entered in the parallel lists."""
        child.index = len(self.children)
        self.children.append(child)
        self.means.append(child.mean)
        self.explores.append(1.0 / math.sqrt(child.visits) if child.visits else 1.0)
        self.note_proof(child)

    def note_proof(self, child: Node) -> None:
        """Enter a child's proof: a won child is taken at once, a lost one never while another is left."""
        if child.proof == PROVEN_WIN:
            self.winning = child
        elif child.proof == PROVEN_LOSS:
            self.means[child.index] = LOST

    def record(self, child: Node, value: float) -> None:
        """One more visit of `child` whose result is worth `value` to its mover."""
        child.visits += 1
        child.wins += value
        index = child.index
        if child.proof != PROVEN_LOSS:
            self.means[index] = child.wins / child.visits
        self.explores[index] = 1.0 / math.sqrt(child.visits)

    def child(self, action: int) -> Node | None:
        """The child reached by `action`, if expanded."""
        for child in self.children:
            if child.action == action:
                return child
        return None
