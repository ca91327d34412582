"""Short solutions when the minimum is not proved: a symmetric search, a beam search, and improvement by re-search.

None of these proves anything; each solution found is replayed by the solver before it is reported.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ytourney.games.solitaire.geometry import permute
from ytourney.games.solitaire.kernel import INFINITE, PyKernel

Paths = list[tuple[int, ...]]


class OutOfNodes(Exception):
    """Raised inside a search when its node allowance is spent."""


class TimeUp(Exception):
    """Raised inside a search when the command's time is up: every search stops with what it has."""


def symmetry_of(engine: PyKernel, start: int) -> tuple[int, ...] | None:
    """The symmetry of highest order (a rotation before a reflection) that keeps the start and some target."""
    identity = tuple(range(len(engine.t.jumps)))
    best, best_order = None, 1
    for perm in engine.t.symmetries:
        if perm == identity or permute(perm, start) != start:
            continue
        if not any(permute(perm, t) == t for t in engine.t.targets):
            continue
        order, image = 1, perm
        while image != identity:
            image, order = tuple(perm[c] for c in image), order + 1
        if order > best_order:
            best, best_order = perm, order
    return best


def play_path(engine: PyKernel, pos: int, path: tuple[int, ...]) -> int | None:
    """The position after the jump chain `path`, or None where a jump is not legal."""
    if not pos >> path[0] & 1:
        return None
    jumps = engine.t.jumps
    cur = pos & ~(1 << path[0])
    for a, c in zip(path, path[1:]):
        over = next((b for b, to in jumps[a] if to == c and cur >> b & 1), None)
        if over is None or cur >> c & 1:
            return None
        cur &= ~(1 << over)
    return cur | (1 << path[-1])


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() > deadline


def symmetric(engine: PyKernel, start: int, perm: tuple[int, ...], max_moves: int, nodes: int,
              deadline: float | None = None) -> Paths | None:
    """The shortest solution that keeps the position symmetric under `perm` (a move and its images in turn).

    Iterative deepening on moves with the kernel's admissible bound, so the first found is the shortest
    symmetric one, within `nodes` positions and before `deadline` (None when none was found in them).
    """
    failed: dict[int, int] = {}
    count = [0]

    def search(pos: int, budget: int) -> Paths | None:
        count[0] += 1
        if count[0] > nodes or (count[0] % 256 == 0 and _past(deadline)):
            raise OutOfNodes
        if pos in engine.t.targets:
            return []
        if budget == 0 or engine.bound(pos) > budget or failed.get(pos, -1) >= budget:
            return None
        tried = set()
        for after, _, path in engine.moves(pos, -1):
            macro, here, image = [path], after, tuple(perm[c] for c in path)
            while here is not None and image != path:
                macro.append(image)
                here = play_path(engine, here, image)
                image = tuple(perm[c] for c in image)
            if here is None or here in tried or len(macro) > budget or permute(perm, here) != here:
                continue
            tried.add(here)
            rest = search(here, budget - len(macro))
            if rest is not None:
                return macro + rest
        failed[pos] = budget
        return None

    try:
        for budget in range(max(1, engine.bound(start)), max_moves + 1):
            found = search(start, budget)
            if found is not None:
                return found
    except OutOfNodes:
        pass
    return None


def _spread(engine: PyKernel, pos: int) -> int:
    """How hard a position looks: its stones, plus three for each stone with no stone next to it."""
    lonely, bits = 0, pos
    while bits:
        low = bits & -bits
        bits ^= low
        cell = low.bit_length() - 1
        if not any(pos >> over & 1 for over, _ in engine.t.jumps[cell]):
            lonely += 1
    return pos.bit_count() + 3 * lonely


def beam(engine: PyKernel, start: int, width: int, max_moves: int, deadline: float | None = None) -> Paths | None:
    """A heuristic search for a short solution: keep the `width` positions with the fewest stones after each move;
    None when it finds none, or none before `deadline`."""
    layer: list[tuple[int, int, Paths]] = [(start, -1, [])]
    seen: set[tuple[int, int]] = set()
    for _ in range(max_moves):
        children = []
        for pos, last, paths in layer:
            if _past(deadline):
                return None
            for after, end, path in engine.moves(pos, last):
                if after in engine.t.targets:
                    return [*paths, path]
                if (after, end) in seen or engine.bound(after) >= INFINITE:
                    continue
                seen.add((after, end))
                children.append((after, end, [*paths, path]))
        if not children:
            return None
        children.sort(key=lambda child: _spread(engine, child[0]))
        layer = children[:width]
    return None


def improve(engine: PyKernel, start: int, paths: Paths, allow: Callable[[int], None]) -> Paths:
    """Shorten a solution: from the position after each prefix, latest first, search for a shorter rest.

    `allow(n)` gives each search its node allowance (the kernel's progress raises OutOfNodes past it). Repeats
    until no prefix gives a shorter rest, or until the kernel's progress raises TimeUp: the shortest found so far
    is kept.
    """
    better = True
    while better:
        better = False
        positions, lasts = [start], [-1]
        for path in paths:
            nxt = play_path(engine, positions[-1], path)
            assert nxt is not None
            positions.append(nxt)
            lasts.append(path[-1])
        for i in range(len(paths) - 2, -1, -1):
            allow(engine.nodes)
            try:
                rest = engine.search(positions[i], lasts[i], len(paths) - i - 1)
            except OutOfNodes:
                rest = None
            except TimeUp:
                return paths
            if rest is not None:
                paths, better = paths[:i] + [tuple(p) for p in rest], True
                break
    return paths
