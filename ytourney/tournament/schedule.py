"""Pairings and pull-based dispatch: a fixed list of game slots, with each game's parameters decided when it starts.

The slot list is a pure function of the config: ids 1..N in order, rounds, pairs, seats and seeds all come from
the seed, so a resumed run plays exactly the slots not yet stored. Round r holds games 2r-1 and 2r of every pair
(seats reversed between them, so in even games each player places the first stone equally often); pairs are
shuffled within a round by the seed. Raising `games_per_pair` only appends rounds.

What a game looks like is decided at dispatch by `Scheduler.next_item`, from the results so far (never waiting
for results to dispatch, like fastchess):
- handicap `none`: an even game; seat 0 (the first stone) as the slot says.
- handicap `fixed`: every game gets the level (a fraction L + f is played as L + 1 with probability f). The weaker
  player, who takes Black and moves first, is the one with fewer wins in the pair's games so far; on a tie the
  one with the lower overall score so far; on a tie again the one listed later in the config.
- handicap `auto`: the handicap planner picks the weaker player and the level from the pair's results so far
  (games decided on the board; faults and forfeits are left out of the estimate).
A player that faults `fault_limit` times in a row is suspended; its remaining games become forfeits, recorded at
once without playing. A `stop_condition` (e.g. an SPRT) is asked after every result and ends dispatching once true.
"""

from __future__ import annotations

import array
import itertools
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ytourney.errors import YTourneyError
from ytourney.games.record import GameRecord, GameSetup, Termination
from ytourney.games.api import Color, Move
from ytourney.games.variant import Variant
from ytourney.players.bots.random_bot import playable_moves
from ytourney.stats.elo_sprt import EloSprt, EloSprtSettings, EloSprtState
from ytourney.stats.handicap import HandicapMode, HandicapPlanner, round_level
from ytourney.stats.handicap_sides import SidePlanner
from ytourney.stats.sprt import Sprt, SprtState, game_result
from ytourney.tournament.config import (
    ScheduleFormat,
    TournamentConfig,
    derive_seed,
    pair_count,
)
from ytourney.tournament.config_openings import OpeningOrder

StopCondition = Callable[[GameRecord], bool]
"""Told each result (stored ones first, in completion order); returns True once no more games should start.
The records carry the results; their moves and move times may be left out (they are in the store)."""


def sprt_condition(config: TournamentConfig) -> tuple[StopCondition | None,
                                                     Callable[[], SprtState | EloSprtState | None]]:
    """The stop condition of a match with `schedule.sprt` (the first-listed player is tested), and its state.

    It is told results in the store's completion order (stored ones on resume, then each as it is stored), the
    order reports replay it in, so the decision that stops the run is the one every report shows."""
    settings = config.schedule.sprt
    if settings is None:
        return None, lambda: None
    player, opponent = config.player_names[0], config.player_names[1]
    if isinstance(settings, EloSprtSettings):
        elo_test = EloSprt(settings, player, opponent)

        def elo_stop(record: GameRecord) -> bool:
            elo_test.update(record)
            return elo_test.state.finished

        return elo_stop, lambda: elo_test.state
    test = Sprt(settings, player=player, opponent=opponent)

    def stop(record: GameRecord) -> bool:
        if {record.black, record.white} == {player, opponent}:
            test.update(game_result(record, player))
        return test.state.finished

    return stop, lambda: test.state


