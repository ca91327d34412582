"""Quinta's C core against the pure-Python kernel on Quinta's own ending: a five ends the game alike. The side-by-side
checks both slide games share (random games, rollouts, refusals, the state's fast path) are in
tests/games/test_slide_cores.py. Skipped where the core is not built (it is loaded directly, so
YTOURNEY_PURE_PYTHON=1 runs these too)."""

from __future__ import annotations

import pytest
from slide_checks import SlideCore

from ytourney.games.api import Color
from ytourney.games.kernel import DRAW
from ytourney.games.quinta.kernel import LINE, QuintaKernel
from ytourney.games.slide_tables import slide_action

core = pytest.importorskip("ytourney.games._slidecore")

SIDE = SlideCore("quinta", QuintaKernel, core)


def test_a_five_ends_the_game_alike_on_both_kernels() -> None:
    n = SIDE.board.index_of
    py, c = SIDE.kernels(sum(1 << n(x) for x in ["C5", "D5", "E5", "E4", "H3"]), 1 << n("A9") | 1 << n("L4"))
    for k in (py, c):
        k.apply(slide_action(n("H3"), n("E3")))
    SIDE.same(py, c)
    assert (c.result, c.termination) == (Color.BLACK, LINE) and c.result != DRAW
