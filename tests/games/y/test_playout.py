"""The playout kernel the bots run: exact stone counts, uniform fills, winners that every referee agrees with
(breadth-first search, Y-reduction, union-find), misère, handicap turns, seeds, and the statistics of plain
move-by-move random games."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from bfs_referee import bfs_owner
from hypothesis import given, settings
from hypothesis import strategies as st
from reduction_referee import reduce_winner, reduce_winners

from ytourney.errors import YTourneyError
from ytourney.boards.board import parse_board
from ytourney.games.y.playout import RandomFill
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import GameState

TRI_SIZES = range(2, 27)


def random_position(spec: str, stones: int, handicap: int, seed: int, rules: Rules | None = None) -> GameState:
    """A game with `stones` random stones played (stopping early if someone connects)."""
    rng = random.Random(seed)
    state = GameState(spec, rules or Rules(pie=False), handicap=handicap)
    order = list(range(state.board.num_cells))
    rng.shuffle(order)
    for cell in order[:stones]:
        if state.is_over:
            break
        state.play(cell)
    return state


def alternating_counts(empty: int, to_move: Color, stones_left: int) -> tuple[int, int]:
    """(Black, White) stones that move-by-move alternating play puts on `empty` cells."""
    counts = {Color.BLACK: 0, Color.WHITE: 0}
    color, left = to_move, stones_left
    for _ in range(empty):
        counts[color] += 1
        left -= 1
        if left == 0:
            color, left = color.other, 1
    return counts[Color.BLACK], counts[Color.WHITE]


def play(state: GameState, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Winners (count,) and boards (count, cells) of `count` playouts from one position."""
    winners, boards = RandomFill(state.board).play([state], count, np.random.default_rng(seed))
    return winners[0], boards[0]


def owners(fill: RandomFill, boards: np.ndarray) -> np.ndarray:
    """The kernel's Y holder (1 or 2) of each full board."""
    return np.where(fill.black_holds_y(boards == 1), 1, 2)


@pytest.mark.parametrize(
    "spec,stones,handicap",
    [("tri:2", 0, 0), ("tri:5", 0, 0), ("tri:11", 0, 0), ("tri:11", 17, 0), ("tri:11", 2, 5), ("tri:26", 40, 0),
     ("tri:9", 0, 6), ("kadon", 0, 0), ("kadon", 31, 0), ("kadon", 3, 7), ("tri:10", 49, 0)],
)
def test_fills_have_exact_counts_and_winners_every_referee_agrees_with(spec: str, stones: int, handicap: int) -> None:
    state = random_position(spec, stones, handicap, seed=stones + handicap)
    board = state.board
    winners, boards = play(state, 700, seed=5)
    assert winners.shape == (700,) and boards.shape == (700, board.num_cells)
    before = np.array(state.cells)
    placed = before != 0
    assert (boards[:, placed] == before[placed]).all()
    black_fill, white_fill = alternating_counts(int((~placed).sum()), state.to_move, state.stones_left_this_turn)
    assert ((boards == 1).sum(axis=1) == int((before == 1).sum()) + black_fill).all()
    assert ((boards == 2).sum(axis=1) == int((before == 2).sum()) + white_fill).all()
    if board.spec.startswith("tri"):
        assert (reduce_winners(board, boards) == winners).all()
    for i in range(60):
        assert winners[i] == bfs_owner(board, boards[i].tolist())
    if state.is_over:
        assert (winners == int(state.winner)).all()


def test_same_seed_same_playouts() -> None:
    state = random_position("tri:11", 12, 0, seed=1)
    w1, b1 = play(state, 3000, seed=42)
    w2, b2 = play(state, 3000, seed=42)
    w3, b3 = play(state, 3000, seed=43)
    assert (w1 == w2).all() and (b1 == b2).all()
    assert not (b1 == b3).all()


def test_misere_inverts_the_winner_of_the_same_fills() -> None:
    for spec in ("tri:8", "kadon"):
        normal = random_position(spec, 9, 0, seed=3)
        misere = random_position(spec, 9, 0, seed=3, rules=Rules(pie=False, misere=True))
        assert normal.moves == misere.moves
        w_normal, b_normal = play(normal, 3000, seed=9)
        w_misere, b_misere = play(misere, 3000, seed=9)
        assert (b_normal == b_misere).all()
        assert (w_misere == 3 - w_normal).all()


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


def chi_square_uniform(boards: np.ndarray) -> float:
    """Chi-square of the Black subsets against the uniform law over every subset of that size."""
    keys = np.packbits(boards == 1, axis=1, bitorder="little")
    _, counts = np.unique(keys, axis=0, return_counts=True)
    cells, black = boards.shape[1], int((boards[0] == 1).sum())
    categories = math.comb(cells, black)
    assert len(counts) == categories
    expected = len(boards) / categories
    return float(((counts - expected) ** 2 / expected).sum())


