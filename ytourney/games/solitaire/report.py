"""Run a puzzle's goals through the solver and word what was proved, for people and as JSON."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ytourney.games.solitaire.puzzle import PuzzleError, format_move, make_puzzle, replay
from ytourney.games.solitaire.render import SOLVE_MARK, diagram, svg
from ytourney.games.solitaire.solver import Result, solve
from ytourney.safe_files import open_file, write_file


@dataclass
class Report:
    """The results of every goal, as text and as a JSON-ready dict."""

    text: str
    data: dict[str, Any]
    results: list[Result]


def progress_line(depth: int, nodes: int, entries: int, seconds: float) -> None:
    """A one-line progress display on stderr: depth, positions, rate and table size."""
    rate = nodes / seconds if seconds > 0 else 0.0
    sys.stderr.write(f"\r  depth {depth}: {nodes:,} positions, {rate:,.0f}/s, table {entries:,}, {seconds:.0f}s ")
    sys.stderr.flush()


def proved(result: Result) -> str:
    """What the search proved, in one sentence."""
    if result.impossible is not None:
        return f"impossible: {result.impossible}"
    if result.minimum is not None:
        below = result.minimum - 1
        if below < 1 or below not in result.exhausted:
            return f"minimum {result.minimum} (fewer moves are ruled out by the bounds alone)"
        return (f"minimum {result.minimum} (no solution in {below}: exhaustive, "
                f"{result.exhausted[below]:,} positions)")
    best = f"best found {len(result.solution)}" if result.solution else "no solution found"
    return f"{best}; lower bound {result.lower_bound} (no solution in {result.lower_bound - 1} moves)"


def run(name: str, goal: str | None, start: str | None, max_moves: int, seconds: float | None, kernel: str,
        progress: Callable[[int, int, int, float], None] | None = None, svg_path: Path | None = None) -> Report:
    """Solve every goal of the puzzle and describe the outcome."""
    puzzle = make_puzzle(name, goal, start)
    board = puzzle.board
    lines = [f"{puzzle.name}: {len(puzzle.start)} stones", diagram(board, puzzle.start)]
    data: dict[str, Any] = {"puzzle": puzzle.name, "start": [board.names[c] for c in sorted(puzzle.start)],
                            "goals": []}
    results = []
    deadline = None if seconds is None else time.monotonic() + seconds  # the whole command's bound, shared by the goals
    for index, g in enumerate(puzzle.goals):
        share = None if deadline is None else max(0.0, deadline - time.monotonic()) / (len(puzzle.goals) - index)
        result = solve(puzzle, g, max_moves=max_moves, seconds=share, kernel=kernel, progress=progress)
        if progress is not None:
            sys.stderr.write("\n")
        results.append(result)
        moves = [format_move(board, m) for m in result.solution]
        lines.append(f"\ngoal {g.name}: {proved(result)}")
        if moves:
            end = replay(board, puzzle.start, result.solution)
            lines.append(f"  solution ({len(moves)} moves, replayed): {' '.join(moves)}")
            lines.append(diagram(board, end, marks=end))
        if result.exhausted:
            lines.append("  no solution in " + ", ".join(f"{d} ({n:,} position{'s' if n != 1 else ''})"
                                                      for d, n in result.exhausted.items()))
        lines.append(f"  {result.nodes:,} positions, table {result.table:,}, {result.seconds:.1f}s, "
                     f"{result.kernel} kernel")
        if result.note:
            lines.append(f"  note: {result.note}")
        data["goals"].append({
            "goal": g.name,
            "targets": [[board.names[c] for c in sorted(t)] for t in g.targets],
            "minimum": result.minimum,
            "lower_bound": result.lower_bound,
            "impossible": result.impossible,
            "solution": moves,
            "proved": result.minimum is not None or result.impossible is not None,
            "proof": proved(result),
            "exhausted": {str(k): v for k, v in result.exhausted.items()},
            "positions": result.nodes,
            "seconds": round(result.seconds, 3),
            "kernel": result.kernel,
            "note": result.note,
        })
    first = next((r for r in results if r.solution), None)
    if svg_path is not None:
        goal_cells = {c for g in puzzle.goals for t in g.targets for c in t}
        end = replay(board, puzzle.start, first.solution) if first else puzzle.start
        drawing = svg(board, [("start", puzzle.start), ("end", end)], goal_cells)
        write_file(svg_path, drawing, error=PuzzleError)  # never through a link, into a FIFO or a device
    return Report("\n".join(lines), data, results)


def svg_replaceable(path: Path) -> bool:
    """True when `--svg` may replace `path`: an empty file or one whose opening carries solve's mark (read without
    following a link)."""
    fd = open_file(path, "r", error=PuzzleError)
    try:
        head = os.read(fd, 512)
    finally:
        os.close(fd)
    return not head.strip() or (head.lstrip().startswith(b"<svg") and SOLVE_MARK.encode() in head)
