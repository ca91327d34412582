"""The ytourney command line: Click commands that parse arguments, call the library and print."""

from __future__ import annotations

import json
import random
from typing import Any

import click

from ytourney import __version__
from ytourney.board import ACCEPTED_SPECS
from ytourney.errors import YTourneyError


class YTourneyGroup(click.Group):
    """Command group that turns every library error into a clean one-line message (exit code 1)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except YTourneyError as err:
            raise click.ClickException(str(err)) from err


@click.group(cls=YTourneyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ytourney")
def main() -> None:
    """Tournaments, handicaps and TrueSkill ratings for bots playing the connection game Y.

    \b
    Example:
      ytourney run configs/quickstart.yaml
    """


@main.command()
@click.argument("black")
@click.argument("white")
@click.option("--board", "board_spec", default="tri:11", show_default=True, help=f"Board: {ACCEPTED_SPECS}.")
@click.option("--pie/--no-pie", default=True, show_default=True, help="Offer the swap after the first stone.")
@click.option("--misere", is_flag=True, help="The player who completes a Y loses.")
@click.option("--handicap", type=click.IntRange(min=0), default=0, show_default=True,
              help="Handicap level: 1 = BLACK moves first without pie, k >= 2 = BLACK places k stones first.")
@click.option("--move-seconds", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Time budget per move for each bot (default: the bots' own playout budgets).")
@click.option("--seed", type=int, default=None, help="Seed for the bots and the record (default: random).")
@click.option("--json", "as_json", is_flag=True, help="Print the game record as one JSON object.")
def play(black: str, white: str, board_spec: str, pie: bool, misere: bool, handicap: int,
         move_seconds: float | None, seed: int | None, as_json: bool) -> None:
    """Play one game between two bot specs and show the board and moves.

    \b
    BLACK places the first stone; with the pie rule WHITE may answer swap.
    Bot specs: random, mcts, mcts:playouts=2000, path/to/file.py:ClassName.
    Example:
      ytourney play random mcts:playouts=500 --board kadon --seed 3
    """
    from ytourney.board import parse_board
    from ytourney.bots import create_bot, parse_bot_spec
    from ytourney.diagram import board_text
    from ytourney.game import GameState, Rules
    from ytourney.match import Seat, TimeControl, play_game
    from ytourney.notation import parse_moves

    board = parse_board(board_spec)
    specs = [parse_bot_spec(black), parse_bot_spec(white)]
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    names = [black, white] if black != white else [f"{black} (black)", f"{white} (white)"]
    bots = [create_bot(spec, rng.randrange(2**31)) for spec in specs]
    try:
        time_control = TimeControl(move_seconds=move_seconds, grace_seconds=max(1.0, (move_seconds or 0) * 0.5))
        record = play_game(
            [Seat(names[0], bots[0]), Seat(names[1], bots[1])],
            board,
            Rules(pie=pie, misere=misere),
            handicap,
            time_control if move_seconds is not None else None,
            seed=seed,
        )
    finally:
        for bot in bots:
            bot.close()
    if as_json:
        click.echo(json.dumps(record.to_dict()))
        return
    state = GameState(board, Rules(pie=pie, misere=misere), handicap)
    for move in parse_moves(board, record.moves):
        state.play(move)
    last = next((m for m in reversed(state.moves) if m >= 0), None)
    click.echo(board_text(state, last=last))
    click.echo()
    click.echo(f"black: {record.black}   white: {record.white}   first stone: {record.first}")
    click.echo("moves: " + " ".join(f"{i}.{m}" for i, m in enumerate(record.moves, start=1)))
    rules = ", ".join(f"{k}={'on' if v else 'off'}" for k, v in record.rules.items())
    detail = f" ({record.reason})" if record.reason else ""
    click.echo(
        f"result: {record.winner} ({record.winner_name}) wins by {record.termination.value}{detail} "
        f"after {len(record.moves)} moves   [{record.board}, {rules}, handicap {record.handicap}, seed {seed}]"
    )


@main.command()
def bots() -> None:
    """List the built-in bots and their options.

    \b
    Example:
      ytourney bots
    """
    from ytourney.bots import BUILTIN_BOTS, builtin_class, builtin_options

    for name in sorted(BUILTIN_BOTS):
        cls = builtin_class(name)
        summary = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
        click.echo(f"{name:<12} {summary}")
        for key, option in sorted(builtin_options(name).items()):
            click.echo(f"    {key}={option.default!r:<10} ({option.type.__name__}) {option.help}")
    click.echo("\nAlso: a Python plugin 'path/to/file.py:ClassName', or (in configs) an external GTP engine.")


@main.command()
@click.argument("bot")
@click.option("--board", "board_spec", default="tri:11", show_default=True,
              help=f"Board until the controller sends boardsize: {ACCEPTED_SPECS}.")
@click.option("--seed", type=int, default=None, help="Seed for the bot (default: random).")
def gtp(bot: str, board_spec: str, seed: int | None) -> None:
    """Serve a built-in or plugin bot over GTP on stdin/stdout.

    \b
    Commands: protocol_version name version known_command list_commands quit
    boardsize (N or kadon) clear_board komi play genmove showboard
    time_settings kgs-time_settings time_left ytourney-rules.
    genmove may answer `swap` when the pie is offered; `play COLOR swap` is accepted.
    Example:
      ytourney gtp mcts:playouts=2000 --board tri:13
    """
    import sys

    from ytourney.board import parse_board
    from ytourney.bots import create_bot, parse_bot_spec
    from ytourney.gtp_server import GtpServer

    board = parse_board(board_spec)
    player = create_bot(parse_bot_spec(bot), seed)
    GtpServer(player, board).serve(sys.stdin, sys.stdout)
