"""The GTP server around our bots: framing, every command, bad input, the pie, handicap and time, the CLI."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from dataclasses import dataclass

import pytest

from ytourney import __version__
from ytourney.boards.board import Board, BoardKind, parse_board
from ytourney.errors import BoardSpecError, ConfigError, IllegalMoveError, NotationError
from ytourney.games.views import GameViews
from ytourney.games.api import PASS, Color, Game, Move, MoveKind, Outcome, RuleOption, Termination
from ytourney.games.registry import GAMES, get_game
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import GameState
from ytourney.players import BaseBot, Limit
from ytourney.players.gtp.server import GtpServer
from ytourney.games.y.state import CONNECTION

SERVE = "import sys; from ytourney.cli import main; sys.exit(main())"


class SpyBot(BaseBot):
    """Plays the first empty cell (or a scripted one), swaps when told to, and remembers what it was given."""

    name = "spy"

    def __init__(self, swap: bool = False, moves: list[int] = ()) -> None:
        super().__init__()
        self.wants_swap = swap
        self.moves = list(moves)
        self.limits: list[Limit] = []
        self.games: list[tuple[str, Rules, Color]] = []
        self.closed = False

    def new_game(self, board, rules, color) -> None:
        super().new_game(board, rules, color)
        self.games.append((board.spec, rules, color))

    def move(self, state: GameState, limit: Limit) -> int:
        self.limits.append(limit)
        return self.moves.pop(0) if self.moves else state.empty_cells()[0]

    def swap(self, state: GameState, limit: Limit) -> bool:
        return self.wants_swap

    def close(self) -> None:
        self.closed = True


def ask(server: GtpServer, *lines: str) -> list[str]:
    """The framed responses to `lines`, with the blank line ending each stripped off."""
    answers = []
    for line in lines:
        response = server.handle(line)
        assert response is not None and response.endswith("\n\n")
        answers.append(response[:-2])
    return answers


def test_framing_ids_comments_and_unknown_commands() -> None:
    server = GtpServer(SpyBot(), "tri:5", game=get_game("y"))
    assert server.handle("") is None and server.handle("   # only a comment") is None
    assert ask(server, "protocol_version", "7 name", "8\tversion # trailing comment") == [
        "= 2", "=7 ytourney-spy", f"=8 {__version__}"
    ]
    assert ask(server, "12 frobnicate", "13", "KNOWN_COMMAND genmove", "known_command foo") == [
        "?12 unknown command", "?13 missing command", "= true", "= false"
    ]
    assert ask(server, "list_commands")[0].split("\n") == ["= protocol_version", *server.commands[1:]]
    assert server.handle("quit") == "=\n\n" and server.finished


def test_board_setup_and_play_validation() -> None:
    server = GtpServer(SpyBot(), "tri:5", game=get_game("y"))
    assert ask(server, "boardsize 30", "boardsize x", "boardsize") == [
        "? unacceptable size", "? unacceptable size", "? syntax error; expected: boardsize N (or boardsize kadon)"
    ]
    assert ask(server, "boardsize 4", "komi 6.5", "play b a1", "play b z9", "play w a1", "play w b1") == [
        "=", "=", "=", "? invalid vertex 'z9' on tri:4", "? illegal move: cell 'a1' is already occupied by black", "="
    ]
    assert ask(server, "play w a2", "play x a2", "play w", "komi lots") == [
        "? white is not to move; black is",
        "? invalid color 'x'; expected b, w, black or white",
        "? syntax error; expected: play COLOR VERTEX",
        "? komi 'lots' is not a number",
    ]
    assert server.state.board.spec == "tri:4" and len(server.state.moves) == 2
    assert ask(server, "clear_board") == ["="] and not server.state.moves


def test_an_error_answer_is_capped_not_a_huge_bad_move_echoed_whole() -> None:
    (answer,) = ask(GtpServer(SpyBot(), "tri:5", game=get_game("y")), "play b " + "z" * 16_000)
    assert answer.startswith("? invalid vertex 'zzz") and "more characters]" in answer and len(answer) < 1100


def test_play_and_genmove_carry_a_game_to_its_end() -> None:
    bot = SpyBot()
    server = GtpServer(bot, "tri:3", Rules(pie=False), game=get_game("y"))
    assert ask(server, "clear_board", "play b a1", "genmove w") == ["=", "=", "= b1"]
    assert bot.games == [("tri:3", Rules(pie=False), Color.WHITE)]
    assert ask(server, "play b a2", "genmove w", "play b a3") == ["=", "= c1", "="]
    assert server.state.is_over and server.state.winner is Color.BLACK
    assert ask(server, "genmove w", "play w b2") == ["? game is over: black has won"] * 2
    board = ask(server, "showboard")[0]
    assert board.startswith("= \n") and "X" in board and "black has won" in board


def test_rejects_out_of_turn_commands() -> None:
    server = GtpServer(SpyBot(), "tri:5", game=get_game("y"))
    assert ask(server, "genmove w", "play w a1") == ["? white is not to move; black is"] * 2


def test_genmove_answers_swap_when_the_bot_takes_the_pie() -> None:
    bot = SpyBot(swap=True)
    server = GtpServer(bot, "tri:5", game=get_game("y"))
    assert ask(server, "play b c2", "genmove w") == ["=", "= swap"]
    assert server.state.swapped and server.state.to_move is Color.WHITE
    assert ask(server, "genmove w") == ["= a1"]  # stones keep their colour: White moves after the swap


def test_play_swap_is_accepted_only_where_the_rules_allow_it() -> None:
    server = GtpServer(SpyBot(), "tri:5", game=get_game("y"))
    assert ask(server, "play w swap", "play b c2", "play b swap", "play w swap", "play w swap") == [
        "? white is not to move; black is",
        "=",
        "? black is not to move; white is",
        "=",
        "? illegal move: swap is only allowed as the second action of the game",
    ]


def test_rules_extension_turns_the_pie_off_and_misere_on() -> None:
    bot = SpyBot(swap=True)
    server = GtpServer(bot, "tri:5", game=get_game("y"))
    assert ask(server, "ytourney-rules pie=off misere=on", "play b c2", "genmove w") == ["=", "=", "= a1"]
    assert bot.games[-1][1] == Rules(pie=False, misere=True)
    assert ask(server, "ytourney-rules pie=maybe") == [
        "? bad rule 'pie=maybe'; expected pie=on|off, misere=on|off, genmove_swap=on|off "
        "(KEY=default resets a rule)"
    ]
    # A controller that decides the pie itself keeps the pie (play w swap is accepted) but no genmove swaps.
    assert ask(server, "ytourney-rules pie=on misere=off genmove_swap=off", "clear_board", "play b c2", "genmove w",
               "clear_board", "play b c2", "play w swap") == ["=", "=", "=", "= a1", "=", "=", "="]


def test_consecutive_black_stones_make_a_handicap_turn() -> None:
    bot = SpyBot()
    server = GtpServer(bot, "tri:5", game=get_game("y"))
    assert ask(server, "play b c2", "play b c3", "genmove b", "genmove w") == ["=", "=", "= a1", "= b1"]
    assert server.state.handicap == 3 and not server.state.pie_active
    assert ask(server, "genmove b", "play b a2") == ["= c1", "? black is not to move; white is"]


def test_time_commands_become_the_bots_limit() -> None:
    bot = SpyBot()
    server = GtpServer(bot, "tri:6", game=get_game("y"))
    ask(server, "time_settings 0 2 1", "genmove b")
    assert bot.limits[-1] == Limit(seconds=pytest.approx(1.6))
    ask(server, "time_settings 60 0 0", "time_left w 30 0", "genmove w")
    assert bot.limits[-1].remaining == 30 and bot.limits[-1].seconds == pytest.approx(1.5)
    ask(server, "kgs-time_settings fischer 60 2", "time_left b 10 0", "genmove b")
    assert bot.limits[-1].increment == 2 and bot.limits[-1].seconds == pytest.approx(0.5 + 1.6)
    ask(server, "kgs-time_settings none", "genmove w")
    assert bot.limits[-1] == Limit()
    assert ask(server, "time_settings 1 2", "time_left b -3 0", "kgs-time_settings hourglass 3") == [
        "? syntax error; expected: time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES",
        "? time '-3' must be a number from 0 to 1e+07",
        "? unknown time system 'hourglass'",
    ]


def test_bot_failures_are_reported_and_the_server_stays_up() -> None:
    class Broken(SpyBot):
        def move(self, state: GameState, limit: Limit) -> int:
            raise RuntimeError("out of memory")

    server = GtpServer(Broken(), "tri:4", game=get_game("y"))
    assert ask(server, "genmove b") == ["? bot failed: RuntimeError: out of memory"]
    server = GtpServer(SpyBot(moves=[0, 0]), "tri:4", game=get_game("y"))
    assert ask(server, "genmove b", "genmove w", "name") == [
        "= a1", "? bot answered an illegal move: cell 'a1' is already occupied by black", "= ytourney-spy"]


def test_kadon_board_by_boardsize() -> None:
    server = GtpServer(SpyBot(), "tri:5", game=get_game("y"))
    assert ask(server, "boardsize kadon", "play b E5", "genmove w") == ["=", "=", "= A1"]


def test_serve_runs_until_quit_and_closes_the_bot() -> None:
    bot = SpyBot()
    out = io.StringIO()
    GtpServer(bot, "tri:4", game=get_game("y")).serve(io.StringIO("boardsize 4\n\n1 genmove b\nquit\nname\n"), out)
    assert out.getvalue() == "=\n\n=1 a1\n\n=\n\n"
    assert bot.closed


def test_serve_stops_quietly_when_the_controller_goes_away() -> None:
    class Gone(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    bot = SpyBot()
    GtpServer(bot, "tri:4", game=get_game("y")).serve(io.StringIO("name\nname\n"), Gone())
    assert bot.closed


def test_cli_serves_a_builtin_bot_over_stdin_and_stdout() -> None:
    script = "boardsize 5\nplay b c2\ngenmove w\nshowboard\nquit\n"
    done = subprocess.run([sys.executable, "-c", SERVE, "gtp", "random", "--seed", "1", "--board", "tri:7"],
                          input=script, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    answers = done.stdout.split("\n\n")
    assert answers[:2] == ["=", "="] and answers[2].startswith("= ")
    assert "tri:5, 2 moves" in answers[3] and answers[4] == "="
    bad = subprocess.run([sys.executable, "-c", SERVE, "gtp", "nosuchbot"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode != 0 and "unknown bot 'nosuchbot'" in bad.stderr and bad.stdout == ""


# --- dialects, results and undo --------------------------------------------------------------------------------------


def test_flipped_rows_name_cells_from_the_top_corner() -> None:
    server = GtpServer(SpyBot(), "tri:7", rows="flipped", game=get_game("y"))
    assert ask(server, "play b d6", "play w e1", "play w a1", "genmove b") == [
        "=", "? invalid vertex 'e1' on tri:7", "=", "= a7"
    ]
    board = server.state.board
    assert [board.names[m] for m in server.state.moves] == ["d2", "a7", "a1"]  # their a1 is our top corner
    rows = ask(server, "showboard")[0].split("\n")
    assert rows[1].split() == ["1", "O"] and rows[8].strip().startswith("a b c")  # the top corner is their row 1
    assert rows[6].split() == ["6", ".", ".", ".", "X", ".", "."] and rows[7].split()[:2] == ["7", "X"]


def test_white_first_names_the_first_mover_white() -> None:
    bot = SpyBot()
    server = GtpServer(bot, "tri:5", first_color="white", game=get_game("y"))
    assert ask(server, "play b a1", "play w c2", "genmove b", "genmove b", "play w b2") == [
        "? black is not to move; white is", "=", "= a1", "? black is not to move; white is", "="
    ]
    assert server.state.moves[0] == server.board.index_of("c2") and server.state.to_move is Color.WHITE
    assert bot.games[-1][2] is Color.WHITE  # our colour: it played the second stone
    assert "black to move (X white, O black)" in ask(server, "showboard")[0]


@pytest.mark.parametrize(("first_color", "winner", "score"), [("black", "black", "B+"), ("white", "white", "W+")])
def test_winner_and_final_score_once_a_y_is_complete(first_color: str, winner: str, score: str) -> None:
    first, second = ("b", "w") if first_color == "black" else ("w", "b")
    server = GtpServer(SpyBot(), "tri:3", Rules(pie=False), first_color=first_color, game=get_game("y"))
    assert ask(server, "winner", "final_score") == ["? game is not over: no player has won yet"] * 2
    ask(server, f"play {first} a1", f"play {second} b1", f"play {first} a2", f"play {second} b2")
    assert ask(server, f"play {first} a3", "winner", "final_score") == ["=", f"= {winner}", f"= {score}"]
    assert ask(server, "undo", "winner", f"play {first} a3", "final_score") == [
        "=", "? game is not over: no player has won yet", "=", f"= {score}"
    ]


def test_undo_takes_back_moves_swaps_and_handicap_stones() -> None:
    server = GtpServer(SpyBot(), "tri:5", game=get_game("y"))
    assert ask(server, "undo") == ["? cannot undo: no moves"]
    ask(server, "play b c2", "play w swap", "play w a1")
    assert ask(server, "undo", "undo") == ["=", "="] and len(server.state.moves) == 1 and server.state.can_swap()
    assert ask(server, "play w b1", "undo", "undo") == ["=", "=", "="] and not server.state.moves
    ask(server, "play b c2", "play b c3", "play b a1")
    assert server.state.handicap == 3
    assert ask(server, "undo") == ["="] and server.state.handicap == 2 and server.state.to_move is Color.WHITE
    assert ask(server, "undo") == ["="] and server.state.handicap == 0 and server.state.can_swap()


def test_new_commands_are_known_and_listed() -> None:
    server = GtpServer(SpyBot(), "tri:5", game=get_game("y"))
    for command in ("undo", "winner", "final_score", "showboard", "time_settings", "time_left", "known_command"):
        assert ask(server, f"known_command {command}") == ["= true"]
        assert command in ask(server, "list_commands")[0].split("\n")


@pytest.mark.parametrize("rows", ["normal", "flipped"])
@pytest.mark.parametrize("first_color", ["black", "white"])
def test_our_client_plays_our_server_in_every_dialect(rows: str, first_color: str) -> None:
    from ytourney.players.bots.random_bot import RandomBot
    from ytourney.players.clock import TimeControl
    from ytourney.players.gtp.engine import GtpBot
    from ytourney.players.gtp.settings import GtpSettings
    from ytourney.games.registry import get_game
    from ytourney.tournament.match import Seat, play_game

    command = (sys.executable, "-c", SERVE, "gtp", "random", "--seed", "3", "--rows", rows, "--first-color",
               first_color)
    time_command = "y_param" if rows == "flipped" else "morat" if first_color == "white" else "gtp"
    bot = GtpBot(GtpSettings(command=command, rows=rows, first_color=first_color, swap="genmove",
                             time_command=time_command, game=get_game("y")))
    try:
        for seed in (1, 2):
            seats = [Seat("served", bot), Seat("random", RandomBot(seed=seed, swap_rate=0.5))]
            record = play_game(seats if seed == 1 else seats[::-1], get_game("y"), "tri:6", Rules(), seed=seed,
                               time_control=TimeControl(move_seconds=1.0, grace_seconds=5.0))
            assert record.termination is CONNECTION, record.reason
    finally:
        bot.close()


@pytest.mark.parametrize(("fake", "dialect"), [
    ("fake_row_reversed.py", ["--rows", "flipped"]),
    ("fake_white_first.py", ["--first-color", "white", "--no-pie"]),
])
def test_a_fake_engine_plays_our_server_in_its_own_dialect(fake: str, dialect: list[str]) -> None:
    from pathlib import Path

    from ytourney.players.gtp.client import GtpClient
    from ytourney.players.gtp.settings import GtpSettings
    from ytourney.players.gtp.transport import ProcessTransport

    script = str(Path(__file__).resolve().parents[1] / "fake_engines" / fake)
    theirs = ProcessTransport.start(GtpSettings(command=(sys.executable, script, "--time-scale", "0", "--seed", "4"), game=get_game("y")))
    ours = ProcessTransport.start(GtpSettings(command=(sys.executable, "-c", SERVE, "gtp", "random", "--seed", "4",
                                                       *dialect), game=get_game("y")))
    engines = [GtpClient(theirs, "fake", chatter_lines=10), GtpClient(ours, "ours")]
    try:
        for engine in engines:
            engine.expect("boardsize 7", 10.0)
        word = "w" if "white" in dialect else "b"
        turn, moves = 0, []
        while not engines[1].command("winner", 5.0).ok:
            mover, other = engines[turn], engines[1 - turn]
            move = mover.expect(f"genmove {word}", 10.0)
            other.expect(f"play {word} {move}", 5.0)
            moves.append(move)
            turn = 1 - turn
            word = word if move == "swap" else {"b": "w", "w": "b"}[word]
            assert len(moves) <= 29
        last = {"b": "w", "w": "b"}[word]  # the colour of the stone that completed the Y
        assert engines[1].expect("winner", 5.0) == {"b": "black", "w": "white"}[last]
        assert engines[1].expect("final_score", 5.0) == f"{last.upper()}+"
        assert not engines[0].command(f"genmove {word}", 5.0).ok  # the fake sees the same finished game
    finally:
        for engine in engines:
            engine.transport.close(wait=1.0)


def test_the_engine_families_time_commands_become_the_bots_limit() -> None:
    bot = SpyBot()
    server = GtpServer(bot, "tri:6", game=get_game("y"))
    ask(server, "y_param max_time 2", "genmove b")
    assert bot.limits[-1] == Limit(seconds=pytest.approx(1.6))
    ask(server, "time -m 0.5 -g 0 -f 0", "genmove w")
    assert bot.limits[-1] == Limit(seconds=pytest.approx(0.4))
    ask(server, "time --game 60 -m 0", "genmove b")
    assert bot.limits[-1].remaining == 60
    assert ask(server, "y_param max_nodes 5", "y_param max_time", "time -m", "time -q 3", "time -m soon") == [
        "? unknown parameter 'max_nodes'; expected max_time",
        "? syntax error; expected: y_param max_time SECONDS",
        "? syntax error; expected: time -m MOVE -g GAME -f FLEXIBLE [-i INCREMENT]",
        "? unknown time option '-q'; expected -m, -g, -f or -i",
        "? move time 'soon' is not a number",
    ]


def test_no_argument_takes_the_server_down() -> None:
    server = GtpServer(SpyBot(), "tri:5", game=get_game("y"))
    answers = ask(server, "time_left b 10 \u00b2", "name")
    assert answers[0].startswith("?") and answers[1] == "= ytourney-spy"


def test_showboard_counts_one_move_and_names_every_kadon_row() -> None:
    server = GtpServer(SpyBot(), "kadon", game=get_game("y"))
    board = ask(server, "play b E5", "showboard")[1]
    assert "kadon, 1 move, white to move" in board
    rows = board.split("\n")[1:-1]
    assert [row.split()[-1] for row in rows] == ["A9-E9", "A8-J8", "A7-K7", "A6-L6", "A5-M5", "A4-L4", "A3-K3",
                                                 "A2-J2", "A1-I1"]
    assert rows[4].split()[1:6] == [".", ".", ".", ".", "X"]  # E5: the fifth cell of row 5
    assert "tri:5, 0 moves" in ask(GtpServer(SpyBot(), "tri:5", game=get_game("y")), "showboard")[0]


@pytest.mark.parametrize("name", ["tetra", "aliens-amazons"])
def test_showboard_keeps_the_lines_a_game_adds_under_its_kadon_diagram(name: str) -> None:
    from ytourney.players.bots.random_bot import RandomBot

    answer = ask(GtpServer(RandomBot(seed=1), "kadon", game=get_game(name)), "showboard")[0]
    assert answer.startswith("= ")
    lines = answer.split("\n")[1:]
    assert [line.split()[-1] for line in lines[:9]][::8] == ["A9-E9", "A1-I1"]
    assert lines[9].startswith(("in hand: black 10", "Amazons (X): 30 in hand"))  # the game's own line, kept
    assert lines[10].startswith("kadon, 0 moves")


@pytest.mark.parametrize(("name", "rule", "expected"), [
    ("quinta", "max_plies=5", "max_plies >= 20 and <= 1000000"),
    ("quinta", "max_plies=-1", "max_plies >= 20 and <= 1000000"),
    ("aliens-amazons", "threshold=1000", "threshold >= 1 and <= 60"),
])
def test_ytourney_rules_checks_a_rules_range_as_a_config_does(name: str, rule: str, expected: str) -> None:
    from ytourney.players.bots.random_bot import RandomBot

    server = GtpServer(RandomBot(seed=1), "kadon", game=get_game(name))
    before = server.rules
    assert ask(server, f"ytourney-rules {rule}") == [f"? bad rule {rule!r}; expected {expected}"]
    assert server.rules == before


# --- any game: moves in the game's own notation ----------------------------------------------------------------------


@dataclass(frozen=True)
class StepRules:
    max_plies: int = 6

    def to_dict(self) -> dict[str, int]:
        return {"max_plies": self.max_plies}


class StepState:
    """A tiny movement game for these tests: one stone each (Black on a1, White on the top corner), a move steps it
    to an empty neighbour or passes; a draw by move limit after `max_plies` plies."""

    swapped = False
    handicap = 0

    def __init__(self, game: Game, board: Board, rules: StepRules) -> None:
        self.game, self.board, self.rules = game, board, rules
        self._cells = [0] * board.num_cells
        self._cells[0], self._cells[-1] = Color.BLACK, Color.WHITE
        self._history: list[Move] = []

    to_move = property(lambda self: Color.BLACK if len(self._history) % 2 == 0 else Color.WHITE)
    history = property(lambda self: tuple(self._history))
    cells = property(lambda self: tuple(self._cells))
    is_over = property(lambda self: self.outcome is not None)

    @property
    def outcome(self) -> Outcome | None:
        return Outcome(None, Termination.MOVE_LIMIT) if len(self._history) >= self.rules.max_plies else None

    def seat_to_move(self) -> int:
        return 0 if self.to_move is Color.BLACK else 1

    def color_of_seat(self, seat: int) -> Color:
        return Color.BLACK if seat == 0 else Color.WHITE

    def can_swap(self) -> bool:
        return False

    def legal_moves(self) -> list[Move]:
        if self.is_over:
            return []
        source = self._cells.index(self.to_move)
        steps = [Move.step(source, n) for n in self.board.neighbors[source] if not self._cells[n]]
        return [*steps, PASS]

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    def play(self, move: Move) -> None:
        if not self.is_legal(move):
            raise IllegalMoveError(f"{move.kind.value} {move.path} is not a legal step here")
        if move.kind is MoveKind.STEP:
            self._cells[move.source], self._cells[move.target] = 0, self._cells[move.source]
        self._history.append(move)

    def copy(self) -> StepState:
        new = StepState(self.game, self.board, self.rules)
        new._cells, new._history = list(self._cells), list(self._history)
        return new


class StepGame(Game):
    name = "steps-test"
    title = "Steps"
    boards_help = "tri:N"
    default_board = "tri:4"
    notation_example = "a1-b1"
    has_pie = False
    rule_options = {"max_plies": RuleOption(int, 6, "plies before the draw")}
    views = GameViews()  # the default views draw its board

    def parse_board(self, spec: str) -> Board:
        board = parse_board(spec)
        if board.kind is not BoardKind.TRI:
            raise BoardSpecError(f"board {spec!r} is not a board of steps; expected tri:N")
        return board

    def parse_rules(self, data: dict | None) -> StepRules:
        return StepRules(**(data or {}))

    def new_state(self, board: Board, rules: StepRules, handicap: int = 0) -> StepState:
        return StepState(self, board, rules)

    def parse_move(self, board: Board, text: str) -> Move:
        word = text.strip().lower()
        if word == "pass":
            return PASS
        nodes = [board.index_of(part) for part in word.split("-")]
        if len(nodes) < 2 or None in nodes:
            raise NotationError(f"{text!r} is not a move of steps (FROM-TO or pass)")
        return Move.step(*nodes) if len(nodes) == 2 else Move.jump(nodes)

    def format_move(self, board: Board, move: Move) -> str:
        return move.kind.value if not move.path else "-".join(board.names[node] for node in move.path)



STEPS = StepGame()


class ServerTransport:
    """Our client talking to our server in this process: each command's response is read back line by line."""

    pid = None

    def __init__(self, server: GtpServer) -> None:
        self.server = server
        self.lines: list[str] = []
        self.sent: list[str] = []

    def send(self, line: str) -> None:
        self.sent.append(line)
        self.lines.extend((self.server.handle(line) or "").split("\n")[:-1])

    def receive(self, timeout: float) -> str | None:
        if not self.lines:
            raise TimeoutError
        return self.lines.pop(0)

    def exit_code(self) -> int | None:
        return None

    def stderr_tail(self) -> list[str]:
        return []

    def close(self, wait: float) -> None:
        self.server.finished = True


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> StepGame:
    monkeypatch.setitem(GAMES, STEPS.name, f"{__name__}:STEPS")
    return STEPS


