"""YvY's rules: the board, notation, White first, the swap, passes, and loops (against the flood-fill oracle)."""

from __future__ import annotations

import random

import pytest
from yvy_helpers import build, cell

from ytourney.errors import BoardSpecError, GameSpecError, IllegalMoveError, NotationError, SwapNotAllowedError
from ytourney.games.api import PASS, SWAP, Color, Move, MoveKind
from ytourney.games.registry import get_game
from ytourney.games.yvy.game import GAME
from ytourney.games.yvy.geometry import LoopTracker, geometry, naive_loop
from ytourney.games.yvy.state import LOOP, SCORE


def test_registered_with_white_first_and_draws() -> None:
    assert get_game("yvy") is GAME
    assert GAME.first_color is Color.WHITE and GAME.has_draws
    assert GAME.parse_board(GAME.default_board).spec == "hex:7"


@pytest.mark.parametrize(("size", "cells"), [(3, 28), (5, 76), (7, 148), (9, 244), (12, 433)])
def test_boards_have_3n_sprouts(size: int, cells: int) -> None:
    board = GAME.parse_board(f"hex:{size}")
    assert board.num_cells == 3 * size * (size - 1) + 1 + 3 * size == cells
    assert len(board.sprouts) == 3 * size


@pytest.mark.parametrize("spec", ["tri:5", "kadon", "hex:2", "hex:13", "tri:99", "foo"])
def test_other_boards_refused(spec: str) -> None:
    with pytest.raises(BoardSpecError) as caught:
        GAME.parse_board(spec)
    expected = "'hex:N' with 3 <= N <= 12 (e.g. 'hex:7')"  # YvY's boards only, not every game's
    assert str(caught.value) == f"board {spec!r} is not a board of YvY; expected {expected}"


def test_rules_defaults_and_errors() -> None:
    assert GAME.rules_dict(GAME.parse_rules(None)) == {"pie": True, "max_plies": 1000}
    with pytest.raises(GameSpecError, match="misere"):
        GAME.parse_rules({"misere": True})
    with pytest.raises(GameSpecError, match="max_plies"):
        GAME.parse_rules({"max_plies": 0})


def test_notation_round_trip_every_cell_pass_and_swap() -> None:
    board = GAME.parse_board("hex:5")
    for c in range(board.num_cells):
        move = GAME.parse_move(board, board.names[c].upper())
        assert move == Move.place(c) and GAME.format_move(board, move) == board.names[c]
    assert GAME.parse_move(board, "PASS") == PASS and GAME.parse_move(board, "Swap") == SWAP
    assert [GAME.format_move(board, m) for m in GAME.parse_moves(board, "f6 swap e5 pass")] == \
        ["f6", "swap", "e5", "pass"]
    for bad in ("z9", "a2", "", "f6-f7"):  # a2 is a ring cell that is not a sprout: off the board
        with pytest.raises(NotationError):
            GAME.parse_move(board, bad)


def test_white_moves_first_and_the_swap_exchanges_seats() -> None:
    board = GAME.parse_board("hex:5")
    state = GAME.new_state(board, GAME.parse_rules(None))
    assert state.to_move is Color.WHITE and state.seat_to_move() == 0
    state.play(Move.place(cell(board, "f6")))
    assert state.can_swap() and SWAP in state.legal_moves()
    state.play(SWAP)
    # the seed recolours the stone (it becomes the swapper's, Black's, and White moves next); here the seats trade
    # colours: the swapper (seat 1) owns the white stone and the first player (seat 0) moves next as Black
    assert state.cells[cell(board, "f6")] == Color.WHITE
    assert state.color_of_seat(1) is Color.WHITE and state.to_move is Color.BLACK and state.seat_to_move() == 0


def test_no_swap_after_an_opening_pass_or_later() -> None:
    board = GAME.parse_board("hex:5")
    state = GAME.new_state(board, GAME.parse_rules(None))
    state.play(PASS)
    assert not state.can_swap()
    with pytest.raises(SwapNotAllowedError):
        state.play(SWAP)


def test_two_passes_in_a_row_end_the_game_one_does_not() -> None:
    state = build("hex:4", "a1 c1", "")  # a1, pass, c1, pass: passes never in a row
    assert not state.is_over
    state.play(PASS)  # White passes after Black's pass: the end
    assert state.outcome.termination is SCORE and state.outcome.winner is Color.WHITE
    with pytest.raises(IllegalMoveError):
        state.play(PASS)


