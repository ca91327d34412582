"""The published site of one or more results folders: index, games list, pairs, handicaps, player and game pages.

Pages are rendered into a staging folder inside the site and moved into place (see site_files), so a site can be
rewritten while a reader looks at it, as `ytourney run --publish` does during a run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ytourney.games.record import utc_now
from ytourney.publish.charts import (
    CHART_WIDTH,
    fair_level_chart,
    level_worth_chart,
    player_chart,
    rating_chart,
)
from ytourney.publish.crosstable import Crosstable, build_crosstable
from ytourney.publish.export import to_jsonl, to_pgn
from ytourney.publish.first_moves import heatmaps
from ytourney.publish.game_pages import (
    SiteLinks,
    game_page,
    games_by_player,
    games_list_files,
    player_page,
)
from ytourney.publish.handicap_table import HandicapReport
from ytourney.publish.html import TableView, asset, counted, render_page, stylesheet, table_view
from ytourney.publish.pair_pages import (
    collect_pairs,
    fair_level_history,
    handicaps_page,
    pair_page,
    pair_summary,
    pairs_page,
)
from ytourney.publish.ratings_table import build_table
from ytourney.publish.round_pages import RoundsOf, rounds_context
from ytourney.publish.site_files import SiteWriter
from ytourney.publish.table import Table
from ytourney.stats.elo import EloFit, fit_elo
from ytourney.stats.ratings import Ratings
from ytourney.stats.sprt import SprtState


@dataclass(frozen=True)
class SiteResult:
    """What `publish_site` wrote."""

    out: Path
    index: Path
    pages: int
    games: int
    files: tuple[Path, ...]


def _slug(text: str, fallback: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-").lower()
    return slug[:48] or fallback


class _Names:
    """Unique file-name slugs per key."""

    def __init__(self) -> None:
        self.used: set[str] = set()
        self.by_key: dict[Any, str] = {}

    def get(self, key: Any, text: str, fallback: str) -> str:
        if key not in self.by_key:
            base = _slug(text, fallback)
            name, n = base, 1
            while name in self.used:
                n += 1
                name = f"{base}-{n}"
            self.used.add(name)
            self.by_key[key] = name
        return self.by_key[key]


def _handicap_views(handicap: Table | Sequence[Table] | None) -> list[TableView]:
    """Views of the handicap tables that have rows; the first one (fair handicaps) keeps no caption of its own."""
    tables = [handicap] if isinstance(handicap, Table) else list(handicap or ())
    views = [table_view(t, title="" if i == 0 else None) for i, t in enumerate(tables) if t.rows]
    return views if tables and tables[0].rows else []


def publish_site(
    ratings: Ratings,
    out: str | os.PathLike[str],
    *,
    title: str | None = None,
    handicap: Table | Sequence[Table] | None = None,
    handicap_report: HandicapReport | None = None,
    sprt: SprtState | None = None,
    crosstable: Crosstable | None = None,
    downloads: bool = True,
    generated: str | None = None,
    status: str | None = None,
    rounds: Sequence[RoundsOf] = (),
) -> SiteResult:
    """Write a static site of a replay: index (tables, chart, heat maps), games list, pairs, player and game pages.

    Every link is relative, so the folder works from file:// and from any web server. `handicap` is an optional
    Table or tables (see handicap_table.HandicapReport: fair handicaps per pair, worth of each level) shown under the
    crosstable and on the handicaps page; `handicap_report` the report they come from, whose estimates the pair
    pages and the handicap charts draw (its tables are used when `handicap` is not given); `sprt` an SprtState
    shown above the ratings; `status` a banner on every page (a run in progress); `rounds` the Swiss and knockout
    tournaments among the folders, shown on a rounds page. A folder that already holds a
    site from an earlier publish is updated; any other non-empty folder is refused.
    """
    writer = SiteWriter(out)
    try:
        files, pages = _write_site(writer, ratings, title=title, handicap=handicap, report=handicap_report,
                                   sprt=sprt, crosstable=crosstable, downloads=downloads,
                                   generated=generated, status=status, rounds=rounds)
    except BaseException:
        writer.abandon()
        raise
    folder = writer.folder
    return SiteResult(folder, folder / "index.html", pages, len(ratings.games), files)


def _write_site(writer: SiteWriter, ratings: Ratings, *, title: str | None, handicap: Table | Sequence[Table] | None,
                report: HandicapReport | None, sprt: SprtState | None, crosstable: Crosstable | None,
                downloads: bool, generated: str | None, status: str | None,
                rounds: Sequence[RoundsOf] = ()) -> tuple[tuple[Path, ...], int]:
    games = ratings.games
    records = ratings.records
    elo = fit_elo(records) if records else None
    table = build_table(ratings, sprt=sprt, elo=elo)
    names = [s.name for s in table.standings]
    cross = crosstable or build_crosstable(records, names)
    tournaments = table.tournaments
    site_title = title or (" + ".join(tournaments) if tournaments else "ytourney results")
    if handicap is None and report is not None:
        handicap = [report.pairs_table(""), report.levels_table()]
    handicap_views = _handicap_views(handicap)
    has_handicaps = bool(handicap_views) and (ratings.handicap_games > 0 or report is not None)
    slugs = _Names()
    player_href = {name: f"players/{slugs.get(name, name, 'player')}.html" for name in names}
    pairs = collect_pairs(games)
    pair_slugs = _Names()
    pair_href = {key: f"pairs/{pair_slugs.get(key, f'{key[0]}--{key[1]}', 'pair')}.html" for key in pairs}
    game_slugs = _Names()
    game_href = tuple(f"games/{game_slugs.get(i, _game_stem(g.record.tournament, g.record.id, i), 'game')}.html"
                      for i, g in enumerate(games))
    nav = [("Ratings", "index.html#ratings"), ("Crosstable", "index.html#crosstable"), ("Pairs", "pairs.html"),
           ("Games", "games.html")]
    if has_handicaps:
        nav.append(("Handicaps", "handicaps.html"))
    if rounds:
        nav.append(("Rounds", "rounds.html"))
    common = {"site_title": site_title, "nav": tuple(nav), "inline_css": False,
              "generated": generated if generated is not None else utc_now(), "status": status}
    links = SiteLinks(game_href, player_href, pair_href, common)

    writer.text("style.css", stylesheet())
    writer.text("games.js", asset("games.js"))
    chart = rating_chart(ratings, names)
    if chart:
        writer.text("ratings.svg", chart)
    download_links = []
    if downloads and records:
        writer.text("games.pgn", to_pgn(records))
        writer.text("games.jsonl", to_jsonl(records))
        download_links = [("PGN", "games.pgn"), ("JSON lines", "games.jsonl")]
    boards = sorted({r.board for r in records})
    summary = (f"{counted(len(records), 'game')} · {counted(len(names), 'player')} · "
               + ", ".join(boards or ["no games"]))
    writer.text("index.html", render_page(
        "index.html", title=site_title, root="", summary=summary,
        sprt=sprt.summary() if sprt is not None else None,
        ratings_table=table_view(table.to_table(), player_href, title=""),
        crosstable=table_view(cross.matrix_table(), player_href, title=""),
        handicap_tables=handicap_views,
        handicaps_page=has_handicaps and (report is None or report.sides is None),  # a side's ladder: no charts
        chart="ratings.svg" if chart else None, chart_width=CHART_WIDTH,
        heatmaps=heatmaps(records), games=len(records), pairs=len(pairs), downloads=download_links, **common,
    ))
    for name, content in games_list_files(games, links):
        writer.text(name, content)
    for index, game in enumerate(games):
        writer.text(game_href[index], game_page(game, index + 1, links))
    by_player = games_by_player(games)
    for standing in table.standings:
        href = player_href[standing.name]
        stem = href[len("players/"):-len(".html")]
        history_chart = player_chart(ratings, standing.name)
        if history_chart:
            writer.text(f"players/{stem}.svg", history_chart)
        writer.text(href, player_page(standing.name, standing, games, by_player.get(standing.name, []),
                                      f"{stem}.svg" if history_chart else None, CHART_WIDTH, links))
    _write_pairs(writer, ratings, pairs, report, has_handicaps, handicap_views, links, elo)
    if rounds:
        writer.text("rounds.html", render_page("rounds.html", title="Rounds", root="",
                                               sections=rounds_context(rounds, player_href), **common))
    files = writer.commit()
    return files, sum(1 for p in files if p.suffix == ".html")


def _write_pairs(writer: SiteWriter, ratings: Ratings, pairs: dict[tuple[str, str], Any],
                 report: HandicapReport | None, has_handicaps: bool, handicap_views: list[TableView],
                 links: SiteLinks, elo: EloFit | None) -> None:
    """The pairs list, a page per pair and, with handicaps, the handicaps page and every pair's fair-level chart."""
    history = fair_level_history(ratings.records, report) if report is not None else {}
    summaries = []
    pair_charts = []
    for key, pair in pairs.items():
        summary = pair_summary(pair, ratings.players, elo, report, links)
        summaries.append(summary)
        href = links.pair_href[key]
        chart = None
        points = history.get(key)
        if points:
            chart = href[:-len(".html")] + "-handicap.svg"
            estimate = summary["estimate"]
            weaker, stronger = (estimate.weaker, estimate.stronger) if estimate is not None else key
            writer.text(chart, fair_level_chart(points, weaker, stronger))
            small = href[:-len(".html")] + "-handicap-small.svg"
            writer.text(small, fair_level_chart(points, weaker, stronger, small=True))
            pair_charts.append({"src": small, "href": href, "weaker": weaker, "stronger": stronger,
                                "estimate": estimate})
        writer.text(href, pair_page(pair, summary, ratings.games, chart[len("pairs/"):] if chart else None,
                                    CHART_WIDTH, links))
    writer.text("pairs.html", pairs_page(summaries, links))
    if has_handicaps:
        worth = level_worth_chart(report.level_worth) if report is not None and report.learned else None
        if worth:
            writer.text("level-worth.svg", worth)
        writer.text("handicaps.html", handicaps_page(report, handicap_views, "level-worth.svg" if worth else None,
                                                     pair_charts, CHART_WIDTH, links))


def _game_stem(tournament: str, game_id: int | None, index: int) -> str:
    number = game_id if game_id is not None else index + 1
    return f"{tournament or 'game'}-{number}"
