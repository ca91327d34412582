"""The one exception tree of ytourney: every error the library raises derives from YTourneyError."""

from __future__ import annotations


class YTourneyError(Exception):
    """Base of every error ytourney raises on purpose; the CLI turns these into clean messages."""


class BoardSpecError(YTourneyError, ValueError):
    """A board spec string that names no known board."""


class GameSpecError(YTourneyError, ValueError):
    """A game name that no registered game answers to, or a game used on a board or with rules it does not have."""


class NotationError(YTourneyError, ValueError):
    """A cell or move token that cannot be read on the given board."""


class IllegalMoveError(YTourneyError, ValueError):
    """A move the rules do not allow in the current position."""


class OccupiedCellError(IllegalMoveError):
    """A stone placed on a cell that already holds one."""


class UnknownCellError(IllegalMoveError):
    """A cell index outside the board."""


class SwapNotAllowedError(IllegalMoveError):
    """A swap (pie) answer where the rules allow none."""


class GameOverError(IllegalMoveError):
    """A move after the game has already been decided."""


class RecordError(YTourneyError, ValueError):
    """A game record (JSON line, SGF game, stored row) that cannot be read."""


class ConfigError(YTourneyError):
    """A tournament config that is malformed or inconsistent.

    The config reader says where: `source` (the file, or the results folder of a stored config), `path` (the key
    path, like `players[2].gtp.swap`), `value` (what was found there, None for a missing key) and `expected` (what
    would have been accepted). Config errors raised outside the reader (an engine check) may leave them empty.
    """

    def __init__(self, message: str, *, source: str = "", path: str = "", value: object = None,
                 expected: str = "") -> None:
        super().__init__(message)
        self.source = source
        self.path = path
        self.value = value
        self.expected = expected


class BotSpecError(YTourneyError, ValueError):
    """A bot spec (name, options or plugin path) that cannot be turned into a bot."""


class PluginError(BotSpecError):
    """A Python plugin file or class that cannot be loaded or lacks the bot protocol."""


class PlayerFault(YTourneyError):
    """A player misbehaved during a game; the match records its loss with `termination`."""

    termination: str = "crash"


class EngineCrashError(PlayerFault):
    """An external engine process died or could not be started."""

    termination = "crash"


class EngineTimeoutError(PlayerFault):
    """An external engine gave no answer before its deadline."""

    termination = "time"


class EngineProtocolError(PlayerFault):
    """An external engine answered something that is not valid GTP for the command."""

    termination = "protocol"


class IllegalAnswerError(PlayerFault):
    """A player answered a move the referee rejects (occupied, unknown or out of turn)."""

    termination = "illegal"


class StoreError(YTourneyError):
    """The results store cannot be opened, locked or written as asked."""


class StoreLockedError(StoreError):
    """Another run holds the lock on the results folder."""


class ConfigMismatchError(StoreError):
    """The results folder belongs to a tournament with a different config."""


class HandicapError(YTourneyError, ValueError):
    """Handicap settings, levels or results that the handicap ladder cannot use."""


class EngineResignedError(PlayerFault):
    """An external engine answered `resign`; it loses the game by forfeit."""

    termination = "forfeit"


class RatingsError(YTourneyError, ValueError):
    """Rating settings or inputs that TrueSkill cannot use."""


class ReportError(YTourneyError, ValueError):
    """A table, export or site that cannot be produced as asked (unknown format, unwritable output, no games)."""


class RunnerError(YTourneyError):
    """A tournament run cannot go on (a game keeps killing its worker process, no worker can start)."""


class RunInterrupted(YTourneyError):
    """A tournament run stopped by Ctrl-C or SIGTERM; finished games are stored and a rerun resumes it."""

    def __init__(self, message: str, signal_number: int = 2) -> None:
        super().__init__(message)
        self.signal_number = signal_number


class BackendError(YTourneyError):
    """An execution backend (a Ray cluster) that cannot be used: unreachable, no CPUs, no worker left."""


class BackendMissingError(BackendError):
    """The package an execution backend needs is not installed; the message says how to install it."""

