"""The ytourney command line: Click commands that parse arguments, call the library and print."""

from __future__ import annotations

from ytourney.cli import games, reports, runs, solve  # noqa: F401  (importing them registers their commands)
from ytourney.cli.group import main

__all__ = ["main"]
