"""Pairs of players: head-to-head results per seat, rating differences (TrueSkill and Elo), fair handicaps drawn
as games accumulate, a page per pair, the pairs list and the handicaps page."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ytourney.games.record import GameRecord
from ytourney.publish.charts import FairLevelPoint
from ytourney.publish.game_facts import move_count
from ytourney.publish.game_pages import GAMES_SHOWN, SiteLinks, pair_key
from ytourney.publish.handicap_table import HandicapReport
from ytourney.publish.html import render_page
from ytourney.stats.elo import EloFit
from ytourney.stats.handicap import (
    HandicapMode,
    HandicapPlanner,
    HandicapSettings,
    counts_for_handicap,
)
from ytourney.stats.normal import normal_cdf
from ytourney.stats.ratings import PlayerRating, RatedGame

CHECKPOINTS = 80
"""Times the fair-level estimates of all pairs are taken over a replay (each costs one pooled refresh)."""
Z95 = 1.959963984540054


@dataclass
class SeatResults:
    """One player's games and wins in a pair, by seat (first or second stone) and by final colour."""

    first: list[int] = field(default_factory=lambda: [0, 0])
    second: list[int] = field(default_factory=lambda: [0, 0])
    black: list[int] = field(default_factory=lambda: [0, 0])
    white: list[int] = field(default_factory=lambda: [0, 0])


@dataclass
class PairResults:
    """The games of one pair (names sorted): replay indices, per-player seat results, faults."""

    a: str
    b: str
    indices: list[int] = field(default_factory=list)
    seats: dict[str, SeatResults] = field(default_factory=dict)
    faults: int = 0
    handicap_games: int = 0
    draws: int = 0

    def add(self, index: int, record: GameRecord) -> None:
        """Count one game of the pair."""
        self.indices.append(index)
        self.faults += record.termination.is_fault
        self.handicap_games += record.handicap > 0
        self.draws += record.winner is None
        for name in (self.a, self.b):
            seat = self.seats.setdefault(name, SeatResults())
            won = int(record.winner_name == name)
            for tally, present in ((seat.first, record.first == name), (seat.second, record.second == name),
                                   (seat.black, record.black == name), (seat.white, record.white == name)):
                if present:
                    tally[0] += 1
                    tally[1] += won

    def wins(self, name: str) -> int:
        """Games of the pair `name` won."""
        seat = self.seats[name]
        return seat.first[1] + seat.second[1]


def collect_pairs(games: Sequence[RatedGame]) -> dict[tuple[str, str], PairResults]:
    """Every pair that played (self-play left out), in name order."""
    pairs: dict[tuple[str, str], PairResults] = {}
    for index, game in enumerate(games):
        record = game.record
        if record.black == record.white:
            continue
        key = pair_key(record.black, record.white)
        pairs.setdefault(key, PairResults(*key)).add(index, record)
    return dict(sorted(pairs.items()))


def fair_level_history(records: Sequence[GameRecord], report: HandicapReport
                       ) -> dict[tuple[str, str], list[FairLevelPoint]]:
    """Each pair's fair-level estimate as its games accumulate, replayed as the handicap table does (faults left
    out, pairs pooled); estimates are taken at CHECKPOINTS points of the replay and after the last game."""
    if report.sides is not None:  # a side-favouring ladder: the pairs' fair level has no history of its own here
        return {}
    settings = HandicapSettings(HandicapMode.AUTO, max_level=min(report.max_level, 50), target=report.target)
    planner = HandicapPlanner(settings)
    counted = [r for r in records if r.black != r.white and counts_for_handicap(r.termination)]
    every = max(1, math.ceil(len(counted) / CHECKPOINTS))
    played: dict[tuple[str, str], list[GameRecord]] = {}
    marks: dict[tuple[str, str], int] = {}
    history: dict[tuple[str, str], list[tuple[int, float, float, float, str]]] = {}
    seen = 0
    for record in records:
        if record.black == record.white:
            continue
        key = pair_key(record.black, record.white)
        if not counts_for_handicap(record.termination):
            planner.estimator(*key)
            continue
        planner.record_game(record)
        played.setdefault(key, []).append(record)
        seen += 1
        if seen % every == 0 or seen == len(counted):
            for pair, estimate in planner.estimates().items():
                count = len(played.get(pair, ()))
                if count and marks.get(pair) != count:
                    marks[pair] = count
                    history.setdefault(pair, []).append(
                        (count, estimate.median, estimate.low, estimate.high, estimate.weaker))
    final = {key: estimate.weaker for key, estimate in report.estimates.items()}
    result = {}
    for key, games in played.items():
        weaker = final.get(key, key[0])
        steps = history.get(key, [])
        points = []
        step = 0
        for number, record in enumerate(games, start=1):
            while step + 1 < len(steps) and steps[step + 1][0] <= number:
                step += 1
            count, median, low, high, who = steps[step] if steps else (0, 0.0, 0.0, 0.0, weaker)
            if who != weaker:  # the estimate then named the other player weaker: show it on the same scale
                median, low, high = -median, -high, -low
            receiver = (record.first or record.black) if record.handicap else weaker
            level = record.handicap if receiver == weaker else -record.handicap
            points.append(FairLevelPoint(number, median, low, high, level, record.winner_name == receiver))
        result[key] = points
    return result


