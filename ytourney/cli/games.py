"""Commands around single games and bots: play one game, list the built-in bots, serve a bot over GTP."""

from __future__ import annotations

import contextlib
import json
import random
import sys
from collections.abc import Callable
from typing import Any

import click

from ytourney.cli.group import FiniteFloat, main
from ytourney.game.board import ACCEPTED_SPECS


@main.command()
@click.argument("black")
@click.argument("white")
@click.option("--board", "board_spec", default="tri:11", show_default=True, help=f"Board: {ACCEPTED_SPECS}.")
@click.option("--pie/--no-pie", default=True, show_default=True, help="Offer the swap after the first stone.")
@click.option("--misere", is_flag=True, help="The player who completes a Y loses.")
@click.option("--handicap", type=click.IntRange(min=0), default=0, show_default=True,
              help="Handicap level: 1 = BLACK moves first without pie, k >= 2 = BLACK places k stones first.")
@click.option("--move-seconds", type=FiniteFloat(min=0, min_open=True), default=None,
              help="Time budget per move for each bot (default: the bots' own playout budgets).")
@click.option("--seed", type=int, default=None, help="Seed for the bots and the record (default: random).")
@click.option("--json", "as_json", is_flag=True, help="Print the game record as one JSON object.")
def play(black: str, white: str, board_spec: str, pie: bool, misere: bool, handicap: int,
         move_seconds: float | None, seed: int | None, as_json: bool) -> None:
    """Play one game between two bot specs and show the board and moves.

    \b
    BLACK places the first stone; with the pie rule WHITE may answer swap.
    Bot specs: random, mcts, mcts:playouts=2000, path/to/file.py:ClassName,
    or a GTP engine 'gtp:NAME=COMMAND ARGS;KEY=VALUE;...' as `match` takes it.
    Example:
      ytourney play random mcts:playouts=500 --board kadon --seed 3
      ytourney play 'gtp:hy=/opt/y/y;rows=flipped;swap=genmove;time_command=y_param' mcts --move-seconds 1
    """
    from ytourney.game.board import parse_board
    from ytourney.game.diagram import board_text
    from ytourney.game.notation import parse_moves
    from ytourney.game.rules import Rules
    from ytourney.game.state import GameState
    from ytourney.players import BotKind, create_bot, parse_bot_spec
    from ytourney.players.clock import TimeControl
    from ytourney.publish.game_facts import move_count, rules_in_play
    from ytourney.tournament.match import Seat, play_game

    board = parse_board(board_spec)
    names = [black, white] if black != white else [f"{black} (black)", f"{white} (white)"]
    if any(text.startswith(GTP_PREFIX) for text in (black, white)):
        names, specs = _seated_players([black, white], names, board_spec)
    else:
        specs = [parse_bot_spec(black), parse_bot_spec(white)]
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    seeds = [rng.randrange(2**31) for _ in specs]
    bots: list[Any] = []
    try:
        for spec, bot_seed in zip(specs, seeds):  # created inside the try: a second bot failing closes the first
            bots.append(create_bot(spec, bot_seed))
        time_control = TimeControl(move_seconds=move_seconds, grace_seconds=max(1.0, (move_seconds or 0) * 0.5))
        seats = [Seat(name, bot, trusted=spec.kind is BotKind.BUILTIN) for name, bot, spec in zip(names, bots, specs)]
        with contextlib.redirect_stdout(sys.stderr):  # what a bot prints never mixes with the board
            record = play_game(seats, board,
                               Rules(pie=pie, misere=misere), handicap,
                               time_control if move_seconds is not None else None, seed=seed,
                               watch=_last_resort(names))
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
    rules = ", ".join(f"{k}={'on' if v else 'off'}" for k, v in rules_in_play(record).items())
    detail = f" ({record.reason})" if record.reason else ""
    click.echo(
        f"result: {record.winner} ({record.winner_name}) wins by {record.termination.value}{detail} "
        f"after {move_count(record)} moves   [{record.board}, {rules}, handicap {record.handicap}, seed {seed}]"
    )


GTP_PREFIX = "gtp:"
"""How a player on the command line names a GTP engine (ytourney.tournament.adhoc reads the rest)."""


def _seated_players(texts: list[str], names: list[str], board_spec: str) -> tuple[list[str], list[Any]]:
    """Names and specs of command-line players, GTP engines among them, read as `match` reads them: through the one
    config reader, so an engine takes every key of a config's `gtp:` block."""
    import yaml

    from ytourney.game.board import parse_board
    from ytourney.players.gtp.settings import check_engine
    from ytourney.tournament.adhoc import player_entry
    from ytourney.tournament.config import parse_config

    entries = [player_entry(text, index) for index, text in enumerate(texts)]
    for entry, name in zip(entries, names):
        entry.setdefault("name", name)
    if entries[0]["name"] == entries[1]["name"]:
        entries[0]["name"], entries[1]["name"] = f"{entries[0]['name']} (black)", f"{entries[1]['name']} (white)"
    text = yaml.safe_dump({"name": "play", "board": board_spec, "players": entries}, sort_keys=False)
    config = parse_config(text, source="ytourney play", base_dir=".")
    for player in config.players:
        if player.spec.gtp is not None:  # a missing program is one line, exit 1, not a game lost by crash
            check_engine(player.spec.gtp, parse_board(board_spec))
    return list(config.player_names), [player.spec for player in config.players]


