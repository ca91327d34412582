"""The site's rounds page: each Swiss round's pairings and the standings, or a knockout's bracket round by round."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ytourney.publish.sources import Source
from ytourney.tournament.config import ScheduleFormat
from ytourney.tournament.round_scheduler import plan_rounds, results_of
from ytourney.tournament.rounds import RoundPlan


@dataclass(frozen=True)
class RoundsOf:
    """The rounds of one results folder of a Swiss or knockout."""

    tournament: str
    format: ScheduleFormat
    rounds: int
    plan: RoundPlan


def rounds_of(sources: Sequence[Source]) -> list[RoundsOf]:
    """The plans of the sources whose stored config is a Swiss or a knockout, replayed from their games."""
    found = []
    for source in sources:
        config = source.config
        if config is None or not config.schedule.format.in_rounds:
            continue
        plan = plan_rounds(config, results_of(source.iter_records(moves=False, times=False)))
        found.append(RoundsOf(source.name, config.schedule.format, config.schedule.rounds, plan))
    return found


def _round_name(number: int, total: int) -> str:
    """A knockout round's name: the final, the semi-finals, else its number."""
    left = total - number
    return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(left, f"Round {number}")


def rounds_context(found: Sequence[RoundsOf], player_href: Mapping[str, str]) -> list[dict[str, Any]]:
    """What the rounds template shows for each tournament."""
    sections = []
    for item in found:
        plan, names = item.plan, item.plan.names
        knockout = item.format is ScheduleFormat.KNOCKOUT
        size = (len(names) - 1).bit_length()  # a knockout's number of rounds
        rounds = []
        for round_ in plan.rounds:
            rows = []
            for pairing in round_.pairings:
                a, b = pairing.players
                score_a, score_b, stored = plan.pairing_score(pairing)
                tiebreak = max(0, len(pairing.games) - plan.regular_games)
                winner = next((names[p] for p in pairing.players if p in round_.winners), "")
                rows.append({"a": names[a], "b": names[b], "seed_a": a + 1, "seed_b": b + 1,
                             "score": f"{score_a:g}–{score_b:g}", "games": len(pairing.games), "stored": stored,
                             "tiebreak": tiebreak, "winner": winner, "on_seed": bool(winner) and score_a == score_b})
            title = _round_name(round_.number, size) if knockout else f"Round {round_.number}"
            rounds.append({"title": title, "rows": rows, "byes": [names[p] for p in round_.byes]})
        standings = [{"rank": s.rank, "name": s.name, "score": f"{s.score:g}", "buchholz": f"{s.buchholz:g}",
                      "berger": f"{s.sonneborn_berger:g}", "games": s.games, "byes": s.byes}
                     for s in plan.standings] if not knockout else []
        sections.append({"tournament": item.tournament, "knockout": knockout, "rounds": rounds,
                         "planned_rounds": size if knockout else item.rounds, "standings": standings,
                         "stopped": plan.stopped,
                         "champion": names[plan.champion] if plan.champion is not None else "",
                         "href": player_href})
    return sections
