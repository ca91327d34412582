"""The `mcts` bot: UCT with RAVE over batches of numpy random playouts, tree reuse, pie, misère and handicap.

Each round descends the tree several times (a virtual loss keeps the descents apart), expands one leaf per
descent, completes every leaf position at random a few times in one numpy call, and backs the results up: win
counts along each path, and AMAF counts (which colour ended up on each cell) at every node of the path.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ytourney.boards.board import Board
from ytourney.games.y.notation import SWAP
from ytourney.games.y.playout import RandomFill
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import EMPTY, GameState
from ytourney.games.bot import BaseBot, Evaluation, Limit, search_evaluation
from ytourney.games.y.bots.heuristic import (
    completing_from_masks,
    fair_openings,
    first_stone_worth,
    group_masks,
)
from ytourney.games.bot import BotOption

DEFAULT_PLAYOUTS = 10_000
# A swap search this sure of the result decides on its own; in between, the table of first-stone worth does.
DECISIVE = 0.9
# Tree memory cap: past it, leaves are still scored but no new nodes are made.
MEMORY_BYTES = 256 * 2**20
# Descents per round (option `leaves`) and random playouts per leaf (option `batch`), tuned on tri:11.
DEFAULT_LEAVES = 8
DEFAULT_BATCH = 8


def swap_decision(state: GameState, black_value: float, margin: float) -> bool:
    """The pie answer of Y's searches: a search value decisive for either side decides; otherwise the first
    stone's worth from the Y-reduction table (its gain net of half the best stone's gain) does."""
    if black_value >= DECISIVE or black_value <= 1.0 - DECISIVE:
        return black_value >= DECISIVE
    stone = next(c for c in range(state.board.num_cells) if state.cells[c] != EMPTY)
    return bool(first_stone_worth(state.board, state.rules.misere)[stone] > 0.5 + margin)


# --- knowledge: bridges -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=32)
def bridge_saves(board: Board) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each cell x: (a, b, y) where a and b form a bridge through x and y, and (a, -1, y) where a reaches
    a side through the two side cells x and y (edge template). Playing y answers an intrusion at x."""
    neighbors = [set(nbs) for nbs in board.neighbors]
    table: list[tuple[tuple[int, int, int], ...]] = []
    for x in range(board.num_cells):
        saves = []
        around = sorted(neighbors[x])
        for i, a in enumerate(around):
            for b in around[i + 1 :]:
                if b in neighbors[a]:
                    continue
                common = (neighbors[a] & neighbors[b]) - {x}
                if len(common) == 1:
                    saves.append((a, b, common.pop()))
        for a in around:
            for side in (1, 2, 4):
                if board.sides[x] & side and not board.sides[a] & side:
                    others = [y for y in neighbors[a] & neighbors[x] if board.sides[y] & side]
                    if len(others) == 1:
                        saves.append((a, -1, others[0]))
        table.append(tuple(saves))
    return tuple(table)


# --- the search tree ---------------------------------------------------------------------------------


class Node:
    """A position in the tree: the colour to move, and visit, win and AMAF counts for each cell it may play.

    The legal cells (`bias`) and the one-move tactics are worked out when the search first leaves the node,
    so leaves scored once never pay for them.
    """

    __slots__ = ("amaf_n", "amaf_w", "bias", "children", "n", "solved", "to_move", "visits", "w")

    def __init__(self, to_move: int, num_cells: int, solved: int = 0) -> None:
        self.to_move = to_move
        self.bias: np.ndarray | None = None  # -inf on cells it may not play, a tiny seeded jitter elsewhere
        self.n, self.w, self.amaf_n, self.amaf_w = np.zeros((4, num_cells))
        self.visits = 0.0
        self.children: dict[int, Node] = {}
        self.solved = solved  # colour known to win from here (0 when unknown)

    def legal(self) -> np.ndarray:
        """Cells the search may play here (once prepared)."""
        return np.flatnonzero(np.isfinite(self.bias))


@dataclass(frozen=True)
class SearchResult:
    """What one search found: the chosen cell, its value for the mover, and the work done.

    `simulations` counts random playouts (plus one per decided leaf); `descents` counts walks down the tree, each
    ending in one leaf scored by a batch of playouts.
    """

    move: int
    value: float
    simulations: int
    seconds: float
    nodes: int = 0
    descents: int = 0
    winner: int = 0
    """The Color value of the side the search proved wins from the root, 0 when nothing is proved."""


@dataclass
class _Leaf:
    """A descent waiting for its playouts: the path taken, the leaf node (None past the memory cap), its state."""

    path: list[tuple[Node, int]]
    node: Node | None
    state: GameState


