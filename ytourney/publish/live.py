"""Publishing results folders: once (`ytourney publish`), or again and again while a run goes on (`--publish`)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ytourney.errors import ReportError, YTourneyError
from ytourney.games.record import GameRecord
from ytourney.publish.handicap_table import handicap_section
from ytourney.publish.round_pages import rounds_of
from ytourney.publish.site import SiteResult, publish_site
from ytourney.publish.site_files import check_site_folder
from ytourney.publish.sources import load_sources, rate_sources, sprt_state_of
from ytourney.tournament.game_lines import GameReport

DEFAULT_EVERY = 60.0
"""Seconds between two publishes of a running tournament, unless told otherwise."""


def publish_results(dirs: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], *, title: str | None = None,
                    status: str | None = None) -> SiteResult:
    """Publish the site of results folders (a league, in the order given) into `out`; `status` is a banner."""
    sources = load_sources(dirs)
    ratings = rate_sources(sources, sources[0].rating_settings)
    report = handicap_section(sources, ratings)
    sprt = sprt_state_of(sources[0]) if len(sources) == 1 else None
    return publish_site(ratings, out, title=title, handicap_report=report, sprt=sprt, status=status,
                        rounds=rounds_of(sources))


def running_banner(done: int, planned: int, written: str | None = None) -> str:
    """The banner of a site published during a run, saying when it was written (`written`, else now): a run killed
    with -9 cannot take its banner down, so a reader can tell a stale one; any later publish replaces it."""
    when = written if written is not None else time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    return (f"Running: {done} of {planned} games played so far (as of {when}); this page is rewritten as the run "
            "goes on. If that time is long past, the run stopped: rerun it, or publish the folder again.")


class LiveSite:
    """A run's progress sink that republishes the results folder into a site every `every` seconds, in a background
    thread, with a "running, n of N games" banner; it forwards every call to `inner` (the progress display).

    The caller publishes once more after the run, without the banner (see `final`). A publish that fails during the
    run is reported through `inner.note` and tried again later; it never stops the run.
    """

    def __init__(self, directory: str | os.PathLike[str], site: str | os.PathLike[str], every: float = DEFAULT_EVERY,
                 inner: object | None = None, *, clock: Callable[[], float] = time.monotonic,
                 publish: Callable[..., SiteResult] = publish_results) -> None:
        check_apart(directory, site)
        check_site_folder(site)  # refuse a foreign folder before the first game
        self.directory = Path(directory)
        self.site = Path(site)
        self.every = every
        self.inner = inner
        self.clock = clock
        self.publish = publish
        self.planned = 0
        self.done = 0
        self.published = 0
        self.errors: list[str] = []
        self._last = clock()
        self._published_done = -1
        self._thread: threading.Thread | None = None
        self._unreported = 0

    def start(self, planned: int, stored: int, workers: int) -> None:
        """Remember the totals; publish at once when games are stored already."""
        self.planned, self.done = planned, stored
        self._forward("start", planned, stored, workers)
        self._maybe_publish(force=stored > 0)

    def replan(self, planned: int) -> None:
        """The run now plans `planned` games."""
        self.planned = planned
        self._forward("replan", planned)

    def game(self, record: GameRecord, leader: Callable[[], str], report: GameReport | None = None) -> None:
        """Count a stored game (its `report` goes to the display)."""
        self.done += 1
        self._forward("game", record, leader, report)
        self._maybe_publish()

    def tick(self, leader: Callable[[], str]) -> None:
        """Publish when due."""
        self._forward("tick", leader)
        self._maybe_publish()

    def note(self, message: str) -> None:
        """Forward a message."""
        self._forward("note", message)

    def finish(self, leader: Callable[[], str] | None = None) -> None:
        """Wait for a publish in progress."""
        self.wait()
        self._forward("finish", leader)

    def wait(self) -> None:
        """Wait for the background publish, if one is running."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def final(self, status: str | None = None) -> SiteResult:
        """Publish once more after the run (no banner unless `status`), in this thread; errors propagate."""
        self.wait()
        return self.publish([self.directory], self.site, status=status)

    def _forward(self, name: str, *args: object) -> None:
        if self.inner is not None:
            getattr(self.inner, name)(*args)

    def _maybe_publish(self, force: bool = False) -> None:
        now = self.clock()
        if self._thread is not None and self._thread.is_alive():
            return
        while self._unreported < len(self.errors):  # told from the run's thread, never from the publishing one
            self._forward("note", f"publishing the site failed (tried again later): {self.errors[self._unreported]}")
            self._unreported += 1
        if not force and (now - self._last < self.every or self.done == self._published_done):
            return
        self._last = now
        self._published_done = self.done
        banner = running_banner(self.done, self.planned)
        self._thread = threading.Thread(target=self._publish, args=(banner,), name="ytourney-publish", daemon=True)
        self._thread.start()

    def _publish(self, banner: str) -> None:
        try:
            self.publish([self.directory], self.site, status=banner)
            self.published += 1
        except Exception as err:  # a failed publish never stops the run: it is told, and tried again later
            self.errors.append(str(err) if isinstance(err, YTourneyError) else f"{type(err).__name__}: {err}")


def check_apart(directory: str | os.PathLike[str], site: str | os.PathLike[str]) -> None:
    """Refuse a site folder that is the results folder, inside it or around it (the two would overwrite each other)."""
    results, out = Path(directory).resolve(), Path(site).resolve()
    if out == results or results in out.parents or out in results.parents:
        where = "is" if out == results else "is inside" if results in out.parents else "holds"
        raise ReportError(f"site output {str(site)!r} {where} the results folder {str(directory)!r}; give --publish "
                          "a folder of its own")
