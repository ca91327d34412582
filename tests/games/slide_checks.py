"""What the two slide games' tests (Quinta, Sexta) share: names of nodes and slides on a board, a kernel's
snapshot, random positions, the slides as the rule walks them, the kernel against the front, the C core's own
listing, and one game's C core side by side with its pure-Python kernel."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from kernel_checks import play_random

from ytourney.errors import IllegalMoveError
from ytourney.games.api import SWAP, Color, Move
from ytourney.games.kernel import DRAW, NODE_LIMIT, ONGOING, PASS_ACTION, encode_path
from ytourney.games.registry import get_game
from ytourney.games.slide_core import build_tables, to_core
from ytourney.games.slide_tables import slide_action, slide_tables

NOT_SLIDES = [-1, -(1 << 40), 1 << 80, 0, 5, NODE_LIMIT, PASS_ACTION, PASS_ACTION + 1, encode_path((0, 1, 2)),
              encode_path((0, 1), 2), encode_path((500, 501)), encode_path((0, 0))]
"""Ints that are never a slide on kadon."""


def slide_names(board: Any) -> tuple[Callable[[str], int], Callable[[str], int], Callable[[str, str], int]]:
    """A node by name, a mask of space-separated names and a slide between two names, on `board`."""

    def n(name: str) -> int:
        node = board.index_of(name)
        assert node is not None, name
        return node

    def mask(names: str) -> int:
        return sum(1 << n(x) for x in names.split())

    def slide(a: str, b: str) -> int:
        return slide_action(n(a), n(b))

    return n, mask, slide


def snapshot(k: Any) -> tuple[object, ...]:
    return (k.key(), k.cells.copy(), k.masks.copy(), k.to_move, k.plies, k.result, k.termination, k.legal_actions())


def random_kernel(game: Any, board: Any, rules: Any, seed: int, plies: int) -> tuple[Any, random.Random]:
    """The start's search kernel after up to `plies` random slides (fewer when the game ends first)."""
    rng = random.Random(seed)
    k = game.new_state(board, rules).search_kernel()
    play_random([k], rng, plies)
    return k, rng


def check_slides_walk_the_rays(k: Any, board: Any) -> None:
    """The legal actions are every slide of the mover's stones along a ray until a stone, once each, and exactly the
    line pairs `is_legal` takes."""
    legal = k.legal_actions()
    assert len(legal) == len(set(legal))
    expected = set()
    for source in range(board.num_cells):
        if k.cells[source] == k.to_move:
            for ray in board.rays[source]:
                for node in ray:
                    if k.cells[node]:
                        break
                    expected.add(slide_action(source, node))
    assert set(legal) == expected
    assert all(k.is_legal(a) for a in legal)
    assert {a for a in slide_tables(board).pairs if k.is_legal(a)} == expected


def check_front_agrees(game: Any, board: Any, rules: Any, knowledge: Any, seed: int,
                       win_chance: float) -> tuple[Any, Any]:
    """A random game (a win in one taken with `win_chance`) played on the front and on a search kernel alike: the
    same moves, keys, plies and endings throughout, and the same winner; returns the kernel and the state."""
    state = game.new_state(board, rules)
    k = state.search_kernel()
    rng = random.Random(seed)
    while not state.is_over:
        moves = state.legal_moves()
        assert [m for m in moves if m != SWAP] == [state.move_of(a) for a in k.legal_actions()]
        move = rng.choice(moves)
        if move != SWAP and rng.random() < win_chance and (win := knowledge.winning_action(k)) is not None:
            move = state.move_of(win)
        state.play(move)
        if move == SWAP:
            k.count_swap()
        else:
            k.apply(state.action_of(move))
        assert (k.key(), k.plies, k.result, k.termination) == (state.kernel.key(), state.kernel.plies,
                                                               state.kernel.result, state.kernel.termination)
    outcome = state.outcome
    assert outcome is not None and k.legal_actions() == [] and state.legal_moves() == []
    assert outcome.winner == (None if k.result == DRAW else Color(k.result))
    return k, state


def check_is_legal_refuses(k: Any, action: int, slide: Callable[[str, str], int]) -> None:
    """`action` (one of NOT_SLIDES) and non-ints are not legal on a kernel with A5 to move and E5 blocking the row."""
    assert k.is_legal(action) is False
    assert k.is_legal(True) is False and k.is_legal("1") is False
    assert k.is_legal(slide("A5", "D5")) and not k.is_legal(slide("A5", "F5"))  # blocked by E5


