"""The command line a user gave, rebuilt from Click's parsed parameters: the resume hint after Ctrl-C prints it."""

from __future__ import annotations

import enum
import shlex
from typing import Any

import click
from click.core import ParameterSource


def _word(value: Any) -> str:
    if isinstance(value, enum.Enum):
        value = value.value
    return shlex.quote(str(value))


def command_line(ctx: click.Context, program: str = "ytourney", leave_out: tuple[str, ...] = ()) -> str:
    """`program COMMAND ARGS --option VALUE ...`: every parameter given on the command line (none left to its
    default), arguments first, options in the command's order; `leave_out` names parameters not to repeat."""
    arguments: list[str] = []
    options: list[str] = []
    for param in ctx.command.params:
        name = param.name or ""
        if name in leave_out or ctx.get_parameter_source(name) is not ParameterSource.COMMANDLINE:
            continue
        value = ctx.params.get(name)
        if isinstance(param, click.Argument):
            values = value if isinstance(value, (tuple, list)) else (value,)
            arguments += [_word(item) for item in values]
            continue
        if not isinstance(param, click.Option):
            continue
        flag = param.opts[0]
        if param.is_flag:
            if param.secondary_opts:
                options.append(flag if value else param.secondary_opts[0])
            elif value:
                options.append(flag)
            continue
        values = value if param.multiple else (value,)
        for item in values:
            options += [flag, _word(item)]
    return " ".join([program, ctx.info_name or "", *arguments, *options])
