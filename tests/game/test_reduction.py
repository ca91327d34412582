"""Y-reduction against union-find (GameState) and a plain breadth-first search, on many random full boards."""

from __future__ import annotations

import random

import numpy as np
import pytest
from bfs_referee import bfs_owner
from hypothesis import given, settings
from hypothesis import strategies as st

from ytourney.errors import YTourneyError
from ytourney.game.board import parse_board
from ytourney.game.playouts import y_owners
from ytourney.game.reduction import reduce_planes, reduce_winner, reduce_winners
from ytourney.game.rules import Color, Rules
from ytourney.game.state import GameState

TRI_SIZES = range(2, 27)


def test_random_games_union_find_bfs_and_reduction_agree() -> None:
    rng = random.Random(11)
    for size in TRI_SIZES:
        board = parse_board(f"tri:{size}")
        boards = []
        for game in range(40 if size <= 14 else 12):
            handicap = rng.choice((0, 0, 2, 3)) if size >= 4 else 0
            # play a random game to its end with union-find, then compare referees on the completed board
            order = list(range(board.num_cells))
            rng.shuffle(order)
            state = GameState(board, Rules(pie=False), handicap=handicap)
            cells = [0] * board.num_cells
            for cell in order:
                if not state.is_over:
                    cells[cell] = int(state.to_move)
                    state.play(cell)
                else:
                    cells[cell] = 0
            # complete the rest at random: the Y owner of the full board is the first to connect anyway
            rest = [c for c in range(board.num_cells) if cells[c] == 0]
            for cell in rest:
                cells[cell] = rng.choice((1, 2))
            first = int(state.winner)
            assert bfs_owner(board, cells) == first
            assert int(reduce_winner(board, cells)) == first
            boards.append(cells)
        owners = reduce_winners(board, np.array(boards, dtype=np.uint8))
        assert owners.tolist() == [bfs_owner(board, c) for c in boards]


@pytest.mark.parametrize("size", TRI_SIZES)
def test_vectorised_reduction_agrees_with_bfs_on_thousands_of_boards(size: int) -> None:
    board = parse_board(f"tri:{size}")
    gen = np.random.default_rng(size)
    boards = gen.integers(1, 3, size=(3000, board.num_cells), dtype=np.uint8)
    reduced = reduce_winners(board, boards)
    assert reduced.shape == (3000,) and set(np.unique(reduced)) <= {1, 2}
    # the flood-fill referee (used on kadon) must agree with reduction everywhere
    assert (y_owners(board, boards) == reduced).all()
    sample = 300 if size <= 12 else 60
    for i in range(sample):
        cells = boards[i].tolist()
        assert reduced[i] == bfs_owner(board, cells) == int(reduce_winner(board, cells))


def test_kadon_flood_fill_agrees_with_bfs_and_union_find() -> None:
    board = parse_board("kadon")
    gen = np.random.default_rng(93)
    boards = gen.integers(1, 3, size=(2000, board.num_cells), dtype=np.uint8)
    owners = y_owners(board, boards)
    for i in range(400):
        assert owners[i] == bfs_owner(board, boards[i].tolist())
    rng = random.Random(93)
    for _ in range(200):
        order = list(range(board.num_cells))
        rng.shuffle(order)
        state = GameState(board, Rules(pie=False))
        cells = [0] * board.num_cells
        for i, cell in enumerate(order):
            cells[cell] = 1 + i % 2
            if not state.is_over:
                state.play(cell)
        assert state.winner is not None
        assert bfs_owner(board, cells) == int(state.winner) == y_owners(board, np.array([cells]))[0]


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 9).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.booleans(), min_size=n * (n + 1) // 2, max_size=n * (n + 1) // 2))))
def test_reduction_matches_bfs_for_any_colouring(case: tuple[int, list[bool]]) -> None:
    size, black = case
    board = parse_board(f"tri:{size}")
    cells = [1 if b else 2 for b in black]
    assert int(reduce_winner(board, cells)) == bfs_owner(board, cells)


def test_reduce_planes_handles_every_word_width() -> None:
    board = parse_board("tri:7")
    gen = np.random.default_rng(3)
    boards = gen.integers(1, 3, size=(64, board.num_cells), dtype=np.uint8)
    expected = np.array([bfs_owner(board, b.tolist()) for b in boards])
    for dtype, bits in ((np.uint8, 8), (np.uint16, 16), (np.uint32, 32), (np.uint64, 64)):
        packed = np.packbits((boards == 1).T, axis=1, bitorder="little")
        planes = np.ascontiguousarray(packed).view(f"<u{bits // 8}").astype(dtype)
        top = reduce_planes(board, planes)
        black = np.unpackbits(top.astype(f"<u{bits // 8}").view(np.uint8), bitorder="little")[:64]
        assert ((2 - black) == expected).all()


def test_small_boards_by_hand() -> None:
    board = parse_board("tri:2")  # a1 b1 a2: any two cells connect all three sides
    assert reduce_winner(board, [1, 1, 2]) is Color.BLACK
    assert reduce_winner(board, [2, 1, 2]) is Color.WHITE
    board = parse_board("tri:3")  # the a-column a1 a2 a3 is a Y
    cells = [2] * 6
    for name in ("a1", "a2", "a3"):
        cells[board.index_of(name)] = 1
    assert reduce_winner(board, cells) is Color.BLACK


def test_errors() -> None:
    with pytest.raises(YTourneyError, match="tri"):
        reduce_winner("kadon", [1] * 93)
    with pytest.raises(YTourneyError, match="full board"):
        reduce_winner("tri:3", [1, 2, 0, 1, 2, 1])
    with pytest.raises(YTourneyError, match="expected 6 cells"):
        reduce_winner("tri:3", [1, 2])
    with pytest.raises(YTourneyError):
        reduce_winners("tri:3", np.array([[1, 2, 0, 1, 2, 1]]))
    with pytest.raises(YTourneyError):
        reduce_planes("tri:3", np.zeros((5, 2), dtype=np.uint64))
    assert reduce_winners("tri:3", np.zeros((0, 6), dtype=np.uint8)).shape == (0,)
