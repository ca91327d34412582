"""Batch random playouts with numpy: complete many copies of a position at random at once and report the winners.

Why a random fill is a random playout: in Y the first player to connect is the player holding the Y on the full
board (a Y never goes away and a full board has exactly one), so the winner of random play to the end depends only
on which empty cells each colour ends up with. Uniform random play fills the empty cells in a uniformly random
order, so the cells a colour gets are a uniformly random subset of the exact size alternating play gives it.

How: each playout's fill is drawn as random bits, one bit per empty cell (1 = Black), and kept only when it has
exactly the right number of Black stones (or exactly the right number of White stones, then complemented) --
rejection sampling, so every kept fill is an exactly uniform subset of the right size and kept fills are
independent. The bits are biased towards the right count (probability j / 2**m from m combined random words) when
the split is uneven. Kept fills are transposed into bit planes -- one 64-bit word per cell holding 64 playouts --
and the Y owner of 64 playouts is decided per word: Y-reduction (majority of three) on `tri`, a bit-parallel flood
fill of the groups from the three sides on other boards (`kadon`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ytourney.errors import YTourneyError
from ytourney.game.board import SIDE_A, SIDE_B, SIDE_C, Board, BoardKind, parse_board
from ytourney.game.reduction import reduce_rows, row_ints
from ytourney.game.rules import Color
from ytourney.game.state import EMPTY, GameState

__all__ = [
    "Position",
    "as_position",
    "fill_counts",
    "playout_boards",
    "playout_winners",
    "playout_winners_many",
    "playout_wins",
    "playout_wins_many",
    "y_owner_planes",
    "y_owners",
]

_CELL_VALUES = frozenset((EMPTY, 1, 2))
_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_RAW64_GENERATORS = (np.random.PCG64, np.random.PCG64DXSM, np.random.SFC64, np.random.Philox)
_TRANSPOSE_STEPS = tuple(
    (j, np.uint64(m))
    for j, m in (
        (32, 0x00000000FFFFFFFF),
        (16, 0x0000FFFF0000FFFF),
        (8, 0x00FF00FF00FF00FF),
        (4, 0x0F0F0F0F0F0F0F0F),
        (2, 0x3333333333333333),
        (1, 0x5555555555555555),
    )
)
_GEN_LANES = 1 << 15  # candidate fills drawn per rejection step
_KERNEL_LANES = 1 << 15  # playouts judged per bit-plane batch by Y-reduction
_FLOOD_LANES = 1 << 15  # playouts judged per bit-plane batch by flood fill


# --- positions -----------------------------------------------------------------------------------


def fill_counts(empty: int, to_move: Color | int, stones_left: int = 1) -> tuple[int, int]:
    """(Black, White) stones that alternating play puts on `empty` cells when `to_move` still places
    `stones_left` stones this turn (more than one only during a handicap turn)."""
    if empty < 0 or stones_left < 1:
        raise YTourneyError(f"need empty >= 0 and stones_left >= 1, got empty={empty}, stones_left={stones_left}")
    mover = empty if empty <= stones_left else stones_left + (empty - stones_left) // 2
    other = empty - mover
    return (mover, other) if Color(to_move) is Color.BLACK else (other, mover)


@dataclass(frozen=True)
class Position:
    """A position to complete at random: stones (0 empty, 1 Black, 2 White), the colour to move, the stones it
    still places this turn, and whether the game is misère."""

    board: Board
    cells: tuple[int, ...]
    to_move: Color = Color.BLACK
    stones_left: int = 1
    misere: bool = False

    def __post_init__(self) -> None:
        board = parse_board(self.board) if isinstance(self.board, str) else self.board
        object.__setattr__(self, "board", board)
        cells = tuple(map(int, self.cells))
        if len(cells) != board.num_cells:
            raise YTourneyError(f"expected {board.num_cells} cells for {board.spec!r}, got {len(cells)}")
        if not _CELL_VALUES.issuperset(cells):
            raise YTourneyError("cells must be 0 (empty), 1 (black) or 2 (white)")
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "to_move", Color(self.to_move))
        if not isinstance(self.stones_left, int) or self.stones_left < 1:
            raise YTourneyError(f"stones_left must be a whole number >= 1, got {self.stones_left!r}")

    @classmethod
    def from_state(cls, state: GameState) -> Position:
        """The position of a game state (its stones, side to move, handicap stones left, misère flag)."""
        return cls(
            state.board,
            tuple(state.cells),
            state.to_move,
            state.stones_left_this_turn,
            state.rules.misere,
        )

    @property
    def empty_cells(self) -> tuple[int, ...]:
        """Empty cells in index order."""
        return tuple(i for i, c in enumerate(self.cells) if c == EMPTY)

    def fill_counts(self) -> tuple[int, int]:
        """(Black, White) stones a completion of this position places."""
        return fill_counts(self.cells.count(EMPTY), self.to_move, self.stones_left)


def as_position(position: GameState | Position) -> Position:
    """A Position from a GameState or a Position."""
    if isinstance(position, Position):
        return position
    if isinstance(position, GameState):
        return Position.from_state(position)
    raise YTourneyError(f"expected a GameState or a Position, got {type(position).__name__}")


# --- public API ----------------------------------------------------------------------------------


def playout_wins(position: GameState | Position, n: int, rng: np.random.Generator) -> tuple[int, int]:
    """(Black wins, White wins) over `n` uniform random playouts from `position` (misère applied)."""
    batch = _Batch([as_position(position)], n, rng, keep="counts")
    batch.run()
    black = int(batch.black_wins[0])
    return black, batch.n - black


def playout_winners(position: GameState | Position, n: int, rng: np.random.Generator) -> np.ndarray:
    """Winner of each of `n` uniform random playouts from `position`: uint8 array of 1 (Black) / 2 (White)."""
    batch = _Batch([as_position(position)], n, rng, keep="winners")
    batch.run()
    assert batch.winners is not None
    return batch.winners[0]


def playout_boards(
    position: GameState | Position, n: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """`n` random playouts with their full boards: (winners (n,) uint8 1/2, colours (n, cells) uint8 1/2).

    colours[i, c] is the colour holding cell c at the end of playout i (for AMAF/RAVE statistics); the stones of
    the position itself are included.
    """
    batch = _Batch([as_position(position)], n, rng, keep="boards")
    batch.run()
    assert batch.winners is not None and batch.colors is not None
    return batch.winners[0], batch.colors[0]


def playout_wins_many(
    positions: Sequence[GameState | Position], n: int, rng: np.random.Generator
) -> np.ndarray:
    """Wins over `n` random playouts from each of several positions on one board, judged in one batch (cheaper
    than one call per position when n is small, e.g. for many MCTS leaves): int64 array (positions, 2) of
    (Black wins, White wins)."""
    batch = _Batch([as_position(p) for p in positions], n, rng, keep="counts")
    batch.run()
    return np.stack([batch.black_wins, batch.n - batch.black_wins], axis=1)


def playout_winners_many(
    positions: Sequence[GameState | Position], n: int, rng: np.random.Generator
) -> np.ndarray:
    """Winner of each of `n` random playouts from each position: uint8 array (positions, n) of 1/2."""
    batch = _Batch([as_position(p) for p in positions], n, rng, keep="winners")
    batch.run()
    assert batch.winners is not None
    return batch.winners


def y_owner_planes(board: Board | str, planes: np.ndarray) -> np.ndarray:
    """Y owner of many full boards in bit-plane form: planes (cells, W) uint64, bit set = Black -> (W,) plane,
    bit set where Black holds the Y. Y-reduction on `tri`, flood fill elsewhere."""
    if isinstance(board, str):
        board = parse_board(board)
    planes = np.asarray(planes)
    if planes.ndim != 2 or planes.shape[0] != board.num_cells:
        raise YTourneyError(f"planes must have shape ({board.num_cells}, words), got {planes.shape}")
    words = planes.shape[1]
    step = 8 * words
    data = np.ascontiguousarray(planes, dtype="<u8").tobytes()
    if board.kind is BoardKind.TRI:
        top = reduce_rows(board.size, row_ints(board.size, data, step), 64 * words)
    else:
        black = [int.from_bytes(data[i * step : (i + 1) * step], "little") for i in range(board.num_cells)]
        top = _flood_y(board, black, 64 * words)
    return np.frombuffer(top.to_bytes(step, "little"), dtype="<u8").astype(np.uint64)


def y_owners(board: Board | str, boards: np.ndarray) -> np.ndarray:
    """Y owner (uint8 1 Black / 2 White) of each full board in `boards`, shape (n, cells) of 1/2, any board."""
    if isinstance(board, str):
        board = parse_board(board)
    boards = np.asarray(boards)
    if boards.ndim != 2 or boards.shape[1] != board.num_cells:
        raise YTourneyError(f"boards must have shape (n, {board.num_cells}), got {boards.shape}")
    n = boards.shape[0]
    packed = np.packbits((boards == 1).T, axis=1, bitorder="little")
    pad = (-packed.shape[1]) % 8
    if pad or packed.shape[1] == 0:
        packed = np.pad(packed, ((0, 0), (0, pad or 8)))
    top = y_owner_planes(board, np.ascontiguousarray(packed).view("<u8"))
    black = np.unpackbits(top.view(np.uint8), bitorder="little")[:n]
    return (2 - black).astype(np.uint8)


# --- the engine ----------------------------------------------------------------------------------


def _random_words(rng: np.random.Generator, count: int) -> np.ndarray:
    """`count` uniform 64-bit words."""
    bitgen = rng.bit_generator
    if isinstance(bitgen, _RAW64_GENERATORS):
        return bitgen.random_raw(count)
    return rng.integers(0, 0xFFFFFFFFFFFFFFFF, size=count, dtype=np.uint64, endpoint=True)


def _bernoulli_words(rng: np.random.Generator, count: int, numerator: int, bits: int) -> np.ndarray:
    """`count` words whose bits are independently 1 with probability numerator / 2**bits."""
    if numerator == 0:
        return np.zeros(count, dtype=np.uint64)
    if numerator == 1 << bits:
        return np.full(count, _ONES, dtype=np.uint64)
    # P(x) = (b_i + P(x_next)) / 2 from the lowest set bit of the numerator up to the highest.
    low = (numerator & -numerator).bit_length() - 1
    out = _random_words(rng, count)
    for i in range(low + 1, bits):
        r = _random_words(rng, count)
        if (numerator >> i) & 1:
            np.bitwise_or(out, r, out=out)
        else:
            np.bitwise_and(out, r, out=out)
    return out


def _binomial_pmf(n: int, k: int, p: float) -> float:
    if k < 0 or k > n:
        return 0.0
    if p <= 0.0:
        return 1.0 if k == 0 else 0.0
    if p >= 1.0:
        return 1.0 if k == n else 0.0
    log = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p)
    return math.exp(log + (n - k) * math.log1p(-p))


@functools.lru_cache(maxsize=4096)
def _bias(empty: int, black: int) -> tuple[int, int, float]:
    """(numerator, bits, acceptance) of the bit bias that makes exact-count fills cheapest to draw."""
    if black == 0:
        return 0, 0, 1.0
    if black == empty:
        return 1, 0, 1.0
    best: tuple[float, int, int, float] | None = None
    for bits in range(1, 7):
        for numerator in range(1, 1 << bits, 2):
            p = numerator / (1 << bits)
            accept = _binomial_pmf(empty, black, p)
            if empty - black != black:
                accept += _binomial_pmf(empty, empty - black, p)
            cost = (bits + 3) / accept
            if best is None or cost < best[0]:
                best = (cost, numerator, bits, accept)
    assert best is not None
    return best[1], best[2], best[3]


@functools.cache
def _flood_tables(board: Board) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Neighbour lists and a sweep order (breadth-first from side A) for the bit-parallel flood fill."""
    order: list[int] = [c for c in range(board.num_cells) if board.sides[c] & SIDE_A]
    seen = set(order)
    for cell in order:
        for nb in board.neighbors[cell]:
            if nb not in seen:
                seen.add(nb)
                order.append(nb)
    order += [c for c in range(board.num_cells) if c not in seen]
    return board.neighbors, tuple(order)


