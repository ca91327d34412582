"""Game pages, player pages and the games list (static pages of GAMES_PER_PAGE rows, and data for the filters)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from ytourney.boards.board import BoardKind
from ytourney.games.api import EMPTY, Color, rule_value_text
from ytourney.games.record import GameRecord
from ytourney.publish.game_facts import move_count, result_sentence, rules_in_play
from ytourney.publish.html import render_page, table_view
from ytourney.publish.ratings_table import RATING_COLUMNS, Standing
from ytourney.publish.sgf import fallback_colours
from ytourney.publish.svg import diagram_svg, replay_moves
from ytourney.publish.table import Table
from ytourney.stats.ratings import PlayerRating, RatedGame

GAMES_PER_PAGE = 500
"""Rows of one static games-list page (the filters page through all games in steps of this size too)."""
GAMES_PER_DATA_FILE = 10_000
"""Games per script file of the games list's filter data."""
GAMES_SHOWN = 300
"""Games listed on a player or pair page (the latest); the games list holds them all."""
START_UNIT = 0.6
"""Size of a game page's start diagram (drawn when the game starts from a set position) against its final one."""


@dataclass(frozen=True)
class SiteLinks:
    """Where every page of a site is (relative to the site folder) and its common template context."""

    game_href: tuple[str, ...]
    player_href: Mapping[str, str]
    pair_href: Mapping[tuple[str, str], str]
    common: Mapping[str, Any]

    def player(self, name: str, root: str = "../") -> str:
        """Link to a player's page from a page `root` below the site."""
        return root + self.player_href.get(name, "index.html")

    def pair(self, a: str, b: str, root: str = "../") -> str | None:
        """Link to a pair's page (None when the pair has none)."""
        href = self.pair_href.get(pair_key(a, b))
        return root + href if href else None


def pair_key(a: str, b: str) -> tuple[str, str]:
    """The unordered pair as its two names sorted."""
    return (a, b) if a <= b else (b, a)


def games_by_player(games: Sequence[RatedGame]) -> dict[str, list[int]]:
    """Replay indices of every player's games."""
    result: dict[str, list[int]] = {}
    for index, game in enumerate(games):
        for name in {game.record.black, game.record.white}:
            result.setdefault(name, []).append(index)
    return result


def _change(before: PlayerRating, after: PlayerRating) -> str:
    delta = after.mu - before.mu
    return f"mu {before.mu:.2f} → {after.mu:.2f} ({delta:+.2f})"


def mover_seat(ply: int, handicap: int) -> int:
    """Seat (0 = first player, 1 = second) that made action `ply` (0-based): handicap stones, then alternation."""
    stones = max(1, handicap)
    return 0 if ply < stones else (1 if (ply - stones) % 2 == 0 else 0)


