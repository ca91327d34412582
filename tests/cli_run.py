"""The hostile test modules' way to run the CLI: in process, within seconds, and never with a traceback."""

from __future__ import annotations

import time

from click.testing import CliRunner, Result

from ytourney.cli import main

SECONDS = 20.0
"""How long one hostile command may take before the test calls it a hang."""


def invoke(*args: str) -> Result:
    """Run `ytourney ARGS` in process; fail the test on a hang, an uncaught exception or a printed traceback."""
    begin = time.monotonic()
    result = CliRunner().invoke(main, list(args))
    assert time.monotonic() - begin < SECONDS, f"ytourney {' '.join(args)[:200]} took over {SECONDS:g} s"
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result
