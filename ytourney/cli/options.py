"""Options and helpers several commands share: backends, live outputs, rating columns, result folders."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from ytourney.games.registry import RULE_FLAGS, RuleFlag
from ytourney.cli.group import AsciiFloat, AsciiInt
from ytourney.games.rules import rule_from_text
from ytourney.numerals import foreign_digit_problem

BACKENDS = ("local", "ray")
"""The --backend choices, the default first (ytourney.tournament.executor.Backend, listed here to keep --help fast)."""


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
    command = click.option("--rating-interval", type=AsciiInt(min=1), default=None, metavar="N",
                           help="Print the rating table on stderr every N games stored.")(command)
    command = click.option("--jsonl-out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                           help="Append each game to FILE as JSON lines as it is stored (flushed per game); a rerun "
                                "continues the file without duplicates.")(command)
    return click.option("--pgn-out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                        help="Append each game to FILE as PGN as it is stored (flushed per game); a rerun continues "
                             "the file without duplicates.")(command)


def rating_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The --rating, --elo and --anchor options of every command that prints a rating table."""
    command = click.option("--anchor", metavar="NAME", default=None,
                           help="Elo anchor: this player is 0 (default: the pool average); implies --elo.")(command)
    command = click.option("--elo/--no-elo", "show_elo", default=False,
                           help="Add Bradley-Terry Elo with its 95% interval beside the TrueSkill columns.")(command)
    return click.option("--rating", "sort", type=click.Choice(("trueskill", "elo")), default="trueskill",
                        show_default=True,
                        help="Rank by conservative TrueSkill (mu - 3 sigma) or by Elo (implies --elo).")(command)


def wants_elo(sort: str, show_elo: bool, anchor: str | None) -> bool:
    return show_elo or sort == "elo" or anchor is not None


def publish_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The --publish and --publish-every options of `run` (and `match`): the command gets `publish` (a site folder
    or None) and `publish_every` (seconds, None for the default); --publish-every needs --publish."""

    @functools.wraps(command)
    def checked(*args: Any, publish: str | None, publish_every: float | None, **kwargs: Any) -> Any:
        if publish_every is not None and publish is None:
            raise click.UsageError("--publish-every needs --publish SITE")
        if publish_every is not None and not math.isfinite(publish_every):
            raise click.UsageError(f"--publish-every {publish_every!r}: expected a finite number of seconds >= 1")
        return command(*args, publish=publish, publish_every=publish_every, **kwargs)

    checked = click.option(
        "--publish-every", type=AsciiFloat(min=1.0), default=None, metavar="SECONDS",
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


RESULTS = click.Path(exists=True)


TABLE_FORMATS = ("text", "md", "csv", "json", "html")


def leagues(dirs: tuple[str, ...], detail: bool = True, *, pool: bool = False,
             single: str = "") -> list[tuple[str, list, Any, Any]]:
    """The sources of DIR… and their ratings (league order: folders as given, then game id), one league per board
    and rules set unless `pool`, each with a heading ('' for one set; a pool names its sets) and its variant (None
    when pooled); without detail the
    games are streamed from the stores and not kept. `single` names an output that holds one league only (refused
    with several)."""
    from ytourney.publish.sources import load_sources, rate_sources, refuse_pool_across_games, split_by_variant

    sources = load_sources(dirs)
    variants = split_by_variant(sources)
    if pool:
        refuse_pool_across_games(variants)
    if len(variants) <= 1 or pool:
        heading = f" [pooled: {'; '.join(variant.label for variant, _ in variants)}]" if len(variants) > 1 else ""
        return [(heading, sources, rate_sources(sources, sources[0].rating_settings, detail=detail), None)]
    if single:
        listed = "; ".join(variant.label for variant, _ in variants)
        raise click.ClickException(
            f"the folders hold games of {len(variants)} boards or rules sets ({listed}), rated apart, and {single} "
            "takes one: give the folders of one board and rules set, or add --pool to rate them as one pool")
    return [(f" [{variant.label}]", held, rate_sources(held, held[0].rating_settings, detail=detail, variant=variant),
             variant) for variant, held in variants]


POOL = click.option("--pool", is_flag=True,
                     help="Rate games of different boards or rules sets as one pool (default: one table for each).")


def render_tables(tables: list[Any], fmt: str, title: str) -> str:
    """Several tables: one after another in text and Markdown, on one standalone page in html."""
    from ytourney.publish.html import render_page
    from ytourney.publish.render import render_table

    if fmt == "html":
        return render_page("table_page.html", title=title, tables=tables).rstrip("\n")
    return "\n\n".join(render_table(table, fmt).rstrip("\n") for table in tables)


def single_table(fmt: str) -> str:
    """The output formats that hold one table: csv and json (and html, one page) take one league only."""
    return f"--format {fmt}" if fmt in ("csv", "json", "html") else ""


DEFAULT_GAME = "y"
"""The game of a command that names none (`--game` left out): Y, where ytourney began; only the CLI defaults."""

game_option = click.option(
    "--game", "game_name", default=DEFAULT_GAME, show_default=True, metavar="NAME",
    help=f"The game to play: {DEFAULT_GAME}, or any name `ytourney games` lists.")


_FLAGS_GIVEN = "ytourney.rule_flags"


def _note_flag(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta.setdefault(_FLAGS_GIVEN, []).append(param.opts[0])


def rule_flag_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The RULE_FLAGS as flags of a command; `given_rule_flags` tells which a command line gave."""
    for flag, rule in reversed(RULE_FLAGS.items()):
        command = click.option(flag, is_flag=True, expose_value=False, callback=_note_flag, help=rule.help)(command)
    return command


