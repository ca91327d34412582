"""GtpBot: a player backed by an external GTP engine of any game, kept in sync move by move and restarted after a
fault. Moves travel in the game's notation (`play b E5-E7`, `genmove b` answered `F8-H6-H4-F2`, `play w pass`)."""

from __future__ import annotations

import math
import random
from typing import Any

from ytourney.errors import (
    ConfigError,
    EngineCrashError,
    EngineProtocolError,
    EngineResignedError,
    EngineTimeoutError,
    IllegalAnswerError,
    NotationError,
    PlayerFault,
    YTourneyError,
)
from ytourney.boards.board import Board
from ytourney.games.api import PASS_TOKEN, SWAP, SWAP_TOKEN, Color, Game, Move, MoveKind, State
from ytourney.games.bot import Limit
from ytourney.games.dialect import EngineDialect
from ytourney.players.gtp.client import GtpClient, clip
from ytourney.players.gtp.dialect import (
    MOVE_TOKEN,
    decide_pie,
    engine_colors_flipped,
    from_engine_move,
    places_cells,
    swap_style_fault,
    to_engine_color,
    to_engine_move,
)
from ytourney.players.gtp.settings import (
    GtpSettings,
    SwapDialect,
    SwapStyle,
    TimeCommand,
    check_board,
)
from ytourney.players.gtp.transcript import TranscribedTransport, Transcript
from ytourney.players.gtp.transport import ProcessTransport, TransportFactory

# --- the player ----------------------------------------------------------------------------------------------------

# Optional extension, sent before the first move of a game when the engine knows it: the game's rules as KEY=VALUE
# (booleans on|off), then genmove_swap=on|off; for Y `ytourney-rules pie=on|off misere=on|off genmove_swap=on|off` (pie
# is off in handicap games; genmove_swap is on only for `swap: genmove`, as otherwise the pie policy decides).
# `ytourney gtp` knows it, so served bots learn the rules.
RULES_COMMAND = "ytourney-rules"
_CLOCK_COMMANDS = ("time_settings", "time_left", "kgs-time_settings")
_RESTART_FAULTS = (EngineCrashError, EngineTimeoutError, EngineProtocolError)


def _on_off(flag: bool) -> str:
    return "on" if flag else "off"


