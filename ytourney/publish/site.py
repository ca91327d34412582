"""The published site of one or more results folders: index, games list, player and game pages, charts."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup

from ytourney.errors import ReportError, YTourneyError
from ytourney.game.board import BoardKind, parse_board
from ytourney.game.notation import parse_cell
from ytourney.game.record import GameRecord, utc_now
from ytourney.game.rules import Color
from ytourney.publish.crosstable import Crosstable, build_crosstable
from ytourney.publish.export import to_jsonl, to_pgn
from ytourney.publish.html import TableView, render_page, stylesheet, table_view
from ytourney.publish.ratings_table import RATING_COLUMNS, Standing, build_table
from ytourney.publish.sgf import stone_colours
from ytourney.publish.svg import heatmap_svg, position_svg, replay, winning_group
from ytourney.publish.table import Table
from ytourney.stats.ratings import PlayerRating, RatedGame, Ratings
from ytourney.stats.sprt import SprtState

MANIFEST = ".ytourney-site"
"""File listing what a publish wrote, so a later publish may replace exactly those files."""
CHART_WIDTH = 900


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
    sprt: SprtState | None = None,
    crosstable: Crosstable | None = None,
    downloads: bool = True,
    generated: str | None = None,
) -> SiteResult:
    """Write a static site of a replay: index (tables, chart, heat maps), a games list, player and game pages.

    Every link is relative, so the folder works from file:// and from any web server. `handicap` is an optional
    Table or tables (see handicap_table.HandicapReport: fair handicaps per pair, worth of each level) shown under the
    crosstable; `sprt` an SprtState shown above the ratings. A folder that already holds
    a site from an earlier publish is updated; any other non-empty folder is refused.
    """
    folder = Path(out)
    previous = _check_folder(folder)
    records = ratings.records
    table = build_table(ratings, sprt=sprt)
    cross = crosstable or build_crosstable(records, [s.name for s in table.standings])
    tournaments = table.tournaments
    site_title = title or (" + ".join(tournaments) if tournaments else "ytourney results")
    stamp = generated if generated is not None else utc_now()
    writer = _Writer(folder)
    players = _Names()
    player_href = {s.name: f"players/{players.get(s.name, s.name, 'player')}.html" for s in table.standings}
    games = _Names()
    game_href = [f"games/{games.get(i, _game_stem(g.record, i), 'game')}.html" for i, g in enumerate(ratings.games)]
    nav = (("Ratings", "index.html#ratings"), ("Crosstable", "index.html#crosstable"), ("Games", "games.html"))
    common = {"site_title": site_title, "nav": nav, "inline_css": False, "generated": stamp}

    writer.text("style.css", stylesheet())
    chart = _rating_chart(ratings, [s.name for s in table.standings])
    if chart:
        writer.text("ratings.svg", chart)
    download_links = []
    if downloads and records:
        writer.text("games.pgn", to_pgn(records))
        writer.text("games.jsonl", to_jsonl(records))
        download_links = [("PGN", "games.pgn"), ("JSON lines", "games.jsonl")]
    boards = sorted({r.board for r in records})
    summary = f"{len(records)} games · {len(table.standings)} players · " + ", ".join(boards or ["no games"])
    writer.text("index.html", render_page(
        "index.html", title=site_title, root="", summary=summary,
        sprt=sprt.summary() if sprt is not None else None,
        ratings_table=table_view(table.to_table(), player_href, title=""),
        crosstable=table_view(cross.matrix_table(), player_href, title=""),
        handicap_tables=_handicap_views(handicap),
        chart="ratings.svg" if chart else None, chart_width=CHART_WIDTH,
        heatmaps=_heatmaps(records), games=len(records), downloads=download_links, **common,
    ))
    rows = []
    for index, (game, href) in enumerate(zip(ratings.games, game_href), start=1):
        r = game.record
        rows.append({"index": index, "href": href, "tournament": r.tournament, "id": "" if r.id is None else r.id,
                     "round": r.round, "board": r.board, "handicap": r.handicap, "black": r.black,
                     "white": r.white, "winner": r.winner_name, "termination": r.termination.value,
                     "fault": r.termination.is_fault, "moves": len(r.moves)})
    writer.text("games.html", render_page("games.html", title="Games", root="", rows=rows, **common))
    for index, game in enumerate(ratings.games):
        prev_href = "../" + game_href[index - 1] if index > 0 else None
        next_href = "../" + game_href[index + 1] if index + 1 < len(game_href) else None
        writer.text(game_href[index], _game_page(game, index + 1, prev_href, next_href, player_href, common))
    by_player = _games_by_player(ratings)
    standing_of = {s.name: s for s in table.standings}
    for name, href in player_href.items():
        stem = href[len("players/"):-len(".html")]
        player_chart = _player_chart(ratings, name)
        if player_chart:
            writer.text(f"players/{stem}.svg", player_chart)
        writer.text(href, _player_page(name, standing_of[name], by_player.get(name, []), game_href, player_href,
                                       f"{stem}.svg" if player_chart else None, common))
    manifest = sorted(str(p.relative_to(folder)) for p in writer.written)
    for stale in previous - set(manifest):
        path = folder / stale
        if path.is_file():
            path.unlink()
    (folder / MANIFEST).write_text("\n".join(manifest) + "\n", encoding="utf-8")
    pages = sum(1 for p in writer.written if p.suffix == ".html")
    return SiteResult(folder, folder / "index.html", pages, len(records), tuple(writer.written))


def _check_folder(folder: Path) -> set[str]:
    """Files of an earlier publish in `folder` (empty for a new folder); refuses foreign non-empty folders."""
    if folder.exists() and not folder.is_dir():
        raise ReportError(f"site output {str(folder)!r} is a file; expected a folder")
    manifest = folder / MANIFEST
    if manifest.is_file():
        return {line for line in manifest.read_text(encoding="utf-8").splitlines() if line.strip()}
    if folder.is_dir() and any(folder.iterdir()):
        raise ReportError(
            f"site output {str(folder)!r} is not empty and holds no ytourney site; choose a new or empty folder"
        )
    return set()


class _Writer:
    """Writes files under the site folder and remembers them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.written: list[Path] = []

    def text(self, relative: str, content: str) -> None:
        path = self.folder / relative
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
        except OSError as err:
            raise ReportError(f"cannot write site file {str(path)!r}: {err.strerror or err}") from err
        self.written.append(path)


