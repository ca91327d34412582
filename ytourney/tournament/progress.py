"""Progress of a run on stderr: a live bar on a terminal, a plain line every few seconds otherwise; above it, a line
per stored game (tournament.game_lines), as cutechess-cli prints them."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from ytourney.games.record import GameRecord
from ytourney.tournament.game_lines import GameReport

BAR_WIDTH = 24
TERMINAL_REFRESH = 0.1
"""Seconds between redraws of the live bar."""
PLAIN_INTERVAL = 5.0
"""Seconds between plain progress lines (logs, CI)."""


def rate_text(games: int, seconds: float) -> str:
    """How fast games finish: games/s, or seconds (minutes) per game when a game takes a second or more."""
    if games <= 0 or seconds <= 0:
        return ""
    rate = games / seconds
    if rate >= 100:
        return f"{rate:.0f} games/s"
    if rate >= 1:
        return f"{rate:.1f} games/s"
    per_game = seconds / games
    return f"{per_game:.1f} s/game" if per_game < 120 else f"{per_game / 60:.1f} min/game"


def format_duration(seconds: float) -> str:
    """H:MM:SS or M:SS."""
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """Counts stored games and shows done/total, the rate, ETA, the leader by rating and an SPRT's LLR; prints each
    game's lines above it."""

    def __init__(self, stream: TextIO, *, live: bool | None = None, interval: float = PLAIN_INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.live = stream.isatty() if live is None else live
        self.interval = TERMINAL_REFRESH if self.live else interval
        self.clock = clock
        self.planned = 0
        self.done = 0
        self.faults = 0
        self._done_at_start = 0
        self._started = clock()
        self._last_draw = float("-inf")
        self._drawn = False
        self._leader: Callable[[], str] = lambda: ""
        self._sprt = ""

    # --- the runner's calls ---------------------------------------------------------------------------

    def start(self, planned: int, stored: int, workers: int) -> None:
        """Remember the totals; draw the first state."""
        self.planned, self.done, self._done_at_start = planned, stored, stored
        self._started = self.clock()
        self._last_draw = self._started
        if stored < planned and self.live:
            self._draw(force=True)

    def replan(self, planned: int) -> None:
        """The run now plans `planned` games."""
        self.planned = planned

    def game(self, record: GameRecord, leader: Callable[[], str], report: GameReport | None = None) -> None:
        """Count a stored game and print its lines; redraw when due."""
        self.done += 1
        if record.termination.is_fault:
            self.faults += 1
        self._leader = leader
        if report is not None:
            self._sprt = report.status or self._sprt
            if report.lines:
                self._clear()
                self.stream.write("".join(f"{line}\n" for line in report.lines))
                self.stream.flush()
                self._draw(force=self.live and self._drawn)
                return
        self._draw()

    def tick(self, leader: Callable[[], str]) -> None:
        """Redraw when due."""
        self._leader = leader
        self._draw()

    def note(self, message: str) -> None:
        """Print a message on its own line (keeping the bar below it)."""
        self._clear()
        self.stream.write(f"ytourney: {message}\n")
        self.stream.flush()
        self._draw(force=True)

    def block(self, text: str) -> None:
        """Print several lines (a rating table) above the bar."""
        self._clear()
        self.stream.write(text.rstrip("\n") + "\n")
        self.stream.flush()
        self._draw(force=True)

    def finish(self, leader: Callable[[], str] | None = None) -> None:
        """Draw the final state (`leader` names the leader as the final table does) and end the bar's line."""
        if leader is not None:
            self._leader = leader
        if self.done > self._done_at_start or self._drawn:
            self._draw(force=True)
        if self.live and self._drawn:
            self.stream.write("\n")
            self.stream.flush()
        self._drawn = False

    # --- drawing --------------------------------------------------------------------------------------

    def status(self) -> str:
        """One line: done/total, percentage, rate, ETA, faults, leader, an SPRT's LLR."""
        elapsed = max(1e-9, self.clock() - self._started)
        played = self.done - self._done_at_start
        parts = [f"{self.done}/{self.planned} games"]
        if self.planned:
            parts[0] += f" ({100 * self.done / self.planned:.0f}%)"
        if played > 0:
            parts.append(rate_text(played, elapsed))
        remaining = self.planned - self.done
        if remaining > 0 and played > 0:
            parts.append(f"ETA {format_duration(remaining * elapsed / played)}")
        elif remaining > 0:
            parts.append("ETA --:--")
        else:
            parts.append(f"took {format_duration(elapsed)}")
        if self.faults:
            parts.append(f"{self.faults} faults")
        leader = self._leader()
        if leader:
            parts.append(f"leader {leader}")
        if self._sprt:
            parts.append(self._sprt)
        return "  ".join(parts)

    def _bar(self) -> str:
        filled = int(BAR_WIDTH * self.done / self.planned) if self.planned else BAR_WIDTH
        return "[" + "#" * filled + "." * (BAR_WIDTH - filled) + "]"

    def _draw(self, force: bool = False) -> None:
        now = self.clock()
        if not force and now - self._last_draw < self.interval:
            return
        self._last_draw = now
        if self.live:
            self.stream.write(f"\r{self._bar()} {self.status()}\x1b[K")
        else:
            self.stream.write(f"ytourney: {self.status()}\n")
        self.stream.flush()
        self._drawn = True

    def _clear(self) -> None:
        if self.live and self._drawn:
            self.stream.write("\r\x1b[K")
