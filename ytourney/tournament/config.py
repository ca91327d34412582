"""Tournament configs: YAML read with a safe loader and validated into small frozen dataclasses.

Every error names the file, the key path (`players[2].gtp.command`), what was expected and what was found, and
suggests the close key for a typo. Paths in a config resolve relative to the config file's folder first, then
to the current directory: plugin files (`bot: bots/my_bot.py:MyBot`), opening files, an engine program given
with a slash (`command: [./engines/foo, --gtp]`) and an engine's `cwd`. Other engine arguments are passed as
written; the engine runs in its `cwd` when given, else in the directory `ytourney` runs from.
"""

from __future__ import annotations

import difflib
import enum
import hashlib
import json
import math
import os
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ytourney.errors import (
    BotSpecError,
    ConfigError,
    HandicapError,
    SprtError,
    YTourneyError,
)
from ytourney.game.board import Board, parse_board
from ytourney.game.notation import SWAP, parse_move
from ytourney.game.rules import Rules
from ytourney.game.state import GameState
from ytourney.players.clock import TimeControl
from ytourney.players.spec import BotKind, BotSpec, parse_bot_spec
from ytourney.stats.handicap import HandicapMode, HandicapSettings
from ytourney.stats.ratings import HandicapRating
from ytourney.stats.sprt import SprtSettings

DEFAULT_GAMES_PER_PAIR = 2
DEFAULT_FAULT_LIMIT = 5
DEFAULT_GRACE_SECONDS = 1.0
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$")
EXECUTION_KEYS = ("workers", "ratings", "fault_limit")
"""Top-level keys that may change between a run and its resume: they never change which games are played."""

_TOP_KEYS = ("name", "board", "rules", "schedule", "handicap", "time", "ratings", "workers", "seed", "fault_limit",
             "players")
_RULE_KEYS = ("pie", "misere")
_SCHEDULE_KEYS = ("format", "games_per_pair", "challenger", "openings", "sprt")
_OPENING_KEYS = ("file", "random_plies", "order")
_HANDICAP_KEYS = ("mode", "level", "max_level", "target", "stop_width")
_TIME_KEYS = ("move_seconds", "grace_seconds", "game_seconds", "increment")
_RATING_KEYS = ("mu", "sigma", "beta", "tau", "handicap")
_PLAYER_KEYS = ("name", "bot", "gtp")


class ScheduleFormat(str, enum.Enum):
    """Who plays whom."""

    ROUND_ROBIN = "round-robin"
    GAUNTLET = "gauntlet"
    MATCH = "match"


class OpeningOrder(str, enum.Enum):
    """How opening lines are handed out to game pairs."""

    SEQUENTIAL = "sequential"
    RANDOM = "random"


@dataclass(frozen=True)
class OpeningSettings:
    """Openings for games without the pie rule: lines from a file, or N random plies; a pair of games shares one."""

    lines: tuple[tuple[int, ...], ...] = ()
    file: str | None = None
    random_plies: int = 0
    order: OpeningOrder = OpeningOrder.SEQUENTIAL


@dataclass(frozen=True)
class ScheduleSettings:
    """Pairings: format, games per pair (seats balanced in pairs of games), gauntlet challenger, openings."""

    format: ScheduleFormat = ScheduleFormat.ROUND_ROBIN
    games_per_pair: int = DEFAULT_GAMES_PER_PAIR
    challenger: str | None = None
    openings: OpeningSettings | None = None
    sprt: SprtSettings | None = None