def _game_stem(record: GameRecord, index: int) -> str:
    number = record.id if record.id is not None else index + 1
    return f"{record.tournament or 'game'}-{number}"


def _games_by_player(ratings: Ratings) -> dict[str, list[tuple[int, RatedGame]]]:
    games: dict[str, list[tuple[int, RatedGame]]] = {}
    for index, game in enumerate(ratings.games):
        for name in {game.record.black, game.record.white}:
            games.setdefault(name, []).append((index, game))
    return games


def _change(before: PlayerRating, after: PlayerRating) -> str:
    delta = after.mu - before.mu
    return f"mu {before.mu:.2f} → {after.mu:.2f} ({delta:+.2f})"


def _game_page(game: RatedGame, number: int, prev_href: str | None, next_href: str | None,
               player_href: Mapping[str, str], common: Mapping[str, Any]) -> str:
    record = game.record
    board = parse_board(record.board)
    rules = record.rules
    unit = 44.0 if board.kind is BoardKind.KADON else max(22.0, min(60.0, 480.0 / board.size))
    label = f"final position of game {number}: {record.black} (black) vs {record.white} (white)"
    diagram = position_svg(board, record.moves, rules=rules, handicap=record.handicap, label=label, unit=unit)
    played = replay(board, record.moves, rules, record.handicap)
    colours = stone_colours(record)
    seconds = list(record.move_seconds) + [None] * (len(record.moves) - len(record.move_seconds))
    moves = [{"token": token, "colour": {"B": "black", "W": "white"}.get(colour or "", "swap"), "seconds": t}
             for token, colour, t in zip(record.moves, colours, seconds)]
    changes = {game.winner_before.name: _change(game.winner_before, game.winner_after),
               game.loser_before.name: _change(game.loser_before, game.loser_after)}
    how = "by completing a Y" if record.termination.value == "connection" else f"by {record.termination.value}"
    if record.termination.value == "connection" and record.rules.misere:
        how = "(misère: the opponent completed a Y)"
    result = f"{record.winner_name} ({record.winner}) wins {how} after {len(record.moves)} moves"
    notes = []
    if played.failed_at is not None:
        notes.append(f"the record's move {played.failed_at} does not replay; the diagram stops before it")
    if game.handicap_as_even:
        notes.append("handicap game: rated as a plain win/loss")
    if game.note:
        notes.append(game.note)
    think = "-"
    if record.move_seconds:
        spent = [0.0, 0.0]
        for ply, t in enumerate(record.move_seconds):
            spent[_mover_seat(ply, record.handicap)] += t
        think = f"{record.first} {spent[0]:.2f}s, {record.second} {spent[1]:.2f}s"
    rules_text = ", ".join(f"{k} {'on' if v else 'off'}" for k, v in sorted(record.rules.to_dict().items())) or "-"
    title = f"Game {number}: {record.black} vs {record.white}"
    return render_page(
        "game.html", title=title, root="../", record=record, diagram=Markup(diagram), result=result,
        fault=record.termination.is_fault, won_by_y=bool(winning_group(played.state)), moves=moves,
        black={"name": record.black, "href": "../" + player_href.get(record.black, "index.html"),
               "change": changes.get(record.black, "")},
        white={"name": record.white, "href": "../" + player_href.get(record.white, "index.html"),
               "change": changes.get(record.white, "")},
        rules=rules_text, think_time=think, note="; ".join(notes), prev=prev_href, next=next_href, **common,
    )


