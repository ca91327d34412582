"""The `mcts` bot: UCT with RAVE over batches of numpy random playouts, tree reuse, pie, misère and handicap."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ytourney.board import Board, BoardKind
from ytourney.bots.base import BaseBot, Limit
from ytourney.bots.heuristic import completing_cells
from ytourney.bots.spec import BotOption
from ytourney.game import EMPTY, Color, GameState, Rules
from ytourney.notation import SWAP

DEFAULT_PLAYOUTS = 10_000
# Rows of the per-node statistics table.
VISITS, WINS, AMAF_VISITS, AMAF_WINS = range(4)


# --- batch random playouts -------------------------------------------------------------------------------


class RandomFill:
    """Completes one position at random many times at once and tells which colour holds the Y on each board."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.num_cells = board.num_cells
        self.is_tri = board.kind is BoardKind.TRI
        if self.is_tri:
            self.ys = np.array([y for _, y in board.coords], dtype=np.intp)
            self.xs = np.array([x for x, _ in board.coords], dtype=np.intp)
        else:
            nbr = board.neighbor_array.copy()
            nbr[nbr < 0] = board.num_cells
            self.neighbors = nbr
            self.side_rows = np.array(
                [[bool(m & side) for m in board.sides] for side in (1, 2, 4)], dtype=bool
            )

    def run(
        self, cells: np.ndarray, to_move: int, stones_left: int, count: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]:
        """Fill the empty cells of `cells` `count` times; return (colour holding a Y per board, filled boards)."""
        empties = np.flatnonzero(cells == EMPTY)
        num_empty = len(empties)
        mover_stones = min(num_empty, stones_left) + max(0, num_empty - stones_left) // 2
        boards = np.repeat(cells[None, :], count, axis=0)
        if num_empty:
            keys = rng.random((count, num_empty))
            if mover_stones == 0:
                mover_cells = np.zeros((count, num_empty), dtype=bool)
            else:
                threshold = np.partition(keys, mover_stones - 1, axis=1)[:, mover_stones - 1 : mover_stones]
                mover_cells = keys <= threshold
            boards[:, empties] = np.where(mover_cells, to_move, 3 - to_move)
        black_wins = self.black_holds_y(boards == Color.BLACK)
        winners = np.where(black_wins, Color.BLACK, Color.WHITE).astype(np.int8)
        return winners, boards

    def black_holds_y(self, black: np.ndarray) -> np.ndarray:
        """For full boards given as a (boards, cells) bool array of Black stones: does Black hold a Y?"""
        count = len(black)
        words = _pack(black)
        if self.is_tri:
            held = self._reduce(words)
        else:
            held = self._propagate(words)
        return _unpack(held, count)

    def _reduce(self, words: np.ndarray) -> np.ndarray:
        n = self.board.size
        grid = np.zeros((n, n, words.shape[1]), dtype=np.uint64)
        grid[self.ys, self.xs] = words
        for k in range(n - 1, 0, -1):
            a = grid[:k, :k]
            b = grid[:k, 1 : k + 1]
            c = grid[1 : k + 1, :k]
            grid = (a & b) | (c & (a | b))
        return grid[0, 0]

    def _propagate(self, words: np.ndarray) -> np.ndarray:
        n = self.num_cells
        width = words.shape[1]
        reach = np.zeros((3, n + 1, width), dtype=np.uint64)
        reach[:, :n] = np.where(self.side_rows[:, :, None], words[None, :, :], np.uint64(0))
        while True:
            grown = np.bitwise_or.reduce(reach[:, self.neighbors], axis=2) & words[None, :, :]
            grown |= reach[:, :n]
            if np.array_equal(grown, reach[:, :n]):
                break
            reach[:, :n] = grown
        return np.bitwise_or.reduce(reach[0, :n] & reach[1, :n] & reach[2, :n], axis=0)


