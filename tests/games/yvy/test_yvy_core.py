"""YvY's C core against the pure-Python kernel, side by side: the same legal actions at every ply, the same endings,
score and cells, apply/undo, junk ints refused, and the same rollouts (values and stones) for the same seeds.

The core is imported directly (not through YTOURNEY_PURE_PYTHON's loader), so these tests run on both paths; they
are skipped where the core is not built."""

from __future__ import annotations

import random

import pytest

from ytourney.games.api import PASS, MoveKind
from ytourney.games.front import KernelState
from ytourney.games.kernel import ONGOING, PASS_ACTION, encode_path
from ytourney.games.yvy.ckernel import kernel_class
from ytourney.games.yvy.game import GAME
from ytourney.games.yvy.kernel import YvyKernel
from ytourney.games.yvy.knowledge import YvyKnowledge
from ytourney.games.yvy.scoring import count

core = pytest.importorskip("ytourney.games.yvy._yvycore")
CKernel = kernel_class(core)
BLACK, WHITE = 1, 2


def view(kernel: object) -> tuple[object, ...]:
    """Everything both kernels show of a position (keys differ between them: each is compared within its class)."""
    return (kernel.legal_actions(), kernel.result, kernel.termination, kernel.score, list(kernel.cells),
            kernel.to_move, kernel.plies, kernel.passes, kernel.loop_at, kernel.empty_count, kernel.placements(),
            kernel.first_closing(BLACK), kernel.first_closing(WHITE), kernel.closing_cells(BLACK),
            kernel.closing_cells(WHITE), kernel.count_score())


def twins(spec: str, limit: int) -> tuple[YvyKernel, object]:
    board = GAME.parse_board(spec)
    return YvyKernel(board, limit), CKernel(board, limit)


@pytest.mark.parametrize("size", [3, 4, 5, 7, 9, 12])
def test_random_games_agree_ply_by_ply_and_undo_back(size: int) -> None:
    rng = random.Random(size)
    for game in range(4 if size < 9 else 2):
        py, c = twins(f"hex:{size}", rng.choice([1000, 1000, 25]))
        pass_rate = (0.0, 0.02, 0.2, 0.05)[game]
        keys: dict[int, int] = {}
        back: dict[int, int] = {}
        while True:
            assert view(py) == view(c)
            keys.setdefault(py.key(), c.key())
            back.setdefault(c.key(), py.key())
            assert keys[py.key()] == c.key() and back[c.key()] == py.key()  # a position is its key in each class
            if c.result != ONGOING:
                break
            if py.plies == 1 and rng.random() < 0.5:
                py.count_swap()
                c.count_swap()
                continue
            if py.plies > 2 and rng.random() < 0.1:
                py.undo()
                c.undo()
                continue
            action = PASS_ACTION if rng.random() < pass_rate else rng.choice(py.legal_actions())
            py.apply(action)
            c.apply(action)
        twin = c.clone()
        while py.plies:
            py.undo()
            c.undo()
            assert view(py) == view(c)
        assert twin.result != ONGOING and c.result == ONGOING


def test_every_ending_agrees() -> None:
    ends = set()
    rng = random.Random(3)
    for game in range(40):
        py, c = twins("hex:3", (1000, 12)[game % 2])
        while c.result == ONGOING:
            action = PASS_ACTION if rng.random() < 0.15 else rng.choice(py.legal_actions())
            py.apply(action)
            c.apply(action)
        assert view(py) == view(c)
        ends.add(c.termination)
        if c.score is not None:
            assert c.count == py.count and c.count.score == tuple(map(int, c.score))
    assert len(ends) == 3  # a loop, the count, the move limit


def test_rollouts_agree_for_the_same_seeds() -> None:
    rng = random.Random(9)
    for size in (3, 4, 6, 12):
        py, c = twins(f"hex:{size}", 1000)
        for _ in range(12):
            for _ in range(rng.randrange(0, 6)):
                if c.result == ONGOING:
                    action = rng.choice(py.placements() or [PASS_ACTION])
                    py.apply(action)
                    c.apply(action)
            key = c.key()
            for plies in (1000, 5, 0, -3):
                seed = rng.getrandbits(64)
                traces: tuple[list[int], list[int]] = ([], [])
                assert py.rollout(seed, plies, traces[0]) == c.rollout(seed, plies, traces[1])
                assert traces[0] == traces[1] and len(traces[0]) <= max(plies, 0)
            assert c.key() == key and view(py) == view(c)


