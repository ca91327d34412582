"""The ytourney command line: Click commands that parse arguments, call the library and print."""

from __future__ import annotations

import contextlib
import functools
import json
import random
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ytourney import __version__
from ytourney.errors import YTourneyError
from ytourney.game.board import ACCEPTED_SPECS

if TYPE_CHECKING:
    from ytourney.tournament.executor import Backend

BACKENDS = ("local", "ray")
"""The --backend choices, the default first (ytourney.tournament.executor.Backend, listed here to keep --help fast)."""


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


@main.command()
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: the config's `workers`, else one per core).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Results folder (default: results/<name>/ of the config).")
@click.option("--resume", is_flag=True,
              help="Only continue: refuse to start if the folder holds no tournament yet.")
@click.option("--quiet", "-q", is_flag=True, help="No progress display on stderr.")
@backend_options
@click.pass_context
def run(ctx: click.Context, config: str, workers: int | None, out_dir: str | None, resume: bool,
        quiet: bool, backend: Backend, address: str | None) -> None:
    """Run (or continue) a tournament; progress on stderr, the rating table on stdout.

    \b
    Every finished game is stored at once in OUT/tournament.db (SQLite).
    Running the same config again continues where it stopped (after Ctrl-C,
    a crash or kill -9): only missing games are played, never one twice; a
    finished tournament just prints its table. --resume insists on continuing
    and refuses to start a new tournament (guards against a mistyped --out).
    A different config on the same folder is refused: use --out elsewhere.
    Exit codes: 0 done, 1 error, 130 Ctrl-C, 143 SIGTERM (games kept).
    Example:
      ytourney run configs/quickstart.yaml --workers 2
      ytourney run configs/quickstart.yaml --backend ray --address 10.0.0.1:6379
    """
    import sys

    from ytourney.errors import RunInterrupted
    from ytourney.publish.ratings_table import format_table, rating_table
    from ytourney.tournament.executor import Backend
    from ytourney.tournament.progress import Progress
    from ytourney.tournament.run import plan_run
    from ytourney.tournament.store import stream_records
    from ytourney.tournament.validation import check_players

    plan = plan_run(config, out_dir)
    if resume and not plan.started:
        raise click.UsageError(f"nothing to resume: {str(plan.directory)!r} holds no tournament "
                               "(run without --resume to start)")
    if plan.stored < plan.planned:
        check_players(plan.config)  # before the store is opened: a broken player writes nothing
    if plan.note and not quiet:
        click.echo(f"ytourney: {plan.note}", err=True)
    try:
        summary = plan.run(workers=workers, backend=backend, address=address,
                           progress=None if quiet else Progress(sys.stderr))
    except RunInterrupted as err:
        hint = f"ytourney run {config}" + (f" --out {out_dir}" if out_dir else "")
        hint += f" --backend {backend.value}" if backend is not Backend.LOCAL else ""
        hint += f" --address {address}" if address else ""
        click.echo(f"ytourney: {err}", err=True)
        click.echo(f"ytourney: to continue, run the same command again: {hint} (or add --resume)", err=True)
        ctx.exit(128 + err.signal_number)
        return
    if not quiet:
        for line in summary.lines():
            click.echo(f"ytourney: {line}", err=True)
    # the games are streamed from the store in game-id order, so memory does not grow with the tournament
    records = stream_records(plan.directory, times=False)
    click.echo(format_table(rating_table(records, plan.config.ratings, sprt=summary.sprt, ordered=True)))


@main.command()
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--no-start", is_flag=True, help="Do not start bots or engines; only check the config and paths.")
@backend_options
def validate(config: str, no_start: bool, backend: Backend, address: str | None) -> None:
    """Check a tournament config without playing any game.

    \b
    Checks every key, the players' specs, that plugins load and engine
    programs exist and start (each bot is created, set up and closed),
    then prints a summary with the number of games planned.
    With --backend ray, every player is also checked on every alive Ray node
    (engines and plugins must exist at the same paths on all of them).
    Example:
      ytourney validate configs/quickstart.yaml
      ytourney validate configs/quickstart.yaml --backend ray --address 10.0.0.1:6379
    """
    from ytourney.tournament.validation import validate_config

    report = validate_config(config, start=not no_start, backend=backend, address=address)
    for line in report.lines():
        click.echo(line)
    if report.failure:
        raise click.ClickException(report.failure)
    click.echo(f"{config}: ok")


# --- ratings, crosstable, export, publish -------------------------------------------------------------------------

_RESULTS = click.Path(exists=True)
_TABLE_FORMATS = ("text", "md", "csv", "json", "html")


def _league(dirs: tuple[str, ...], detail: bool = True) -> tuple[list, Any]:
    """The sources of DIR… and their ratings (league order: folders as given, then game id); without detail the
    games are streamed from the stores and not kept."""
    from ytourney.publish.sources import load_sources, rate_sources

    sources = load_sources(dirs)
    return sources, rate_sources(sources, sources[0].rating_settings, detail=detail)


