"""The rating table: standings by conservative rating with results, opposition, LOS, seat figures and faults."""

from __future__ import annotations

import enum
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ytourney.errors import RatingsError, ReportError
from ytourney.games.api import TOOL_TERMINATIONS
from ytourney.games.record import GameRecord, Termination
from ytourney.publish.handicap_table import level_row, level_worth_text
from ytourney.publish.render import render_table
from ytourney.publish.table import Column, ColumnKind, Table, TableFormat
from ytourney.stats.elo import EloFit, EloRating, fit_elo
from ytourney.stats.elo_sprt import EloSprtState
from ytourney.stats.level_worth import LevelValue
from ytourney.stats.ratings import (
    CONSERVATIVE_SIGMAS,
    PlayerResults,
    Ratings,
    RatingSettings,
    rate_records,
    superiority,
)
from ytourney.stats.sprt import SprtState

FAULTS: tuple[Termination, ...] = tuple(t for t in TOOL_TERMINATIONS if t.is_fault)
"""Fault terminations, counted against the losing (faulty) side."""


class RatingSort(str, enum.Enum):
    """Which rating ranks the table: conservative TrueSkill (mu - 3 sigma) or Bradley-Terry Elo."""

    TRUESKILL = "trueskill"
    ELO = "elo"


@dataclass(frozen=True)
class Standing:
    """One player's line of the rating table: rank, rating, the replay's results of the player, opposition, LOS."""

    rank: int
    name: str
    mu: float
    sigma: float
    results: PlayerResults
    opponent_mu: float | None
    los_next: float | None
    elo: EloRating | None = None

    @property
    def conservative(self) -> float:
        """mu - 3 sigma, the sort key."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma

    @property
    def faults(self) -> dict[str, int]:
        """Games lost by each kind of fault of this player (every fault named, 0 when none)."""
        return {fault.value: self.results.faults.get(fault.value, 0) for fault in FAULTS}

    def row(self) -> dict[str, Any]:
        """The table row of this standing (keys of RATING_COLUMNS)."""
        r = self.results
        faults = self.faults
        row: dict[str, Any] = {
            "rank": self.rank, "name": self.name, "mu": self.mu, "sigma": self.sigma,
            "conservative": self.conservative, "games": r.games, "wins": r.wins, "draws": r.draws,
            "losses": r.losses,
            "score": r.score, "opponent_mu": self.opponent_mu, "los_next": self.los_next,
            "first_games": r.first_games, "first_win_rate": _sampled(r.first_win_rate, r.first_games),
            "swap_chances": r.swap_chances, "swaps": r.swaps, "swap_rate": _sampled(r.swap_rate, r.swap_chances),
            "swap_win_rate": _sampled(r.swap_win_rate, r.swaps), "handicap_games": r.handicap_games,
            "faults_text": _faults_text(faults),
            "time_text": ", ".join(sorted(r.time_odds, key=lambda clock: -r.time_odds[clock])) or "-",
        }
        for fault in FAULTS:
            row[f"faults_{fault.value}"] = faults[fault.value]
        elo = self.elo
        row.update({"elo": elo.elo if elo else None, "elo_error": elo.error if elo else None,
                    "elo_low": elo.low if elo else None, "elo_high": elo.high if elo else None,
                    "elo_bounded": elo.bounded if elo else None, "elo_text": _elo_text(elo)})
        return row


MIN_SEAT_SAMPLE = 5
"""Fewest games behind a per-seat rate (1st-win, swap, swap-win) for the table to show it: 100% from one game says
nothing. The counts stay in the data columns (1st-games, swap-chances, swaps)."""


def _sampled(rate: float | None, sample: int) -> float | None:
    return rate if sample >= MIN_SEAT_SAMPLE else None


def _seat_notes(standings: Sequence[Standing], handicap_games: int) -> list[str]:
    """What the per-seat columns leave out: handicap games, and rates from fewer than MIN_SEAT_SAMPLE games."""
    thin = any(0 < sample < MIN_SEAT_SAMPLE for s in standings
               for sample in (s.results.first_games, s.results.swap_chances, s.results.swaps))
    if not (handicap_games or thin):
        return []
    parts = ["1st-win, swap and swap-win count even games only"]
    if handicap_games:
        parts[0] += f" ({handicap_games} handicap games left out)"
    if thin:
        parts.append(f"a rate from fewer than {MIN_SEAT_SAMPLE} games is left blank")
    return ["; ".join(parts) + "."]


def _elo_text(elo: EloRating | None) -> str:
    if elo is None:
        return "-"
    return f"{elo.elo:+.0f} ± {elo.error:.0f}" + ("*" if elo.bounded else "")


def _faults_text(faults: Mapping[str, int]) -> str:
    shown = [f"{name} {count}" for name, count in faults.items() if count]
    return ", ".join(shown) if shown else "-"


RATING_COLUMNS: tuple[Column, ...] = (
    Column("rank", "#", ColumnKind.INT, description="rank by conservative rating mu - 3 sigma"),
    Column("name", "player"),
    Column("mu", "mu", ColumnKind.FLOAT, 2, "TrueSkill mean"),
    Column("sigma", "sigma", ColumnKind.FLOAT, 2, "TrueSkill deviation"),
    Column("conservative", "rating", ColumnKind.FLOAT, 2, "conservative rating mu - 3 sigma"),
    Column("elo_text", "Elo ± 95%", description="Bradley-Terry Elo with the half-width of its 95% interval "
           "(* bounded: held finite by the prior)", data=False, right=True),
    Column("elo", "elo", ColumnKind.FLOAT, 1, "Bradley-Terry Elo (maximum likelihood)", display=False),
    Column("elo_error", "elo-error", ColumnKind.FLOAT, 1, "half-width of the 95% interval", display=False),
    Column("elo_low", "elo-low", ColumnKind.FLOAT, 1, "95% interval, low end", display=False),
    Column("elo_high", "elo-high", ColumnKind.FLOAT, 1, "95% interval, high end", display=False),
    Column("elo_bounded", "elo-bounded", description="estimate held finite by the prior (won or lost everything)",
           display=False),
    Column("games", "games", ColumnKind.INT),
    Column("wins", "W", ColumnKind.INT, description="wins"),
    Column("draws", "D", ColumnKind.INT, description="draws (half a point each)"),
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
    Column("time_text", "time", description="the player's own time control in games played at time odds"),
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
    sprt: SprtState | EloSprtState | None = None
    title: str = "Ratings"
    level_worth: tuple[LevelValue, ...] = ()
    elo: EloFit | None = None
    sort: RatingSort = RatingSort.TRUESKILL

    def notes(self) -> list[str]:
        """Footer lines: games, handicap handling, upsets, SPRT state."""
        s = self.settings
        lines = [(f"{self.games} games rated with TrueSkill (mu {s.mu:.4g}, sigma {s.sigma:.4g}, "
                  f"beta {s.beta:.4g}, tau {s.tau:.4g})"
                  + ("." if self.sort is RatingSort.ELO else "; ranked by mu - 3 sigma."))]
        if self.handicap_games:
            if not self.handicap_adjusted:
                how = "as plain wins/losses"
            elif self.level_worth:
                how = "with the learned worth of each level in skill points (" + level_worth_text(self.level_worth) + ")"
            else:
                how = "with the handicap model"
            lines.append(f"{self.handicap_games} handicap games rated {how} (see column hcp).")
        lines += _seat_notes(self.standings, self.handicap_games)
        if self.time_odds_games:
            lines.append(f"{self.time_odds_games} games played at time odds, rated like the others (column time: "
                         "each player's own time control in them).")
        if self.mpmath_games:
            lines.append(f"{self.mpmath_games} extreme upsets rated with the mpmath backend.")
        if self.skipped_games:
            lines.append(f"{self.skipped_games} games left unrated (self-play or beyond every backend).")
        if self.elo is not None:
            lines += _elo_notes(self.elo, self.sort)
        if self.sprt is not None:
            lines.append(self.sprt.summary())
        return lines

    @property
    def time_odds_games(self) -> int:
        """Games played at time odds (each counted by both its players)."""
        return sum(sum(s.results.time_odds.values()) for s in self.standings) // 2

    def leader_text(self) -> str:
        """The table's first player with the figure it is ranked by, as the table shows it ('' when empty)."""
        if not self.standings:
            return ""
        top = self.standings[0]
        if self.sort is RatingSort.ELO and top.elo is not None:
            return f"{top.name} (Elo {_elo_text(top.elo)})"
        return f"{top.name} (rating {top.conservative:.2f})"

    @property
    def columns(self) -> tuple[Column, ...]:
        """The columns of this table: the Elo ones only when Elo was fitted; rank named after the sort."""
        columns = RATING_COLUMNS if self.elo is not None else tuple(c for c in RATING_COLUMNS
                                                                    if not c.key.startswith("elo"))
        if not any(standing.results.draws for standing in self.standings):
            columns = tuple(c for c in columns if c.key != "draws")  # a league without draws keeps its columns
        if not self.time_odds_games:
            columns = tuple(c for c in columns if c.key != "time_text")
        if self.sort is RatingSort.ELO:
            columns = tuple(replace(c, description="rank by Bradley-Terry Elo") if c.key == "rank" else c
                            for c in columns)
        return columns


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
            "level_worth": [level_row(value) for value in self.level_worth],
        }
        if self.elo is not None:
            meta["elo"] = {key: value for key, value in self.elo.to_dict().items() if key != "ratings"}
            meta["sort_key"] = "elo" if self.sort is RatingSort.ELO else meta["sort_key"]
        return Table("ratings", self.title, self.columns, tuple(s.row() for s in self.standings),
                     tuple(self.notes()), meta)


