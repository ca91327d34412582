"""`ytourney solve`: the Supply Line solitaires and custom ones, solved for their fewest moves."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import click

from ytourney.cli.group import AsciiInt, FiniteFloat, main


@main.command()
@click.argument("puzzle")
@click.option("--goal", default=None,
              help="NODES (e.g. 'A1,I1,A9': exactly those left), corners, one-corner, side-middles or "
                   "next-to-corners [default: the puzzle's own goals].")
@click.option("--start", default=None, help="Start nodes instead of the puzzle's own (e.g. 'E5,F5,E6').")
@click.option("--max-moves", type=AsciiInt(), default=30, show_default=True, help="Search no deeper than this.")
@click.option("--seconds", type=FiniteFloat(min=0, min_open=True), default=None,
              help="Bound the whole command: the goals share this time; each goal's proof may use three quarters "
                   "of its share, and when it proves no minimum, the search for a short solution has the rest. The "
                   "best bound and solution found are reported. Default: no bound.")
@click.option("--kernel", type=click.Choice(["auto", "c", "python"]), default="auto", show_default=True,
              help="The compiled search kernel or the pure-Python one (same answers).")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the start and the end of the first solution as an SVG file (a new file or one solve wrote).")
@click.option("--force", is_flag=True, help="Let --svg replace an existing file that solve did not write.")
def solve(puzzle: str, goal: str | None, start: str | None, max_moves: int, seconds: float | None, kernel: str,
          as_json: bool, svg_path: Path | None, force: bool) -> None:
    """Solve a peg solitaire on the kadon board for its fewest moves, and say what was proved.

    \b
    PUZZLE: supply-line, grand-supply-line, or custom (with --start and --goal).
    A move is one stone's whole chain of jumps along lines; jumped stones are removed.
    Examples:
      ytourney solve supply-line
      ytourney solve grand-supply-line --goal one-corner --seconds 600
    """
    from ytourney.games.registry import puzzle_solver

    report_module = puzzle_solver("solitaire")
    progress_line, run = report_module.progress_line, report_module.run
    if max_moves < 1:
        raise click.BadParameter(f"must be at least 1, got {max_moves!r}", param_hint="'--max-moves'")
    if svg_path is not None:
        # now, not after a search of half an hour whose results it would drop
        _check_svg_target(svg_path, force, report_module.svg_replaceable)
    progress = None if as_json or not sys.stderr.isatty() else progress_line
    report = run(puzzle, goal, start, max_moves, seconds, kernel, progress, svg_path)
    click.echo(json.dumps(report.data, indent=2) if as_json else report.text)


def _check_svg_target(path: Path, force: bool, replaceable: Any) -> None:
    """A BadParameter unless `path` can take the SVG: a new name, an empty file or an SVG solve wrote (any regular
    file with `force`), in an existing folder."""
    from ytourney.safe_files import kind_of

    folder = path.parent
    if not folder.is_dir():
        raise click.BadParameter(f"folder {str(folder)!r} of {str(path)!r} does not exist; expected an existing folder",
                                 param_hint="'--svg'")
    if os.path.lexists(path):
        mode = os.lstat(path).st_mode
        if not stat.S_ISREG(mode):
            raise click.BadParameter(f"{str(path)!r} is {kind_of(mode)}; expected a regular file or a new name",
                                     param_hint="'--svg'")
        if not force and not replaceable(path):
            raise click.BadParameter(f"{str(path)!r} exists and is not an SVG `ytourney solve` wrote (it is left "
                                     "untouched); give a new name, or --force to replace it", param_hint="'--svg'")
        if not os.access(path, os.W_OK):
            raise click.BadParameter(f"{str(path)!r} is not writable (its permissions, or a read-only disk)",
                                     param_hint="'--svg'")
    else:  # made and removed now: a folder that takes no new file is refused before the search, not after it
        from ytourney.errors import ReportError
        from ytourney.safe_files import open_file

        try:
            os.close(open_file(path, "x", error=ReportError))
        except ReportError as err:
            raise click.BadParameter(str(err), param_hint="'--svg'") from err
        os.unlink(path)

