"""A knockout bracket, replayed from the stored results alone.

Seeds are the players' order in the config (list the strongest first). The bracket has the next power of two of
places, seeded so that seeds 1 and 2 can meet only in the final (1 plays the last place, 2 the one before it, and
so on down the standard seeding order); the places beyond the player count are byes, so the top seeds go straight
to round 2. Each match is `games_per_pair` games, seats alternating from a seeded lot. A tied match plays two more
games (seats swapped) at a time, up to `tiebreak_games` more; still tied, the better seed goes through.

Each round is planned once the round before it is decided: its regular games first, then, once they are all
stored, each tie-break stage of the matches still tied, so game ids follow from the stored results only.
"""

from __future__ import annotations

from collections.abc import Mapping

from ytourney.tournament.config import TournamentConfig, derive_seed
from ytourney.tournament.rounds import (
    GameResult,
    Pairing,
    Round,
    RoundPlan,
    game_slot,
    read_points,
    stored_points,
)
from ytourney.tournament.schedule import GameSlot


def bracket_places(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for `size` places (a power of two): neighbours meet in round 1."""
    places = [1]
    while len(places) < size:
        total = 2 * len(places) + 1
        places = [seed for place in places for seed in (place, total - place)]
    return places


class _Bracket:
    """The planner's working state: the next game id and opening group, and the stored results."""

    def __init__(self, config: TournamentConfig, results: Mapping[int, GameResult]) -> None:
        self.config = config
        self.results = results
        self.next_id = 1
        self.groups = 0

    def games(self, number: int, board: int, pairing: tuple[int, int], start: int, count: int) -> list[GameSlot]:
        """`count` games of a match, numbered from `start` within it, seats alternating from the match's lot."""
        better, other = pairing
        lot = derive_seed(self.config.seed, "knockout seats", number, better, other) % 2
        slots = []
        for game in range(start, start + count):
            seats = (better, other) if (game + lot) % 2 == 0 else (other, better)
            slots.append(game_slot(self.config, self.next_id, number, board, *seats,
                                   group=self.groups + (game - start) // 2))
            self.next_id += 1
        self.groups += (count + 1) // 2
        return slots


def knockout_plan(config: TournamentConfig, results: Mapping[int, GameResult]) -> RoundPlan:
    """The bracket so far: every decided round, and the round (or tie-break stage) being played."""
    schedule = config.schedule
    names = config.player_names
    count = len(names)
    size = 1 << (count - 1).bit_length()
    entries = [seed - 1 if seed <= count else None for seed in bracket_places(size)]
    bracket = _Bracket(config, results)
    rounds: list[Round] = []
    tiebreaks = 0
    number = 0
    while len(entries) > 1:
        number += 1
        matches: list[tuple[int, int]] = []
        byes = []
        for x, y in zip(entries[::2], entries[1::2]):
            if x is None or y is None:
                byes.append(x if y is None else y)
            else:
                matches.append((min(x, y), max(x, y)))
        games = {match: bracket.games(number, board, match, 0, schedule.games_per_pair)
                 for board, match in enumerate(matches)}
        stage = list(games.values())
        while True:
            points = read_points(config, [slot for slots in stage for slot in slots], results)
            if points is None:
                open_games = tuple(slot for slots in stage for slot in slots if slot.id not in results)
                rounds.append(_round(number, games, byes))
                planned = (count - 1) * schedule.games_per_pair + tiebreaks
                return RoundPlan(names, tuple(rounds), open_games, planned, done=False,
                                 regular_games=schedule.games_per_pair,
                                 points=stored_points(results))
            scores = {match: _score(match, slots, results) for match, slots in games.items()}
            tied = [(board, match) for board, match in enumerate(matches) if scores[match][0] == scores[match][1]
                    and len(games[match]) < schedule.games_per_pair + schedule.tiebreak_games]
            if not tied:
                break
            stage = []
            for board, match in tied:
                extra = bracket.games(number, board, match, len(games[match]), 2)
                games[match] = games[match] + extra
                stage.append(extra)
                tiebreaks += 2
        winners = {match: (match[0] if scores[match][0] >= scores[match][1] else match[1]) for match in matches}
        advancing = []
        for x, y in zip(entries[::2], entries[1::2]):
            advancing.append(y if x is None else x if y is None else winners[(min(x, y), max(x, y))])
        rounds.append(_round(number, games, byes, tuple(advancing)))
        entries = advancing
    planned = (count - 1) * schedule.games_per_pair + tiebreaks
    return RoundPlan(names, tuple(rounds), (), planned, done=True, points=stored_points(results),
                     regular_games=schedule.games_per_pair,
                     champion=entries[0])


def _round(number: int, games: Mapping[tuple[int, int], list[GameSlot]], byes: list[int | None],
           winners: tuple[int | None, ...] = ()) -> Round:
    return Round(number, tuple(Pairing(match, tuple(slots)) for match, slots in games.items()),
                 tuple(bye for bye in byes if bye is not None), tuple(w for w in winners if w is not None))


def _score(match: tuple[int, int], slots: list[GameSlot], results: Mapping[int, GameResult]) -> tuple[float, float]:
    """The points of the better seed and of the other in a match's stored games."""
    better = other = 0.0
    for slot in slots:
        first = results[slot.id].first_points
        mine = first if slot.players[0] == match[0] else 1.0 - first
        better, other = better + mine, other + 1.0 - mine
    return better, other
