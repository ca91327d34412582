"""Dispatch of a Swiss or a knockout: the games of the current round run in parallel, the next round waits.

`RoundScheduler` answers the runner as the fixed-slot Scheduler does. It hands out the open games of the round
being played; once they are handed out it has nothing to give until every one of them is stored, and then it plans
the next round (or tie-break stage) from the stored results, the same way a resumed run plans it from the store.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from ytourney.games.record import GameRecord
from ytourney.tournament.config import ScheduleFormat, TournamentConfig
from ytourney.tournament.knockout import knockout_plan
from ytourney.tournament.rounds import GameResult, Pairing, RoundPlan
from ytourney.tournament.schedule import (
    FaultWatch,
    GameTask,
    Suspensions,
    opening_for,
    planned_games,
)
from ytourney.tournament.swiss import swiss_plan


def plan_rounds(config: TournamentConfig, results: Mapping[int, GameResult]) -> RoundPlan:
    """The plan of a Swiss or knockout config given the stored results (by game id)."""
    if config.schedule.format is ScheduleFormat.KNOCKOUT:
        return knockout_plan(config, results)
    return swiss_plan(config, results)


def results_of(records: Iterable[GameRecord]) -> dict[int, GameResult]:
    """The planner's view of stored records, by game id."""
    return {record.id: GameResult.of(record) for record in records if record.id is not None}


def stored_plan(config: TournamentConfig, directory: str | os.PathLike[str]) -> RoundPlan:
    """The plan of the games stored in a results folder."""
    from ytourney.tournament.store import stream_records

    return plan_rounds(config, results_of(stream_records(directory, moves=False)))


class RoundScheduler(FaultWatch):
    """Hands out the open games of the current round; plans the next one once the current one is stored."""

    def __init__(self, config: TournamentConfig, stored: Iterable[GameRecord] = ()) -> None:
        self.config = config
        self._names = config.player_names
        self._faults = Suspensions(self._names, config.fault_limit)
        self._results: dict[int, GameResult] = {}
        for record in stored:
            if record.id is not None:
                self._results[record.id] = GameResult.of(record)
            self._faults.learn(record)
        self._faults.fresh_start()
        self._handed: set[int] = set()  # handed out, not yet recorded
        self.plan = plan_rounds(config, self._results)
        self._planned_from = len(self._results)  # the plan is a function of the results: planned again when they grow
        self._queue = list(reversed(self.plan.open_games))

    @property
    def planned(self) -> int:
        """Games planned: every round's regular games (a Swiss's fewer once a player is withdrawn), and a knockout's
        tie-break games planned so far."""
        if self.config.schedule.format is ScheduleFormat.SWISS:
            return self.plan.planned
        return max(self.plan.planned, planned_games(self.config))

    @property
    def stopped(self) -> str:
        """Why the tournament ended early ('' unless a Swiss round could not be paired)."""
        return self.plan.stopped

    @property
    def skipped(self) -> int:
        """Planned games that will not be played (the rounds of a Swiss that ended early)."""
        return self.planned - len(self._results) if self.plan.stopped else 0

    def suspended(self) -> dict[str, str]:
        """Suspended players and why (a Swiss's withdrawn ones too, as its stored rounds say)."""
        return {**(self.plan.withdrawn or {}), **self._faults.suspended()}

    def next_item(self) -> GameTask | GameRecord | None:
        """The next game of the round, a forfeit record, or None while the round's games are out (or all done)."""
        self._plan_when_stored()
        if not self._queue:
            return None
        slot = self._queue.pop()
        self._handed.add(slot.id)
        a, b = self._names[slot.players[0]], self._names[slot.players[1]]
        if self._faults.is_suspended(a) or self._faults.is_suspended(b):
            return self._faults.forfeit(self.config, slot, a, b)
        opening, index = opening_for(self.config, slot)
        return GameTask(slot.id, slot.round, slot.players, 0, slot.seed, opening, index)

    def record(self, record: GameRecord) -> None:
        """Learn a stored game's result (played or forfeit)."""
        if record.id is not None:
            self._results[record.id] = GameResult.of(record)
            self._handed.discard(record.id)
        self._faults.learn(record)
        self._plan_when_stored()  # at once, so `planned` (the progress line's total) counts a tie-break now

    def _plan_when_stored(self) -> None:
        """Plan the next round (or tie-break stage) once every game handed out is stored."""
        if not self._queue and not self._handed and len(self._results) != self._planned_from:
            self.plan = plan_rounds(self.config, self._results)
            self._planned_from = len(self._results)
            self._queue = [slot for slot in reversed(self.plan.open_games) if slot.id not in self._results]


def report_lines(plan: RoundPlan, fmt: ScheduleFormat, rounds: int) -> list[str]:
    """The plan as `run` prints it: a Swiss's standings, or a knockout's bracket round by round."""
    names = plan.names
    if fmt is ScheduleFormat.SWISS:
        complete = sum(1 for r in plan.rounds if all(g.id in (plan.points or {}) for p in r.pairings for g in p.games))
        lines = [f"Swiss standings after {complete} of {rounds} rounds (tie-breaks: Buchholz, then Sonneborn-Berger)"]
        if plan.stopped:
            lines.append(f"stopped early: {plan.stopped}")
        rows = [("#", "player", "score", "buchholz", "s-b", "games", "byes")]
        rows += [(str(s.rank), s.name, f"{s.score:g}", f"{s.buchholz:g}", f"{s.sonneborn_berger:g}", str(s.games),
                  str(s.byes)) for s in plan.standings]
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            cells = [cell.rjust(width) if i not in (1,) else cell.ljust(width)
                     for i, (cell, width) in enumerate(zip(row, widths))]
            lines.append("  ".join(cells).rstrip())
        return lines
    lines = ["Knockout bracket (seed = place in the config)"]
    for round_ in plan.rounds:
        lines.append(f"round {round_.number}")
        lines += [f"  #{bye + 1} {names[bye]}: bye" for bye in round_.byes]
        for pairing in round_.pairings:
            lines.append("  " + match_text(plan, pairing, round_.winners))
    if plan.champion is not None:
        lines.append(f"winner: {names[plan.champion]}")
    return lines


def match_text(plan: RoundPlan, pairing: Pairing, winners: tuple[int, ...]) -> str:
    """One knockout match: seeds, names, score, tie-break games and who went through."""
    names = plan.names
    a, b = pairing.players
    score_a, score_b, stored = plan.pairing_score(pairing)
    text = f"#{a + 1} {names[a]} {score_a:g}-{score_b:g} #{b + 1} {names[b]}"
    if stored < len(pairing.games):
        return text + f" ({stored} of {len(pairing.games)} games played)"
    regular = plan.regular_games
    if len(pairing.games) > regular:
        text += f" ({len(pairing.games) - regular} tie-break games)"
    for player in pairing.players:
        if player in winners:
            text += f": {names[player]} goes through" + (" on seed" if score_a == score_b else "")
    return text