def _difference(a: PlayerRating | None, b: PlayerRating | None) -> dict[str, Any] | None:
    if a is None or b is None:
        return None
    spread = math.hypot(a.sigma, b.sigma)
    chance = normal_cdf((a.mu - b.mu) / spread) if spread > 0 else float(a.mu > b.mu)
    return {"delta": a.mu - b.mu, "error": Z95 * spread, "p": chance}


def _elo_difference(elo: EloFit | None, a: str, b: str) -> dict[str, Any] | None:
    if elo is None:
        return None
    ratings = {r.name: r for r in elo.ratings}
    if a not in ratings or b not in ratings:
        return None
    ra, rb = ratings[a], ratings[b]
    return {"delta": ra.elo - rb.elo, "a": ra, "b": rb, "bounded": ra.bounded or rb.bounded,
            "left_out": elo.handicap_games_left_out}


def pair_summary(pair: PairResults, players: Mapping[str, PlayerRating], elo: EloFit | None,
                 report: HandicapReport | None, links: SiteLinks) -> dict[str, Any]:
    """What the pairs list and the pair page show of one pair."""
    estimate = report.estimates.get((pair.a, pair.b)) if report is not None else None
    return {"a": pair.a, "b": pair.b, "href": links.pair_href[(pair.a, pair.b)],
            "a_href": links.player(pair.a, ""), "b_href": links.player(pair.b, ""),
            "games": len(pair.indices), "a_wins": pair.wins(pair.a), "b_wins": pair.wins(pair.b),
            "faults": pair.faults, "handicap_games": pair.handicap_games, "draws": pair.draws,
            "trueskill": _difference(players.get(pair.a), players.get(pair.b)),
            "elo": _elo_difference(elo, pair.a, pair.b), "estimate": estimate}


def pair_page(pair: PairResults, summary: Mapping[str, Any], games: Sequence[RatedGame], chart: str | None,
              chart_width: int, links: SiteLinks) -> str:
    """The page of one pair: head-to-head by seat, rating differences, fair handicap and its games."""
    seats = []
    for name in (pair.a, pair.b):
        seat = pair.seats[name]
        seats.append({"name": name, "href": links.player(name), "first": seat.first, "second": seat.second,
                      "black": seat.black, "white": seat.white, "wins": pair.wins(name)})
    rows = []
    for index in pair.indices[-GAMES_SHOWN:]:
        record = games[index].record
        rows.append({"index": index + 1, "href": "../" + links.game_href[index], "black": record.black,
                     "white": record.white, "first": record.first, "winner": record.winner_name or "draw",
                     "handicap": record.handicap, "termination": record.termination.value,
                     "fault": record.termination.is_fault, "moves": move_count(record)})
    from urllib.parse import quote

    return render_page("pair.html", title=f"{pair.a} vs {pair.b}", root="../", pair=summary, seats=seats,
                       games=rows, total=len(pair.indices), chart=chart, chart_width=chart_width,
                       filter_href=f"../games.html#pair={quote(pair.a, safe='')}%20vs%20{quote(pair.b, safe='')}",
                       **links.common)


def pairs_page(summaries: Sequence[Mapping[str, Any]], links: SiteLinks) -> str:
    """The list of every pair with its score, rating differences and fair handicap."""
    return render_page("pairs.html", title="Pairs", root="", pairs=summaries, **links.common)


def handicaps_page(report: HandicapReport | None, tables: Sequence[Any], worth_chart: str | None,
                   pair_charts: Sequence[Mapping[str, Any]], chart_width: int, links: SiteLinks) -> str:
    """The handicaps page: the learned worth of each level, the fair-handicap tables and every pair's chart."""
    return render_page("handicaps.html", title="Handicaps", root="", tables=tables, worth_chart=worth_chart,
                       pair_charts=pair_charts, chart_width=chart_width, **links.common)