def _mover_seat(ply: int, handicap: int) -> int:
    """Seat (0 = first player, 1 = second) that made action `ply` (0-based): handicap stones, then alternation."""
    stones = max(1, handicap)
    return 0 if ply < stones else (1 if (ply - stones) % 2 == 0 else 0)


def _player_page(name: str, standing: Standing, games: Sequence[tuple[int, RatedGame]], game_href: Sequence[str],
                 player_href: Mapping[str, str], chart: str | None, common: Mapping[str, Any]) -> str:
    rows = []
    for index, game in games:
        record = game.record
        won = record.winner_name == name
        after = game.winner_after if won else game.loser_after
        opponent = record.white if record.black == name else record.black
        rows.append({"index": index + 1, "href": "../" + game_href[index],
                     "colour": "black" if record.black == name else "white", "opponent": opponent,
                     "opponent_href": "../" + player_href.get(opponent, "index.html"), "won": won,
                     "termination": record.termination.value, "moves": len(record.moves), "mu": after.mu})
    results = Table("player", "", tuple(c for c in RATING_COLUMNS if c.key not in ("rank", "name")),
                    (standing.row(),))
    summary = (f"rank {standing.rank} · mu {standing.mu:.2f} ± {standing.sigma:.2f} · rating {standing.conservative:.2f}"
               f" · {standing.results.wins} wins, {standing.results.losses} losses")
    return render_page("player.html", title=name, root="../", name=name, summary=summary, chart=chart,
                       chart_width=CHART_WIDTH, results=table_view(results, title=""), games=rows, **common)


# --- charts and heat maps --------------------------------------------------------------------------------------


def _figure(width: float = 9.0, height: float = 4.2) -> Any:
    from matplotlib.figure import (
        Figure,  # no pyplot: no global backend state, the SVG canvas writes the file
    )

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _svg_text(figure: Any) -> str:
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "ytourney", "svg.fonttype": "path"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def _rating_chart(ratings: Ratings, names: Sequence[str]) -> str | None:
    """One line per player: mu after each of their games, against the game number in replay order."""
    if not ratings.games:
        return None
    figure = _figure(9.0, 4.2 if len(names) <= 12 else 5.5)
    axes = figure.add_subplot()
    palette = _palette(len(names))
    start = ratings.settings.mu
    for colour, name in zip(palette, names):
        points = ratings.history.get(name, ())
        xs = [0] + [p.game for p in points]
        mus = [start] + [p.mu for p in points]
        sigmas = [ratings.settings.sigma] + [p.sigma for p in points]
        axes.plot(xs, mus, color=colour, linewidth=1.6, label=name, drawstyle="steps-post")
        if len(names) <= 8:
            low = [m - s for m, s in zip(mus, sigmas)]
            high = [m + s for m, s in zip(mus, sigmas)]
            axes.fill_between(xs, low, high, color=colour, alpha=0.10, linewidth=0, step="post")
    axes.set_xlabel("game (replay order)")
    axes.set_ylabel("TrueSkill mu")
    axes.set_xlim(0, max(1, len(ratings.games)))
    axes.grid(True, color="#dddddd", linewidth=0.6)
    axes.spines[["top", "right"]].set_visible(False)
    axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False, fontsize=9)
    return _svg_text(figure)


