"""The published site checked like a real one: every relative link and asset resolves, every page is HTML5."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote, urlsplit

import html5lib
import pytest

from ytourney.games.record import GameRecord
from ytourney.games.registry import get_game
from ytourney.games.y.rules import Rules
from ytourney.players.bots.random_bot import RandomBot
from ytourney.publish import game_pages
from ytourney.publish.handicap_table import handicap_report
from ytourney.publish.site import publish_site
from ytourney.stats.handicap import HandicapMode, HandicapSettings
from ytourney.stats.ratings import HandicapRating, RatingSettings, rate_records
from ytourney.tournament.match import Seat, play_game

NAMES = ("ann", "bob", "c&d <x>")
MAX_PAGE_BYTES = 2_000_000


def games_with_handicaps(board: str, rounds: int, seed: int) -> list[GameRecord]:
    rng = random.Random(seed)
    games: list[GameRecord] = []
    for _ in range(rounds):
        for a in NAMES:
            for b in NAMES:
                if a != b:
                    level = len(games) % 3  # even, level 1 and level 2 games
                    seats = [Seat(a, RandomBot(rng.randrange(10**6))), Seat(b, RandomBot(rng.randrange(10**6)))]
                    record = play_game(seats, get_game("y"), board, Rules(), level, seed=rng.randrange(10**6))
                    games.append(replace(record, id=len(games) + 1, tournament="cup"))
    return games


def links_of(page: Path) -> list[str]:
    html = page.read_text(encoding="utf-8")
    return re.findall(r'(?:href|src)="([^"]+)"', html)


def crawl(site: Path) -> set[Path]:
    """Every file reached from index.html through relative links; fails on a link that resolves to nothing."""
    seen: set[Path] = set()
    queue = [site / "index.html"]
    while queue:
        page = queue.pop()
        if page in seen:
            continue
        seen.add(page)
        if page.suffix != ".html":
            continue
        for link in links_of(page):
            parts = urlsplit(link)
            if parts.scheme or link.startswith("#"):
                assert parts.scheme in ("http", "https"), (page, link)
                continue
            assert not link.startswith("/"), (page, link)
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_file(), f"{page.relative_to(site)} links to missing {link}"
            assert site.resolve() in target.parents, (page, link)
            queue.append(target)
    return seen


def check_site(site: Path) -> set[Path]:
    reached = crawl(site)
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    pages = sorted(site.rglob("*.html"))
    assert pages
    for page in pages:
        assert page.resolve() in reached, f"{page.relative_to(site)} is not linked from anywhere"
        data = page.read_bytes()
        assert len(data) < MAX_PAGE_BYTES, page
        parser.parse(data.decode("utf-8"))  # raises on any HTML5 parse error
    for asset in site.rglob("*"):
        if asset.is_file() and asset.suffix in (".svg", ".js", ".css"):
            assert asset.resolve() in reached, f"{asset.relative_to(site)} is never used"
    return reached


@pytest.mark.parametrize("board", ["tri:5", "kadon"])
def test_site_with_handicaps_crawls_clean(tmp_path: Path, board: str) -> None:
    records = games_with_handicaps(board, 2 if board == "kadon" else 3, seed=4)
    ratings = rate_records(records, RatingSettings(handicap=HandicapRating.LEARN))
    report = handicap_report(records, HandicapSettings(HandicapMode.AUTO, max_level=4), ratings)
    site = publish_site(ratings, tmp_path / "site", handicap_report=report, status="Running: 3 of 9 games").out
    check_site(site)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="handicaps.html"' in index and 'href="pairs.html"' in index
    assert 'role="status">Running: 3 of 9 games' in index
    handicaps = (site / "handicaps.html").read_text(encoding="utf-8")
    assert "level-worth.svg" in handicaps and handicaps.count("-handicap-small.svg") == 3
    pair = (site / "pairs" / "ann--bob.html").read_text(encoding="utf-8")
    for text in ("Head to head, by seat", "TrueSkill", "Elo", "Fair handicap", "ann--bob-handicap.svg"):
        assert text in pair
    game = next((site / "games").glob("*.html")).read_text(encoding="utf-8")
    assert "Black&#39;s move" in game or "Black's move" in game


def test_site_without_handicaps_has_no_handicaps_page(tmp_path: Path) -> None:
    records = [r for r in games_with_handicaps("tri:4", 2, seed=5) if r.handicap == 0]
    site = publish_site(rate_records(records), tmp_path / "site").out
    check_site(site)
    assert not (site / "handicaps.html").exists()
    assert "handicaps.html" not in (site / "index.html").read_text(encoding="utf-8")


def test_long_games_lists_are_split_into_pages_and_data_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    monkeypatch.setattr(game_pages, "GAMES_PER_PAGE", 5)
    monkeypatch.setattr(game_pages, "GAMES_PER_DATA_FILE", 7)
    monkeypatch.setattr(game_pages, "GAMES_SHOWN", 4)
    records = games_with_handicaps("tri:4", 3, seed=6)  # 18 games
    site = publish_site(rate_records(records), tmp_path / "site").out
    check_site(site)
    lists = sorted(p.name for p in site.glob("games*.html"))
    assert lists == ["games-2.html", "games-3.html", "games-4.html", "games.html"]
    assert sorted(p.name for p in site.glob("games-data-*.js")) == ["games-data-1.js", "games-data-2.js",
                                                                      "games-data-3.js"]
    rows = sum(page.read_text(encoding="utf-8").count('<tr><td class="num"><a href="games/')
               for page in site.glob("games*.html"))
    assert rows == len(records)
    data = "".join(p.read_text(encoding="utf-8") for p in site.glob("games-data-*.js"))
    assert data.count(".push(") == 3 and "c&d <x>" in data
    player = (site / "players" / "ann.html").read_text(encoding="utf-8")
    assert "The latest 4 of" in player and 'href="../games.html#player=ann"' in player


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs a headless chromium")
def test_games_list_filters_and_sorts_in_a_browser(tmp_path: Path) -> None:
    records = games_with_handicaps("tri:4", 3, seed=7)
    site = publish_site(rate_records(records), tmp_path / "site").out
    url = (site / "games.html").as_uri() + "#player=ann&sort=moves&order=desc&handicap=0"
    done = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", url],
                          capture_output=True, text=True, timeout=120, check=True)
    body = done.stdout.split("<tbody>")[1].split("</tbody>")[0]
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body)]
    expected = [r for r in records if r.handicap == 0 and "ann" in (r.black, r.white)]
    assert len(rows) == len(expected) > 0
    moves = [int(row[-1]) for row in rows]
    assert moves == sorted(moves, reverse=True)
    assert all("ann" in (row[6], row[7]) and row[5] == "0" for row in rows)
    assert f"{len(expected)} of {len(records)} games" in done.stdout
