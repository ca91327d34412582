"""Serve any ytourney bot over GTP on a line stream, so our bots play inside other tools (`ytourney gtp BOT`).

Any game: moves travel in the game's notation (`play b E5-E7`, `genmove b` answered `F8-H6-H4-F2`, `play w pass`,
`play w swap`); the game is the value given to `serve_gtp(bot, game, ...)`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, TextIO

from ytourney import __version__
from ytourney.boards.board import Board
from ytourney.errors import ConfigError, IllegalAnswerError, IllegalMoveError, NotationError, YTourneyError
from ytourney.games.api import SWAP, SWAP_TOKEN, Color, Game, Move, State
from ytourney.games.dialect import TimeSetting
from ytourney.games.rules import DEFAULT_WORD, RuleOption, rule_from_text
from ytourney.games.bot import Bot, Limit
from ytourney.players.clock import TimeControl
from ytourney.players.gtp.engine import RULES_COMMAND
from ytourney.players.gtp.dialect import (
    engine_colors_flipped,
    from_engine_color,
    from_engine_move,
    to_engine_color,
    to_engine_move,
)
from ytourney.players.gtp.settings import FirstColor, RowOrder, SwapStyle
from ytourney.numerals import ascii_float, foreign_digit_problem, is_ascii_digits
from ytourney.players.untrusted import cap, describe_error, plain_move

# `ytourney-rules KEY=VALUE ... genmove_swap=on|off` (an extension GtpBot sends when it is known): the game's rules
# (for Y `pie=on|off misere=on|off`), and whether genmove may answer `swap` (off when the controller decides the pie).

# Share of a byo-yomi period (seconds per move) a bot is told to spend, leaving room for the controller's overhead.
PERIOD_SHARE = 0.8
MAX_COMMAND_CHARS = 1 << 16
"""Longest command line read; a longer one is skipped in bounded pieces and answered with an error."""
MAX_NUMBER = 1e7
"""Largest time (seconds) or komi a command may give: beyond it no clock or timer can hold the value."""
MAX_STONES_DIGITS = 9
"""Most digits of a stone count (a byo-yomi period's stones)."""

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
)
"""The commands every served bot answers; then the time commands of the game's engine families (its dialect's
`served_time_commands`, so their own tools can drive it), then RULES_COMMAND."""

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_GENMOVE_SWAP = RuleOption(bool, False)
"""`genmove_swap=on|off` of `ytourney-rules`, read as a rule switch is."""
_NO_VALUE = object()
"""What _rule_value gives for text that is no value of the option (None is a rule left to the game)."""


class GtpCommandError(YTourneyError):
    """A GTP command the server cannot carry out; its message becomes the `?` answer."""