def _flood_y(board: Board, black: list[int], width: int) -> int:
    """Bit-parallel Y test on any board, lanes packed in Python ints of `width` bits per cell (bit set = Black):
    grow the Black stones reached from each side (three lane masks side by side in one int) sweep after sweep
    until nothing changes; a cell reached from all three sides lies in a Black group touching the three sides."""
    neighbors, order = _flood_tables(board)
    stones = [b | (b << width) | (b << (2 * width)) for b in black]
    reach = [
        (b if m & SIDE_A else 0) | ((b << width) if m & SIDE_B else 0) | ((b << (2 * width)) if m & SIDE_C else 0)
        for b, m in zip(black, board.sides)
    ]
    sweep = list(order)
    changed = True
    while changed:
        changed = False
        for cell in sweep:
            acc = 0
            for nb in neighbors[cell]:
                acc |= reach[nb]
            new = reach[cell] | (acc & stones[cell])
            if new != reach[cell]:
                reach[cell] = new
                changed = True
        sweep.reverse()
    owner = 0
    for r in reach:
        owner |= r & (r >> width) & (r >> (2 * width))
    return owner & ((1 << width) - 1)


def _chunks(members: list[tuple[int, int]], limit: int) -> list[list[tuple[int, int]]]:
    """Split (piece, lanes) requests into groups of at most `limit` lanes, splitting large requests."""
    chunks: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    room = limit
    for piece, lanes in members:
        while lanes > 0:
            take = min(lanes, room)
            current.append((piece, take))
            lanes -= take
            room -= take
            if room == 0:
                chunks.append(current)
                current, room = [], limit
    if current:
        chunks.append(current)
    return chunks


