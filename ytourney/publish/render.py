"""One entry point for every table format: text, Markdown, csv and json from table.py, HTML from html.py."""

from __future__ import annotations

from ytourney.publish.html import render_table_page
from ytourney.publish.table import (
    Table,
    TableFormat,
    render_csv,
    render_json,
    render_markdown,
    render_text,
)


def render_table(table: Table, fmt: TableFormat | str = TableFormat.TEXT) -> str:
    """The table in one of the five formats; text and Markdown end without a trailing newline."""
    fmt = TableFormat.parse(fmt)
    if fmt is TableFormat.TEXT:
        return render_text(table)
    if fmt is TableFormat.MARKDOWN:
        return render_markdown(table)
    if fmt is TableFormat.CSV:
        return render_csv(table)
    if fmt is TableFormat.JSON:
        return render_json(table)
    return render_table_page(table)