@dataclass(frozen=True, slots=True)
class GameSlot:
    """One planned game: store id, round, the pair (player indices) and who takes the first stone if even."""

    id: int
    round: int
    pair: int
    players: tuple[int, int]
    seed: int
    opening_group: int


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game, besides the tournament context it already holds."""

    slot: int
    round: int
    seats: tuple[int, int]
    handicap: int
    seed: int
    opening: tuple[Move, ...] = ()
    opening_index: int | None = None


def pairings(config: TournamentConfig) -> list[tuple[int, int]]:
    """Player-index pairs in config order: every pair (round-robin), challenger vs the rest (gauntlet), or one."""
    count = len(config.players)
    fmt = config.schedule.format
    if fmt.in_rounds:
        raise YTourneyError(f"format {fmt.value} pairs each round from the results before it; it has no fixed pairs")
    if fmt is ScheduleFormat.GAUNTLET:
        challenger = config.player_names.index(config.schedule.challenger or "")
        return [(challenger, other) for other in range(count) if other != challenger]
    if fmt is ScheduleFormat.MATCH:
        return [(0, 1)]
    return list(itertools.combinations(range(count), 2))


class SlotPlan:
    """The fixed, seeded list of every planned game, kept in a few bytes per slot; slots are built on access
    (by position, 0 for slot id 1)."""

    def __init__(self, config: TournamentConfig) -> None:
        self.pairs = pairings(config)
        self._pair = array.array("I")
        self._first_is_a = array.array("b")
        self._round = array.array("I")
        self._group = array.array("I")
        games = config.schedule.games_per_pair
        group = 0
        order = list(range(len(self.pairs)))
        for round_number in range(1, (games + 1) // 2 + 1):
            if len(order) > 1:
                random.Random(derive_seed(config.seed, "round", round_number)).shuffle(order)
            for pair_index in order:
                a_first = (round_number + pair_index) % 2 == 1
                for game in range(2):
                    if 2 * (round_number - 1) + game >= games:
                        break
                    self._pair.append(pair_index)
                    self._first_is_a.append(a_first if game == 0 else not a_first)
                    self._round.append(round_number)
                    self._group.append(group)
                group += 1
        # game seeds: one seeded stream in slot order, so more games per pair only append seeds
        stream = random.Random(derive_seed(config.seed, "games"))
        self._seeds = array.array("I", (stream.getrandbits(31) for _ in range(len(self._pair))))

    def __len__(self) -> int:
        return len(self._pair)

    def __getitem__(self, index: int) -> GameSlot:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"slot index {index} out of range (0..{len(self) - 1})")
        a, b = self.pairs[self._pair[index]]
        players = (a, b) if self._first_is_a[index] else (b, a)
        return GameSlot(index + 1, self._round[index], self._pair[index], players, self._seeds[index],
                        self._group[index])

    def pair_of(self, slot_id: int) -> int:
        """Pair index of a slot, without building it."""
        return self._pair[slot_id - 1]


def planned_games(config: TournamentConfig) -> int:
    """How many games the config plans, counted without building them."""
    schedule = config.schedule
    return pair_count(schedule.format, len(config.players), schedule.rounds) * schedule.games_per_pair


def seat_imbalance(config: TournamentConfig, shown: int = 6) -> str:
    """A warning when an odd `games_per_pair` gives one player of every pair the first stone once more (naming
    who, for the first `shown` pairs), else ''. Handicap games seat the weaker player first, so they never warn."""
    games = config.schedule.games_per_pair
    if games % 2 == 0 or config.handicap.mode is not HandicapMode.NONE or config.schedule.format.in_rounds:
        return ""  # a Swiss seats the odd game by who had the first seat less often, a knockout by a seeded lot
    last_round = (games + 1) // 2
    names = config.player_names
    extra = []
    for pair_index, (a, b) in enumerate(pairings(config)):
        first, second = (a, b) if (last_round + pair_index) % 2 == 1 else (b, a)
        extra.append(f"{names[first]} over {names[second]}")
    listed = ", ".join(extra[:shown]) + (f" and {len(extra) - shown} more pairs" if len(extra) > shown else "")
    return (f"schedule.games_per_pair {games} is odd: in every pair one player places the first stone once more "
            f"({listed}); use an even number to balance the seats")


def build_slots(config: TournamentConfig) -> SlotPlan:
    """The fixed, seeded list of every planned game (round r: games 2r-1 and 2r of each pair, seats reversed)."""
    return SlotPlan(config)


def opening_for(config: TournamentConfig, slot: GameSlot) -> tuple[tuple[Move, ...], int | None]:
    """The opening moves of a slot (shared by the two games of a pair-round) and the line's index in the file."""
    settings = config.schedule.openings
    if settings is None:
        return (), None
    rng = random.Random(derive_seed(config.seed, "opening", slot.opening_group))
    if settings.lines:
        if settings.order is OpeningOrder.RANDOM:
            index = rng.randrange(len(settings.lines))
        else:
            index = slot.opening_group % len(settings.lines)
        return settings.lines[index], index
    return random_opening(config.variant, settings.random_plies, rng), None


