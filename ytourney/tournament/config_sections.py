"""Config sections that belong to other layers, read into those layers' own types.

An engine's `gtp:` block becomes a GtpSettings, `schedule.sprt` an SprtSettings, `ratings` a RatingSettings,
`handicap` a HandicapSettings, `time` the referee's TimeControl and `adjudication` its Adjudication. Those types are plain values: every check of
what a config may hold in them is made here, and each failure is a ConfigError naming the key path.
"""

from __future__ import annotations

import dataclasses
import math
import shlex
from collections.abc import Mapping
from typing import Any

from ytourney.boards.board import Board
from ytourney.games.api import Game
from ytourney.players.clock import TimeControl
from ytourney.players.gtp.settings import (
    FirstColor,
    GtpSettings,
    PiePolicy,
    RowOrder,
    SwapDialect,
    SwapStyle,
    TimeCommand,
)
from ytourney.stats.elo_sprt import EloSprtSettings, SprtModel
from ytourney.stats.handicap import HandicapMode, HandicapSettings
from ytourney.stats.ratings import RATING_BOUNDS, HandicapRating, RatingSettings
from ytourney.stats.sprt import SprtSettings
from ytourney.tournament.adjudication import (
    DEFAULT_ADJUDICATION,
    NO_ADJUDICATION,
    Adjudication,
    DrawRule,
    ResignRule,
)
from ytourney.tournament.config_fields import FieldReader

GTP_KEYS = tuple(field.name for field in dataclasses.fields(GtpSettings))
SPRT_KEYS = ("p0", "p1", "alpha", "beta")
ELO_SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model")
MAX_SPRT_ELO = 1000.0
"""The largest Elo difference an SPRT hypothesis may name (scores beyond it are indistinguishable from 0 or 1)."""
RATING_KEYS = ("mu", "sigma", "beta", "tau", "draw_probability", "handicap")
HANDICAP_KEYS = ("mode", "level", "max_level", "target", "stop_width")
TIME_KEYS = ("move_seconds", "grace_seconds", "game_seconds", "increment")
ADJUDICATION_KEYS = ("resign", "draw")
RESIGN_KEYS = ("proved", "movecount", "score", "twosided")
DRAW_KEYS = ("plies",)
MAX_ADJUDICATION_COUNT = 100_000
"""The most moves (resign) or plies (draw) an adjudication rule may wait for."""
MAX_HANDICAP_LEVEL = 50
"""The highest ladder top a config may ask for."""
MAX_CHATTER_LINES = 100_000
"""The most lines an engine may be allowed to print before an answer (its bytes are capped by the client too)."""

_GTP_CHOICES: dict[str, type[FirstColor | RowOrder | SwapDialect | SwapStyle | PiePolicy | TimeCommand]] = {
    "first_color": FirstColor,
    "rows": RowOrder,
    "swap": SwapDialect,
    "swap_style": SwapStyle,
    "pie_policy": PiePolicy,
    "time_command": TimeCommand,
}
_GTP_SECONDS = ("startup_seconds", "command_seconds", "grace_seconds", "untimed_seconds")


def read_gtp(reader: FieldReader, value: Any, path: str) -> GtpSettings:
    """An external engine; a program given with a slash and `cwd` resolve against the config's folder, then the CWD."""
    section = reader.mapping(value, path, GTP_KEYS)
    if "command" not in section:
        raise reader.missing(f"{path}.command", "the engine's program and arguments",
                             "give the engine's program and arguments as a list")
    values: dict[str, Any] = {"command": _command(reader, section["command"], f"{path}.command")}
    for key, choices in _GTP_CHOICES.items():
        if key in section:
            values[key] = reader.choice(section[key], f"{path}.{key}", choices)
    if "setup" in section:
        values["setup"] = reader.texts(section["setup"], f"{path}.setup", single=True)
    for key in ("name", "kadon_boardsize"):
        if key in section:
            values[key] = reader.string(section[key], f"{path}.{key}")
    if "game" in section:  # a name: the config reader binds the tournament's game when this one names it
        reader.string(section["game"], f"{path}.game")
    if section.get("cwd") is not None:
        cwd = reader.text(section["cwd"], f"{path}.cwd")
        found = reader.existing(cwd, f"{path}.cwd", "directory", folder=True)
        values["cwd"] = str(found) if found is not None else cwd
    if section.get("env") is not None:
        values["env"] = _env(reader, section["env"], f"{path}.env")
    for key in _GTP_SECONDS:
        if key in section:
            limit = {"at_least": 0.0} if key == "grace_seconds" else {"above": 0.0}
            values[key] = reader.number(section[key], f"{path}.{key}", **limit)
    if "chatter_lines" in section:
        values["chatter_lines"] = reader.integer(section["chatter_lines"], f"{path}.chatter_lines", at_least=0,
                                                 at_most=MAX_CHATTER_LINES)
    if "log" in section:
        values["log"] = reader.boolean(section["log"], f"{path}.log")
    return GtpSettings(**values)