def test_occupied_cell_is_illegal() -> None:
    state = build("hex:4", "d4", "")
    assert not state.is_legal(Move.place(cell(state.board, "d4")))
    with pytest.raises(IllegalMoveError):
        state.play(Move.place(cell(state.board, "d4")))


# --- loops, hand-drawn on hex:4 (d4's neighbours: e4 e5 d5 c4 c3 d3) -----------------------------------------

LOOPS = {
    "ring-round-empty": ("e4 e5 d5 c4 c3 d3", ""),
    "ring-round-opponent": ("e4 e5 d5 c4 c3 d3", "d4"),
    # a solid hexagon of seven: the ring surrounds the group's own stone ("whoever holds it")
    "solid-seven": ("d4 e4 e5 d5 c4 c3 d3", ""),
    # round two cells, d4 and e4
    "ring-round-two": ("c3 d3 e3 f4 f5 e5 d5 c4", "d4 e4"),
}

NOT_LOOPS = {
    "triangle": ("d4 e4 e5", ""),
    "rhombus": ("d4 e4 e5 f5", ""),
    # five stones round c2, whose sixth side is the board's edge: the edge never closes a loop
    "against-the-edge": ("c1 d2 d3 c3 b2", ""),
    # a ring with one gap held by the opponent
    "ring-with-a-gap": ("e4 e5 d5 c4 c3", "d3"),
}


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_loops_win_at_once(name: str) -> None:
    white, black = LOOPS[name]
    state = build("hex:4", white, black)
    assert state.outcome is not None and state.outcome.termination is LOOP
    assert state.outcome.winner is Color.WHITE
    assert state.history[-1] == Move.place(cell(state.board, white.split()[-1]))
    assert naive_loop(state.geo, state.cells, Color.WHITE)
    assert GAME.views.highlight(state)


@pytest.mark.parametrize("name", sorted(NOT_LOOPS))
def test_not_loops(name: str) -> None:
    white, black = NOT_LOOPS[name]
    state = build("hex:4", white, black)
    assert state.outcome is None and not naive_loop(state.geo, state.cells, Color.WHITE)


def test_loop_highlight_is_the_ring() -> None:
    state = build("hex:4", "d4 e4 e5 d5 c4 c3 d3 f4", "")  # the solid seven closes before f4 is played
    names = {state.board.names[c] for c in GAME.views.highlight(state)}
    assert names == {"e4", "e5", "d5", "c4", "c3", "d3"}
    assert "closed a loop" in state.outcome.reason


def test_loop_wins_regardless_of_score() -> None:
    # Black holds three sprouts; White's loop in the middle wins all the same
    state = build("hex:4", "e4 e5 d5 c4 c3 d3", "a1 e1 i9")
    assert state.outcome.winner is Color.WHITE and state.outcome.termination is LOOP


@pytest.mark.parametrize("spec", ["hex:3", "hex:4", "hex:5"])
def test_incremental_detector_agrees_with_the_flood_fill_oracle(spec: str) -> None:
    geo = geometry(GAME.parse_board(spec))
    rng = random.Random(spec)
    n = len(geo.around)
    checked = 0
    for _ in range(60):
        cells = [0] * n
        tracker = LoopTracker(geo)
        order = list(range(n))
        rng.shuffle(order)
        bias = rng.random()
        for c in order:
            colour = 1 if rng.random() < bias else 2
            cells[c] = colour
            closed = tracker.place(cells, c, colour)
            checked += 1
            assert closed == naive_loop(geo, cells, colour), (spec, cells, c)
            if closed:
                break
    assert checked > 500


def test_random_games_end_within_the_limit() -> None:
    rng = random.Random(3)
    board = GAME.parse_board("hex:5")
    for _ in range(20):
        state = GAME.new_state(board, GAME.parse_rules(None))
        while not state.is_over:
            moves = [m for m in state.legal_moves() if m.kind is MoveKind.PLACE] or [PASS]
            state.play(rng.choice(moves))
        assert state.outcome.termination in (LOOP, SCORE)
        assert len(state.history) <= 2 * board.num_cells + 3


def test_copy_plays_independently() -> None:
    state = build("hex:4", "e4 e5 d5 c4 c3", "")
    twin = state.copy()
    twin.play(Move.place(cell(state.board, "d3")))  # White closes the ring on the copy
    assert twin.outcome.termination is LOOP and state.outcome is None
    state.play(Move.place(cell(state.board, "a1")))
    state.play(Move.place(cell(state.board, "d3")))  # Black takes the gap on the original
    assert state.outcome is None and state.to_move is Color.WHITE