def random_opening(variant: Variant, plies: int, rng: random.Random) -> tuple[Move, ...]:
    """`plies` random moves that do not end the game."""
    game, board, rules = variant.game, variant.board, variant.rules
    for _ in range(100):
        state = game.new_state(board, rules)
        moves = []
        for _ in range(plies):
            move = rng.choice(playable_moves(state))
            state.play(move)
            moves.append(move)
            if state.is_over:
                break
        if not state.is_over:
            return tuple(moves)
    raise YTourneyError(f"cannot find a {plies}-ply opening on {board.spec!r} that leaves the game open")


@dataclass
class _Standing:
    """Running totals of one player (the fixed-handicap seating reads them)."""

    games: int = 0
    wins: int = 0


class Suspensions:
    """Each player's streak of faults, and the players suspended for reaching `fault_limit` in a row."""

    def __init__(self, names: Iterable[str], limit: int) -> None:
        self.limit = limit
        self._streak = dict.fromkeys(names, 0)
        self._last_fault: dict[str, str] = {}
        self._reason: dict[str, str] = {}
        self._order: dict[str, int] = {}
        self.count = 0

    @property
    def faulting(self) -> bool:
        """True while a player not yet suspended is on a streak of faults (its next games decide a suspension)."""
        return any(streak and name not in self._reason for name, streak in self._streak.items())

    def suspended(self) -> dict[str, str]:
        """Suspended players and why."""
        return dict(self._reason)

    def is_suspended(self, name: str) -> bool:
        """True once `name` is suspended."""
        return name in self._reason

    def fresh_start(self) -> None:
        """Forget streaks and suspensions: a resumed run gives every player a fresh start (a faulty engine may have
        been fixed in between)."""
        self._streak = dict.fromkeys(self._streak, 0)
        self._reason.clear()
        self._order.clear()

    def learn(self, record: GameRecord) -> None:
        """Count a played game's fault (a forfeit says nothing about the player's program)."""
        if record.termination is Termination.FORFEIT:
            return
        drawn = record.winner is None
        winner, loser = (record.black, record.white) if drawn else (record.winner_name, record.loser_name)
        if winner not in self._streak or loser not in self._streak:
            return  # a record of a player no longer in the config: ignore
        self._count(winner, None)
        self._count(loser, record if record.termination.is_fault else None)

    def _count(self, name: str, fault: GameRecord | None) -> None:
        if fault is None:
            self._streak[name] = 0
            return
        self._streak[name] += 1
        self._last_fault[name] = (f"{fault.termination.value}: {fault.reason}" if fault.reason
                                  else fault.termination.value)
        if self.limit and self._streak[name] >= self.limit and name not in self._reason:
            self.count += 1
            self._reason[name] = (f"was suspended after {self._streak[name]} faults in a row "
                                  f"(last: {self._last_fault[name]})")
            self._order[name] = self.count

    def forfeit(self, config: TournamentConfig, slot: GameSlot, a: str, b: str) -> GameRecord:
        """The forfeit record of slot `slot` between `a` (first) and `b`: the suspended player loses (the one
        suspended first if both are)."""
        if a in self._reason and (b not in self._reason or self._order[a] <= self._order[b]):
            loser, reason = a, self._reason[a]
        else:
            loser, reason = b, self._reason[b]
        setup = GameSetup(config.variant, first=a, second=b, tournament=config.name, round=slot.round,
                          seed=slot.seed, id=slot.id)
        return setup.lost_by(0 if loser == a else 1, Termination.FORFEIT, f"{loser} {reason}")