class GtpServer:
    """A GTP engine around one Bot: keeps the game, asks the bot for moves and the pie, validates every input.

    It speaks the dialect it is given, as an engine of that family would: `rows` names the cells (flipped: row 1 is
    the top corner), `first_color` names the player who places the first stone (black or white), `swap_style` says
    what `swap` does to the colours (exchange: the players exchange them; recolor: the first stone changes colour).
    """

    def __init__(self, bot: Bot, board: Board | str | None = None, rules: Any = None,
                 rows: str = RowOrder.NORMAL.value, first_color: str = FirstColor.BLACK.value, *,
                 game: Game, swap_style: str = SwapStyle.EXCHANGE.value) -> None:
        if not isinstance(game, Game):
            raise ConfigError(f"a GTP server serves a game (a Game value), got {game!r}")
        self.bot = bot
        self.game = game
        self.rows = RowOrder(rows).value
        self.first_color = FirstColor(first_color).value
        self.swap_style = SwapStyle(swap_style).value
        self.dialect = game.engine_dialect()
        self.commands = (*COMMANDS, *self.dialect.served_time_commands, RULES_COMMAND)
        """Every command this server answers, as `list_commands` lists them."""
        if board is None:
            board = self.game.default_board
        self.board = self.game.parse_board(board) if isinstance(board, str) else board
        self.rules = self.game.parse_rules(None) if rules is None else rules
        self.finished = False
        self.genmove_swap = True  # genmove may answer `swap`; a controller that decides the pie itself turns it off
        self.state = self._new_state(self.rules, 0)
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
        if is_ascii_digits(words[0]):  # GTP's id is ASCII digits; '²' or '١' would come back as '=²'
            command_id = words.pop(0)
            if not words:
                return f"?{command_id} missing command\n\n"
        command, args = words[0].lower(), words[1:]
        try:
            answer = self._dispatch(command, args)
        except GtpCommandError as err:
            return f"?{command_id} {_one_line(str(err))}\n\n"
        except Exception as err:  # noqa: BLE001 - no argument may take the served engine down mid-game
            return f"?{command_id} internal error: {_one_line(describe_error(err))}\n\n"
        if not answer:
            return f"={command_id}\n\n"
        return f"={command_id} {answer}\n\n"

    def serve(self, source: TextIO, sink: TextIO) -> None:
        """Answer commands from `source` on `sink` until `quit`, end of input or a closed sink; then close the bot."""
        try:
            while not self.finished:
                line = source.readline(MAX_COMMAND_CHARS + 1)
                if not line:
                    break
                if len(line) > MAX_COMMAND_CHARS and not line.endswith("\n"):
                    while (rest := source.readline(MAX_COMMAND_CHARS)) and not rest.endswith("\n"):
                        continue  # the rest of the line, read in bounded pieces and dropped
                    response = f"? command longer than {MAX_COMMAND_CHARS} characters\n\n"
                else:
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
        if command in self.dialect.served_time_commands:
            return self._served_time_command(command, args)
        handler = getattr(self, "_cmd_" + command.replace("-", "_"), None)
        if command not in self.commands or handler is None:
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
        return "true" if args[0].lower() in self.commands else "false"

    def _cmd_list_commands(self, args: list[str]) -> str:
        return "\n".join(self.commands)

    def _cmd_quit(self, args: list[str]) -> str:
        self.finished = True
        return ""

    def _cmd_boardsize(self, args: list[str]) -> str:
        _arity(args, 1, "boardsize N (or boardsize kadon)")
        self.board = self._board_of_size(args[0])
        return self._cmd_clear_board([])

    def _board_of_size(self, word: str) -> Board:
        """The game's board for a boardsize argument: N (the family of the game's default board), kadon, or a spec."""
        word = word.lower()
        if ":" in word or not is_ascii_digits(word):
            specs = [word]
        else:
            family = self.game.default_board.partition(":")[0] if ":" in self.game.default_board else "tri"
            specs = [f"{family}:{word}"]
        for spec in specs:
            try:
                return self.game.parse_board(spec)
            except YTourneyError:
                continue
        raise GtpCommandError("unacceptable size")

    def _cmd_clear_board(self, args: list[str]) -> str:
        self.state = self._new_state(self.rules, 0)
        self._bot_ready = False
        self._time_left.clear()
        return ""

    def _cmd_komi(self, args: list[str]) -> str:
        _arity(args, 1, "komi FLOAT")
        _number(args[0], "komi")
        return ""  # Y has no komi; accepted so Go-minded controllers can set up a game

    def _cmd_ytourney_rules(self, args: list[str]) -> str:
        options = {**self.game.rule_options, "genmove_swap": _GENMOVE_SWAP}
        values: dict[str, Any] = dict(self.game.rules_dict(self.rules))
        values["genmove_swap"] = self.genmove_swap
        for arg in args:
            key, eq, raw = arg.lower().partition("=")
            value = _rule_value(options[key], raw) if eq and key in options else _NO_VALUE
            problem = foreign_digit_problem(raw)
            if value is _NO_VALUE and problem:
                raise GtpCommandError(f"bad rule {arg!r}: {problem}")
            if value is _NO_VALUE:
                expected = ", ".join(f"{name}={_rule_syntax(option)}" for name, option in options.items())
                raise GtpCommandError(f"bad rule {arg!r}; expected {expected} (KEY={DEFAULT_WORD} resets a rule)")
            bounds = options[key].broken_range(value)
            if bounds:
                raise GtpCommandError(f"bad rule {arg!r}; expected {key} {bounds}")  # as a config's rules: say
            values[key] = value
        genmove_swap = values.pop("genmove_swap")
        try:
            rules = self.game.parse_rules(values)
        except YTourneyError as err:
            raise GtpCommandError(f"bad rules: {err}") from None
        self.state = self._replayed(rules, self.state.handicap, self.state.history)
        self.rules = rules
        self.genmove_swap = genmove_swap
        return ""

    def _cmd_play(self, args: list[str]) -> str:
        _arity(args, 2, "play COLOR VERTEX")
        color = self._color(args[0])
        move = self._vertex(args[1])
        state = self._turn_state(color, extend_handicap=not move.is_swap)
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
            answer = self.bot.move(state.copy(), limit)
        except IllegalAnswerError as err:
            raise GtpCommandError(f"bot answered an illegal move: {err}") from None
        except YTourneyError as err:
            raise GtpCommandError(f"bot failed: {err}") from None
        except Exception as err:  # noqa: BLE001 - a failing bot is reported on the wire, the server stays up
            raise GtpCommandError(f"bot failed: {describe_error(err)}") from None
        move = plain_move(self.game, self.board, answer)  # every node checked, read back from its notation
        if not isinstance(move, Move):
            raise GtpCommandError(f"bot answered an illegal move: {move}")
        if move.is_swap:
            raise GtpCommandError("bot answered an illegal move: swap, to a move request (the pie answer is swap())")
        try:
            state.copy().play(move)
        except YTourneyError as err:
            raise GtpCommandError(f"bot answered an illegal move: {err}") from None
        state.play(move)
        self.state = state
        return to_engine_move(self.game, self.board, move, self.rows)

    def _cmd_undo(self, args: list[str]) -> str:
        moves = self.state.history
        if not moves:
            raise GtpCommandError("cannot undo: no moves")
        kept = moves[:-1]
        handicap = self.state.handicap
        if self.game.first_turn_stones(handicap) >= 2 and len(kept) < handicap:  # a stone of a handicap turn back
            handicap = len(kept) if len(kept) >= 2 else 0
        self.state = self._replayed(self.state.rules, handicap, kept)
        return ""

    def _cmd_winner(self, args: list[str]) -> str:
        winner = self._winner()
        return "draw" if winner is None else self._word(winner)

    def _cmd_final_score(self, args: list[str]) -> str:
        outcome = self.state.outcome
        winner = self._winner()
        if winner is None:
            return "0"
        score = ""
        if outcome is not None and outcome.score is not None:
            score = f"{abs(outcome.score[0] - outcome.score[1]):g}"
        return f"{self._word(winner)[0].upper()}+{score}"

    def _cmd_showboard(self, args: list[str]) -> str:
        state = self.state
        lines = self.dialect.showboard_lines(self.board, self.game.views.board_text(state).split("\n"), self.rows)
        outcome = state.outcome
        if outcome is None:
            status = f"{self._word(state.to_move)} to move"
        elif outcome.winner is None:
            status = "drawn"
        else:
            status = f"{self._word(outcome.winner)} has won"
        legend = f"X {self._word(Color.BLACK)}, O {self._word(Color.WHITE)}"
        count = len(state.history)
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

    def _served_time_command(self, command: str, args: list[str]) -> str:
        """A time command of the game's engine families, read by the game's dialect: the clock it sets."""
        try:
            setting: TimeSetting = self.dialect.served_time_commands[command](args, _number)
        except NotationError as err:
            raise GtpCommandError(str(err)) from None
        self._set_time(setting.main, setting.period, setting.stones, setting.increment)
        return ""

    # --- helpers ------------------------------------------------------------------------------------------------

    def _vertex(self, token: str) -> Move:
        if token.lower() == SWAP_TOKEN:
            return SWAP
        try:
            return from_engine_move(self.game, self.board, token, self.rows)
        except NotationError:
            raise GtpCommandError(f"invalid vertex {token!r} on {self.board.spec}") from None

    def _recolored(self) -> bool:
        return engine_colors_flipped(self.swap_style, self.state.swapped)

    def _color(self, word: str) -> Color:
        """Our colour for a colour word in this server's dialect."""
        try:
            return from_engine_color(word, self.first_color, self._recolored())
        except YTourneyError:
            raise GtpCommandError(f"invalid color {word!r}; expected b, w, black or white") from None

    def _word(self, color: Color) -> str:
        """The name of our `color` in this server's dialect."""
        return "black" if to_engine_color(color, self.first_color, self._recolored()) == "b" else "white"

    def _winner(self) -> Color | None:
        """The winning colour (None for a draw) of a finished game."""
        outcome = self.state.outcome
        if outcome is None:
            raise GtpCommandError("game is not over: no player has won yet")
        return outcome.winner

    def _turn_state(self, color: Color, extend_handicap: bool) -> State:
        """A copy of the game with `color` to move: in a game with handicaps, a second stone of the first mover
        before any of the other's is a handicap turn."""
        state = self.state
        outcome = state.outcome
        if outcome is not None:
            ended = "drawn" if outcome.winner is None else f"{self._word(outcome.winner)} has won"
            raise GtpCommandError(f"game is over: {ended}")
        if color is state.to_move:
            return state.copy()
        history = state.history
        first = self.game.first_color
        axis = self.game.handicap_axis
        first_only = (axis is not None and axis.first_turn_stones and bool(history)
                      and not any(move.is_swap for move in history) and color is first
                      and all(cell == first for cell in state.cells if cell))
        if extend_handicap and first_only:
            try:
                return self._replayed(state.rules, len(history) + 1, history)
            except GtpCommandError as err:
                raise GtpCommandError(f"cannot place another handicap stone: {err}") from None
        raise GtpCommandError(f"{self._word(color)} is not to move; {self._word(state.to_move)} is")

    def _new_state(self, rules: Any, handicap: int) -> State:
        try:
            return self.game.new_state(self.board, rules, handicap)
        except YTourneyError as err:
            raise GtpCommandError(str(err)) from None

    def _replayed(self, rules: Any, handicap: int, moves: Sequence[Move]) -> State:
        state = self._new_state(rules, handicap)
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