def _command(reader: FieldReader, value: Any, path: str) -> tuple[str, ...]:
    """The engine's command line: a list, or a string split like a shell would (without running one)."""
    if isinstance(value, str):
        try:
            value = shlex.split(value)
        except ValueError as err:
            raise reader.mismatch(path, value, "a command line with balanced quotes",
                                  found=f"{value!r} ({err})") from err
    elif isinstance(value, (list, tuple)):
        value = [str(item) if isinstance(item, (int, float)) and not isinstance(item, bool) else item for item in value]
    command = reader.texts(value, path)
    if not command:
        raise reader.mismatch(path, value, "the engine's program and arguments, like [path/to/engine, --gtp]",
                              found="an empty list")
    if reader.require_files and "/" in command[0]:
        found = reader.resolve(command[0])
        if found is not None:
            command = (str(found), *command[1:])
    return command


def _env(reader: FieldReader, value: Any, path: str) -> tuple[tuple[str, str], ...]:
    """Extra environment variables of the engine, sorted by name."""
    if not isinstance(value, Mapping):
        raise reader.mismatch(path, value, "a mapping of variable names to values")
    pairs = []
    for key, item in value.items():
        if not isinstance(key, str) or not key or "=" in key:
            raise reader.mismatch(path, key, "variable names (text without '=')", found=f"name {key!r}")
        if isinstance(item, bool) or not isinstance(item, (str, int, float)):
            raise reader.mismatch(f"{path}.{key}", item, "a string or number")
        pairs.append((key, str(item)))
    return tuple(sorted(pairs))


def read_sprt(reader: FieldReader, value: Any, path: str) -> SprtSettings | EloSprtSettings:
    """SPRT of a match: in Elo (elo0 < elo1, model) or in win probabilities (p0 < p1); error rates alpha, beta."""
    if isinstance(value, Mapping) and not {"p0", "p1"} & set(value):
        return _read_elo_sprt(reader, value, path)
    section = reader.mapping(value, path, SPRT_KEYS)
    for key in ("p0", "p1"):
        if key not in section:
            raise reader.missing(f"{path}.{key}", "a win probability",
                                 "expected a win probability of the tested player, such as 0.45")
    settings = SprtSettings(**{key: reader.number(section[key], f"{path}.{key}", above=0, below=1)
                               for key in SPRT_KEYS if key in section})
    if settings.p0 >= settings.p1:
        raise reader.mismatch(path, (settings.p0, settings.p1), "p0 < p1",
                              found=f"p0 {settings.p0:g} and p1 {settings.p1:g}")
    _check_error_rates(reader, settings.alpha, settings.beta, path)
    return settings


def _read_elo_sprt(reader: FieldReader, value: Any, path: str) -> EloSprtSettings:
    """The Elo form: `{elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: pentanomial}`."""
    section = reader.mapping(value, path, ELO_SPRT_KEYS)
    for key in ("elo0", "elo1"):
        if key not in section:
            raise reader.missing(f"{path}.{key}", "an Elo difference",
                                 "expected the tested player's Elo over its opponent under H0 (elo0) and H1 (elo1), "
                                 "such as elo0: 0, elo1: 5")
    elo0, elo1 = (reader.number(section[key], f"{path}.{key}", at_least=-MAX_SPRT_ELO, at_most=MAX_SPRT_ELO)
                  for key in ("elo0", "elo1"))
    alpha, beta = (reader.number(section.get(key, 0.05), f"{path}.{key}", above=0, below=1)
                   for key in ("alpha", "beta"))
    model = SprtModel.PENTANOMIAL if "model" not in section else reader.choice(section["model"], f"{path}.model",
                                                                                SprtModel)
    if elo0 >= elo1:
        raise reader.mismatch(path, (elo0, elo1), "elo0 < elo1", found=f"elo0 {elo0:g} and elo1 {elo1:g}")
    _check_error_rates(reader, alpha, beta, path)
    return EloSprtSettings(elo0, elo1, alpha, beta, model)


