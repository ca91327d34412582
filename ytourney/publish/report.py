"""Tables from game records: the rating table, the crosstable, and a generic table rendered in five formats.

Formats (`TableFormat`): `text` (aligned for a terminal), `md` (GitHub Markdown), `csv` (raw numbers, one header
row), `json` (an object with `schema_version`, `kind`, `meta` and `rows` keyed by column), `html` (a standalone
page; the published site reuses the same templates). Rates are fractions in 0..1 in csv/json and percentages in the
other formats. Any other module can render its own table by building a `Table` and calling `render_table`.
"""

from __future__ import annotations

import csv
import enum
import io
import json
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ytourney.errors import ReportError
from ytourney.game.record import GameRecord, Termination
from ytourney.publish.sources import Source, source_settings
from ytourney.stats.ratings import (
    CONSERVATIVE_SIGMAS,
    HandicapRating,
    LevelValue,
    PlayerRating,
    PlayerResults,
    Ratings,
    RatingSettings,
    rate_records,
    superiority,
)

SCHEMA_VERSION = 1
"""Version of the JSON layout of every table; bumped when keys change meaning or disappear."""
FAULTS: tuple[Termination, ...] = tuple(t for t in Termination if t.is_fault)
"""Fault terminations, counted against the losing (faulty) side."""
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
        if isinstance(value, TableFormat):
            return value
        word = str(value).strip().lower()
        if word == "markdown":
            word = "md"
        try:
            return cls(word)
        except ValueError:
            names = ", ".join(f.value for f in cls)
            raise ReportError(f"unknown table format {value!r}; expected one of {names}") from None


FORMAT_NAMES: tuple[str, ...] = tuple(f.value for f in TableFormat)


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


def render_table(table: Table, fmt: TableFormat | str = TableFormat.TEXT) -> str:
    """The table in one of the five formats; text and Markdown end without a trailing newline."""
    fmt = TableFormat.parse(fmt)
    if fmt is TableFormat.TEXT:
        return _text(table)
    if fmt is TableFormat.MARKDOWN:
        return _markdown(table)
    if fmt is TableFormat.CSV:
        return _csv(table)
    if fmt is TableFormat.JSON:
        return json.dumps(table_json(table), indent=2, ensure_ascii=False)
    # the HTML page shares the site's templates
    from ytourney.publish.site import render_page, table_view

    return render_page("table_page.html", title=table.title or table.kind, tables=[table_view(table, title="")])


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


def _text(table: Table) -> str:
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


def _markdown(table: Table) -> str:
    columns = table.display_columns
    out = [f"### {_md_cell(table.title)}", ""] if table.title else []
    out.append("| " + " | ".join(_md_cell(c.header) for c in columns) + " |")
    out.append("|" + "|".join("---:" if c.numeric else ":---" for c in columns) + "|")
    out.extend("| " + " | ".join(_md_cell(v) for v in row) + " |" for row in table.cells())
    if table.notes:
        out.append("")
        out.extend(_md_cell(note) for note in table.notes)
    return "\n".join(out)


def _csv(table: Table) -> str:
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


