"""The `heuristic` bot: tactics in one move, then one ply on a Y-distance evaluation; pie by a first-stone table.

The Y-distance (stones still needed to join the three sides, softmin over the cells where the three paths meet)
works on every board and beat a one-ply probabilistic Y-reduction 38-2 on tri:11: the reduction's iterated
majority saturates to 0 or 1 after a few stones and stops telling moves apart. The reduction (tri) or a stored
table of random completions (kadon) still rates lone first stones for the pie rule, where it is sound.
"""

from __future__ import annotations

import functools
from typing import ClassVar

import numpy as np

from ytourney.boards.board import ALL_SIDES, Board, BoardKind
from ytourney.games.api import Color
from ytourney.games.y.state import EMPTY, GameState
from ytourney.games.bot import QUICK_SECONDS, BaseBot, BotOption, Limit

# Boards evaluated per numpy call; bounds memory on tri:26 (26 * 26 floats per board).
CHUNK = 2048
# Openings within this much of the strongest fair first stone are played at random, for variety.
OPENING_TOLERANCE = 0.02
# Kadon: P(Black holds a Y) - 0.5 after a random completion of the board with one Black stone on each cell
# (cells in board order, A1 B1 ... E9), White to move; 2**18 completions per cell (standard error 0.001),
# computed once with ytourney.games.y.playout.RandomFill and numpy.random.default_rng(2026) (tests/players/test_bots.py
# checks it against the kernel). The board has no Y-reduction to compute it.
KADON_STONE_GAINS = (
    0.0452, 0.0325, 0.0267, 0.0220, 0.0214, 0.0237, 0.0264, 0.0318, 0.0465, 0.0323, 0.0478, 0.0412,
    0.0380, 0.0330, 0.0362, 0.0373, 0.0424, 0.0473, 0.0310, 0.0276, 0.0417, 0.0424, 0.0390, 0.0374,
    0.0373, 0.0388, 0.0396, 0.0438, 0.0430, 0.0262, 0.0218, 0.0371, 0.0407, 0.0346, 0.0346, 0.0362,
    0.0369, 0.0339, 0.0359, 0.0385, 0.0375, 0.0239, 0.0209, 0.0354, 0.0390, 0.0342, 0.0203, 0.0316,
    0.0365, 0.0343, 0.0216, 0.0345, 0.0382, 0.0355, 0.0217, 0.0239, 0.0359, 0.0385, 0.0359, 0.0342,
    0.0351, 0.0371, 0.0331, 0.0367, 0.0384, 0.0346, 0.0231, 0.0253, 0.0363, 0.0376, 0.0376, 0.0366,
    0.0363, 0.0368, 0.0379, 0.0389, 0.0360, 0.0269, 0.0322, 0.0399, 0.0402, 0.0348, 0.0329, 0.0341,
    0.0353, 0.0408, 0.0423, 0.0318, 0.0461, 0.0462, 0.0441, 0.0380, 0.0189,
)
# Boards with more empty cells than this evaluate only the cells nearest to either side's shortest Y trees.
MAX_EXACT_CANDIDATES = 48
# Logistic scale turning a Y-distance difference into a win probability on kadon.
DISTANCE_SCALE = 0.8
# Softmin sharpness of the Y-distance: higher counts only the shortest trees, lower rewards many near-shortest.
SOFTMIN_SHARPNESS = 1.5


# --- tactics -------------------------------------------------------------------------------------------


def group_masks(state: GameState) -> np.ndarray:
    """Side mask of the group holding each cell (0 on empty cells), plus a trailing 0 for padded neighbours."""
    sides = state.group_sides
    masks = [sides(i) if c else 0 for i, c in enumerate(state.cells)]
    masks.append(0)
    return np.array(masks, dtype=np.uint8)


def completing_from_masks(board: Board, cells: np.ndarray, masks: np.ndarray, color: int) -> np.ndarray:
    """Empty cells where a stone of `color` completes a Y, given the cells (with a trailing 0) and group masks."""
    own = np.where(cells == color, masks, 0)[board.neighbor_array]
    reach = own[:, 0] | own[:, 1] | own[:, 2] | own[:, 3] | own[:, 4] | own[:, 5] | board.side_array
    return np.flatnonzero((cells[:-1] == EMPTY) & (reach == ALL_SIDES))


def completing_cells(state: GameState, color: Color) -> np.ndarray:
    """Empty cells where a stone of `color` would complete a Y for that colour (sorted cell indices)."""
    cells = np.array(state.cells + [EMPTY], dtype=np.int8)
    return completing_from_masks(state.board, cells, group_masks(state), int(color))


def win_probability(y_probability: np.ndarray, misere: bool) -> np.ndarray:
    """Win chance from the chance of completing a Y: the same in normal play, its complement under misère."""
    return 1.0 - y_probability if misere else y_probability


# --- evaluations ---------------------------------------------------------------------------------------