def serve_gtp(bot: Bot, game: Game, board: str | None = None, *, pie: bool | None = None,
              rows: str = RowOrder.NORMAL.value, first_color: str = FirstColor.BLACK.value,
              swap_style: str = SwapStyle.EXCHANGE.value, source: TextIO, sink: TextIO) -> None:
    """`ytourney gtp BOT --game G`: serve `bot` playing `game` on `board` (None: the game's
    default) until `quit`; ConfigError, before anything is served, when a dialect option does not fit the game."""
    server = gtp_server(bot, game, board, pie=pie, rows=rows, first_color=first_color, swap_style=swap_style)
    server.serve(source, sink)


def gtp_server(bot: Bot, game: Game, board: str | None = None, *, pie: bool | None = None,
               rows: str = RowOrder.NORMAL.value, first_color: str = FirstColor.BLACK.value,
               swap_style: str = SwapStyle.EXCHANGE.value) -> GtpServer:
    """The server `serve_gtp` runs, its options checked against the game (pie on/off where the game has the pie)."""
    played = game
    spec = played.default_board if board is None else board
    parsed = played.parse_board(spec)
    misfit = played.engine_dialect().row_misfit(parsed, RowOrder(rows).value)
    if misfit:
        raise ConfigError(f"--rows {RowOrder(rows).value} {misfit}, not to {parsed.spec!r}")
    if first_color == FirstColor.WHITE.value and played.first_color is not Color.BLACK:
        raise ConfigError(f"--first-color white renames the first mover of a game Black starts; in {played.name!r} "
                          f"{played.first_color} moves first")
    rules = played.parse_rules({"pie": pie} if pie is not None and "pie" in played.rule_options else None)
    return GtpServer(bot, parsed, rules, rows, first_color, game=played, swap_style=swap_style)


