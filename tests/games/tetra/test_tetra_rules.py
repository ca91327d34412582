"""Tetra's rules on hand-made positions: the 483 figures of the reference file, placing then moving 1-2 nodes along
a line (forks at pentads, blocked ways), each kind of figure winning with anything between, the options, the
notation and its refusals, the move limit, and a short CLI match."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.errors import GameSpecError, IllegalMoveError, NotationError
from ytourney.games.api import EMPTY, Color, Move, Termination
from ytourney.games.registry import get_game
from ytourney.games.tetra.figures import figures
from ytourney.games.tetra.state import TetraState

GAME = get_game("tetra")
BOARD = GAME.parse_board("kadon")
REFERENCE = Path(__file__).with_name("tetra-figures.txt")


def n(name: str) -> int:
    node = BOARD.index_of(name)
    assert node is not None, name
    return node


def position(black: str = "", white: str = "", to_move: Color = Color.BLACK, hand: tuple[int, int] = (0, 0),
             **rules: object) -> TetraState:
    """A position with the named stones, the stones still in hand and the side to move."""
    return TetraState.position(GAME, BOARD, GAME.parse_rules(rules), [n(x) for x in black.split()],
                               [n(x) for x in white.split()], hand, to_move)


def play(state: TetraState, *moves: str) -> None:
    for text in moves:
        state.play(GAME.parse_move(BOARD, text))


def test_the_figures_are_exactly_the_reference_file() -> None:
    expected = set()
    for line in REFERENCE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            kind, nodes = line.split(":")
            expected.add((kind, frozenset(nodes.split())))
    found = {(kind, frozenset(BOARD.names[x] for x in fig)) for kind, fig in figures(BOARD)}
    assert found == expected and len(figures(BOARD)) == 483


def test_bridge_lines_off_leaves_line_node_and_diamond_figures() -> None:
    kinds = {kind for kind, _ in figures(BOARD, bridge_lines=False)}
    assert kinds == {"line-node", "diamond"} and len(figures(BOARD, bridge_lines=False)) == 330


def test_ten_stones_each_are_placed_then_the_movement_phase_begins() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    assert len(state.legal_moves()) == 93 and state.in_hand == [0, 10, 10]
    # twenty scattered placements that form no figure
    spots = "A1 I1 A9 C2 G2 C6 J5 F6 B8 L4 D1 K3 A4 H7 E3 E8 G4 B6 J2 H3".split()
    play(state, *spots[:19])
    assert state.placing and state.in_hand == [0, 0, 1]
    with pytest.raises(IllegalMoveError, match="must place its stones in hand first"):
        play(state, "B1-B2")
    play(state, spots[19])
    assert not state.placing and not state.is_over and state.to_move is Color.BLACK
    assert all(move.kind.value == "step" for move in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="E5: black has no stones left in hand"):
        play(state, "E5")


def test_moves_go_one_or_two_nodes_along_a_line_through_empty_nodes() -> None:
    state = position(black="C3", white="J8")
    targets = {BOARD.names[m.target] for m in state.legal_moves()}
    one = {BOARD.names[x] for x in BOARD.neighbors[n("C3")]}
    two = {"A1", "A3", "C1", "E3", "C5", "E5"}
    assert targets == one | two
    blocked = position(black="C3", white="D3 J8")
    assert "E3" not in {BOARD.names[m.target] for m in blocked.legal_moves()}
    with pytest.raises(IllegalMoveError, match="C3-E3: the way from C3 to E3 is blocked"):
        play(blocked, "C3-E3")
    with pytest.raises(IllegalMoveError, match="C3-F3: not on a line from C3 within 2 nodes"):
        play(blocked, "C3-F3")
    with pytest.raises(IllegalMoveError, match="C3-D3: node D3 is occupied"):
        play(blocked, "C3-D3")
    with pytest.raises(IllegalMoveError, match="J8-J7: no black stone on J8"):
        play(blocked, "J8-J7")


def test_a_move_through_a_pentad_may_take_either_fork() -> None:
    state = position(black="E6", white="A1")
    targets = {BOARD.names[m.target] for m in state.legal_moves()}
    assert {"D4", "E4"} <= targets  # E6 -> E5 -> D4 or E4
    play(state, "E6-D4")
    assert state.cells[n("D4")] == Color.BLACK and state.cells[n("E6")] == EMPTY


@pytest.mark.parametrize(("kind", "stones", "last"), [
    ("line-node", "A1 C1 E1", "G1"),          # every other node of the first row
    ("line-bridge", "A1 C2 E3", "G4"),      # bridges along a line
    ("diamond", "C3 E3 C5", "E5"),          # two side-2 triangles sharing a side
])
def test_each_kind_of_figure_wins_with_any_stones_between(kind: str, stones: str, last: str) -> None:
    figure = frozenset(n(x) for x in [*stones.split(), last])
    assert (kind, tuple(sorted(figure))) in figures(BOARD)
    between = {x for a in figure for x in BOARD.neighbors[a]} - figure
    white = " ".join(sorted(BOARD.names[x] for x in between)[:3])
    state = position(black=stones, white=white, hand=(1, 1))
    play(state, last)
    outcome = state.outcome
    assert outcome is not None and outcome.winner is Color.BLACK and outcome.termination is Termination("figure")
    assert GAME.views.highlight(state) == figure
    assert GAME.views.win_text(outcome.termination, state.rules) == "by forming a figure of four"


def test_a_figure_formed_by_a_move_wins_and_adjacent_fours_do_not() -> None:
    state = position(black="A1 C1 E1 G2", white="A9")
    play(state, "G2-G1")
    assert state.outcome is not None and state.outcome.winner is Color.BLACK
    row = position(black="A1 B1 C1", white="A9", hand=(1, 1))
    play(row, "D1")
    assert row.outcome is None  # four adjacent stones are no figure


def test_without_bridge_lines_a_bridge_line_does_not_win() -> None:
    state = position(black="A1 C2 E3", white="A9", hand=(1, 1), bridge_lines=False)
    play(state, "G4")
    assert state.outcome is None


def test_the_move_limit_ends_in_a_draw() -> None:
    state = position(black="A1", white="A9", max_plies=20)
    rng = random.Random(3)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    assert state.outcome.winner is None and state.outcome.termination is Termination.MOVE_LIMIT
    assert len(state.history) == 20


def test_notation_and_refusals() -> None:
    assert GAME.parse_move(BOARD, "e5") == Move.place(n("E5"))
    assert GAME.parse_move(BOARD, "E5-e7") == Move.step(n("E5"), n("E7"))
    assert GAME.format_move(BOARD, Move.step(n("E5"), n("E7"))) == "E5-E7"
    with pytest.raises(NotationError, match="unknown node 'Z1'"):
        GAME.parse_move(BOARD, "Z1")
    state = position(black="C3", white="A9")
    with pytest.raises(IllegalMoveError, match="no jump"):
        play(state, "C3-C5-C7")
    with pytest.raises(GameSpecError, match="unknown tetra rule 'bridges'"):
        GAME.parse_rules({"bridges": False})
    with pytest.raises(GameSpecError, match="expected kadon"):
        GAME.parse_board("tri:11")


def test_the_pie_option_lets_white_take_the_first_stone() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules({"pie": True}))
    play(state, "E5", "swap")
    assert state.swapped and state.to_move is Color.WHITE and state.in_hand == [0, 9, 10]
    assert "in hand: black 9, white 10" in GAME.views.board_text(state)


def test_a_short_cli_match(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = CliRunner().invoke(main, ["match", "random", "mcts:playouts=50", "--game", "tetra",
                                       "--games-per-pair", "2", "--out", str(out), "--seed", "5"])
    assert result.exit_code == 0, result.output
    assert "mcts" in result.output


def test_the_generic_mcts_completes_a_figure_and_blocks_one() -> None:
    from ytourney.games.bot import Limit
    from ytourney.players.bots.mcts_bot import MctsBot  # noqa: PLC0415 - the generic mcts with the game's knowledge

    win = position(black="A1 C1 E1", white="A9 C9", hand=(2, 2))
    assert MctsBot(seed=1, playouts=50).move(win, Limit()) == Move.place(n("G1"))
    block = position(black="A9 C9", white="A1 C1 E1", hand=(2, 2))
    assert MctsBot(seed=1, playouts=400).move(block, Limit()) == Move.place(n("G1"))