class TriReduction:
    """Probabilistic Y-reduction on tri boards: empty cells count as p = 0.5, triangles reduce by majority."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.size = board.size
        self.ys = np.array([y for _, y in board.coords], dtype=np.intp)
        self.xs = np.array([x for x, _ in board.coords], dtype=np.intp)

    def y_probability(self, boards: np.ndarray, color: int) -> np.ndarray:
        """Estimated chance that `color` holds a Y once each board (rows of cell values) is filled at random."""
        out = np.empty(len(boards))
        for start in range(0, len(boards), CHUNK):
            chunk = boards[start : start + CHUNK]
            p = np.where(chunk == color, 1.0, np.where(chunk == EMPTY, 0.5, 0.0))
            out[start : start + CHUNK] = self.reduce(p)
        return out

    def reduce(self, p: np.ndarray) -> np.ndarray:
        """Reduce per-cell probabilities (boards x cells) to the probability of a Y, step by step."""
        n = self.size
        grid = np.zeros((len(p), n, n))
        grid[:, self.ys, self.xs] = p
        for k in range(n - 1, 0, -1):
            a = grid[:, :k, :k]
            b = grid[:, :k, 1 : k + 1]
            c = grid[:, 1 : k + 1, :k]
            ab = a * b
            grid = ab + c * (a + b - 2.0 * ab)
        return grid[:, 0, 0]


class YDistance:
    """Y-distance on any board: empty cells cost 1, own stones 0, the opponent's block; softmin over meeting cells."""

    def __init__(self, board: Board) -> None:
        self.board = board
        n = board.num_cells
        nbr = board.neighbor_array.copy()
        nbr[nbr < 0] = n  # padding slot holds an infinite distance
        self.neighbors = nbr
        self.side_rows = np.array([[bool(m & side) for m in board.sides] for side in (1, 2, 4)])

    def y_probability(self, boards: np.ndarray, color: int) -> np.ndarray:
        """Logistic of the opponent's Y-distance minus this colour's: a rough chance of connecting first."""
        out = np.empty(len(boards))
        other = 3 - color
        for start in range(0, len(boards), CHUNK):
            chunk = boards[start : start + CHUNK]
            gap = self.distance(chunk, other) - self.distance(chunk, color)
            out[start : start + CHUNK] = 1.0 / (1.0 + np.exp(-DISTANCE_SCALE * gap))
        return out

    def through(self, boards: np.ndarray, color: int) -> np.ndarray:
        """d1 + d2 + d3 - 2 * cost per cell: the stones `color` still needs for a Y meeting at that cell."""
        count, n = boards.shape
        cost = np.where(boards == color, 0.0, np.where(boards == EMPTY, 1.0, np.inf))
        dist = np.full((count, 3, n + 1), np.inf)
        dist[:, :, :n] = np.where(self.side_rows[None, :, :], cost[:, None, :], np.inf)
        step_cost = cost[:, None, :]
        while True:
            through = dist[:, :, self.neighbors].min(axis=3) + step_cost
            better = through < dist[:, :, :n]
            if not better.any():
                break
            np.minimum(dist[:, :, :n], through, out=dist[:, :, :n])
        return dist[:, :, :n].sum(axis=1) - 2.0 * np.where(np.isinf(cost), 0.0, cost)

    def distance(self, boards: np.ndarray, color: int) -> np.ndarray:
        """Softmin over cells of `through`: a Y-distance that also rewards many near-shortest trees."""
        total = self.through(boards, color)
        n = boards.shape[1]
        finite = np.isfinite(total)
        lowest = np.where(finite, total, np.inf).min(axis=1)
        lowest = np.where(np.isfinite(lowest), lowest, 4.0 * n)
        spread = np.where(finite, np.exp(-SOFTMIN_SHARPNESS * (total - lowest[:, None])), 0.0).sum(axis=1)
        return lowest - np.log(np.maximum(spread, 1.0)) / SOFTMIN_SHARPNESS


@functools.lru_cache(maxsize=32)
def evaluator_for(board: Board) -> YDistance:
    """The move evaluation used on `board` (cached per board)."""
    return YDistance(board)


@functools.lru_cache(maxsize=32)
def stone_gains(board: Board) -> np.ndarray:
    """How much a lone stone on each cell raises its colour's chance of a Y in a random completion of the board.

    Tri boards use the probabilistic Y-reduction (exact up to its independence assumption, no noise); kadon, which
    has no reduction, a stored table of random completions by the playout kernel.
    """
    if board.kind is BoardKind.KADON:
        return np.array(KADON_STONE_GAINS)
    n = board.num_cells
    boards = np.zeros((n, n), dtype=np.int8)
    boards[np.arange(n), np.arange(n)] = Color.BLACK
    return TriReduction(board).y_probability(boards, int(Color.BLACK)) - 0.5


def first_stone_worth(board: Board, misere: bool) -> np.ndarray:
    """Black's estimated win chance after a first stone on each cell, with White to move.

    A lone stone's gain is set against the tempo White holds, taken as half the gain of the best stone:
    a stone worth more than that is worth more than half to Black and should be swapped.
    """
    gains = stone_gains(board)
    if misere:  # completing a Y loses, so a stone that helps complete one is a liability
        gains = -gains
    return 0.5 + gains - gains.max() / 2.0


