"""The table model and its renderers: Markdown escaping, HTML escaping, format names."""

from __future__ import annotations

import pytest

from ytourney.errors import ReportError
from ytourney.games.record import GameRecord
from ytourney.publish.ratings_table import format_table, rating_table
from ytourney.publish.render import render_table
from ytourney.publish.table import (
    Column,
    ColumnKind,
    Table,
    TableFormat,
)


def test_markdown_escapes_pipes_and_tags() -> None:
    table = Table("demo", "T", (Column("name", "player"), Column("n", "n", ColumnKind.INT)),
                  ({"name": "a|b <i>", "n": 3},))
    md = render_table(table, "md")
    assert "| a\\|b &lt;i&gt; | 3 |" in md
    assert "|:---|---:|" in md


def test_html_table_escapes_player_names(records: list[GameRecord]) -> None:
    html = format_table(rating_table(records), "html")
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert html.startswith("<!DOCTYPE html>") and "<table" in html


def test_unknown_format_is_a_clean_error(records: list[GameRecord]) -> None:
    with pytest.raises(ReportError, match=r"unknown table format 'xml'; expected one of 'text', 'md', 'csv', 'json', 'html'"):
        format_table(rating_table(records), "xml")
    assert TableFormat.parse("Markdown") is TableFormat.MARKDOWN
