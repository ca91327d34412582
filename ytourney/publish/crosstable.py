"""The crosstable: wins and games of every pair, with duplicate games (identical move lists) counted.

A draw counts half a point to each player; once any pair has drawn, the matrix shows points (2.5/4) and the
tables gain draws columns (a league without draws looks as it always did)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ytourney.games.record import GameRecord
from ytourney.publish.render import render_table
from ytourney.publish.table import Column, ColumnKind, Table, TableFormat


def duplicate_key(record: GameRecord) -> tuple[Any, ...]:
    """What makes two games the same game: board, rules, handicap, first player and the exact move list."""
    rules = record.rules
    return (record.game, record.board, rules, record.handicap, record.first, tuple(m.lower() for m in record.moves))


@dataclass(frozen=True)
class PairResult:
    """Results of one unordered pair (a before b in the crosstable order)."""

    a: str
    b: str
    games: int
    wins_a: int
    duplicates: int
    draws: int = 0

    @property
    def wins_b(self) -> int:
        """Wins of b."""
        return self.games - self.wins_a - self.draws

    def wins_of(self, name: str) -> int:
        """Wins of one of the two players."""
        return self.wins_a if name == self.a else self.wins_b

    def points_of(self, name: str) -> float:
        """Points of one of the two players: a win 1, a draw 1/2."""
        return self.wins_of(name) + self.draws / 2


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

    @property
    def draws(self) -> int:
        """Drawn games over all pairs."""
        return sum(p.draws for p in self.pairs.values())

    def totals(self, name: str) -> tuple[int, int, int]:
        """(games, wins, duplicates) of one player over all pairs."""
        games = wins = dups = 0
        for pair in self.pairs.values():
            if name in (pair.a, pair.b):
                games += pair.games
                wins += pair.wins_of(name)
                dups += pair.duplicates
        return games, wins, dups

    def draws_of(self, name: str) -> int:
        """Drawn games of one player over all pairs."""
        return sum(p.draws for p in self.pairs.values() if name in (p.a, p.b))

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
        drawn = self.draws > 0
        if drawn:
            columns.append(Column("draws", "draws", ColumnKind.INT, description="drawn games (half a point each)"))
        what = "points (a draw is half)" if drawn else "wins"
        columns += [Column(f"vs{i}", str(i), description=f"{what}/games against {name}", right=True)
                    for i, name in enumerate(self.players, start=1)]
        columns.append(Column("duplicates", "dups", ColumnKind.INT, description="duplicate games of the player"))
        rows = []
        for i, name in enumerate(self.players, start=1):
            games, wins, dups = self.totals(name)
            draws = self.draws_of(name)
            points = wins + draws / 2
            row: dict[str, Any] = {"rank": i, "name": name, "score": points / games if games else None,
                                   "games": games, "duplicates": dups}
            if drawn:
                row["draws"] = draws
            for j, other in enumerate(self.players, start=1):
                pair = self.pair(name, other) if other != name else None
                won = (f"{pair.points_of(name):g}" if drawn else str(pair.wins_of(name))) if pair else ""
                row[f"vs{j}"] = "x" if other == name else (f"{won}/{pair.games}" if pair else None)
            rows.append(row)
        return Table("crosstable", self.title, tuple(columns), tuple(rows), tuple(self.notes()),
                     {"players": list(self.players), "duplicates": self.duplicates})

    def pairs_table(self) -> Table:
        """The crosstable in long form: one row per pair (for csv and json)."""
        drawn = self.draws > 0
        columns = (Column("a", "player_a"), Column("b", "player_b"), Column("games", "games", ColumnKind.INT),
                   Column("wins_a", "wins_a", ColumnKind.INT), Column("wins_b", "wins_b", ColumnKind.INT),
                   *((Column("draws", "draws", ColumnKind.INT),) if drawn else ()),
                   Column("score_a", "score_a", ColumnKind.PERCENT, 1),
                   Column("duplicates", "duplicates", ColumnKind.INT,
                          description="games repeating an earlier game of the pair move for move"))
        rows = tuple({"a": p.a, "b": p.b, "games": p.games, "wins_a": p.wins_a, "wins_b": p.wins_b,
                      **({"draws": p.draws} if drawn else {}),
                      "score_a": p.points_of(p.a) / p.games if p.games else None, "duplicates": p.duplicates}
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
                                   len(pair_games) - distinct, sum(r.winner is None for r in pair_games))
    return Crosstable(tuple(ordered), pairs, title)


def format_crosstable(crosstable: Crosstable, fmt: TableFormat | str = TableFormat.TEXT) -> str:
    """The crosstable: a matrix in text/md/html, one row per pair in csv/json."""
    fmt = TableFormat.parse(fmt)
    if fmt in (TableFormat.CSV, TableFormat.JSON):
        return render_table(crosstable.pairs_table(), fmt)
    return render_table(crosstable.matrix_table(), fmt)