# --- the rating table ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One player's line of the rating table: rating, results, opposition, LOS, seat figures and faults."""

    rank: int
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    opponent_mu: float | None
    los_next: float | None
    faults: Mapping[str, int]
    first_games: int = 0
    first_wins: int = 0
    swap_chances: int = 0
    swaps: int = 0
    swap_wins: int = 0
    handicap_games: int = 0

    @property
    def conservative(self) -> float:
        """mu - 3 sigma, the sort key."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma

    @property
    def score(self) -> float | None:
        """Share of games won (None before any game)."""
        return self.wins / self.games if self.games else None

    @property
    def first_win_rate(self) -> float | None:
        """Win rate in even games where the player placed the first stone."""
        return self.first_wins / self.first_games if self.first_games else None

    @property
    def swap_rate(self) -> float | None:
        """How often the player, second in a pie game, answered swap."""
        return self.swaps / self.swap_chances if self.swap_chances else None

    @property
    def swap_win_rate(self) -> float | None:
        """Win rate in the games where the player swapped."""
        return self.swap_wins / self.swaps if self.swaps else None

    @property
    def fault_total(self) -> int:
        """Games lost by a fault of this player."""
        return sum(self.faults.values())

    def row(self) -> dict[str, Any]:
        """The table row of this standing (keys of RATING_COLUMNS)."""
        row: dict[str, Any] = {
            "rank": self.rank, "name": self.name, "mu": self.mu, "sigma": self.sigma,
            "conservative": self.conservative, "games": self.games, "wins": self.wins, "losses": self.losses,
            "score": self.score, "opponent_mu": self.opponent_mu, "los_next": self.los_next,
            "first_games": self.first_games, "first_win_rate": self.first_win_rate,
            "swap_chances": self.swap_chances, "swaps": self.swaps, "swap_rate": self.swap_rate,
            "swap_win_rate": self.swap_win_rate, "handicap_games": self.handicap_games,
            "faults_text": _faults_text(self.faults),
        }
        for fault in FAULTS:
            row[f"faults_{fault.value}"] = self.faults.get(fault.value, 0)
        return row


def _faults_text(faults: Mapping[str, int]) -> str:
    shown = [f"{name} {count}" for name, count in faults.items() if count]
    return ", ".join(shown) if shown else "-"


RATING_COLUMNS: tuple[Column, ...] = (
    Column("rank", "#", ColumnKind.INT, description="rank by conservative rating mu - 3 sigma"),
    Column("name", "player"),
    Column("mu", "mu", ColumnKind.FLOAT, 2, "TrueSkill mean"),
    Column("sigma", "sigma", ColumnKind.FLOAT, 2, "TrueSkill deviation"),
    Column("conservative", "rating", ColumnKind.FLOAT, 2, "conservative rating mu - 3 sigma"),
    Column("games", "games", ColumnKind.INT),
    Column("wins", "W", ColumnKind.INT, description="wins"),
    Column("losses", "L", ColumnKind.INT, description="losses"),
    Column("score", "score", ColumnKind.PERCENT, 1, "share of games won"),
    Column("opponent_mu", "opp-mu", ColumnKind.FLOAT, 2, "mean final mu of the opponents, per game"),
    Column("los_next", "LOS", ColumnKind.PERCENT, 1,
           "likelihood of superiority over the next player: Phi((mu_i - mu_j) / sqrt(sigma_i^2 + sigma_j^2))"),
    Column("first_games", "1st-games", ColumnKind.INT, description="even games placing the first stone",
           display=False),
    Column("first_win_rate", "1st-win", ColumnKind.PERCENT, 1, "win rate placing the first stone (even games)"),
    Column("swap_chances", "swap-chances", ColumnKind.INT, description="pie games as second player",
           display=False),
    Column("swaps", "swaps", ColumnKind.INT, display=False),
    Column("swap_rate", "swap", ColumnKind.PERCENT, 1, "how often the player swapped when it could"),
    Column("swap_win_rate", "swap-win", ColumnKind.PERCENT, 1, "win rate in games where the player swapped"),
    Column("handicap_games", "hcp", ColumnKind.INT,
           description="handicap games (rated with each level's learned worth unless ratings.handicap is even)"),
    Column("faults_text", "faults", description="games lost by the player's own fault", data=False),
    *(Column(f"faults_{fault.value}", f"{fault.value}", ColumnKind.INT,
             description=f"games lost by {fault.value}", display=False) for fault in FAULTS),
)


@dataclass(frozen=True)
class RatingTable:
    """The rating table of a set of games: standings best first plus what the footer reports."""

    standings: tuple[Standing, ...]
    settings: RatingSettings
    games: int
    handicap_games: int = 0
    handicap_adjusted: bool = False
    mpmath_games: int = 0
    skipped_games: int = 0
    tournaments: tuple[str, ...] = ()
    sprt: Any = None
    title: str = "Ratings"
    level_worth: tuple[LevelValue, ...] = ()

    def notes(self) -> list[str]:
        """Footer lines: games, handicap handling, upsets, SPRT state."""
        s = self.settings
        lines = [(f"{self.games} games rated with TrueSkill (mu {s.mu:.4g}, sigma {s.sigma:.4g}, "
                  f"beta {s.beta:.4g}, tau {s.tau:.4g}); ranked by mu - 3 sigma.")]
        if self.handicap_games:
            if not self.handicap_adjusted:
                how = "as plain wins/losses"
            elif self.level_worth:
                how = "with the learned worth of each level in skill points (" + level_worth_text(self.level_worth) + ")"
            else:
                how = "with the handicap model"
            lines.append(f"{self.handicap_games} handicap games rated {how} (see column hcp).")
        if self.mpmath_games:
            lines.append(f"{self.mpmath_games} extreme upsets rated with the mpmath backend.")
        if self.skipped_games:
            lines.append(f"{self.skipped_games} games left unrated (self-play or beyond every backend).")
        if self.sprt is not None:
            lines.append(self.sprt.summary())
        return lines

    def to_table(self) -> Table:
        """The generic Table of this rating table."""
        meta: dict[str, Any] = {
            "settings": self.settings.to_dict(),
            "games": self.games,
            "handicap_games": self.handicap_games,
            "handicap_adjusted": self.handicap_adjusted,
            "mpmath_games": self.mpmath_games,
            "skipped_games": self.skipped_games,
            "tournaments": list(self.tournaments),
            "sort_key": "mu - 3 * sigma",
            "sprt": self.sprt.to_dict() if self.sprt is not None else None,
            "level_worth": [_level_row(value) for value in self.level_worth],
        }
        return Table("ratings", self.title, RATING_COLUMNS, tuple(s.row() for s in self.standings),
                     tuple(self.notes()), meta)


def build_table(ratings: Ratings, *, sprt: Any = None, title: str = "Ratings") -> RatingTable:
    """The rating table of a replay: standings with results, LOS, seat figures and faults; `sprt` an SprtState.

    Works from the results and counts every replay keeps, so a replay without detail (a streamed store) gives the
    same table as one that kept every game.
    """
    ranking = ratings.ranking()
    results = ratings.player_results()
    standings = []
    for rank, player in enumerate(ranking, start=1):
        tally = results.get(player.name) or PlayerResults()
        below = ranking[rank] if rank < len(ranking) else None
        opponent_mu = sum(ratings.players[name].mu * games for name, games in tally.opponents.items())
        standings.append(Standing(
            rank=rank,
            name=player.name,
            mu=player.mu,
            sigma=player.sigma,
            games=tally.games,
            wins=tally.wins,
            losses=tally.games - tally.wins,
            opponent_mu=opponent_mu / tally.games if tally.games else None,
            los_next=superiority(player, below) if below is not None else None,
            faults={fault.value: tally.faults.get(fault.value, 0) for fault in FAULTS},
            first_games=tally.first_games,
            first_wins=tally.first_wins,
            swap_chances=tally.swap_chances,
            swaps=tally.swaps,
            swap_wins=tally.swap_wins,
            handicap_games=tally.handicap_games,
        ))
    return RatingTable(
        standings=tuple(standings),
        settings=ratings.settings,
        games=ratings.game_count,
        handicap_games=ratings.handicap_games,
        handicap_adjusted=ratings.handicap_adjusted_games > 0,
        mpmath_games=ratings.mpmath_games,
        skipped_games=ratings.skipped_games,
        tournaments=ratings.tournaments,
        sprt=sprt,
        title=title,
        level_worth=ratings.level_worth,
    )


def rating_table(records: Iterable[GameRecord], settings: RatingSettings | Mapping[str, Any] | object | None = None,
                 *, sprt: Any = None,
                 ordered: bool = False) -> RatingTable:
    """Rate `records` (game-id order) and build their table in one call; what `ytourney run` prints at the end.

    Nothing per game is kept; with `ordered=True` (records already in game-id order, e.g. streamed from a store)
    they are not even held all at once.
    """
    ratings = rate_records(records, settings, ordered=ordered, detail=False)
    return build_table(ratings, sprt=sprt)


def format_table(table: RatingTable | Ratings | Table, fmt: TableFormat | str = TableFormat.TEXT) -> str:
    """A rating table (or a Ratings replay, or any Table) in the given format."""
    if isinstance(table, Ratings):
        table = build_table(table)
    if isinstance(table, RatingTable):
        table = table.to_table()
    return render_table(table, fmt)


# --- the crosstable ---------------------------------------------------------------------------------------------


def duplicate_key(record: GameRecord) -> tuple[Any, ...]:
    """What makes two games the same game: board, rules, handicap, first player and the exact move list."""
    rules = record.rules
    return (record.board, rules, record.handicap, record.first, tuple(m.lower() for m in record.moves))


@dataclass(frozen=True)
class PairResult:
    """Results of one unordered pair (a before b in the crosstable order)."""

    a: str
    b: str
    games: int
    wins_a: int
    duplicates: int

    @property
    def wins_b(self) -> int:
        """Wins of b."""
        return self.games - self.wins_a

    def wins_of(self, name: str) -> int:
        """Wins of one of the two players."""
        return self.wins_a if name == self.a else self.wins_b


@dataclass(frozen=True)
class Crosstable:
    """Wins and games of every pair, with the number of duplicate games (identical move lists) per pair."""

    players: tuple[str, ...]
    pairs: Mapping[tuple[str, str], PairResult]
    title: str = "Crosstable"

    def pair(self, a: str, b: str) -> PairResult | None:
        """The pair {a, b} (either order), or None when they never met."""
        return self.pairs.get((a, b)) or self.pairs.get((b, a))

    @property
    def duplicates(self) -> int:
        """Duplicate games over all pairs."""
        return sum(p.duplicates for p in self.pairs.values())

    def totals(self, name: str) -> tuple[int, int, int]:
        """(games, wins, duplicates) of one player over all pairs."""
        games = wins = dups = 0
        for pair in self.pairs.values():
            if name in (pair.a, pair.b):
                games += pair.games
                wins += pair.wins_of(name)
                dups += pair.duplicates
        return games, wins, dups

    def notes(self) -> list[str]:
        """Lines naming the pairs whose games repeat each other."""
        lines = []
        for pair in self.pairs.values():
            if pair.duplicates:
                lines.append(f"{pair.a} vs {pair.b}: {pair.duplicates} of {pair.games} games repeat an earlier game "
                             "move for move (deterministic bots? vary seeds or openings)")
        return lines

    def matrix_table(self) -> Table:
        """The crosstable as a matrix: one row per player, one column per opponent (by number), cells wins/games."""
        columns = [Column("rank", "#", ColumnKind.INT), Column("name", "player"),
                   Column("score", "score", ColumnKind.PERCENT, 1), Column("games", "games", ColumnKind.INT)]
        columns += [Column(f"vs{i}", str(i), description=f"wins/games against {name}", right=True)
                    for i, name in enumerate(self.players, start=1)]
        columns.append(Column("duplicates", "dups", ColumnKind.INT, description="duplicate games of the player"))
        rows = []
        for i, name in enumerate(self.players, start=1):
            games, wins, dups = self.totals(name)
            row: dict[str, Any] = {"rank": i, "name": name, "score": wins / games if games else None,
                                   "games": games, "duplicates": dups}
            for j, other in enumerate(self.players, start=1):
                pair = self.pair(name, other) if other != name else None
                row[f"vs{j}"] = "x" if other == name else (f"{pair.wins_of(name)}/{pair.games}" if pair else None)
            rows.append(row)
        return Table("crosstable", self.title, tuple(columns), tuple(rows), tuple(self.notes()),
                     {"players": list(self.players), "duplicates": self.duplicates})

    def pairs_table(self) -> Table:
        """The crosstable in long form: one row per pair (for csv and json)."""
        columns = (Column("a", "player_a"), Column("b", "player_b"), Column("games", "games", ColumnKind.INT),
                   Column("wins_a", "wins_a", ColumnKind.INT), Column("wins_b", "wins_b", ColumnKind.INT),
                   Column("score_a", "score_a", ColumnKind.PERCENT, 1),
                   Column("duplicates", "duplicates", ColumnKind.INT,
                          description="games repeating an earlier game of the pair move for move"))
        rows = tuple({"a": p.a, "b": p.b, "games": p.games, "wins_a": p.wins_a, "wins_b": p.wins_b,
                      "score_a": p.wins_a / p.games if p.games else None, "duplicates": p.duplicates}
                     for p in self.pairs.values())
        return Table("crosstable", self.title, columns, rows, tuple(self.notes()),
                     {"players": list(self.players), "duplicates": self.duplicates})


def build_crosstable(records: Iterable[GameRecord], order: Sequence[str] | None = None,
                     title: str = "Crosstable") -> Crosstable:
    """Pairwise results; players in `order` (e.g. the rating ranking), others after it by name."""
    games: dict[tuple[str, str], list[GameRecord]] = defaultdict(list)
    names: set[str] = set()
    for record in records:
        if record.black == record.white:
            continue
        names.update((record.black, record.white))
        games[tuple(sorted((record.black, record.white)))].append(record)  # type: ignore[index]
    ordered = [n for n in (order or ()) if n in names]
    ordered += sorted(names - set(ordered))
    position = {name: i for i, name in enumerate(ordered)}
    pairs: dict[tuple[str, str], PairResult] = {}
    for key in sorted(games, key=lambda k: sorted((position[k[0]], position[k[1]]))):
        a, b = sorted(key, key=position.__getitem__)
        pair_games = games[key]
        distinct = len({duplicate_key(r) for r in pair_games})
        pairs[(a, b)] = PairResult(a, b, len(pair_games), sum(r.winner_name == a for r in pair_games),
                                   len(pair_games) - distinct)
    return Crosstable(tuple(ordered), pairs, title)


def format_crosstable(crosstable: Crosstable, fmt: TableFormat | str = TableFormat.TEXT) -> str:
    """The crosstable: a matrix in text/md/html, one row per pair in csv/json."""
    fmt = TableFormat.parse(fmt)
    if fmt in (TableFormat.CSV, TableFormat.JSON):
        return render_table(crosstable.pairs_table(), fmt)
    return render_table(crosstable.matrix_table(), fmt)


# --- the handicap tables --------------------------------------------------------------------------------------

LEVELS_NOTE = ("Levels: 0 = even game with the pie rule, 1 = the weaker player is Black without pie, k >= 2 = Black "
               "places k stones first; a fractional level is played as a mix of its neighbours.")

HANDICAP_COLUMNS: tuple[Column, ...] = (
    Column("weaker", "weaker"),
    Column("stronger", "stronger"),
    Column("median", "fair level", ColumnKind.FLOAT, 2, "posterior median of the level the weaker player needs"),
    Column("low", "low", ColumnKind.FLOAT, 2, "lower end of the 95% credible interval"),
    Column("high", "high", ColumnKind.FLOAT, 2, "upper end of the 95% credible interval"),
    Column("games", "games", ColumnKind.INT, description="games counted in the estimate (decided on the board)"),
    Column("faults", "faults", ColumnKind.INT,
           description="games of the pair ended by a fault (time, crash, protocol, illegal, forfeit), left out"),
    Column("p_weaker", "P(weaker)", ColumnKind.PERCENT, 1, "posterior probability that 'weaker' is the weaker one"),
    Column("slope", "slope", ColumnKind.FLOAT, 2,
           "posterior median of s in P(weaker wins at level L) = Phi(s (L - fair level))"),
    Column("per_level", "results by level", description="level: wins of the weaker player / games (win rate)",
           data=False),
)


def _level_key(level: int) -> str:
    """Column-key suffix of a signed level (negative: the stronger player received it)."""
    return f"L{level}" if level >= 0 else f"Lm{-level}"


def _per_level_text(per_level: Mapping[int, tuple[int, int]]) -> str:
    """'0: 1/10 (10%), 3: 6/12 (50%)' from level -> (games, weaker wins)."""
    parts = [f"{level}: {wins}/{games} ({100 * wins / games:.0f}%)" if games else f"{level}: -"
             for level, (games, wins) in sorted(per_level.items())]
    return ", ".join(parts) or "-"


def handicap_table(estimates: Mapping[Any, Any] | Iterable[Any], title: str = "Fair handicaps", *,
                   faults: Mapping[tuple[str, str], int] | None = None, target: float = 0.5,
                   pooled: bool | None = None) -> Table:
    """A Table of handicap estimates (HandicapEstimate-like objects), one row per pair.

    Text, Markdown and HTML show the results by level as one column; csv and json carry them as numbers, in
    columns games_L<k>, wins_L<k> and win_rate_L<k> for every level k played (Lm<k>: the stronger received k).
    """
    items = list(estimates.values()) if isinstance(estimates, Mapping) else list(estimates)
    levels = sorted({level for estimate in items for level in (getattr(estimate, "per_level", {}) or {})})
    rows = []
    for estimate in items:
        per_level = getattr(estimate, "per_level", {}) or {}
        key = tuple(sorted((estimate.weaker, estimate.stronger)))
        row: dict[str, Any] = {
            "weaker": estimate.weaker, "stronger": estimate.stronger, "median": float(estimate.median),
            "low": float(estimate.low), "high": float(estimate.high), "games": int(estimate.games),
            "faults": (faults or {}).get(key, 0), "p_weaker": getattr(estimate, "p_weaker", None),
            "slope": getattr(estimate, "slope", None), "per_level": _per_level_text(per_level),
        }
        for level in levels:
            games, wins = per_level.get(level, (0, 0))
            row[f"games_{_level_key(level)}"] = games
            row[f"wins_{_level_key(level)}"] = wins
            row[f"win_rate_{_level_key(level)}"] = wins / games if games else None
        rows.append(row)
    columns = list(HANDICAP_COLUMNS)
    for level in levels:
        who = f"level {level}" if level >= 0 else f"level {-level} given to the stronger player"
        columns += [
            Column(f"games_{_level_key(level)}", f"games L{level}", ColumnKind.INT, description=f"games at {who}",
                   display=False),
            Column(f"wins_{_level_key(level)}", f"wins L{level}", ColumnKind.INT,
                   description=f"wins of the weaker player at {who}", display=False),
            Column(f"win_rate_{_level_key(level)}", f"win rate L{level}", ColumnKind.PERCENT, 1,
                   description=f"win rate of the weaker player at {who}", display=False),
        ]
    notes = [LEVELS_NOTE]
    aim = "both win half their games" if target == 0.5 else f"the weaker player wins {100 * target:g}% of its games"
    notes.append(f"Fair level: the handicap at which {aim}; the 95% credible interval is [low, high]. Games that "
                 "ended by a fault are left out of the estimate (they say nothing about what a level is worth).")
    if pooled:
        notes.append("Each pair's prior was informed by the other pairs: a shared slope and strengths on the level "
                     "scale (pair a-b needs about h_a - h_b levels).")
    meta = {"target": target, "levels": levels}
    return Table("handicap", title, tuple(columns), tuple(rows), tuple(notes) if rows else (), meta)


LEVEL_WORTH_COLUMNS: tuple[Column, ...] = (
    Column("board", "board"),
    Column("level", "level", ColumnKind.INT),
    Column("mu", "worth", ColumnKind.FLOAT, 2, "learned skill the level adds to the weaker side (TrueSkill mu)"),
    Column("sigma", "sigma", ColumnKind.FLOAT, 2, "uncertainty of the worth"),
    Column("games", "games", ColumnKind.INT, description="rated games at this level (level 0: even games)"),
    Column("weaker_win_rate", "weaker won", ColumnKind.PERCENT, 1,
           "how often the player receiving the level won (games decided on the board)"),
)


def level_worth_text(values: Iterable[LevelValue]) -> str:
    """'tri:9: 1 = 3.2, 2 = 6.9' for the levels above 0 of each board."""
    boards: dict[str, list[str]] = {}
    for value in values:
        if value.level > 0:
            boards.setdefault(value.board, []).append(f"{value.level} = {value.mu:.1f}")
    return "; ".join(f"{board}: {', '.join(parts)}" if board else ", ".join(parts) for board, parts in boards.items())


def _level_row(value: LevelValue) -> dict[str, Any]:
    """JSON row of a level's worth."""
    return {"board": value.board, "level": value.level, "mu": value.mu, "sigma": value.sigma, "games": value.games}