def build_table(ratings: Ratings, *, sprt: SprtState | EloSprtState | None = None, title: str = "Ratings",
                elo: EloFit | None = None, sort: RatingSort = RatingSort.TRUESKILL) -> RatingTable:
    """The rating table of a replay: standings with results, LOS, seat figures and faults, and the SPRT state; with
    an Elo fit of the same games its columns too, and `sort` ELO ranks by it (players without Elo last).

    Works from the results and counts every replay keeps, so a replay without detail (a streamed store) gives the
    same table as one that kept every game.
    """
    ranking = ratings.ranking()
    elo_of = {rating.name: rating for rating in elo.ratings} if elo is not None else {}
    if sort is RatingSort.ELO:
        if elo is None:
            raise ReportError("a table sorted by Elo needs an Elo fit of its games")
        ranking = sorted(ranking, key=lambda p: (p.name not in elo_of, -elo_of[p.name].elo if p.name in elo_of
                                                 else 0.0, -p.conservative, p.name))
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
            results=tally,
            opponent_mu=opponent_mu / tally.games if tally.games else None,
            los_next=superiority(player, below) if below is not None else None,
            elo=elo_of.get(player.name),
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
        elo=elo,
        sort=sort,
    )


def rating_table(records: Iterable[GameRecord], settings: RatingSettings | None = None, *,
                 sprt: SprtState | EloSprtState | None = None, ordered: bool = False,
                 elo_records: Iterable[GameRecord] | None = None, anchor: str | None = None,
                 sort: RatingSort = RatingSort.TRUESKILL) -> RatingTable:
    """Rate `records` (game-id order) and build their table in one call; what `ytourney run` prints at the end.

    Nothing per game is kept; with `ordered=True` (records already in game-id order, e.g. streamed from a store)
    they are not even held all at once. `elo_records` (the same games, a second stream) add the Elo columns.
    """
    ratings = rate_records(records, settings, ordered=ordered, detail=False)
    elo = None if elo_records is None else fit_elo(elo_records, anchor=anchor)
    return build_table(ratings, sprt=sprt, elo=elo, sort=sort)


