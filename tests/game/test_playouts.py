"""Batch random playouts: exact stone counts, winners that every referee agrees with, misère, seeds, and the same
statistics as plain move-by-move random games."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from bfs_referee import bfs_owner
from hypothesis import given, settings
from hypothesis import strategies as st

from ytourney.errors import YTourneyError
from ytourney.game.board import parse_board
from ytourney.game.playouts import (
    Position,
    as_position,
    fill_counts,
    playout_boards,
    playout_winners,
    playout_winners_many,
    playout_wins,
    playout_wins_many,
    y_owners,
)
from ytourney.game.reduction import reduce_winners
from ytourney.game.rules import Color, Rules
from ytourney.game.state import GameState


def random_position(spec: str, stones: int, handicap: int, seed: int) -> GameState:
    """A game with `stones` random stones played (stopping early if someone connects)."""
    rng = random.Random(seed)
    state = GameState(spec, Rules(pie=False), handicap=handicap)
    order = list(range(state.board.num_cells))
    rng.shuffle(order)
    for cell in order[:stones]:
        if state.is_over:
            break
        state.play(cell)
    return state


def test_fill_counts() -> None:
    assert fill_counts(66, Color.BLACK) == (33, 33)
    assert fill_counts(15, Color.BLACK) == (8, 7)
    assert fill_counts(15, Color.WHITE) == (7, 8)
    assert fill_counts(10, Color.BLACK, stones_left=4) == (4 + 3, 3)  # 4 stones, then W B W B W B
    assert fill_counts(3, Color.WHITE, stones_left=5) == (0, 3)
    assert fill_counts(0, Color.BLACK) == (0, 0)
    with pytest.raises(YTourneyError):
        fill_counts(5, Color.BLACK, stones_left=0)


def simulate_fill_counts(empty: int, to_move: Color, stones_left: int) -> tuple[int, int]:
    counts = {Color.BLACK: 0, Color.WHITE: 0}
    color, left = to_move, stones_left
    for _ in range(empty):
        counts[color] += 1
        left -= 1
        if left == 0:
            color, left = color.other, 1
    return counts[Color.BLACK], counts[Color.WHITE]


@given(st.integers(0, 400), st.sampled_from(list(Color)), st.integers(1, 30))
def test_fill_counts_match_alternating_play(empty: int, to_move: Color, stones_left: int) -> None:
    assert fill_counts(empty, to_move, stones_left) == simulate_fill_counts(empty, to_move, stones_left)


@pytest.mark.parametrize(
    "spec,stones,handicap",
    [("tri:2", 0, 0), ("tri:5", 0, 0), ("tri:11", 0, 0), ("tri:11", 17, 0), ("tri:11", 2, 5), ("tri:26", 40, 0),
     ("tri:9", 0, 6), ("kadon", 0, 0), ("kadon", 31, 0), ("kadon", 3, 7), ("tri:10", 49, 0)],
)
def test_boards_have_exact_counts_and_agreed_winners(spec: str, stones: int, handicap: int) -> None:
    state = random_position(spec, stones, handicap, seed=stones + handicap)
    board = state.board
    position = Position.from_state(state)
    black_fill, _ = position.fill_counts()
    winners, colors = playout_boards(state, 700, np.random.default_rng(5))
    assert winners.shape == (700,) and colors.shape == (700, board.num_cells)
    assert winners.dtype == np.uint8 and colors.dtype == np.uint8
    before = np.array(state.cells)
    placed = before != 0
    assert (colors[:, placed] == before[placed]).all()
    black_now = int((before == 1).sum())
    assert ((colors == 1).sum(axis=1) == black_now + black_fill).all()
    assert ((colors == 2).sum(axis=1) == board.num_cells - black_now - black_fill).all()
    assert set(np.unique(colors)) <= {1, 2}
    assert (y_owners(board, colors) == winners).all()
    if board.spec.startswith("tri"):
        assert (reduce_winners(board, colors) == winners).all()
    for i in range(60):
        assert winners[i] == bfs_owner(board, colors[i].tolist())
    if state.is_over:
        assert (winners == int(state.winner)).all()


def test_winners_and_counts_agree_and_are_reproducible() -> None:
    state = random_position("tri:11", 12, 0, seed=1)
    a = playout_winners(state, 5000, np.random.default_rng(42))
    b = playout_winners(state, 5000, np.random.default_rng(42))
    c = playout_winners(state, 5000, np.random.default_rng(43))
    assert (a == b).all() and not (a == c).all()
    w1, b1 = playout_boards(state, 5000, np.random.default_rng(42))
    w2, b2 = playout_boards(state, 5000, np.random.default_rng(42))
    assert (w1 == w2).all() and (b1 == b2).all()
    black, white = playout_wins(state, 5000, np.random.default_rng(42))
    assert black + white == 5000
    assert playout_wins(state, 5000, np.random.default_rng(42)) == (black, white)
    assert playout_wins(state, 0, np.random.default_rng(1)) == (0, 0)
    assert playout_winners(state, 0, np.random.default_rng(1)).shape == (0,)


def test_misere_inverts_the_winner() -> None:
    for spec in ("tri:8", "kadon"):
        state = random_position(spec, 9, 0, seed=3)
        normal = Position.from_state(state)
        misere = Position(normal.board, normal.cells, normal.to_move, normal.stones_left, misere=True)
        w_normal, b_normal = playout_boards(normal, 3000, np.random.default_rng(9))
        w_misere, b_misere = playout_boards(misere, 3000, np.random.default_rng(9))
        assert (b_normal == b_misere).all()
        assert (w_misere == 3 - w_normal).all()
        black, white = playout_wins(misere, 3000, np.random.default_rng(9))
        assert black == int((w_misere == 1).sum()) and white == int((w_misere == 2).sum())
    game = GameState("tri:6", Rules(misere=True))
    assert as_position(game).misere


def exact_black_win_rate(spec: str, stones: int) -> float:
    """Probability that Black holds the Y when `stones` of the empty cells are Black, uniformly at random."""
    board = parse_board(spec)
    wins = total = 0
    for black in itertools.combinations(range(board.num_cells), stones):
        cells = [2] * board.num_cells
        for cell in black:
            cells[cell] = 1
        wins += bfs_owner(board, cells) == 1
        total += 1
    return wins / total


def test_fills_are_uniform_subsets_of_the_exact_size() -> None:
    # tri:3 from empty: Black gets 3 of 6 cells, each of the C(6, 3) = 20 subsets equally likely
    winners, colors = playout_boards(GameState("tri:3"), 40000, np.random.default_rng(7))
    chi2 = chi_square_uniform(colors)
    assert chi2 < 60, chi2  # 19 degrees of freedom: p ~ 1e-6
    exact = exact_black_win_rate("tri:3", 3)
    assert abs((winners == 1).mean() - exact) < 5 * math.sqrt(exact * (1 - exact) / 40000)
    # a handicap turn with an uneven split (Black 5 of 6) draws biased bits: still uniform
    state = GameState("tri:3", Rules(pie=False), handicap=4)
    winners, colors = playout_boards(state, 30000, np.random.default_rng(8))
    assert ((colors == 1).sum(axis=1) == 5).all()
    assert chi_square_uniform(colors) < 40  # 5 degrees of freedom
    # more than 64 empty cells (several words per fill): every cell Black with probability k / E
    winners, colors = playout_boards(GameState("tri:13"), 20000, np.random.default_rng(9))
    rate = (colors == 1).mean(axis=0)
    assert np.abs(rate - 46 / 91).max() < 5 * math.sqrt(0.25 / 20000)


def chi_square_uniform(colors: np.ndarray) -> float:
    keys = np.packbits(colors == 1, axis=1, bitorder="little")
    _, counts = np.unique(keys, axis=0, return_counts=True)
    from math import comb

    cells, black = colors.shape[1], int((colors[0] == 1).sum())
    categories = comb(cells, black)
    assert len(counts) == categories
    expected = len(colors) / categories
    return float(((counts - expected) ** 2 / expected).sum())


def plain_random_games(spec: str, games: int, seed: int, handicap: int = 0) -> float:
    """Black's win rate over move-by-move random games through GameState."""
    rng = random.Random(seed)
    black = 0
    for _ in range(games):
        state = GameState(spec, Rules(pie=False), handicap=handicap)
        order = list(range(state.board.num_cells))
        rng.shuffle(order)
        for cell in order:
            state.play(cell)
            if state.is_over:
                break
        black += state.winner is Color.BLACK
    return black / games


