"""The slide games' C core (_slidecore) against the pure-Python kernel of Quinta and of Sexta, side by side over
seeded random games: the same legal actions in the same order at every ply, the same endings, cells, masks, winning
stones, apply/undo, junk ints; the same evaluation, win in one, urgent actions, playout slide and rollout (value and
slides) for one seed; and the state's fast path (the core's own Moves). Each game's own endings are in its
test_<game>_core.py. Skipped where the core is not built (it is loaded directly, so YTOURNEY_PURE_PYTHON=1 runs
these too)."""

from __future__ import annotations

import random

import pytest
from kernel_checks import check_same_rollout, check_same_search
from slide_checks import SlideCore, check_state_plays_the_cores_moves

from ytourney.games.kernel import ONGOING, encode_path
from ytourney.games.quinta.kernel import QuintaKernel
from ytourney.games.sexta.kernel import SextaKernel
from ytourney.games.slide_tables import slide_action

core = pytest.importorskip("ytourney.games._slidecore")

SIDES = {"quinta": SlideCore("quinta", QuintaKernel, core), "sexta": SlideCore("sexta", SextaKernel, core)}
GAMES = pytest.mark.parametrize("name", list(SIDES))
VARIANTS = {
    "quinta": lambda seed: {"corners": ("black", "white")[seed % 2]},
    "sexta": lambda seed: {"start": ("between", "corners")[seed % 2], "rings": seed % 4 != 1},
}
"""The rules a seed's game is played under, besides its move limit."""
WIN_CHANCE = {"quinta": 0.3, "sexta": 0.6}
"""How often a random game takes a win in one when there is one (Sexta's chains form rarely by chance)."""
ROLLOUT_VALUES = {"quinta": 50, "sexta": 5}
"""Fewer distinct values than this over 300 rollouts from the start would mean the seeds are not used."""


@GAMES
@pytest.mark.parametrize("seed", range(30))
def test_random_games_agree_ply_by_ply(name: str, seed: int) -> None:
    side = SIDES[name]
    knowledge = side.knowledge
    py, c = side.start((40, 200, 1000)[seed % 3], **VARIANTS[name](seed))
    rng = random.Random(seed)
    while True:
        side.same(py, c)
        for action in [*side.junk, *rng.sample(side.pairs, 12), *py.legal_actions()[:6]]:
            assert c.is_legal(action) is py.is_legal(action), action
        assert c.key() == c.clone().key()
        if py.result != ONGOING:
            break
        win = check_same_search(knowledge, c, py, rng)
        assert knowledge.urgent_actions(c) == knowledge.urgent_actions(py)
        assert c.win_for(3 - c.to_move) == knowledge.win_for(py, 3 - py.to_move)
        if rng.random() < 0.2:  # a short excursion with a pie ply, taken back
            c.count_swap()
            py.count_swap()
            for action in py.legal_actions()[:3]:
                py.apply(action)
                c.apply(action)
                side.same(py, c)
                py.undo()
                c.undo()
            py.undo()
            c.undo()
            side.same(py, c)
        action = win if win is not None and rng.random() < WIN_CHANCE[name] else rng.choice(py.legal_actions())
        py.apply(action)
        c.apply(action)


@GAMES
def test_the_rollouts_agree_on_many_seeds_from_the_start(name: str) -> None:
    side = SIDES[name]
    py, c = side.start(1000)
    values = {check_same_rollout(side.knowledge, c, py, seed, 16) for seed in range(300)}
    side.same(py, c)
    assert len(values) > ROLLOUT_VALUES[name]


@GAMES
def test_a_stuck_stone_is_dropped_from_the_draw_alike(name: str) -> None:
    side = SIDES[name]
    knowledge, n = side.knowledge, side.board.index_of
    corner = n("A1")
    wall = [*side.board.neighbors[corner]]
    py, c = side.kernels(1 << corner | 1 << n("E5"), sum(1 << w for w in wall) | 1 << n("J8"))
    for seed in range(50):
        assert (knowledge.playout_action(c, random.Random(seed)) == knowledge.playout_action(py, random.Random(seed))
                != slide_action(corner, wall[0]))
        assert knowledge.rollout(c, random.Random(seed), 16) == knowledge.rollout(py, random.Random(seed), 16)


@GAMES
def test_apply_refuses_an_illegal_action_and_undo_an_empty_stack(name: str) -> None:
    side = SIDES[name]
    _, c = side.start(1000)
    with pytest.raises(ValueError):
        c.apply(encode_path((0, 1)) + 2)
    with pytest.raises(IndexError):
        c.undo()
    with pytest.raises(ValueError):
        core.Kernel(side.tables(), 10, 1, 1)  # a node holding both colours


@GAMES
def test_the_state_plays_the_cores_own_moves_and_refuses_as_before(name: str) -> None:
    check_state_plays_the_cores_moves(SIDES[name])