def test_the_server_speaks_any_games_notation(steps: StepGame) -> None:
    bot = SpyBot()
    bot.move = lambda state, limit: state.legal_moves()[0]  # type: ignore[method-assign]
    server = GtpServer(bot, game=steps)
    assert server.board.spec == "tri:4" and server.rules == StepRules()
    assert ask(server, "play b a1-b1", "genmove w", "play b pass", "play w a1", "play w a4-b1", "play w a4") == [
        "=", "= a4-a3", "=", "? invalid vertex 'a1' on tri:4",
        "? illegal move: step (9, 1) is not a legal step here", "? invalid vertex 'a4' on tri:4",
    ]
    assert [steps.format_move(server.board, m) for m in server.state.history] == ["a1-b1", "a4-a3", "pass"]
    assert ask(server, "ytourney-rules max_plies=4", "ytourney-rules max_plies=x") == [
        "=", "? bad rule 'max_plies=x'; expected max_plies=N, genmove_swap=on|off (KEY=default resets a rule)"]
    assert ask(server, "genmove w", "winner", "final_score", "genmove b") == [
        "= a3-b3", "= draw", "= 0", "? game is over: drawn"]
    assert ask(server, "boardsize 5", "boardsize kadon") == ["=", "? unacceptable size"]


def test_our_client_plays_any_game_with_our_server(steps: StepGame) -> None:
    from ytourney.players.bots.random_bot import RandomBot
    from ytourney.players.gtp.engine import GtpBot
    from ytourney.players.gtp.settings import GtpSettings
    from ytourney.tournament.match import Seat, play_game

    transports: list[ServerTransport] = []

    def factory(settings: GtpSettings) -> ServerTransport:
        transports.append(ServerTransport(GtpServer(RandomBot(seed=4), game=steps)))
        return transports[-1]

    bot = GtpBot(GtpSettings(command=("served",), game=steps), transport_factory=factory)
    try:
        for order in ((0, 1), (1, 0)):
            seats = [Seat("served", bot), Seat("random", RandomBot(seed=5))]
            record = play_game([seats[i] for i in order], steps, "tri:4", StepRules(max_plies=8), seed=1)
            assert record.termination is Termination.MOVE_LIMIT and record.winner is None, record.reason
            assert record.game == steps.name and len(record.moves) == 8
            assert all(move == "pass" or re.fullmatch(r"[a-d][1-4]-[a-d][1-4]", move) for move in record.moves)
    finally:
        bot.close()
    sent = transports[0].sent
    assert "ytourney-rules max_plies=8 genmove_swap=off" in sent
    assert any(re.fullmatch(r"play [bw] [a-d][1-4]-[a-d][1-4]", line) for line in sent)
    assert all(isinstance(move, Move) for move in transports[0].server.state.history)