class GtpBot:
    """A Bot backed by an external GTP engine; it keeps the engine in sync by sending only the moves it has not seen."""

    def __init__(
        self,
        settings: GtpSettings,
        seed: int | None = None,
        transport_factory: TransportFactory | None = None,
    ) -> None:
        if not isinstance(settings, GtpSettings):
            raise ConfigError(f"GtpBot needs GtpSettings, got {type(settings).__name__} {settings!r}")
        if not isinstance(settings.game, Game):
            raise ConfigError(f"engine {settings.display_name!r} has no game bound (gtp.game is {settings.game!r})")
        self.settings = settings
        self.game: Game = settings.game
        self.dialect: EngineDialect = settings.game.engine_dialect()
        self.name = settings.display_name
        self.engine_name = ""
        self.engine_version = ""
        self.restarts = 0  # engine starts after the first one (each follows a fault)
        self._started = 0
        self._factory: TransportFactory = transport_factory or ProcessTransport.start
        self._rng = random.Random(seed)
        self._client: GtpClient | None = None
        self._known: frozenset[str] = frozenset()
        self._healthy = False
        self._seen: State | None = None  # the game exactly as the engine knows it
        self._answer: tuple[int, Move] | None = None  # (ply, move): a genmove answer obtained deciding the pie
        self._clock_sent = False
        self._move_time_sent = ""  # the last per-move time given by a command of the game's dialect
        self._wire: TranscribedTransport | None = None
        self._transcript: Transcript | None = None

    @property
    def transcript(self) -> Transcript | None:
        """Where the exchange with the engine is written from now on (None: nowhere)."""
        return self._transcript

    @transcript.setter
    def transcript(self, transcript: Transcript | None) -> None:
        self._transcript = transcript
        if self._wire is not None:
            self._wire.transcript = transcript

    # --- Bot protocol ---------------------------------------------------------------------------------------------

    def new_game(self, board: Board, rules: Any, color: Color) -> None:
        """Start (or restart after a fault) the engine, then set the board up empty."""
        check_board(self.settings, board)
        with self._fault_guard():
            if self._client is None or not self._healthy or self._client.transport.exit_code() is not None:
                self._restart()
            client = self._require_client()
            size = self.dialect.boardsize(board, self.settings.kadon_boardsize)
            client.expect(f"boardsize {size}", self.settings.command_seconds)
            client.expect("clear_board", self.settings.command_seconds)
        self._seen = None
        self._answer = None
        self._clock_sent = False
        self._move_time_sent = ""

    def move(self, state: State, limit: Limit) -> Move:
        """Sync the engine with `state`, then `genmove` for the colour to move."""
        self._check_game(state)
        if self._answer is not None:
            ply, answer = self._answer
            self._answer = None
            if ply == len(state.history):
                return answer
        try:
            with self._fault_guard():
                return self._genmove(self._sync(state), state, limit, allow_swap=False)
        except (EngineProtocolError, EngineResignedError, IllegalAnswerError) as err:
            note = self._swap_note(state) if swap_style_fault(str(err), isinstance(err, EngineResignedError)) else ""
            if not note:
                raise
            raise type(err)(f"{err}{note}") from err

    def swap(self, state: State, limit: Limit) -> bool:
        """Ask the engine (`swap: genmove`) or apply the pie policy (engines that cannot decide the pie)."""
        self._check_game(state)
        if self.settings.swap != SwapDialect.GENMOVE.value:
            return decide_pie(self.settings.pie_policy, state, self._rng, self.dialect)
        with self._fault_guard():
            action = self._genmove(self._sync(state), state, limit, allow_swap=True)
        if action.is_swap:
            return True
        self._answer = (len(state.history), action)
        return False

    def close(self) -> None:
        """Say `quit` to a healthy engine, then end its whole process group."""
        client, self._client = self._client, None
        if client is None:
            return
        if self._healthy:
            try:
                client.command("quit", min(self.settings.command_seconds, 1.0))
            except PlayerFault:
                pass  # it is being shut down either way
        self._healthy = False
        self._client = client  # kept until it is closed: a close cut short is finished by the next close
        client.transport.close(wait=0.5)
        self._client = None

    # --- engine lifecycle -----------------------------------------------------------------------------------------

    def _restart(self) -> None:
        if self._client is not None:
            self._healthy = False
            self.close()
        self.restarts += self._started
        self._started = 1
        transport = self._wire = TranscribedTransport(self._factory(self.settings), self._transcript)
        client = GtpClient(transport, f"engine {self.name!r}", self.settings.chatter_lines)
        self._client = client
        first = client.command("name", self.settings.startup_seconds)
        self.engine_name = first.text if first.ok else ""
        version = client.command("version", self.settings.command_seconds)
        self.engine_version = version.text if version.ok else ""
        known = set()
        for command in (*_CLOCK_COMMANDS, *self.dialect.fallback_time_commands, RULES_COMMAND):
            answer = client.command(f"known_command {command}", self.settings.command_seconds)
            if answer.ok and answer.text.strip().lower() == "true":
                known.add(command)
        self._known = frozenset(known)
        for command in self.settings.setup:
            client.expect(command, self.settings.command_seconds)
        self._healthy = True

    def _require_client(self) -> GtpClient:
        if self._client is None:
            raise EngineCrashError(f"engine {self.name!r} is not running")
        return self._client

    def _fault_guard(self) -> _FaultGuard:
        return _FaultGuard(self)

    def _on_fault(self) -> None:
        """After a crash, timeout or protocol fault: stop the engine now (a hung one would eat the CPU)."""
        self._healthy = False
        if self._client is not None:
            self._client.transport.close(wait=0.0)  # if cut short, `close` finishes it: the client is kept till then
        self._client = None

    # --- playing --------------------------------------------------------------------------------------------------

    def _check_game(self, state: State) -> None:
        game = getattr(state, "game", None)
        if game is not None and game.name != self.game.name:
            raise ConfigError(f"engine {self.name!r} plays {self.game.name!r} (gtp.game) but was seated in a game of "
                              f"{game.name!r}; set gtp.game: {game.name}")

    def _swap_note(self, state: State) -> str:
        """What to add to a fault in the engine's first moves after a swap it heard of: the swap_style key."""
        if not state.swapped or len(state.history) > 3 or self.settings.swap == SwapDialect.NONE.value:
            return ""
        style = SwapStyle(self.settings.swap_style)
        other = SwapStyle.EXCHANGE if style is SwapStyle.RECOLOR else SwapStyle.RECOLOR
        what = ("the engine changes the first stone's colour on swap and Black moves next" if other is SwapStyle.RECOLOR
                else "the engine exchanges the players' colours on swap")
        return f" right after a swap: check gtp.swap_style (now {style.value!r}; {other.value!r} when {what})"

    def _color(self, state: State, color: Color) -> str:
        """The engine's colour word for our `color` in `state` (its first_color and swap_style dialects)."""
        heard = self.settings.swap != SwapDialect.NONE.value  # an engine never told of the swap never recolours
        flipped = heard and engine_colors_flipped(self.settings.swap_style, state.swapped)
        return to_engine_color(color, self.settings.first_color, flipped)

    def _rules_command(self, seen: State) -> str:
        """`ytourney-rules` with the game's rules (the pie off in handicap games) and who decides the pie."""
        values = dict(self.game.rules_dict(seen.rules))
        if "pie" in values and seen.handicap:
            values["pie"] = False
        values["genmove_swap"] = self.settings.swap == SwapDialect.GENMOVE.value
        words = [f"{key}={_on_off(value) if isinstance(value, bool) else value}" for key, value in values.items()
                 if isinstance(value, (bool, int, float, str)) and " " not in str(value)]
        return " ".join([RULES_COMMAND, *words])

    def _sync(self, state: State) -> State:
        """Send the moves of `state` the engine has not seen; start over with clear_board if the histories differ."""
        client = self._require_client()
        timeout = self.settings.command_seconds
        seen = self._seen
        moves = state.history
        done = seen.history if seen is not None else ()
        if seen is None or seen.handicap != state.handicap or done != moves[: len(done)]:
            if done:
                client.expect("clear_board", timeout)
            seen = self._seen = self.game.new_state(state.board, state.rules, state.handicap)
            done = ()
            if RULES_COMMAND in self._known:
                client.expect(self._rules_command(seen), timeout)
        for move in moves[len(done):]:
            color = self._color(seen, seen.to_move)
            if move.is_swap:
                if self.settings.swap != SwapDialect.NONE.value:
                    client.expect(f"play {color} {SWAP_TOKEN}", timeout)
            else:
                text = to_engine_move(self.game, state.board, move, self.settings.rows)
                client.expect(f"play {color} {text}", timeout)
            seen.play(move)
        return seen

    def _genmove(self, seen: State, state: State, limit: Limit, allow_swap: bool) -> Move:
        client = self._require_client()
        color = self._color(state, state.to_move)
        self._send_clock(limit, color)
        budget = limit.remaining if limit.remaining is not None else limit.seconds
        timeout = budget + self.settings.grace_seconds if budget is not None else self.settings.untimed_seconds
        command = f"genmove {color}"
        response = client.command(command, timeout)
        if not response.ok:
            raise EngineProtocolError(f"{client.name} refused {command!r}: ? {clip(response.text)}")
        return self._answer_to_action(response.text, seen, command, allow_swap)

    def _answer_to_action(self, text: str, seen: State, command: str, allow_swap: bool) -> Move:
        name = f"engine {self.name!r}"
        token = text.strip().lower()
        board = seen.board
        if token == "resign":
            raise EngineResignedError(f"{name} resigned")
        if token == SWAP_TOKEN:
            if not (allow_swap and seen.can_swap()):
                raise IllegalAnswerError(f"{name} answered 'swap' to {command!r} where the rules allow no swap")
            seen.play(SWAP)
            return SWAP
        if token == PASS_TOKEN:
            try:
                move = self.game.parse_move(board, token)
            except NotationError:
                raise IllegalAnswerError(
                    f"{name} answered 'pass' to {command!r}; {self.game.title} has no passing") from None
        elif not token:
            raise EngineProtocolError(f"{name} answered {command!r} with nothing: an empty '=' names no move")
        else:
            if not MOVE_TOKEN.fullmatch(token):
                noun = "cell" if places_cells(seen) else "move"
                raise EngineProtocolError(f"{name} answered {command!r} with {clip(text)!r}, which is not a {noun}")
            try:
                move = from_engine_move(self.game, board, token, self.settings.rows, places_cells(seen))
            except NotationError as err:
                raise IllegalAnswerError(f"{name} answered {token!r} to {command!r}: {err}") from err
        if move.is_swap:
            raise IllegalAnswerError(f"{name} answered {token!r} to {command!r}, which names the pie answer")
        if not seen.is_legal(move):
            shown = to_engine_move(self.game, board, move, self.settings.rows) if move.path else token
            if move.kind is MoveKind.PLACE and seen.cells[move.cell]:
                raise IllegalAnswerError(f"{name} answered {shown!r} to {command!r}, a cell that is already occupied")
            trial = seen.copy()
            try:
                trial.play(move)
            except YTourneyError as err:
                raise IllegalAnswerError(f"{name} answered {shown!r} to {command!r}: {err}") from err
            raise IllegalAnswerError(f"{name} answered {shown!r} to {command!r}, which is not legal here")
        seen.play(move)
        return move

    def _send_clock(self, limit: Limit, color: str) -> None:
        """Tell the engine its time for the next genmove in the command its `time_command` dialect names."""
        dialect = TimeCommand(self.settings.time_command).value
        if dialect == TimeCommand.GTP.value:
            self._send_gtp_clock(limit, color)
            fallback = next((name for command, name in self.dialect.fallback_time_commands.items()
                             if command in self._known), None)
            if "time_left" in self._known or fallback is None:
                return
            # the default dialect, and the engine refused (or lacks) time_left but knows a command of the game's
            # engine families (Hayward's engine): tell it the move time that way instead of letting it search for its
            # own default time
            dialect = fallback
        if dialect == TimeCommand.NONE.value or limit.seconds is None:
            return
        seconds = f"{max(limit.seconds, 0.001):.3f}".rstrip("0").rstrip(".")
        if seconds == self._move_time_sent:
            return  # said once per game under a move clock; again whenever a game clock changes the share
        try:
            command = self.dialect.time_command(dialect, seconds)
        except NotationError as err:
            raise ConfigError(f"engine {self.name!r}: gtp.time_command: {err}") from None
        self._require_client().expect(command, self.settings.command_seconds)
        self._move_time_sent = seconds

    def _send_gtp_clock(self, limit: Limit, color: str) -> None:
        """Once `time_settings` per game, then `time_left` before each genmove, as far as the engine knows them."""
        client = self._require_client()
        timeout = self.settings.command_seconds
        if limit.remaining is not None:
            if not self._clock_sent:
                self._clock_sent = True
                main = max(1, math.ceil(limit.remaining))
                if limit.increment >= 1 and "kgs-time_settings" in self._known:
                    self._optional(client, f"kgs-time_settings fischer {main} {int(limit.increment)}", timeout)
                elif "time_settings" in self._known:
                    self._optional(client, f"time_settings {main} 0 0", timeout)
            if "time_left" in self._known:
                self._optional(client, f"time_left {color} {max(0, int(limit.remaining))} 0", timeout)
        elif limit.seconds is not None:
            seconds = max(1, math.ceil(limit.seconds))
            if not self._clock_sent and "time_settings" in self._known:
                self._clock_sent = True
                self._optional(client, f"time_settings 0 {seconds} 1", timeout)
            if "time_left" in self._known:
                self._optional(client, f"time_left {color} {seconds} 1", timeout)

    def _optional(self, client: GtpClient, command: str, timeout: float) -> None:
        """Send a command the engine said it knows but need not accept in our form (Hayward's engine answers
        `time_left b 1 1` with `? command needs one argument`): the first refusal drops it for the rest of this
        engine's life, so it costs one error line, not one a move."""
        if not client.command(command, timeout).ok:
            self._known = self._known - {command.split()[0]}


class _FaultGuard:
    """Context manager: a crash, timeout or protocol fault stops the engine so the next game restarts it."""

    def __init__(self, bot: GtpBot) -> None:
        self.bot = bot

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: object) -> bool:
        if kind is not None and (issubclass(kind, _RESTART_FAULTS) or not issubclass(kind, YTourneyError)):
            self.bot._on_fault()
        return False
