"""Tetra's C core against the pure-Python kernel, side by side over seeded random games: the same legal actions in
the same order at every ply, the same endings, cells, stones in hand, figure counts, keys of equal positions,
apply/undo, junk ints; the same evaluation, win in one, playout move and rollout (value and moves) for one seed.
Skipped where the core is not built (it is loaded directly, so YTOURNEY_PURE_PYTHON=1 runs these too)."""

from __future__ import annotations

import random

import pytest
from kernel_checks import check_same_rollout, check_same_search, play_random

from ytourney.errors import YTourneyError
from ytourney.games.api import Color, Termination
from ytourney.games.kernel import NODE_LIMIT, ONGOING, PASS_ACTION, encode_path
from ytourney.games.registry import get_game
from ytourney.games.tetra import ckernel
from ytourney.games.tetra.ckernel import build_tables, to_core
from ytourney.games.tetra.kernel import FIGURE, TetraKernel, tables
from ytourney.games.tetra.state import KNOWLEDGE

core = pytest.importorskip("ytourney.games.tetra._tetracore")

GAME = get_game("tetra")
BOARD = GAME.parse_board("kadon")
PY_TABLES = {lines: tables(BOARD, lines) for lines in (True, False)}
C_TABLES = {lines: build_tables(core, BOARD, lines) for lines in (True, False)}
JUNK = [-1, -(1 << 40), 1 << 80, 1 << 63, NODE_LIMIT, PASS_ACTION, PASS_ACTION + 1, BOARD.num_cells,
        encode_path((0, 1, 2)), encode_path((0, 1), 2), encode_path((0, 50)), encode_path((500, 501)),
        encode_path((0, 1)) + 2, encode_path((0, 1)) - 1, encode_path((0, 1)) | 1 << 40, True, False, 1.0, "1", None]


def counts(k: TetraKernel, colour: int) -> bytes:
    """The Python kernel's bit-sliced figure counts as one byte a figure (the core's form)."""
    ones, twos = k.ones[colour], k.twos[colour]
    return bytes((ones >> f & 1) | (twos >> f & 1) << 1 for f in range(len(k.t.figures)))


def same(py: TetraKernel, c: object) -> None:
    """Every observable of the two kernels agrees."""
    assert c.legal_actions() == py.legal_actions()
    assert (c.to_move, c.plies, c.result, c.termination, c.score) == (py.to_move, py.plies, py.result,
                                                                     py.termination, py.score)
    assert (c.cells, c.hand, c.masks, c.win) == (py.cells, py.hand, py.masks, py.win)
    assert (c.figure_counts(1), c.figure_counts(2)) == (counts(py, 1), counts(py, 2))


def pair(seed: int, lines: bool, max_plies: int) -> tuple[TetraKernel, object]:
    return TetraKernel(PY_TABLES[lines], max_plies), core.Kernel(C_TABLES[lines], max_plies)


@pytest.mark.parametrize("seed", range(40))
def test_random_games_agree_ply_by_ply(seed: int) -> None:
    lines, limit = bool(seed % 3), (40, 120, 1000)[seed % 3]
    py, c = pair(seed, lines, limit)
    rng = random.Random(seed)
    steps = list(PY_TABLES[lines].steps)
    while True:
        same(py, c)
        legal = py.legal_actions()
        for action in [*JUNK, *rng.sample(steps, 8), *legal[:4]]:
            assert c.is_legal(action) is py.is_legal(action), action
        assert c.key() == c.clone().key()
        if py.result != ONGOING:
            break
        check_same_search(KNOWLEDGE, c, py, rng)
        if rng.random() < 0.3:  # a short excursion, taken back
            depth = 0
            while py.result == ONGOING and depth < 4:
                action = rng.choice(py.legal_actions())
                py.apply(action)
                c.apply(action)
                depth += 1
            same(py, c)
            for _ in range(depth):
                py.undo()
                c.undo()
            same(py, c)
        action = rng.choice(legal)
        if rng.random() < 0.05:
            py.count_swap()
            c.count_swap()
        py.apply(action)
        c.apply(action)


def test_rollouts_agree_seed_for_seed_and_keep_the_playout_policy() -> None:
    agreed = 0
    for seed in range(60):
        rng = random.Random(seed)
        py, c = pair(seed, True, 1000)
        play_random([py, c], rng, rng.randrange(0, 45))
        for draw in range(10):
            c_value = check_same_rollout(KNOWLEDGE, c, py, draw, 16)
            assert KNOWLEDGE.rollout(c, random.Random(draw), 16) == c_value  # the trace changes nothing
            agreed += 1
        same(py, c)  # a rollout leaves the kernel as found
    assert agreed == 600


def test_set_up_positions_end_alike() -> None:
    n = BOARD.index_of
    corner = n("A1")
    wall = list(BOARD.neighbors[corner])
    cases = [
        ({"black": [n("A1"), n("C1"), n("E1")], "white": [n("A9"), n("C9")], "in_hand": (1, 1)}, n("G1")),
        ({"black": [n("A1"), n("C1"), n("E1"), n("G2")], "white": [n("A9")]}, encode_path((n("G2"), n("G1")))),
        ({"black": [corner], "white": [*wall, n("J8")], "to_move": 2}, None),
    ]
    for setup, action in cases:
        py = TetraKernel.setup(PY_TABLES[True], 1000, **setup)
        c = to_core(py, BOARD, True, core, C_TABLES[True])
        same(py, c)
        assert KNOWLEDGE.winning_action(c) == KNOWLEDGE.winning_action(py)
        if action is None:  # the walled-in corner: White steps away and Black has no move
            action = next(a for a in py.legal_actions() if PY_TABLES[True].steps[a][0] == n("J8"))
        py.apply(action)
        c.apply(action)
        same(py, c)
        assert c.termination in (FIGURE, Termination.NO_MOVES) and c.result in (Color.BLACK, Color.WHITE)
        c.undo()
        py.undo()
        same(py, c)


