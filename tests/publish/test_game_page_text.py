"""The words of the site's pages for games other than Y: rules, move order, captions."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ytourney.games.api import Color, Termination
from ytourney.games.record import GameRecord
from ytourney.games.registry import get_game
from ytourney.publish.site import publish_site
from ytourney.stats.ratings import rate_records


def aliens_record(number: int = 1) -> GameRecord:
    """A short Aliens and Amazons game: the Aliens (White) move first; its rules leave `threshold` to the board."""
    game = get_game("aliens-amazons")
    moves = ("B5", "J4", "L6", "D5", "G7", "A6", "B5-B6")
    return GameRecord(
        tournament="aa", round=1, board="kadon", rules=game.parse_rules(None), handicap=0, first="ann",
        second="bob", black="bob", white="ann", moves=moves, winner=Color.WHITE,
        termination=Termination("captures"), move_seconds=(0.1,) * len(moves), seed=3,
        started="2026-01-02T03:04:05Z", finished="2026-01-02T03:04:06Z", id=number, game="aliens-amazons")


def quinta_record() -> GameRecord:
    """Two slides of Quinta, a game from a set position whose moves never place a stone."""
    quinta = get_game("quinta")
    return replace(aliens_record(), game="quinta", rules=quinta.parse_rules(None), moves=("A5-H6", "C1-H7"),
                   move_seconds=(0.1, 0.1), winner=Color.BLACK, termination=Termination("line"))


def game_page_text(tmp_path: Path) -> str:
    """The page of the one game of a site of `aliens_record`."""
    site = publish_site(rate_records([aliens_record()]), tmp_path / "site", generated="").out
    (page,) = (site / "games").glob("*.html")
    return page.read_text(encoding="utf-8")


def test_a_computed_rule_default_shows_its_value_not_none(tmp_path: Path) -> None:
    page = game_page_text(tmp_path)
    assert "threshold 10" in page and "None" not in page


def test_the_move_legend_alternates_from_the_colour_that_moves_first(tmp_path: Path) -> None:
    page = game_page_text(tmp_path)
    assert "stones alternate White, Black" in page and "alternate Black, White" not in page


def test_a_game_whose_sides_differ_names_what_each_colour_plays(tmp_path: Path) -> None:
    page = game_page_text(tmp_path)
    assert "<dt>Black (Amazons)</dt>" in page and "<dt>White (Aliens)</dt>" in page
    site = publish_site(rate_records([quinta_record()]), tmp_path / "quinta", generated="").out
    (quinta,) = (site / "games").glob("*.html")
    assert "<dt>Black</dt>" in quinta.read_text(encoding="utf-8")


def test_the_game_page_shows_when_it_was_played_as_people_read_times(tmp_path: Path) -> None:
    page = game_page_text(tmp_path)
    assert "2026-01-02 03:04:05 UTC → 2026-01-02 03:04:06 UTC" in page and "T03:04:05Z" not in page
    assert "<dt>First move</dt>" in page


def test_the_first_move_heat_map_names_the_colour_of_the_first_stone(tmp_path: Path) -> None:
    site = publish_site(rate_records([aliens_record()]), tmp_path / "site", generated="").out
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "first stone's owner (White)" in index and "(Black)" not in index


def test_the_move_list_gives_its_columns_room_for_long_chains_and_move_numbers(tmp_path: Path) -> None:
    from ytourney.publish.game_pages import move_list_style

    short = ["C6-A4"] * 120
    chain = "C5-E7-C7-E9-G9-G7-E5"
    assert move_list_style(short, [0.01] * 120) == "--entry: 13ch; --marker: 4.5ch"  # 5 + 2.5 + 5 * 0.75/0.9 + 0.8, up
    long_few = short[:95] + [chain] * 5  # a rare long chain wraps: the column fits nine entries in ten
    assert move_list_style(long_few, [None] * 100) == "--entry: 8ch; --marker: 4.5ch"
    long_many = short[:50] + [chain] * 50
    assert move_list_style(long_many, [None] * 100) == f"--entry: {len(chain) + 3}ch; --marker: 4.5ch"
    assert move_list_style([], []) == "--entry: 0ch; --marker: 2.5ch"
    assert 'class="moves" style="--entry: ' in game_page_text(tmp_path)


def test_a_game_from_a_set_position_shows_its_start_beside_the_final_position(tmp_path: Path) -> None:
    site = publish_site(rate_records([quinta_record()]), tmp_path / "quinta", generated="").out
    (page,) = (site / "games").glob("*.html")
    text = page.read_text(encoding="utf-8")
    assert 'aria-label="final position of game 1' in text and 'aria-label="start position of game 1"' in text
    start = text[text.index('aria-label="start position'):]
    start = start[:start.index("</svg>")]
    assert start.count("<circle") > 93 and "arrow" not in start  # the nodes and the set stones, no move drawn
    assert "start position" not in game_page_text(tmp_path)  # the Aliens start on an empty board: no start drawn


def test_the_caption_speaks_of_numbered_stones_only_when_stones_are_numbered(tmp_path: Path) -> None:
    site = publish_site(rate_records([quinta_record()]), tmp_path / "quinta", generated="").out  # none numbered
    (page,) = (site / "games").glob("*.html")
    assert "Final position; last move ringed red" in page.read_text(encoding="utf-8")
    assert "Final position; stones numbered by move, last move ringed red" in game_page_text(tmp_path)


def test_a_count_of_one_takes_the_singular(tmp_path: Path) -> None:
    from ytourney.publish.html import counted

    assert (counted(1, "pair"), counted(0, "game"), counted(3, "player")) == ("1 pair", "0 games", "3 players")
    site = publish_site(rate_records([aliens_record()]), tmp_path / "site", generated="").out
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "1 game · 2 players" in index and "All 1 game</a>" in index and ">1 pair</a>" in index
    assert "1 pair." in (site / "pairs.html").read_text(encoding="utf-8")
    assert "1 game in replay order" in (site / "games.html").read_text(encoding="utf-8")
    (pair,) = (site / "pairs").glob("*.html")
    assert '<p class="lead">1 game ·' in pair.read_text(encoding="utf-8")


def test_a_site_of_several_games_names_y_in_its_league_headings_too(tmp_path: Path) -> None:
    from table_games import make_results, sample_records

    from ytourney.publish.league_site import publish_leagues

    y_folder = make_results(tmp_path / "y", sample_records(), name="y")
    aliens = make_results(tmp_path / "aa", [aliens_record()], name="aa")
    site = publish_leagues([y_folder, aliens], tmp_path / "site")
    index = site.index.read_text(encoding="utf-8")
    assert '<a href="tri-4/index.html">y tri:4</a>' in index and ">aliens-amazons kadon</a>" in index
    assert "[y tri:4]" in (site.out / "tri-4" / "index.html").read_text(encoding="utf-8")
    alone = publish_leagues([y_folder, make_results(tmp_path / "y5", [replace(r, board="tri:5") for r in
                                                                       sample_records()], name="y5")],
                            tmp_path / "site-y").index.read_text(encoding="utf-8")
    assert '<a href="tri-4/index.html">tri:4</a>' in alone  # only Y: its boards alone, as before
    assert "form 2 leagues, one per game, board and rules set" in index
    assert "played on 2 boards or rules sets. Games of different boards" in alone
    assert "one per game, board and rules set.\nGames of different games, boards" in index


def test_the_pairs_page_shows_fair_handicaps_only_when_some_pair_has_one(tmp_path: Path) -> None:
    from table_games import make_results, sample_records

    from ytourney.publish.live import publish_results

    site = publish_site(rate_records([aliens_record()]), tmp_path / "aa", generated="").out
    assert "fair handicap" not in (site / "pairs.html").read_text(encoding="utf-8")  # no handicap in this game
    y = publish_results([make_results(tmp_path / "y", sample_records(), name="y")], tmp_path / "y-site")
    assert "<th>fair handicap [95%]</th>" in (y.out / "pairs.html").read_text(encoding="utf-8")


def test_every_table_counts_a_handicap_level_s_stones_as_one_move_as_the_game_page_does(tmp_path: Path) -> None:
    from table_games import sample_records

    record = sample_records()[7]  # handicap 2: its two stones a1 b1 are one turn, then c1
    assert record.handicap == 2 and len(record.moves) == 3
    site = publish_site(rate_records([record]), tmp_path / "site", generated="").out
    (page,) = (site / "games").glob("*.html")
    assert "after 2 moves" in page.read_text(encoding="utf-8")
    row_end = '<td class="num">2</td></tr>'
    assert row_end in (site / "games.html").read_text(encoding="utf-8")
    (pair,) = (site / "pairs").glob("*.html")
    assert row_end in pair.read_text(encoding="utf-8")
    assert '"r":[[1,"' in (site / "games-data-1.js").read_text(encoding="utf-8")
    assert (site / "games-data-1.js").read_text(encoding="utf-8").rstrip().endswith(",2]]});")
    player = (site / "players" / "ann.html").read_text(encoding="utf-8")
    assert '<td class="num">2</td><td class="num">' in player