def test_an_engine_of_one_game_seated_in_another_says_so(steps: StepGame) -> None:
    from ytourney.players.gtp.engine import GtpBot
    from ytourney.players.gtp.settings import GtpSettings

    bot = GtpBot(GtpSettings(command=("served",), game=get_game("y")), transport_factory=lambda s: ServerTransport(GtpServer(SpyBot(), game=get_game("y"))))
    with pytest.raises(ConfigError, match=r"plays 'y' \(gtp.game\) but was seated in a game of 'steps-test'; set "
                                          r"gtp.game: steps-test"):
        bot.move(STEPS.new_state(parse_board("tri:4"), StepRules()), Limit())


def test_flipped_rows_rename_every_cell_of_a_move(steps: StepGame) -> None:
    from ytourney.players.gtp.dialect import from_engine_move, to_engine_move

    board = parse_board("tri:4")
    a1, b1, a4 = (board.index_of(name) for name in ("a1", "b1", "a4"))
    for move, theirs in [(Move.step(a1, b1), "a4-b4"), (Move.jump([a1, b1, a4]), "a4-b4-a1"), (PASS, "pass")]:
        assert to_engine_move(steps, board, move, "flipped") == theirs
        assert from_engine_move(steps, board, theirs, "flipped") == move
        assert from_engine_move(steps, board, steps.format_move(board, move)) == move