def test_fills_are_uniform_subsets_of_the_exact_size() -> None:
    # tri:3 from empty: Black gets 3 of 6 cells, each of the C(6, 3) = 20 subsets equally likely
    winners, boards = play(GameState("tri:3"), 40000, seed=7)
    assert chi_square_uniform(boards) < 60  # 19 degrees of freedom: p ~ 1e-6
    exact = exact_black_win_rate("tri:3", 3)
    assert abs((winners == 1).mean() - exact) < 5 * math.sqrt(exact * (1 - exact) / 40000)
    # a handicap turn with an uneven split (Black 5 of 6)
    _, boards = play(GameState("tri:3", Rules(pie=False), handicap=4), 30000, seed=8)
    assert ((boards == 1).sum(axis=1) == 5).all()
    assert chi_square_uniform(boards) < 40  # 5 degrees of freedom
    # more than 64 cells: every cell Black with probability k / E
    _, boards = play(GameState("tri:13"), 20000, seed=9)
    rate = (boards == 1).mean(axis=0)
    assert np.abs(rate - 46 / 91).max() < 5 * math.sqrt(0.25 / 20000)


def plain_random_games(spec: str, games: int, seed: int, handicap: int = 0) -> float:
    """Black's win rate over move-by-move random games through GameState."""
    rng = random.Random(seed)
    black = 0
    for _ in range(games):
        state = GameState(spec, Rules(pie=False), handicap=handicap)
        order = list(range(state.board.num_cells))
        rng.shuffle(order)
        for cell in order:
            if state.play(cell) is not None:
                break
        black += state.winner is Color.BLACK
    return black / games


def kernel_black_rate(state: GameState, playouts: int, seed: int) -> float:
    """Black's win rate over `playouts` kernel playouts, in batches of 20,000."""
    fill = RandomFill(state.board)
    rng = np.random.default_rng(seed)
    black = sum(int((fill.play([state], 20_000, rng)[0] == 1).sum()) for _ in range(playouts // 20_000))
    return black / playouts


@pytest.mark.parametrize("spec,games,handicap", [("tri:5", 30000, 0), ("kadon", 5000, 0), ("tri:7", 20000, 3)])
def test_win_rate_matches_plain_random_games(spec: str, games: int, handicap: int) -> None:
    plain = plain_random_games(spec, games, seed=17, handicap=handicap)
    n = 200_000
    batch = kernel_black_rate(GameState(spec, Rules(pie=False), handicap=handicap), n, seed=17)
    sd = math.sqrt(batch * (1 - batch) * (1 / games + 1 / n))
    assert abs(batch - plain) < 4.5 * sd, (batch, plain, sd)


def test_tri5_win_rate_is_the_exact_enumeration() -> None:
    exact = exact_black_win_rate("tri:5", 8)
    n = 400_000
    rate = kernel_black_rate(GameState("tri:5"), n, seed=2)
    assert abs(rate - exact) < 5 * math.sqrt(exact * (1 - exact) / n)


def test_mid_game_handicap_turn() -> None:
    state = GameState("tri:9", Rules(pie=False), handicap=4)
    state.play(10)
    assert state.stones_left_this_turn == 3
    winners, boards = play(state, 2000, seed=1)
    assert alternating_counts(44, Color.BLACK, 3) == (3 + 20, 21)
    assert ((boards == 1).sum(axis=1) == 1 + 23).all()
    assert (reduce_winners(state.board, boards) == winners).all()


def test_finished_positions_keep_their_winner() -> None:
    board = parse_board("tri:4")
    for misere in (False, True):
        state = GameState(board, Rules(pie=False, misere=misere))
        for name in ("a1", "d1", "a2", "c1", "a3", "b1", "a4"):  # Black a1-a4 is a Y on the fourth black stone
            state.play(board.index_of(name))
        assert state.winner is (Color.WHITE if misere else Color.BLACK)
        winners, _ = play(state, 100, seed=0)
        assert (winners == int(state.winner)).all()


def test_a_full_board_is_played_out_as_it_stands() -> None:
    board = parse_board("tri:2")
    state = GameState(board, Rules(pie=False))
    for name in ("a1", "b1", "a2"):  # Black a1-a2 touches the three sides with the last empty cell
        state.play(board.index_of(name))
    assert state.winner is Color.BLACK and state.cells.count(0) == 0
    winners, boards = play(state, 10, seed=0)
    assert (boards == np.array(state.cells)).all() and (winners == 1).all()


@pytest.mark.parametrize("count", [1, 63, 64, 65, 128, 200])
def test_several_positions_and_every_small_batch_size(count: int) -> None:
    board = parse_board("tri:6")
    won = GameState(board, Rules(pie=False))
    for name in ("a1", "f1", "a2", "e1", "a3", "d1", "a4", "c1", "a5", "b2", "a6"):
        won.play(board.index_of(name))
    misere_won = GameState(board, Rules(pie=False, misere=True))
    for move in won.moves:
        misere_won.play(move)
    handicap = GameState(board, Rules(pie=False), handicap=3)
    handicap.play(7)
    states = [GameState(board), won, misere_won, handicap, random_position("tri:6", 8, 0, seed=count)]
    fill = RandomFill(board)
    winners, boards = fill.play(states, count, np.random.default_rng(count))
    assert winners.shape == (5, count) and boards.shape == (5, count, board.num_cells)
    assert (winners[1] == 1).all() and (winners[2] == 2).all()
    for i, state in enumerate(states):
        empty = state.cells.count(0)
        black, _ = alternating_counts(empty, state.to_move, state.stones_left_this_turn)
        assert ((boards[i] == 1).sum(axis=1) == state.cells.count(1) + black).all()
        held = owners(fill, boards[i])
        assert (winners[i] == (3 - held if state.rules.misere else held)).all()
        assert (held == reduce_winners(board, boards[i])).all()


def test_positions_of_another_board_are_refused() -> None:
    with pytest.raises(YTourneyError, match="'tri:5'"):
        RandomFill(parse_board("tri:6")).play([GameState("tri:5")], 4, np.random.default_rng(0))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["tri:4", "tri:7", "tri:12", "kadon"]), st.integers(0, 60), st.integers(0, 5), st.integers(0, 2**32))
