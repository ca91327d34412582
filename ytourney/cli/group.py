"""The `ytourney` command group: the one place library errors become clean one-line messages."""

from __future__ import annotations

import contextlib
import io
import math
import os
import sys
from typing import Any

import click

from ytourney import __version__
from ytourney.errors import YTourneyError
from ytourney.numerals import foreign_digit_problem


class _AsciiDigits:
    """The shared part of the ASCII-digit number options: no '[x<=None]' in help, and foreign digits refused."""

    plain_name: str
    min: Any
    max: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[call-arg]
        if self.min is None and self.max is None:
            self.name = self.plain_name

    def _describe_range(self) -> str:
        return "" if self.min is None and self.max is None else super()._describe_range()  # type: ignore[misc]

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        problem = foreign_digit_problem(value) if isinstance(value, str) else None
        if problem:
            self.fail(f"{value!r}: {problem}", param, ctx)  # type: ignore[attr-defined]
        return super().convert(value, param, ctx)  # type: ignore[misc]


class AsciiInt(_AsciiDigits, click.IntRange):
    """A whole-number option (within optional bounds) written in ASCII digits: click's INT, as int(), takes '١'."""

    plain_name = "integer"


class AsciiFloat(_AsciiDigits, click.FloatRange):
    """A number option (within optional bounds) written in ASCII digits: click's FLOAT, as float(), takes '١'."""

    plain_name = "float"


class FiniteFloat(AsciiFloat):
    """A float option that must be a finite number (click's FloatRange lets nan and inf through)."""

    name = "finite float"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


class YTourneyGroup(click.Group):
    """Command group that turns every mistake into a clean one-line message with exit code 1: a library error, and
    a usage mistake Click finds (a bad option value, a missing argument) too, without Click's usage block and its
    exit code 2. One mistake gets one exit code whichever command or layer finds it (README: exit codes)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.exceptions.NoArgsIsHelpError:  # `ytourney` alone asks for the help: no mistake
            click.echo(ctx.get_help())
            ctx.exit(0)
        except click.UsageError as err:
            raise _one_line(err) from err

    def invoke(self, ctx: click.Context) -> Any:
        if sys.stdout is None:  # started with it closed (`>&-`): refused before any work whose output would be lost
            raise click.ClickException("cannot write output: standard output is closed; redirect it instead (to "
                                       "/dev/null to drop it)")
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a full or closed stdout fails here, inside the handler, not at interpreter exit
            return result
        except click.UsageError as err:
            raise _one_line(err) from err
        except YTourneyError as err:
            raise click.ClickException(str(err)) from err
        except KeyboardInterrupt:  # Ctrl-C in a command without its own handling (solve, gtp, a report)
            click.echo("ytourney: interrupted by SIGINT", err=True)
            ctx.exit(130)  # the shell's code for it, as `run` and `play` exit, not click's 'Aborted!' and 1
        except MemoryError as err:  # a memory limit (ulimit -v): the stack is unwound, so there is memory to say it
            raise click.ClickException(f"ytourney {ctx.invoked_subcommand} ran out of memory (a memory limit such as "
                                       "ulimit -v?); allow it more memory") from err
        except BrokenPipeError:
            silence_stdout()  # the reader went away (`| head`): nothing to say to anyone
            ctx.exit(1)
        except OSError as err:
            silence_stdout()
            problem = (err.strerror or str(err)).lower()
            message = f"{err.filename!r}: {problem}" if err.filename else f"cannot write output: {problem}"
            raise click.ClickException(message) from err


def _one_line(err: click.UsageError) -> click.ClickException:
    """A usage mistake as one line, exit code 1: 'Error: Invalid value for '--rule': …'."""
    return click.ClickException(" ".join(err.format_message().split()))


def silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush cannot fail again with a traceback."""
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


@click.group(cls=YTourneyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ytourney")
def main() -> None:
    """Tournaments, handicaps and TrueSkill ratings for bots playing the connection game Y.

    \b
    Example:
      ytourney run configs/quickstart.yaml
    """