def test_dialect_options_that_do_not_fit_the_game_are_refused(steps: StepGame) -> None:
    from ytourney.players.gtp.server import gtp_server
    from ytourney.players.gtp.settings import GtpSettings, check_board, check_game

    with pytest.raises(ConfigError, match=r"--rows flipped applies to tri boards only, not to 'kadon'"):
        gtp_server(SpyBot(), get_game("y"), "kadon", rows="flipped")
    server = gtp_server(SpyBot(), get_game("y"), None, pie=False)
    assert server.game.name == "y" and server.board.spec == "tri:11" and server.rules == Rules(pie=False)
    assert gtp_server(SpyBot(), steps).rules == StepRules()
    with pytest.raises(ConfigError, match=r"gtp.game: no game is bound to the engine"):
        check_game(GtpSettings(command=("x",)))
    with pytest.raises(ConfigError, match=r"swap_style 'recolor' needs a game with the pie rule; 'steps-test'"):
        check_game(GtpSettings(command=("x",), game=steps, swap="play", swap_style="recolor"))
    with pytest.raises(ConfigError, match=r"plays 'steps-test' \(gtp.game\), which cannot be played on 'kadon'"):
        check_board(GtpSettings(command=("x",), game=steps, kadon_boardsize="kadon"), parse_board("kadon"))


