"""The ytourney command line: Click commands that parse arguments, call the library and print."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from ytourney import __version__
from ytourney.errors import YTourneyError
from ytourney.game.board import ACCEPTED_SPECS

if TYPE_CHECKING:
    from ytourney.tournament.executor import Backend

class FiniteFloat(click.FloatRange):
    """A float option that must be a finite number (click's FloatRange lets nan and inf through)."""

    name = "finite float"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


BACKENDS = ("local", "ray")
"""The --backend choices, the default first (ytourney.tournament.executor.Backend, listed here to keep --help fast)."""


class YTourneyGroup(click.Group):
    """Command group that turns every library error into a clean one-line message (exit code 1)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a full or closed stdout fails here, inside the handler, not at interpreter exit
            return result
        except YTourneyError as err:
            raise click.ClickException(str(err)) from err
        except BrokenPipeError:
            _silence_stdout()  # the reader went away (`| head`): nothing to say to anyone
            ctx.exit(1)
        except OSError as err:
            _silence_stdout()
            problem = (err.strerror or str(err)).lower()
            message = f"{err.filename!r}: {problem}" if err.filename else f"cannot write output: {problem}"
            raise click.ClickException(message) from err


def _silence_stdout() -> None:
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
    Bot specs: random, mcts, mcts:playouts=2000, path/to/file.py:ClassName.
    Example:
      ytourney play random mcts:playouts=500 --board kadon --seed 3
    """
    from ytourney.game.board import parse_board
    from ytourney.game.diagram import board_text
    from ytourney.game.notation import parse_moves
    from ytourney.game.rules import Rules
    from ytourney.game.state import GameState
    from ytourney.players import create_bot, parse_bot_spec
    from ytourney.players.clock import TimeControl
    from ytourney.tournament.match import Seat, play_game

    board = parse_board(board_spec)
    specs = [parse_bot_spec(black), parse_bot_spec(white)]
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    names = [black, white] if black != white else [f"{black} (black)", f"{white} (white)"]
    bots = [create_bot(spec, rng.randrange(2**31)) for spec in specs]
    try:
        time_control = TimeControl(move_seconds=move_seconds, grace_seconds=max(1.0, (move_seconds or 0) * 0.5))
        with contextlib.redirect_stdout(sys.stderr):  # what a bot prints never mixes with the board
            record = play_game([Seat(names[0], bots[0]), Seat(names[1], bots[1])], board,
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
    rules = ", ".join(f"{k}={'on' if v else 'off'}" for k, v in record.rules.to_dict().items())
    detail = f" ({record.reason})" if record.reason else ""
    click.echo(
        f"result: {record.winner} ({record.winner_name}) wins by {record.termination.value}{detail} "
        f"after {len(record.moves)} moves   [{record.board}, {rules}, handicap {record.handicap}, seed {seed}]"
    )


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


def backend_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The --backend and --address options of `run` and `validate`: the command gets a Backend and an address, and
    an address without --backend ray is a usage error."""

    @functools.wraps(command)
    def checked(*args: Any, backend: str, address: str | None, **kwargs: Any) -> Any:
        from ytourney.tournament.executor import Backend

        if address is not None and Backend(backend) is not Backend.RAY:
            raise click.UsageError("--address needs --backend ray")
        return command(*args, backend=Backend(backend), address=address, **kwargs)

    checked = click.option(
        "--address", metavar="ADDR", default=None,
        help="Ray cluster to join (host:port of `ray start --head`, or auto); default: a local Ray instance (run: "
             "one actor per cluster CPU unless --workers, or --workers CPUs on a local instance).")(checked)
    return click.option(
        "--backend", type=click.Choice(BACKENDS), default=BACKENDS[0], show_default=True,
        help='Where games are played: local worker processes, or Ray actors (pip install "ytourney[ray]"); '
             "validate with ray also checks every player on every alive node of the cluster.")(checked)


@dataclass(frozen=True)
class LiveOutputs:
    """--pgn-out, --jsonl-out and --rating-interval: results while the run goes on."""

    pgn: str | None = None
    jsonl: str | None = None
    rating_interval: int | None = None


def live_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options of `run` and `match` that show results while the run goes on."""
    command = click.option("--rating-interval", type=click.IntRange(min=1), default=None, metavar="N",
                           help="Print the rating table on stderr every N games stored.")(command)
    command = click.option("--jsonl-out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                           help="Append each game to FILE as JSON lines as it is stored (flushed per game); a rerun "
                                "continues the file without duplicates.")(command)
    return click.option("--pgn-out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                        help="Append each game to FILE as PGN as it is stored (flushed per game); a rerun continues "
                             "the file without duplicates.")(command)


def _execute(ctx: click.Context, plan: Any, hint: str, *, workers: int | None, backend: Backend,
             address: str | None, quiet: bool, live: LiveOutputs, sort: str, show_elo: bool,
             anchor: str | None, gtp_log: str | None = None,
             site: tuple[str | None, float | None] = (None, None)) -> None:
    """Run a planned tournament with its live outputs (files, tables, a site), then print the final rating table
    (`run` and `match`)."""
    import contextlib
    import sys

    from ytourney.errors import RunInterrupted
    from ytourney.publish.export import ExportFormat, open_feed
    from ytourney.publish.ratings_table import RatingSort, folder_table, format_table
    from ytourney.tournament.progress import Progress
    from ytourney.tournament.validation import check_players

    names = plan.config.player_names
    if anchor is not None and anchor not in names:
        raise click.UsageError(f"--anchor {anchor!r} is not a player; expected one of {', '.join(names)}")
    if plan.stored < plan.planned:
        check_players(plan.config)  # before the store is opened: a broken player writes nothing
    if plan.note and not quiet:
        click.echo(f"ytourney: {plan.note}", err=True)
    if not plan.stored and not quiet:
        _warn_seats(plan.config)

    def table() -> str:
        return format_table(folder_table(plan.directory, plan.config.ratings, elo=_wants_elo(sort, show_elo, anchor),
                                         sprt=plan.config.schedule.sprt is not None, anchor=anchor,
                                         sort=RatingSort(sort)))

    progress = None if quiet else Progress(sys.stderr)
    sink = live_site(plan.directory, site[0], site[1], progress)
    stored = [0]
    with contextlib.ExitStack() as stack:
        outputs = ((live.pgn, ExportFormat.PGN), (live.jsonl, ExportFormat.JSONL))
        feeds = [stack.enter_context(contextlib.closing(open_feed(path, fmt, plan.directory, plan.config.digest())))
                 for path, fmt in outputs if path is not None]

        def on_game(record: Any) -> None:
            for feed in feeds:
                feed.write(record)
            stored[0] += 1
            if live.rating_interval and stored[0] % live.rating_interval == 0:
                if progress is not None:
                    progress.block(table())
                else:
                    click.echo(table(), err=True)

        try:
            summary = plan.run(workers=workers, backend=backend, address=address, progress=sink,
                               gtp_log=gtp_log, on_game=on_game if feeds or live.rating_interval else None)
        except RunInterrupted as err:
            try:
                final_publish(sink, quiet, f"Stopped: {err}")
            except YTourneyError as failure:  # the games are safe; say how to continue whatever the site did
                click.echo(f"ytourney: {failure}", err=True)
            click.echo(f"ytourney: {err}", err=True)
            click.echo(f"ytourney: to continue, run the same command again: {hint}", err=True)
            ctx.exit(128 + err.signal_number)
            return
    if not quiet:
        for line in summary.lines():
            click.echo(f"ytourney: {line}", err=True)
    final_publish(sink, quiet, None if summary.complete else f"Stopped: {summary.lines()[0]}")
    click.echo(table())


def rating_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The --rating, --elo and --anchor options of every command that prints a rating table."""
    command = click.option("--anchor", metavar="NAME", default=None,
                           help="Elo anchor: this player is 0 (default: the pool average); implies --elo.")(command)
    command = click.option("--elo/--no-elo", "show_elo", default=False,
                           help="Add Bradley-Terry Elo with its 95% interval beside the TrueSkill columns.")(command)
    return click.option("--rating", "sort", type=click.Choice(("trueskill", "elo")), default="trueskill",
                        show_default=True,
                        help="Rank by conservative TrueSkill (mu - 3 sigma) or by Elo (implies --elo).")(command)


def _wants_elo(sort: str, show_elo: bool, anchor: str | None) -> bool:
    return show_elo or sort == "elo" or anchor is not None


def publish_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The --publish and --publish-every options of `run` (and `match`): the command gets `publish` (a site folder
    or None) and `publish_every` (seconds, None for the default); --publish-every needs --publish."""

    @functools.wraps(command)
    def checked(*args: Any, publish: str | None, publish_every: float | None, **kwargs: Any) -> Any:
        if publish_every is not None and publish is None:
            raise click.UsageError("--publish-every needs --publish SITE")
        return command(*args, publish=publish, publish_every=publish_every, **kwargs)

    checked = click.option(
        "--publish-every", type=click.FloatRange(min=1.0), default=None, metavar="SECONDS",
        help="Seconds between two rewrites of the --publish site during the run (default: 60).")(checked)
    return click.option(
        "--publish", type=click.Path(file_okay=False), default=None, metavar="SITE",
        help="Keep a static site of the results in SITE while the run goes on (as `ytourney publish` writes it, "
             "with a 'running, n of N games' banner until the run ends); every page is replaced atomically.")(checked)


def live_site(directory: Any, site: str | None, every: float | None, progress: Any) -> Any:
    """The run's progress sink: `progress` itself, or a LiveSite republishing `directory` into `site` around it
    (the site folder is checked here, before the first game)."""
    if site is None:
        return progress
    from ytourney.publish.live import DEFAULT_EVERY, LiveSite

    return LiveSite(directory, site, DEFAULT_EVERY if every is None else every, progress)


def final_publish(sink: Any, quiet: bool, status: str | None = None) -> None:
    """Publish a LiveSite's site once more after the run (no banner unless `status`); nothing for other sinks."""
    from ytourney.publish.live import LiveSite

    if isinstance(sink, LiveSite):
        result = sink.final(status)
        if not quiet:
            click.echo(f"ytourney: site written to {result.index} ({result.pages} pages, {result.games} games)",
                       err=True)


@main.command()
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: the config's `workers`, else one per core).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Results folder (default: results/<name>/ of the config).")
@click.option("--resume", is_flag=True,
              help="Only continue: refuse to start if the folder holds no tournament yet.")
@click.option("--quiet", "-q", is_flag=True, help="No progress display on stderr.")
@click.option("--gtp-log", "gtp_log", type=click.Path(file_okay=False), default=None,
              help="Write every GTP engine's exchange, per engine and game, with timestamps, into this folder.")
@click.option("--set", "overrides", multiple=True, metavar="KEY.PATH=VALUE",
              help="Override one config key (the value read as YAML), e.g. --set schedule.games_per_pair=40 "
                   "--set players[1].bot=mcts:playouts=500; checked like the file itself.")
@live_options
@rating_options
@backend_options
@publish_options
@click.pass_context
def run(ctx: click.Context, config: str, workers: int | None, out_dir: str | None, resume: bool,
        quiet: bool, gtp_log: str | None, backend: Backend, address: str | None, sort: str, show_elo: bool,
        anchor: str | None, overrides: tuple[str, ...], pgn_out: str | None, jsonl_out: str | None,
        rating_interval: int | None, publish: str | None, publish_every: float | None) -> None:
    """Run (or continue) a tournament; progress on stderr, the rating table on stdout.

    \b
    Every finished game is stored at once in OUT/tournament.db (SQLite).
    Running the same config again continues where it stopped (after Ctrl-C,
    a crash or kill -9): only missing games are played, never one twice; a
    finished tournament just prints its table. --resume insists on continuing
    and refuses to start a new tournament (guards against a mistyped --out).
    A different config on the same folder is refused: use --out elsewhere.
    --gtp-log DIR writes each engine's GTP exchange of each game to
    DIR/<player>/game-<id>-<seat>.log (a fault's record names its file).
    Exit codes: 0 done, 1 error, 130 Ctrl-C, 143 SIGTERM (games kept).
    --pgn-out/--jsonl-out append each game as it is stored; --rating-interval
    prints the table every N games; --set changes one key of the config.
    --publish SITE keeps a static site of the results up to date during the run.
    Example:
      ytourney run configs/quickstart.yaml --workers 2
      ytourney run configs/sprt.yaml --pgn-out games.pgn --rating-interval 50 --elo
      ytourney run configs/quickstart.yaml --set schedule.games_per_pair=20 --out results/qs20
      ytourney run configs/handicap.yaml --publish site/ --publish-every 30
      ytourney run configs/quickstart.yaml --backend ray --address 10.0.0.1:6379
    """
    from ytourney.tournament.run import plan_run
    from ytourney.tournament.store import check_stored_config

    plan = plan_run(config, out_dir, overrides=overrides)
    check_stored_config(plan.directory, plan.config.digest(), plan.config.key())  # the refusal, and nothing else
    if resume and not plan.started:
        raise click.UsageError(f"nothing to resume: {str(plan.directory)!r} holds no tournament "
                               "(run without --resume to start)")
    hint = f"ytourney run {config}" + (f" --out {out_dir}" if out_dir else "")
    hint += "".join(f" --set {override}" for override in overrides)
    hint += f" --backend {backend.value}" if backend.value != BACKENDS[0] else ""
    hint += f" --address {address}" if address else ""
    hint += " (or add --resume)"
    _execute(ctx, plan, hint, workers=workers, backend=backend, address=address, quiet=quiet,
             live=LiveOutputs(pgn_out, jsonl_out, rating_interval), sort=sort, show_elo=show_elo, anchor=anchor,
             gtp_log=gtp_log, site=(publish, publish_every))


@main.command("match")
@click.argument("players", nargs=-1, required=True)
@click.option("--gauntlet", is_flag=True, help="The first player challenges each of the others (3+ players).")
@click.option("--games-per-pair", type=click.IntRange(min=1), default=None,
              help="Games of each pair, seats reversed in pairs [default: 2].")
@click.option("--board", "board_spec", default=None, help=f"Board [default: tri:11]: {ACCEPTED_SPECS}.")
@click.option("--pie/--no-pie", default=None, help="Offer the swap after the first stone [default: on].")
@click.option("--misere", is_flag=True, help="The player who completes a Y loses.")
@click.option("--move-seconds", type=float, default=None, help="Seconds per move.")
@click.option("--game-seconds", type=float, default=None, help="A game clock: seconds per player per game.")
@click.option("--increment", type=float, default=None, help="Seconds added to the game clock after each move.")
@click.option("--handicap", default=None, metavar="auto|LEVEL",
              help="auto: learn each pair's fair handicap; LEVEL: the weaker player always gets it.")
@click.option("--openings", default=None, metavar="FILE", help="Opening lines, one per game pair.")
@click.option("--random-plies", type=click.IntRange(min=1), default=None, metavar="N",
              help="Open each game pair with N random stones.")
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Worker processes [default: one per core].")
@click.option("--seed", type=click.IntRange(min=0), default=None, help="Seed of the schedule and the games.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Results folder [default: results/NAME/].")
@click.option("--name", default=None, help="Tournament name [default: the players' names joined by -vs-].")
@click.option("--sprt", default=None, metavar="elo0=0,elo1=5[,...]",
              help="Stop a 2-player match by an SPRT in Elo: elo0, elo1, alpha, beta, "
                   "model=pentanomial|trinomial|bernoulli (or p0, p1).")
@click.option("--quiet", "-q", is_flag=True, help="No progress display on stderr.")
@live_options
@rating_options
@publish_options
@click.pass_context
def match_command(ctx: click.Context, players: tuple[str, ...], out_dir: str | None, workers: int | None,
                  quiet: bool, sort: str, show_elo: bool, anchor: str | None, pgn_out: str | None,
                  jsonl_out: str | None, rating_interval: int | None, board_spec: str | None,
                  publish: str | None, publish_every: float | None, **options: Any) -> None:
    """A match, round-robin or gauntlet from the command line, no config needed.

    \b
    Two players make a match, three or more a round-robin (--gauntlet: the
    first challenges the rest). The equivalent config is written to
    OUT/match.yaml and read back like any config: rerun the same command to
    continue, or `ytourney run OUT/match.yaml`, `validate`, the reports.
    Players: a bot spec (random, mcts:playouts=2000, bots/my_bot.py:MyBot),
    NAME=SPEC to name one, or a GTP engine 'gtp:NAME=COMMAND ARGS;KEY=VALUE;...'
    with the keys of a config's gtp block.
    Examples:
      ytourney match mcts:playouts=500 heuristic --games-per-pair 100
      ytourney match random heuristic mcts --games-per-pair 20 --board tri:9
      ytourney match 'gtp:hy=/opt/y/y;rows=flipped;swap=genmove;time_command=y_param' random heuristic --gauntlet --move-seconds 1
      ytourney match 'gtp:moy=/opt/morat/moy;first_color=white;swap=none;pie_policy=center;time_command=morat;chatter_lines=100' mcts --move-seconds 1
      ytourney match new=mcts:playouts=2000 old=mcts:playouts=1000 --sprt elo0=0,elo1=20 --games-per-pair 2000
    """
    from ytourney.tournament.adhoc import MatchOptions, prepare_match
    from ytourney.tournament.executor import Backend
    from ytourney.tournament.run import plan_run

    if len(players) < 2:
        raise click.UsageError("give at least 2 players")
    path, folder = prepare_match(players, MatchOptions(board=board_spec, **options), out_dir)
    plan = plan_run(path, folder)
    _execute(ctx, plan, f"ytourney match ... (its config: {path})", workers=workers, backend=Backend.LOCAL,
             address=None, quiet=quiet, live=LiveOutputs(pgn_out, jsonl_out, rating_interval), sort=sort,
             show_elo=show_elo, anchor=anchor, site=(publish, publish_every))


@main.command()
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--no-start", is_flag=True, help="Do not start bots or engines; only check the config and paths.")
@click.option("--no-probe", is_flag=True, help="Start engines but skip their probe games against the random bot.")
@backend_options
def validate(config: str, no_start: bool, no_probe: bool, backend: Backend, address: str | None) -> None:
    """Check a tournament config without playing a tournament game.

    \b
    Checks every key, the players' specs, that plugins load and engine
    programs exist and start (each bot is created, set up and closed),
    then prints a summary with the number of games planned.
    Every GTP engine then plays a probe game in each seat against the random
    bot on the config's board and clock, under its configured dialect; the
    first fault is printed with the end of its transcript and a hint at the
    likely dialect key (rows, first_color, swap, chatter_lines...).
    With --backend ray, every player is also checked on every alive Ray node
    (engines and plugins must exist at the same paths on all of them).
    Example:
      ytourney validate configs/quickstart.yaml
      ytourney validate configs/quickstart.yaml --backend ray --address 10.0.0.1:6379
    """
    from ytourney.tournament.validation import validate_config

    report = validate_config(config, start=not no_start, backend=backend, address=address, probe=not no_probe)
    for line in report.lines():
        click.echo(line)
    _warn_seats(report.config)
    if report.failure:
        raise click.ClickException(report.failure)
    click.echo(f"{config}: ok")


def _warn_seats(config: Any) -> None:
    """Say on stderr when an odd games_per_pair leaves the seats of every pair unbalanced."""
    from ytourney.tournament.schedule import seat_imbalance

    warning = seat_imbalance(config)
    if warning:
        click.echo(f"ytourney: warning: {warning}", err=True)


# --- ratings, crosstable, export, publish -------------------------------------------------------------------------

_RESULTS = click.Path(exists=True)
_TABLE_FORMATS = ("text", "md", "csv", "json", "html")


def _leagues(dirs: tuple[str, ...], detail: bool = True, *, pool: bool = False,
             single: str = "") -> list[tuple[str, list, Any]]:
    """The sources of DIR… and their ratings (league order: folders as given, then game id), one league per board
    and rules set unless `pool`, each with a heading ('' for one set; a pool names its sets); without detail the
    games are streamed from the stores and not kept. `single` names an output that holds one league only (refused
    with several)."""
    from ytourney.publish.sources import load_sources, rate_sources, split_by_variant

    sources = load_sources(dirs)
    variants = split_by_variant(sources)
    if len(variants) <= 1 or pool:
        heading = f" [pooled: {'; '.join(variant.label for variant, _ in variants)}]" if len(variants) > 1 else ""
        return [(heading, sources, rate_sources(sources, sources[0].rating_settings, detail=detail))]
    if single:
        listed = "; ".join(variant.label for variant, _ in variants)
        raise click.ClickException(
            f"the folders hold games of {len(variants)} boards or rules sets ({listed}), rated apart, and {single} "
            "takes one: give the folders of one board and rules set, or add --pool to rate them as one pool")
    return [(f" [{variant.label}]", held, rate_sources(held, held[0].rating_settings, detail=detail, variant=variant))
            for variant, held in variants]


_POOL = click.option("--pool", is_flag=True,
                     help="Rate games of different boards or rules sets as one pool (default: one table for each).")


@main.command("ratings")
@click.argument("dirs", nargs=-1, required=True, type=_RESULTS)
@click.option("--format", "fmt", type=click.Choice(_TABLE_FORMATS), default="text", show_default=True,
              help="Output format (csv/json carry every figure raw; html is a standalone page).")
@_POOL
@rating_options
def ratings_command(dirs: tuple[str, ...], fmt: str, pool: bool, sort: str, show_elo: bool, anchor: str | None) -> None:
    """TrueSkill rating table of results folders, all games rated together.

    \b
    Games are replayed in game-id order, folder by folder in the order given
    (a league: players are matched by name across folders), so the table does
    not depend on workers or completion order. Ranked by mu - 3 sigma; LOS is
    the likelihood that a player is stronger than the next one. A match folder
    with `schedule.sprt` also shows the SPRT state (replayed in the order the
    run stored its games: the decision that stopped the run). A `.jsonl`
    export file may stand in for a folder. Games of different boards or rules
    sets get one table each (csv/json/html: one board at a time), unless
    --pool. --elo adds Bradley-Terry Elo with its 95% interval (handicap
    games left out, and counted in the notes).
    Example:
      ytourney ratings results/demo results/demo-2 --format md
      ytourney ratings results/demo --rating elo --anchor random
    """
    from ytourney.publish.handicap_table import handicap_section
    from ytourney.publish.ratings_table import RatingSort, build_table, format_table
    from ytourney.publish.sources import fit_sources, sprt_state_of

    # the table needs no per-game detail: memory stays flat
    outputs = []
    for heading, sources, ratings in _leagues(dirs, detail=False, pool=pool, single=_single_table(fmt)):
        sprt = sprt_state_of(sources[0]) if len(sources) == 1 else None
        title = "Ratings: " + " + ".join(s.name for s in sources) + heading
        elo = fit_sources(sources, anchor) if _wants_elo(sort, show_elo, anchor) else None
        table = build_table(ratings, sprt=sprt, title=title, elo=elo, sort=RatingSort(sort))
        handicap = handicap_section(sources, ratings) if fmt in ("text", "md", "html") else None
        if handicap is None:
            outputs.append(format_table(table, fmt).rstrip("\n"))
        else:
            outputs.append(_render_tables([table.to_table(), handicap.pairs_table(), handicap.levels_table()], fmt,
                                          title))
    click.echo("\n\n".join(outputs))


@main.command("crosstable")
@click.argument("dirs", nargs=-1, required=True, type=_RESULTS)
@click.option("--format", "fmt", type=click.Choice(_TABLE_FORMATS), default="text", show_default=True,
              help="Output format (a matrix in text/md/html, one row per pair in csv/json).")
@_POOL
def crosstable_command(dirs: tuple[str, ...], fmt: str, pool: bool) -> None:
    """Wins/games of every pair, with duplicate games counted.

    \b
    Players are listed in rating order. A duplicate is a game of the same
    pair, board, handicap and first player with the very same move list as
    an earlier one: deterministic bots replaying the same game waste the
    budget (vary seeds or use openings).
    Example:
      ytourney crosstable results/demo --format md
    """
    from ytourney.publish.crosstable import build_crosstable, format_crosstable

    outputs = []
    for heading, sources, ratings in _leagues(dirs, pool=pool, single=_single_table(fmt)):
        order = [player.name for player in ratings.ranking()]
        title = "Crosstable: " + " + ".join(s.name for s in sources) + heading
        outputs.append(format_crosstable(build_crosstable(ratings.records, order, title), fmt).rstrip("\n"))
    click.echo("\n\n".join(outputs))


@main.command("export")
@click.argument("dirs", nargs=-1, required=True, type=_RESULTS)
@click.option("--format", "fmt", type=click.Choice(("jsonl", "pgn", "sgf")), default="jsonl", show_default=True,
              help="jsonl: every record field; pgn: for BayesElo/Ordo; sgf: one file per game.")
@click.option("--out", "out", type=click.Path(), default=None,
              help="File to write (a folder for sgf: one file per game; a .sgf file: one collection). "
                   "Default: stdout.")
def export_command(dirs: tuple[str, ...], fmt: str, out: str | None) -> None:
    """Export game records as JSON lines, PGN or SGF.

    \b
    Games come in league order (folders as given, then game id).
    PGN: White/Black are the final colour owners (after any swap) and Result
    is 1-0 when White's owner won; feed it to `bayeselo` or `ordo -p games.pgn`.
    Example:
      ytourney export results/demo --format pgn --out demo.pgn
      ytourney export results/demo --format sgf --out sgf/
    """
    from ytourney.game.record import league_order
    from ytourney.publish.export import export_records
    from ytourney.publish.sources import load_sources

    records = league_order(source.records for source in load_sources(dirs))
    result = export_records(records, fmt, out)
    if result.text is not None:
        click.echo(result.text, nl=False)
        return
    where = str(result.paths[0]) if len(result.paths) == 1 else f"{len(result.paths)} files in {out}"
    click.echo(f"ytourney: exported {result.games} games to {where}", err=True)


@main.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--out", "out", type=click.Path(file_okay=False), required=True,
              help="New results folder for the imported games.")
@click.option("--name", default=None, help="Tournament name (default: the games' EV, else the folder's name).")
def import_command(paths: tuple[str, ...], out: str, name: str | None) -> None:
    """Import SGF games played elsewhere into a results folder, to be rated.

    \b
    Reads FILE… or every .sgf under DIR: ours and morat-style files (GM[y],
    SZ[N], cells in ytourney's notation; a first mover called W is read by
    move order). Every move is replayed; an illegal one stops the import
    with its file and move number and nothing is written. The folder then
    works with ratings, crosstable, export and publish.
    Example:
      ytourney import games/ --out results/elsewhere
      ytourney ratings results/elsewhere results/demo
    """
    from ytourney.publish.imports import import_sgf

    result = import_sgf(paths, out, name)
    click.echo(f"ytourney: imported {result.games} games of {len(result.players)} players from {result.files} "
               f"file(s) into {result.directory}/ as {result.name!r}", err=True)


@main.command("publish")
@click.argument("dirs", nargs=-1, required=True, type=_RESULTS)
@click.option("--out", "out", type=click.Path(file_okay=False), required=True,
              help="Site folder (new, empty, or a site published before).")
@click.option("--title", default=None, help="Site title (default: the tournament names).")
@_POOL
def publish_command(dirs: tuple[str, ...], out: str, title: str | None, pool: bool) -> None:
    """Publish a static HTML site of results folders.

    \b
    The index holds the rating table, a rating chart, the crosstable, the
    fair-handicap tables (per pair, and the worth of each level, when games
    used handicaps) and heat maps of first moves; every game has a page
    with the final position and the move list, every pair a page with its
    head-to-head results, rating differences and fair handicap; a Handicaps
    page charts the fair levels and level worths; the games list can be
    filtered and sorted. Publishing again updates the site in place and
    removes only files an earlier publish wrote (listed in SITE/.ytourney-site).
    All links are relative: open SITE/index.html directly or serve the folder.
    Example:
      ytourney publish results/demo --out site/
    """
    from ytourney.publish.live import publish_results

    _leagues(dirs, detail=False, pool=pool, single="publish")  # one board and rules set, or --pool
    result = publish_results(dirs, out, title=title)
    click.echo(f"ytourney: site written to {result.index} ({result.pages} pages, {result.games} games)", err=True)


def _render_tables(tables: list[Any], fmt: str, title: str) -> str:
    """Several tables: one after another in text and Markdown, on one standalone page in html."""
    from ytourney.publish.html import render_page
    from ytourney.publish.render import render_table

    if fmt == "html":
        return render_page("table_page.html", title=title, tables=tables).rstrip("\n")
    return "\n\n".join(render_table(table, fmt).rstrip("\n") for table in tables)


def _single_table(fmt: str) -> str:
    """The output formats that hold one table: csv and json (and html, one page) take one league only."""
    return f"--format {fmt}" if fmt in ("csv", "json", "html") else ""


@main.command("handicap")
@click.argument("dirs", nargs=-1, required=True, type=_RESULTS)
@click.option("--format", "fmt", type=click.Choice(_TABLE_FORMATS), default="text", show_default=True,
              help="Output format (csv/json: one row per pair, results by level as numbers; json also holds the "
                   "level worths).")
@click.option("--levels", "only_levels", is_flag=True,
              help="Only the worth of each level (e.g. to get it as csv).")
@_POOL
def handicap_command(dirs: tuple[str, ...], fmt: str, only_levels: bool, pool: bool) -> None:
    """Fair handicap of every pair with its 95% interval, and what each level is worth.

    \b
    Per pair: the weaker and the stronger player, the level at which both win
    half their games (or the config's handicap.target) with its 95% credible
    interval, the games counted, and the weaker player's results at each level
    played (a negative level: the stronger player received it). Games ended by
    a fault (time, crash, protocol, illegal move, forfeit) are left out of the
    estimate and counted in column faults. The pairs of a tournament inform
    each other (shared slope, strengths on the level scale). Then the worth of
    each level in TrueSkill points, as learned by the ratings. Folders are
    replayed as a league, as `ytourney ratings` does.
    Example:
      ytourney handicap results/handicap
      ytourney handicap results/handicap --format csv > fair.csv
    """
    from ytourney.publish.handicap_table import handicap_report
    from ytourney.publish.render import render_table

    outputs = []
    for heading, sources, ratings in _leagues(dirs, pool=pool, single=_single_table(fmt)):
        report = handicap_report(ratings.records, sources[0].handicap_settings, ratings)
        names = " + ".join(s.name for s in sources) + heading
        pairs = report.pairs_table(f"Fair handicaps: {names}")
        levels = report.levels_table(f"Worth of each handicap level: {names}")
        if only_levels:
            outputs.append(render_table(levels, fmt).rstrip("\n"))
        elif fmt in ("csv", "json"):
            outputs.append(render_table(pairs, fmt).rstrip("\n"))
        else:
            outputs.append(_render_tables([pairs, levels], fmt, f"Fair handicaps: {names}"))
    click.echo("\n\n".join(outputs))