def check_python_lists_as_the_kernel(k: Any, kernel_class: type, board: Any, rules: Any) -> None:
    """A pure-Python kernel of `k`'s stones lists the slides as `k` (the state's kernel, maybe the C one) does and as
    its Python walk does, and the other side's slides too."""
    py = kernel_class(board, rules, k.masks[1], k.masks[2], k.to_move)
    assert py.legal_actions() == py.python_actions() == k.legal_actions()
    py.to_move = 3 - py.to_move
    assert py.legal_actions() == py.python_actions()


class SlideCore:
    """One slide game's C core (loaded directly) beside its pure-Python kernel on kadon."""

    def __init__(self, name: str, kernel_class: type, core: ModuleType) -> None:
        self.game = get_game(name)
        self.board = self.game.parse_board("kadon")
        self.knowledge = self.game.knowledge(self.board, self.game.parse_rules(None))
        self.kernel_class = kernel_class
        self.core = core
        self.pairs = sorted(slide_tables(self.board).pairs)
        self.junk = [-1, -(1 << 40), 1 << 80, 1 << 63, 0, 5, NODE_LIMIT, PASS_ACTION, PASS_ACTION + 1,
                     self.board.num_cells, encode_path((0, 1, 2)), encode_path((0, 1), 2), encode_path((0, 50)),
                     encode_path((500, 501)), encode_path((0, 0)), encode_path((0, 1)) + 2,
                     encode_path((0, 1)) | 1 << 40, True, False, 1.0, "1", None]
        self._tables: dict[object, Any] = {}

    def tables(self, rules: Any = None) -> Any:
        """The core's tables for `rules` (the defaults when None), built once a spec."""
        spec = self.kernel_class.core_spec(self.board, self.game.parse_rules(None) if rules is None else rules)
        if spec not in self._tables:
            self._tables[spec] = build_tables(self.core, self.board, self.kernel_class, spec,
                                              type(self.knowledge).core_params)
        return self._tables[spec]

    def kernels(self, black: int, white: int, rules: Any = None, to_move: int = Color.BLACK) -> tuple[Any, Any]:
        """A Python kernel of these stones and a C kernel of the same."""
        rules = self.game.parse_rules(None) if rules is None else rules
        py = self.kernel_class(self.board, rules, black, white, to_move)
        return py, to_core(py, self.tables(rules), self.core)

    def start(self, limit: int, **options: object) -> tuple[Any, Any]:
        """Both kernels at the start under these rules and a move limit."""
        state = self.game.new_state(self.board, self.game.parse_rules({"max_plies": limit, **options}))
        return self.kernels(mask_of(state.cells, 1), mask_of(state.cells, 2), state.rules)

    def same(self, py: Any, c: Any) -> None:
        """Every observable of the two kernels agrees."""
        assert c.legal_actions() == py.legal_actions() == (py.python_actions() if py.result == ONGOING else [])
        assert (c.to_move, c.plies, c.result, c.termination, c.score) == (py.to_move, py.plies, py.result,
                                                                         py.termination, py.score)
        assert (c.cells, c.masks, c.limit, c.win_termination) == (py.cells, py.masks, py.limit, py.win_termination)
        assert c.winning_stones() == py.winning_stones()


def mask_of(cells: list[int], colour: int) -> int:
    return sum(1 << node for node, c in enumerate(cells) if c == colour)


def check_state_plays_the_cores_moves(side: SlideCore) -> None:
    """A state on the C core plays the core's own Moves, a pie ply, a parsed Move of another making, refuses a slide
    of no stone, and its copy plays apart."""
    game, board = side.game, side.board
    state = game.new_state(board, game.parse_rules({"pie": True}))
    moves = state.legal_moves()
    if type(state.kernel) is side.kernel_class:
        pytest.skip("the state runs on the pure-Python kernel here")
    assert moves[-1].is_swap is False and all(m is state.move_of(state.action_of(m)) for m in moves)
    state.play(moves[0])
    assert state.legal_moves()[-1].is_swap
    state.play(state.legal_moves()[-1])
    parsed = game.parse_move(board, game.format_move(board, state.legal_moves()[3]))
    assert parsed is not state.legal_moves()[3]
    state.play(parsed)  # an equal Move of another making plays through the front
    assert state.history[-1] == parsed and state.kernel.plies == 3
    with pytest.raises(IllegalMoveError, match="no black stone|no white stone"):
        state.play(Move.step(board.index_of("E5"), board.index_of("E6")))
    copy = state.copy()
    copy.play(copy.legal_moves()[0])
    assert copy.kernel.plies == 4 and state.kernel.plies == 3