class FaultWatch:
    """What a scheduler says of its players' faults, from its `Suspensions`."""

    _faults: Suspensions

    @property
    def faulting(self) -> bool:
        """True while a player not yet suspended is on a streak of faults (its next games decide a suspension)."""
        return self._faults.faulting

    @property
    def suspensions(self) -> int:
        """How many players have been suspended so far in this run."""
        return self._faults.count


@dataclass
class Scheduler(FaultWatch):
    """Hands out the next game (or a forfeit record) from the slots not yet stored, deciding parameters now."""

    config: TournamentConfig
    slots: SlotPlan
    stored: Iterable[GameRecord] = ()
    stop_condition: StopCondition | None = None
    planner: HandicapPlanner | SidePlanner | None = None
    _names: tuple[str, ...] = field(init=False)
    _pairs: list[tuple[int, int]] = field(init=False)
    _pending: array.array = field(init=False)
    _standing: dict[str, _Standing] = field(init=False)
    _faults: Suspensions = field(init=False)
    _head_to_head: dict[tuple[str, str], int] = field(init=False)
    _skipped_pairs: set[int] = field(init=False)
    _stopped: str = field(init=False, default="")
    _favours: Color | None = field(init=False, default=None)
    _skipped_count: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        names = self.config.player_names
        self._names = names  # the config computes this tuple on every access; dispatch needs it per game
        self._pairs = self.slots.pairs
        self._standing = {name: _Standing() for name in names}
        self._faults = Suspensions(names, self.config.fault_limit)
        self._head_to_head = {}
        self._skipped_pairs = set()
        mode = self.config.handicap.mode
        axis = self.config.variant.game.handicap_axis
        self._favours = axis.favours if axis is not None else None
        if mode is HandicapMode.AUTO and self.planner is None:
            self.planner = (HandicapPlanner(self.config.handicap) if self._favours is None
                            else SidePlanner(self.config.handicap, self._favours))
        done = bytearray(len(self.slots) + 1)
        for record in self.stored:  # one pass: stored records may be streamed from the store
            if record.id is not None and 0 < record.id <= len(self.slots):
                done[record.id] = 1
            self._learn(record, replaying=True)
        self.stored = ()
        # pending slot ids, last first: pop() from the end gives slot order
        self._pending = array.array("I", (i for i in range(len(self.slots), 0, -1) if not done[i]))
        self._faults.fresh_start()
        self._skip_finished_pairs()

    # --- queries --------------------------------------------------------------------------------------

    @property
    def stopped(self) -> str:
        """Why dispatching ended early ('' while it has not)."""
        return self._stopped

    @property
    def skipped(self) -> int:
        """Slots that will not be played: their pair's handicap estimate is done, or the stop condition was met."""
        if self._stopped:
            pending = len(self._pending)
        elif self._skipped_pairs:
            pending = sum(self.slots.pair_of(slot_id) in self._skipped_pairs for slot_id in self._pending)
        else:
            pending = 0
        return self._skipped_count + pending

    @property
    def planned(self) -> int:
        """How many games the tournament plans."""
        return len(self.slots)

    def suspended(self) -> dict[str, str]:
        """Suspended players and why."""
        return self._faults.suspended()

    # --- dispatch -------------------------------------------------------------------------------------

    def next_item(self) -> GameTask | GameRecord | None:
        """The next game to play, a forfeit record to store directly, or None when nothing is left to start."""
        if self._stopped:
            return None
        while self._pending:
            slot_id = self._pending.pop()
            if self.slots.pair_of(slot_id) in self._skipped_pairs:
                self._skipped_count += 1
                continue
            slot = self.slots[slot_id - 1]
            a, b = self._names[slot.players[0]], self._names[slot.players[1]]
            if self._faults.is_suspended(a) or self._faults.is_suspended(b):
                return self._faults.forfeit(self.config, slot, a, b)
            return self._task(slot, a, b)
        return None

    def _task(self, slot: GameSlot, a: str, b: str) -> GameTask:
        mode = self.config.handicap.mode
        seats = slot.players
        level = 0
        if self._favours is not None and mode is not HandicapMode.NONE:  # levels go to a side: the seats stay
            rng = random.Random(derive_seed(slot.seed, "dispatch"))
            if isinstance(self.planner, SidePlanner):
                level = self.planner.next_level(a, b, rng)
            else:
                level = round_level(self.config.handicap.level, rng)
        elif mode is HandicapMode.FIXED:
            level = round_level(self.config.handicap.level, random.Random(derive_seed(slot.seed, "dispatch")))
            if level:
                weaker = self._weaker_fixed(slot.players)
                seats = (weaker, slot.players[0] if weaker == slot.players[1] else slot.players[1])
        elif mode is HandicapMode.AUTO and isinstance(self.planner, HandicapPlanner):
            weaker_name, level = self.planner.next_game(a, b, random.Random(derive_seed(slot.seed, "dispatch")))
            if level:
                weaker = self._names.index(weaker_name)
                seats = (weaker, slot.players[0] if weaker == slot.players[1] else slot.players[1])
        if level or self.config.schedule.openings is None:
            return GameTask(slot.id, slot.round, seats, level, slot.seed)
        opening, index = opening_for(self.config, slot)
        return GameTask(slot.id, slot.round, seats, level, slot.seed, opening, index)

    def _weaker_fixed(self, players: tuple[int, int]) -> int:
        """The fixed-mode weaker player: fewer head-to-head wins, then lower score, then listed later."""
        names = self.config.player_names

        def strength(index: int) -> tuple[int, float, int]:
            name, other = names[index], names[players[0] if index == players[1] else players[1]]
            standing = self._standing[name]
            score = standing.wins / standing.games if standing.games else 0.5
            return (self._head_to_head.get((name, other), 0), score, -index)

        return min(players, key=strength)

    # --- results --------------------------------------------------------------------------------------

    def record(self, record: GameRecord) -> None:
        """Learn from a finished game (played or forfeit): standings, faults, handicap planner, stop rule."""
        self._learn(record, replaying=False)
        self._skip_finished_pairs()

    def _learn(self, record: GameRecord, *, replaying: bool) -> None:
        drawn = record.winner is None
        winner, loser = (record.black, record.white) if drawn else (record.winner_name, record.loser_name)
        for name in (winner, loser):
            if name not in self._standing:
                return  # a record of a player no longer in the config: ignore
        self._standing[winner].games += 1
        self._standing[loser].games += 1
        if not drawn:
            self._standing[winner].wins += 1
            key = (winner, loser)
            self._head_to_head[key] = self._head_to_head.get(key, 0) + 1
        self._faults.learn(record)
        if record.termination is not Termination.FORFEIT:
            if self.planner is not None and self.config.handicap.mode is HandicapMode.AUTO:
                self.planner.record_game(record)  # skips faults: they say nothing about what a level is worth
        if self.stop_condition is not None and not self._stopped and self.stop_condition(record):
            self._stopped = "the stop condition was met"

    def _skip_finished_pairs(self) -> None:
        """With auto handicap and a stop width, a pair whose estimate is narrow enough plays no more games."""
        if self.planner is None or self.config.handicap.stop_width is None:
            return
        names = self.config.player_names
        for index, (a, b) in enumerate(self._pairs):
            if index not in self._skipped_pairs and self.planner.done(names[a], names[b]):
                self._skipped_pairs.add(index)