PLAY_KILL_MARGIN = 5.0
"""Seconds past a decision's hard deadline (when its alarm did not end it) before `play` gives up on the bot."""


def _last_resort(names: list[str]) -> Callable[[int, float], None]:
    """The `play` watch: a bot that ignores its deadline's alarm ends the command (one line, exit 1), never hangs."""
    import os
    import threading
    import time

    timer: list[threading.Timer] = []

    def give_up(seat: int) -> None:
        sys.stderr.write(f"Error: {names[seat - 1]!r} is still thinking well past its hard deadline; stopped\n")
        sys.stderr.flush()
        os._exit(1)

    def watch(seat: int, deadline: float) -> None:
        while timer:
            timer.pop().cancel()
        if seat:
            timer.append(threading.Timer(deadline - time.monotonic() + PLAY_KILL_MARGIN, give_up, (seat,)))
            timer[0].daemon = True
            timer[0].start()

    return watch


@main.command()
def bots() -> None:
    """List the built-in bots and their options.

    \b
    Example:
      ytourney bots
    """
    from ytourney.players import BUILTIN_BOTS, builtin_class, builtin_options

    rows = {name: [(f"{key}={option.default!r}", f"({option.type.__name__})", option.help)
                   for key, option in sorted(builtin_options(name).items())] for name in sorted(BUILTIN_BOTS)}
    width = max((len(row[0]) for options in rows.values() for row in options), default=0)
    kinds = max((len(row[1]) for options in rows.values() for row in options), default=0)
    for name, options in rows.items():
        cls = builtin_class(name)
        summary = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
        click.echo(f"{name:<12} {summary}")
        for setting, kind, text in options:  # one set of columns for every bot's options
            click.echo(f"    {setting:<{width}}  {kind:<{kinds}}  {text}")
    click.echo("\nAlso: a Python plugin 'path/to/file.py:ClassName', or an external GTP engine "
               "'gtp:NAME=COMMAND ARGS;KEY=VALUE;...' (see `ytourney match --help`).")


@main.command()
@click.argument("bot")
@click.option("--board", "board_spec", default="tri:11", show_default=True,
              help=f"Board until the controller sends boardsize: {ACCEPTED_SPECS}.")
@click.option("--seed", type=int, default=None, help="Seed for the bot (default: random).")
@click.option("--rows", type=click.Choice(("normal", "flipped")), default="normal", show_default=True,
              help="Cell names: normal (row 1 the long edge) or flipped (row 1 the top corner, row r holding r cells).")
@click.option("--first-color", type=click.Choice(("black", "white")), default="black", show_default=True,
              help="The colour name of the player who places the first stone.")
@click.option("--pie/--no-pie", default=True, show_default=True,
              help="Offer the pie: genmove may answer `swap` on move 2 and `play COLOR swap` is accepted.")
def gtp(bot: str, board_spec: str, seed: int | None, rows: str, first_color: str, pie: bool) -> None:
    """Serve a built-in or plugin bot over GTP on stdin/stdout.

    \b
    Commands: protocol_version name version known_command list_commands quit
    boardsize (N or kadon) clear_board komi play genmove undo showboard winner
    final_score time_settings kgs-time_settings time_left ytourney-rules,
    and the engine families' time commands `y_param max_time S` and `time -m S`.
    genmove may answer `swap` when the pie is offered; `play COLOR swap` is accepted.
    --rows and --first-color speak the dialect of other Y engines' tools.
    Example:
      ytourney gtp mcts:playouts=2000 --board tri:13
      ytourney gtp heuristic --rows flipped
    """
    import sys

    from ytourney.game.board import parse_board
    from ytourney.game.rules import Rules
    from ytourney.players import create_bot, parse_bot_spec
    from ytourney.players.gtp.server import GtpServer

    board = parse_board(board_spec)
    protocol = _protocol_stdout()
    player = create_bot(parse_bot_spec(bot), seed)
    GtpServer(player, board, Rules(pie=pie), rows=rows, first_color=first_color).serve(sys.stdin, protocol)


def _protocol_stdout() -> Any:
    """The real stdout, kept for the GTP protocol alone: file descriptor 1 and sys.stdout then go to stderr, so
    whatever the bot prints (from Python or below it) never reaches the controller."""
    import io
    import os
    import sys

    sys.stdout.flush()
    protocol = io.TextIOWrapper(os.fdopen(os.dup(1), "wb"), encoding="utf-8", line_buffering=True)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return protocol