@pytest.mark.parametrize("spec,games,handicap", [("tri:5", 30000, 0), ("kadon", 5000, 0), ("tri:7", 20000, 3)])
def test_win_rate_matches_plain_random_games(spec: str, games: int, handicap: int) -> None:
    plain = plain_random_games(spec, games, seed=17, handicap=handicap)
    n = 200000
    state = GameState(spec, Rules(pie=False), handicap=handicap)
    black, _ = playout_wins(state, n, np.random.default_rng(17))
    batch = black / n
    sd = math.sqrt(batch * (1 - batch) * (1 / games + 1 / n))
    assert abs(batch - plain) < 4.5 * sd, (batch, plain, sd)


def test_tri5_win_rate_is_the_exact_enumeration() -> None:
    exact = exact_black_win_rate("tri:5", 8)
    n = 400000
    black, _ = playout_wins(GameState("tri:5"), n, np.random.default_rng(2))
    assert abs(black / n - exact) < 5 * math.sqrt(exact * (1 - exact) / n)


def test_mid_game_handicap_turn() -> None:
    state = GameState("tri:9", Rules(pie=False), handicap=4)
    state.play(10)
    assert state.stones_left_this_turn == 3
    position = as_position(state)
    assert position.fill_counts() == fill_counts(44, Color.BLACK, 3) == (3 + 20, 21)
    winners, colors = playout_boards(state, 2000, np.random.default_rng(1))
    assert ((colors == 1).sum(axis=1) == 1 + 23).all()
    assert (y_owners(state.board, colors) == winners).all()