def test_the_engine_families_time_commands_are_the_games_own(steps: StepGame) -> None:
    from ytourney.games.legacy import legacy_cell
    from ytourney.players.gtp.settings import GtpSettings, check_game

    with pytest.raises(ConfigError, match=r"gtp.time_command 'y_param' is a command of other games' engines; "
                                          r"'steps-test' engines take one of gtp, none"):
        check_game(GtpSettings(command=("x",), game=steps, time_command="y_param"))
    check_game(GtpSettings(command=("x",), game=get_game("y"), time_command="morat"))
    served = GtpServer(SpyBot(), game=steps)
    assert ask(served, "known_command y_param", "y_param max_time 2", "time -m 1") == [
        "= false", "? unknown command", "? unknown command"]
    assert served.commands[-1] == "ytourney-rules" and "y_param" not in served.commands
    assert ask(GtpServer(SpyBot(), game=get_game("y")), "known_command y_param") == ["= true"]
    board = parse_board("tri:3")
    assert legacy_cell(board, 4) == 4 and legacy_cell(board, True) is None and legacy_cell(board, "a1") is None
    with pytest.raises(IllegalMoveError, match="answered cell index 6 outside the board"):
        legacy_cell(board, 6)


def test_a_served_bot_with_the_recolor_dialect_is_asked_for_black_after_a_swap() -> None:
    bot = SpyBot()
    server = GtpServer(bot, "tri:5", swap_style="recolor", game=get_game("y"))
    assert ask(server, "play b c2", "play w swap", "genmove w", "genmove b") == [
        "=", "=", "? white is not to move; black is", "= a1"]
    assert server.state.swapped and server.state.cells[0] == Color.WHITE  # our White: the swapper's opponent
    assert "white to move (X white, O black)" in ask(server, "showboard")[0]  # its names: the first stone is white
    assert ask(server, "play b b1", "play w b1", "undo", "undo", "undo", "play w c3") == [
        "? black is not to move; white is", "=", "=", "=", "=", "="]  # undoing the swap gives the names back
    assert "black to move (X black, O white)" in ask(server, "showboard")[0]
