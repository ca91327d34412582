"""Quinta's rules on hand-made positions: DESIGN's start, slides any distance along a line through empty nodes
(either fork at a pentad, lines that cross again), five adjacent on one line winning (straight, through a fork,
six as well, not four, not bent, not broken), the corners option, notation and refusals, the move limit, a CLI match."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.errors import GameSpecError, IllegalMoveError
from ytourney.games.api import EMPTY, Color, Move, Termination
from ytourney.games.quinta.state import BLACK_START, WHITE_START, QuintaState, segments
from ytourney.games.registry import get_game

GAME = get_game("quinta")
BOARD = GAME.parse_board("kadon")


def n(name: str) -> int:
    node = BOARD.index_of(name)
    assert node is not None, name
    return node


def position(black: str, white: str, to_move: Color = Color.BLACK, **rules: object) -> QuintaState:
    """A position with only the named stones."""
    state = GAME.new_state(BOARD, GAME.parse_rules(rules))
    state.set_position([n(x) for x in black.split()], [n(x) for x in white.split()], to_move)
    return state


def targets(state: QuintaState, source: str) -> set[str]:
    return {BOARD.names[m.target] for m in state.legal_moves() if m.source == n(source)}


def test_the_start_is_designs_pairs_round_the_perimeter() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    assert {BOARD.names[x] for x, c in enumerate(state.cells) if c == Color.BLACK} == set(BLACK_START)
    assert {BOARD.names[x] for x, c in enumerate(state.cells) if c == Color.WHITE} == set(WHITE_START)
    assert state.to_move is Color.BLACK and state.outcome is None
    flipped = GAME.new_state(BOARD, GAME.parse_rules({"corners": "white"}))
    assert flipped.cells[n("A1")] == Color.WHITE and flipped.cells[n("C1")] == Color.BLACK


def test_a_slide_goes_any_distance_until_the_first_stone() -> None:
    state = position("A5", "E5 A9")
    assert {"B5", "C5", "D5"} <= targets(state, "A5") and "E5" not in targets(state, "A5")
    assert "F5" not in targets(state, "A5")  # no jumping the stone on E5
    with pytest.raises(IllegalMoveError, match="A5-F5: the line from A5 to F5 is blocked"):
        state.play(GAME.parse_move(BOARD, "A5-F5"))
    with pytest.raises(IllegalMoveError, match="A5-C6: not on a line from A5"):
        state.play(GAME.parse_move(BOARD, "A5-C6"))


def test_a_slide_through_a_pentad_takes_either_fork() -> None:
    state = position("A5", "A9")
    reach = targets(state, "A5")
    assert {"E4", "E1", "F5", "I5"} <= reach  # A5 ... E5 then up the E column or on along row 5
    state.play(GAME.parse_move(BOARD, "A5-E1"))
    assert state.cells[n("E1")] == Color.BLACK and state.cells[n("A5")] == EMPTY


def test_two_lines_from_one_node_that_meet_again_give_one_move() -> None:
    state = position("A1", "A9")
    moves = [m for m in state.legal_moves() if m.target == n("I1")]
    assert len(moves) == 1  # along row 1, and by B2 ... E5 ... I5 down to I1
    blocked_row = position("A1", "E1 A9")
    assert "I1" in targets(blocked_row, "A1")  # the bent line is still open


@pytest.mark.parametrize(("four", "last", "source"), [
    ("A5 B5 C5 D5", "E5", "E7"),   # straight, into the pentad
    ("C5 D5 E5 E4", "E3", "H3"),   # through E5's fork: C5 D5 E5 then up to E4 E3
    ("E1 E2 E3 E4", "E5", "E8"),   # down the E column into the pentad from below
])
def test_five_adjacent_on_one_line_win(four: str, last: str, source: str) -> None:
    state = position(f"{four} {source}", "A9 L4")
    line = tuple(sorted(n(x) for x in [*four.split(), last]))
    assert line in segments(BOARD)
    state.play(GAME.parse_move(BOARD, f"{source}-{last}"))
    outcome = state.outcome
    assert outcome is not None and outcome.winner is Color.BLACK and outcome.termination is Termination("line")
    assert GAME.views.highlight(state) == frozenset(line)


def test_six_in_a_line_win_four_do_not_and_a_bent_line_does_not() -> None:
    six = position("A5 B5 C5 E5 F5 C7", "A9")
    six.play(GAME.parse_move(BOARD, "C7-C8"))  # not onto the line: nothing
    assert six.outcome is None
    six = position("A5 B5 C5 E5 F5 D7", "A9")
    six.play(GAME.parse_move(BOARD, "D7-D5"))
    assert six.outcome is not None and six.outcome.winner is Color.BLACK
    four = position("A5 B5 C5 D7", "A9")
    four.play(GAME.parse_move(BOARD, "D7-D5"))
    assert four.outcome is None
    # E4 touches D5 but is not on the line A5...D5 (the line forks only after E5)
    assert tuple(sorted(n(x) for x in "A5 B5 C5 D5 E4".split())) not in segments(BOARD)


def test_an_opponent_stone_breaks_the_line() -> None:
    state = position("A5 B5 D5 E5 C7", "C5 A9")
    state.play(GAME.parse_move(BOARD, "C7-C6"))
    assert state.outcome is None


def test_refusals_and_options() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    with pytest.raises(IllegalMoveError, match="C1-C2: no black stone on C1"):
        state.play(GAME.parse_move(BOARD, "C1-C2"))
    with pytest.raises(IllegalMoveError, match="E5: quinta moves slide a stone"):
        state.play(GAME.parse_move(BOARD, "E5"))
    with pytest.raises(IllegalMoveError, match="A1-B1: node B1 is occupied"):
        state.play(GAME.parse_move(BOARD, "A1-B1"))
    with pytest.raises(GameSpecError, match="corners='grey'"):
        GAME.parse_rules({"corners": "grey"})
    assert GAME.format_move(BOARD, Move.step(n("A5"), n("E1"))) == "A5-E1"


def test_the_move_limit_ends_in_a_draw() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules({"max_plies": 20}))
    rng = random.Random(1)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    assert state.outcome.winner is None and state.outcome.termination is Termination.MOVE_LIMIT


def test_a_short_cli_match(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["match", "random", "mcts:playouts=50", "--game", "quinta",
                                       "--games-per-pair", "2", "--rule", "max_plies=60", "--out", str(tmp_path / "m"),
                                       "--seed", "5"])
    assert result.exit_code == 0, result.output


def test_the_generic_mcts_sees_a_five_in_one_and_blocks_it() -> None:
    from ytourney.games.bot import Limit
    from ytourney.players.bots.mcts_bot import MctsBot  # noqa: PLC0415 - the generic mcts with the game's knowledge

    def can_win_now(state: object) -> bool:
        return GAME.knowledge(BOARD, state.rules).winning_action(state.kernel) is not None

    threat = position("A9 I1", "A5 B5 C5 D5 E8", to_move=Color.WHITE)
    assert can_win_now(threat)  # E8-E5 completes A5 ... E5
    assert MctsBot(seed=1, playouts=60).move(threat, Limit()) == Move.step(n("E8"), n("E5"))
    defend = position("A9 I1 E3", "A5 B5 C5 D5 E8")
    assert not can_win_now(defend)
    move = MctsBot(seed=1, playouts=300).move(defend, Limit())
    after = defend.copy()
    after.play(move)
    assert not can_win_now(after), GAME.format_move(BOARD, move)


def test_the_generic_mcts_is_reproducible_and_keeps_to_a_time_budget() -> None:
    import time  # noqa: PLC0415

    from ytourney.games.bot import Limit  # noqa: PLC0415
    from ytourney.players.bots.mcts_bot import MctsBot  # noqa: PLC0415

    start = GAME.new_state(BOARD, GAME.parse_rules(None))
    first = MctsBot(seed=9, playouts=120).move(start.copy(), Limit())
    assert first == MctsBot(seed=9, playouts=120).move(start.copy(), Limit()) and start.is_legal(first)
    begin = time.perf_counter()
    timed = MctsBot(seed=9, playouts=10_000_000).move(start.copy(), Limit(seconds=0.2))
    assert start.is_legal(timed) and time.perf_counter() - begin < 1.0