def _pack(bits: np.ndarray) -> np.ndarray:
    """(boards, cells) bools -> (cells, words) uint64 with board b in bit b % 64 of word b // 64."""
    count, cells = bits.shape
    packed = np.packbits(bits, axis=0, bitorder="little")
    rows = -(-count // 64) * 8
    if packed.shape[0] < rows:
        packed = np.concatenate([packed, np.zeros((rows - packed.shape[0], cells), dtype=np.uint8)])
    return np.ascontiguousarray(packed.T).view(np.uint64)


def _unpack(words: np.ndarray, count: int) -> np.ndarray:
    """uint64 words -> the first `count` bits as bools."""
    return np.unpackbits(np.ascontiguousarray(words).view(np.uint8), bitorder="little")[:count].astype(bool)


# --- the search tree ---------------------------------------------------------------------------------


class Node:
    """A position in the tree: the mover, its legal cells, and per-cell visit, win and AMAF counts."""

    __slots__ = ("to_move", "legal", "stats", "visits", "children", "solved")

    def __init__(self, to_move: int, legal: np.ndarray, num_cells: int, solved: int = 0) -> None:
        self.to_move = to_move
        self.legal = legal
        self.stats = np.zeros((4, num_cells))
        self.visits = 0.0
        self.children: dict[int, Node] = {}
        self.solved = solved  # colour known to win from here (0 when unknown)


@dataclass(frozen=True)
class SearchResult:
    """What one search found: the chosen cell, its value for the mover, and the work done."""

    move: int
    value: float
    simulations: int
    seconds: float


class MctsBot(BaseBot):
    """UCT with RAVE: each leaf is scored by a batch of numpy random playouts whose filled boards feed AMAF."""

    name = "mcts"
    OPTIONS = {
        "playouts": BotOption(int, 0, f"simulations per move (0: use the time limit, else {DEFAULT_PLAYOUTS})"),
        "seconds": BotOption(float, 0.0, "seconds per move when no playout budget is set (0: the game's limit)"),
        "c": BotOption(float, 0.3, "UCT exploration constant"),
        "rave": BotOption(float, 1000.0, "RAVE equivalence: visits at which tree and AMAF values weigh equally (0: off)"),
        "batch": BotOption(int, 0, "random playouts per leaf (0: automatic)"),
        "swap_margin": BotOption(float, 0.0, "swap when the first stone is worth more than 0.5 + this to Black"),
        "reuse": BotOption(bool, True, "keep the subtree of the actual moves between decisions"),
    }

    def __init__(
        self,
        seed: int | None = None,
        playouts: int = 0,
        seconds: float = 0.0,
        c: float = 0.3,
        rave: float = 1000.0,
        batch: int = 0,
        swap_margin: float = 0.0,
        reuse: bool = True,
    ) -> None:
        super().__init__(seed)
        if playouts < 0 or seconds < 0 or batch < 0 or c < 0 or rave < 0:
            raise ValueError("playouts, seconds, batch, c and rave must be >= 0")
        self.playouts = playouts
        self.seconds = seconds
        self.c = c
        self.rave = rave
        self.batch = batch
        self.swap_margin = swap_margin
        self.reuse = reuse
        self._rng = np.random.default_rng(seed)
        self._fill: RandomFill | None = None
        self._root: Node | None = None
        self._root_path: tuple[int, ...] = ()
        self.last_search: SearchResult | None = None

    def new_game(self, board: Board, rules: Rules, color: Color) -> None:
        """Forget the previous game's tree."""
        super().new_game(board, rules, color)
        self._root = None
        self._root_path = ()

    def move(self, state: GameState, limit: Limit) -> int:
        """The most visited cell after a search from `state`."""
        result = self.search(state, limit)
        self._advance(state, result.move)
        return result.move

    def swap(self, state: GameState, limit: Limit) -> bool:
        """Swap when a search says Black's first stone is worth more than 0.5 (+ swap_margin) to Black."""
        result = self.search(state, limit)
        return bool(1.0 - result.value > 0.5 + self.swap_margin)

    # --- search --------------------------------------------------------------------------------------------

    def search(self, state: GameState, limit: Limit) -> SearchResult:
        """Run one search from `state` within `limit` and return its choice."""
        started = time.perf_counter()
        board = state.board
        if self._fill is None or self._fill.board != board:
            self._fill = RandomFill(board)
            self._root = None
        budget, deadline = self._budget(limit, started)
        root = self._find_root(state)
        pie_root = state.pie_active and state.num_stones == 0
        batch = self._batch_size(budget, board.num_cells)
        simulations = 0
        legal = np.flatnonzero(root.legal)
        if root.solved or len(legal) <= 1:
            # Decided already: a win in one, a lost position (block a threat anyway), or a single legal cell.
            move = int(legal[0]) if len(legal) else state.empty_cells()[0]
            value = 1.0 if root.solved == root.to_move else 0.0 if root.solved else 0.5
        else:
            while True:
                simulations += self._simulate(state, root, batch, pie_root)
                if simulations >= budget or (deadline is not None and time.perf_counter() >= deadline):
                    break
            move, value = self._choose(root)
        result = SearchResult(move, value, simulations, time.perf_counter() - started)
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

    def _batch_size(self, budget: float, num_cells: int) -> int:
        if self.batch:
            return self.batch
        if math.isinf(budget):
            return 32
        return int(min(32, max(4, budget // 256)))

    def _simulate(self, root_state: GameState, root: Node, batch: int, pie_root: bool) -> int:
        """One descent, expansion and batch of playouts; returns the simulations it counts for."""
        state = root_state.copy()
        node = root
        path: list[tuple[Node, int]] = []
        while True:
            if node.solved:
                winner, boards = node.solved, None
                break
            move = self._select(node, pie_root and node is root)
            path.append((node, move))
            state.play(move)
            child = node.children.get(move)
            if child is None:
                child = self._expand(state)
                node.children[move] = child
                node = child
                if state.is_over or child.solved:
                    winner, boards = (state.winner or child.solved), None
                    break
                cells = np.array(state.cells, dtype=np.int8)
                y_holders, boards = self._fill.run(cells, state.to_move, state.stones_left_this_turn, batch, self._rng)
                winner = y_holders if not state.rules.misere else (3 - y_holders)
                break
            node = child
        if boards is None:
            self._backup_known(path, node, int(winner), batch)
            return 1
        self._backup(path, node, winner, boards)
        return batch

    def _select(self, node: Node, pie_root: bool) -> int:
        stats = node.stats
        visits = stats[VISITS]
        amaf_visits = stats[AMAF_VISITS]
        with np.errstate(divide="ignore", invalid="ignore"):
            amaf_value = np.where(amaf_visits > 0, stats[AMAF_WINS] / amaf_visits, 0.5)
            value = np.where(visits > 0, stats[WINS] / visits, amaf_value)
            if self.rave:
                beta = amaf_visits / (amaf_visits + visits + amaf_visits * visits / self.rave)
                beta = np.where(amaf_visits > 0, beta, 0.0)
                value = value + beta * (amaf_value - value)
        if pie_root:
            value = 0.5 - np.abs(value - 0.5)
        if self.c:
            value = value + self.c * np.sqrt(math.log(node.visits + 1.0) / (visits + 1.0))
        value = np.where(node.legal, value, -np.inf)
        return int(np.argmax(value))

    def _expand(self, state: GameState) -> Node:
        """A new node for `state`, with one-move wins, forced blocks and misère suicides worked out."""
        n = state.board.num_cells
        if state.is_over:
            return Node(0, np.zeros(n, dtype=bool), n, solved=int(state.winner))
        mover = state.to_move
        legal = np.fromiter((c == EMPTY for c in state.cells), dtype=bool, count=n)
        own = completing_cells(state, mover)
        if state.rules.misere:
            if len(own):
                legal[own] = False
                if not legal.any():
                    return Node(int(mover), np.zeros(n, dtype=bool), n, solved=int(mover.other))
            return Node(int(mover), legal, n)
        if len(own):
            only = np.zeros(n, dtype=bool)
            only[own] = True
            return Node(int(mover), only, n, solved=int(mover))
        if state.stones_left_this_turn == 1:
            threats = completing_cells(state, mover.other)
            if len(threats):
                legal = np.zeros(n, dtype=bool)
                legal[threats] = True
                if len(threats) > 1:
                    return Node(int(mover), legal, n, solved=int(mover.other))
        return Node(int(mover), legal, n)

    def _backup(self, path: list[tuple[Node, int]], leaf: Node, winners: np.ndarray, boards: np.ndarray) -> None:
        count = len(winners)
        black_won = winners == Color.BLACK
        black_wins = int(black_won.sum())
        is_black = boards == Color.BLACK
        is_white = ~is_black
        owned = {Color.BLACK: is_black.sum(axis=0), Color.WHITE: is_white.sum(axis=0)}
        owned_won = {
            Color.BLACK: is_black[black_won].sum(axis=0),
            Color.WHITE: is_white[~black_won].sum(axis=0),
        }
        wins_of = {Color.BLACK: black_wins, Color.WHITE: count - black_wins}
        for node, move in path:
            stats = node.stats
            stats[VISITS, move] += count
            stats[WINS, move] += wins_of[node.to_move]
            stats[AMAF_VISITS] += owned[node.to_move]
            stats[AMAF_WINS] += owned_won[node.to_move]
            node.visits += count
        stats = leaf.stats
        stats[AMAF_VISITS] += owned[leaf.to_move]
        stats[AMAF_WINS] += owned_won[leaf.to_move]
        leaf.visits += count

    def _backup_known(self, path: list[tuple[Node, int]], leaf: Node, winner: int, weight: int) -> None:
        for node, move in path:
            node.stats[VISITS, move] += weight
            if node.to_move == winner:
                node.stats[WINS, move] += weight
            node.visits += weight
        leaf.visits += weight

    def _choose(self, root: Node) -> tuple[int, float]:
        """The most visited legal cell and its value for the mover."""
        stats = root.stats
        legal = np.flatnonzero(root.legal)
        visits = stats[VISITS, legal]
        if visits.max() <= 0:
            with np.errstate(divide="ignore", invalid="ignore"):
                amaf = np.where(stats[AMAF_VISITS, legal] > 0, stats[AMAF_WINS, legal] / stats[AMAF_VISITS, legal], 0.0)
            best = int(legal[int(np.argmax(amaf))])
            return best, float(amaf.max()) if len(amaf) else 0.5
        values = stats[WINS, legal] / np.maximum(visits, 1.0)
        best_index = int(np.lexsort((values, visits))[-1])
        return int(legal[best_index]), float(values[best_index])

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
                self._root, self._root_path = root, path
                return root
        root = self._expand(state)
        self._root, self._root_path = root, path
        return root

    def _advance(self, state: GameState, move: int) -> None:
        """Step the kept tree to the child of the move just chosen."""
        if self._root is None:
            return
        child = self._root.children.get(move)
        if child is None or not self.reuse:
            self._root = None
            self._root_path = ()
            return
        self._root = child
        self._root_path = self._root_path + (move,)
