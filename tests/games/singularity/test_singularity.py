"""Singularity's rules on hand-made positions: slides, forks, edges, fusions, the central nodes, every ending."""

from __future__ import annotations

import random

import pytest

from ytourney.errors import GameSpecError, IllegalMoveError, NotationError
from ytourney.games.api import Color, Move, Termination
from ytourney.games.registry import get_game
from ytourney.games.singularity.state import BLACK_START, WHITE_START, SingularityState

GAME = get_game("singularity")
BOARD = GAME.parse_board("kadon")


def n(name: str) -> int:
    node = BOARD.index_of(name)
    assert node is not None
    return node


def position(black: str, white: str = "", to_move: Color = Color.BLACK, **rules: object) -> SingularityState:
    state = GAME.new_state(BOARD, GAME.parse_rules(rules))
    state.set_position([n(x) for x in black.split()], [n(x) for x in white.split()], to_move)
    return state


def moves(state: SingularityState) -> set[str]:
    return {GAME.format_move(BOARD, m) for m in state.legal_moves()}


def play(state: SingularityState, text: str) -> object:
    return state.play(GAME.parse_move(BOARD, text))


def test_start_alternates_round_the_perimeter_and_corners_white_swaps_the_sets() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    assert {BOARD.names[c] for c, s in enumerate(state.cells) if s == Color.BLACK} == set(BLACK_START)
    assert {BOARD.names[c] for c, s in enumerate(state.cells) if s == Color.WHITE} == set(WHITE_START)
    assert {"A1", "I1", "A9", "E1", "A5", "M5"} <= set(BLACK_START)
    swapped = GAME.new_state(BOARD, GAME.parse_rules({"corners": "white"}))
    assert {BOARD.names[c] for c, s in enumerate(swapped.cells) if s == Color.WHITE} == set(BLACK_START)
    assert state.to_move is Color.BLACK and len(state.legal_moves()) == 63


def test_a_slide_goes_one_to_three_nodes_along_one_line_through_empty_nodes() -> None:
    state = position("F5")
    assert {"F5-F6", "F5-F7", "F5-F8", "F5-G5", "F5-H5", "F5-I5"} <= moves(state)
    assert "F5-F9" not in moves(state)
    blocked = position("F5", "F7")
    assert "F5-F6" in moves(blocked) and not {"F5-F7", "F5-F8"} & moves(blocked)
    with pytest.raises(IllegalMoveError, match="F5-F8: the slide is blocked at F7"):
        play(blocked, "F5-F8")
    with pytest.raises(IllegalMoveError, match="F5-F7: F7 is occupied"):
        play(blocked, "F5-F7")
    with pytest.raises(IllegalMoveError, match="F5-G7: not on a line from F5"):
        play(state, "F5-G7")
    with pytest.raises(IllegalMoveError, match="F5-B1: a stone slides 1 to 3 nodes"):
        play(position("F5 A1"), "F5-B1")  # F5-E4-D3-C2-B1 is a line, four steps long


def test_a_slide_through_a_pentad_may_take_either_fork() -> None:
    state = position("D5")
    assert {"D5-E5", "D5-E4", "D5-E3", "D5-F5", "D5-G5"} <= moves(state)
    one_fork_blocked = position("D5", "E4")
    assert "D5-G5" in moves(one_fork_blocked) and "D5-E3" not in moves(one_fork_blocked)


def test_lines_end_at_the_edge_and_run_along_it() -> None:
    assert {"B4-A3", "B4-A4"} <= moves(position("B4"))
    assert {"C1-D1", "C1-E1", "C1-F1", "C1-B1", "C1-A1"} <= moves(position("C1"))
    assert not any(m.startswith("B2-") and m.endswith("A") for m in moves(position("B2")))
    assert {m for m in moves(position("A1"))} == {"A1-B1", "A1-C1", "A1-D1", "A1-A2", "A1-A3", "A1-A4",
                                                   "A1-B2", "A1-C3", "A1-D4"}


def test_landing_in_the_central_triangle_next_to_an_own_stone_there_fuses_it() -> None:
    state = position("F8 H6 A1", "M5")
    assert "F8-G7" in moves(state) and "F8-G7xH6" not in moves(state)
    play(state, "F8-G7")
    assert state.cells[n("G7")] == Color.BLACK and state.cells[n("H6")] == 0 and state.cells[n("F8")] == 0
    assert state.stones[Color.BLACK] == 2