def test_a_full_board_rollout_is_counted_alike() -> None:
    board = GAME.parse_board("hex:3")
    counted = 0
    for seed in range(200):
        py, c = YvyKernel(board, 1000), CKernel(board, 1000)
        value = py.rollout(seed, 1000)
        assert c.rollout(seed, 1000) == value
        winner, _, cells = py.first_loop(seed, 1000)
        counted += not winner
        if not winner:
            black, white = count(py.geo, cells).score
            assert value == (0.5 if black == white else float(black > white))
    assert counted


def test_the_count_agrees_on_random_positions() -> None:
    rng = random.Random(5)
    for size in (3, 5, 8, 12):
        board = GAME.parse_board(f"hex:{size}")
        for fill in (0.0, 0.3, 0.6, 0.9, 1.0):
            cells = list(range(board.num_cells))
            rng.shuffle(cells)
            stones = cells[:int(fill * len(cells))]
            black, white = stones[::2], stones[1::2]
            py = YvyKernel.setup(board, black, white, BLACK)
            c = CKernel.setup(board, black, white, BLACK)
            assert c.count_score() == count(py.geo, py.cells).score == py.count_score()
            assert view(py) == view(c)


def test_the_move_limit_and_the_swap() -> None:
    py, c = twins("hex:5", 3)
    for kernel in (py, c):
        kernel.apply(0)
        kernel.count_swap()
        assert kernel.plies == 2 and kernel.to_move == BLACK and kernel.result == ONGOING
        kernel.apply(PASS_ACTION)
    assert view(py) == view(c) and c.result == 0 and c.termination is py.termination
    for kernel in (py, c):
        kernel.undo()
        kernel.undo()
    assert view(py) == view(c) and c.plies == 1


def test_junk_is_refused_never_raised() -> None:
    py, c = twins("hex:3", 1000)
    for kernel in (py, c):
        kernel.apply(5)
    junk = (-1, -(2**70), c.n, PASS_ACTION + 1, PASS_ACTION - 1, 2**200, encode_path((1, 2)), encode_path((1,), 3),
            5, True, 1.0, "3", None)
    assert [py.is_legal(j) for j in junk] == [c.is_legal(j) for j in junk] == [False] * len(junk)
    assert c.is_legal(0) and c.is_legal(PASS_ACTION)
    for bad in (5, -1, 2**80, PASS_ACTION + 1, "x"):
        with pytest.raises(ValueError):
            c.apply(bad)
    assert view(py) == view(c)
    with pytest.raises(IndexError):
        CKernel(GAME.parse_board("hex:3"), 10).undo()
    with pytest.raises(ValueError):
        c.first_closing(3)
    with pytest.raises(ValueError):
        CKernel.setup(GAME.parse_board("hex:3"), [1], [1])


def test_the_front_plays_alike_on_both_kernels() -> None:
    board = GAME.parse_board("hex:4")
    rules = GAME.parse_rules({"pie": True, "max_plies": 60})
    for seed in range(6):
        on_core = GAME.new_state(board, rules)
        on_python = GAME.new_state(board, rules)
        on_python.kernel = YvyKernel(board, rules.max_plies)
        on_core.kernel = CKernel(board, rules.max_plies)
        rng = random.Random(seed)
        while not on_core.is_over:
            moves = on_core.legal_moves()
            assert moves == KernelState.legal_moves(on_python) == on_python.legal_moves() and on_core.cells == on_python.cells
            move = rng.choice([m for m in moves if m.kind is not MoveKind.PASS] or [PASS])
            assert on_core.play(move) == on_python.play(move)
        assert on_core.outcome == on_python.outcome and on_core.end_reason() == on_python.end_reason()
        assert on_core.loop_stones() == on_python.loop_stones()


def test_search_knowledge_agrees() -> None:
    knowledge = YvyKnowledge()
    rng = random.Random(2)
    for _ in range(10):
        py, c = twins("hex:5", 1000)
        for _ in range(rng.randrange(0, 50)):
            action = rng.choice(py.placements() or [PASS_ACTION])
            py.apply(action)
            c.apply(action)
            if c.result != ONGOING:
                break
        for method in ("search_actions", "urgent_actions", "winning_action", "evaluate"):
            assert getattr(knowledge, method)(py) == getattr(knowledge, method)(c), method
        seed = rng.getrandbits(32)
        assert knowledge.rollout(py, random.Random(seed), 400) == knowledge.rollout(c, random.Random(seed), 400)