def _check_error_rates(reader: FieldReader, alpha: float, beta: float, path: str) -> None:
    if alpha + beta >= 1:
        raise reader.mismatch(path, (alpha, beta), "alpha + beta < 1", found=f"alpha {alpha:g} and beta {beta:g}")


def read_ratings(reader: FieldReader, value: Any, path: str) -> RatingSettings:
    """TrueSkill parameters and how handicap games are rated."""
    section = reader.mapping(value, path, RATING_KEYS)
    values: dict[str, Any] = {key: reader.number(section[key], f"{path}.{key}", at_least=low, at_most=high)
                              for key, (low, high) in RATING_BOUNDS.items() if key in section}
    if "handicap" in section:
        values["handicap"] = reader.choice(section["handicap"], f"{path}.handicap", HandicapRating)
    return RatingSettings(**values)


def read_handicap(reader: FieldReader, value: Any, path: str, board: Board) -> HandicapSettings:
    """Handicap mode (none, fixed with level, auto) and the ladder's bounds on this board."""
    section = reader.mapping(value, path, HANDICAP_KEYS)
    defaults = HandicapSettings()
    mode = defaults.mode if "mode" not in section else reader.choice(section["mode"], f"{path}.mode", HandicapMode)
    max_level = defaults.max_level if "max_level" not in section else reader.integer(
        section["max_level"], f"{path}.max_level", at_least=1, at_most=MAX_HANDICAP_LEVEL)
    level = defaults.level
    if mode is HandicapMode.FIXED and "level" not in section:
        raise reader.missing(f"{path}.level", "a handicap level",
                             "mode fixed needs the level every weaker player receives")
    if "level" in section:
        level = reader.number(section["level"], f"{path}.level", at_least=0, at_most=max_level)
        if level != 0 and mode is not HandicapMode.FIXED:
            raise reader.error(f"{path}.level", f"only used with mode fixed, not {mode.value!r}",
                               value=section["level"], expected="no level unless mode is fixed")
    target = defaults.target if "target" not in section else reader.number(
        section["target"], f"{path}.target", above=0, below=1)
    stop_width = None if section.get("stop_width") is None else reader.number(
        section["stop_width"], f"{path}.stop_width", above=0)
    settings = HandicapSettings(mode, level, max_level, target, stop_width)
    top_level = math.ceil(settings.level) if mode is HandicapMode.FIXED else max_level
    if mode is not HandicapMode.NONE and top_level >= board.num_cells - 1:
        key = "level" if mode is HandicapMode.FIXED else "max_level"
        raise reader.mismatch(f"{path}.{key}", section.get(key, top_level),
                              f"fewer handicap stones than board {board.spec!r} can take ({board.num_cells} cells)",
                              found=str(top_level))
    return settings


def fit_to_ladder(reader: FieldReader, handicap: HandicapSettings, game: Game, rules: Any, value: Any
                  ) -> HandicapSettings:
    """The handicap settings within the top of the game's ladder under `rules` (a ladder of a rule's range): an
    auto run without its own max_level stops at the top; a level or max_level given past it is refused."""
    axis = game.handicap_axis
    if axis is None or handicap.mode is HandicapMode.NONE:
        return handicap
    top_level = axis.top(game, rules)
    if top_level is None:
        return handicap
    fixed = handicap.mode is HandicapMode.FIXED
    if not fixed and top_level == 0:
        raise reader.error("handicap.mode", f"{game.name}'s ladder has no level above 0 under these rules "
                           f"({axis.words})", value=handicap.mode.value,
                           expected="handicap: {mode: none}, or rules that leave room for one level")
    if not fixed and not (isinstance(value, Mapping) and "max_level" in value):
        handicap = dataclasses.replace(handicap, max_level=min(handicap.max_level, top_level))
    needed = math.ceil(handicap.level) if fixed else handicap.max_level
    if needed > top_level:
        key = "level" if fixed else "max_level"
        raise reader.error(f"handicap.{key}", f"handicap {key} {needed} is above the top of {game.name}'s ladder "
                           f"under these rules ({axis.words}): level {top_level}", value=needed,
                           expected=f"{key} <= {top_level}")
    return handicap