def test_the_move_limit_draws_in_both_and_in_their_playouts() -> None:
    py, c = pair(0, True, 3)
    for action in (0, 1, 2):
        py.apply(action)
        c.apply(action)
    same(py, c)
    assert (c.result, c.termination) == (0, Termination.MOVE_LIMIT)
    py.undo()
    c.undo()
    assert KNOWLEDGE.rollout(c, random.Random(3), 16) == KNOWLEDGE.rollout(py, random.Random(3), 16) == 0.5


def test_the_core_refuses_bad_input_without_harm() -> None:
    c = core.Kernel(C_TABLES[True], None)
    with pytest.raises(IndexError):
        c.undo()
    for junk in JUNK:
        with pytest.raises((ValueError, TypeError)):
            c.apply(junk)
    c.apply(5)
    with pytest.raises(ValueError):
        c.apply(5)  # occupied
    clone = c.clone()
    clone.undo()
    assert c.cells[5] == 1 and clone.cells[5] == 0 and c.plies == 1 and clone.plies == 0
    with pytest.raises((ValueError, TypeError)):
        core.Kernel(C_TABLES[True], -1)
    with pytest.raises((ValueError, TypeError)):
        core.Kernel(C_TABLES[True], None, [0] * 5)
    with pytest.raises((ValueError, TypeError)):
        core.Kernel(C_TABLES[True], None, None, (11, 0))
    with pytest.raises((ValueError, TypeError)):
        core.Kernel(C_TABLES[True], None, None, None, 3)
    bad_tables = [
        (0, [], [], []), (3, [(0, 1, 2, 2)], [], [[], [], []]), (3, [(0, 1, 2, 5)], [], [[], [], []]),
        (3, [], [(0, 0, 0)], [[], [], []]), (3, [], [(1, 0, 0), (0, 1, 0)], [[], [], []]),
        (3, [], [(0, 1, 0), (0, 1, 3)], [[], [], []]), (3, [], [], [[7], [], []]), (3, [], [], [[]]),
    ]
    for args in bad_tables:
        with pytest.raises((ValueError, TypeError)):
            core.Tables(*args, FIGURE, Termination.MOVE_LIMIT, Termination.NO_MOVES)
    assert c.rollout(1, 0) == c.evaluate() and c.playout_action(1 << 70) is not None
    with pytest.raises(TypeError):
        c.rollout(1, 16, ())


def test_the_state_runs_on_the_core_with_its_moves() -> None:
    if ckernel.core is None:
        pytest.skip("YTOURNEY_PURE_PYTHON=1: the state keeps the Python kernel")
    state = GAME.new_state(BOARD, GAME.parse_rules({"pie": True}))
    assert type(state.kernel) is core.Kernel
    rng = random.Random(5)
    while not state.is_over:
        moves = state.legal_moves()
        assert [m for m in moves if not m.is_swap] == [state.move_of(a) for a in state.kernel.legal_actions()]
        state.play(rng.choice(moves))
    assert state.outcome is not None and state.legal_moves() == []


@pytest.mark.parametrize("seed", range(6))
def test_a_state_on_the_core_plays_refuses_and_ends_as_on_the_python_kernel(seed: int) -> None:
    if ckernel.core is None:
        pytest.skip("YTOURNEY_PURE_PYTHON=1: the state keeps the Python kernel")
    rules = GAME.parse_rules({"pie": seed % 2 == 0, "bridge_lines": seed % 3 != 0, "max_plies": 30 + 40 * seed})
    on_core = GAME.new_state(BOARD, rules)
    on_python = GAME.new_state(BOARD, rules)
    on_python.kernel = TetraKernel(PY_TABLES[rules.bridge_lines], rules.max_plies)
    rng = random.Random(seed)
    others = [on_core.move_of(a) for a in PY_TABLES[True].steps] + [on_core.move_of(a) for a in range(93)]
    while True:
        moves = on_core.legal_moves()
        assert moves == on_python.legal_moves()
        assert (on_core.cells, on_core.in_hand, on_core.outcome) == (on_python.cells, on_python.in_hand,
                                                                      on_python.outcome)
        for probe in [*rng.sample(others, 6), GAME.parse_move(BOARD, "swap")]:
            answers = []
            for state in (on_core, on_python):
                try:
                    answers.append(("played", state.copy().play(probe)))
                except YTourneyError as error:
                    answers.append((type(error), str(error)))
            assert answers[0] == answers[1]
        if on_core.is_over:
            break
        move = rng.choice(moves)
        if rng.random() < 0.2:  # an equal Move that is not the table's own takes the front's path
            move = GAME.parse_move(BOARD, GAME.format_move(BOARD, move))
        assert on_core.play(move) == on_python.play(move)
    assert on_core.outcome is not None and on_core.outcome.reason == on_python.outcome.reason