@dataclass(frozen=True)
class TimeSettings:
    """Per-move seconds or a game clock (game_seconds + increment); grace before a late answer loses on time."""

    move_seconds: float | None = None
    grace_seconds: float = DEFAULT_GRACE_SECONDS
    game_seconds: float | None = None
    increment: float = 0.0

    def time_control(self) -> TimeControl | None:
        """The referee's TimeControl, or None for untimed games."""
        if self.move_seconds is None and self.game_seconds is None:
            return None
        return TimeControl(self.move_seconds, self.grace_seconds, self.game_seconds, self.increment)

    def describe(self) -> str:
        """Short human summary."""
        if self.game_seconds is not None:
            return f"{self.game_seconds:g}s + {self.increment:g}s per move (grace {self.grace_seconds:g}s)"
        if self.move_seconds is not None:
            return f"{self.move_seconds:g}s per move (grace {self.grace_seconds:g}s)"
        return "untimed (built-in bots use their playout budgets)"


@dataclass(frozen=True)
class RatingConfig:
    """TrueSkill parameters of the final table (Y has no draws)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    beta: float = 25.0 / 6
    tau: float = 25.0 / 300
    handicap: HandicapRating = HandicapRating.LEARN  # learn each level's worth, or rate handicap games as even


@dataclass(frozen=True)
class PlayerConfig:
    """One seated player: a unique name and the spec workers build it from."""

    name: str
    spec: BotSpec
    spec_text: str

    @property
    def own_budget(self) -> bool:
        """True for a built-in bot given an explicit `playouts=`: it keeps that budget whatever the time control."""
        return self.spec.kind is BotKind.BUILTIN and any(key == "playouts" and value
                                                         for key, value in self.spec.options)


@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament config (DESIGN §3) plus its source text and canonical form."""

    name: str
    board: str
    rules: Rules
    schedule: ScheduleSettings
    handicap: HandicapSettings
    time: TimeSettings
    ratings: RatingConfig
    workers: int | None
    seed: int
    fault_limit: int
    players: tuple[PlayerConfig, ...]
    text: str = ""
    path: str = ""
    canonical: str = "{}"

    @property
    def player_names(self) -> tuple[str, ...]:
        """Names in config order."""
        return tuple(p.name for p in self.players)

    def player(self, name: str) -> PlayerConfig:
        """The player called `name`."""
        for player in self.players:
            if player.name == name:
                return player
        raise ConfigError(f"no player named {name!r}; players: {', '.join(self.player_names)}")

    def key(self) -> dict[str, Any]:
        """The canonical form compared when a results folder is reopened (execution-only keys left out)."""
        return json.loads(self.canonical)

    def digest(self) -> str:
        """SHA-256 of the canonical form."""
        return hashlib.sha256(self.canonical.encode("utf-8")).hexdigest()


# --- loading -----------------------------------------------------------------------------------------------


class _StrictLoader(yaml.SafeLoader):
    """The safe loader, refusing duplicate keys instead of silently keeping the last one."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    seen: dict[Any, yaml.Node] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if isinstance(key, (Mapping, list)):
            continue  # reported as a bad key type later
        if key in seen:
            mark = key_node.start_mark
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first given on line {seen[key].start_mark.line + 1})", mark
            )
        seen[key] = key_node
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_config(path: str | os.PathLike[str]) -> TournamentConfig:
    """Read and validate the YAML config at `path`."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"cannot read config file {str(path)!r}: {err}") from err
    return parse_config(text, source=str(path), base_dir=file.resolve().parent)


def parse_config(text: str, source: str = "<config>", base_dir: str | os.PathLike[str] | None = None) -> TournamentConfig:
    """Validate config text; `source` names it in errors, `base_dir` anchors its relative paths."""
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # a SafeLoader subclass: safe_load semantics
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = err.problem or err.context or "invalid YAML"
        raise ConfigError(f"{source}: {where}invalid YAML: {problem}") from err
    except yaml.YAMLError as err:
        raise ConfigError(f"{source}: invalid YAML: {err}") from err
    reader = _Reader(source, Path(base_dir) if base_dir is not None else Path.cwd())
    return reader.config(data, text)


def _kind(value: Any) -> str:
    """How a found value is described in errors."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"boolean {value!r}"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {value!r}"


def derive_seed(*parts: object) -> int:
    """A 31-bit seed from any parts (stable across runs, platforms and Python versions)."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


