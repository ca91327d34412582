"""Sexta's rules on hand-made positions: DESIGN's start and the other parity, slides any distance (forks, blocks),
the chain of six (straight, bent, a ring with `rings` on only, none touching three, one group), refusals, the move
limit, and a short CLI match."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.errors import GameSpecError, IllegalMoveError
from ytourney.games.api import Color, Move, Termination
from ytourney.games.registry import get_game
from ytourney.games.sexta.state import SextaState, chain_of

GAME = get_game("sexta")
BOARD = GAME.parse_board("kadon")


def n(name: str) -> int:
    node = BOARD.index_of(name)
    assert node is not None, name
    return node


def position(black: str, white: str = "A9 I1 M5 J8 K7 L6", to_move: Color = Color.BLACK,
             **rules: object) -> SextaState:
    """A position with only the named stones."""
    state = GAME.new_state(BOARD, GAME.parse_rules(rules))
    state.set_position([n(x) for x in black.split()], [n(x) for x in white.split()], to_move)
    return state


def play(state: SextaState, text: str) -> None:
    state.play(GAME.parse_move(BOARD, text))


def test_the_start_is_every_other_perimeter_node() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    black = {BOARD.names[x] for x, c in enumerate(state.cells) if c == Color.BLACK}
    white = {BOARD.names[x] for x, c in enumerate(state.cells) if c == Color.WHITE}
    assert black == {"B1", "F1", "J2", "L6", "A8", "A4"} and white == {"D1", "H1", "L4", "J8", "A6", "A2"}
    other = GAME.new_state(BOARD, GAME.parse_rules({"start": "corners"}))
    assert {BOARD.names[x] for x, c in enumerate(other.cells) if c == Color.BLACK} == {"A1", "E1", "I1", "M5", "A9",
                                                                                         "A5"}


def test_slides_go_any_distance_and_fork_at_pentads() -> None:
    state = position("A5 B1 C1 D1 E2 F2")
    reach = {BOARD.names[m.target] for m in state.legal_moves() if m.source == n("A5")}
    assert {"B5", "D5", "E4", "E3", "F5", "I5"} <= reach  # through E5, either fork
    with pytest.raises(IllegalMoveError, match="B1-H1: the line from B1 to H1 is blocked"):
        play(state, "B1-H1")
    with pytest.raises(IllegalMoveError, match="A5-C6: not on a line from A5"):
        play(state, "A5-C6")


def test_six_in_a_straight_line_win() -> None:
    state = position("A3 B3 C3 D3 E3 H3")
    play(state, "H3-F3")
    outcome = state.outcome
    assert outcome is not None and outcome.winner is Color.BLACK and outcome.termination is Termination("chain")
    assert GAME.views.highlight(state) == frozenset(n(x) for x in "A3 B3 C3 D3 E3 F3".split())
    assert GAME.views.win_text(outcome.termination, state.rules) == "by a chain of six"


def test_a_bent_chain_wins_when_no_stone_touches_three() -> None:
    cells = position("A3 B3 C3 C2 C1 D1").cells  # turns at C3 and C1
    assert chain_of(BOARD, cells, Color.BLACK, True)


def test_a_stone_touching_three_of_the_six_spoils_the_chain() -> None:
    cells = position("A3 B3 C3 D3 E3 C4").cells  # C3 touches B3, D3 and C4
    assert not chain_of(BOARD, cells, Color.BLACK, True)
    clump = position("A3 B3 C3 B2 C4 D4").cells
    assert not chain_of(BOARD, clump, Color.BLACK, True)


def test_a_ring_of_six_counts_only_with_rings_on() -> None:
    ring = "B2 C2 D3 D4 C4 B3"  # the six neighbours of C3
    assert chain_of(BOARD, position(ring).cells, Color.BLACK, True)
    assert not chain_of(BOARD, position(ring).cells, Color.BLACK, False)
    state = position("B2 C2 D3 D4 C4 A3", rings=False)
    play(state, "A3-B3")
    assert state.outcome is None
    state = position("B2 C2 D3 D4 C4 A3")
    play(state, "A3-B3")
    assert state.outcome is not None and state.outcome.winner is Color.BLACK


def test_two_groups_are_no_chain() -> None:
    assert not chain_of(BOARD, position("A3 B3 C3 F6 G6 H6").cells, Color.BLACK, True)


def test_refusals_options_notation() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    with pytest.raises(IllegalMoveError, match="D1-D2: no black stone on D1"):
        play(state, "D1-D2")
    with pytest.raises(IllegalMoveError, match="B1-C1-D1: sexta moves slide a stone"):
        play(state, "B1-C1-D1")
    with pytest.raises(GameSpecError, match="unknown sexta rule 'ring'"):
        GAME.parse_rules({"ring": True})
    assert GAME.parse_move(BOARD, "b1-B5") == Move.step(n("B1"), n("B5"))
    assert GAME.format_move(BOARD, Move.step(n("B1"), n("B5"))) == "B1-B5"


def test_the_move_limit_ends_in_a_draw() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules({"max_plies": 30}))
    rng = random.Random(2)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    assert state.outcome.winner is None and state.outcome.termination is Termination.MOVE_LIMIT


def test_a_short_cli_match(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["match", "random", "mcts:playouts=50", "--game", "sexta",
                                       "--games-per-pair", "2", "--rule", "max_plies=60", "--out", str(tmp_path / "m"),
                                       "--seed", "5"])
    assert result.exit_code == 0, result.output