def test_any_position_completes_consistently(spec: str, stones: int, handicap: int, seed: int) -> None:
    state = random_position(spec, stones, handicap if handicap != 1 else 0, seed)
    winners, boards = play(state, 130, seed)
    black, _ = alternating_counts(state.cells.count(0), state.to_move, state.stones_left_this_turn)
    assert ((boards == 1).sum(axis=1) == state.cells.count(1) + black).all()
    for i in range(0, 130, 13):
        assert winners[i] == bfs_owner(state.board, boards[i].tolist())
    if state.is_over:
        assert (winners == int(state.winner)).all()


# --- the Y owner of full boards: kernel, breadth-first search, Y-reduction and union-find --------------------


@pytest.mark.parametrize("size", TRI_SIZES)
def test_kernel_owner_agrees_with_reduction_and_bfs_on_thousands_of_boards(size: int) -> None:
    board = parse_board(f"tri:{size}")
    boards = np.random.default_rng(size).integers(1, 3, size=(3000, board.num_cells), dtype=np.int8)
    held = owners(RandomFill(board), boards)
    assert (held == reduce_winners(board, boards)).all()
    for i in range(300 if size <= 12 else 60):
        cells = boards[i].tolist()
        assert held[i] == bfs_owner(board, cells) == reduce_winner(board, cells)


def test_union_find_bfs_reduction_and_kernel_agree_on_random_games() -> None:
    rng = random.Random(11)
    for size in TRI_SIZES:
        board = parse_board(f"tri:{size}")
        fill = RandomFill(board)
        for _ in range(40 if size <= 14 else 12):
            handicap = rng.choice((0, 0, 2, 3)) if size >= 4 else 0
            # play a random game to its end with union-find, then complete the rest of the board at random:
            # the Y owner of the full board is the first to connect anyway
            order = list(range(board.num_cells))
            rng.shuffle(order)
            state = GameState(board, Rules(pie=False), handicap=handicap)
            cells = [0] * board.num_cells
            for cell in order:
                if state.is_over:
                    cells[cell] = rng.choice((1, 2))
                else:
                    cells[cell] = int(state.to_move)
                    state.play(cell)
            first = int(state.winner)
            assert bfs_owner(board, cells) == reduce_winner(board, cells) == first
            assert owners(fill, np.array([cells])) == first


def test_kadon_flood_fill_agrees_with_bfs_and_union_find() -> None:
    board = parse_board("kadon")
    fill = RandomFill(board)
    boards = np.random.default_rng(93).integers(1, 3, size=(2000, board.num_cells), dtype=np.int8)
    held = owners(fill, boards)
    for i in range(400):
        assert held[i] == bfs_owner(board, boards[i].tolist())
    rng = random.Random(93)
    games = []
    for _ in range(200):
        order = list(range(board.num_cells))
        rng.shuffle(order)
        state = GameState(board, Rules(pie=False))
        cells = [0] * board.num_cells
        for i, cell in enumerate(order):
            cells[cell] = 1 + i % 2
            if not state.is_over:
                state.play(cell)
        assert bfs_owner(board, cells) == int(state.winner)
        games.append((cells, int(state.winner)))
    held = owners(fill, np.array([cells for cells, _ in games]))
    assert held.tolist() == [winner for _, winner in games]


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 9).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.booleans(), min_size=n * (n + 1) // 2, max_size=n * (n + 1) // 2))))
def test_every_referee_agrees_on_any_colouring(case: tuple[int, list[bool]]) -> None:
    size, black = case
    board = parse_board(f"tri:{size}")
    cells = [1 if b else 2 for b in black]
    expected = bfs_owner(board, cells)
    assert reduce_winner(board, cells) == expected
    assert reduce_winners(board, np.array([cells])).tolist() == [expected]
    assert owners(RandomFill(board), np.array([cells])).tolist() == [expected]
