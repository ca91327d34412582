"""Engine dialects: the flipped-row map, colour names, chatter before answers, time commands, and the strict fakes of
the two public engine families played by config alone (tests/fake_engines/fake_row_reversed.py, fake_white_first.py).
"""

from __future__ import annotations

import collections
import json
import re
import sys
from collections import deque
from pathlib import Path

import pytest

from ytourney.errors import ConfigError, EngineProtocolError, NotationError
from ytourney.boards.board import SIDE_A, SIDE_B, SIDE_C, parse_board
from ytourney.games.record import Termination
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.players.bots.random_bot import RandomBot
from ytourney.players.clock import TimeControl
from ytourney.players.gtp.client import GtpClient
from ytourney.games.dialect import from_engine_cell, to_engine_cell
from ytourney.players.gtp.dialect import (
    engine_colors_flipped,
    from_engine_color,
    swap_style_hint,
    to_engine_color,
)
from ytourney.players.gtp.engine import GtpBot
from ytourney.players.gtp.settings import GtpSettings
from ytourney.tournament.config import parse_config
from ytourney.games.registry import get_game
from ytourney.tournament.match import Seat
from ytourney.tournament.match import play_game as play_any_game

Y = get_game("y")


def play_game(seats, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN201 - the referee, seated for Y
    return play_any_game(seats, Y, *args, **kwargs)
from ytourney.tournament.pool import InProcessExecutor
from ytourney.tournament.run import Runner
from ytourney.tournament.store import load_records
from ytourney.tournament.worker import TournamentContext
from ytourney.games.y.state import CONNECTION

ROOT = Path(__file__).resolve().parents[2]
FAKES = ROOT / "tests" / "fake_engines"
ROW_REVERSED = str(FAKES / "fake_row_reversed.py")
WHITE_FIRST = str(FAKES / "fake_white_first.py")
SNIPPETS = ROOT / "configs" / "engines"
FAST = TimeControl(move_seconds=0.3, grace_seconds=0.5)


def letter(x: int) -> str:
    return chr(ord("a") + x)


# --- rows: flipped ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", range(2, 27))
def test_flipped_rows_name_every_cell_in_the_engines_notation_and_round_trip(size: int) -> None:
    board = parse_board(f"tri:{size}")
    # The engine's notation, written from its own description: row r holds r cells a<r> .. <r-th letter><r>.
    theirs = {f"{letter(x)}{r}" for r in range(1, size + 1) for x in range(r)}
    named = {}
    for cell, (x, y) in enumerate(board.coords):
        name = to_engine_cell(board, cell, "flipped")
        assert name == f"{letter(x)}{size - y}"  # our (x, row y+1) is their (x, N+1-(y+1))
        assert from_engine_cell(board, name, "flipped") == cell
        assert to_engine_cell(board, from_engine_cell(board, name, "flipped"), "flipped") == name
        assert to_engine_cell(board, cell) == board.names[cell] and from_engine_cell(board, board.names[cell]) == cell
        named[name] = cell
    assert set(named) == theirs  # a bijection onto their cells
    # The same triangle: their long edge (row N) is our row 1, their column a our column a, their row ends our
    # third side; neighbours are neighbours in their geometry (two cells above, two below, two beside).
    for name, cell in named.items():
        x, r = ord(name[0]) - ord("a"), int(name[1:])
        sides = (SIDE_A if r == size else 0) | (SIDE_B if x == 0 else 0) | (SIDE_C if x == r - 1 else 0)
        assert board.sides[cell] == sides, name
        around = [(x - 1, r), (x + 1, r), (x - 1, r - 1), (x, r - 1), (x, r + 1), (x + 1, r + 1)]
        expected = {named[f"{letter(cx)}{cr}"] for cx, cr in around if f"{letter(cx)}{cr}" in theirs}
        assert set(board.neighbors[cell]) == expected, name
    # Names that exist only in our notation (or in neither) are refused.
    for name in [f"{letter(x)}{r}" for r in range(0, size + 2) for x in range(size + 1)]:
        if name not in theirs:
            with pytest.raises(NotationError):
                from_engine_cell(board, name, "flipped")


def test_flipped_rows_worked_examples() -> None:
    for size in (2, 5, 7, 11, 15, 26):
        board = parse_board(f"tri:{size}")
        assert board.names[from_engine_cell(board, "a1", "flipped")] == f"a{size}"  # their a1 is our top corner
        assert to_engine_cell(board, board.index_of(f"a{size}"), "flipped") == "a1"
    tri5, tri7 = parse_board("tri:5"), parse_board("tri:7")
    assert tri5.names[from_engine_cell(tri5, "e5", "flipped")] == "e1"
    assert tri7.names[from_engine_cell(tri7, "d6", "flipped")] == "d2"  # the answer refused before this fix
    assert to_engine_cell(tri5, tri5.index_of("e1"), "flipped") == "e5"
    assert to_engine_cell(tri7, tri7.index_of("d2"), "flipped") == "d6"
    with pytest.raises(NotationError, match=r"'e1' is not a cell of board 'tri:5' \(rows 'flipped': row 1 the top"):
        from_engine_cell(tri5, "e1", "flipped")


def test_colour_names_follow_the_first_colour() -> None:
    assert to_engine_color(Color.BLACK) == "b" and to_engine_color(Color.WHITE) == "w"
    assert to_engine_color(Color.BLACK, "white") == "w" and to_engine_color(Color.WHITE, "white") == "b"
    for color in Color:
        for first in ("black", "white"):
            assert from_engine_color(to_engine_color(color, first), first) is color


# --- settings and the client -----------------------------------------------------------------------------------------


class ScriptTransport:
    """Answers every command with the next scripted block of lines."""

    pid = None

    def __init__(self, *blocks: list[str]) -> None:
        self.blocks = deque(blocks)
        self.lines: deque[str] = deque()

    def send(self, line: str) -> None:
        self.lines.extend(self.blocks.popleft())

    def receive(self, timeout: float) -> str | None:
        if self.lines:
            return self.lines.popleft()
        raise TimeoutError

    def exit_code(self) -> int | None:
        return None

    def stderr_tail(self) -> list[str]:
        return []


def test_chatter_before_an_answer_is_skipped_up_to_its_bounds() -> None:
    stats = ["Think time: 1.0 s", "Playouts: 5000", "PV: c3 d4"]
    client = GtpClient(ScriptTransport([*stats, "= c3", ""], ["", *stats, "? no", ""]), "engine 'e'", chatter_lines=3)
    assert client.expect("genmove w", 1.0) == "c3"
    assert not client.command("genmove b", 1.0).ok
    strict = GtpClient(ScriptTransport([*stats, "= c3", ""]), "engine 'e'")
    with pytest.raises(EngineProtocolError, match=r"answered 'genmove w' with 'Think time: 1.0 s', which is not a GTP "
                                                  r"response \(it must start with '=' or '\?'; gtp.chatter_lines"):
        strict.expect("genmove w", 1.0)
    short = GtpClient(ScriptTransport([*stats, "= c3", ""]), "engine 'e'", chatter_lines=2)
    with pytest.raises(EngineProtocolError, match="with 'PV: c3 d4' after 2 lines of chatter, which is not a GTP"):
        short.expect("genmove w", 1.0)
    small = GtpClient(ScriptTransport(["x" * 40, "y" * 40, "= c3", ""]), "engine 'e'", chatter_lines=9,
                      chatter_bytes=64)
    with pytest.raises(EngineProtocolError, match="at most 64 bytes"):
        small.expect("genmove w", 1.0)


# --- the strict fakes, one game at a time ----------------------------------------------------------------------------


def row_reversed(*args: str, **settings: object) -> GtpSettings:
    values = {"rows": "flipped", "swap": "genmove", "time_command": "y_param", "command_seconds": 2.0, **settings}
    return GtpSettings(command=(sys.executable, ROW_REVERSED, "--time-scale", "0", *args), **values, game=get_game("y"))  # type: ignore


def white_first(*args: str, **settings: object) -> GtpSettings:
    values = {"first_color": "white", "time_command": "morat", "chatter_lines": 10, "command_seconds": 2.0,
              **settings}
    return GtpSettings(command=(sys.executable, WHITE_FIRST, "--time-scale", "0", *args), **values, game=get_game("y"))  # type: ignore


def play_both_seats(settings: GtpSettings, board: str = "tri:7", rules: Rules = Rules()) -> list:
    bot = GtpBot(settings)
    try:
        records = []
        for seed in (1, 2):
            seats = [Seat("engine", bot), Seat("random", RandomBot(seed=seed, swap_rate=0.5))]
            for order in (seats, seats[::-1]):
                records.append(play_game(order, board, rules, time_control=FAST, seed=seed))
        return records
    finally:
        bot.close()


def test_row_reversed_engine_plays_by_config_and_hears_its_time_command(tmp_path: Path) -> None:
    log = tmp_path / "log"
    records = play_both_seats(row_reversed("--log", str(log)))
    assert [r.termination for r in records] == [CONNECTION] * 4, [r.reason for r in records]
    lines = log.read_text().splitlines()
    assert lines.count("y_param max_time 0.3") == 4  # once per game: the move time does not change
    assert all(line.startswith(("play b ", "play w ")) for line in lines if line.startswith("play"))


def test_row_reversed_engine_told_our_notation_refuses_it_or_answers_off_our_board() -> None:
    records = play_both_seats(row_reversed(rows="normal"))
    assert {r.termination for r in records} <= {Termination.PROTOCOL, Termination.ILLEGAL}
    reasons = " ".join(r.reason for r in records)
    assert "? invalid vertex" in reasons or "is not a cell of board 'tri:7'" in reasons


def test_white_first_engine_plays_by_config_and_hears_its_time_command(tmp_path: Path) -> None:
    log = tmp_path / "log"
    records = play_both_seats(white_first("--log", str(log), "--stats", "5"))
    assert [r.termination for r in records] == [CONNECTION] * 4, [r.reason for r in records]
    lines = log.read_text().splitlines()
    assert lines.count("time -m 0.3 -g 0 -f 0") == 4
    first_plays = [line for line in lines if line.startswith("play")][:1]
    assert first_plays and first_plays[0].startswith("play w ")  # our Black's first stone is its white


@pytest.mark.parametrize(("settings", "expected"), [
    ({"first_color": "black"}, r"refused 'play [bw] [a-g]\d': \? It's (white|black)'s turn"),
    ({"chatter_lines": 0}, r"answered 'genmove [bw]' with 'Think time: 0.30 s', which is not a GTP response"),
])
def test_white_first_engine_with_a_wrong_dialect_loses_by_protocol(settings: dict, expected: str) -> None:
    records = play_both_seats(white_first(**settings))
    assert {r.termination for r in records} == {Termination.PROTOCOL}
    assert all(re.search(expected, r.reason) for r in records), [r.reason for r in records]


def test_game_clock_changes_the_move_time_sent_before_genmove(tmp_path: Path) -> None:
    log = tmp_path / "log"
    # the engine spends a tenth of each move time it is given, so its clock runs down and the share changes (with no
    # time spent a quiet machine kept the clock at 6.0 s all game and the time was sent once)
    bot = GtpBot(white_first("--log", str(log), "--time-scale", "0.1"))
    try:
        clock = TimeControl(game_seconds=6.0, increment=0.0, grace_seconds=1.0)
        record = play_game([Seat("engine", bot), Seat("random", RandomBot(seed=3))], "tri:9", Rules(pie=False),
                           time_control=clock, seed=3)
        assert record.termination is CONNECTION, record.reason
    finally:
        bot.close()
    sent = [line for line in log.read_text().splitlines() if line.startswith("time -m")]
    assert len(sent) >= 2 and len(set(sent)) == len(sent)  # sent again whenever the share of the clock changes


# --- swap_style: an engine that recolours the first stone on `swap` (HexGUI's convention, Hayward's engine) --------


def swap_games(settings: GtpSettings, seeds: tuple[int, ...] = (1, 2, 3)) -> list:
    """Games in which a swap happens every time: the random bot swaps the engine's first stone, and the engine (told
    `--swap always`) swaps the random bot's."""
    bot = GtpBot(settings)
    try:
        records = []
        for seed in seeds:
            engine, opponent = Seat("engine", bot), Seat("random", RandomBot(seed=seed, swap_rate=1.0))
            for order in ([engine, opponent], [opponent, engine]):
                records.append(play_game(order, "tri:7", Rules(), time_control=FAST, seed=seed))
        return records
    finally:
        bot.close()


def test_a_recolouring_engine_plays_clean_games_with_swap_style_recolor(tmp_path: Path) -> None:
    log = tmp_path / "log"
    records = swap_games(row_reversed("--swap-style", "recolor", "--swap", "always", "--log", str(log),
                                      swap_style="recolor"))
    assert [r.termination for r in records] == [CONNECTION] * 6, [r.reason for r in records]
    assert all(r.moves[1] == "swap" for r in records)
    # After `play w swap` the engine's Black moves next: its colour words are ours exchanged from the swap on.
    lines = [line for line in log.read_text().splitlines() if line.startswith(("play", "genmove"))]
    after = [lines[i + 1] for i, line in enumerate(lines[:-1]) if line == "play w swap"]
    assert after and all(line.startswith(("genmove b", "play b")) for line in after)


def test_a_recolouring_engine_told_exchange_loses_and_the_fault_names_swap_style() -> None:
    records = swap_games(row_reversed("--swap-style", "recolor", "--swap", "always"), seeds=(1,))
    first, second = records  # the engine moved first (we swapped it), then second (it swapped us)
    assert first.termination is Termination.FORFEIT and first.loser_name == "engine"
    assert re.search(r"resigned right after a swap: check gtp.swap_style \(now 'exchange'; 'recolor' when the engine "
                     r"changes the first stone's colour", first.reason), first.reason
    assert second.termination is Termination.PROTOCOL and second.loser_name == "engine"
    assert "refused 'play w" in second.reason and "check gtp.swap_style (now 'exchange'" in second.reason
    for record in records:
        hint = swap_style_hint(record.moves, record.termination, record.reason, row_reversed())
        assert hint.startswith("the engine went wrong right after a swap: check gtp.swap_style (now 'exchange';")


def test_an_exchanging_engine_told_recolor_loses_and_the_fault_names_swap_style() -> None:
    records = swap_games(row_reversed("--swap", "always", swap_style="recolor"), seeds=(1,))
    assert {r.termination for r in records} == {Termination.PROTOCOL}, [r.reason for r in records]
    assert all("check gtp.swap_style (now 'recolor'; 'exchange' when" in r.reason for r in records)


def test_swap_style_hint_only_for_faults_soon_after_a_swap() -> None:
    settings = row_reversed()
    protocol, connection = Termination.PROTOCOL, CONNECTION
    refused = "engine 'e' refused 'play w d4': ? inconsistent colour: black should play now"
    assert swap_style_hint(["c3", "swap", "d4"], protocol, refused, settings)
    assert swap_style_hint(["c3", "swap"], Termination.FORFEIT, "engine 'e' resigned", settings)
    assert swap_style_hint(["c3", "swap"], Termination.ILLEGAL, "engine 'e' answered 'c3' to 'genmove b', a cell "
                           "that is already occupied", settings)
    for termination, reason in [  # faults a swap style never causes, right after a swap
            (Termination.ILLEGAL, "engine 'e' answered 'pass' to 'genmove b'; Y has no passing"),
            (protocol, "engine 'e' answered 'genmove b' with '\\x00\\x01', which is not a cell"),
            (protocol, "engine 'e' answered 'genmove b' with nothing: an empty '=' names no move"),
            (protocol, "engine 'e' answered 'genmove b' with more than 65536 bytes"),
            (protocol, "engine 'e' refused 'play w d4': ? illegal move"),
            (Termination.CRASH, "engine 'e' exited with code 1 while answering 'genmove b'")]:
        assert not swap_style_hint(["c3", "swap"], termination, reason, settings), reason
    assert not swap_style_hint(["c3", "swap"], Termination.FORFEIT, "engine 'e' resigned",
                               row_reversed(swap="none"))  # never told of the swap
    assert not swap_style_hint(["c3", "swap", "d4"], connection, "", settings)  # a clean game
    assert not swap_style_hint(["c3", "d4", "e2"], protocol, refused, settings)  # no swap
    assert not swap_style_hint(["c3", "swap", *["a1"] * 10], protocol, refused, settings)  # much later
    assert "now 'recolor'; 'exchange' when" in swap_style_hint(["c3", "swap"], protocol, refused,
                                                                row_reversed(swap_style="recolor"))


def test_recolor_needs_an_engine_that_hears_of_swaps() -> None:
    with pytest.raises(ConfigError, match=r"swap_style 'recolor' .* with gtp.swap 'none' it never hears of a swap"):
        GtpBot(row_reversed(swap="none", swap_style="recolor")).new_game(parse_board("tri:5"), Rules(), Color.BLACK)


def test_recolor_colour_names_after_a_swap() -> None:
    assert to_engine_color(Color.WHITE, "black", recolored=True) == "b"
    assert to_engine_color(Color.WHITE, "white", recolored=True) == "w"
    for color in Color:
        for first in ("black", "white"):
            for recolored in (False, True):
                assert from_engine_color(to_engine_color(color, first, recolored), first, recolored) is color
    assert engine_colors_flipped("recolor", True) and not engine_colors_flipped("recolor", False)
    assert not engine_colors_flipped("exchange", True)


# --- the ready-made snippets play the fakes in small tournaments -----------------------------------------------------


def in_process(context: TournamentContext, workers: int) -> InProcessExecutor:
    return InProcessExecutor(context)


def snippet(name: str, command: list[str]) -> str:
    """A snippet with its command filled in, made small and fast for a test run."""
    text = (SNIPPETS / name).read_text()
    assert text.count("command: []") == 1
    text = text.replace("command: []", f"command: {json.dumps(command)}")
    text = re.sub(r"games_per_pair: \d+", "games_per_pair: 4", text)
    text = text.replace("tri:11", "tri:7").replace("mcts:playouts=1000", "mcts:playouts=50")
    return re.sub(r"time: \{[^}]*\}", "time: {move_seconds: 1.0, grace_seconds: 1.0}", text)


@pytest.mark.parametrize(("name", "fake", "expected"), [
    ("hayward-y.yaml", "fake_row_reversed.py", {"rows": "flipped", "first_color": "black", "swap": "genmove",
                                      "time_command": "y_param", "chatter_lines": 0}),
    ("morat-y.yaml", "fake_white_first.py", {"rows": "normal", "first_color": "white", "swap": "none",
                                   "time_command": "morat", "chatter_lines": 100}),
])
def test_snippet_parses_once_its_command_is_filled_in(name: str, fake: str, expected: dict) -> None:
    fake = str(FAKES / fake)
    text = (SNIPPETS / name).read_text()
    with pytest.raises(ConfigError, match=r"players\[0\]\.gtp\.command: expected the engine.s program and arguments.*found an empty list"):
        parse_config(text, str(SNIPPETS / name), SNIPPETS)
    config = parse_config(text.replace("command: []", f"command: [{sys.executable}, {fake}]"), str(SNIPPETS / name),
                          SNIPPETS)
    settings = config.players[0].spec.gtp
    assert settings is not None and settings.command == (sys.executable, fake)
    assert {key: getattr(settings, key) for key in expected} == expected


@pytest.mark.parametrize(("name", "fake", "extra"), [
    ("hayward-y.yaml", "fake_row_reversed.py", ["--time-scale", "0.02", "--seed", "5", "--swap-style", "recolor"]),
    ("morat-y.yaml", "fake_white_first.py", ["--time-scale", "0.02", "--seed", "5", "--stats", "4"]),
])
def test_our_bots_play_a_tournament_against_each_fake_family(name: str, fake: str, extra: list[str],
                                                            tmp_path: Path) -> None:
    text = snippet(name, [sys.executable, str(FAKES / fake), *extra])
    config = parse_config(text, str(tmp_path / name), tmp_path)
    summary = Runner(config, tmp_path / "out", executor_factory=in_process).run()
    assert summary.complete and summary.stored == 12
    records = load_records(tmp_path / "out")
    engine = config.players[0].name
    assert all(r.termination is CONNECTION for r in records), [r.reason for r in records]
    assert all(engine in (r.black, r.white) for r in records)
    assert collections.Counter(r.first == engine for r in records) == {True: 6, False: 6}
    assert {r.winner_name for r in records} >= {engine}
    if config.players[0].spec.gtp.swap == "genmove":  # the engine took the pie at least once by answering `swap`
        assert any(r.moves[1] == "swap" and r.first != engine and r.black == engine for r in records)


def test_snippets_name_no_machine_paths() -> None:
    for path in SNIPPETS.glob("*.yaml"):
        text = path.read_text()
        assert not re.search(r"(/home|/usr|/opt|[A-Z]:\\\\)", text), path
        assert text.count("command: []") == 1


def test_default_time_command_costs_one_refusal_then_falls_back_to_y_param(tmp_path: Path) -> None:
    """Hayward's engine knows `time_left` of one argument only: under the default `time_command: gtp` the first
    refusal drops it for the engine's life, and the move time reaches it as `y_param max_time` instead of it
    searching its own default time."""
    log = tmp_path / "log"
    # real sleeps: its default 1 s overruns the 0.8 s allowed; told 0.3 s it searches its minimum, 0.5 s
    bot = GtpBot(GtpSettings(command=(sys.executable, ROW_REVERSED, "--time-scale", "1", "--swap", "never", "--log", str(log)),
                             rows="flipped", swap="genmove", command_seconds=2.0, game=get_game("y")))  # type: ignore[arg-type]
    try:
        seats = [Seat("engine", bot), Seat("random", RandomBot(seed=1))]
        records = [play_game(order, "tri:5", Rules(pie=False), time_control=FAST, seed=1)
                   for order in (seats, seats[::-1])]
    finally:
        bot.close()
    assert [r.termination for r in records] == [CONNECTION] * 2, [r.reason for r in records]
    lines = log.read_text().splitlines()
    assert [line for line in lines if line.startswith("time_left")] == ["time_left b 1 1"]  # refused once, dropped
    assert lines.count("y_param max_time 0.3") == 2  # once per game, from the first move on
