"""A site of results folders holding games of several boards or rules sets: one section (a sub-site) per league.

Games of different boards or rules sets are rated apart (as `ytourney ratings` prints one table per set), so the
site gets an index naming the leagues and, for each, a full site in a folder of its own (`tri-9/`, `kadon-misere/`)
with its ratings, pairs, handicaps and games. With one league, or with `pool`, the site is the plain one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from ytourney.games.record import utc_now
from ytourney.publish.handicap_table import handicap_section
from ytourney.publish.html import render_page, stylesheet
from ytourney.publish.live import publish_results
from ytourney.publish.round_pages import rounds_of
from ytourney.publish.site import SiteResult, publish_site
from ytourney.publish.site_files import SiteWriter
from ytourney.publish.sources import (LeagueKey, load_sources, rate_sources, refuse_pool_across_games,
                                      split_by_variant)


def _folder_name(label: str, used: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", label.lower().replace("è", "e")).strip("-") or "league"
    name, number = base, 1
    while name in used:
        number += 1
        name = f"{base}-{number}"
    used.add(name)
    return name


def _heading(variant: LeagueKey, mixed: bool) -> str:
    """A league's name on the site: its label, naming Y too beside other games (a bare `kadon` beside
    `tetra kadon` reads as no game at all); its folder keeps the label's name."""
    return f"{variant.game.name} {variant.label}" if mixed and not variant.names_game else variant.label


def publish_leagues(dirs: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], *,
                    title: str | None = None, status: str | None = None, pool: bool = False) -> SiteResult:
    """Publish results folders into `out`: one league as the plain site; several (unless `pool`) as an index with a
    section per league, each a site of its own in a folder of the index. Returns the index and every page written."""
    sources = load_sources(dirs)
    variants = split_by_variant(sources)
    if pool:
        refuse_pool_across_games(variants)
    if pool or len(variants) <= 1:
        return publish_results(dirs, out, title=title, status=status)
    site_title = title or " + ".join(dict.fromkeys(source.name for source in sources))
    used: set[str] = set()
    leagues = []
    for variant, held in variants:
        ratings = rate_sources(held, held[0].rating_settings, variant=variant)
        leagues.append((variant, held, ratings, _folder_name(variant.label, used)))
    mixed = len({variant.game for variant, _ in variants}) > 1
    sections = []
    for variant, _, ratings, folder in leagues:
        ranking = ratings.ranking()
        sections.append({"label": _heading(variant, mixed), "slug": folder, "href": f"{folder}/index.html",
                         "games": len(ratings.games), "players": len(ranking),
                         "leader": f"{ranking[0].name} ({ranking[0].conservative:.2f})" if ranking else ""})
    writer = SiteWriter(out)  # the index first: it makes the folder a site before the sections fill it
    try:
        writer.text("style.css", stylesheet())
        writer.text("index.html", render_page("leagues.html", title=site_title, inline_css=False,
                                              site_title=site_title, sections=sections, mixed=mixed, status=status,
                                              generated=utc_now()))
        files = list(writer.commit())
    except BaseException:
        writer.abandon()
        raise
    pages, games = 1, 0
    for variant, held, ratings, folder in leagues:
        own = title or " + ".join(dict.fromkeys(source.name for source in held))  # this section's folders only
        result = publish_site(ratings, Path(out) / folder, title=f"{own} [{_heading(variant, mixed)}]",
                              handicap_report=handicap_section(held, ratings), status=status,
                              rounds=rounds_of(held))
        files += result.files
        pages += result.pages
        games += result.games
    return SiteResult(writer.folder, writer.folder / "index.html", pages, games, tuple(files))