def fair_openings(board: Board, misere: bool, margin: float = 0.0) -> np.ndarray:
    """First stones worth at most 0.5 + margin to Black, within OPENING_TOLERANCE of the strongest such stone.

    Under the pie rule these are the best cuts: strong enough not to give the game away, not worth swapping.
    With no fair stone at all (tiny boards) the weakest stones are returned.
    """
    worth = first_stone_worth(board, misere)
    fair = worth <= 0.5 + margin + 1e-12
    if not fair.any():
        return np.flatnonzero(worth <= worth.min() + 1e-12)
    best = worth[fair].max()
    return np.flatnonzero(fair & (worth >= best - OPENING_TOLERANCE))


# --- the bot -------------------------------------------------------------------------------------------


class HeuristicBot(BaseBot):
    """Wins or blocks in one when it can, else plays the move with the best one-ply evaluation."""

    name = "heuristic"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "temperature": BotOption(
            float, 0.0, "softmax temperature over win-probability percentages; 0 plays the best move", 0, 1e6
        ),
        "swap_margin": BotOption(float, 0.0, "swap when the first stone is worth more than 0.5 + this to Black",
                                 -0.5, 0.5, pie_only=True),
        "seconds": QUICK_SECONDS,
    }

    def __init__(self, seed: int | None = None, temperature: float = 0.0, swap_margin: float = 0.0,
                 seconds: float = 0.0) -> None:
        super().__init__(seed)
        self.seconds = seconds
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature!r}")
        self.temperature = temperature
        self.swap_margin = swap_margin
        self._rng = np.random.default_rng(seed)

    def move(self, state: GameState, limit: Limit) -> int:
        """A winning cell, else the single block, else the cell with the best evaluation for the mover."""
        mover = state.to_move
        misere = state.rules.misere
        if state.pie_active and state.num_stones == 0:
            return self._pie_opening(state)
        candidates = np.array(state.empty_cells(), dtype=np.intp)
        own = completing_cells(state, mover)
        if misere:
            safe = np.setdiff1d(candidates, own)
            candidates = safe if len(safe) else candidates
        elif len(own):
            return int(self._rng.choice(own))
        elif state.stones_left_this_turn == 1:
            threats = completing_cells(state, mover.other)
            if len(threats):
                candidates = threats
        if len(candidates) == 1:
            return int(candidates[0])
        candidates = self._shortlist(state, candidates, mover)
        values = self._move_values(state, candidates, mover)
        return int(candidates[self._pick(values)])

    def swap(self, state: GameState, limit: Limit) -> bool:
        """Swap when the first stone, net of White's tempo, is worth more than 0.5 (+ swap_margin) to Black."""
        stone = next(c for c in range(state.board.num_cells) if state.cells[c] != EMPTY)
        worth = first_stone_worth(state.board, state.rules.misere)[stone]
        return bool(worth > 0.5 + self.swap_margin)

    # --- internals ---------------------------------------------------------------------------------------

    def _boards(self, state: GameState) -> np.ndarray:
        return np.array(state.cells, dtype=np.int8)

    def _shortlist(self, state: GameState, candidates: np.ndarray, mover: Color) -> np.ndarray:
        """The candidates lying on or nearest to either colour's shortest Y trees (big boards only)."""
        if len(candidates) <= MAX_EXACT_CANDIDATES:
            return candidates
        board = self._boards(state)[None, :]
        evaluator = evaluator_for(state.board)
        nearness = np.minimum(evaluator.through(board, int(mover))[0], evaluator.through(board, int(mover.other))[0])
        order = np.lexsort((self._rng.random(len(candidates)), nearness[candidates]))
        return np.sort(candidates[order[:MAX_EXACT_CANDIDATES]])

    def _move_values(self, state: GameState, candidates: np.ndarray, mover: Color) -> np.ndarray:
        boards = np.repeat(self._boards(state)[None, :], len(candidates), axis=0)
        boards[np.arange(len(candidates)), candidates] = mover
        y_chance = evaluator_for(state.board).y_probability(boards, int(mover))
        return win_probability(y_chance, state.rules.misere)

    def _pie_opening(self, state: GameState) -> int:
        """One of the strongest first stones still worth at most half: not worth swapping, not giving much away."""
        return int(self._rng.choice(fair_openings(state.board, state.rules.misere, self.swap_margin)))

    def _pick(self, values: np.ndarray) -> int:
        """Index of the best value (random among ties), or a softmax draw when a temperature is set."""
        if self.temperature > 0:
            logits = (values - values.max()) * 100.0 / self.temperature
            weights = np.exp(logits)
            return int(self._rng.choice(len(values), p=weights / weights.sum()))
        best = np.flatnonzero(values >= values.max() - 1e-12)
        return int(self._rng.choice(best))
