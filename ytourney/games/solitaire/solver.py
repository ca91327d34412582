"""Solve a puzzle for its fewest moves: iterative deepening on moves, proved minimal, with honest bounds."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ytourney.games.api import Move
from ytourney.games.solitaire import finder
from ytourney.games.solitaire.geometry import class_pagoda, distance_pagoda, geometry, mask, permute
from ytourney.games.solitaire.kernel import INFINITE, PyKernel, Tables
from ytourney.games.solitaire.puzzle import Goal, Puzzle, PuzzleError, format_move, replay

Progress = Callable[[int, int, int, float], None]
"""Called now and then with (depth, nodes, table entries, seconds so far)."""


PROVE_SHARE = 0.75
"""The share of a goal's seconds the proof may use; the short-solution search has the rest (and what the proof left)."""


@dataclass
class Result:
    """What a search proved about one goal."""

    goal: str
    minimum: int | None = None
    """The proved fewest moves, or None when the search stopped first."""
    lower_bound: int = 0
    """No solution has fewer moves (every shallower depth was searched exhaustively, or cut by a bound)."""
    solution: list[Move] = field(default_factory=list)
    """The best solution found (minimal when `minimum` is set); empty if none was found."""
    impossible: str | None = None
    """Why no sequence of moves can reach the goal, when that was shown."""
    nodes: int = 0
    table: int = 0
    seconds: float = 0.0
    kernel: str = "python"
    note: str = ""
    """What changed the search on the way, in words (the compiled kernel lacked memory, memory ran out)."""
    exhausted: dict[int, int] = field(default_factory=dict)
    """Depth -> positions searched to prove there is no solution of that many moves."""


def tables(puzzle: Puzzle, goal: Goal) -> Tables:
    """The kernel tables for one goal: jumps, the goal's pagodas and the symmetries that keep the goal."""
    geo = geometry(puzzle.board)
    targets = tuple(mask(t) for t in goal.targets)
    pagodas = [class_pagoda(geo, c) for c in geo.classes]
    centres = sorted({c for t in goal.targets for c in t})
    pagodas += [distance_pagoda(geo, c) for c in centres]
    needs = tuple(tuple(sum(p[c] for c in t) for p in pagodas) for t in goal.targets)
    target_set = set(targets)
    keep = tuple(perm for perm in geo.symmetries
                 if {permute(perm, t) for t in targets} == target_set)
    return Tables(
        cells=puzzle.board.num_cells,
        jumps=geo.jumps,
        unjumpable=geo.unjumpable,
        pagodas=tuple(pagodas),
        targets=targets,
        needs=needs,
        symmetries=keep,
        classes=geo.classes,
        jumpers=geo.jumpers,
        near=geo.near,
    )


NO_TABLE_MEMORY = ("the compiled kernel could not get memory for its table (a memory limit?), so the pure-Python "
                   "kernel searched instead")


def make_kernel(t: Tables, kernel: str, progress: Callable[[int, int], None] | None) -> tuple[PyKernel, str]:
    """The compiled kernel when it is built and wanted, else the pure-Python one (also for 'auto' when the
    environment variable YTOURNEY_PURE_PYTHON=1 asks for pure Python, or when the compiled one cannot get its
    table's memory), with a note saying why 'auto' fell back ('' when it did not)."""
    pure = os.environ.get("YTOURNEY_PURE_PYTHON", "").strip().lower() not in ("", "0", "false", "no")
    note = ""
    if kernel == "c" or (kernel == "auto" and not pure):
        try:
            from ytourney.games.solitaire.ckernel import CKernel
        except ImportError:
            if kernel == "c":
                raise PuzzleError("the compiled solver kernel is not built; use --kernel python") from None
        else:
            try:
                return CKernel(t, progress), ""  # type: ignore[return-value]
            except MemoryError as err:
                if kernel == "c":
                    raise PuzzleError("the compiled solver kernel could not get memory for its table (a memory "
                                      "limit?); use --kernel python or allow more memory") from err
                note = NO_TABLE_MEMORY
    return PyKernel(t, progress), note


def impossible_reason(puzzle: Puzzle, goal: Goal, t: Tables, kernel: PyKernel) -> str | None:
    """Why the start can never reach any target of the goal, or None if the bounds do not rule it out."""
    start = mask(puzzle.start)
    if kernel.bound(start) < INFINITE:
        return None
    geo_classes = len(geometry(puzzle.board).classes)
    values = kernel.values(start)
    reasons = []
    for target, needs in zip(goal.targets, t.needs):
        for i, (value, need) in enumerate(zip(values, needs)):
            if value < need:
                names = " ".join(puzzle.board.names[c] for c in sorted(target))
                if i < geo_classes:
                    reasons.append(f"{names}: its jump class holds {value} stones at the start and needs {need}")
                else:
                    reasons.append(f"{names}: pagoda function {i - geo_classes + 1} is {value} at the start, below "
                                   f"its {need} on the goal, and no jump raises it")
                break
    return "; ".join(reasons)


FIND_NODES = 20_000_000
"""Positions each improvement re-search of the solution finder may search."""
SYMMETRIC_SHARE = 100
"""The symmetric search (in Python, over the kernel's moves) gets FIND_NODES / SYMMETRIC_SHARE positions."""


