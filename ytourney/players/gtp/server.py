"""Serve any ytourney bot over GTP on a line stream, so our bots play inside other tools (`ytourney gtp BOT`)."""

from __future__ import annotations

import re
from typing import TextIO

from ytourney import __version__
from ytourney.errors import IllegalMoveError, NotationError, YTourneyError
from ytourney.game.board import Board, BoardKind, parse_board
from ytourney.game.diagram import board_text
from ytourney.game.notation import SWAP, SWAP_TOKEN, move_name
from ytourney.game.rules import Color, Rules
from ytourney.game.state import GameState
from ytourney.players.base import Bot, Limit
from ytourney.players.clock import TimeControl
from ytourney.players.gtp.dialect import (
    from_engine_cell,
    from_engine_color,
    to_engine_cell,
    to_engine_color,
)
from ytourney.players.gtp.settings import FirstColor, RowOrder

# `ytourney-rules pie=on|off misere=on|off genmove_swap=on|off` (an extension GtpBot sends when it is known): the
# game's rules, and whether genmove may answer `swap` (off when the controller decides the pie for the engine).

# Share of a byo-yomi period (seconds per move) a bot is told to spend, leaving room for the controller's overhead.
PERIOD_SHARE = 0.8

COMMANDS = (
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "showboard",
    "undo",
    "winner",
    "final_score",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "y_param",
    "time",
    "ytourney-rules",
)

# The time commands of the two engine families, so their own tools can drive a served bot: `y_param max_time S`
# (Fuego-based Y engines) and `time -m S -g G -f F` (morat's engines); both give S seconds per move.
_TIME_FLAGS = {"-m": "move", "--move": "move", "-g": "game", "--game": "game", "-f": "flexible", "--flexible": "flexible",
               "-i": "increment", "--increment": "increment"}

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class GtpCommandError(YTourneyError):
    """A GTP command the server cannot carry out; its message becomes the `?` answer."""


def _kadon_row_names(board: Board, lines: list[str]) -> list[str]:
    """Kadon's cells are named along each row (A1..I1, A5..M5): one column-letter line under the board would fit
    row 1 only, so every row is followed by the names of its first and last cells instead."""
    rows: dict[int, list[int]] = {}
    for cell, (column, row) in enumerate(board.coords):
        rows.setdefault(row, []).append(cell)
    ordered = [rows[row] for row in sorted(rows)]  # row 1 first, as the diagram numbers them
    width = max(len(line) for line in lines[:-1])
    named = []
    for line in lines[:-1]:
        cells = sorted(ordered[int(line.split()[0]) - 1], key=lambda cell: board.coords[cell][0])
        named.append(f"{line:<{width}}   {move_name(board, cells[0])}-{move_name(board, cells[-1])}")
    return named


