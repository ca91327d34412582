"""Properties of every game's kernel (hypothesis): `apply` then `undo` restores the position, its key and its legal
actions; a clone plays like the original; the kernel and the Move-level front agree on every legal move and on
every outcome. A game joins these tests by its registry line alone."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ytourney.errors import IllegalMoveError
from ytourney.games.api import Color, Move, MoveKind
from ytourney.games.kernel import DRAW, ONGOING
from ytourney.games.registry import game_names, get_game

SMALL_BOARDS = {"y": "tri:7", "yvy": "hex:4"}
PLY_LIMIT = 150
GAMES = pytest.mark.parametrize("name", game_names())
FEW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def start(name: str, seed: int) -> object:
    game = get_game(name)
    board = game.parse_board(SMALL_BOARDS.get(name, game.default_board))
    options: dict[str, object] = {}
    if "pie" in game.rule_options:
        options["pie"] = bool(seed % 2)
    if "max_plies" in game.rule_options:
        options["max_plies"] = PLY_LIMIT
    return game.new_state(board, game.parse_rules(options))


def snapshot(kernel: object) -> tuple[object, ...]:
    return (kernel.key(), list(kernel.cells), sorted(kernel.legal_actions()), kernel.to_move, kernel.plies,
            kernel.result)


@GAMES
@FEW
@given(seed=st.integers(0, 2**31))
def test_apply_then_undo_restores_the_position_key_and_legal_actions(name: str, seed: int) -> None:
    state = start(name, seed)
    kernel = state.search_kernel()
    rng = random.Random(seed)
    trail = []
    while kernel.result == ONGOING and kernel.plies < PLY_LIMIT:
        before = snapshot(kernel)
        actions = kernel.legal_actions()
        assert actions, f"{name}: an unfinished position has no legal action"
        probe = rng.choice(actions)
        assert kernel.is_legal(probe)
        kernel.apply(probe)
        kernel.undo()
        assert snapshot(kernel) == before, f"{name}: apply/undo of {probe} changed the position"
        trail.append(before)
        kernel.apply(probe)
    for before in reversed(trail):
        kernel.undo()
        assert snapshot(kernel) == before
    for junk in (-1, -(2**40), 2**80, len(kernel.cells) + 7):
        assert kernel.is_legal(junk) in (True, False)


@GAMES
@FEW
@given(seed=st.integers(0, 2**31))
def test_the_kernel_and_the_front_agree_on_every_move_and_outcome(name: str, seed: int) -> None:
    state = start(name, seed)
    kernel = state.search_kernel()
    rng = random.Random(seed)
    while not state.is_over:
        moves = [m for m in state.legal_moves() if not m.is_swap]
        assert sorted(moves, key=repr) == sorted(map(state.move_of, kernel.legal_actions()), key=repr)
        assert all(state.action_of(m) is not None and kernel.is_legal(state.action_of(m)) for m in moves)
        assert state.search_kernel().key() == kernel.key()
        move = rng.choice(state.legal_moves())
        state.play(move)
        if move.is_swap:
            kernel.count_swap()
        else:
            kernel.apply(state.action_of(move))
        assert list(kernel.cells) == list(state.cells) and kernel.to_move == int(state.to_move)
    outcome = state.outcome
    assert kernel.result != ONGOING and kernel.termination is outcome.termination
    assert kernel.result == (DRAW if outcome.winner is None else int(outcome.winner))
    assert outcome.winner is None or isinstance(outcome.winner, Color)


@GAMES
def test_a_clone_plays_like_the_original_and_apart_from_it(name: str) -> None:
    state = start(name, 3)
    kernel = state.search_kernel()
    rng = random.Random(3)
    for _ in range(12):
        if kernel.result != ONGOING:
            break
        kernel.apply(rng.choice(kernel.legal_actions()))
    twin = kernel.clone()
    assert snapshot(twin) == snapshot(kernel)
    if twin.result == ONGOING:
        twin.apply(twin.legal_actions()[0])
        assert snapshot(twin) != snapshot(kernel)


@GAMES
def test_a_move_naming_no_node_is_refused_in_words(name: str) -> None:
    state = start(name, 0)
    size = len(state.cells)
    for bad in (Move.place(-1), Move.place(True), Move.place(size), Move.place(10**9), Move.step(-1, 0),
                Move.step(0, True), Move.jump((0, -3)), Move(MoveKind.PLACE, ("e5",)),  # type: ignore[arg-type]
                Move(MoveKind.PLACE, ()), Move.step(0, 1, capture=-2)):
        assert not state.is_legal(bad), f"{name}: {bad!r} passed as legal"
        with pytest.raises(IllegalMoveError) as refused:
            state.play(bad)
        assert "Error" not in str(refused.value) and str(refused.value), f"{name}: {bad!r}: {refused.value}"
    assert state.history == ()