def level_worth_table(values: Sequence[LevelValue], results: Mapping[tuple[str, int], tuple[int, int]] | None = None,
                      title: str = "Worth of each handicap level", *, learned: bool = True) -> Table:
    """A Table of the learned worth of each level per board; `results`: (board, level) -> (games, weaker wins)."""
    rows = []
    for value in values:
        games, wins = (results or {}).get((value.board, value.level), (0, 0))
        row = {**_level_row(value), "weaker_win_rate": wins / games if games and value.level else None}
        if value.level == 0:
            row["games"] = games  # even games: nobody received anything, so no win rate of a weaker side
        rows.append(row)
    notes = [("Worth: the skill (TrueSkill mu) the handicap adds to the weaker player's side when rating a game, "
              "learned from the games, kept non-decreasing in the level; level 0 is worth 0.")]
    if not learned:
        notes = ["Handicap games were rated as plain wins and losses (ratings.handicap: even): no worth was learned."]
    return Table("level_worth", title, LEVEL_WORTH_COLUMNS, tuple(rows), tuple(notes))


@dataclass(frozen=True)
class HandicapReport:
    """Fair handicaps of every pair and the learned worth of each level, from the games of one or more folders."""

    estimates: Mapping[tuple[str, str], Any]
    faults: Mapping[tuple[str, str], int]
    level_worth: tuple[LevelValue, ...]
    level_results: Mapping[tuple[str, int], tuple[int, int]]
    max_level: int
    target: float
    learned: bool = True

    @property
    def pooled(self) -> bool:
        """True when the estimates pooled the pairs of the tournament."""
        return any(getattr(e, "pooled", False) for e in self.estimates.values())

    @property
    def handicap_games(self) -> int:
        """Games played at a level above 0."""
        return sum(games for (_, level), (games, _) in self.level_results.items() if level > 0)

    def pairs_table(self, title: str = "Fair handicaps") -> Table:
        """One row per pair: weaker, stronger, fair level with its interval, games and results by level."""
        table = handicap_table(self.estimates, title, faults=self.faults, target=self.target, pooled=self.pooled)
        meta = {**table.meta, "max_level": self.max_level,
                "level_worth": [_level_row(value) for value in self.level_worth]}
        notes = table.notes
        if self.estimates and not self.handicap_games:
            notes = (*notes, "No handicap games were played: the estimates rest on even games alone.")
        return Table(table.kind, table.title, table.columns, table.rows, notes, meta)

    def levels_table(self, title: str = "Worth of each handicap level") -> Table:
        """One row per board and level: the learned worth, its sigma, games and the weaker side's win rate."""
        return level_worth_table(self.level_worth, self.level_results, title, learned=self.learned)


