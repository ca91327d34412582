"""Commands that run tournaments: run a config, a one-line match, and validate a config before a run."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ytourney.cli.command_line import command_line
from ytourney.cli.group import AsciiFloat, AsciiInt, main
from ytourney.cli.options import (
    DEFAULT_GAME,
    LiveOutputs,
    backend_options,
    final_publish,
    given_rule_flags,
    live_options,
    live_site,
    publish_options,
    rating_options,
    rule_flag_items,
    rule_flag_options,
    rules_mapping,
    wants_elo,
)
from ytourney.errors import YTourneyError
from ytourney.boards.board import ACCEPTED_SPECS

if TYPE_CHECKING:
    from ytourney.tournament.executor import Backend


def _execute(ctx: click.Context, plan: Any, hint: str, *, workers: int | None, backend: Backend,
             address: str | None, quiet: bool, live: LiveOutputs, sort: str, show_elo: bool,
             anchor: str | None, gtp_log: str | None = None,
             site: tuple[str | None, float | None] = (None, None), prepare: Any = None) -> None:
    """Run a planned tournament with its live outputs (files, tables, a site), then print the final rating table
    (`run` and `match`)."""
    import contextlib
    import os
    import sys

    from ytourney.errors import RunInterrupted
    from ytourney.publish.export import ExportFormat, open_feed
    from ytourney.publish.ratings_table import RatingSort, RatingTable, folder_table, format_table
    from ytourney.tournament.executor import Backend
    from ytourney.tournament.progress import Progress
    from ytourney.tournament.signal_gate import gated_signals
    from ytourney.tournament.validation import check_players

    names = plan.config.player_names
    if live.pgn is not None and live.jsonl is not None and (
            os.path.realpath(live.pgn) == os.path.realpath(live.jsonl)):
        raise click.ClickException(f"--pgn-out and --jsonl-out name the same file {live.pgn!r}; give each its own")
    if anchor is not None and anchor not in names:
        raise click.UsageError(f"--anchor {anchor!r} is not a player; expected one of {', '.join(names)}")
    plan.check_free()  # a folder another run holds is refused before anything is said
    if plan.stored < plan.planned:
        check_players(plan.config)  # before the store is opened: a broken player writes nothing
    if plan.note and not quiet:
        click.echo(f"ytourney: {plan.note}", err=True)
    if not plan.stored and not quiet:
        _warn_seats(plan.config)

    def rating_table() -> RatingTable:
        return folder_table(plan.directory, plan.config.ratings, elo=wants_elo(sort, show_elo, anchor),
                            sprt=plan.config.schedule.sprt is not None, anchor=anchor, sort=RatingSort(sort))

    def table() -> str:
        return format_table(rating_table())

    final: list[RatingTable] = []  # the table after the run: the progress line's last leader is its first player

    def final_table() -> RatingTable:
        if not final:
            final.append(rating_table())
        return final[0]

    progress = None if quiet else Progress(sys.stderr)
    sink = live_site(plan.directory, site[0], site[1], progress)
    stored = [0]
    with contextlib.ExitStack() as stack:
        outputs = ((live.pgn, ExportFormat.PGN), (live.jsonl, ExportFormat.JSONL))
        stored_hash = plan.stored_hash or plan.config.digest()  # a grown tournament: its stored games still count
        feeds = [stack.enter_context(contextlib.closing(open_feed(path, fmt, plan.directory, stored_hash)))
                 for path, fmt in outputs if path is not None]
        if prepare is not None:
            prepare()  # what the run writes before its store (a match's config), once every check has passed

        def on_game(record: Any) -> None:
            for feed in feeds:
                feed.write(record)
            stored[0] += 1
            if live.rating_interval and stored[0] % live.rating_interval == 0:
                if progress is not None:
                    progress.block(table())
                else:
                    click.echo(table(), err=True)

        if backend is Backend.LOCAL:  # workers, and the players in them, are ours to check (Ray starts its own)
            stack.enter_context(gated_signals(progress.note if progress is not None else lambda note: None))
        try:
            summary = plan.run(workers=workers, backend=backend, address=address, progress=sink,
                               gtp_log=gtp_log, on_game=on_game if feeds or live.rating_interval else None,
                               final_leader=lambda: final_table().leader_text())
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
    schedule = plan.config.schedule
    if schedule.format.in_rounds:  # a Swiss's standings or a knockout's bracket, above the rating table
        from ytourney.tournament.round_scheduler import report_lines, stored_plan

        click.echo("\n".join(report_lines(stored_plan(plan.config, plan.directory), schedule.format,
                                           schedule.rounds)) + "\n")
    click.echo(format_table(final_table()))


@main.command()
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--workers", type=AsciiInt(min=1), default=None,
              help="Worker processes (default: the config's `workers`, else one per core).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Results folder (default: results/<name>/ of the config).")
@click.option("--resume", is_flag=True,
              help="Only continue: refuse to start if the folder holds no tournament yet.")
@click.option("--quiet", "-q", is_flag=True, help="No progress line, per-game lines or notes on stderr.")
@click.option("--gtp-log", "gtp_log", type=click.Path(file_okay=False), default=None,
              help="Write every GTP engine's exchange, per engine and game, with timestamps, into this folder.")
@click.option("--set", "overrides", multiple=True, metavar="KEY.PATH=VALUE",
              help="Override one config key (the value read as YAML), e.g. --set schedule.games_per_pair=40 "
                   "--set players[1].bot=mcts:playouts=500; checked like the file itself.")
@click.option("--game", "game_name", default=None, metavar="NAME",
              help="Play this game instead of the config's `game:` (the same as --set game=NAME).")
@live_options
@rating_options
@backend_options
@publish_options
@click.pass_context
def run(ctx: click.Context, config: str, workers: int | None, out_dir: str | None, resume: bool,
        quiet: bool, gtp_log: str | None, backend: Backend, address: str | None, sort: str, show_elo: bool,
        anchor: str | None, overrides: tuple[str, ...], pgn_out: str | None, jsonl_out: str | None,
        rating_interval: int | None, publish: str | None, publish_every: float | None,
        game_name: str | None) -> None:
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
    Each finished game prints a cutechess-style line on stderr
    (`Finished game 12 (a vs b): 1-0 {connection}`, the first mover first),
    a two-player match its running score too (--quiet drops them).
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
    from ytourney.tournament.growth import check_folder
    from ytourney.tournament.run import plan_run

    if game_name is not None:
        overrides = (*overrides, f"game={game_name}")
    plan = plan_run(config, out_dir, overrides=overrides)
    check_folder(plan.directory, plan.config)  # the refusal (more games per pair is no refusal), and nothing else
    if resume and not plan.started:
        raise click.UsageError(f"nothing to resume: {str(plan.directory)!r} holds no tournament "
                               "(run without --resume to start)")
    hint = command_line(ctx) + ("" if resume else " (or add --resume)")
    _execute(ctx, plan, hint, workers=workers, backend=backend, address=address, quiet=quiet,
             live=LiveOutputs(pgn_out, jsonl_out, rating_interval), sort=sort, show_elo=show_elo, anchor=anchor,
             gtp_log=gtp_log, site=(publish, publish_every))


@main.command("match")
@click.argument("players", nargs=-1, required=True)
@click.option("--gauntlet", is_flag=True, help="The first player challenges each of the others (3+ players).")
@click.option("--games-per-pair", type=AsciiInt(min=1), default=None,
              help="Games of each pair, seats reversed in pairs [default: 2].")
@click.option("--game", default=None, metavar="NAME", help="The game [default: y]; `ytourney games` lists them.")
@click.option("--board", "board_spec", default=None, help=f"Board [default: the game's own; tri:11 for Y]: {ACCEPTED_SPECS}.")
@click.option("--pie/--no-pie", default=None, help="Offer the swap after the first move [default: the game's own].")
@rule_flag_options
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
              help="A rule option of the game (see `ytourney games`), e.g. --rule max_plies=400; repeatable.")
@click.option("--move-seconds", type=AsciiFloat(), default=None, help="Seconds per move.")
@click.option("--game-seconds", type=AsciiFloat(), default=None, help="A game clock: seconds per player per game.")
@click.option("--increment", type=AsciiFloat(), default=None, help="Seconds added to the game clock after each move.")
@click.option("--player-time", "player_times", multiple=True, metavar="NAME=KEY=VALUE[,KEY=VALUE]",
              help="A player's own time control (time odds), replacing --move-seconds/--game-seconds/--increment for "
                   "it; keys of a config's time: (move_seconds, game_seconds, increment, grace_seconds), e.g. "
                   "--player-time fast=move_seconds=0.2; repeatable.")
@click.option("--handicap", default=None, metavar="auto|LEVEL",
              help="auto: learn each pair's fair handicap; LEVEL: the weaker player always gets it (in a game whose "
                   "levels favour a side: whoever plays that side).")
@click.option("--max-level", type=AsciiInt(min=1), default=None, metavar="N",
              help="Top of the handicap ladder (--handicap auto explores up to it; a LEVEL may not pass it) "
                   "[default: 6].")
@click.option("--openings", default=None, metavar="FILE", help="Opening lines, one per game pair.")
@click.option("--random-plies", type=AsciiInt(min=1), default=None, metavar="N",
              help="Open each game pair with N random stones.")
@click.option("--workers", type=AsciiInt(min=1), default=None, help="Worker processes [default: one per core].")
@click.option("--seed", type=AsciiInt(min=0), default=None, help="Seed of the schedule and the games.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Results folder [default: results/NAME/].")
@click.option("--name", default=None, help="Tournament name [default: the players' names joined by -vs-].")
@click.option("--sprt", default=None, metavar="elo0=0,elo1=5[,...]",
              help="Stop a 2-player match by an SPRT in Elo: elo0, elo1, alpha, beta, "
                   "model=pentanomial|trinomial|bernoulli (or p0, p1).")
@click.option("--resign", default=None, metavar="proved|off|movecount=N,score=S[,twosided=true]",
              help="Resign adjudication: a side loses once its search proved the loss (proved), or after N of its "
                   "moves in a row valued below S (0..0.5; twosided: the opponent's above 1-S as long) "
                   "[default: proved].")
@click.option("--draw", default=None, metavar="auto|off|PLIES",
              help="Draw adjudication: a draw after PLIES plies without progress by the game's own measure "
                   "[default: auto, the game's own number: 80 to 200 plies, off in Y and YvY].")
@click.option("--quiet", "-q", is_flag=True, help="No progress line, per-game lines or notes on stderr.")
@click.option("--resume", is_flag=True, help="Only continue: refuse to start if the folder holds no match yet.")
@click.option("--set", "overrides", multiple=True, metavar="KEY.PATH=VALUE",
              help="Override one key of the match's config (the value read as YAML), e.g. --set fault_limit=2 "
                   "--set players[0].gtp.chatter_lines=50.")
@click.option("--gtp-log", "gtp_log", type=click.Path(file_okay=False), default=None,
              help="Write every GTP engine's exchange, per engine and game, with timestamps, into this folder.")
@live_options
@rating_options
@backend_options
@publish_options
@click.pass_context
def match_command(ctx: click.Context, players: tuple[str, ...], out_dir: str | None, workers: int | None,
                  quiet: bool, sort: str, show_elo: bool, anchor: str | None, pgn_out: str | None,
                  jsonl_out: str | None, rating_interval: int | None, board_spec: str | None,
                  publish: str | None, publish_every: float | None, resume: bool, overrides: tuple[str, ...],
                  gtp_log: str | None, backend: Backend, address: str | None, **options: Any) -> None:
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
      ytourney match mcts mcts-pro --move-seconds 1 --player-time mcts-pro=move_seconds=0.25
      ytourney match mcts heuristic --game sexta --resign movecount=8,score=0.03 --draw 60
    """
    from ytourney.tournament.adhoc import MatchOptions, plan_match
    from ytourney.tournament.run import plan_config

    if len(players) < 2:
        raise click.UsageError(f"give at least 2 players; got {len(players)}: {', '.join(map(repr, players))}")
    from ytourney.games.registry import get_game

    if not any(item.strip().startswith("game=") for item in overrides):  # else --set names the game of the rules
        rules_mapping(get_game(options["game"] or DEFAULT_GAME), options["pie"], options["rules"])  # as play checks
    rules = (*rule_flag_items(), *options.pop("rules"))  # a rule flag is its --rule item, written before the others
    flags = tuple((f"rules.{rule.key}", flag) for flag, rule in given_rule_flags())
    match = plan_match(players, MatchOptions(board=board_spec, rules=rules, rule_flags=flags, **options), out_dir,
                       overrides)
    plan = plan_config(match.config, match.folder)
    if resume and not plan.started:
        raise click.UsageError(f"nothing to resume: {str(plan.directory)!r} holds no match "
                               "(run without --resume to start)")
    _execute(ctx, plan, command_line(ctx) + ("" if resume else " (or add --resume)"), workers=workers,
             backend=backend, address=address, quiet=quiet, live=LiveOutputs(pgn_out, jsonl_out, rating_interval),
             sort=sort, show_elo=show_elo, anchor=anchor, gtp_log=gtp_log, site=(publish, publish_every),
             prepare=match.write)


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