def solve(puzzle: Puzzle, goal: Goal, max_moves: int = 30, seconds: float | None = None, kernel: str = "auto",
          progress: Progress | None = None, beam_width: int = 1000, find_nodes: int = FIND_NODES) -> Result:
    """Prove the fewest moves from the puzzle's start to the goal, or the best bound reached; all within `seconds`.

    The proof may use PROVE_SHARE of `seconds`; when it ends without the minimum, `find` looks for a short solution
    in the time left (`beam_width` 0 and `find_nodes` 0 skip it). Running out of memory ends a search as time does.
    """
    if max_moves < 1:
        raise PuzzleError(f"max moves must be at least 1, got {max_moves!r}")
    began = time.monotonic()
    deadline = None if seconds is None else began + seconds
    state: dict[str, float] = {"depth": 0, "cap": -1,
                               "until": INFINITE if seconds is None else began + seconds * PROVE_SHARE}

    def tick(nodes: int, entries: int) -> None:
        now = time.monotonic()
        if progress is not None:
            progress(int(state["depth"]), nodes, entries, now - began)
        if now > state["until"]:
            raise finder.TimeUp
        if state["cap"] >= 0 and nodes > state["cap"]:
            raise finder.OutOfNodes

    t = tables(puzzle, goal)
    engine, note = make_kernel(t, kernel, tick)
    result = Result(goal=goal.name, kernel=engine.name, note=note)
    reason = impossible_reason(puzzle, goal, t, engine)
    start = mask(puzzle.start)
    if reason is not None:
        result.impossible = reason
        return result
    depth = max(1, engine.bound(start))
    result.lower_bound = depth
    most = len(puzzle.start) - min(len(target) for target in goal.targets)  # every move removes a stone
    try:
        while depth <= min(max_moves, most):
            state["depth"] = depth
            before = engine.nodes
            paths = engine.search(start, -1, depth)
            if paths is not None:
                result.minimum = depth
                result.solution = [Move.jump(p) for p in paths]
                break
            result.exhausted[depth] = engine.nodes - before
            depth += 1
            result.lower_bound = depth
    except finder.TimeUp:
        pass
    except MemoryError:
        _forget(engine)
        result.note = _joined(result.note, f"memory ran out at depth {depth}, so the proof stopped there")
    if result.minimum is None and depth > most:  # every length a solution could have was searched
        result.impossible = (f"a move removes at least one stone, so {len(puzzle.start)} stones allow at most {most} "
                             f"moves to leave {len(puzzle.start) - most}, and no sequence of {most} or fewer "
                             "reaches the goal")
    elif result.minimum is None and (beam_width or find_nodes):
        state["depth"], state["until"] = 0, INFINITE if deadline is None else deadline

        def allow(nodes: int) -> None:
            state["cap"] = nodes + find_nodes

        try:
            found = find(engine, start, max_moves, beam_width, find_nodes, allow, deadline)
        except MemoryError:
            _forget(engine)
            found = None
            result.note = _joined(result.note, "memory ran out during the search for a short solution")
        result.solution = [Move.jump(p) for p in found or []]
        if result.solution and len(result.solution) == result.lower_bound:
            result.minimum = result.lower_bound  # found as short as the exhaustive search proved necessary
    result.nodes, result.table = engine.nodes, engine.table_size() if hasattr(engine, "table_size") else len(
        engine.table)
    result.seconds = time.monotonic() - began
    if result.solution:
        check(puzzle, goal, result.solution)
    return result


def find(engine: PyKernel, start: int, max_moves: int, beam_width: int, find_nodes: int,
         allow: Callable[[int], None], deadline: float | None = None) -> list[tuple[int, ...]] | None:
    """The shortest of a symmetric search's and a beam search's solutions, then shortened by re-searching; each
    stops at `deadline` (a time.monotonic() value) with what it has."""
    found = []
    perm = finder.symmetry_of(engine, start)
    if perm is not None and find_nodes:
        found.append(finder.symmetric(engine, start, perm, max_moves, find_nodes // SYMMETRIC_SHARE, deadline))
    if beam_width:
        found.append(finder.beam(engine, start, beam_width, max_moves, deadline))
    best = min((f for f in found if f is not None), key=len, default=None)
    if best is None or not find_nodes:
        return best
    return finder.improve(engine, start, best, allow)


def _forget(engine: PyKernel) -> None:
    """Free the pure-Python kernel's table after a MemoryError (the C kernel's is fixed in size)."""
    if isinstance(engine.table, dict):
        engine.table.clear()


def _joined(note: str, more: str) -> str:
    return f"{note}; {more}" if note else more


def check(puzzle: Puzzle, goal: Goal, solution: list[Move]) -> None:
    """Replay a solution from the start and insist it ends on a target of the goal."""
    end = replay(puzzle.board, puzzle.start, solution)
    if end not in goal.targets:
        moves = " ".join(format_move(puzzle.board, m) for m in solution)
        raise PuzzleError(f"solution {moves!r} does not reach goal {goal.name!r}")