def handicap_report(records: Sequence[GameRecord], section: Mapping[str, Any] | None = None,
                    ratings: Ratings | None = None) -> HandicapReport:
    """Estimate every pair's fair handicap (faults left out) and collect the level worths of `ratings`.

    `section` is the config's `handicap:` mapping (its max_level and target are used when present); `ratings`
    the replay of the same records, whose level worths the report carries (none without it).
    """
    from ytourney.stats.handicap import (
        HandicapPlanner,
        HandicapSettings,
        counts_for_handicap,
    )

    games = [r for r in records if r.black != r.white]
    highest = max([1, *(r.handicap for r in games)])
    max_level = max(6, highest)  # the planner's default ladder top, unless the config names its own
    target = 0.5
    if section:
        try:
            max_level = max(int(section.get("max_level", max_level)), highest)
            target = float(section.get("target", 0.5))
        except (TypeError, ValueError) as err:
            raise ReportError(f"handicap section {dict(section)!r} is unreadable: {err}") from err
    planner = HandicapPlanner(HandicapSettings(mode="auto", max_level=min(max_level, 50), target=target))
    faults: dict[tuple[str, str], int] = {}
    level_results: dict[tuple[str, int], tuple[int, int]] = {}
    for record in games:
        key = (record.black, record.white) if record.black < record.white else (record.white, record.black)
        if not counts_for_handicap(record.termination):
            faults[key] = faults.get(key, 0) + 1
            planner.estimator(*key)  # the pair is listed even when all its games were faults
            continue
        planner.record_game(record)
        played, won = level_results.get((record.board, record.handicap), (0, 0))
        weaker_won = record.handicap > 0 and record.winner_name == record.first
        level_results[(record.board, record.handicap)] = (played + 1, won + weaker_won)
    worth = ratings.level_worth if ratings is not None else ()
    learned = ratings is None or ratings.settings.handicap is HandicapRating.LEARN
    return HandicapReport(planner.estimates(), faults, worth, level_results, max_level, target, learned)


