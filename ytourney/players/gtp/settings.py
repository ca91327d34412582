"""How to start an external GTP engine and which dialect it speaks: settings, checks before the first game."""

from __future__ import annotations

import enum
import os
import re
import shutil
from dataclasses import dataclass

from ytourney.boards.board import Board
from ytourney.errors import ConfigError, YTourneyError
from ytourney.games.api import Color, Game


class FirstColor(str, enum.Enum):
    """The colour name an engine gives the player who places the first stone."""

    BLACK = "black"
    WHITE = "white"


class RowOrder(str, enum.Enum):
    """How an engine numbers the rows of a tri board (see `to_engine_cell`)."""

    NORMAL = "normal"
    FLIPPED = "flipped"


class SwapDialect(str, enum.Enum):
    """What an engine knows of the pie rule."""

    NONE = "none"  # neither decides nor hears of swaps; the pie policy decides for it
    GENMOVE = "genmove"  # may answer `swap` to genmove and accepts `play C swap`
    PLAY = "play"  # accepts `play C swap` but never answers it; the pie policy decides for it


class SwapStyle(str, enum.Enum):
    """What a swap does on the engine's board (see `dialect.engine_colors_flipped`)."""

    EXCHANGE = "exchange"  # the players exchange colours and the first stone keeps its own (DESIGN §1, the rulebooks)
    RECOLOR = "recolor"  # the first stone changes colour in place and the players keep theirs (HexGUI's convention)


class PiePolicy(str, enum.Enum):
    """How the tool answers the pie for an engine that cannot decide it itself."""

    NEVER = "never"  # never swap
    ALWAYS = "always"  # always swap
    RANDOM = "random"  # swap with probability 1/2 (seeded)
    CENTER = "center"  # swap a stone at least a third of the board's depth away from every side


class TimeCommand(str, enum.Enum):
    """How an engine is told its time for a move."""

    GTP = "gtp"  # time_settings / kgs-time_settings and time_left, when the engine knows them
    Y_PARAM = "y_param"  # `y_param max_time S` (Fuego-based Y engines: seconds per move, at least 0.5)
    MORAT = "morat"  # `time -m S -g 0 -f 0` (morat's engines: seconds per move, no game or flexible time)
    NONE = "none"  # nothing: the engine keeps its own default


_INTERPRETERS = r"(python|pypy|node|java|ruby|perl|julia|Rscript|dotnet|mono)[0-9.]*(\.exe)?$"


@dataclass(frozen=True)
class GtpSettings:
    """How to start and talk to one external GTP engine; picklable so workers can start their own copy.

    A plain value: the config reader checks what a config gives it (`read_gtp` in the tournament layer).
    """

    command: tuple[str, ...]
    first_color: FirstColor = FirstColor.BLACK
    rows: RowOrder = RowOrder.NORMAL
    swap: SwapDialect = SwapDialect.NONE
    setup: tuple[str, ...] = ()
    pie_policy: PiePolicy = PiePolicy.CENTER
    name: str = ""
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    startup_seconds: float = 10.0
    command_seconds: float = 5.0
    grace_seconds: float = 1.0
    untimed_seconds: float = 300.0
    kadon_boardsize: str = ""
    time_command: TimeCommand = TimeCommand.GTP
    chatter_lines: int = 0  # lines (statistics, logs) an engine may print on stdout before an answer
    log: bool = False  # write its GTP transcript, per game, under the results folder (gtp-logs/)
    game: Game | None = None
    """The game the engine plays (moves travel in its notation); None until the config reader binds the tournament's
    game: a transport alone needs none, a GtpBot refuses to start without one."""
    swap_style: SwapStyle = SwapStyle.EXCHANGE

    @property
    def display_name(self) -> str:
        """The name to show for this engine: `name`, else the program's (or an interpreted script's) file name."""
        if self.name:
            return self.name
        program = os.path.basename(self.command[0])
        if re.match(_INTERPRETERS, program):
            args = iter(self.command[1:])
            for arg in args:
                if arg == "-m":
                    return next(args, program)
                if arg == "-c":
                    return program
                if not arg.startswith("-"):
                    return os.path.basename(arg)
        return program

    @property
    def environment(self) -> dict[str, str] | None:
        """The full environment for the engine process (ours plus `env`), or None to inherit ours unchanged."""
        if not self.env:
            return None
        merged = dict(os.environ)
        merged.update(self.env)
        return merged


