"""Commands around single games and bots: play one game, list the built-in bots, serve a bot over GTP."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from ytourney.cli.group import AsciiInt, FiniteFloat, main
from ytourney.cli.options import (
    DEFAULT_GAME,
    game_option,
    rule_flag_options,
    rule_options,
    rules_mapping,
)


@main.command()
@click.argument("first")
@click.argument("second")
@game_option
@click.option("--board", "board_spec", default=None, help="Board [default: the game's own; tri:11 for Y].")
@click.option("--pie/--no-pie", default=None, help="Offer the swap after the first move [default: the game's own].")
@rule_flag_options
@rule_options
@click.option("--handicap", type=AsciiInt(min=0), default=0, show_default=True,
              help="Handicap level: 1 = FIRST moves first without pie, k >= 2 = FIRST places k stones in its first "
                   "turn.")
@click.option("--move-seconds", type=FiniteFloat(min=0, min_open=True), default=None,
              help="Time budget per move for each bot (default: the bots' own playout budgets); a human is "
                   "never timed.")
@click.option("--seed", type=AsciiInt(min=0), default=None,
              help="Seed for the bots and the record (default: random).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the game record as one JSON object (a human seat's boards and prompts go to stderr).")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None,
              help="Append the finished game to FILE: PGN for *.pgn, JSON lines for *.jsonl (only a new file or "
                   "one ytourney wrote; each game gets the next game id of the file's `play` games).")
def play(first: str, second: str, game_name: str, board_spec: str | None, pie: bool | None,
         rule_items: tuple[str, ...], handicap: int, move_seconds: float | None, seed: int | None,
         as_json: bool, out: str | None) -> None:
    """Play one game between two players and show the board and moves.

    \b
    FIRST makes the first move, as the game's first side (Black in most
    games; `ytourney games` names each game's first mover); SECOND answers and,
    with the pie rule, may swap. The seats are shown by the game's side names.
    Players: random, mcts, mcts:playouts=2000, path/to/file.py:ClassName,
    a GTP engine 'gtp:NAME=COMMAND ARGS;KEY=VALUE;...' as `match` takes it,
    or human: you, at the terminal (type help at the prompt; undo, resign, quit).
    Example:
      ytourney play human mcts:playouts=2000 --board tri:9
      ytourney play random mcts:playouts=500 --board kadon --seed 3
      ytourney play 'gtp:hy=/opt/y/y;rows=flipped;swap=genmove;time_command=y_param' mcts --move-seconds 1
    """
    from ytourney.games.api import Color, rule_value_text
    from ytourney.games.registry import get_game
    from ytourney.games.replay import replay
    from ytourney.games.variant import Variant
    from ytourney.players import BotKind, create_bot, parse_bot_spec
    from ytourney.players.clock import TimeControl
    from ytourney.players.human import HUMAN_SPEC, Console, HumanBot, QuitGame
    from ytourney.publish.game_facts import result_sentence, rules_in_play, turns
    from ytourney.tournament.match import HaltGame, Seat, play_game

    game = get_game(game_name)
    if handicap and not game.has_handicap:  # else the game would be played even and stored as a handicap game
        raise click.BadParameter(f"game {game.name!r} has no handicap ladder; expected 0, found {handicap}",
                                 param_hint="'--handicap'")
    board = game.parse_board(board_spec or game.default_board)
    rules = game.parse_rules(rules_mapping(game, pie, rule_items))
    colours = [str(game.first_color), str(Color.WHITE if game.first_color is Color.BLACK else Color.BLACK)]
    texts = [first, second]
    names = texts if first != second else [f"{text} ({colour})" for text, colour in zip(texts, colours)]
    humans = [text.strip().lower() == HUMAN_SPEC for text in texts]
    if any(humans) and sys.stdin is None:  # started with stdin closed (`<&-`): no move could ever be read
        raise click.ClickException("a human seat reads its moves from standard input, which is closed; run play at "
                                   "a terminal or pipe the moves in")
    feed = _record_file(out) if out is not None else None  # refused before the game, never after it
    specs: list[Any] = [None, None]
    if any(text.startswith(GTP_PREFIX) for text in texts):
        names, seated = _seated_players(texts, names, game.name, board, colours, humans)
        specs = [None if human else spec for human, spec in zip(humans, seated)]
    else:
        specs = [None if human else parse_bot_spec(text, game) for text, human in zip(texts, humans)]
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    seeds = [rng.randrange(2**31) for _ in specs]
    transcript = sys.stderr if as_json else sys.stdout  # with --json, stdout carries the JSON alone
    console = Console(game, board, rules, handicap, names, sys.stdin, transcript) if any(humans) else None
    bots: list[Any] = []
    halted: list[int] = []
    try:
        with _halting(halted):  # Ctrl-C stops the game; it is not the loss of the bot that was thinking
            for spec, bot_seed, name in zip(specs, seeds, names):  # inside the try: a failing bot closes the first
                bots.append(HumanBot(name, console) if spec is None and console is not None else
                            _served(spec, bot_seed, game) if spec.kind is BotKind.PLUGIN else
                            create_bot(spec, bot_seed))
            time_control = TimeControl(move_seconds=move_seconds, grace_seconds=max(1.0, (move_seconds or 0) * 0.5))
            seats = [Seat(name, bot, trusted=spec is None or spec.kind is BotKind.BUILTIN, untimed=spec is None)
                     for name, bot, spec in zip(names, bots, specs)]
            with contextlib.redirect_stdout(sys.stderr):  # what a bot prints never mixes with the board
                record = play_game(seats, Variant(game, board, rules), handicap=handicap,
                                   time_control=time_control if move_seconds is not None else None, seed=seed,
                                   tournament=PLAY_EVENT if feed is not None else "",
                                   game_id=_next_id(feed) if feed is not None else None,
                                   watch=_halt_between_moves(_last_resort(names), halted))
    except HaltGame:
        if not halted:
            raise
        if console is not None:  # Ctrl-C at the prompt: the message starts on a line of its own
            console.end_line()
        click.echo(f"ytourney: interrupted by {signal.Signals(halted[0]).name}; the game was not finished",
                   err=True)
        sys.exit(128 + halted[0])
    except QuitGame as quit_game:
        if isinstance(quit_game.__cause__, BrokenPipeError):  # the reader went away (`| head`): said to no one
            raise quit_game.__cause__
        if quit_game.problem:  # the terminal failed, not the person: an error, exit 1
            raise click.ClickException(f"{quit_game.problem}; the game was left unfinished and nothing was "
                                       "recorded") from quit_game
        click.echo("ytourney: quit; the game was left unfinished and nothing was recorded", err=True)
        return
    finally:
        for bot in bots:
            bot.close()
    if feed is not None:  # its file is opened at this first write, never before the game ends
        try:
            record = feed.write_next(record)  # numbered as the file stands now: another session may have written
        finally:
            feed.close()
    if as_json:
        click.echo(json.dumps(record.to_dict()))
        return
    state = replay(game, board, rules, handicap, record.moves)
    last = next((m for m in reversed(state.history) if m.path), None)
    click.echo(game.views.board_text(state, last))
    click.echo(stones_legend(game))
    click.echo()
    click.echo(seats_line(game, record))
    click.echo("moves: " + " ".join(f"{number}.{','.join(stones)}"
                                    for number, stones in enumerate(turns(record), start=1)))
    shown = ", ".join(f"{k}={rule_value_text(v)}" for k, v in rules_in_play(record).items())
    detail = f" ({record.reason})" if record.reason else ""
    where = f"{record.board}" if game.name == DEFAULT_GAME else f"{game.name}, {record.board}"
    axis = game.handicap_axis
    given = f" ({axis.amount(game, rules, record.handicap)})" if axis is not None and axis.rule and handicap else ""
    click.echo(f"result: {result_sentence(record)}{detail}   "
               f"[{where}, {shown}, handicap {record.handicap}{given}, seed {seed}]")


def side_label(game: Any, colour: Any) -> str:
    """A colour as this game names its side: 'black', or 'white (Aliens)' where the sides differ."""
    side = game.views.side_names.get(colour)
    return f"{colour} ({side})" if side else str(colour)


def seats_line(game: Any, record: Any) -> str:
    """Who played which side, the first mover's side first, in the game's own side names."""
    from ytourney.games.api import Color

    first = game.first_color
    order = (first, Color.WHITE if first is Color.BLACK else Color.BLACK)
    owners = {Color.BLACK: record.black, Color.WHITE: record.white}
    seats = "   ".join(f"{side_label(game, colour)}: {owners[colour]}" for colour in order)
    swapped = f" (swapped by {record.second})" if record.swapped else ""
    return f"{seats}   first move: {record.first}{swapped}"


def stones_legend(game: Any) -> str:
    """What the board's characters mean: each colour's stone, and the last move in lower case."""
    from ytourney.boards.text import STONE_CHARS
    from ytourney.games.api import Color

    return (f"{STONE_CHARS[int(Color.BLACK)]} {side_label(game, Color.BLACK)}, "
            f"{STONE_CHARS[int(Color.WHITE)]} {side_label(game, Color.WHITE)}; lower case: the last move's stones")


def _halt_between_moves(watch: Callable[[int, float], None], halted: list[int]) -> Callable[[int, float], None]:
    """The watch, raising HaltGame as a decision starts or ends once a signal came: C code (numpy's) may swallow the
    exception the handler raised while it ran, and then the next move boundary stops the game."""
    from ytourney.tournament.match import HaltGame

    def checked(seat: int, deadline: float) -> None:
        watch(seat, deadline)
        if halted:
            raise HaltGame

    return checked


@contextlib.contextmanager
def _halting(halted: list[int]) -> Iterator[None]:
    """Ctrl-C and SIGTERM raise HaltGame (noted in `halted`), which the referee never counts as a player's fault;
    a signal the shell ignores (a background job's Ctrl-C) stays ignored."""
    import threading

    from ytourney.tournament.match import HaltGame

    def halt(signum: int, frame: object) -> None:
        halted.append(signum)
        raise HaltGame

    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(sig) is not signal.SIG_IGN:
                previous[sig] = signal.signal(sig, halt)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def _served(spec: Any, seed: int | None, game: Any, **options: Any) -> Any:
    """A plugin (or, for `gtp`, any bot) hosted in a child process: its import, constructor and every call run
    there under a deadline, so a hang, a crash or os._exit is one line or one lost game, never a silent end."""
    from ytourney.players.host import HostedBot
    from ytourney.players.spec import BotKind

    what = f"plugin class {spec.name!r} in {spec.path!r}" if spec.kind is BotKind.PLUGIN else f"bot {str(spec)!r}"
    return HostedBot(spec, seed, game, what=what, **options)


GTP_PREFIX = "gtp:"
"""How a player on the command line names a GTP engine (ytourney.tournament.adhoc reads the rest)."""


def _seated_players(texts: list[str], names: list[str], game_name: str, board: Any, colours: list[str],
                    humans: list[bool]) -> tuple[list[str], list[Any]]:
    """Names and specs of command-line players, GTP engines among them, read as `match` reads them: through the one
    config reader, so an engine takes every key of a config's `gtp:` block (a human seat stands in as `random`)."""
    import yaml

    from ytourney.players.gtp.settings import check_engine
    from ytourney.tournament.adhoc import player_entry
    from ytourney.tournament.config import parse_config

    entries = [player_entry("random" if human else text, index, "ytourney play")
               for index, (text, human) in enumerate(zip(texts, humans))]
    for entry, name in zip(entries, names):
        entry.setdefault("name", name)
    if entries[0]["name"] == entries[1]["name"]:
        entries[0]["name"], entries[1]["name"] = (f"{entries[0]['name']} ({colours[0]})",
                                                  f"{entries[1]['name']} ({colours[1]})")
    text = yaml.safe_dump({"name": "play", "game": game_name, "board": board.spec, "players": entries}, sort_keys=False)
    config = parse_config(text, source="ytourney play", base_dir=".")
    for player in config.players:
        if player.spec.gtp is not None:  # a missing program is one line, exit 1, not a game lost by crash
            check_engine(player.spec.gtp, board)
    return list(config.player_names), [player.spec for player in config.players]


PLAY_EVENT = "play"
"""The tournament name of the games `play --out` appends to a record file (their ids count up within the file)."""


def _record_file(out: str) -> Any:
    """The record file `play --out` appends to, read first: PGN or JSON lines by its suffix, and only a new file
    or one ytourney wrote (as `--pgn-out` and `--jsonl-out` take them)."""
    from ytourney.errors import ReportError
    from ytourney.publish.export import ExportFormat, GameFeed

    suffix = Path(out).suffix.lower()
    formats = {".pgn": ExportFormat.PGN, ".jsonl": ExportFormat.JSONL}
    if suffix not in formats:
        raise click.BadParameter(f"{out!r}: expected a file ending in .pgn or .jsonl", param_hint="'--out'")
    try:
        return GameFeed(out, formats[suffix])
    except ReportError as err:
        raise click.BadParameter(str(err), param_hint="'--out'") from err


def _next_id(feed: Any) -> int:
    """The next game id of `play`'s games in a record file."""
    return 1 + max((game_id for event, game_id in feed.keys if event == PLAY_EVENT), default=0)


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
@game_option
def bots(game_name: str) -> None:
    """List the built-in bots that play a game, and their options.

    \b
    Example:
      ytourney bots
      ytourney bots --game tetra
    """
    from ytourney.games.registry import get_game
    from ytourney.players import bots_of, builtin_class, builtin_options

    game = get_game(game_name)
    pie = game.has_pie and bool(game.rules_dict(game.parse_rules(None)).get("pie"))
    click.echo(f"built-in bots for {game.title} (--game {game.name}):")
    hidden: set[str] = set()
    rows: dict[str, list[tuple[str, str, str]]] = {}
    for name in sorted(bots_of(game)):
        shown = {}
        for key, option in sorted(builtin_options(name, game).items()):
            if option.pie_only and not pie:  # how a bot answers a swap that these rules never offer
                hidden.add(key)
            else:
                shown[key] = option
        rows[name] = [(f"{key}={option.default!r}", f"({option.type.__name__})", option.help)
                      for key, option in shown.items()]
    width = max((len(row[0]) for options in rows.values() for row in options), default=0)
    kinds = max((len(row[1]) for options in rows.values() for row in options), default=0)
    ladder = [spec.partition(":")[0] for spec in game.ladder]
    for name, options in rows.items():
        cls = builtin_class(name, game)
        summary = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())  # a summary may wrap a line
        click.echo(f"{name:<12} {summary}")
        if name in game.bot_notes:
            rung = f"rung {ladder.index(name) + 1} of {len(ladder)}: " if name in ladder else ""
            click.echo(f"    measured: {rung}{game.bot_notes[name]}")
        for setting, kind, text in options:  # one set of columns for every bot's options
            click.echo(f"    {setting:<{width}}  {kind:<{kinds}}  {text}")
    if hidden:
        click.echo(f"\nThe pie is off in {game.title} by default: pie-only options ({', '.join(sorted(hidden))}) "
                   "are not shown; they apply with --rule pie=on.")
    click.echo("\nAlso: a Python plugin 'path/to/file.py:ClassName', or an external GTP engine "
               "'gtp:NAME=COMMAND ARGS;KEY=VALUE;...' (see `ytourney match --help`).")


@main.command()
@click.option("--svg", "svg_dir", type=click.Path(file_okay=False), default=None,
              help="Also write each game's start diagram to DIR/<game>-start.svg.")
def games(svg_dir: str | None) -> None:
    """List every game ytourney referees: boards, players, notation and rules page.

    \b
    Examples:
      ytourney games
      ytourney games --svg docs/games/img
    """
    import os

    from ytourney.errors import ReportError
    from ytourney.games.registry import all_games
    from ytourney.games.variant import Variant
    from ytourney.players import bots_of
    from ytourney.publish.svg import start_svg
    from ytourney.safe_files import kind_of, write_file

    if svg_dir is not None:
        if os.path.lexists(svg_dir) and not os.path.isdir(svg_dir):  # a device or a FIFO, which click lets by
            raise click.BadParameter(f"{svg_dir!r} is {kind_of(os.lstat(svg_dir).st_mode)}; expected a folder",
                                     param_hint="'--svg'")
        try:
            Path(svg_dir).mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise click.ClickException(f"cannot make the folder {svg_dir!r}: {err.strerror or err}") from err
        for name, game in all_games().items():  # all written before the list, which a refusal then never cuts
            write_file(Path(svg_dir) / f"{name}-start.svg", start_svg(game), root=svg_dir, error=ReportError)
    for name, game in all_games().items():
        click.echo(f"{name:<16} {game.title}")
        click.echo(f"    boards:   {game.boards_help} (default {game.default_board})")
        click.echo(f"    moves:    {game.notation_example}; first to move: {game.first_color}")
        rules = game.rules_text(game.parse_rules(None)) or "none"
        default = Variant(game, game.parse_board(game.default_board), game.parse_rules(None))
        click.echo(f"    rules:    {rules}{'; handicap ladder' if game.has_handicap else ''}")
        click.echo(f"    bots:     {', '.join(sorted(bots_of(game)))}")
        click.echo(f"    default:  {default.spec}")
        click.echo(f"    rules page: {game.docs}")


@main.command()
@click.argument("bot")
@game_option
@click.option("--board", "board_spec", default=None,
              help="Board until the controller sends boardsize [default: the game's own; tri:11 for Y].")
@click.option("--seed", type=AsciiInt(min=0), default=None, help="Seed for the bot (default: random).")
@click.option("--rows", type=click.Choice(("normal", "flipped")), default="normal", show_default=True,
              help="Cell names: normal (row 1 the long edge) or flipped (row 1 the top corner, row r holding r cells).")
@click.option("--first-color", type=click.Choice(("black", "white")), default="black", show_default=True,
              help="The colour name of the player who places the first stone.")
@click.option("--pie/--no-pie", default=None,
              help="Offer the pie: genmove may answer `swap` on move 2 and `play COLOR swap` is accepted "
                   "[default: the game's own].")
@click.option("--swap-style", type=click.Choice(("exchange", "recolor")), default="exchange", show_default=True,
              help="After a swap: exchange (the players trade colours) or recolor (the first stone changes colour "
                   "and Black moves next, HexGUI's convention).")
@click.option("--deadline", "deadline", type=FiniteFloat(min=0, min_open=True), default=300.0, show_default=True,
              help="Seconds a genmove may take when the controller set no time (time_settings and the engine time "
                   "commands set it otherwise); past it the bot is stopped and genmove answers an error.")
def gtp(bot: str, game_name: str, board_spec: str | None, seed: int | None, rows: str, first_color: str,
        pie: bool | None, swap_style: str, deadline: float) -> None:
    """Serve a built-in or plugin bot over GTP on stdin/stdout.

    \b
    Commands: protocol_version name version known_command list_commands quit
    boardsize (N or kadon) clear_board komi play genmove undo showboard winner
    final_score time_settings kgs-time_settings time_left ytourney-rules,
    and the engine families' time commands `y_param max_time S` and `time -m S`.
    genmove may answer `swap` when the pie is offered; `play COLOR swap` is accepted.
    --rows, --first-color and --swap-style speak the dialect of other Y engines' tools;
    --game serves any game in its own move notation (play b E5-E7, play w pass).
    The bot runs in a child process with a deadline on every genmove (the time
    commands', else --deadline) and the config default memory limit; a late or
    crashed bot makes genmove answer an error, and the next genmove restarts it.
    Example:
      ytourney gtp mcts:playouts=2000 --board tri:13
      ytourney gtp heuristic --rows flipped
    """
    import sys

    from ytourney.games.registry import get_game
    from ytourney.players import parse_bot_spec
    from ytourney.players.gtp.server import gtp_server

    game = get_game(game_name)
    # the bot runs in a child process: a move past its deadline (the time commands', else --deadline) or a crash
    # is a GTP error, and the next command starts it again
    player = _served(parse_bot_spec(bot, game), seed, game, untimed_seconds=deadline, restart=True)
    try:
        server = gtp_server(player, game, board_spec, pie=pie, rows=rows, first_color=first_color,
                            swap_style=swap_style)
    except BaseException:
        player.close()
        raise
    server.serve(sys.stdin, _protocol_stdout())


def _protocol_stdout() -> Any:
    """The real stdout, kept for the GTP protocol alone: file descriptor 1 and sys.stdout then go to stderr, so
    whatever the bot prints (from Python or below it) never reaches the controller."""
    import io
    import os
    import sys

    from ytourney.players.host import keep_private

    sys.stdout.flush()
    fd = os.dup(1)
    keep_private(fd)  # a bot restarted later in a child process never holds the GTP stream
    protocol = io.TextIOWrapper(os.fdopen(fd, "wb"), encoding="utf-8", line_buffering=True)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return protocol
