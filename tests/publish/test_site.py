"""The published site: pages, relative links, escaping, charts, heat maps, republishing, and the publish command."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.errors import ReportError
from ytourney.games.record import GameRecord, league_order
from ytourney.games.api import Color
from ytourney.games.registry import get_game
from ytourney.games.y.rules import Rules
from ytourney.players.bots.random_bot import RandomBot
from ytourney.publish.first_moves import first_move_stats
from ytourney.publish.handicap_table import handicap_report, handicap_table
from ytourney.publish.html import render_page
from ytourney.publish.render import render_table
from ytourney.publish.site import publish_site
from ytourney.publish.site_files import MANIFEST
from ytourney.stats.ratings import rate_records
from ytourney.tournament.match import Seat, play_game
from ytourney.tournament.store import ResultStore, StoredPlayer

EVIL = "<script>alert(1)</script>"
PLAYERS = ("ann", "bob", EVIL)


def play_round_robin(board: str, rounds: int, seed: int, *, handicap_every: int = 0) -> list[GameRecord]:
    rng = random.Random(seed)
    games = []
    for _ in range(rounds):
        for a in PLAYERS:
            for b in PLAYERS:
                if a == b:
                    continue
                handicap = 2 if handicap_every and len(games) % handicap_every == handicap_every - 1 else 0
                seats = [Seat(a, RandomBot(rng.randrange(10**6), swap_rate=0.5)), Seat(b, RandomBot(rng.randrange(10**6)))]
                record = play_game(seats, get_game("y"), board, Rules(), handicap, seed=rng.randrange(10**6))
                games.append(replace(record, id=len(games) + 1))
    return games


def make_results(folder: Path, games: list[GameRecord], name: str) -> Path:
    config = json.dumps({"name": name, "players": [{"name": player, "bot": "random"} for player in PLAYERS]})
    with ResultStore.open(folder, name=name, config_text=config, config_hash=name, config_key={"n": name},
                          planned_games=len(games), players=[StoredPlayer(p, "random", "builtin") for p in PLAYERS]
                          ) as store:
        for record in games:
            store.add_game(GameRecord(**{**record.__dict__, "tournament": name}))
    return folder


@pytest.fixture(scope="module")
def tri_games() -> list[GameRecord]:
    return play_round_robin("tri:4", 2, seed=1, handicap_every=5)


@pytest.fixture(scope="module")
def kadon_games() -> list[GameRecord]:
    return play_round_robin("kadon", 1, seed=2)


def local_links(page: Path) -> list[str]:
    html = page.read_text(encoding="utf-8")
    links = re.findall(r'(?:href|src)="([^"]+)"', html)
    return [link.split("#")[0] for link in links if not link.startswith(("http:", "https:", "#"))]


def test_site_pages_link_to_existing_files(tmp_path: Path, tri_games: list[GameRecord]) -> None:
    ratings = rate_records(tri_games)
    result = publish_site(ratings, tmp_path / "site", generated="")
    site = result.out
    assert result.games == len(tri_games)
    assert (site / "index.html").is_file() and (site / "style.css").is_file() and (site / "games.html").is_file()
    pages = sorted(site.rglob("*.html"))
    pairs = len(PLAYERS) * (len(PLAYERS) - 1) // 2
    assert len(pages) == result.pages == 1 + 1 + len(tri_games) + len(PLAYERS) + 1 + pairs  # + pairs list, pairs
    for page in pages:
        for link in local_links(page):
            assert not link.startswith("/"), (page, link)  # relative links only: the site works from file://
            assert (page.parent / link).resolve().is_file(), (page, link)


def test_site_escapes_player_names_everywhere(tmp_path: Path, tri_games: list[GameRecord]) -> None:
    site = publish_site(rate_records(tri_games), tmp_path / "site").out
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert html.count("<script") == html.count('<script src="'), page  # only the site's own script files
        assert "<script>alert" not in html, page
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index


def test_index_has_tables_chart_heat_maps_and_downloads(tmp_path: Path, tri_games: list[GameRecord]) -> None:
    site = publish_site(rate_records(tri_games), tmp_path / "site").out
    index = (site / "index.html").read_text(encoding="utf-8")
    for anchor in ('id="ratings"', 'id="crosstable"', 'id="first-moves"', 'src="ratings.svg"', 'href="games.pgn"'):
        assert anchor in index
    assert 'id="handicap"' not in index  # no handicap table given
    chart = (site / "ratings.svg").read_text(encoding="utf-8")
    assert chart.lstrip().startswith("<?xml") and "<svg" in chart
    assert index.count("<svg") == 2  # win-rate and swap-rate heat maps of tri:4, inline
    assert (site / "games.pgn").read_text(encoding="utf-8").count("[Event ") == len(tri_games)


def test_game_page_shows_diagram_moves_winner_and_ending(tmp_path: Path, tri_games: list[GameRecord]) -> None:
    ratings = rate_records(tri_games)
    site = publish_site(ratings, tmp_path / "site").out
    record = ratings.games[0].record
    page = (site / "games" / f"game-{record.id}.html").read_text(encoding="utf-8")
    assert "<svg" in page and 'aria-label="final position of game 1' in page
    assert f"wins by completing a Y after {len(record.moves)} moves" in page
    assert page.count('<li class="') == len(record.moves)
    assert 'href="../games.html"' in page and "next game" in page and "previous game" not in page


def test_handicap_table_is_rendered_when_given(tmp_path: Path, tri_games: list[GameRecord]) -> None:
    assert any(record.handicap > 0 for record in tri_games), "the fixture has handicap games"
    estimates = handicap_report(tri_games).estimates
    assert estimates
    table = handicap_table(estimates, title="")
    assert "fair level" in render_table(table, "text")
    site = publish_site(rate_records(tri_games), tmp_path / "site", handicap=table).out
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'id="handicap"' in index and "results by level" in index


def test_league_site_and_republish_replace_stale_pages(tmp_path: Path, tri_games: list[GameRecord],
                                                       kadon_games: list[GameRecord]) -> None:
    one = [GameRecord(**{**g.__dict__, "tournament": "one"}) for g in tri_games]
    two = [GameRecord(**{**g.__dict__, "tournament": "two"}) for g in kadon_games]
    out = tmp_path / "site"
    publish_site(rate_records(league_order([one, two]), ordered=True), out)
    assert (out / "games" / "two-1.html").is_file()
    kadon_page = (out / "games" / "two-1.html").read_text(encoding="utf-8")
    assert "<line" not in kadon_page and "<path" in kadon_page  # kadon: nodes joined by adjacency lines
    publish_site(rate_records(league_order([one]), ordered=True), out)
    assert not (out / "games" / "two-1.html").exists()
    assert (out / "games" / "one-1.html").is_file()
    listed = set((out / MANIFEST).read_text(encoding="utf-8").split())
    assert "index.html" in listed and "games/two-1.html" not in listed


def test_publish_refuses_a_foreign_folder(tmp_path: Path, tri_games: list[GameRecord]) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ReportError, match="is not empty and holds no ytourney site"):
        publish_site(rate_records(tri_games), tmp_path)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_first_move_statistics(tri_games: list[GameRecord]) -> None:
    (stats,) = first_move_stats(tri_games)
    even = [g for g in tri_games if g.handicap == 0]
    assert stats.board == "tri:4" and stats.total == len(even)
    assert sum(stats.black_wins.values()) == sum(g.winner is Color.BLACK for g in even)
    assert sum(stats.swaps.values()) == sum(g.swapped for g in even)


def test_template_environment_autoescapes() -> None:
    html = render_page("table_page.html", title=EVIL, tables=[])
    assert "<title>&lt;script&gt;" in html and "<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>" in html


def test_publish_command_on_results_folders(tmp_path: Path, tri_games: list[GameRecord],
                                            kadon_games: list[GameRecord]) -> None:
    one = make_results(tmp_path / "one", tri_games, "one")
    two = make_results(tmp_path / "two", kadon_games, "two")
    out = tmp_path / "site"
    split = tmp_path / "split"
    sections = CliRunner().invoke(main, ["publish", str(one), str(two), "--out", str(split), "--title", "Cup"])
    assert sections.exit_code == 0, sections.output
    top = (split / "index.html").read_text(encoding="utf-8")
    assert "<h1>Cup</h1>" in top and 'href="tri-4/index.html"' in top and 'href="kadon/index.html"' in top
    assert "2 boards or rules sets" in top
    tri_index = (split / "tri-4" / "index.html").read_text(encoding="utf-8")
    assert "Cup [tri:4]" in tri_index and (split / "kadon" / "games" / "two-1.html").is_file()
    assert not (split / "tri-4" / "games" / "two-1.html").exists()  # each section holds its own games only
    again = CliRunner().invoke(main, ["publish", str(one), str(two), "--out", str(split), "--title", "Cup"])
    assert again.exit_code == 0, again.output  # publishing again updates the sections in place
    result = CliRunner().invoke(main, ["publish", str(one), str(two), "--out", str(out), "--title", "Cup", "--pool"])
    assert result.exit_code == 0, result.output
    assert "site written to" in result.output
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "<h1>Cup</h1>" in index and 'id="handicap"' in index
    assert (out / "games" / "two-1.html").is_file()
    result = CliRunner().invoke(main, ["publish", str(one), "--out", str(one)])
    assert result.exit_code == 1 and "holds no ytourney site" in result.output
