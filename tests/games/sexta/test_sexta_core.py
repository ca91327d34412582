"""Sexta's C core against the pure-Python kernel on Sexta's own endings: a chain, and a ring only with `rings`, end
the game alike. The side-by-side checks both slide games share (random games, rollouts, refusals, the state's fast
path) are in tests/games/test_slide_cores.py. Skipped where the core is not built (it is loaded directly, so
YTOURNEY_PURE_PYTHON=1 runs these too)."""

from __future__ import annotations

import pytest
from slide_checks import SlideCore

from ytourney.games.api import Color
from ytourney.games.kernel import DRAW, ONGOING
from ytourney.games.sexta.kernel import CHAIN, SextaKernel
from ytourney.games.slide_tables import slide_action

core = pytest.importorskip("ytourney.games._slidecore")

SIDE = SlideCore("sexta", SextaKernel, core)


@pytest.mark.parametrize("rings", [True, False])
def test_a_chain_and_a_ring_end_the_game_alike_on_both_kernels(rings: bool) -> None:
    n = SIDE.board.index_of
    knowledge = SIDE.knowledge
    rules = SIDE.game.parse_rules({"rings": rings})
    white = sum(1 << n(x) for x in ["A9", "I1", "M5", "J8", "K7", "L6"])
    for black, slide in (("A3 B3 C3 C2 C1 H1", ("H1", "D1")), ("B2 C2 D3 D4 C4 A3", ("A3", "B3"))):
        py, c = SIDE.kernels(sum(1 << n(x) for x in black.split()), white, rules)
        assert knowledge.winning_action(c) == knowledge.winning_action(py) if rings else True
        for k in (py, c):
            k.apply(slide_action(n(slide[0]), n(slide[1])))
        SIDE.same(py, c)
    assert (c.result, c.termination) == ((Color.BLACK, CHAIN) if rings else (ONGOING, None)) and c.result != DRAW
