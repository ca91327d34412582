"""Leap Over's rules on hand-made positions: jumps over either colour, chains, forks, the edge, passes, goals."""

from __future__ import annotations

import random

import pytest

from ytourney.boards.regions import region
from ytourney.errors import GameSpecError, IllegalMoveError, NotationError
from ytourney.games.api import PASS, Color, Move, Termination
from ytourney.games.leap_over.state import LeapOverState
from ytourney.games.registry import get_game

GAME = get_game("leap-over")
BOARD = GAME.parse_board("kadon")
A5_TRIANGLE = region(BOARD, "side-triangle-2")
M5_TRIANGLE = region(BOARD, "side-triangle-3")


def n(name: str) -> int:
    node = BOARD.index_of(name)
    assert node is not None
    return node


def position(black: str, white: str = "", to_move: Color = Color.BLACK, **rules: object) -> LeapOverState:
    state = GAME.new_state(BOARD, GAME.parse_rules(rules))
    state.set_position([n(x) for x in black.split()], [n(x) for x in white.split()], to_move)
    return state


def moves(state: LeapOverState) -> set[str]:
    return {GAME.format_move(BOARD, m) for m in state.legal_moves()}


def play(state: LeapOverState, text: str) -> object:
    return state.play(GAME.parse_move(BOARD, text))


def test_start_fills_the_side_triangles_of_a5_and_m5() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    assert {c for c, s in enumerate(state.cells) if s == Color.BLACK} == set(A5_TRIANGLE)
    assert {c for c, s in enumerate(state.cells) if s == Color.WHITE} == set(M5_TRIANGLE)
    assert {"C5-E5", "C6-A4-A6", "C6-E6-C4"} <= moves(state)
    assert all(m.kind.value == "jump" for m in state.legal_moves())


def test_a_leap_goes_over_a_stone_of_either_colour_to_the_empty_node_beyond() -> None:
    assert moves(position("E6", "F6 A1")) == {"E6-G6"}
    assert moves(position("E6 F6", "A1")) == {"E6-G6", "F6-D5"}  # over an own stone too
    assert "E6-G6" not in moves(position("E6 F6", "G6"))  # landing taken
    with pytest.raises(IllegalMoveError, match="E6-G6: G6 is occupied"):
        play(position("E6 F6", "G6"), "E6-G6")
    with pytest.raises(IllegalMoveError, match="jumps over F6, which is empty"):
        play(position("E6", "F5"), "E6-G6")


def test_a_chain_may_turn_at_every_landing_and_stop_anywhere() -> None:
    state = position("F5", "F6 G7")
    assert {"F5-F7", "F5-F7-I6"} <= moves(state)  # over F6, then over G7 along another line
    play(state, "F5-F7-I6")
    assert state.cells[n("I6")] == Color.BLACK and state.cells[n("F5")] == 0 and state.cells[n("F7")] == 0


def test_a_chain_never_lands_twice_nor_back_on_its_start() -> None:
    state = position("A4", "A5")
    assert moves(state) == {"A4-A6"}
    with pytest.raises(IllegalMoveError, match="returns to its start"):
        play(state, "A4-A6-A4")
    rng = random.Random(5)
    game = GAME.new_state(BOARD, GAME.parse_rules(None))
    for _ in range(60):
        for move in game.legal_moves():
            assert len(set(move.path)) == len(move.path)
        game.play(rng.choice(game.legal_moves()))


def test_a_jump_over_a_pentad_may_take_either_fork() -> None:
    found = moves(position("D5", "E5"))
    assert {"D5-E4", "D5-F5"} <= found and {m[:5] for m in found} == {"D5-E4", "D5-F5"}
    assert "D5-E4-E6-D4-F5" in found  # round the pentad, over E5 at every hop


def test_edge_stones_are_jumped_only_along_the_edge() -> None:
    assert moves(position("A4", "A5")) == {"A4-A6"}  # an edge stone over an edge stone, along the edge
    assert moves(position("B5", "A5")) == set() | {"pass"}  # an interior stone never jumps an edge stone
    assert moves(position("A5", "B5")) == {"A5-C5"}  # an edge stone may jump an interior one
    with pytest.raises(IllegalMoveError, match="only a stone on the edge jumps over an edge stone"):
        play(position("B4", "A4"), "B4-A5")
    rng = random.Random(8)
    game = GAME.new_state(BOARD, GAME.parse_rules(None))
    edge = {c for c in range(BOARD.num_cells) if BOARD.sides[c]}
    for _ in range(80):  # every hop over an edge node starts and ends on the edge
        for move in game.legal_moves():
            for p, q in zip(move.path, move.path[1:]):
                over = set(BOARD.neighbors[p]) & set(BOARD.neighbors[q]) & edge
                if over and game.cells[next(iter(over))]:
                    assert p in edge and q in edge
        game.play(rng.choice(game.legal_moves()))


def test_a_player_who_cannot_leap_passes_and_may_not_pass_otherwise() -> None:
    state = position("A1", "E5 F5")
    assert state.legal_moves() == [PASS]
    play(state, "pass")
    assert state.to_move is Color.WHITE and "E5-G5" in moves(state)
    with pytest.raises(IllegalMoveError, match="pass: white can leap"):
        play(state, "pass")