def given_rule_flags() -> list[tuple[str, RuleFlag]]:
    """The rule flags of the running command line, in RULE_FLAGS order: (flag, its rule)."""
    given = click.get_current_context().meta.get(_FLAGS_GIVEN, [])
    return [(flag, rule) for flag, rule in RULE_FLAGS.items() if flag in given]


def rule_flag_items() -> tuple[str, ...]:
    """The rule flags of the running command line as `--rule` items (KEY=VALUE), to go before the --rule ones."""
    return tuple(f"{rule.key}={rule.value}" for _, rule in given_rule_flags())

rule_options = click.option(
    "--rule", "rule_items", multiple=True, metavar="KEY=VALUE",
    help="A rule option of the game (see `ytourney games`), e.g. --rule max_plies=400; repeatable.")


def rules_mapping(game: Any, pie: bool | None, items: tuple[str, ...]) -> dict[str, Any]:
    """The `rules:` mapping the CLI's rule options stand for (--pie, the rule flags given, then the --rule items),
    each value converted to its option's type."""
    options = game.rule_options
    data: dict[str, Any] = {}
    if pie is not None and "pie" in options:
        data["pie"] = pie
    for flag, rule in given_rule_flags():
        if rule.key not in options:
            raise click.BadParameter(f"game {game.name!r} has no {rule.words} rule", param_hint=f"'{flag}'")
        data[rule.key] = _rule_value(rule.key, rule.value, options[rule.key])
    for item in items:
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or key not in options:
            known = ", ".join(options) or "none"
            raise click.BadParameter(f"{item!r}: expected KEY=VALUE with a rule of {game.name!r} ({known})",
                                     param_hint="'--rule'")
        if key in data:
            raise click.BadParameter(f"{item!r}: rule {key!r} is already set (by --pie/--no-pie, a rule flag or an "
                                     "earlier --rule); give each rule once", param_hint="'--rule'")
        data[key] = _rule_value(key, raw.strip(), options[key])
    return data


_RULE_KINDS = {bool: "true or false", int: "a whole number", float: "a number"}
"""A rule option's type in the words of a refusal."""


def _rule_value(key: str, raw: str, option: Any) -> Any:
    """One --rule value as its option's type, range and choices say."""
    kind = _RULE_KINDS.get(option.type, option.type.__name__)
    try:
        value = rule_from_text(raw, option)
    except ValueError:
        problem = foreign_digit_problem(raw) or f"expected {kind}"
        raise click.BadParameter(f"{key}={raw!r}: {problem}", param_hint="'--rule'") from None
    if option.choices and value is not None and value not in option.choices:
        raise click.BadParameter(f"{key}={raw!r}: expected one of {', '.join(option.choices)}", param_hint="'--rule'")
    bounds = option.broken_range(value)
    if bounds:
        raise click.BadParameter(f"{key}={raw!r} is out of range; expected {kind} {bounds}", param_hint="'--rule'")
    return value
