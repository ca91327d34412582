"""Properties every registered game keeps (hypothesis): random legal games end; what the referee accepts is exactly
`legal_moves`; a move's notation parses back to the move; a copy plays like the original; a pickled state too.

A game joins these tests by its registry line alone.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ytourney.errors import YTourneyError
from ytourney.games.api import Move, MoveKind, State
from ytourney.games.registry import game_names, get_game

SMALL_BOARDS = {"y": "tri:7"}
"""A small board where a game's default is large, to keep each example quick."""
PLY_CAP = 2000
"""A game that has not ended after this many random plies fails the first property."""


TEST_PLY_LIMIT = 300
"""The move limit the examples play under where a game has one: random play in slide games often runs to the
default limit (1000 or more), and the properties hold just the same at 300 plies."""


def start(name: str, seed: int) -> tuple[object, State]:
    game = get_game(name)
    board = game.parse_board(SMALL_BOARDS.get(name, game.default_board))
    settings: dict[str, object] = {}
    if "pie" in game.rule_options:
        settings["pie"] = bool(seed % 2)
    if "max_plies" in game.rule_options:
        settings["max_plies"] = TEST_PLY_LIMIT
    return game, game.new_state(board, game.parse_rules(settings))


def random_game(name: str, seed: int) -> tuple[object, State, list[Move]]:
    """A random legal game to its end (or PLY_CAP plies), with the moves played."""
    game, state = start(name, seed)
    rng = random.Random(seed)
    played = []
    while not state.is_over and len(played) < PLY_CAP:
        legal = state.legal_moves()
        assert game.has_passes or not any(m.is_pass for m in legal), f"{name} passes: set Game.has_passes"
        move = rng.choice(legal)
        state.play(move)
        played.append(move)
    return game, state, played


GAMES = pytest.mark.parametrize("name", game_names())
FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@GAMES
@FEW
@given(seed=st.integers(0, 2**31))
def test_random_legal_games_always_end(name: str, seed: int) -> None:
    game, state, played = random_game(name, seed)
    assert state.is_over, f"{name}: no end after {len(played)} random plies"
    assert state.outcome is not None and state.legal_moves() == []
    limit = getattr(state.rules, "max_plies", None)
    assert limit is None or len(played) <= limit


@GAMES
@FEW
@given(seed=st.integers(0, 2**31), probes=st.lists(st.integers(0, 10**6), min_size=5, max_size=5))
def test_the_referee_accepts_exactly_the_legal_moves(name: str, seed: int, probes: list[int]) -> None:
    game, state = start(name, seed)
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_moves()
        assert len(set(legal)) == len(legal), "legal moves are listed once each"
        for move in legal:
            assert state.is_legal(move)
        # candidate moves built from the board's nodes: accepted exactly when listed
        nodes = state.board.num_cells
        candidates = [Move.place(p % nodes) for p in probes]
        candidates += [Move.step(p % nodes, (p // nodes) % nodes) for p in probes]
        for move in candidates:
            trial = state.copy()
            try:
                trial.play(move)
                accepted = True
            except YTourneyError:
                accepted = False
            assert accepted == (move in legal), (name, move, accepted)
        state.play(rng.choice(legal))
    with pytest.raises(YTourneyError):
        state.play(Move.place(0))


@GAMES
@FEW
@given(seed=st.integers(0, 2**31))
def test_notation_round_trips_every_move_of_a_game(name: str, seed: int) -> None:
    game, state, played = random_game(name, seed)
    board = state.board
    replay = start(name, seed)[1]
    for move in played:
        for candidate in replay.legal_moves():
            text = game.format_move(board, candidate)
            assert game.parse_move(board, text) == candidate, (name, text)
            assert game.parse_move(board, text.swapcase()) == candidate  # case-insensitive
        replay.play(game.parse_move(board, game.format_move(board, move)))
    assert replay.outcome == state.outcome


@GAMES
@FEW
@given(seed=st.integers(0, 2**31), cut=st.integers(0, 60))
def test_a_copy_and_a_pickled_state_play_like_the_original(name: str, seed: int, cut: int) -> None:
    game, state, played = random_game(name, seed)
    original = start(name, seed)[1]
    for move in played[:cut]:
        original.play(move)
    twin = original.copy()
    thawed = pickle.loads(pickle.dumps(original))
    for move in played[cut:]:
        for other in (twin, thawed):
            assert other.legal_moves() == original.legal_moves()
        original.play(move)
        twin.play(move)
        thawed.play(move)
    assert twin.outcome == original.outcome == thawed.outcome == state.outcome
    assert list(twin.cells) == list(original.cells)


@GAMES
def test_every_game_describes_itself(name: str) -> None:
    game = get_game(name)
    assert game.name == name and game.title and game.boards_help
    board = game.parse_board(game.default_board)
    state = game.new_state(board, game.parse_rules(None))
    assert game.views.board_text(state)
    assert state.to_move is game.first_color and state.seat_to_move() == 0
    for key, option in game.rule_options.items():
        assert option.help, f"{name}: rules.{key} needs a line of help"
    kinds = {move.kind for move in state.legal_moves()}
    assert kinds and kinds <= set(MoveKind)


def mapped(move: Move, image: tuple[int, ...]) -> Move:
    """`move` carried by a board symmetry (`image[node]` is where node goes)."""
    capture = None if move.capture is None else image[move.capture]
    return Move(move.kind, tuple(image[node] for node in move.path), capture)


@GAMES
@FEW
@given(seed=st.integers(0, 2**31))
def test_the_board_symmetries_map_legal_moves_to_legal_moves(name: str, seed: int) -> None:
    from ytourney.boards.symmetry import automorphisms

    game, state = start(name, seed)
    cells = list(state.cells)
    # the symmetries that keep the start position (a colour-alternating start is kept by the rotations only)
    images = [image for image in automorphisms(state.board)
              if all(cells[image[n]] == cells[n] for n in range(len(cells)))]
    assert images, f"{name}: not even the identity keeps the start"
    rng = random.Random(seed)
    twins = [(image, start(name, seed)[1]) for image in images]
    for _ in range(60):
        if state.is_over:
            break
        legal = state.legal_moves()
        for image, twin in twins:
            assert sorted(map(repr, twin.legal_moves())) == sorted(repr(mapped(m, image)) for m in legal), name
        move = rng.choice(legal)
        state.play(move)
        for image, twin in twins:
            twin.play(mapped(move, image))
    for image, twin in twins:  # the same end (its reason may name the mapped nodes)
        ends = [None if s.outcome is None else (s.outcome.winner, s.outcome.termination, s.outcome.score)
                for s in (twin, state)]
        assert ends[0] == ends[1]
