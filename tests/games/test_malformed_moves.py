"""Moves that would mean something else: every game refuses a Move whose nodes are not whole numbers of its board,
whose path does not fit its kind, or whose notation it reads as another move; refused in words, never played."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ytourney.errors import YTourneyError
from ytourney.games.api import Move, MoveKind, move_fault
from ytourney.games.registry import game_names, get_game
from ytourney.players.untrusted import plain_move

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: hostile input, a bounded machine

EXCEPTION_TEXT = re.compile(r"\b\w*(Error|Exception)\b|Traceback|tuple index|object has no attribute")


def start(name: str):
    game = get_game(name)
    board = game.parse_board(game.default_board)
    return game, board, game.new_state(board, game.parse_rules(None))


def bad_node(size: int) -> st.SearchStrategy[object]:
    """A node no board index is: negative, too large, a bool, a float, a string, None."""
    return st.one_of(st.integers(max_value=-1), st.integers(min_value=size, max_value=10**30), st.booleans(),
                     st.floats(allow_nan=True), st.sampled_from(["a1", "E5", "", None, b"x"]))


@st.composite
def malformed(draw: st.DrawFn, size: int) -> Move:
    """A Move with at least one bad node or a path length its kind never has."""
    kind = draw(st.sampled_from([MoveKind.PLACE, MoveKind.STEP, MoveKind.JUMP]))
    good = st.integers(min_value=0, max_value=size - 1)
    if draw(st.booleans()):  # a bad node somewhere in a path of a fitting length, or as the capture
        length = 1 if kind is MoveKind.PLACE else draw(st.integers(2, 2 if kind is MoveKind.STEP else 4))
        path = draw(st.lists(good, min_size=length, max_size=length))
        if kind is not MoveKind.PLACE and draw(st.booleans()):
            return Move(kind, tuple(path), draw(bad_node(size).filter(lambda node: node is not None)))
        path[draw(st.integers(0, length - 1))] = draw(bad_node(size))
        return Move(kind, tuple(path))
    lengths = {MoveKind.PLACE: st.sampled_from([0, 2, 3]), MoveKind.STEP: st.sampled_from([0, 1, 3, 5]),
               MoveKind.JUMP: st.sampled_from([0, 1])}[kind]
    length = draw(lengths)
    return Move(kind, tuple(draw(st.lists(good, min_size=length, max_size=length))))


def assert_words(reason: str) -> None:
    assert reason and not EXCEPTION_TEXT.search(reason), reason


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_game_refuses_a_malformed_move_in_words(name: str, data: st.DataObject) -> None:
    game, board, state = start(name)
    move = data.draw(malformed(board.num_cells))
    assert move_fault(board, move) is not None
    reason = plain_move(game, board, move)  # the host's and the referee's normalisation of a plugin's answer
    assert isinstance(reason, str)
    assert_words(reason)
    with pytest.raises(YTourneyError) as refused:  # the front refuses it too, whoever hands it in
        state.play(move)
    assert_words(str(refused.value))
    assert state.history == () and not state.is_legal(move)


@pytest.mark.parametrize("name", game_names())
def test_a_legal_move_in_disguise_is_refused(name: str) -> None:
    """Negative aliases, bools and foreign kinds of a legal move are never read as that move (nor another)."""
    game, board, state = start(name)
    size = board.num_cells
    for legal in [m for m in state.legal_moves() if m.path][:10]:
        disguises = [Move(legal.kind, tuple(n - size for n in legal.path), legal.capture),
                     Move(legal.kind, tuple(bool(n) if n in (0, 1) else float(n) for n in legal.path), legal.capture),
                     Move(MoveKind.JUMP if legal.kind is not MoveKind.JUMP else MoveKind.STEP, legal.path)]
        for disguise in disguises:
            reason = plain_move(game, board, disguise)
            if isinstance(reason, Move):  # only a kind the game writes the same way, and then the very same move
                assert (reason.kind, reason.path) == (disguise.kind, disguise.path) and state.is_legal(reason)
                continue
            assert_words(reason)
        assert plain_move(game, board, legal) == legal


@pytest.mark.parametrize("name", game_names())
def test_every_kind_a_game_lacks_is_refused_in_words(name: str) -> None:
    game, board, state = start(name)
    for move in (Move(MoveKind.PASS), Move(MoveKind.PASS, (0,)), Move(MoveKind.SWAP, (), 3), Move("place", (0,)),
                 Move(MoveKind.PLACE, [0]), Move(MoveKind.PLACE, (0,), 1), 3.5, None, object()):
        answer = plain_move(game, board, move)
        if isinstance(answer, Move):  # a pass in a game that has passes
            assert answer.is_pass and game.has_passes or answer.is_pass and not state.is_legal(answer)
            continue
        assert_words(answer)


@pytest.mark.parametrize("name", game_names())
def test_a_legal_move_with_numpy_integer_nodes_is_that_move(name: str) -> None:
    """np.int64 nodes (from argmax, or a board array) are whole numbers: Y took an np.int64 cell index, but every
    game refused Move.place(np.int64(n)) as 'an object of type int64, which is no node'."""
    import numpy as np

    game, board, state = start(name)
    for legal in [m for m in state.legal_moves() if m.path][:10]:
        numpy_nodes = Move(legal.kind, tuple(np.int64(n) for n in legal.path),
                           None if legal.capture is None else np.int64(legal.capture))
        answer = plain_move(game, board, numpy_nodes)
        assert answer == legal and all(type(n) is int for n in answer.path)
        assert all(type(n) is int for n in game.coerce_move(board, numpy_nodes).path)
    assert "which is no node" in plain_move(game, board, Move(MoveKind.PLACE, (np.bool_(True),)))