class GtpServer:
    """A GTP engine around one Bot: keeps the game, asks the bot for moves and the pie, validates every input.

    It speaks the dialect it is given, as an engine of that family would: `rows` names the cells (flipped: row 1 is
    the top corner), `first_color` names the player who places the first stone (black or white).
    """

    def __init__(self, bot: Bot, board: Board | str = "tri:11", rules: Rules | None = None,
                 rows: str = RowOrder.NORMAL.value, first_color: str = FirstColor.BLACK.value) -> None:
        self.bot = bot
        self.rows = RowOrder(rows).value
        self.first_color = FirstColor(first_color).value
        self.board = parse_board(board) if isinstance(board, str) else board
        self.rules = rules or Rules()
        self.finished = False
        self.genmove_swap = True  # genmove may answer `swap`; a controller that decides the pie itself turns it off
        self.state = GameState(self.board, self.rules)
        self._bot_ready = False
        self._main_time: float | None = None
        self._period: float = 0.0
        self._period_stones = 0
        self._increment = 0.0
        self._time_left: dict[Color, tuple[float, int]] = {}

    # --- framing ------------------------------------------------------------------------------------------------

    def handle(self, line: str) -> str | None:
        """The framed response to one input line (`=id text` / `?id error`), None for blank and comment lines."""
        text = _CONTROL.sub("", line.split("#", 1)[0].replace("\t", " ")).strip()
        if not text:
            return None
        words = text.split()
        command_id = ""
        if words[0].isdigit():
            command_id = words.pop(0)
            if not words:
                return f"?{command_id} missing command\n\n"
        command, args = words[0].lower(), words[1:]
        try:
            answer = self._dispatch(command, args)
        except GtpCommandError as err:
            return f"?{command_id} {err}\n\n"
        except Exception as err:  # noqa: BLE001 - no argument may take the served engine down mid-game
            return f"?{command_id} internal error: {type(err).__name__}: {err}\n\n"
        if not answer:
            return f"={command_id}\n\n"
        return f"={command_id} {answer}\n\n"

    def serve(self, source: TextIO, sink: TextIO) -> None:
        """Answer commands from `source` on `sink` until `quit`, end of input or a closed sink; then close the bot."""
        try:
            while not self.finished:
                line = source.readline()
                if not line:
                    break
                response = self.handle(line)
                if response is not None:
                    sink.write(response)
                    sink.flush()
        except BrokenPipeError:
            pass  # the controller went away: nobody is left to answer
        finally:
            self.bot.close()

    # --- commands -----------------------------------------------------------------------------------------------

    def _dispatch(self, command: str, args: list[str]) -> str:
        handler = getattr(self, "_cmd_" + command.replace("-", "_"), None)
        if command not in COMMANDS or handler is None:
            raise GtpCommandError("unknown command")
        return handler(args)

    def _cmd_protocol_version(self, args: list[str]) -> str:
        return "2"

    def _cmd_name(self, args: list[str]) -> str:
        return f"ytourney-{getattr(self.bot, 'name', 'bot')}"

    def _cmd_version(self, args: list[str]) -> str:
        return __version__

    def _cmd_known_command(self, args: list[str]) -> str:
        _arity(args, 1, "known_command COMMAND")
        return "true" if args[0].lower() in COMMANDS else "false"

    def _cmd_list_commands(self, args: list[str]) -> str:
        return "\n".join(COMMANDS)

    def _cmd_quit(self, args: list[str]) -> str:
        self.finished = True
        return ""

    def _cmd_boardsize(self, args: list[str]) -> str:
        _arity(args, 1, "boardsize N (or boardsize kadon)")
        spec = "kadon" if args[0].lower() == "kadon" else f"tri:{args[0]}"
        try:
            self.board = parse_board(spec)
        except YTourneyError:
            raise GtpCommandError("unacceptable size") from None
        return self._cmd_clear_board([])

    def _cmd_clear_board(self, args: list[str]) -> str:
        self.state = GameState(self.board, self.rules)
        self._bot_ready = False
        self._time_left.clear()
        return ""

    def _cmd_komi(self, args: list[str]) -> str:
        _arity(args, 1, "komi FLOAT")
        _number(args[0], "komi")
        return ""  # Y has no komi; accepted so Go-minded controllers can set up a game

    def _cmd_ytourney_rules(self, args: list[str]) -> str:
        values = {"pie": self.rules.pie, "misere": self.rules.misere, "genmove_swap": self.genmove_swap}
        for arg in args:
            key, eq, raw = arg.lower().partition("=")
            if not eq or key not in values or raw not in ("on", "off", "1", "0", "true", "false"):
                raise GtpCommandError(f"bad rule {arg!r}; expected pie=on|off, misere=on|off, genmove_swap=on|off")
            values[key] = raw in ("on", "1", "true")
        rules = Rules(pie=values["pie"], misere=values["misere"])
        self.state = self._replayed(rules, self.state.handicap, self.state.moves)
        self.rules = rules
        self.genmove_swap = values["genmove_swap"]
        return ""

    def _cmd_play(self, args: list[str]) -> str:
        _arity(args, 2, "play COLOR VERTEX")
        color = self._color(args[0])
        move = self._vertex(args[1])
        state = self._turn_state(color, extend_handicap=move != SWAP)
        try:
            state.play(move)
        except IllegalMoveError as err:
            raise GtpCommandError(f"illegal move: {err}") from None
        self.state = state
        return ""

    def _cmd_genmove(self, args: list[str]) -> str:
        _arity(args, 1, "genmove COLOR")
        color = self._color(args[0])
        state = self._turn_state(color, extend_handicap=True)
        limit = self._limit(color)
        try:
            if not self._bot_ready:
                self.bot.new_game(self.board, self.rules, color)
                self._bot_ready = True
            if self.genmove_swap and state.can_swap() and self.bot.swap(state.copy(), limit):
                state.play(SWAP)
                self.state = state
                return SWAP_TOKEN
            move = self.bot.move(state.copy(), limit)
        except YTourneyError as err:
            raise GtpCommandError(f"bot failed: {err}") from None
        except Exception as err:  # noqa: BLE001 - a failing bot is reported on the wire, the server stays up
            raise GtpCommandError(f"bot failed: {type(err).__name__}: {err}") from None
        if isinstance(move, bool) or not isinstance(move, int) or not state.is_legal(move) or move == SWAP:
            raise GtpCommandError(f"bot answered illegal move {move!r}")
        state.play(move)
        self.state = state
        return to_engine_cell(self.board, move, self.rows)

    def _cmd_undo(self, args: list[str]) -> str:
        moves = self.state.moves
        if not moves:
            raise GtpCommandError("cannot undo: no moves")
        kept = moves[:-1]
        handicap = self.state.handicap
        if handicap >= 2 and len(kept) < handicap:  # taking back a stone of a handicap turn
            handicap = len(kept) if len(kept) >= 2 else 0
        self.state = self._replayed(self.state.rules, handicap, kept)
        return ""

    def _cmd_winner(self, args: list[str]) -> str:
        return self._word(self._winner())

    def _cmd_final_score(self, args: list[str]) -> str:
        return f"{self._word(self._winner())[0].upper()}+"

    def _cmd_showboard(self, args: list[str]) -> str:
        state = self.state
        lines = board_text(state).split("\n")
        if self.rows == RowOrder.FLIPPED.value and self.board.kind is BoardKind.TRI:
            width = len(str(self.board.size))
            lines[:-1] = [f"{index + 1:>{width}}{line[width:]}" for index, line in enumerate(lines[:-1])]
        if self.board.kind is BoardKind.KADON:
            lines = _kadon_row_names(self.board, lines)
        mover = state.winner if state.is_over else state.to_move
        status = f"{self._word(mover)} has won" if state.is_over else f"{self._word(mover)} to move"
        legend = f"X {self._word(Color.BLACK)}, O {self._word(Color.WHITE)}"
        count = len(state.moves)
        moves = f"{count} move{'' if count == 1 else 's'}"
        return "\n" + "\n".join(lines) + f"\n{self.board.spec}, {moves}, {status} ({legend})"

    def _cmd_time_settings(self, args: list[str]) -> str:
        _arity(args, 3, "time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES")
        main, period, stones = _number(args[0], "main time"), _number(args[1], "byo-yomi time"), _stones(args[2])
        self._set_time(main, period, stones, 0.0)
        return ""

    def _cmd_kgs_time_settings(self, args: list[str]) -> str:
        if not args:
            raise GtpCommandError("syntax: kgs-time_settings none|absolute|byoyomi|canadian|fischer ...")
        system, values = args[0].lower(), args[1:]
        if system == "none":
            self._set_time(0.0, 0.0, 0, 0.0)
        elif system == "absolute":
            _arity(values, 1, "kgs-time_settings absolute MAIN")
            self._set_time(_number(values[0], "main time"), 0.0, 0, 0.0)
        elif system == "fischer":
            _arity(values, 2, "kgs-time_settings fischer MAIN INCREMENT")
            self._set_time(_number(values[0], "main time"), 0.0, 0, _number(values[1], "increment"))
        elif system in ("byoyomi", "canadian"):
            _arity(values, 3, f"kgs-time_settings {system} MAIN PERIOD STONES_OR_PERIODS")
            stones = 1 if system == "byoyomi" else _stones(values[2])
            self._set_time(_number(values[0], "main time"), _number(values[1], "period"), stones, 0.0)
        else:
            raise GtpCommandError(f"unknown time system {args[0]!r}")
        return ""

    def _cmd_time_left(self, args: list[str]) -> str:
        _arity(args, 3, "time_left COLOR TIME STONES")
        self._time_left[self._color(args[0])] = (_number(args[1], "time"), _stones(args[2]))
        return ""

    def _cmd_y_param(self, args: list[str]) -> str:
        _arity(args, 2, "y_param max_time SECONDS")
        if args[0].lower() != "max_time":
            raise GtpCommandError(f"unknown parameter {args[0]!r}; expected max_time")
        self._set_time(0.0, _number(args[1], "max_time"), 1, 0.0)
        return ""

    def _cmd_time(self, args: list[str]) -> str:
        values = {"move": 0.0, "game": 0.0, "flexible": 0.0, "increment": 0.0}
        if len(args) % 2:
            raise GtpCommandError("syntax error; expected: time -m MOVE -g GAME -f FLEXIBLE [-i INCREMENT]")
        for flag, word in zip(args[::2], args[1::2]):
            if flag.lower() not in _TIME_FLAGS:
                raise GtpCommandError(f"unknown time option {flag!r}; expected -m, -g, -f or -i")
            values[_TIME_FLAGS[flag.lower()]] = _number(word, f"{_TIME_FLAGS[flag.lower()]} time")
        self._set_time(values["game"], values["move"], 1 if values["move"] > 0 else 0, values["increment"])
        return ""

    # --- helpers ------------------------------------------------------------------------------------------------

    def _vertex(self, token: str) -> int:
        if token.lower() == SWAP_TOKEN:
            return SWAP
        try:
            return from_engine_cell(self.board, token, self.rows)
        except NotationError:
            raise GtpCommandError(f"invalid vertex {token!r} on {self.board.spec}") from None

    def _color(self, word: str) -> Color:
        """Our colour for a colour word in this server's dialect."""
        try:
            return from_engine_color(word, self.first_color)
        except YTourneyError:
            raise GtpCommandError(f"invalid color {word!r}; expected b, w, black or white") from None

    def _word(self, color: Color) -> str:
        """The name of our `color` in this server's dialect."""
        return "black" if to_engine_color(color, self.first_color) == "b" else "white"

    def _winner(self) -> Color:
        if self.state.winner is None:
            raise GtpCommandError("game is not over: no player has completed a Y")
        return self.state.winner

    def _turn_state(self, color: Color, extend_handicap: bool) -> GameState:
        """A copy of the game with `color` to move: a second Black stone before any White one is a handicap turn."""
        state = self.state
        if state.is_over:
            raise GtpCommandError(f"game is over: {self._word(state.winner)} has won")
        if color is state.to_move:
            return state.copy()
        black_only = bool(state.moves) and SWAP not in state.moves and color is Color.BLACK
        if extend_handicap and black_only and all(cell == Color.BLACK for cell in state.cells if cell):
            try:
                return self._replayed(state.rules, len(state.moves) + 1, state.moves)
            except YTourneyError as err:
                raise GtpCommandError(f"cannot place another handicap stone: {err}") from None
        raise GtpCommandError(f"{self._word(color)} is not to move; {self._word(state.to_move)} is")

    def _replayed(self, rules: Rules, handicap: int, moves: tuple[int, ...]) -> GameState:
        state = GameState(self.board, rules, handicap)
        try:
            for move in moves:
                state.play(move)
        except IllegalMoveError as err:
            raise GtpCommandError(f"the moves so far do not fit these rules: {err}") from None
        return state

    def _set_time(self, main: float, period: float, stones: int, increment: float) -> None:
        self._main_time = main if main > 0 else None
        self._period = period if stones > 0 else 0.0
        self._period_stones = stones
        self._increment = increment
        self._time_left.clear()

    def _limit(self, color: Color) -> Limit:
        """The bot's budget from the time commands received; the bot's own defaults when none were."""
        if color in self._time_left:
            seconds, stones = self._time_left[color]
            if stones > 0:
                return Limit(seconds=max(0.01, seconds / stones * PERIOD_SHARE))
            if seconds <= 0 and self._period_stones:
                return Limit(seconds=max(0.01, self._period / self._period_stones * PERIOD_SHARE))
            return TimeControl(game_seconds=seconds, increment=self._increment).limit(seconds)
        if self._main_time is not None:
            return TimeControl(game_seconds=self._main_time, increment=self._increment).limit(self._main_time)
        if self._period_stones:
            return Limit(seconds=max(0.01, self._period / self._period_stones * PERIOD_SHARE))
        return Limit()


def _arity(args: list[str], count: int, syntax: str) -> None:
    if len(args) != count:
        raise GtpCommandError(f"syntax error; expected: {syntax}")


def _number(word: str, what: str) -> float:
    try:
        value = float(word)
    except ValueError:
        raise GtpCommandError(f"{what} {word!r} is not a number") from None
    if value < 0 or value != value:
        raise GtpCommandError(f"{what} {word!r} must be >= 0")
    return value


def _stones(word: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise GtpCommandError(f"stone count {word!r} is not a whole number >= 0")
    return int(word)