class _Reader:
    """Walks the YAML tree, turning it into dataclasses and raising ConfigErrors with key paths."""

    def __init__(self, source: str, base_dir: Path) -> None:
        self.source = source
        self.base_dir = base_dir

    def error(self, path: str, message: str) -> ConfigError:
        """An error naming the file and the key path."""
        return ConfigError(f"{self.source}: {path}: {message}" if path else f"{self.source}: {message}")

    # --- generic checks -------------------------------------------------------------------------------

    def mapping(self, value: Any, path: str, keys: Sequence[str]) -> Mapping[str, Any]:
        """Check a mapping whose keys all belong to `keys`."""
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise self.error(path, f"expected a mapping with keys {', '.join(keys)}; found {_kind(value)}")
        for key in value:
            if not isinstance(key, str):
                raise self.error(path, f"keys must be text; found {_kind(key)}")
            if key not in keys:
                sub = f"{path}.{key}" if path else key
                close = difflib.get_close_matches(key, keys, n=1, cutoff=0.6)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise self.error(sub, f"unknown key{hint} (accepted here: {', '.join(keys)})")
        return value

    def number(self, value: Any, path: str, *, minimum: float | None = None, positive: bool = False,
               maximum: float | None = None) -> float:
        """A finite number within bounds."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.error(path, f"expected a number; found {_kind(value)}")
        if positive and value <= 0:
            raise self.error(path, f"expected a number > 0; found {value!r}")
        if minimum is not None and value < minimum:
            raise self.error(path, f"expected a number >= {minimum:g}; found {value!r}")
        if maximum is not None and value > maximum:
            raise self.error(path, f"expected a number <= {maximum:g}; found {value!r}")
        return float(value)

    def integer(self, value: Any, path: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
        """A whole number within bounds."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(path, f"expected a whole number; found {_kind(value)}")
        if minimum is not None and value < minimum:
            raise self.error(path, f"expected a whole number >= {minimum}; found {value!r}")
        if maximum is not None and value > maximum:
            raise self.error(path, f"expected a whole number <= {maximum}; found {value!r}")
        return value

    def boolean(self, value: Any, path: str) -> bool:
        """true or false."""
        if not isinstance(value, bool):
            raise self.error(path, f"expected true or false; found {_kind(value)}")
        return value

    def text(self, value: Any, path: str) -> str:
        """A non-empty string."""
        if not isinstance(value, str) or not value.strip():
            raise self.error(path, f"expected a non-empty string; found {_kind(value)}")
        return value.strip()

    def choice(self, value: Any, path: str, choices: type[enum.Enum]) -> Any:
        """One member of an enum by its value."""
        allowed = [member.value for member in choices]
        if isinstance(value, str) and value.strip().lower() in allowed:
            return choices(value.strip().lower())
        close = difflib.get_close_matches(str(value).lower(), allowed, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise self.error(path, f"expected one of {', '.join(allowed)}; found {_kind(value)}{hint}")

    def resolve(self, relative: str) -> Path | None:
        """An existing path: as given if absolute, else under the config's folder, else under the CWD."""
        candidate = Path(relative).expanduser()
        if candidate.is_absolute():
            return candidate if candidate.exists() else None
        for base in (self.base_dir, Path.cwd()):
            if (base / candidate).exists():
                return (base / candidate).resolve()
        return None

    def looked_in(self, relative: str) -> str:
        """Where `resolve` looked, for error messages."""
        places = [str(self.base_dir), str(Path.cwd())]
        return " and ".join(repr(p) for p in dict.fromkeys(places))

    # --- sections ---------------------------------------------------------------------------------------

    def config(self, data: Any, text: str) -> TournamentConfig:
        """The whole config."""
        if data is None:
            raise self.error("", "the config is empty; expected a mapping with at least 'players'")
        top = self.mapping(data, "", _TOP_KEYS)
        name = self.name(top)
        board = self.board(top.get("board", "tri:11"))
        rules = self.rules(top.get("rules"))
        players = self.players(top.get("players"))
        handicap = self.handicap(top.get("handicap"), board)
        schedule = self.schedule(top.get("schedule"), players, board, rules, handicap)
        time = self.time(top.get("time"))
        ratings = self.ratings(top.get("ratings"))
        workers = None if top.get("workers") is None else self.integer(top["workers"], "workers", minimum=1,
                                                                        maximum=1024)
        seed = derive_seed("ytourney", name) if top.get("seed") is None else self.integer(top["seed"], "seed",
                                                                                           minimum=0)
        fault_limit = DEFAULT_FAULT_LIMIT if top.get("fault_limit") is None else self.integer(
            top["fault_limit"], "fault_limit", minimum=0)
        canonical = self.canonical(top, name, board, rules, schedule, handicap, time, seed, players)
        return TournamentConfig(
            name=name, board=board.spec, rules=rules, schedule=schedule, handicap=handicap, time=time,
            ratings=ratings, workers=workers, seed=seed, fault_limit=fault_limit, players=players, text=text,
            path=self.source, canonical=canonical,
        )

    def name(self, top: Mapping[str, Any]) -> str:
        """The tournament name, also its default results folder."""
        if "name" not in top:
            stem = Path(self.source).stem
            if NAME_PATTERN.match(stem):
                return stem
            raise self.error("name", "missing; give the tournament a name (it names the results folder)")
        name = self.text(top["name"], "name")
        if not NAME_PATTERN.match(name):
            raise self.error(
                "name", f"expected letters, digits, '.', '_', '+' or '-' (at most 64, results go to results/<name>/);"
                f" found {name!r}"
            )
        return name

    def board(self, value: Any) -> Board:
        """The board spec."""
        if not isinstance(value, str):
            raise self.error("board", f"expected a board spec like 'tri:11' or 'kadon'; found {_kind(value)}")
        try:
            return parse_board(value)
        except YTourneyError as err:
            raise self.error("board", str(err)) from err

    def rules(self, value: Any) -> Rules:
        """Pie and misère."""
        section = self.mapping(value, "rules", _RULE_KEYS)
        pie = self.boolean(section["pie"], "rules.pie") if "pie" in section else True
        misere = self.boolean(section["misere"], "rules.misere") if "misere" in section else False
        return Rules(pie=pie, misere=misere)

    def players(self, value: Any) -> tuple[PlayerConfig, ...]:
        """The player list; names unique."""
        if value is None:
            raise self.error("players", "missing; list at least 2 players, like '- {name: r, bot: random}'")
        if not isinstance(value, list):
            raise self.error("players", f"expected a list of players; found {_kind(value)}")
        players: list[PlayerConfig] = []
        seen: dict[str, int] = {}
        for index, item in enumerate(value):
            player = self.player(item, f"players[{index}]")
            if player.name in seen:
                raise self.error(
                    f"players[{index}].name",
                    f"duplicate player name {player.name!r} (also players[{seen[player.name]}]); names must be unique",
                )
            seen[player.name] = index
            players.append(player)
        if len(players) < 2:
            raise self.error("players", f"expected at least 2 players; found {len(players)}")
        return tuple(players)

    def player(self, value: Any, path: str) -> PlayerConfig:
        """One player: `bot:` spec or `gtp:` engine."""
        if isinstance(value, str):
            value = {"bot": value}
        section = self.mapping(value, path, _PLAYER_KEYS)
        if ("bot" in section) == ("gtp" in section):
            raise self.error(path, "expected exactly one of 'bot' (a built-in or plugin spec) or 'gtp' (an engine)")
        if "bot" in section:
            spec_text = self.text(section["bot"], f"{path}.bot")
            spec = self.bot_spec(spec_text, f"{path}.bot")
            default_name = spec_text
        else:
            spec = self.gtp_spec(section["gtp"], f"{path}.gtp")
            spec_text = "gtp: " + shlex.join(spec.gtp.command)
            default_name = ""
        if "name" in section:
            name = self.text(section["name"], f"{path}.name")
        elif default_name:
            name = default_name
        else:
            raise self.error(f"{path}.name", "missing; a gtp player needs a name")
        if len(name) > 64 or any(ch in name for ch in "\n\r\t"):
            raise self.error(f"{path}.name", f"expected a single-line name of at most 64 characters; found {name!r}")
        return PlayerConfig(name, spec, spec_text)

    def bot_spec(self, text: str, path: str) -> BotSpec:
        """A built-in or plugin spec; plugin paths resolved (config folder, then CWD)."""
        try:
            spec = parse_bot_spec(text)
        except BotSpecError as err:
            raise self.error(path, str(err)) from err
        if spec.kind is BotKind.PLUGIN:
            found = self.resolve(spec.path or "")
            if found is None or not found.is_file():
                raise self.error(path, f"plugin file {spec.path!r} not found (looked in {self.looked_in(spec.path or '')})")
            spec = BotSpec(BotKind.PLUGIN, spec.name, spec.options, path=str(found))
        return spec

    def gtp_spec(self, value: Any, path: str) -> BotSpec:
        """An external engine; a program given with a slash and `cwd` are resolved (config folder, then CWD)."""
        from ytourney.players.gtp.settings import GtpSettings

        data = dict(value) if isinstance(value, Mapping) else value
        if isinstance(data, dict):
            command = data.get("command")
            if isinstance(command, str):
                try:
                    command = shlex.split(command)
                except ValueError:
                    command = data.get("command")  # GtpSettings reports the split error
            if isinstance(command, list) and command and isinstance(command[0], str) and "/" in command[0]:
                found = self.resolve(command[0])
                if found is not None:
                    data["command"] = [str(found), *command[1:]]
            cwd = data.get("cwd")
            if isinstance(cwd, str) and cwd.strip():
                found = self.resolve(cwd)
                if found is None or not found.is_dir():
                    raise self.error(f"{path}.cwd", f"directory {cwd!r} not found (looked in {self.looked_in(cwd)})")
                data["cwd"] = str(found)
        try:
            settings = GtpSettings.from_mapping(data, path)
        except ConfigError as err:
            raise ConfigError(f"{self.source}: {err}") from err
        return BotSpec(BotKind.GTP, settings.display_name, gtp=settings)

    def handicap(self, value: Any, board: Board) -> HandicapSettings:
        """Handicap mode (none, fixed with level, auto) and the ladder's bounds."""
        section = self.mapping(value, "handicap", _HANDICAP_KEYS)
        values = dict(section)
        if "mode" in values:
            values["mode"] = self.choice(values["mode"], "handicap.mode", HandicapMode)
        if values.get("mode") is HandicapMode.FIXED and "level" not in values:
            raise self.error("handicap.level", "missing; mode fixed needs the level every weaker player receives")
        for key in ("level", "target", "stop_width"):
            if key in values and values[key] is not None:
                self.number(values[key], f"handicap.{key}")
        if "max_level" in values:
            self.integer(values["max_level"], "handicap.max_level")
        try:
            settings = HandicapSettings(**values)
        except HandicapError as err:
            message = str(err)
            key = next((k for k in _HANDICAP_KEYS if f"handicap {k} " in message), "")
            raise self.error(f"handicap.{key}" if key else "handicap", message) from err
        top_level = math.ceil(settings.level) if settings.mode is HandicapMode.FIXED else settings.max_level
        if settings.mode is not HandicapMode.NONE and top_level >= board.num_cells - 1:
            raise self.error(
                "handicap.level" if settings.mode is HandicapMode.FIXED else "handicap.max_level",
                f"expected fewer handicap stones than board {board.spec!r} can take ({board.num_cells} cells); "
                f"found {top_level}",
            )
        return settings

    def schedule(self, value: Any, players: Sequence[PlayerConfig], board: Board, rules: Rules,
                 handicap: HandicapSettings) -> ScheduleSettings:
        """Format, games per pair, challenger, openings and SPRT."""
        section = self.mapping(value, "schedule", _SCHEDULE_KEYS)
        fmt = self.choice(section.get("format", "round-robin"), "schedule.format", ScheduleFormat)
        games = DEFAULT_GAMES_PER_PAIR if "games_per_pair" not in section else self.integer(
            section["games_per_pair"], "schedule.games_per_pair", minimum=1, maximum=1_000_000)
        names = [p.name for p in players]
        challenger = None
        if fmt is ScheduleFormat.GAUNTLET:
            if "challenger" not in section:
                raise self.error("schedule.challenger", "missing; a gauntlet names the player who meets all others")
            challenger = self.text(section["challenger"], "schedule.challenger")
            if challenger not in names:
                close = difflib.get_close_matches(challenger, names, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise self.error("schedule.challenger",
                                 f"expected one of the player names ({', '.join(names)}); found {challenger!r}{hint}")
        elif "challenger" in section:
            raise self.error("schedule.challenger", f"only used with format gauntlet, not {fmt.value!r}")
        if fmt is ScheduleFormat.MATCH and len(players) != 2:
            raise self.error("players", f"format match needs exactly 2 players; found {len(players)}")
        sprt = None
        if section.get("sprt") is not None:
            if fmt is not ScheduleFormat.MATCH:
                raise self.error("schedule.sprt", f"only used with format match, not {fmt.value!r}")
            sprt = self.sprt(section["sprt"])
        openings = None
        if section.get("openings") is not None:
            openings = self.openings(section["openings"], board, rules, handicap)
        return ScheduleSettings(fmt, games, challenger, openings, sprt)

    def sprt(self, value: Any) -> SprtSettings:
        """SPRT of a match: win probabilities p0 < p1 of the first-listed player, error rates alpha and beta."""
        try:
            return SprtSettings.from_mapping(value, "schedule.sprt")
        except SprtError as err:
            message = str(err)
            key = next((k for k in ("p0", "p1", "alpha", "beta") if f"sprt {k} " in message or f".{k}" in message), "")
            raise self.error(f"schedule.sprt.{key}" if key else "schedule.sprt", message) from err

    def openings(self, value: Any, board: Board, rules: Rules, handicap: HandicapSettings) -> OpeningSettings:
        """Opening lines from a file, or random plies."""
        path = "schedule.openings"
        if isinstance(value, str):
            value = {"file": value}
        section = self.mapping(value, path, _OPENING_KEYS)
        if rules.pie:
            raise self.error(path, "openings are for games without the pie rule; set rules.pie: false")
        if handicap.mode is not HandicapMode.NONE:
            raise self.error(path, "openings are for even games; set handicap.mode: none")
        if ("file" in section) == ("random_plies" in section):
            raise self.error(path, "expected exactly one of 'file' (opening lines) or 'random_plies' (a number)")
        order = self.choice(section.get("order", "sequential"), f"{path}.order", OpeningOrder)
        if "random_plies" in section:
            plies = self.integer(section["random_plies"], f"{path}.random_plies", minimum=1,
                                 maximum=max(1, board.num_cells // 2))
            return OpeningSettings(random_plies=plies, order=order)
        name = self.text(section["file"], f"{path}.file")
        found = self.resolve(name)
        if found is None or not found.is_file():
            raise self.error(f"{path}.file", f"opening file {name!r} not found (looked in {self.looked_in(name)})")
        lines = self.opening_lines(found, name, board, rules)
        return OpeningSettings(lines=lines, file=str(found), order=order)

    def opening_lines(self, file: Path, name: str, board: Board, rules: Rules) -> tuple[tuple[int, ...], ...]:
        """Parse and check an opening file: one line of move tokens each; '#' starts a comment."""
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise self.error("schedule.openings.file", f"cannot read {name!r}: {err}") from err
        lines: list[tuple[int, ...]] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            tokens = raw.split("#", 1)[0].replace(",", " ").split()
            if not tokens:
                continue
            state = GameState(board, rules)
            moves: list[int] = []
            for token in tokens:
                try:
                    move = parse_move(board, token)
                    if move == SWAP:
                        raise ConfigError("swap is not an opening move")
                    state.play(move)
                except YTourneyError as err:
                    raise self.error("schedule.openings.file", f"{name} line {number}: {token!r}: {err}") from err
                moves.append(move)
            if state.is_over:
                raise self.error("schedule.openings.file", f"{name} line {number}: the opening already ends the game")
            lines.append(tuple(moves))
        if not lines:
            raise self.error("schedule.openings.file", f"{name} holds no opening lines")
        return tuple(lines)

    def time(self, value: Any) -> TimeSettings:
        """Per-move seconds or a game clock."""
        section = self.mapping(value, "time", _TIME_KEYS)
        move = None if section.get("move_seconds") is None else self.number(section["move_seconds"],
                                                                           "time.move_seconds", positive=True)
        game = None if section.get("game_seconds") is None else self.number(section["game_seconds"],
                                                                           "time.game_seconds", positive=True)
        if move is not None and game is not None:
            raise self.error("time", "expected either move_seconds or a game clock (game_seconds + increment), "
                             "not both")
        increment = 0.0
        if "increment" in section:
            if game is None:
                raise self.error("time.increment", "only used with game_seconds")
            increment = self.number(section["increment"], "time.increment", minimum=0)
        grace = DEFAULT_GRACE_SECONDS if section.get("grace_seconds") is None else self.number(
            section["grace_seconds"], "time.grace_seconds", minimum=0)
        return TimeSettings(move, grace, game, increment)

    def ratings(self, value: Any) -> RatingConfig:
        """TrueSkill parameters."""
        section = self.mapping(value, "ratings", _RATING_KEYS)
        values = {}
        if "handicap" in section:
            values["handicap"] = self.choice(section["handicap"], "ratings.handicap", HandicapRating)
        for key in _RATING_KEYS[:4]:
            if key in section:
                values[key] = self.number(section[key], f"ratings.{key}", minimum=0 if key == "tau" else None,
                                          positive=key in ("sigma", "beta"))
        return RatingConfig(**values)

    def canonical(self, top: Mapping[str, Any], name: str, board: Board, rules: Rules, schedule: ScheduleSettings,
                  handicap: HandicapSettings, time: TimeSettings, seed: int, players: Sequence[PlayerConfig]) -> str:
        """JSON of everything that decides which games are played, as written (paths unresolved)."""
        openings: dict[str, Any] | None = None
        if schedule.openings is not None:
            lines = [" ".join(str(m) for m in line) for line in schedule.openings.lines]
            openings = {
                "random_plies": schedule.openings.random_plies,
                "order": schedule.openings.order.value,
                "lines_sha256": hashlib.sha256("\n".join(lines).encode()).hexdigest() if lines else None,
            }
        raw_players = []
        for item, player in zip(top.get("players") or [], players):
            entry: dict[str, Any] = {"name": player.name}
            if player.spec.kind is BotKind.GTP:
                entry["gtp"] = dict(item["gtp"]) if isinstance(item, Mapping) else None
            else:
                entry["bot"] = player.spec_text
            raw_players.append(entry)
        key = {
            "name": name,
            "board": board.spec,
            "rules": rules.to_dict(),
            "schedule": {
                "format": schedule.format.value,
                "games_per_pair": schedule.games_per_pair,
                "challenger": schedule.challenger,
                "openings": openings,
                "sprt": None if schedule.sprt is None else schedule.sprt.to_dict(),
            },
            "handicap": {
                "mode": handicap.mode.value, "level": handicap.level, "max_level": handicap.max_level,
                "target": handicap.target, "stop_width": handicap.stop_width,
            },
            "time": vars(time).copy(),
            "seed": seed,
            "players": raw_players,
        }
        return json.dumps(key, sort_keys=True, default=str)
