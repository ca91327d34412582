"""Swiss pairing and standings, as pure functions of the rounds played so far.

Pairing is Monrad's with backtracking: players are ranked by score, then by seed (their order in the config), and
the highest-ranked unpaired player meets the next one it has not met yet, preferring, among players of the same
score, one whose seat preference differs from its own; an opponent is taken only if the players left can still all
be paired without a rematch (decided exactly as a general-graph perfect matching), else the next is tried. With an
odd count, the lowest-ranked player who has not had a bye sits the round out (a pairing-allocated bye, as chess
Swiss tools give it: worth a won pairing, every game's point, and no game is played or rated). A suspended player
(`fault_limit` faults in a row, or a game lost as suspended, counted in game id order) is withdrawn from the next
round on: neither paired nor given a bye.

Seats: a pairing's games alternate the first seat; the first game's first seat goes to the player who has had it
less often so far, then to the one who had the second seat in its last game, then by a seeded lot.

Standings: score (game points: a win 1, a draw 1/2, a bye `games_per_pair`), then Buchholz (the sum of the final
scores of the opponents met; a bye counts the player's own score, FIDE's rule for unplayed rounds), then
Sonneborn-Berger (each game's points times that opponent's final score), then seed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx
from networkx.algorithms.matching import max_weight_matching

from ytourney.tournament.config import TournamentConfig, derive_seed
from ytourney.tournament.rounds import (
    GameResult,
    Pairing,
    Round,
    RoundPlan,
    SwissStanding,
    game_slot,
    read_points,
    stored_points,
)
from ytourney.tournament.schedule import GameSlot

PAIRING_BUDGET = 200_000
"""The most steps the backtracking search may take for one round before it gives up on pairing it."""


class _OutOfSteps(Exception):
    """The pairing search used its budget."""


@dataclass
class SwissHistory:
    """What the complete rounds so far say about each player (indices in config order); the replay's working state."""

    players: int
    score: list[float] = field(init=False)
    met: list[set[int]] = field(init=False)
    firsts: list[int] = field(init=False)
    seconds: list[int] = field(init=False)
    last_first: list[bool | None] = field(init=False)
    byes: list[int] = field(init=False)
    games: list[list[tuple[int, float]]] = field(init=False)  # per player: (opponent, points) of each game

    def __post_init__(self) -> None:
        count = self.players
        self.score = [0.0] * count
        self.met = [set() for _ in range(count)]
        self.firsts, self.seconds = [0] * count, [0] * count
        self.last_first = [None] * count
        self.byes = [0] * count
        self.games = [[] for _ in range(count)]

    def ranking(self) -> list[int]:
        """Players by score, then seed: the pairing order."""
        return sorted(range(self.players), key=lambda p: (-self.score[p], p))

    def add_game(self, first: int, second: int, first_points: float) -> None:
        """A game of a complete round: `first` took the first seat and scored `first_points`."""
        self.met[first].add(second)
        self.met[second].add(first)
        self.firsts[first] += 1
        self.seconds[second] += 1
        self.last_first[first], self.last_first[second] = True, False
        self.score[first] += first_points
        self.score[second] += 1.0 - first_points
        self.games[first].append((second, first_points))
        self.games[second].append((first, 1.0 - first_points))

    def add_bye(self, player: int, points: float) -> None:
        """A round `player` sat out, worth `points`."""
        self.byes[player] += 1
        self.score[player] += points

    def seat_preference(self, player: int) -> int:
        """Positive when the player has had the second seat more often (it is owed the first), negative the other
        way round."""
        return self.seconds[player] - self.firsts[player]


def pair_round(history: SwissHistory,
               withdrawn: Collection[int] = ()) -> tuple[list[tuple[int, int]], int | None] | None:
    """The pairings of the next round (higher-ranked player first in each) and the player given the bye, or None
    when no pairing avoids a rematch (or the search gives up after PAIRING_BUDGET steps); `withdrawn` players
    (suspended) are neither paired nor given a bye."""
    ranked = [player for player in history.ranking() if player not in withdrawn]
    byes = [player for player in reversed(ranked) if not history.byes[player]] if len(ranked) % 2 else []
    if not _pairable(ranked, history, byes):
        return None  # decided exactly, before any search
    steps = [0]
    try:
        if not byes:
            pairs = _match(ranked, history, steps, set(), None)
            return None if pairs is None else (pairs, None)
        failed: set[frozenset[int]] = set()
        for bye in byes:
            pairs = _match([p for p in ranked if p != bye], history, steps, failed, None)
            if pairs is not None:
                return pairs, bye
    except _OutOfSteps:
        return None
    return None