def _transpose_lanes(fills: np.ndarray, cells: int) -> np.ndarray:
    """Lane-major fills (lanes, L) uint64, lanes a multiple of 64 -> bit planes (cells, lanes // 64)."""
    lanes, nwords = fills.shape
    if lanes <= 256:  # few lanes: unpack to bytes and pack the other way
        bits = np.unpackbits(np.ascontiguousarray(fills, dtype="<u8").view(np.uint8), axis=1, bitorder="little")
        packed = np.packbits(bits[:, :cells].T, axis=1, bitorder="little")
        return np.ascontiguousarray(packed).view("<u8").astype(np.uint64)
    blocks = lanes // 64
    # a copy always (the butterflies below work in place and must not touch the caller's fills)
    x = np.array(fills.reshape(blocks, 64, nwords).transpose(1, 2, 0), order="C", copy=True).reshape(64, nwords * blocks)
    k = x.shape[1]
    t = np.empty((32, k), dtype=np.uint64)
    u = np.empty((32, k), dtype=np.uint64)
    for j, mask in _TRANSPOSE_STEPS:
        v = x.reshape(64 // (2 * j), 2, j, k)
        a = v[:, 0]
        b = v[:, 1]
        tt = t.reshape(64 // (2 * j), j, k)
        uu = u.reshape(64 // (2 * j), j, k)
        np.right_shift(a, np.uint64(j), out=tt)
        tt ^= b
        tt &= mask
        b ^= tt
        np.left_shift(tt, np.uint64(j), out=uu)
        a ^= uu
    planes = x.reshape(64, nwords, blocks).transpose(1, 0, 2).reshape(64 * nwords, blocks)
    return np.ascontiguousarray(planes[:cells])


class _Batch:
    """Random completions of several positions on one board, drawn and judged together."""

    def __init__(self, positions: Sequence[Position], n: int, rng: np.random.Generator, keep: str) -> None:
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 0:
            raise YTourneyError(f"number of playouts must be a whole number >= 0, got {n!r}")
        if not isinstance(rng, np.random.Generator):
            raise YTourneyError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        if not positions:
            raise YTourneyError("need at least one position")
        board = positions[0].board
        if any(p.board != board for p in positions):
            raise YTourneyError("all positions of one batch must be on the same board")
        self.board = board
        self.n = int(n)
        self.rng = rng
        self.keep = keep
        cells = np.array([p.cells for p in positions], dtype=np.uint8).reshape(len(positions), board.num_cells)
        self.cells = cells
        self.nwords = -(-board.num_cells // 64)
        # Fills are lane-major rows of nwords words holding the whole board (bit c = cell c is Black).
        self.empty_mask = self._pack(cells == EMPTY)
        self.black_mask = self._pack(cells == 1)
        self.num_empty = (cells == EMPTY).sum(axis=1)
        self.to_place = np.array([p.fill_counts()[0] for p in positions], dtype=np.int64)
        self.misere = np.array([p.misere for p in positions], dtype=bool)
        self.bias = [_bias(int(e), int(k)) for e, k in zip(self.num_empty, self.to_place)]
        self.black_wins = np.zeros(len(positions), dtype=np.int64)
        self.winners = np.zeros((len(positions), self.n), dtype=np.uint8) if keep != "counts" else None
        self.colors = (
            np.zeros((len(positions), self.n, board.num_cells), dtype=np.uint8) if keep == "boards" else None
        )

    def _pack(self, bits: np.ndarray) -> np.ndarray:
        """(rows, cells) bool -> (rows, nwords) uint64 with bit c of the row = cell c."""
        packed = np.packbits(bits, axis=1, bitorder="little")
        packed = np.pad(packed, ((0, 0), (0, 8 * self.nwords - packed.shape[1])))
        return np.ascontiguousarray(packed).view("<u8").astype(np.uint64)

    def run(self) -> None:
        """Play every playout, in batches of at most one kernel's worth of lanes."""
        limit = _KERNEL_LANES if self.board.kind is BoardKind.TRI else _FLOOD_LANES
        pieces: list[tuple[int, int, int]] = []  # (position, first playout, count)
        for pos in range(len(self.cells)):
            for first in range(0, self.n, limit):
                pieces.append((pos, first, min(limit, self.n - first)))
        batch: list[tuple[int, int, int]] = []
        lanes = 0
        for piece in pieces:
            if batch and lanes + piece[2] > limit:
                self._play(batch)
                batch, lanes = [], 0
            batch.append(piece)
            lanes += piece[2]
        if batch:
            self._play(batch)

    def _play(self, pieces: list[tuple[int, int, int]]) -> None:
        fills, owner = self._draw(pieces)
        black = self._judge(fills)
        black ^= self.misere[owner]
        self.black_wins += np.bincount(owner, weights=black, minlength=len(self.cells)).astype(np.int64)
        if self.keep == "counts":
            return
        assert self.winners is not None
        start = 0
        for pos, first, count in pieces:
            self.winners[pos, first : first + count] = 2 - black[start : start + count]
            if self.colors is not None:
                self.colors[pos, first : first + count] = self._colors(fills[start : start + count])
            start += count

    def _draw(self, pieces: list[tuple[int, int, int]]) -> tuple[np.ndarray, np.ndarray]:
        """Exactly `count` accepted fills per piece, in piece order: (fills (lanes, nwords), position per lane)."""
        piece_pos = np.array([pos for pos, _, _ in pieces], dtype=np.intp)
        if len(pieces) == 1:
            # one position: keep drawing until there are enough, then take the first `count`
            pos, _, count = pieces[0]
            numerator, bits, accept = self.bias[pos]
            parts: list[np.ndarray] = []
            got = 0
            while got < count:
                lanes = min(_GEN_LANES, int((count - got) / accept * 1.15) + 64)
                rows, _ = self._candidates([(0, lanes)], piece_pos, numerator, bits)
                parts.append(rows)
                got += len(rows)
            rows = np.concatenate(parts) if len(parts) > 1 else parts[0]
            return rows[:count] | self.black_mask[pos], np.full(count, pos, dtype=np.intp)
        need = np.array([count for _, _, count in pieces], dtype=np.int64)
        have = np.zeros(len(pieces), dtype=np.int64)
        kept: list[np.ndarray] = []
        kept_piece: list[np.ndarray] = []
        while (have < need).any():
            groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
            for i in np.flatnonzero(have < need):
                numerator, bits, accept = self.bias[piece_pos[i]]
                lanes = int((need[i] - have[i]) / accept * 1.15) + 64
                groups.setdefault((numerator, bits), []).append((int(i), lanes))
            for (numerator, bits), members in groups.items():
                for chunk in _chunks(members, _GEN_LANES):
                    rows, piece_of_row = self._candidates(chunk, piece_pos, numerator, bits)
                    kept.append(rows)
                    kept_piece.append(piece_of_row)
                    have += np.bincount(piece_of_row, minlength=len(pieces))
        rows = np.concatenate(kept) if len(kept) > 1 else kept[0]
        piece_of_row = np.concatenate(kept_piece) if len(kept_piece) > 1 else kept_piece[0]
        order = np.argsort(piece_of_row, kind="stable")
        piece_of_row = piece_of_row[order]
        starts = np.concatenate(([0], np.cumsum(np.bincount(piece_of_row, minlength=len(pieces)))[:-1]))
        rank = np.arange(len(piece_of_row)) - starts[piece_of_row]
        chosen = order[rank < need[piece_of_row]]
        owner = piece_pos[piece_of_row[rank < need[piece_of_row]]]
        fills = rows[chosen] | self.black_mask[owner]
        return fills, owner

    def _candidates(
        self, chunk: list[tuple[int, int]], piece_pos: np.ndarray, numerator: int, bits: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Draw `lanes` candidate fills for every (piece, lanes) of `chunk`, keep those with the exact count:
        (rows kept, piece of each row)."""
        lanes = sum(count for _, count in chunk)
        rows = _bernoulli_words(self.rng, lanes * self.nwords, numerator, bits).reshape(lanes, self.nwords)
        if len(chunk) == 1:
            piece = chunk[0][0]
            pos = piece_pos[piece]
            empty, want, other = self.empty_mask[pos], self.to_place[pos], self.num_empty[pos] - self.to_place[pos]
        else:
            ids = np.repeat(np.array([i for i, _ in chunk], dtype=np.intp), [count for _, count in chunk])
            pos = piece_pos[ids]
            empty, want, other = self.empty_mask[pos], self.to_place[pos], self.num_empty[pos] - self.to_place[pos]
        rows &= empty
        ones = np.bitwise_count(rows)  # uint8 per word
        total = ones[:, 0].astype(np.int16)
        for j in range(1, self.nwords):
            total += ones[:, j]
        keep = total == want
        flip = (total == other) & (other != want)
        if flip.any():
            rows[flip] ^= empty if len(chunk) == 1 else empty[flip]
            keep |= flip
        if len(chunk) == 1:
            return rows[keep], np.full(int(keep.sum()), chunk[0][0], dtype=np.intp)
        return rows[keep], ids[keep]

    def _judge(self, fills: np.ndarray) -> np.ndarray:
        """Black-holds-the-Y per lane (uint8 0/1) for full-board lane-major fills."""
        lanes = fills.shape[0]
        padded = -(-lanes // 64) * 64
        if padded != lanes:
            fills = np.concatenate([fills, np.zeros((padded - lanes, self.nwords), dtype=np.uint64)])
        planes = _transpose_lanes(fills, self.board.num_cells)
        top = y_owner_planes(self.board, planes)
        return np.unpackbits(top.view(np.uint8), bitorder="little")[:lanes]

    def _colors(self, fills: np.ndarray) -> np.ndarray:
        """Full boards (lanes, cells) of 1 (Black) / 2 (White) from lane-major fills."""
        bits = np.unpackbits(fills.astype("<u8").view(np.uint8), axis=1, bitorder="little")
        return 2 - bits[:, : self.board.num_cells]