def _player_chart(ratings: Ratings, name: str) -> str | None:
    points = ratings.history.get(name, ())
    if not points:
        return None
    figure = _figure(9.0, 3.4)
    axes = figure.add_subplot()
    xs = [0] + [p.game for p in points]
    mus = [ratings.settings.mu] + [p.mu for p in points]
    sigmas = [ratings.settings.sigma] + [p.sigma for p in points]
    axes.fill_between(xs, [m - 3 * s for m, s in zip(mus, sigmas)], [m + 3 * s for m, s in zip(mus, sigmas)],
                      color="#1f5fbf", alpha=0.12, linewidth=0)
    axes.plot(xs, mus, color="#1f5fbf", linewidth=1.8, marker="o", markersize=2.5, label="mu")
    axes.plot(xs, [m - 3 * s for m, s in zip(mus, sigmas)], color="#b3261e", linewidth=1.2, linestyle="--",
              label="mu - 3 sigma")
    axes.set_xlabel("game (replay order)")
    axes.set_ylabel("TrueSkill")
    axes.grid(True, color="#dddddd", linewidth=0.6)
    axes.spines[["top", "right"]].set_visible(False)
    axes.legend(loc="lower right", frameon=False, fontsize=9)
    return _svg_text(figure)


def _palette(count: int) -> list[Any]:
    from matplotlib import colormaps

    if count <= 10:
        return [colormaps["tab10"](i) for i in range(count)]
    cmap = colormaps["tab20"] if count <= 20 else colormaps["turbo"]
    return [cmap(i / max(1, count - 1)) if count > 20 else cmap(i) for i in range(count)]


@dataclass(frozen=True)
class FirstMoveStats:
    """Per first-stone cell of one board: games, wins of the first stone's owner (Black), swap chances, swaps."""

    board: str
    games: dict[int, int]
    black_wins: dict[int, int]
    chances: dict[int, int]
    swaps: dict[int, int]

    @property
    def total(self) -> int:
        """Games counted."""
        return sum(self.games.values())


def first_move_stats(records: Iterable[GameRecord]) -> list[FirstMoveStats]:
    """First-stone statistics of even games (handicap 0), one entry per board spec."""
    by_board: dict[str, FirstMoveStats] = {}
    for record in records:
        if record.handicap != 0 or not record.moves:
            continue
        board = parse_board(record.board)
        try:
            cell = parse_cell(board, record.moves[0])
        except YTourneyError:
            continue
        stats = by_board.setdefault(board.spec, FirstMoveStats(board.spec, {}, {}, {}, {}))
        stats.games[cell] = stats.games.get(cell, 0) + 1
        stats.black_wins[cell] = stats.black_wins.get(cell, 0) + (record.winner is Color.BLACK)
        if record.rules.pie and len(record.moves) >= 2:
            stats.chances[cell] = stats.chances.get(cell, 0) + 1
            stats.swaps[cell] = stats.swaps.get(cell, 0) + (record.moves[1].lower() == "swap")
    return [by_board[spec] for spec in sorted(by_board)]


def _heatmaps(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    maps = []
    for stats in first_move_stats(records):
        board = parse_board(stats.board)
        unit = 30.0 if board.kind is BoardKind.KADON else max(20.0, min(44.0, 400.0 / board.size))
        win = {cell: stats.black_wins[cell] / n for cell, n in stats.games.items()}
        win_svg = heatmap_svg(board, win, stats.games, label=f"first-stone owner win rate on {stats.board}",
                              low="owner loses", high="owner wins", unit=unit)
        swap_svg = None
        if stats.chances:
            swap = {cell: stats.swaps.get(cell, 0) / n for cell, n in stats.chances.items()}
            swap_svg = Markup(heatmap_svg(board, swap, stats.chances, label=f"swap rate on {stats.board}",
                                          low="never swapped", high="always swapped", diverging=False, unit=unit))
        maps.append({"board": stats.board, "games": stats.total, "win_svg": Markup(win_svg), "swap_svg": swap_svg})
    return maps