class MctsBot(BaseBot):
    """UCT with RAVE: leaves are scored by batches of numpy random playouts whose filled boards feed AMAF."""

    name = "mcts"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "playouts": BotOption(int, 0, f"simulations per move (0: use the time limit, else {DEFAULT_PLAYOUTS})",
                              0, 100_000_000),
        "seconds": BotOption(float, 0.0, "seconds per move when no playout budget is set, at most the game's "
                             "limit (0: that limit)", 0, 86_400),
        "c": BotOption(float, 0.0, "UCT exploration constant (RAVE values and the virtual loss already explore)",
                       0, 100),
        "rave": BotOption(float, 1000.0, "RAVE equivalence: visits at which tree and AMAF values weigh equally (0: off)",
                          0, 1e9),
        "batch": BotOption(int, DEFAULT_BATCH, "random playouts per leaf", 1, 4096),
        "leaves": BotOption(int, DEFAULT_LEAVES, "descents per round, scored in one numpy call, kept apart by virtual loss",
                            1, 4096),
        "bridge": BotOption(float, 64.0, "prior wins (in playouts) for answering an intrusion into a bridge", 0, 1e9),
        "swap_margin": BotOption(float, 0.0, "swap when the first stone is worth more than 0.5 + this to Black",
                                 -0.5, 0.5, pie_only=True),
        "reuse": BotOption(bool, True, "keep the subtree of the actual moves between decisions"),
    }

    def __init__(
        self,
        seed: int | None = None,
        playouts: int = 0,
        seconds: float = 0.0,
        c: float = 0.0,
        rave: float = 1000.0,
        batch: int = DEFAULT_BATCH,
        leaves: int = DEFAULT_LEAVES,
        bridge: float = 64.0,
        swap_margin: float = 0.0,
        reuse: bool = True,
    ) -> None:
        super().__init__(seed)
        for option, value in (("playouts", playouts), ("seconds", seconds), ("c", c), ("rave", rave),
                              ("batch", batch), ("leaves", leaves), ("bridge", bridge)):
            if value < 0:
                raise ValueError(f"option {option}={value!r} must be >= 0")
        if batch < 1 or leaves < 1:
            raise ValueError(f"options batch={batch!r} and leaves={leaves!r} must be >= 1")
        self.playouts = playouts
        self.seconds = seconds
        self.c = c
        self.rave = rave
        self.batch = batch
        self.leaves = leaves
        self.bridge = bridge
        self.swap_margin = swap_margin
        self.reuse = reuse
        self._rng = np.random.default_rng(seed)
        self._fill: RandomFill | None = None
        self._root: Node | None = None
        self._root_path: tuple[int, ...] = ()
        self._nodes = 0  # nodes created since the last count: an upper bound on the tree's size
        self._max_nodes = 0
        self._full = False
        self.last_search: SearchResult | None = None
        self._evaluation: Evaluation | None = None

    def new_game(self, board: Board, rules: Rules, color: Color) -> None:
        """Forget the previous game's tree."""
        super().new_game(board, rules, color)
        self._root = None
        self._root_path = ()

    def move(self, state: GameState, limit: Limit) -> int:
        """The most visited cell after a search from `state`; under the pie rule, a fair first stone."""
        if state.pie_active and state.num_stones == 0:
            move = int(self._rng.choice(fair_openings(state.board, state.rules.misere, self.swap_margin)))
            self.last_search = SearchResult(move, 0.5, 0, 0.0)
            self._evaluation = None
            return move
        result = self.search(state, limit)
        self._evaluation = search_evaluation(result.value, result.winner == int(state.to_move) if result.winner
                                             else None)
        self._advance(result.move)
        return result.move

    def evaluation(self) -> Evaluation | None:
        """The root value of the search behind the last move and its proof (None for an opening from the table)."""
        return self._evaluation

    def swap(self, state: GameState, limit: Limit) -> bool:
        """Swap when Black's first stone is worth more than 0.5 (+ swap_margin) to Black.

        A search from White's side decides when it finds the stone clearly winning or losing (small boards);
        otherwise random-playout values cannot tell a first stone from White's tempo, and the stone's worth
        from the Y-reduction table (its gain net of half the best stone's gain) decides.
        """
        return swap_decision(state, 1.0 - self.search(state, limit).value, self.swap_margin)

    # --- search --------------------------------------------------------------------------------------------

    def search(self, state: GameState, limit: Limit) -> SearchResult:
        """Run one search from `state` within `limit` and return its choice."""
        started = time.perf_counter()
        board = state.board
        if self._fill is None or self._fill.board != board:
            self._fill = RandomFill(board)
            self._root = None
            self._max_nodes = max(1000, MEMORY_BYTES // (5 * 8 * board.num_cells + 200))
        budget, deadline = self._budget(limit, started)
        root = self._find_root(state)
        legal = root.legal()
        simulations = 0
        descents_done = 0
        if root.solved or len(legal) <= 1:
            # Decided already: a win in one, a lost position (a threat is blocked anyway), or one legal cell.
            move = int(legal[0]) if len(legal) else state.empty_cells()[0]
            value = 1.0 if root.solved == root.to_move else 0.0 if root.solved else 0.5
        else:
            while True:
                left = budget - simulations
                descents = self.leaves if left >= self.leaves * self.batch else max(1, math.ceil(left / self.batch))
                simulations += self._round(state, root, descents)
                descents_done += descents
                if simulations >= budget or (deadline is not None and time.perf_counter() >= deadline):
                    break
            move, value = self._choose(root)
        result = SearchResult(move, value, simulations, time.perf_counter() - started, self._nodes, descents_done,
                              root.solved)
        self.last_search = result
        return result

    def _budget(self, limit: Limit, started: float) -> tuple[float, float | None]:
        """Simulations allowed and a wall-clock deadline (None when only the simulation count binds)."""
        playouts = limit.playouts or self.playouts
        safety = None
        if limit.remaining is not None:
            safety = started + max(0.0, limit.remaining) * 0.5
        if playouts:
            if limit.seconds is not None:
                hard = started + limit.seconds + min(limit.seconds, 0.5)
                safety = hard if safety is None else min(safety, hard)
            return float(playouts), safety
        seconds = limit.seconds
        if self.seconds:
            seconds = self.seconds if seconds is None else min(seconds, self.seconds)
        if seconds is None:
            return float(DEFAULT_PLAYOUTS), safety
        deadline = started + seconds * 0.95
        return math.inf, deadline if safety is None else min(deadline, safety)

    def _round(self, root_state: GameState, root: Node, descents: int) -> int:
        """Several descents kept apart by a virtual loss, one numpy call for all their playouts, the backups."""
        batch = self.batch
        leaves: list[_Leaf] = []
        simulations = 0
        num_cells = root_state.board.num_cells
        for _ in range(descents):
            state = root_state.copy()
            node = root
            path: list[tuple[Node, int]] = []
            while True:
                if node.bias is None and not node.solved:
                    self._prepare(node, state)
                if node.solved:
                    self._backup_known(path, node.solved, batch)
                    simulations += 1
                    break
                move = self._select(node)
                path.append((node, move))
                node.n[move] += batch  # virtual loss: this visit counts as lost until its playouts return
                node.amaf_n[move] += batch
                node.visits += batch
                state.play(move)
                child = node.children.get(move)
                if child is None:
                    if self._nodes >= self._max_nodes and self._tree_full(root):
                        leaves.append(_Leaf(path, None, state))
                        break
                    child = Node(int(state.to_move), num_cells, int(state.winner or 0))
                    node.children[move] = child
                    self._nodes += 1
                    if child.solved:
                        self._backup_known(path, child.solved, batch)
                        simulations += 1
                        break
                    leaves.append(_Leaf(path, child, state))
                    break
                if child.visits == 0 and not child.solved:  # expanded earlier in this round, not scored yet
                    leaves.append(_Leaf(path, child, state))
                    break
                node = child
        if leaves:
            self._score(leaves, batch)
            simulations += batch * len(leaves)
        return simulations

    def _select(self, node: Node) -> int:
        n = node.n
        if self.rave:
            amaf_n = node.amaf_n
            share = amaf_n * (1.0 / self.rave)
            weight = n + amaf_n + n * share
            value = (node.w * (1.0 + share) + node.amaf_w + 0.5e-9) / (weight + 1e-9)
        else:
            value = (node.w + 0.5e-9) / (n + 1e-9)
        if self.c:
            value += (self.c * math.sqrt(math.log(node.visits + 1.0))) / np.sqrt(n + 1.0)
        value += node.bias
        return int(value.argmax())

    def _prepare(self, node: Node, state: GameState) -> None:
        """Work out the legal cells of `node` (the position `state`): one-move wins, forced blocks, misère suicides."""
        board = state.board
        n = board.num_cells
        if state.is_over:
            node.bias = np.full(n, -np.inf)
            node.solved = int(state.winner)
            return
        mover = node.to_move
        cells = np.array(state.cells + [EMPTY], dtype=np.int8)
        bias = np.where(cells[:-1] == EMPTY, self._rng.random(n) * 1e-7, -np.inf)
        node.bias = bias
        masks = group_masks(state)
        own = completing_from_masks(board, cells, masks, mover)
        if state.rules.misere:  # a stone completing one's own Y loses; bridges are no asset either
            if len(own):
                bias[own] = -np.inf
                if not np.isfinite(bias).any():
                    node.solved = 3 - mover
            return
        if len(own):
            node.bias = np.full(n, -np.inf)
            node.bias[own] = 0.0
            node.solved = mover
            return
        if state.stones_left_this_turn == 1:
            threats = completing_from_masks(board, cells, masks, 3 - mover)
            if len(threats):
                node.bias = np.full(n, -np.inf)
                node.bias[threats] = bias[threats]
                if len(threats) > 1:
                    node.solved = 3 - mover
                return
        if self.bridge and state.moves:
            last = state.moves[-1]
            if last != SWAP and cells[last] == 3 - mover:
                for a, b, y in bridge_saves(board)[last]:
                    if cells[a] == mover and (b < 0 or cells[b] == mover) and cells[y] == EMPTY:
                        node.n[y] += self.bridge
                        node.w[y] += self.bridge

    def _score(self, leaves: list[_Leaf], batch: int) -> None:
        """Random playouts for every waiting leaf in one call, then each leaf's backup."""
        winners, boards = self._fill.play([leaf.state for leaf in leaves], batch, self._rng)
        black_won = winners == Color.BLACK  # (leaves, batch)
        is_black = boards == Color.BLACK  # (leaves, batch, cells)
        black_owned = is_black.sum(axis=1, dtype=np.float64)
        black_owned_won = (is_black & black_won[:, :, None]).sum(axis=1, dtype=np.float64)
        black_wins = black_won.sum(axis=1)
        for i, leaf in enumerate(leaves):
            bw = float(black_wins[i])
            ww = batch - bw
            owned = {Color.BLACK: black_owned[i], Color.WHITE: batch - black_owned[i]}
            owned_won = {
                Color.BLACK: black_owned_won[i],
                Color.WHITE: ww - (black_owned[i] - black_owned_won[i]),
            }
            wins = {Color.BLACK: bw, Color.WHITE: ww}
            for node, move in leaf.path:
                mover = node.to_move
                node.w[move] += wins[mover]
                node.amaf_n[move] -= batch  # the virtual loss comes back off; the real AMAF counts go on
                node.amaf_n += owned[mover]
                node.amaf_w += owned_won[mover]
            if leaf.node is not None:
                node = leaf.node
                node.amaf_n += owned[node.to_move]
                node.amaf_w += owned_won[node.to_move]
                node.visits += batch

    def _backup_known(self, path: list[tuple[Node, int]], winner: int, weight: int) -> None:
        """Back up a decided result (terminal or solved leaf) with the weight of one batch."""
        for node, move in path:
            node.amaf_n[move] -= weight
            if node.to_move == winner:
                node.w[move] += weight

    def _choose(self, root: Node) -> tuple[int, float]:
        """The most visited legal cell (ties to the better value) and its value for the mover."""
        legal = root.legal()
        visits = root.n[legal]
        values = root.w[legal] / np.maximum(visits, 1.0)
        best = int(np.lexsort((values, visits))[-1])
        return int(legal[best]), float(values[best])

    # --- tree reuse ------------------------------------------------------------------------------------------

    def _find_root(self, state: GameState) -> Node:
        path = tuple(m for m in state.moves if m != SWAP)
        root = self._root
        if self.reuse and root is not None and path[: len(self._root_path)] == self._root_path:
            for move in path[len(self._root_path) :]:
                root = root.children.get(move)
                if root is None:
                    break
            if root is not None:
                if root.bias is None:
                    self._prepare(root, state)
                self._root, self._root_path = root, path
                self._full = False  # the node count still includes dropped branches until the next recount
                return root
        root = Node(int(state.to_move), state.board.num_cells)
        self._prepare(root, state)
        self._root, self._root_path = root, path
        self._nodes = 1
        self._full = False
        return root

    def _tree_full(self, root: Node) -> bool:
        """True once the tree really holds the maximum number of nodes (recounted when the estimate says so)."""
        if not self._full:
            self._nodes = _count_nodes(root)
            self._full = self._nodes >= self._max_nodes
        return self._full

    def _advance(self, move: int) -> None:
        """Step the kept tree to the child of the move just chosen."""
        child = self._root.children.get(move) if self._root is not None and self.reuse else None
        if child is None:
            self._root = None
            self._root_path = ()
            return
        self._root = child
        self._root_path = self._root_path + (move,)


def _count_nodes(root: Node) -> int:
    """Nodes in the subtree under `root`."""
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.children.values())
    return count