def move_list_style(tokens: Sequence[str], seconds: Sequence[float | None]) -> str:
    """Widths of the move list's columns in `ch`: nine entries in ten (stone, move, time) fit a column, a rarer long
    jump chain wraps at its hyphens, and the gap holds the next column's move numbers, so nothing overlaps."""
    widths = sorted(len(token) + 2.5 + (0.0 if t is None else len(f"{t:.2f}s") * 0.75 / 0.9 + 0.8)
                    for token, t in zip(tokens, seconds))
    entry = widths[(len(widths) - 1) * 9 // 10] if widths else 0.0
    marker = len(str(len(tokens))) + 1.5  # digits, the period and the space before the entry
    return f"--entry: {math.ceil(entry)}ch; --marker: {marker:g}ch"


def game_page(game: RatedGame, number: int, links: SiteLinks) -> str:
    """The page of one game: final position, result, facts and the move list."""
    record = game.record
    variant = record.variant
    rules_of, board = variant.game, variant.board
    unit = 44.0 if board.kind is BoardKind.KADON else max(22.0, min(60.0, 480.0 / board.size))
    label = f"final position of game {number}: {record.black} (black) vs {record.white} (white)"
    played = replay_moves(rules_of, board, record.moves, record.rules, record.handicap)
    diagram = diagram_svg(rules_of, played, label=label, unit=unit)
    start = replay_moves(rules_of, board, (), record.rules, record.handicap)
    start_diagram = None
    if any(cell != EMPTY for cell in start.state.cells):  # a set start (quinta, sexta, ...); an empty board says nothing
        start_diagram = Markup(diagram_svg(rules_of, start, numbered=False, highlight=False, unit=START_UNIT * unit,
                                           label=f"start position of game {number}"))
    history = played.state.history
    tokens = [rules_of.format_move(board, move) for move in history[:len(played.colours)]]
    tokens += record.moves[len(tokens):]
    colours = [None if c is None else "B" if c is Color.BLACK else "W" for c in played.colours]
    colours += fallback_colours(record, colours)
    seconds = list(record.move_seconds) + [None] * (len(record.moves) - len(record.move_seconds))
    first_turn = rules_of.first_turn_stones(record.handicap)
    stones = min(len(tokens), first_turn) if first_turn >= 2 else 0
    if stones:  # a handicap level's stones are one turn, one entry of the list (which numbers turns)
        known = [t for t in seconds[:stones] if t is not None]
        tokens[:stones] = [" ".join(tokens[:stones])]
        colours[:stones] = colours[:1]
        seconds[:stones] = [sum(known) if known else None]
    moves = Markup("".join(  # built here, not in the template: a long game has hundreds of moves
        f'<li class="{kind}"><span class="stone {kind}" title="{kind}"></span>{escape(token)}'
        + (f'<span class="t">{t:.2f}s</span>' if t is not None else "") + "</li>\n"
        for token, kind, t in ((token, {"B": "black", "W": "white"}.get(colour or "", "swap"), t)
                               for token, colour, t in zip(tokens, colours, seconds))))
    changes = {game.winner_before.name: _change(game.winner_before, game.winner_after),
               game.loser_before.name: _change(game.loser_before, game.loser_after)}
    result = result_sentence(record)
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
            spent[mover_seat(ply, record.game_rules.first_turn_stones(record.handicap))] += t
        think = f"{record.first} {spent[0]:.2f}s, {record.second} {spent[1]:.2f}s"
    rules_text = ", ".join(f"{k} {rule_value_text(v)}" for k, v in sorted(rules_in_play(record).items())) or "-"
    index = number - 1
    hrefs = links.game_href
    return render_page(
        "game.html", title=f"Game {number}: {record.black} vs {record.white}", root="../", record=record,
        diagram=Markup(diagram), numbered=bool(played.numbers), start_diagram=start_diagram, result=result,
        fault=record.termination.is_fault, moves=moves,
        highlight=rules_of.views.highlight_text if rules_of.views.highlight(played.state) else "",
        black={"name": record.black, "href": links.player(record.black), "change": changes.get(record.black, ""),
               "side": rules_of.views.side_names.get(Color.BLACK, "")},
        white={"name": record.white, "href": links.player(record.white), "change": changes.get(record.white, ""),
               "side": rules_of.views.side_names.get(Color.WHITE, "")},
        pair=links.pair(record.black, record.white),
        moves_style=move_list_style(tokens, seconds), rules=rules_text, think_time=think, note="; ".join(notes),
        move_order="White, Black" if rules_of.first_color is Color.WHITE else "Black, White",
        prev="../" + hrefs[index - 1] if index > 0 else None,
        next="../" + hrefs[index + 1] if index + 1 < len(hrefs) else None, **links.common,
    )


def player_game_rows(name: str, games: Sequence[RatedGame], indices: Sequence[int], links: SiteLinks
                     ) -> list[dict[str, Any]]:
    """Rows of a player's games table (the latest GAMES_SHOWN of `indices`)."""
    rows = []
    for index in indices[-GAMES_SHOWN:]:
        game = games[index]
        record = game.record
        won = record.winner_name == name
        after = game.winner_after if won else game.loser_after
        opponent = record.white if record.black == name else record.black
        rows.append({"index": index + 1, "href": "../" + links.game_href[index],
                     "colour": "black" if record.black == name else "white", "opponent": opponent,
                     "opponent_href": links.player(opponent), "pair_href": links.pair(name, opponent), "won": won,
                     "drawn": record.winner is None,
                     "handicap": record.handicap, "termination": record.termination.value,
                     "moves": move_count(record), "mu": after.mu})
    return rows


def player_page(name: str, standing: Standing, games: Sequence[RatedGame], indices: Sequence[int],
                chart: str | None, chart_width: int, links: SiteLinks) -> str:
    """A player's page: summary, rating chart, results and the latest games."""
    results = Table("player", "", tuple(c for c in RATING_COLUMNS if c.key not in ("rank", "name")
                                       and (c.key != "draws" or standing.results.draws)),
                    (standing.row(),))
    summary = (f"rank {standing.rank} · mu {standing.mu:.2f} ± {standing.sigma:.2f} · rating {standing.conservative:.2f}"
               f" · {standing.results.wins} wins, {standing.results.losses} losses"
               + (f", {standing.results.draws} draws" if standing.results.draws else ""))
    return render_page("player.html", title=name, root="../", name=name, summary=summary, chart=chart,
                       chart_width=chart_width, results=table_view(results, title=""),
                       games=player_game_rows(name, games, indices, links), total=len(indices),
                       filter_href=f"../games.html#player={_fragment(name)}", **links.common)


def _fragment(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


def _row(number: int, record: GameRecord, href: str) -> dict[str, Any]:
    return {"index": number, "href": href, "tournament": record.tournament, "id": "" if record.id is None else record.id,
            "round": record.round, "board": record.board, "handicap": record.handicap, "black": record.black,
            "white": record.white, "winner": record.winner_name or "draw", "termination": record.termination.value,
            "fault": record.termination.is_fault, "moves": move_count(record)}


def games_list_name(page: int) -> str:
    """File of the games list's page `page` (1-based)."""
    return "games.html" if page == 1 else f"games-{page}.html"


def games_list_files(games: Sequence[RatedGame], links: SiteLinks) -> list[tuple[str, str]]:
    """The games list: static pages of GAMES_PER_PAGE rows, its filter data scripts, (name, content) each."""
    total = len(games)
    page_count = max(1, math.ceil(total / GAMES_PER_PAGE))
    data_count = math.ceil(total / GAMES_PER_DATA_FILE)
    data_files = [f"games-data-{k + 1}.js" for k in range(data_count)]
    draws = any(game.record.winner is None for game in games)
    files = []
    for page in range(1, page_count + 1):
        start = (page - 1) * GAMES_PER_PAGE
        rows = [_row(i + 1, games[i].record, links.game_href[i]) for i in range(start, min(total, start + GAMES_PER_PAGE))]
        pager = [{"page": p, "href": games_list_name(p), "current": p == page} for p in range(1, page_count + 1)]
        files.append((games_list_name(page), render_page(
            "games.html", title="Games", root="", rows=rows, total=total, first=start + 1, page=page,
            pages=page_count, pager=pager if page_count > 1 else [], data_files=data_files,
            chunk=GAMES_PER_PAGE, draws=draws, **links.common)))
    for k, name in enumerate(data_files):
        chunk = range(k * GAMES_PER_DATA_FILE, min(total, (k + 1) * GAMES_PER_DATA_FILE))
        files.append((name, _data_script([(i + 1, games[i].record, links.game_href[i]) for i in chunk])))
    return files


def _data_script(rows: Sequence[tuple[int, GameRecord, str]]) -> str:
    """One script of filter data: a string table and rows of indices into it (see games.js)."""
    strings: dict[str, int] = {}

    def intern(text: str) -> int:
        return strings.setdefault(text, len(strings))

    packed = []
    for number, record, href in rows:
        packed.append([number, href[len("games/"):-len(".html")], intern(record.tournament),
                       record.id if record.id is not None else "", record.round, intern(record.board),
                       record.handicap, intern(record.black), intern(record.white), intern(record.first),
                       0 if record.winner is Color.BLACK else 1 if record.winner is Color.WHITE else 2,
                       intern(record.termination.value),
                       move_count(record)])
    data = json.dumps({"s": list(strings), "r": packed}, separators=(",", ":"), ensure_ascii=True)
    return f"(window.YTGAMES = window.YTGAMES || []).push({data});\n"