def test_no_fusion_outside_the_triangle_unless_the_fusion_rule_says_so() -> None:
    for fusion, fused in (("both", False), ("landing", True)):
        state = position("D6 E8 A1", "M5", fusion=fusion)
        play(state, "E8-E7")  # lands in the triangle next to D6, on the ring outside it
        assert (state.cells[n("D6")] == 0) is fused
    for fusion, fused in (("both", False), ("resting", True)):
        state = position("B6 E6 A1", "M5", fusion=fusion)
        play(state, "B6-D6")  # lands outside the triangle next to E6 inside it
        assert (state.cells[n("E6")] == 0) is fused
    assert moves(position("E6 E7", "M5")) >= {"E6-F6"}  # next to E7: a fusion
    plain = position("C5 D5", "M5")
    play(plain, "C5-C6")  # both on the ring: nothing happens
    assert plain.stones[Color.BLACK] == 2


def test_several_fusions_must_be_named_and_only_one_stone_goes() -> None:
    state = position("F8 G5 E6", "M5")
    with pytest.raises(IllegalMoveError, match=r"F8-F6: must name the capture \(F8-F6xG5 or F8-F6xE6\)"):
        play(state, "F8-F6")
    assert {"F8-F6xG5", "F8-F6xE6"} <= moves(state) and "F8-F6" not in moves(state)
    play(state, "F8-F6xG5")
    assert state.cells[n("E6")] == Color.BLACK and state.cells[n("G5")] == 0 and state.stones[Color.BLACK] == 2
    with pytest.raises(IllegalMoveError, match="nothing to capture"):
        play(position("F5", "M5"), "F5-F6xG6")
    with pytest.raises(IllegalMoveError, match="write F8-G7"):
        play(position("F8 H6", "M5"), "F8-G7xH6")


def test_at_most_one_central_node_per_player_after_a_move() -> None:
    state = position("F8 G6 E6", "M5")
    assert "F8-F6xE6" not in moves(state)  # would leave F6 and G6 both black
    with pytest.raises(IllegalMoveError, match=r"F8-F6: must name the capture \(F8-F6xG6\)"):
        play(state, "F8-F6")
    with pytest.raises(IllegalMoveError, match="more than one of the central nodes"):
        play(state, "F8-F6xE6")
    for _ in range(30):  # random play never leaves a player on two central nodes
        if state.outcome is not None:
            break
        state.play(random.Random(len(state.history)).choice(state.legal_moves()))
        for colour in (Color.BLACK, Color.WHITE):
            assert sum(state.cells[n(c)] == colour for c in ("F6", "G6", "F7")) <= 1


def test_one_stone_left_on_a_central_node_wins() -> None:
    state = position("F8 G6", "M5 A1")
    outcome = play(state, "F8-F7")
    assert outcome is not None and outcome.winner is Color.BLACK and outcome.termination.value == "singularity"
    assert GAME.views.highlight(state) == frozenset({n("F7")})


def test_one_stone_left_elsewhere_wins_only_once_it_reaches_the_middle() -> None:
    state = position("F8 H6", "M5 A1")
    assert play(state, "F8-G7") is None and state.stones[Color.BLACK] == 1
    play(state, "M5-L5")
    outcome = play(state, "G7-F7")
    assert outcome is not None and outcome.winner is Color.BLACK


def test_a_player_without_a_move_loses() -> None:
    state = position("A1", "A2 B1 B2 M5", to_move=Color.WHITE)
    outcome = play(state, "M5-L5")
    assert outcome is not None and outcome.winner is Color.WHITE and outcome.termination is Termination.NO_MOVES


def test_the_move_limit_draws() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules({"max_plies": 2}))
    state.play(state.legal_moves()[0])
    outcome = state.play(state.legal_moves()[0])
    assert outcome is not None and outcome.winner is None and outcome.termination is Termination.MOVE_LIMIT


def test_notation_round_trips_and_refuses_what_it_cannot_read() -> None:
    rng = random.Random(3)
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    for _ in range(150):
        for move in state.legal_moves():
            assert GAME.parse_move(BOARD, GAME.format_move(BOARD, move)) == move
        state.play(rng.choice(state.legal_moves()))
    assert GAME.parse_move(BOARD, " f8-f6xg6 ") == Move.step(n("F8"), n("F6"), n("G6"))
    for bad in ("pass", "E5", "E5-", "Z9-E5", "E5-E6-E7", "E5xE6"):
        with pytest.raises(NotationError):
            GAME.parse_move(BOARD, bad)
    with pytest.raises(GameSpecError):
        GAME.parse_board("tri:5")
    with pytest.raises(GameSpecError):
        GAME.parse_rules({"corners": "red"})


def test_random_games_end_and_copies_play_the_same() -> None:
    rng = random.Random(11)
    state = GAME.new_state(BOARD, GAME.parse_rules({"max_plies": 300}))
    twin = state.copy()
    while state.outcome is None:
        move = rng.choice(state.legal_moves())
        state.play(move)
        twin.play(move)
        assert twin.cells == state.cells
    assert twin.outcome == state.outcome