@main.command("ratings")
@click.argument("dirs", nargs=-1, required=True, type=_RESULTS)
@click.option("--format", "fmt", type=click.Choice(_TABLE_FORMATS), default="text", show_default=True,
              help="Output format (csv/json carry every figure raw; html is a standalone page).")
def ratings_command(dirs: tuple[str, ...], fmt: str) -> None:
    """TrueSkill rating table of results folders, all games rated together.

    \b
    Games are replayed in game-id order, folder by folder in the order given
    (a league: players are matched by name across folders), so the table does
    not depend on workers or completion order. Ranked by mu - 3 sigma; LOS is
    the likelihood that a player is stronger than the next one. A match folder
    with `schedule.sprt` also shows the SPRT state. A `.jsonl` export file may
    stand in for a folder.
    Example:
      ytourney ratings results/demo results/demo-2 --format md
    """
    from ytourney.publish.handicap_table import handicap_section
    from ytourney.publish.ratings_table import build_table, format_table
    from ytourney.publish.sources import sprt_state_of

    sources, ratings = _league(dirs, detail=False)  # the table needs no per-game detail: memory stays flat
    sprt = sprt_state_of(sources[0]) if len(sources) == 1 else None
    title = "Ratings: " + " + ".join(s.name for s in sources)
    table = build_table(ratings, sprt=sprt, title=title)
    handicap = handicap_section(sources, ratings) if fmt in ("text", "md", "html") else None
    if handicap is None:
        click.echo(format_table(table, fmt).rstrip("\n"))
        return
    _echo_tables([table.to_table(), handicap.pairs_table(), handicap.levels_table()], fmt, title)


@main.command("crosstable")
@click.argument("dirs", nargs=-1, required=True, type=_RESULTS)
@click.option("--format", "fmt", type=click.Choice(_TABLE_FORMATS), default="text", show_default=True,
              help="Output format (a matrix in text/md/html, one row per pair in csv/json).")
def crosstable_command(dirs: tuple[str, ...], fmt: str) -> None:
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

    sources, ratings = _league(dirs)
    order = [player.name for player in ratings.ranking()]
    title = "Crosstable: " + " + ".join(s.name for s in sources)
    click.echo(format_crosstable(build_crosstable(ratings.records, order, title), fmt).rstrip("\n"))


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


@main.command("publish")
@click.argument("dirs", nargs=-1, required=True, type=_RESULTS)
@click.option("--out", "out", type=click.Path(file_okay=False), required=True,
              help="Site folder (new, empty, or a site published before).")
@click.option("--title", default=None, help="Site title (default: the tournament names).")
def publish_command(dirs: tuple[str, ...], out: str, title: str | None) -> None:
    """Publish a static HTML site of results folders.

    \b
    The index holds the rating table, a rating chart, the crosstable, the
    fair-handicap tables (per pair, and the worth of each level, when games
    used handicaps) and heat maps of first moves; every game has a page
    with the final position and the move list.
    All links are relative: open SITE/index.html directly or serve the folder.
    Example:
      ytourney publish results/demo --out site/
    """
    from ytourney.publish.handicap_table import handicap_section
    from ytourney.publish.site import publish_site
    from ytourney.publish.sources import sprt_state_of

    sources, ratings = _league(dirs)
    report = handicap_section(sources, ratings)
    handicap = [report.pairs_table(""), report.levels_table()] if report is not None else None
    sprt = sprt_state_of(sources[0]) if len(sources) == 1 else None
    result = publish_site(ratings, out, title=title, handicap=handicap, sprt=sprt)
    click.echo(f"ytourney: site written to {result.index} ({result.pages} pages, {result.games} games)", err=True)


def _echo_tables(tables: list[Any], fmt: str, title: str) -> None:
    """Print several tables: one after another in text and Markdown, on one standalone page in html."""
    from ytourney.publish.html import render_page
    from ytourney.publish.render import render_table

    if fmt == "html":
        click.echo(render_page("table_page.html", title=title, tables=tables).rstrip("\n"))
        return
    click.echo("\n\n".join(render_table(table, fmt).rstrip("\n") for table in tables))


@main.command("handicap")
@click.argument("dirs", nargs=-1, required=True, type=_RESULTS)
@click.option("--format", "fmt", type=click.Choice(_TABLE_FORMATS), default="text", show_default=True,
              help="Output format (csv/json: one row per pair, results by level as numbers; json also holds the "
                   "level worths).")
@click.option("--levels", "only_levels", is_flag=True,
              help="Only the worth of each level (e.g. to get it as csv).")
def handicap_command(dirs: tuple[str, ...], fmt: str, only_levels: bool) -> None:
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

    sources, ratings = _league(dirs)
    report = handicap_report(ratings.records, sources[0].handicap_settings, ratings)
    names = " + ".join(s.name for s in sources)
    pairs = report.pairs_table(f"Fair handicaps: {names}")
    levels = report.levels_table(f"Worth of each handicap level: {names}")
    if only_levels:
        click.echo(render_table(levels, fmt).rstrip("\n"))
    elif fmt in ("csv", "json"):
        click.echo(render_table(pairs, fmt).rstrip("\n"))
    else:
        _echo_tables([pairs, levels], fmt, f"Fair handicaps: {names}")
