"""The slide core's one-ply look (Quinta, Sexta): `one_ply_values` and `search_actions` of the C kernel give, to the
bit, what the base knowledge computes on the pure-Python kernel, leave the kernel as found, and refuse a bad action
by name; a core built before them is not loaded. Skipped where the core is not built or predates them (it is loaded
directly, so YTOURNEY_PURE_PYTHON=1 runs these too)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from slide_checks import SlideCore, snapshot

from ytourney.games.cores import PURE_PYTHON_VARIABLE, load_core
from ytourney.games.kernel import ONGOING, encode_path
from ytourney.games.knowledge import Knowledge
from ytourney.games.quinta.kernel import QuintaKernel
from ytourney.games.sexta.kernel import SextaKernel
from ytourney.games.slide_tables import CORE_METHODS

core = pytest.importorskip("ytourney.games._slidecore")
if not all(hasattr(core.Kernel, name) for name in CORE_METHODS):
    pytest.skip("this checkout's slide core predates the one-ply look (python setup.py build_ext --inplace)",
                allow_module_level=True)

SIDES = {"quinta": SlideCore("quinta", QuintaKernel, core), "sexta": SlideCore("sexta", SextaKernel, core)}
GAMES = pytest.mark.parametrize("name", list(SIDES))
VARIANTS = {
    "quinta": lambda seed: {"corners": ("black", "white")[seed % 2]},
    "sexta": lambda seed: {"start": ("between", "corners")[seed % 2], "rings": seed % 4 != 1},
}
"""The rules a seed's game is played under, besides its move limit."""
QUICK = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def bits_of(values: list[float]) -> list[str]:
    """The exact floats (`==` would take -0.0 for 0.0)."""
    return [value.hex() for value in values]


def walk(side: SlideCore, seed: int, plies: int, limit: int) -> tuple[Any, Any]:
    """Both kernels after up to `plies` moves of a game under a move limit, half of them the core's best one ply
    deep (so that wins in one and threats come up), half random."""
    py, c = side.start(limit, **VARIANTS[side.game.name](seed))
    rng = random.Random(seed)
    for _ in range(plies):
        if py.result != ONGOING:
            break
        action = c.search_actions(1)[0] if rng.random() < 0.5 else rng.choice(py.legal_actions())
        py.apply(action)
        c.apply(action)
    return py, c


def check_same_look(side: SlideCore, py: Any, c: Any) -> list[float]:
    """The C kernel's one-ply values and search actions are the Python kernel's, and both kernels are left as found;
    returns the values."""
    knowledge = side.knowledge
    legal = py.legal_actions()
    before = snapshot(c), snapshot(py)
    values = knowledge.one_ply_values(c, legal)
    assert bits_of(values) == bits_of(knowledge.one_ply_values(py, legal))
    assert knowledge.search_actions(c) == knowledge.search_actions(py) == Knowledge.search_actions(knowledge, c)
    for breadth in (-1, 0, 1, 3, 8, len(legal), len(legal) + 1):
        order = sorted(range(len(legal)), key=values.__getitem__, reverse=True)[:breadth]
        expected = legal if breadth <= 0 or len(legal) <= breadth else [legal[i] for i in order]
        assert c.search_actions(breadth) == expected
    assert (snapshot(c), snapshot(py)) == before
    return values


@GAMES
@QUICK
@given(st.integers(0, 10_000), st.integers(0, 120), st.sampled_from([1, 2, 1000]))
def test_the_cores_one_ply_look_is_pythons_to_the_bit(name: str, seed: int, plies: int, extra: int) -> None:
    side = SIDES[name]
    py, c = walk(side, seed, plies, max(plies + extra, 20))  # extra 1: every slide but a win draws at the limit
    check_same_look(side, py, c)


@GAMES
def test_wins_losses_draws_and_evaluations_all_agree_along_games(name: str) -> None:
    side = SIDES[name]
    seen = set()
    for seed in range(12):
        py, c = side.start(50, **VARIANTS[name](seed))
        rng = random.Random(seed)
        while py.result == ONGOING:
            values = check_same_look(side, py, c)
            seen |= {value if value in (0.0, 0.5, 1.0) else "evaluation" for value in values}
            action = c.search_actions(1)[0] if rng.random() < 0.5 else rng.choice(py.legal_actions())
            py.apply(action)
            c.apply(action)
        if seen == {0.0, 0.5, 1.0, "evaluation"}:
            break
    assert seen == {0.0, 0.5, 1.0, "evaluation"}


@GAMES
def test_a_bad_action_is_refused_by_name_and_the_kernel_left_as_found(name: str) -> None:
    side = SIDES[name]
    py, c = side.start(1000)
    legal = c.legal_actions()
    before = snapshot(c)
    for bad in (encode_path((0, 1)) + 2, -1, True, "1", None, legal[0] + (1 << 40)):
        with pytest.raises(ValueError, match=f"action {bad!r} is not legal here"):
            c.one_ply_values([*legal[:3], bad])
    c.apply(legal[0])
    with pytest.raises(ValueError, match=f"action {legal[1]!r} is not legal here"):  # the other side's slide now
        c.one_ply_values(legal[1:2])
    c.undo()
    with pytest.raises(TypeError, match="one_ply_values expects a sequence of actions"):
        c.one_ply_values(3)
    with pytest.raises(TypeError):
        c.search_actions("8")
    assert snapshot(c) == before
    assert c.one_ply_values([]) == [] and c.one_ply_values(tuple(legal[:2])) == side.knowledge.one_ply_values(
        py, legal[:2])


@GAMES
def test_a_finished_game_has_no_search_actions_and_values_nothing(name: str) -> None:
    side = SIDES[name]
    py, c = walk(side, 3, 400, 20)
    assert c.result != ONGOING
    assert c.search_actions(8) == [] == side.knowledge.search_actions(py)
    assert c.one_ply_values([]) == []


def test_a_core_built_before_the_one_ply_look_is_not_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    assert load_core("ytourney.games._slidecore", CORE_METHODS) is core
    assert load_core("ytourney.games._slidecore", (*CORE_METHODS, "a_method_of_a_later_source")) is None
