"""HTML of the tables: the jinja2 environment of the package templates (autoescape on), table views, pages."""

from __future__ import annotations

import datetime
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jinja2
from markupsafe import Markup

from ytourney import __version__
from ytourney.publish.table import Column, Table


def counted(count: int, noun: str) -> str:
    """A count with its noun, singular for one: '1 pair', '3 pairs' (the templates' `counted` filter)."""
    return f"{count} {noun if count == 1 else noun + 's'}"


def moment(stamp: str) -> str:
    """A record's ISO time as people read it: '2026-12-03 16:04:18 UTC' (the templates' `moment` filter)."""
    try:
        when = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp  # a time written by another tool is shown as it came
    if when.tzinfo is not None:
        when = when.astimezone(datetime.timezone.utc)
    return when.strftime("%Y-%m-%d %H:%M:%S") + (" UTC" if when.tzinfo is not None else "")


@functools.lru_cache(maxsize=1)
def template_env() -> jinja2.Environment:
    """The jinja2 environment of the package templates; every page autoescapes."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("ytourney.publish", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["counted"] = counted
    env.filters["moment"] = moment
    return env


def asset(name: str) -> str:
    """A static file of the templates folder, as it is (the site's CSS and scripts)."""
    source, _, _ = template_env().loader.get_source(template_env(), name)
    return source


def stylesheet() -> str:
    """The site's CSS."""
    return asset("style.css")


@dataclass(frozen=True)
class CellView:
    """One rendered table cell: text, optional link, optional CSS class."""

    text: str
    href: str | None = None
    css: str | None = None


@dataclass(frozen=True)
class TableView:
    """A Table prepared for the HTML templates."""

    kind: str
    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[CellView, ...], ...]
    notes: tuple[str, ...]


def table_view(table: Table, links: Mapping[str, str] | None = None, *, title: str | None = None) -> TableView:
    """Prepare a Table for HTML: cells as text, player names linked through `links` (name -> href)."""
    links = links or {}
    columns = table.display_columns
    rows = []
    for row, cells in zip(table.rows, table.cells()):
        rendered = []
        for column, text in zip(columns, cells):
            css = "num" if column.numeric else None
            if text == "x" and column.key.startswith("vs"):
                css = "self"
            href = links.get(str(row.get(column.key))) if column.key == "name" else None
            rendered.append(CellView(text, href, css))
        rows.append(tuple(rendered))
    return TableView(table.kind, table.title if title is None else title, columns, tuple(rows), table.notes)


def render_page(template: str, *, title: str, root: str = "", inline_css: bool = True,
                nav: Sequence[tuple[str, str]] = (), site_title: str = "", tables: Sequence[Table | TableView] = (),
                **context: Any) -> str:
    """Render one page template; Tables in `tables` are prepared with table_view, CSS inlined unless linked."""
    views = [t if isinstance(t, TableView) else table_view(t) for t in tables]
    return template_env().get_template(template).render(
        title=title,
        root=root,
        inline_css=Markup(stylesheet()) if inline_css else None,
        nav=nav,
        site_title=site_title,
        tables=views,
        version=__version__,
        generated=context.pop("generated", ""),
        status=context.pop("status", None),
        **context,
    )


def render_table_page(table: Table) -> str:
    """A standalone HTML page of one table, its title (or kind) as the page title."""
    return render_page("table_page.html", title=table.title or table.kind, tables=[table_view(table, title="")])