def read_time(reader: FieldReader, value: Any, path: str) -> TimeControl:
    """Per-move seconds or a game clock; neither is an untimed game."""
    section = reader.mapping(value, path, TIME_KEYS)
    move = None if section.get("move_seconds") is None else reader.number(
        section["move_seconds"], f"{path}.move_seconds", above=0)
    game = None if section.get("game_seconds") is None else reader.number(
        section["game_seconds"], f"{path}.game_seconds", above=0)
    if move is not None and game is not None:
        raise reader.error(path, "expected either move_seconds or a game clock (game_seconds + increment), not both",
                           value=dict(section), expected="move_seconds or game_seconds, not both")
    increment = 0.0
    if "increment" in section:
        if game is None:
            raise reader.error(f"{path}.increment", "only used with game_seconds", value=section["increment"],
                               expected="no increment without game_seconds")
        increment = reader.number(section["increment"], f"{path}.increment", at_least=0)
    grace = TimeControl().grace_seconds if section.get("grace_seconds") is None else reader.number(
        section["grace_seconds"], f"{path}.grace_seconds", at_least=0)
    return TimeControl(move, grace, game, increment)


def _switched_off(value: Any) -> bool | None:
    """False/'off' -> True (the rule is off), True/'on' -> False (on with its defaults), anything else None."""
    if value is False or (isinstance(value, str) and value.strip().lower() == "off"):
        return True
    if value is True or (isinstance(value, str) and value.strip().lower() == "on"):
        return False
    return None


def read_adjudication(reader: FieldReader, value: Any, path: str) -> Adjudication:
    """The resign and draw rules (tournament/adjudication.py): `off`, or `{resign: ..., draw: ...}`, each `off`, `on`
    or a mapping; keys left out take the defaults."""
    off = _switched_off(value)
    if off is not None:
        return NO_ADJUDICATION if off else DEFAULT_ADJUDICATION
    section = reader.mapping(value, path, ADJUDICATION_KEYS)
    return Adjudication(_read_resign(reader, section.get("resign"), f"{path}.resign"),
                        _read_draw(reader, section.get("draw"), f"{path}.draw"))


def _read_resign(reader: FieldReader, value: Any, path: str) -> ResignRule:
    off = _switched_off(value)
    if off is not None:
        return ResignRule(proved=False) if off else ResignRule()
    section = reader.mapping(value, path, RESIGN_KEYS)
    default = ResignRule()
    proved = default.proved if "proved" not in section else reader.boolean(section["proved"], f"{path}.proved")
    movecount = default.movecount if section.get("movecount") is None else reader.integer(
        section["movecount"], f"{path}.movecount", at_least=0, at_most=MAX_ADJUDICATION_COUNT)
    score = default.score if "score" not in section else reader.number(section["score"], f"{path}.score", above=0,
                                                                        below=0.5)
    twosided = default.twosided if "twosided" not in section else reader.boolean(section["twosided"],
                                                                                 f"{path}.twosided")
    for key in ("score", "twosided"):
        if key in section and not movecount:
            raise reader.error(f"{path}.{key}", "only used with movecount (the value rule: N moves in a row below "
                               "the score)", value=section[key], expected="movecount: N with it, or no " + key)
    return ResignRule(proved, movecount, score, twosided)


def _read_draw(reader: FieldReader, value: Any, path: str) -> DrawRule:
    off = _switched_off(value)
    if off is not None:
        return DrawRule(0) if off else DrawRule()
    section = reader.mapping(value, path, DRAW_KEYS)
    plies = section.get("plies", "auto")
    if isinstance(plies, str) and plies.strip().lower() == "auto":
        return DrawRule()
    if isinstance(plies, bool) or not isinstance(plies, int):
        raise reader.mismatch(f"{path}.plies", plies, "auto (the game's own number) or a whole number of plies")
    return DrawRule(reader.integer(plies, f"{path}.plies", at_least=1, at_most=MAX_ADJUDICATION_COUNT))
