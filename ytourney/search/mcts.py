"""Monte Carlo tree search over any game's kernel: UCT with priors and RAVE, MCTS-Solver proofs, a node budget, time
management and tree reuse. The kernel is walked down with `apply` and back with `undo`, never copied."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ytourney.games.kernel import DRAW, ONGOING, Kernel
from ytourney.games.knowledge import Knowledge, result_value
from ytourney.search.clock import Budget
from ytourney.search.settings import SearchSettings
from ytourney.search.tree import LOST, PROVEN_LOSS, PROVEN_WIN, UNKNOWN, Node

BLACK = 1
EARLY_STOP_EVERY = 64
"""Simulations between checks whether the leading action can still be overtaken before the deadline."""


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the action to play, its value to the side to move, the effort, and any proof."""

    action: int | None
    value: float
    simulations: int
    seconds: float
    nodes: int
    proof: int = UNKNOWN
    """PROVEN_WIN when the side to move has a proved win, PROVEN_LOSS a proved loss, else UNKNOWN."""


class Search:
    """One game's search: its knowledge, its settings, its random stream and the tree it keeps between moves."""

    def __init__(self, knowledge: Knowledge, settings: SearchSettings, rng: random.Random) -> None:
        self.knowledge = knowledge
        self.settings = settings
        self.rng = rng
        self._root: Node | None = None
        self._nodes = 0

    @property
    def nodes(self) -> int:
        """Nodes in the kept tree."""
        return self._nodes

    def forget(self) -> None:
        """Drop the tree (a new game, or a position the tree does not lead to)."""
        self._root = None
        self._nodes = 0

    def advance(self, actions: Sequence[int]) -> None:
        """Keep the subtree the `actions` played since the last search lead to (the whole tree is dropped when they
        leave it or reuse is off)."""
        node = self._root if self.settings.reuse else None
        for action in actions:
            if node is None:
                break
            node = node.child(action)
        self._root = node
        if node is not None:
            node.mover = 0  # the root is nobody's move: its statistics are never read as a value
            # nor its proof: a node proved when it was made (a forced win seen at once) has no children to play, and
            # the search proves it again from its children
            node.proof = UNKNOWN
        # a simulation adds at most one node, so a subtree holds at most its root's visits and the root: an O(1)
        # bound kept instead of walking a tree of up to max_nodes on the clock
        self._nodes = 0 if node is None else int(node.visits) + 1

    def run(self, kernel: Kernel, budget: Budget, actions: Sequence[int] | None = None) -> SearchResult:
        """Search `kernel` (left as found) among `actions` (default: the knowledge's search actions), keeping the tree
        for the next call when no subset of actions was forced."""
        started = time.perf_counter()
        if actions is not None or self._root is None:
            self._root = Node(-1, 0)
            self._nodes = 1
        root = self._root
        if actions is not None:
            root.untried = list(actions)
        simulations = 0
        limit, deadline = budget.simulations, budget.deadline
        while simulations < limit:
            self._simulate(root, kernel)
            simulations += 1
            if root.proof != UNKNOWN:
                break
            if deadline is not None:
                now = time.perf_counter()
                if now >= deadline:
                    break
                if simulations % EARLY_STOP_EVERY == 0 and self._settled(root, simulations, started, now, deadline):
                    break
        if actions is not None:
            self._root = None  # a tree of a forced subset would mislead the next search
        chosen = best_child(root)
        return SearchResult(None if chosen is None else chosen.action, 0.5 if chosen is None else chosen.mean,
                            simulations, time.perf_counter() - started, self._nodes, -root.proof)

    def _settled(self, root: Node, simulations: int, started: float, now: float, deadline: float) -> bool:
        """True when the most visited action cannot be overtaken in the time left, at the rate seen so far."""
        if len(root.children) < 2:
            return root.expanded
        first, second = sorted((child.visits for child in root.children), reverse=True)[:2]
        rate = simulations / max(now - started, 1e-9)
        return root.expanded and first - second > rate * (deadline - now)

    def _simulate(self, root: Node, kernel: Kernel) -> None:
        """One selection, expansion, evaluation and backup; the kernel returns to where it was."""
        settings, knowledge = self.settings, self.knowledge
        node, path = root, [root]
        applied = 0
        while node.proof == UNKNOWN and kernel.result == ONGOING:
            if node.untried is None:
                self._prepare(node, kernel)
            if node.untried:
                if self._nodes >= settings.max_nodes:
                    break
                untried = node.untried
                if node.priors is None and len(untried) > 1:
                    pick = self.rng.randrange(len(untried))
                    untried[pick], untried[-1] = untried[-1], untried[pick]
                action = untried.pop()
                mover = kernel.to_move
                kernel.apply(action)
                applied += 1
                child = self._new_child(action, mover, kernel, node.priors)
                if not node.untried:
                    node.priors = None
                node.adopt(child)
                self._nodes += 1
                path.append(child)
                node = child
                break
            if not node.children:
                break
            node = self._select(node)
            kernel.apply(node.action)
            applied += 1
            path.append(node)
        trace: list[int] | None = [] if settings.rave > 0 else None
        leaf_to_move = kernel.to_move
        if kernel.result != ONGOING:
            black = result_value(kernel.result)
        elif node.proof != UNKNOWN:
            black = float((node.proof == PROVEN_WIN) == (node.mover == BLACK))
        else:
            black = (knowledge.rollout(kernel, self.rng, settings.playout_plies) if trace is None
                     else knowledge.rollout(kernel, self.rng, settings.playout_plies, trace))
        for _ in range(applied):
            kernel.undo()
        root.visits += 1
        white = 1.0 - black
        parent = root
        for visited in path[1:]:
            parent.record(visited, black if visited.mover == BLACK else white)
            parent = visited
        if trace is not None:
            self._update_amaf(path, trace, leaf_to_move, black)
        if settings.solver and node.proof != UNKNOWN:
            self._propagate_proof(path)

    def _prepare(self, node: Node, kernel: Kernel) -> None:
        """The actions a node will expand: best prior last (it is taken first), else as listed (taken at random)."""
        actions = self.knowledge.search_actions(kernel)
        priors = self.knowledge.priors(kernel, actions) if self.settings.prior_visits > 0 else None
        if priors is not None:
            order = sorted(range(len(actions)), key=priors.__getitem__)
            node.untried = [actions[i] for i in order]
            node.priors = {actions[i]: float(priors[i]) for i in order}
        else:
            node.untried = list(actions)  # expanded in random order, one random pick at a time

    def _new_child(self, action: int, mover: int, kernel: Kernel, priors: dict[int, float] | None) -> Node:
        """The node `action` leads to, its prior counted as virtual visits and a decided position proved."""
        if priors is None:
            child = Node(action, mover)
        else:
            weight = self.settings.prior_visits
            child = Node(action, mover, 0, weight, weight * priors[action])
        if kernel.result != ONGOING:
            if kernel.result != DRAW:
                child.proof = PROVEN_WIN if kernel.result == mover else PROVEN_LOSS
        elif self.settings.solver:
            if self.knowledge.winning_action(kernel) is not None:
                child.proof = PROVEN_WIN if kernel.to_move == mover else PROVEN_LOSS
            else:
                winner = self.knowledge.forced_winner(kernel)
                if winner:
                    child.proof = PROVEN_WIN if winner == mover else PROVEN_LOSS
        return child

    def _select(self, node: Node) -> Node:
        """The child UCT (blended with its AMAF value under RAVE) rates best; a proved win at once, never a proved
        loss while anything else is left."""
        if node.winning is not None:
            return node.winning
        scale = self.settings.exploration * math.sqrt(math.log(node.visits))
        rave = self.settings.rave
        if rave:
            values = []
            for child, mean, explore in zip(node.children, node.means, node.explores):
                if child.amaf_visits and mean > LOST:
                    beta = math.sqrt(rave / (3.0 * child.visits + rave))
                    mean = (1.0 - beta) * mean + beta * child.amaf_wins / child.amaf_visits
                values.append(mean + scale * explore)
        else:
            values = [mean + scale * explore for mean, explore in zip(node.means, node.explores)]
        return node.children[values.index(max(values))]

    def _update_amaf(self, path: list[Node], trace: list[int], leaf_to_move: int, black: float) -> None:
        """All-moves-as-first: each node's children whose action its mover played later in the simulation."""
        moves = [(node.action, node.mover) for node in path[1:]]
        colour = leaf_to_move
        for action in trace:
            moves.append((action, colour))
            colour = 3 - colour
        seen: dict[int, set[int]] = {1: set(), 2: set()}
        for index in range(len(moves) - 1, -1, -1):
            action, colour = moves[index]
            seen[colour].add(action)
            if index >= len(path):
                continue
            played = seen[colour]
            value = black if colour == BLACK else 1.0 - black
            for child in path[index].children:
                if child.action in played:
                    child.amaf_visits += 1
                    child.amaf_wins += value

    def _propagate_proof(self, path: list[Node]) -> None:
        """Carry a proof up the path: a proved win below makes its parent's mover lose; a parent whose every child
        is a proved loss is a win for its mover."""
        for index in range(len(path) - 1, 0, -1):
            child, parent = path[index], path[index - 1]
            parent.note_proof(child)
            if child.proof == PROVEN_WIN:
                parent.proof = PROVEN_LOSS
            elif child.proof == PROVEN_LOSS and parent.expanded and all(c.proof == PROVEN_LOSS for c in parent.children):
                parent.proof = PROVEN_WIN
            else:
                return


def best_child(root: Node) -> Node | None:
    """The action to play: a proved win, else the most visited action not proved lost (its mean breaks ties)."""
    if not root.children:
        return None
    for child in root.children:
        if child.proof == PROVEN_WIN:
            return child
    alive = [child for child in root.children if child.proof != PROVEN_LOSS] or root.children
    return max(alive, key=lambda c: (c.visits, c.mean))
