"""Publishing during a run: the LiveSite sink, and `ytourney run --publish SITE --publish-every S`."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.errors import ReportError
from ytourney.publish.live import LiveSite, running_banner
from ytourney.publish.site import SiteResult


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    """A progress display that remembers the calls it got."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        return lambda *args: self.calls.append((name, args))


def fake_record() -> Any:
    """LiveSite only counts the games it is told about."""
    return object()


def test_live_site_publishes_when_due_with_a_banner_and_forwards_calls(tmp_path: Path) -> None:
    clock = FakeClock()
    banners: list[str | None] = []
    done = threading.Event()

    def publish(dirs: list[Path], out: Path, *, status: str | None = None) -> SiteResult:
        banners.append(status)
        done.set()
        return SiteResult(Path(out), Path(out) / "index.html", 1, 0, ())

    inner = Recorder()
    sink = LiveSite(tmp_path / "results", tmp_path / "site", 10.0, inner, clock=clock, publish=publish)
    sink.start(9, 0, 2)
    leader = lambda: ""  # noqa: E731
    sink.game(fake_record(), leader)
    sink.wait()
    assert banners == []  # not due yet
    clock.now = 11.0
    sink.game(fake_record(), leader)
    sink.wait()
    assert len(banners) == 1 and banners[0] is not None and "2 of 9 games" in banners[0]
    written = banners[0].split("(as of ")[1].split(")")[0]
    assert banners[0] == running_banner(2, 9, written) and re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", written)
    clock.now = 30.0
    sink.tick(leader)
    sink.wait()
    assert len(banners) == 1  # nothing new since the last publish
    sink.finish()
    result = sink.final()
    assert banners[-1] is None and result.pages == 1
    assert [name for name, _ in inner.calls] == ["start", "game", "game", "tick", "finish"]


def test_a_failing_publish_is_told_and_never_stops_the_run(tmp_path: Path) -> None:
    clock = FakeClock()

    def publish(dirs: list[Path], out: Path, *, status: str | None = None) -> SiteResult:
        raise ReportError("disk says no")

    inner = Recorder()
    sink = LiveSite(tmp_path / "results", tmp_path / "site", 1.0, inner, clock=clock, publish=publish)
    sink.start(4, 1, 1)  # games stored already: publish at once
    sink.wait()
    clock.now = 5.0
    sink.tick(lambda: "")
    notes = [args[0] for name, args in inner.calls if name == "note"]
    assert notes == ["publishing the site failed (tried again later): disk says no"]


def test_live_site_refuses_a_foreign_folder_before_any_game(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ReportError, match="holds no ytourney site"):
        LiveSite(tmp_path / "results", tmp_path / "site")


def write_config(tmp_path: Path) -> Path:
    path = tmp_path / "cup.yaml"
    path.write_text("name: cup\nboard: tri:4\nseed: 3\nschedule: {games_per_pair: 2}\n"
                    "handicap: {mode: auto, max_level: 3}\n"
                    "players: [{name: a, bot: random}, {name: b, bot: random}, {name: c, bot: random}]\n")
    return path


def test_run_publish_writes_the_site_and_drops_the_banner_at_the_end(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    site = tmp_path / "site"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(tmp_path / "res"), "--workers", "1",
                                       "--publish", str(site), "--publish-every", "1"])
    assert result.exit_code == 0, result.output
    assert "site written to" in result.output
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'class="status"' not in index and "6 games" in index
    assert (site / "handicaps.html").is_file() and (site / "pairs.html").is_file()


def test_run_publish_refuses_a_foreign_site_before_playing(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "notes.txt").write_text("mine", encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(tmp_path / "res"),
                                       "--publish", str(tmp_path / "site")])
    assert result.exit_code == 1
    assert "holds no ytourney site" in result.output
    assert not (tmp_path / "res").exists()


def test_publish_every_needs_publish(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["run", str(write_config(tmp_path)), "--publish-every", "5"])
    assert result.exit_code == 1 and "--publish-every needs --publish SITE" in result.output


def test_a_later_publish_of_the_folder_replaces_a_stale_running_banner(tmp_path: Path) -> None:
    from ytourney.publish.live import publish_results

    results, site = tmp_path / "results", tmp_path / "site"
    played = CliRunner().invoke(main, ["match", "random", "heuristic", "--games-per-pair", "2", "--board", "tri:5",
                                       "--out", str(results), "-q"])
    assert played.exit_code == 0, played.output
    publish_results([results], site, status=running_banner(1, 2, "2026-01-01 00:00:00 UTC"))  # then kill -9
    assert "as of 2026-01-01 00:00:00 UTC" in (site / "index.html").read_text()
    again = CliRunner().invoke(main, ["publish", str(results), "--out", str(site)])
    assert again.exit_code == 0, again.output
    assert not [page for page in site.rglob("*.html") if "Running:" in page.read_text()]