def test_finished_and_full_positions() -> None:
    board = parse_board("tri:4")
    state = GameState(board, Rules(pie=False))
    for name in ("a1", "d1", "a2", "c1", "a3", "b1", "a4"):  # Black a1-a4 is a Y on the fourth black stone
        state.play(board.index_of(name))
    assert state.winner is Color.BLACK
    assert (playout_winners(state, 100, np.random.default_rng(0)) == 1).all()
    full = Position(board, tuple([1] * 5 + [2] * 5), Color.BLACK)
    owner = int(y_owners(board, np.array([full.cells]))[0])
    winners, colors = playout_boards(full, 10, np.random.default_rng(0))
    assert (winners == owner).all() and (colors == np.array(full.cells)).all()
    assert playout_wins(full, 10, np.random.default_rng(0)) == ((10, 0) if owner == 1 else (0, 10))


def test_bad_inputs() -> None:
    state = GameState("tri:5")
    with pytest.raises(YTourneyError):
        playout_wins(state, -1, np.random.default_rng(0))
    with pytest.raises(YTourneyError):
        playout_wins(state, 10, random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(YTourneyError):
        playout_wins("tri:5", 10, np.random.default_rng(0))  # type: ignore[arg-type]
    with pytest.raises(YTourneyError):
        Position(parse_board("tri:3"), (0, 0, 0))
    with pytest.raises(YTourneyError):
        Position(parse_board("tri:2"), (0, 3, 0))
    with pytest.raises(YTourneyError):
        Position(parse_board("tri:2"), (0, 0, 0), stones_left=0)


def test_other_bit_generators_work() -> None:
    state = GameState("tri:6")
    for bitgen in (np.random.MT19937(1), np.random.SFC64(1), np.random.Philox(1)):
        winners, colors = playout_boards(state, 500, np.random.Generator(bitgen))
        assert ((colors == 1).sum(axis=1) == 11).all()
        assert (y_owners(state.board, colors) == winners).all()


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["tri:4", "tri:7", "tri:12", "kadon"]), st.integers(0, 60), st.integers(0, 5), st.integers(0, 2**32))
def test_any_position_completes_consistently(spec: str, stones: int, handicap: int, seed: int) -> None:
    state = random_position(spec, stones, handicap if handicap != 1 else 0, seed)
    winners, colors = playout_boards(state, 130, np.random.default_rng(seed))
    black_fill = as_position(state).fill_counts()[0]
    assert ((colors == 1).sum(axis=1) == sum(c == 1 for c in state.cells) + black_fill).all()
    assert (y_owners(state.board, colors) == winners).all()
    if state.is_over:
        assert (winners == int(state.winner)).all()


