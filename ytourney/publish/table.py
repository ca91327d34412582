"""The table model every report shares (Table, Column, TableFormat) and its plain-text renderers.

Formats (`TableFormat`): `text` (aligned for a terminal), `md` (GitHub Markdown), `csv` (raw numbers, one header
row), `json` (an object with `schema_version`, `kind`, `meta` and `rows` keyed by column), `html` (a standalone
page, see html.py; the published site reuses the same templates). Rates are fractions in 0..1 in csv/json and
percentages in the other formats. Any module renders its own table by building a `Table` and calling
render.render_table.
"""

from __future__ import annotations

import csv
import enum
import io
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ytourney.choices import parse_choice
from ytourney.errors import ReportError

SCHEMA_VERSION = 1
"""Version of the JSON layout of every table; bumped when keys change meaning or disappear."""
FLOAT_DIGITS = 6
"""Decimal places kept for floats in csv and json."""


class TableFormat(str, enum.Enum):
    """Output formats of every table."""

    TEXT = "text"
    MARKDOWN = "md"
    CSV = "csv"
    JSON = "json"
    HTML = "html"

    @classmethod
    def parse(cls, value: TableFormat | str) -> TableFormat:
        """The format named by `value` ('text', 'md', 'csv', 'json', 'html'; 'markdown' also accepted)."""
        return parse_choice(cls, value, "table format", ReportError, aliases={"markdown": "md"})


class ColumnKind(enum.Enum):
    """How a column's values are shown."""

    TEXT = "text"
    INT = "int"
    FLOAT = "float"
    PERCENT = "percent"


@dataclass(frozen=True)
class Column:
    """One column: row key, header, kind, digits; `display` columns show in text/md/html, `data` ones in csv/json."""

    key: str
    header: str
    kind: ColumnKind = ColumnKind.TEXT
    digits: int = 1
    description: str = ""
    display: bool = True
    data: bool = True
    right: bool | None = None

    @property
    def numeric(self) -> bool:
        """True for columns aligned to the right (numbers, unless `right` says otherwise)."""
        return self.right if self.right is not None else self.kind is not ColumnKind.TEXT

    def show(self, value: Any) -> str:
        """The value as displayed in text, Markdown and HTML ('-' when missing)."""
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return "-"
        if self.kind is ColumnKind.INT:
            return str(int(value))
        if self.kind is ColumnKind.FLOAT:
            return f"{value:.{self.digits}f}"
        if self.kind is ColumnKind.PERCENT:
            return f"{100 * value:.{self.digits}f}%"
        return str(value)


@dataclass(frozen=True)
class Table:
    """A titled table of rows (dicts keyed by column key) with notes, renderable in every TableFormat."""

    kind: str
    title: str
    columns: tuple[Column, ...]
    rows: tuple[Mapping[str, Any], ...]
    notes: tuple[str, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def display_columns(self) -> tuple[Column, ...]:
        """Columns shown in text, Markdown and HTML."""
        return tuple(c for c in self.columns if c.display)

    @property
    def data_columns(self) -> tuple[Column, ...]:
        """Columns written to csv and json."""
        return tuple(c for c in self.columns if c.data)

    def cells(self) -> list[list[str]]:
        """Display strings of every row, in display-column order."""
        return [[c.show(row.get(c.key)) for c in self.display_columns] for row in self.rows]


def table_json(table: Table) -> dict[str, Any]:
    """The JSON object of a table: schema_version, kind, title, meta, notes and rows keyed by column."""
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": table.kind,
        "title": table.title,
        "meta": _jsonable(dict(table.meta)),
        "columns": [{"key": c.key, "header": c.header, "kind": c.kind.value, "description": c.description}
                    for c in table.data_columns],
        "rows": [{c.key: _jsonable(row.get(c.key)) for c in table.data_columns} for row in table.rows],
        "notes": list(table.notes),
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, FLOAT_DIGITS) if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, enum.Enum):
        return value.value
    return value


def render_text(table: Table) -> str:
    """The table aligned for a terminal: title, header, rule, rows, notes (no trailing newline)."""
    columns = table.display_columns
    cells = table.cells()
    widths = [max([len(c.header)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        parts = [v.rjust(w) if c.numeric else v.ljust(w) for v, w, c in zip(values, widths, columns)]
        return "  ".join(parts).rstrip()

    out = [table.title, line([c.header for c in columns]), line(["-" * w for w in widths])] if table.title else [
        line([c.header for c in columns]), line(["-" * w for w in widths])]
    out.extend(line(row) for row in cells)
    out.extend(table.notes)
    return "\n".join(out)


def _md_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("<", "&lt;").replace(">", "&gt;")


def render_markdown(table: Table) -> str:
    """The table in GitHub Markdown, title as a heading and notes after it (no trailing newline)."""
    columns = table.display_columns
    out = [f"### {_md_cell(table.title)}", ""] if table.title else []
    out.append("| " + " | ".join(_md_cell(c.header) for c in columns) + " |")
    out.append("|" + "|".join("---:" if c.numeric else ":---" for c in columns) + "|")
    out.extend("| " + " | ".join(_md_cell(v) for v in row) + " |" for row in table.cells())
    if table.notes:
        out.append("")
        out.extend(_md_cell(note) for note in table.notes)
    return "\n".join(out)


def render_csv(table: Table) -> str:
    """The data columns as csv: one header row of column keys, raw numbers."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    columns = table.data_columns
    writer.writerow([c.key for c in columns])
    for row in table.rows:
        values = []
        for c in columns:
            value = _jsonable(row.get(c.key))
            values.append("" if value is None else value)
        writer.writerow(values)
    return buffer.getvalue()


def render_json(table: Table) -> str:
    """The JSON object of a table (see table_json), indented."""
    return json.dumps(table_json(table), indent=2, ensure_ascii=False)