def test_both_unable_to_leap_is_a_draw() -> None:
    state = position("A1", "M5")
    outcome = play(state, "pass")
    assert outcome is not None and outcome.winner is None and outcome.termination.value == "blocked"
    assert GAME.views.result_text(None, None, outcome) == "draw: neither side can leap"


def _entry() -> tuple[int, int, int]:
    """A jump from outside the M5 triangle over one of its nodes into another."""
    for (a, b), nexts in sorted(BOARD.continuation_table.items()):
        for c in nexts:
            if a not in M5_TRIANGLE and b in M5_TRIANGLE and c in M5_TRIANGLE:
                return a, b, c
    raise AssertionError("no jump enters the M5 triangle")


def test_filling_the_other_start_triangle_with_every_own_stone_wins() -> None:
    a, _, c = _entry()
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    state.set_position([x for x in M5_TRIANGLE if x != c] + [a], [n("A5"), n("B5")])
    outcome = state.play(Move.jump((a, c)))
    assert outcome is not None and outcome.winner is Color.BLACK and outcome.termination.value == "filled"
    assert GAME.views.highlight(state) == frozenset(M5_TRIANGLE)


def test_a_stone_left_in_its_home_blocks_the_book_goal_but_not_the_filled_goal() -> None:
    blocker = M5_TRIANGLE[0]
    black = [x for x in M5_TRIANGLE if x != blocker] + [n("E6")]
    for goal, wins in (("all", False), ("filled", True)):
        state = GAME.new_state(BOARD, GAME.parse_rules({"goal": goal}))
        state.set_position(black, [blocker, n("F6")])
        outcome = play(state, "E6-G6")
        assert (outcome is not None and outcome.winner is Color.BLACK) is wins


def test_the_move_limit_draws() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules({"max_plies": 3}))
    for _ in range(3):
        state.play(state.legal_moves()[0])
    assert state.outcome is not None and state.outcome.termination is Termination.MOVE_LIMIT


def test_notation_round_trips_and_refuses_what_it_cannot_read() -> None:
    rng = random.Random(4)
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    for _ in range(60):
        for move in state.legal_moves():
            assert GAME.parse_move(BOARD, GAME.format_move(BOARD, move)) == move
        state.play(rng.choice(state.legal_moves()))
    assert GAME.parse_move(BOARD, " a5-c5-E5 ") == Move.jump((n("A5"), n("C5"), n("E5")))
    assert GAME.parse_move(BOARD, "PASS") == PASS
    for bad in ("A5", "A5-", "A5-Z5", "A5xC5", ""):
        with pytest.raises(NotationError):
            GAME.parse_move(BOARD, bad)
    with pytest.raises(GameSpecError):
        GAME.parse_rules({"goal": "most"})
    with pytest.raises(IllegalMoveError, match="B5-D5: B5 holds no black stone"):
        play(GAME.new_state(BOARD, GAME.parse_rules(None)), "B6-D6") if False else play(
            position("C5", "D5"), "B5-D5")


# --- the search hooks the generic mcts reads -----------------------------------------------------------------


def test_search_moves_are_legal_one_chain_per_stone_and_landing() -> None:
    rng = random.Random(11)
    for _ in range(20):
        state = GAME.new_state(BOARD, GAME.parse_rules({"pie": False}))
        for _ in range(rng.randrange(0, 60)):
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()))
        if state.is_over:
            continue
        legal = state.legal_moves()
        searched = [state.move_of(a) for a in GAME.knowledge(BOARD, state.rules).search_actions(state.kernel)]
        assert all(state.is_legal(m) for m in searched) and set(searched) <= set(legal)
        ends = [(m.path[0], m.path[-1]) for m in searched if m.path]
        assert len(ends) == len(set(ends))  # one chain per stone and landing
        assert set(ends) == {(m.path[0], m.path[-1]) for m in legal if m.path}


def test_is_legal_checks_chains_jump_by_jump_as_the_list_does() -> None:
    state = position("E5 E6", "F6")
    listed = set(state.legal_moves())
    for move in listed:
        assert state.is_legal(move)
    for bad in (Move.jump((n("E5"), n("E7"), n("E5"))), Move.jump((n("E6"), n("E8"))), Move.jump((n("E5"), n("E9"))),
                PASS):
        assert state.is_legal(bad) is (bad in listed)


def test_the_generic_mcts_takes_the_games_search_defaults() -> None:
    from ytourney.games.bot import Limit  # noqa: PLC0415
    from ytourney.players.bots.mcts_bot import MctsBot  # noqa: PLC0415

    state = GAME.new_state(BOARD, GAME.parse_rules({"pie": False}))
    bot = MctsBot(seed=1, playouts=30)
    assert state.is_legal(bot.move(state.copy(), Limit()))
    assert (bot.settings.exploration, bot.settings.playout_plies) == (0.5, 0)
    given = MctsBot(seed=1, playouts=30, c=1.3, playout_plies=4)
    given.move(state.copy(), Limit())
    assert (given.settings.exploration, given.settings.playout_plies) == (1.3, 4)
