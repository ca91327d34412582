"""The lines a run prints as each game is stored, as cutechess-cli and fastchess do.

    Finished game 12 (mcts vs random): 1-0 {connection}
    Score of mcts vs random: 9 - 2 - 1  [0.792] 12
    Elo difference: 232.4 +/- 190.3, LOS: 99.1 %, DrawRatio: 8.3 %

The first mover is named first and the result is seen from it; the score and Elo lines come with a two-player
match, seen from its first-listed player (the one an SPRT tests), the Elo line only when the match runs an SPRT,
whose LLR goes into the progress line instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ytourney.games.record import GameRecord
from ytourney.stats.elo_sprt import EloSprtState, estimate_elo
from ytourney.stats.sprt import SprtState
from ytourney.tournament.config import TournamentConfig


@dataclass(frozen=True)
class GameReport:
    """What the progress display shows for one stored game: its lines, and the SPRT's part of the progress line."""

    lines: tuple[str, ...]
    status: str = ""


def result_text(record: GameRecord) -> str:
    """The result seen from the first mover: 1-0, 0-1 or 1/2-1/2."""
    winner = record.winner_name
    if winner is None:
        return "1/2-1/2"
    return "1-0" if winner == record.first else "0-1"


def ending_text(record: GameRecord) -> str:
    """Why the game ended, in braces: the rule's ending, or who lost by which fault."""
    if record.termination.is_fault and record.loser_name is not None:
        return f"{{{record.loser_name} loses by {record.termination.value}}}"
    return f"{{{record.termination.value}}}"


def finished_line(record: GameRecord) -> str:
    """`Finished game N (first vs second): RESULT {ending}`, numbered by the game's stored id."""
    return (f"Finished game {record.id} ({record.first} vs {record.second}): {result_text(record)} "
            f"{ending_text(record)}")


class GameLines:
    """Builds each stored game's report; for a two-player match it keeps the running score of its first-listed
    player (stored games of a resumed run included) and reads the SPRT's state through `sprt`."""

    def __init__(self, config: TournamentConfig,
                 sprt: Callable[[], SprtState | EloSprtState | None] = lambda: None) -> None:
        names = config.player_names
        self.pair = (names[0], names[1]) if len(names) == 2 else None
        self.sprt = sprt
        self.wins = self.losses = self.draws = 0

    def remember(self, record: GameRecord) -> None:
        """Count a game stored before this run (or just now) in the score."""
        if self.pair is None or {record.first, record.second} != set(self.pair):
            return
        winner = record.winner_name
        if winner is None:
            self.draws += 1
        elif winner == self.pair[0]:
            self.wins += 1
        else:
            self.losses += 1

    def report(self, record: GameRecord) -> GameReport:
        """Count `record` and return what to print for it."""
        self.remember(record)
        lines = [finished_line(record)]
        status = ""
        if self.pair is not None:
            lines.append(self.score_line())
            state = self.sprt()
            if state is not None:
                lines.append(self.elo_line(state))
                lower, upper = state.bounds
                status = f"LLR {state.llr:.2f} [{lower:.2f}, {upper:.2f}]"
        return GameReport(tuple(lines), status)

    @property
    def games(self) -> int:
        """Games of the pair counted so far."""
        return self.wins + self.losses + self.draws

    def score_line(self) -> str:
        """`Score of A vs B: W - L - D  [score] games`, as cutechess prints it ('' unless two players play)."""
        if self.pair is None:
            return ""
        points = (self.wins + self.draws / 2) / self.games if self.games else 0.0
        return (f"Score of {self.pair[0]} vs {self.pair[1]}: {self.wins} - {self.losses} - {self.draws}  "
                f"[{points:.3f}] {self.games}")

    def elo_line(self, state: SprtState | EloSprtState) -> str:
        """`Elo difference: E +/- err, LOS: p %, DrawRatio: d %`: an Elo SPRT's own estimate (pentanomial when it
        pairs games), else the trinomial estimate of the score."""
        estimate = state.estimate if isinstance(state, EloSprtState) else estimate_elo(
            (self.losses, self.draws, self.wins))
        draws = 100 * self.draws / self.games if self.games else 0.0
        return (f"Elo difference: {estimate.elo:.1f} +/- {estimate.error:.1f}, LOS: {100 * estimate.los:.1f} %, "
                f"DrawRatio: {draws:.1f} %")
