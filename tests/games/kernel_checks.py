"""Checks the games' kernel tests share: random play on one kernel or on a C kernel and a Python one alike, apply
then undo restoring a snapshot, a win in one found exactly when one exists, a rollout whose moves replay, and the
side-by-side comparison of a C core's search knowledge with the Python kernel's for one seed. Each game's tests
keep their own positions and rules and call these."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ytourney.games.api import Color
from ytourney.games.kernel import DRAW, ONGOING

Snapshot = Callable[[Any], object]


def play_random(kernels: Sequence[Any], rng: random.Random, plies: int) -> None:
    """Up to `plies` random legal actions of the first kernel, played on every kernel alike (fewer when the game
    ends first)."""
    for _ in range(plies):
        if kernels[0].result != ONGOING:
            break
        action = rng.choice(kernels[0].legal_actions())
        for k in kernels:
            k.apply(action)


def check_apply_then_undo(k: Any, rng: random.Random, depth: int, snapshot: Snapshot) -> None:
    """Up to `depth` random actions (the first followed by a pie ply taken back at once), then as many undos:
    the snapshot is as before."""
    before = snapshot(k)
    played = 0
    while k.result == ONGOING and played < depth:
        k.apply(rng.choice(k.legal_actions()))
        if played == 0:
            k.count_swap()
            k.undo()
        played += 1
    for _ in range(played):
        k.undo()
    assert snapshot(k) == before


def check_winning_action(k: Any, knowledge: Any, termination: object) -> int | None:
    """The knowledge's win in one is found exactly when some legal action ends the game by `termination`, and is one
    of them; returns it."""
    found = knowledge.winning_action(k)
    wins = []
    for action in k.legal_actions():
        k.apply(action)
        if k.termination is termination:
            wins.append(action)
        k.undo()
    assert (found is None) == (not wins) and (found is None or found in wins)
    return found


def check_rollout_replays(k: Any, knowledge: Any, rng: random.Random, plies: int, before: object,
                          snapshot: Snapshot) -> tuple[float, list[int]]:
    """A rollout of `plies` leaves the kernel at `before`, its moves then replay legally on it (the kernel is left
    at their end), and a decided playout scores its end; returns the value and the moves."""
    trace: list[int] = []
    value = knowledge.rollout(k, rng, plies, trace)
    assert 0.0 <= value <= 1.0 and snapshot(k) == before
    for action in trace:
        assert k.is_legal(action)
        k.apply(action)
    if k.result != ONGOING:
        assert value == (0.5 if k.result == DRAW else float(k.result == Color.BLACK))
    return value, trace


def check_same_rollout(knowledge: Any, c: Any, py: Any, seed: int, plies: int) -> float:
    """Rollouts of `plies` from one seed give the same value and the same moves on the C and the Python kernel;
    returns the value."""
    c_trace: list[int] = []
    py_trace: list[int] = []
    value = knowledge.rollout(c, random.Random(seed), plies, c_trace)
    assert knowledge.rollout(py, random.Random(seed), plies, py_trace) == value
    assert c_trace == py_trace
    return value


def check_same_search(knowledge: Any, c: Any, py: Any, rng: random.Random) -> int | None:
    """The C and the Python kernel of one position get the same evaluation, win in one, playout move and rollout
    (of 0, 1, 16 or 40 plies) for a seed drawn from `rng`; returns the win in one."""
    assert knowledge.evaluate(c) == knowledge.evaluate(py)
    win = knowledge.winning_action(c)
    assert win == knowledge.winning_action(py)
    draw = rng.getrandbits(32)
    assert knowledge.playout_action(c, random.Random(draw)) == knowledge.playout_action(py, random.Random(draw))
    check_same_rollout(knowledge, c, py, draw, rng.choice((0, 1, 16, 40)))
    return win
