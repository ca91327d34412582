"""The search tree's nodes: statistics seen from the side that moved into the node, AMAF statistics, proofs."""

from __future__ import annotations

UNKNOWN = 0
PROVEN_WIN = 1
"""The side that moved into the node wins with best play."""
PROVEN_LOSS = -1
"""The side that moved into the node loses with best play."""


class Node:
    """One position of the tree, reached by `action` played by `mover` (a Color value; 0 at the root)."""

    __slots__ = ("action", "amaf_visits", "amaf_wins", "children", "mover", "priors", "proof", "untried", "visits",
                 "wins")

    def __init__(self, action: int, mover: int, visits: float = 0.0, wins: float = 0.0) -> None:
        self.action = action
        self.mover = mover
        self.children: list[Node] = []
        self.untried: list[int] | None = None
        """Actions not yet expanded; None until the node is first passed through (most leaves never are)."""
        self.visits = visits
        self.wins = wins
        self.amaf_visits = 0.0
        self.amaf_wins = 0.0
        self.proof = UNKNOWN
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

    def child(self, action: int) -> Node | None:
        """The child reached by `action`, if expanded."""
        for child in self.children:
            if child.action == action:
                return child
        return None

    def size(self) -> int:
        """Nodes in this subtree."""
        count, todo = 0, [self]
        while todo:
            node = todo.pop()
            count += 1
            todo.extend(node.children)
        return count