def folder_table(directory: str | os.PathLike[str], settings: RatingSettings, *, sprt: bool = False,
                 elo: bool = False, anchor: str | None = None, sort: RatingSort = RatingSort.TRUESKILL) -> RatingTable:
    """The rating table of one results folder, streamed from its store (what `run` and `match` print); `sprt` adds
    the SPRT state as every report replays it, `elo` the Elo columns."""
    from ytourney.publish.sources import load_source, sprt_state_of
    from ytourney.tournament.store import stream_records

    # the games are streamed from the store in game-id order, so memory does not grow with the tournament
    records = stream_records(directory, times=False)
    state = sprt_state_of(load_source(directory)) if sprt else None
    fit = None
    if elo:
        try:
            fit = fit_elo(stream_records(directory, moves=False), anchor=anchor)
        except RatingsError:  # early in a run the anchor may have no rated game yet: the pool average until it has
            fit = fit_elo(stream_records(directory, moves=False))
    ratings = rate_records(records, settings, ordered=True, detail=False)
    return build_table(ratings, sprt=state, elo=fit, sort=sort)


def format_table(table: RatingTable | Ratings | Table, fmt: TableFormat | str = TableFormat.TEXT) -> str:
    """A rating table (or a Ratings replay, or any Table) in the given format."""
    if isinstance(table, Ratings):
        table = build_table(table)
    if isinstance(table, RatingTable):
        table = table.to_table()
    return render_table(table, fmt)


def _elo_notes(fit: EloFit, sort: RatingSort) -> list[str]:
    """What the Elo columns are: games fitted, anchor, sort, handicap games left out, bounded estimates."""
    anchor = "pool average = 0" if fit.anchor is None else f"{fit.anchor} = 0"
    ranked = "; ranked by Elo" if sort is RatingSort.ELO else ""
    lines = [f"Elo: Bradley-Terry maximum-likelihood fit of {fit.games_used} games, 95% intervals, "
             f"anchor {anchor}{ranked}."]
    if fit.handicap_games_left_out:
        lines.append(f"{fit.handicap_games_left_out} handicap games left out of Elo (TrueSkill rates them).")
    if fit.pools:
        shown = " | ".join(", ".join(pool) for pool in fit.pools[:6]) + (" | ..." if len(fit.pools) > 6 else "")
        lines.append(f"Elo pools: the even games split into {len(fit.pools)} groups of players that never met "
                     f"({shown}); Elo compares players within a group only, each group held to the centre by a "
                     f"prior of {fit.prior_games:g} virtual games per player.")
    if any(rating.bounded for rating in fit.ratings):
        where = " of its group" if fit.pools else ""
        lines.append(f"* bounded: it (or a group it is in) won or lost every game against the rest{where}; held "
                     f"finite by a prior of {fit.prior_games:g} virtual games per player (as BayesElo does), not a "
                     "measured difference.")
    return lines