def _rule_value(option: RuleOption, raw: str) -> object:
    """A `ytourney-rules` value as its option reads text (None for `default` where the game computes it), _NO_VALUE
    when the text is not one."""
    try:
        return rule_from_text(raw, option)
    except (TypeError, ValueError):
        return _NO_VALUE


def _rule_syntax(option: RuleOption) -> str:
    """How one `ytourney-rules` key's value is written, for the error message."""
    if option.type is bool:
        return "on|off"
    if option.choices:
        return "|".join(option.choices)
    return "N" if option.type in (int, float) else "VALUE"


def _one_line(text: str) -> str:
    """An error on one line, capped: a blank line in it would end the GTP response early, and a controller's
    16 KB bad move need not come back whole."""
    return cap(" ".join(text.split()))


def _arity(args: list[str], count: int, syntax: str) -> None:
    if len(args) != count:
        raise GtpCommandError(f"syntax error; expected: {syntax}")


def _number(word: str, what: str) -> float:
    try:
        value = ascii_float(word)
    except ValueError:
        raise GtpCommandError(f"{what} {word!r} is not a number") from None
    if not 0 <= value <= MAX_NUMBER:  # nan and inf fail here too
        raise GtpCommandError(f"{what} {word[:20]!r} must be a number from 0 to {MAX_NUMBER:g}")
    return value


def _stones(word: str) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > MAX_STONES_DIGITS:
        raise GtpCommandError(f"stone count {word[:20]!r} is not a whole number from 0 to "
                              f"{10 ** MAX_STONES_DIGITS - 1}")
    return int(word)