def handicap_estimates(records: Sequence[GameRecord], section: Mapping[str, Any] | None = None) -> Any:
    """Fair-handicap estimates per pair, replaying the games (None without handicap games or an auto section)."""
    if not any(r.handicap > 0 for r in records) and not (section and section.get("mode") == "auto"):
        return None
    return handicap_report(records, section).estimates


def handicap_section(sources: Sequence[Source], ratings: Ratings) -> HandicapReport | None:
    """The handicap report of a league when its games used handicaps or its first config says auto, else None."""
    section = source_settings(sources[0]).handicap if sources else None
    if not ratings.handicap_games and not (section and section.get("mode") == "auto"):
        return None
    if ratings.detailed:
        records: Sequence[GameRecord] = ratings.records
    else:
        records = [record for source in sources for record in source.iter_records(times=False)]
    return handicap_report(records, section, ratings)


__all__ = [
    "FAULTS",
    "FORMAT_NAMES",
    "HANDICAP_COLUMNS",
    "LEVEL_WORTH_COLUMNS",
    "RATING_COLUMNS",
    "SCHEMA_VERSION",
    "Column",
    "ColumnKind",
    "Crosstable",
    "HandicapReport",
    "PairResult",
    "PlayerRating",
    "RatingTable",
    "Standing",
    "Table",
    "TableFormat",
    "build_crosstable",
    "build_table",
    "duplicate_key",
    "format_crosstable",
    "format_table",
    "handicap_estimates",
    "handicap_report",
    "handicap_section",
    "handicap_table",
    "level_worth_table",
    "rating_table",
    "render_table",
    "table_json",
]
