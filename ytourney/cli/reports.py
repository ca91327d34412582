"""Commands that read results folders: ratings, crosstables, fair handicaps, exports, imports and the site."""

from __future__ import annotations

import click

from ytourney.cli.group import main
from ytourney.cli.options import (
    POOL,
    RESULTS,
    TABLE_FORMATS,
    leagues,
    rating_options,
    render_tables,
    single_table,
    wants_elo,
)


@main.command("ratings")
@click.argument("dirs", nargs=-1, required=True, type=RESULTS)
@click.option("--format", "fmt", type=click.Choice(TABLE_FORMATS), default="text", show_default=True,
              help="Output format (csv/json carry every figure raw; html is a standalone page).")
@POOL
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
    for heading, sources, ratings, variant in leagues(dirs, detail=False, pool=pool, single=single_table(fmt)):
        sprt = sprt_state_of(sources[0]) if len(sources) == 1 else None
        title = "Ratings: " + " + ".join(s.name for s in sources) + heading
        elo = fit_sources(sources, anchor, variant=variant) if wants_elo(sort, show_elo, anchor) else None
        table = build_table(ratings, sprt=sprt, title=title, elo=elo, sort=RatingSort(sort))
        handicap = handicap_section(sources, ratings) if fmt in ("text", "md", "html") else None
        if handicap is None:
            outputs.append(format_table(table, fmt).rstrip("\n"))
        else:
            tables = [table.to_table(), handicap.pairs_table()]
            if handicap.sides is None:  # a side's ladder learns no worth of a level (the table above says so)
                tables.append(handicap.levels_table())
            outputs.append(render_tables(tables, fmt, title))
    click.echo("\n\n".join(outputs))


@main.command("crosstable")
@click.argument("dirs", nargs=-1, required=True, type=RESULTS)
@click.option("--format", "fmt", type=click.Choice(TABLE_FORMATS), default="text", show_default=True,
              help="Output format (a matrix in text/md/html, one row per pair in csv/json).")
@POOL
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
    for heading, sources, ratings, _ in leagues(dirs, pool=pool, single=single_table(fmt)):
        order = [player.name for player in ratings.ranking()]
        title = "Crosstable: " + " + ".join(s.name for s in sources) + heading
        outputs.append(format_crosstable(build_crosstable(ratings.records, order, title), fmt).rstrip("\n"))
    click.echo("\n\n".join(outputs))


@main.command("export")
@click.argument("dirs", nargs=-1, required=True, type=RESULTS)
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
    from ytourney.games.record import league_order
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
@click.argument("dirs", nargs=-1, required=True, type=RESULTS)
@click.option("--out", "out", type=click.Path(file_okay=False), required=True,
              help="Site folder (new, empty, or a site published before).")
@click.option("--title", default=None, help="Site title (default: the tournament names).")
@POOL
def publish_command(dirs: tuple[str, ...], out: str, title: str | None, pool: bool) -> None:
    """Publish a static HTML site of results folders.

    \b
    The index holds the rating table, a rating chart, the crosstable, the
    fair-handicap tables (per pair, and the worth of each level, when games
    used handicaps) and heat maps of first moves; every game has a page
    with the final position and the move list, every pair a page with its
    head-to-head results, rating differences and fair handicap; a Handicaps
    page charts the fair levels and level worths; the games list can be
    filtered and sorted. Folders holding games of several boards or rules
    sets get an index with a section (a site of its own) per board and
    rules set, unless --pool. Publishing again updates the site in place and
    removes only files an earlier publish wrote (listed in SITE/.ytourney-site).
    All links are relative: open SITE/index.html directly or serve the folder.
    Example:
      ytourney publish results/demo --out site/
    """
    from ytourney.publish.league_site import publish_leagues

    result = publish_leagues(dirs, out, title=title, pool=pool)  # a section per board and rules set, unless --pool
    click.echo(f"ytourney: site written to {result.index} ({result.pages} pages, {result.games} games)", err=True)


@main.command("handicap")
@click.argument("dirs", nargs=-1, required=True, type=RESULTS)
@click.option("--format", "fmt", type=click.Choice(TABLE_FORMATS), default="text", show_default=True,
              help="Output format (csv/json: one row per pair, results by level as numbers; json also holds the "
                   "level worths).")
@click.option("--levels", "only_levels", is_flag=True,
              help="Only the worth of each level (e.g. to get it as csv).")
@POOL
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
    replayed as a league, as `ytourney ratings` does. In a game whose levels
    favour a fixed side (its ladder says which), each pair's row is the fair
    value of the sides instead: the level at which that side scores half (a
    draw counts half a win), both seatings pooled, in the game's terms.
    Example:
      ytourney handicap results/handicap
      ytourney handicap results/handicap --format csv > fair.csv
    """
    from ytourney.publish.handicap_table import handicap_report, require_handicap_ladder
    from ytourney.publish.render import render_table

    outputs = []
    for heading, sources, ratings, _ in leagues(dirs, pool=pool, single=single_table(fmt)):
        names = " + ".join(s.name for s in sources) + heading
        require_handicap_ladder(ratings.records, names)
        report = handicap_report(ratings.records, sources[0].handicap_settings, ratings)
        pairs = report.pairs_table(f"Fair handicaps: {names}")
        levels = report.levels_table(f"Worth of each handicap level: {names}")
        empty = ""
        if not levels.rows and fmt in ("text", "md"):  # nothing learned: a line says so instead of an empty table
            why = ("handicap games were rated as plain wins and losses (ratings.handicap: even)" if not report.learned
                   else "no handicap games were played")
            empty = f"{levels.title}: nothing to show ({why}, so no level's worth was learned)."
            if report.sides is not None:
                empty = f"{levels.title}: nothing to show. {levels.notes[0]}"
        if only_levels:
            outputs.append(empty or render_table(levels, fmt).rstrip("\n"))
        elif fmt in ("csv", "json"):
            outputs.append(render_table(pairs, fmt).rstrip("\n"))
        elif empty:
            outputs.append(render_tables([pairs], fmt, f"Fair handicaps: {names}") + "\n\n" + empty)
        else:
            outputs.append(render_tables([pairs, levels], fmt, f"Fair handicaps: {names}"))
    click.echo("\n\n".join(outputs))