def test_many_positions_in_one_batch() -> None:
    board = parse_board("tri:6")
    won = GameState(board, Rules(pie=False))
    for name in ("a1", "f1", "a2", "e1", "a3", "d1", "a4", "c1", "a5", "b2", "a6"):
        won.play(board.index_of(name))
    assert won.winner is Color.BLACK
    misere_won = Position.from_state(won)
    misere_won = Position(board, misere_won.cells, misere_won.to_move, 1, misere=True)
    handicap = GameState(board, Rules(pie=False), handicap=3)
    handicap.play(7)
    positions = [GameState(board), won, misere_won, handicap, random_position("tri:6", 8, 0, seed=4)]
    n = 20000
    wins = playout_wins_many(positions, n, np.random.default_rng(3))
    assert wins.shape == (5, 2) and (wins.sum(axis=1) == n).all()
    assert tuple(wins[1]) == (n, 0) and tuple(wins[2]) == (0, n)
    for position, (black, _) in zip(positions, wins):
        alone, _ = playout_wins(position, n, np.random.default_rng(11))
        p = alone / n
        assert abs(black / n - p) < 5 * math.sqrt(max(p * (1 - p), 1e-4) * 2 / n) + 1e-9, (black, alone)
    winners = playout_winners_many(positions, 300, np.random.default_rng(3))
    assert winners.shape == (5, 300) and set(np.unique(winners)) <= {1, 2}
    assert (winners[1] == 1).all() and (winners[2] == 2).all()
    again = playout_winners_many(positions, 300, np.random.default_rng(3))
    assert (again == winners).all()
    with pytest.raises(YTourneyError):
        playout_wins_many([GameState("tri:5"), GameState("tri:6")], 10, np.random.default_rng(0))
    with pytest.raises(YTourneyError):
        playout_wins_many([], 10, np.random.default_rng(0))


def test_large_batches_span_several_kernels() -> None:
    state = random_position("tri:9", 5, 0, seed=8)
    winners, colors = playout_boards(state, 70000, np.random.default_rng(4))
    assert winners.shape == (70000,)
    assert (y_owners(state.board, colors[-2000:]) == winners[-2000:]).all()
    black, _ = playout_wins(state, 70000, np.random.default_rng(4))
    assert black == int((winners == 1).sum())


@pytest.mark.parametrize("n", [1, 63, 64, 65, 128])
def test_boards_of_every_small_batch_size(n: int) -> None:
    state = random_position("tri:11", 6, 0, seed=n)
    winners, colors = playout_boards(state, n, np.random.default_rng(n))
    assert colors.shape == (n, 66)
    assert ((colors == 1).sum(axis=1) == 3 + 30).all()
    assert (y_owners(state.board, colors) == winners).all()