def _pairable(players: list[int], history: SwissHistory, byes: Sequence[int]) -> bool:
    """Whether `players` can all be paired without a rematch, one of `byes` sitting out when their count is odd."""
    if len(players) % 2 == 0:
        return _perfect_matching(players, history) is not None
    graph = _unmet_graph(players, history)
    graph.add_edges_from(("bye", player) for player in byes)  # the bye as a partner of those who may sit out
    return len(max_weight_matching(graph, maxcardinality=True)) * 2 == len(players) + 1


def _unmet_graph(players: Sequence[int], history: SwissHistory) -> nx.Graph:
    """The players, joined wherever two of them have not met."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for i, a in enumerate(players) for b in players[i + 1:] if b not in history.met[a])
    return graph


def _perfect_matching(players: Sequence[int], history: SwissHistory) -> dict[int, int] | None:
    """A pairing of all `players` without a rematch (each one's opponent), or None when there is none."""
    matching = max_weight_matching(_unmet_graph(players, history), maxcardinality=True)
    if len(matching) * 2 != len(players):
        return None
    partner = {}
    for a, b in matching:
        partner[a], partner[b] = b, a
    return partner


def _without(partner: dict[int, int], a: int, b: int, history: SwissHistory) -> dict[int, int] | None:
    """A perfect matching of the players of `partner` but `a` and `b` (who meet), mended from `partner` by one
    alternating path between their old partners when a plain search finds it; None when it does not."""
    rest = dict(partner)
    old_a, old_b = rest.pop(a), rest.pop(b)
    if old_a == b:
        return rest
    del rest[old_a], rest[old_b]
    parent = {old_a: old_a}  # player reached at an even step -> the even player before its partner
    odd: set[int] = set()  # each player is labelled once, so the path found is simple
    frontier = [old_a]
    while frontier:
        following = []
        for even in frontier:
            for other in rest.keys() | {old_b}:
                if other in history.met[even] or other in parent or other in odd:
                    continue
                if other == old_b:
                    while True:  # flip the path: old_b-even, then even's partner with the one before, ...
                        mate = rest.get(even)
                        rest[even], rest[other] = other, even
                        if even == old_a:
                            return rest
                        other, even = mate, parent[even]
                odd.add(other)
                if rest[other] not in parent:
                    parent[rest[other]] = even
                    following.append(rest[other])
        frontier = following
    return None


def _match(players: list[int], history: SwissHistory, steps: list[int], failed: set[frozenset[int]],
           witness: dict[int, int] | None) -> list[tuple[int, int]] | None:
    """Pair `players` (in ranking order) without a rematch: the top one first, with backtracking. A branch is
    entered only when its players can all be paired (`witness`, a perfect matching of them, shows it, or one is
    found), so the search never backs up out of a dead end and finds the same pairing as an exhaustive one."""
    if not players:
        return []
    key = frozenset(players)
    if key in failed:
        return None
    steps[0] += 1
    if steps[0] > PAIRING_BUDGET:
        raise _OutOfSteps
    if witness is None:
        witness = _perfect_matching(players, history)
        if witness is None:
            failed.add(key)
            return None
    top, others = players[0], players[1:]
    met = history.met[top]
    preference = history.seat_preference(top)

    def closeness(position: int) -> tuple[float, bool, int]:
        other = others[position]
        clash = preference * history.seat_preference(other) > 0  # both are owed the same seat
        return abs(history.score[top] - history.score[other]), clash, position

    for position in sorted((i for i, p in enumerate(others) if p not in met), key=closeness):
        rest = others[:position] + others[position + 1:]
        pairs = _match(rest, history, steps, failed, _without(witness, top, others[position], history))
        if pairs is not None:
            return [(top, others[position]), *pairs]
    failed.add(key)
    return None


def first_seat(history: SwissHistory, a: int, b: int, lot: int) -> int:
    """Who takes the first seat in the first game of `a` against `b`: the one owed it, then the one who had the
    second seat last, then the seeded `lot` (0 gives it to `a`)."""
    owed_a, owed_b = history.seat_preference(a), history.seat_preference(b)
    if owed_a != owed_b:
        return a if owed_a > owed_b else b
    last_a, last_b = history.last_first[a], history.last_first[b]
    if last_a is not None and last_b is not None and last_a != last_b:
        return b if last_a else a
    return a if lot % 2 == 0 else b


def standings(history: SwissHistory, names: Sequence[str]) -> tuple[SwissStanding, ...]:
    """The standings after the complete rounds: score, Buchholz, Sonneborn-Berger, then seed."""
    score = history.score
    lines = []
    for player in range(history.players):
        opponents = history.met[player]
        buchholz = sum(score[other] for other in opponents) + history.byes[player] * score[player]
        berger = sum(points * score[other] for other, points in history.games[player])
        lines.append((player, buchholz, berger))
    lines.sort(key=lambda line: (-score[line[0]], -line[1], -line[2], line[0]))
    return tuple(SwissStanding(rank, names[player], score[player], buchholz, berger, len(history.games[player]),
                               history.byes[player])
                 for rank, (player, buchholz, berger) in enumerate(lines, start=1))


def swiss_plan(config: TournamentConfig, results: Mapping[int, GameResult]) -> RoundPlan:
    """The Swiss's rounds so far, each paired from the complete rounds before it (ids in planning order)."""
    schedule = config.schedule
    names = config.player_names
    history = SwissHistory(len(names))
    rounds: list[Round] = []
    next_id, groups = 1, 0  # groups: pairs of games that share an opening
    open_games: tuple[GameSlot, ...] = ()
    stopped = ""
    suspensions = _Suspensions(config.fault_limit, names)
    for number in range(1, schedule.rounds + 1):
        active = len(names) - len(suspensions.withdrawn)
        if active < 2:
            stopped = (f"fewer than two players are left to pair in round {number} (the others were suspended); the "
                       f"swiss ends after round {number - 1}")
            break
        paired = pair_round(history, suspensions.players())
        if paired is None:
            stopped = (f"round {number} cannot be paired without a rematch; the swiss ends after round {number - 1}"
                       " (fewer rounds avoid this)")
            break
        pairs, bye = paired
        pairings = []
        for board, (a, b) in enumerate(pairs):
            lot = derive_seed(config.seed, "swiss seats", number, a, b)
            first = first_seat(history, a, b, lot)
            second = b if first == a else a
            slots = []
            for game in range(schedule.games_per_pair):
                seats = (first, second) if game % 2 == 0 else (second, first)
                slots.append(game_slot(config, next_id, number, board, *seats, group=groups + game // 2))
                next_id += 1
            groups += (schedule.games_per_pair + 1) // 2
            pairings.append(Pairing((a, b), tuple(slots)))
        rounds.append(Round(number, tuple(pairings), () if bye is None else (bye,)))
        games = [slot for pairing in pairings for slot in pairing.games]
        points = read_points(config, games, results)
        if points is None:
            open_games = tuple(slot for slot in games if slot.id not in results)
            break
        for slot in games:
            history.add_game(slot.players[0], slot.players[1], points[slot.id])
            suspensions.learn(slot, points[slot.id], results[slot.id], number)
        if bye is not None:
            history.add_bye(bye, float(schedule.games_per_pair))
    active = len(names) - len(suspensions.withdrawn)  # the rounds not planned yet pair only these
    planned = next_id - 1 + (schedule.rounds - len(rounds)) * (active // 2) * schedule.games_per_pair
    return RoundPlan(names, tuple(rounds), open_games, planned, done=not open_games, stopped=stopped,
                     regular_games=schedule.games_per_pair,
                     points=stored_points(results), standings=standings(history, names),
                     withdrawn=dict(suspensions.withdrawn))


class _Suspensions:
    """Which players the complete rounds suspended (`fault_limit` faults in a row, or a game lost as suspended),
    replayed in game id order so that a resumed run pairs the same rounds: a suspended player is withdrawn."""

    def __init__(self, limit: int, names: Sequence[str]) -> None:
        self.limit = limit
        self.names = names
        self.streak = [0] * len(names)
        self.withdrawn: dict[str, str] = {}

    def players(self) -> set[int]:
        """The withdrawn players' indices."""
        return {index for index, name in enumerate(self.names) if name in self.withdrawn}

    def learn(self, slot: GameSlot, first_points: float, result: GameResult, round_number: int) -> None:
        """Count one stored game of a complete round (ids in order): a fault extends the loser's streak."""
        first, second = slot.players
        if first_points == 0.5:
            self.streak[first] = self.streak[second] = 0
            return
        winner, loser = (first, second) if first_points == 1.0 else (second, first)
        name = self.names[loser]
        if result.forfeit:
            self.withdrawn.setdefault(name, f"was suspended (withdrawn after round {round_number})")
            return
        self.streak[winner] = 0
        self.streak[loser] = self.streak[loser] + 1 if result.fault else 0
        if self.limit and self.streak[loser] >= self.limit:
            self.withdrawn.setdefault(name, f"was suspended after {self.streak[loser]} faults in a row (withdrawn "
                                            f"after round {round_number})")