def check_engine(settings: GtpSettings, board: Board | None = None) -> None:
    """Check, without starting it, that the engine's program exists and is executable (and can play `board`)."""
    if board is not None:
        check_board(settings, board)
    program = settings.command[0]
    where = f"engine {settings.display_name!r}"
    if settings.cwd is not None and not os.path.isdir(settings.cwd):
        raise ConfigError(f"{where}: working directory {settings.cwd!r} does not exist")
    if os.sep in program or (os.altsep and os.altsep in program):
        path = program if os.path.isabs(program) or settings.cwd is None else os.path.join(settings.cwd, program)
        if not os.path.exists(path):
            raise ConfigError(f"{where}: program {program!r} does not exist (looked for {os.path.abspath(path)!r})")
        if os.path.isdir(path):
            raise ConfigError(f"{where}: program {program!r} is a directory, not an executable file")
        if not os.access(path, os.X_OK):
            raise ConfigError(
                f"{where}: program {program!r} is not executable; run 'chmod +x {program}' "
                "or start it through its interpreter, like [python3, script.py]"
            )
        return
    search_path = dict(settings.env).get("PATH", os.environ.get("PATH", os.defpath))
    if shutil.which(program, path=search_path) is None:
        raise ConfigError(f"{where}: program {program!r} is not found on PATH; give its full path")


def check_board(settings: GtpSettings, board: Board) -> None:
    """Raise ConfigError when the engine's settings cannot play on `board` (kadon needs `kadon_boardsize`)."""
    game = check_game(settings)
    where = f"engine {settings.display_name!r}"
    try:
        game.parse_board(board.spec)
    except YTourneyError as err:
        raise ConfigError(f"{where} plays {game.name!r} (gtp.game), which cannot be played on {board.spec!r}: "
                          f"{err}") from err
    dialect = game.engine_dialect()
    if dialect.boardsize(board, settings.kadon_boardsize) is None:
        raise ConfigError(
            f"engine {settings.display_name!r} cannot play board {board.spec!r}: GTP has no standard {board.spec} "
            "board; set gtp.kadon_boardsize to the argument its boardsize command takes for it (e.g. 'kadon')"
        )
    rows = RowOrder(settings.rows).value
    misfit = dialect.row_misfit(board, rows)
    if misfit:
        raise ConfigError(f"engine {settings.display_name!r}: rows {rows!r} {misfit}, not to {board.spec!r}")


def check_game(settings: GtpSettings) -> Game:
    """The engine's game; ConfigError when it has none or a dialect key does not fit that game."""
    where = f"engine {settings.display_name!r}"
    game = settings.game
    if not isinstance(game, Game):
        raise ConfigError(f"{where}: gtp.game: no game is bound to the engine (got {game!r})")
    if settings.first_color == FirstColor.WHITE and game.first_color is not Color.BLACK:
        raise ConfigError(
            f"{where}: gtp.first_color 'white' renames the first mover of a game Black starts, but in "
            f"{game.name!r} {game.first_color} moves first; leave gtp.first_color out for this game"
        )
    if settings.swap_style == SwapStyle.RECOLOR and not game.has_pie:
        raise ConfigError(f"{where}: gtp.swap_style 'recolor' needs a game with the pie rule; {game.name!r} has none")
    if settings.swap_style == SwapStyle.RECOLOR and settings.swap == SwapDialect.NONE:
        raise ConfigError(f"{where}: gtp.swap_style 'recolor' describes what `play C swap` does on the engine's board; "
                          "with gtp.swap 'none' it never hears of a swap: set gtp.swap to 'play' or 'genmove'")
    time_command = TimeCommand(settings.time_command).value
    known = game.engine_dialect().time_commands
    if time_command not in (TimeCommand.GTP.value, TimeCommand.NONE.value) and time_command not in known:
        expected = ", ".join(command.value for command in TimeCommand if command.value in known or command in (
            TimeCommand.GTP, TimeCommand.NONE))
        raise ConfigError(f"{where}: gtp.time_command {time_command!r} is a command of other games' engines; "
                          f"{game.name!r} engines take one of {expected}")
    return game
