"""Tournament configs: the one config reader, from YAML to the typed settings of every layer.

Every error is a ConfigError naming the file, the key path (`players[2].gtp.command`), what was expected and what
was found (with the close key for a typo). Paths in a config resolve relative to the config file's folder first,
then to the current directory: plugin files (`bot: bots/my_bot.py:MyBot`), opening files, an engine program given
with a slash (`command: [./engines/foo, --gtp]`) and an engine's `cwd`. Other engine arguments are passed as
written; the engine runs in its `cwd` when given, else in the directory `ytourney` runs from. The sections owned
by other layers (gtp, sprt, ratings, handicap, time) are read in `config_sections`.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import os
import re
import shlex
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ytourney.errors import BotSpecError, ConfigError, YTourneyError
from ytourney.boards.board import Board
from ytourney.games.api import Game
from ytourney.games.legacy import game_key, game_of
from ytourney.games.registry import game_names, get_game
from ytourney.games.rules import is_default_word
from ytourney.games.variant import Variant
from ytourney.players.clock import TimeControl
from ytourney.players.spec import BotKind, BotSpec, parse_bot_spec
from ytourney.players.untrusted import DEFAULT_MEMORY_MB
from ytourney.stats.elo_sprt import EloSprtSettings
from ytourney.stats.handicap import HandicapMode, HandicapSettings
from ytourney.stats.ratings import RatingSettings
from ytourney.stats.sprt import SprtSettings
from ytourney.tournament.adjudication import DEFAULT_ADJUDICATION, Adjudication
from ytourney.tournament.config_fields import (
    FieldReader,
    apply_override,
    close_hint,
    load_yaml,
)
from ytourney.tournament.config_openings import OpeningSettings, opening_key, read_openings
from ytourney.tournament.config_sections import (
    read_gtp,
    fit_to_ladder,
    read_handicap,
    read_ratings,
    read_sprt,
    read_adjudication,
    read_time,
)

DEFAULT_GAMES_PER_PAIR = 2
DEFAULT_TIEBREAK_GAMES = 4
"""Extra games a tied knockout match plays at most (in pairs, seats swapped) before the better seed goes through."""
MAX_TIEBREAK_GAMES = 100
DEFAULT_FAULT_LIMIT = 5
MIN_MEMORY_MB = 256
"""The smallest `memory_mb` other than 0: below it no Python process, plugin host or engine, can start."""
MAX_MEMORY_MB = 1 << 30
"""The largest `memory_mb` (a petabyte and more: practically no limit)."""
MAX_PLANNED_GAMES = 1_000_000
"""The most games one tournament may plan: its slot list is built in memory (about 2 s and 20 MB a million)."""
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$")

_TOP_KEYS = ("name", "game", "board", "rules", "schedule", "handicap", "time", "adjudication", "ratings", "workers",
             "seed", "fault_limit", "memory_mb", "players")
_SCHEDULE_KEYS = ("format", "games_per_pair", "challenger", "openings", "sprt", "rounds", "tiebreak_games")
_PLAYER_KEYS = ("name", "bot", "gtp", "time")
_UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories a name may not hold: controls (NUL, ESC and so terminal escape codes), invisible format
characters (bidi overrides), surrogates, private-use and unassigned code points, line and paragraph separators."""
MAX_NAME_CHARS = 64
"""The longest player name (tables, files and pages are named after players)."""


class ScheduleFormat(str, enum.Enum):
    """Who plays whom."""

    ROUND_ROBIN = "round-robin"
    GAUNTLET = "gauntlet"
    MATCH = "match"
    SWISS = "swiss"
    KNOCKOUT = "knockout"

    @property
    def in_rounds(self) -> bool:
        """True for the formats whose next round is paired from the results of the rounds before it."""
        return self in (ScheduleFormat.SWISS, ScheduleFormat.KNOCKOUT)


@dataclass(frozen=True)
class ScheduleSettings:
    """Pairings: format, games per pair (seats balanced in pairs of games), gauntlet challenger, openings, a Swiss's
    rounds and a knockout's most tie-break games."""

    format: ScheduleFormat = ScheduleFormat.ROUND_ROBIN
    games_per_pair: int = DEFAULT_GAMES_PER_PAIR
    challenger: str | None = None
    openings: OpeningSettings | None = None
    sprt: SprtSettings | EloSprtSettings | None = None
    rounds: int = 0
    tiebreak_games: int = DEFAULT_TIEBREAK_GAMES


@dataclass(frozen=True)
class PlayerConfig:
    """One seated player: a unique name and the spec workers build it from."""

    name: str
    spec: BotSpec
    spec_text: str
    time: TimeControl | None = None
    """The player's own time control (`players[i].time`), replacing the tournament's `time:` for it."""

    @property
    def own_budget(self) -> bool:
        """True for a built-in bot given an explicit `playouts=`: it keeps that budget whatever the time control."""
        return self.spec.kind is BotKind.BUILTIN and any(key == "playouts" and value
                                                         for key, value in self.spec.options)


@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament config (README, Tournament configs) plus its source text and canonical form."""

    name: str
    variant: Variant
    schedule: ScheduleSettings
    handicap: HandicapSettings
    time: TimeControl
    ratings: RatingSettings
    workers: int | None
    seed: int
    fault_limit: int
    players: tuple[PlayerConfig, ...]
    memory_mb: int = DEFAULT_MEMORY_MB
    adjudication: Adjudication = DEFAULT_ADJUDICATION
    text: str = ""
    path: str = ""
    canonical: str = "{}"

    @property
    def game_rules(self) -> Game:
        """The game this tournament plays."""
        return self.variant.game

    @property
    def board(self) -> str:
        """The board's spec."""
        return self.variant.board.spec

    @property
    def rules(self) -> Any:
        """The game's rules value."""
        return self.variant.rules

    @property
    def player_names(self) -> tuple[str, ...]:
        """Names in config order."""
        return tuple(p.name for p in self.players)

    def time_of(self, name: str) -> TimeControl:
        """The time control `name` plays under: its own, else the tournament's."""
        own = self.player(name).time
        return own if own is not None else self.time

    @property
    def time_odds(self) -> bool:
        """True when some players play under different time controls."""
        return len({self.time_of(name) for name in self.player_names}) > 1

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


def pair_count(fmt: ScheduleFormat, players: int, rounds: int = 0) -> int:
    """How many pairings meet: every pair (round-robin), the challenger and each other player (gauntlet), one
    (match), half the players in each of `rounds` rounds (swiss), or one match per player knocked out (knockout,
    tie-break games aside)."""
    if fmt is ScheduleFormat.GAUNTLET or fmt is ScheduleFormat.KNOCKOUT:
        return players - 1
    if fmt is ScheduleFormat.MATCH:
        return 1
    if fmt is ScheduleFormat.SWISS:
        return rounds * (players // 2)
    return players * (players - 1) // 2


def most_rounds(players: int) -> int:
    """The most rounds a Swiss of `players` may have: a round-robin's (each player meets each other once, and with
    an odd count sits out once)."""
    return players - 1 if players % 2 == 0 else players


# --- loading -----------------------------------------------------------------------------------------------


def load_config(path: str | os.PathLike[str], overrides: Sequence[str] = ()) -> TournamentConfig:
    """Read and validate the YAML config at `path`, with `KEY.PATH=VALUE` overrides (`--set`) applied first."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} does not exist", source=str(path)) from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"cannot read config file {str(path)!r}: {err}", source=str(path)) from err
    if overrides:
        data = load_yaml(text, str(path))
        given: dict[str, str] = {}
        for override in overrides:
            key = override.partition("=")[0].strip()
            if key in given:
                raise ConfigError(f"{path}: --set {override!r}: {key!r} is already set by --set {given[key]!r} (--game "
                                  "is --set game=NAME); set each key once", source=str(path), value=override,
                                  expected="each key once")
            given[key] = override
            data = apply_override(data, override, str(path))
        header = "".join(f"# --set {override}\n" for override in overrides)
        text = f"# {path} with overrides\n{header}" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    return parse_config(text, source=str(path), base_dir=file.resolve().parent)


def parse_config(text: str, source: str = "<config>", base_dir: str | os.PathLike[str] | None = None, *,
                 require_files: bool = True, default_name: str | None = None) -> TournamentConfig:
    """Validate config text; `source` names it in errors, `base_dir` anchors its relative paths.

    A config without `name` takes `default_name`, else the file name of `source`. With `require_files=False`
    the reader opens no file and checks no path the config names (plugin files, opening files, engine programs
    and folders stay as written, opening lines are not loaded): that is how a results folder's stored config is
    read again for reports, which need none of those files and often run on another machine where they are not
    where the tournament found them. Such a config is for reading settings, never for running games.
    """
    data = load_yaml(text, source)
    base = Path(base_dir) if base_dir is not None else Path.cwd()
    reader = _ConfigReader(source, base, require_files=require_files, default_name=default_name)
    return reader.config(data, text)


def derive_seed(*parts: object) -> int:
    """A 31-bit seed from any parts (stable across runs, platforms and Python versions)."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


class _ConfigReader(FieldReader):
    """Walks the YAML tree of a tournament config into its typed settings."""

    def __init__(self, source: str, base_dir: Path, *, require_files: bool, default_name: str | None) -> None:
        super().__init__(source, base_dir, require_files=require_files)
        self.default_name = default_name
        self.playing: Game | None = None  # the game, once `config` has read it

    @property
    def game_played(self) -> Game:
        """The tournament's game; read before anything that depends on it."""
        if self.playing is None:
            raise ConfigError(f"{self.source}: the game is read before the players")
        return self.playing

    # --- sections ---------------------------------------------------------------------------------------

    def config(self, data: Any, text: str) -> TournamentConfig:
        """The whole config."""
        if data is None:
            raise self.error("", "the config is empty; expected a mapping with at least 'players'",
                             expected="a mapping with at least 'players'")
        top = self.mapping(data, "", _TOP_KEYS)
        name = self.name(top)
        game = self.game(game_of(top))  # a config without `game` is Y's, as before games existed
        self.playing = game
        board = self.board(top.get("board", game.default_board), game)
        rules = self.rules(top.get("rules"), game)
        players = self.players(top.get("players"))
        handicap = read_handicap(self, top.get("handicap"), "handicap", board)
        if handicap.mode.value != "none" and not game.has_handicap:
            raise self.error("handicap", f"game {game.name!r} has no handicap ladder", value=top.get("handicap"),
                             expected="handicap: {mode: none} (or leave it out)")
        handicap = fit_to_ladder(self, handicap, game, rules, top.get("handicap"))
        schedule = self.schedule(top.get("schedule"), players, board, rules, handicap)
        time = read_time(self, top.get("time"), "time")
        adjudication = read_adjudication(self, top.get("adjudication"), "adjudication")
        ratings = read_ratings(self, top.get("ratings"), "ratings")
        workers = None if top.get("workers") is None else self.integer(top["workers"], "workers", at_least=1,
                                                                        at_most=1024)
        seed = derive_seed("ytourney", name) if top.get("seed") is None else self.integer(top["seed"], "seed",
                                                                                           at_least=0)
        fault_limit = DEFAULT_FAULT_LIMIT if top.get("fault_limit") is None else self.integer(
            top["fault_limit"], "fault_limit", at_least=0)
        memory_mb = DEFAULT_MEMORY_MB if top.get("memory_mb") is None else self.integer(
            top["memory_mb"], "memory_mb", at_least=0, at_most=MAX_MEMORY_MB)
        if 0 < memory_mb < MIN_MEMORY_MB:
            raise self.error("memory_mb", f"{memory_mb!r} MiB is too small to start a Python process "
                             "(0 means no limit)", value=memory_mb,
                             expected=f"0 (no limit) or at least {MIN_MEMORY_MB}")
        canonical = self.canonical(top, name, game, board, rules, schedule, handicap, time, seed, players,
                                   adjudication)
        return TournamentConfig(
            name=name, variant=Variant(game, board, rules), schedule=schedule, handicap=handicap, time=time,
            ratings=ratings, workers=workers, seed=seed, fault_limit=fault_limit, players=players,
            memory_mb=memory_mb, adjudication=adjudication, text=text, path=self.source, canonical=canonical,
        )

    def name(self, top: Mapping[str, Any]) -> str:
        """The tournament name, also its default results folder."""
        expected = "letters, digits, '.', '_', '+' or '-' (at most 64, results go to results/<name>/)"
        if "name" not in top:
            default = self.default_name if self.default_name is not None else Path(self.source).stem
            if NAME_PATTERN.match(default):
                return default
            raise self.missing("name", expected, "give the tournament a name (it names the results folder)")
        name = self.text(top["name"], "name")
        if not NAME_PATTERN.match(name):
            raise self.mismatch("name", name, expected, found=repr(name))
        return name

    def game(self, value: Any) -> Game:
        """The game every match of the tournament plays."""
        expected = f"a game name ({', '.join(game_names())})"
        if not isinstance(value, str):
            raise self.mismatch("game", value, expected)
        try:
            return get_game(value)
        except YTourneyError as err:
            raise self.error("game", str(err), value=value, expected=expected) from err

    def board(self, value: Any, game: Game) -> Board:
        """The board spec, one the game is played on."""
        expected = f"a board spec of {game.title}: {game.boards_help}"
        if not isinstance(value, str):
            raise self.mismatch("board", value, expected)
        try:
            return game.parse_board(value)
        except YTourneyError as err:
            raise self.error("board", str(err), value=value, expected=expected) from err

    def rules(self, value: Any, game: Game) -> Any:
        """The game's own rule options, each checked for its type and range."""
        options = game.rule_options
        section = self.mapping(value, "rules", tuple(options))
        data: dict[str, Any] = {}
        for key, option in options.items():
            if key not in section:
                continue
            path = f"rules.{key}"
            if is_default_word(section[key], option):
                data[key] = option.default  # `default`, as --rule and GTP's ytourney-rules take it
            elif option.type is bool:
                data[key] = self.boolean(section[key], path)
            elif option.type is int:
                data[key] = self.integer(section[key], path, at_least=option.low, at_most=option.high)
            else:
                data[key] = self.text(section[key], path)
                if option.choices and data[key] not in option.choices:
                    raise self.mismatch(path, data[key], f"one of {', '.join(option.choices)}")
        try:
            return game.parse_rules(data)
        except YTourneyError as err:
            raise self.error("rules", str(err), value=value, expected=f"rules of {game.title}") from err

    def players(self, value: Any) -> tuple[PlayerConfig, ...]:
        """The player list; names unique."""
        expected = "a list of at least 2 players"
        if value is None:
            raise self.missing("players", expected, "list at least 2 players, like '- {name: r, bot: random}'")
        if not isinstance(value, list):
            raise self.mismatch("players", value, "a list of players")
        players: list[PlayerConfig] = []
        seen: dict[str, int] = {}
        for index, item in enumerate(value):
            player = self.player(item, f"players[{index}]")
            if player.name in seen:
                raise self.error(
                    f"players[{index}].name",
                    f"duplicate player name {player.name!r} (also players[{seen[player.name]}]); names must be unique",
                    value=player.name, expected="a name no other player has",
                )
            seen[player.name] = index
            players.append(player)
        if len(players) < 2:
            raise self.mismatch("players", value, "at least 2 players", found=str(len(players)))
        return tuple(players)

    def player(self, value: Any, path: str) -> PlayerConfig:
        """One player: `bot:` spec or `gtp:` engine."""
        if isinstance(value, str):
            value = {"bot": value}
        section = self.mapping(value, path, _PLAYER_KEYS)
        if ("bot" in section) == ("gtp" in section):
            expected = "exactly one of 'bot' (a built-in or plugin spec) or 'gtp' (an engine)"
            raise self.error(path, f"expected {expected}", value=value, expected=expected)
        if "bot" in section:
            spec_text = self.text(section["bot"], f"{path}.bot")
            spec = self.bot_spec(spec_text, f"{path}.bot")
            default_name = spec_text  # a plugin's long path gives way to its file's name (names hold 64 characters)
            if len(spec_text) > MAX_NAME_CHARS and spec.kind is BotKind.PLUGIN and spec.path is not None:
                default_name = f"{os.path.basename(spec.path)}:{spec.name}"
        else:
            settings = read_gtp(self, section["gtp"], f"{path}.gtp")
            named = section["gtp"].get("game") if isinstance(section["gtp"], Mapping) else None
            if named is not None and named.strip().lower() != self.game_played.name:
                raise self.mismatch(f"{path}.gtp.game", named, f"the tournament's game {self.game_played.name!r}")
            settings = dataclasses.replace(settings, game=self.game_played)  # the engine speaks our game
            spec = BotSpec(BotKind.GTP, settings.display_name, gtp=settings, game=self.game_played)
            spec_text = "gtp: " + shlex.join(settings.command)
            default_name = ""
        if "name" in section:
            name = self.text(section["name"], f"{path}.name")
        elif default_name:
            name = default_name
        else:
            raise self.missing(f"{path}.name", "a player name", "a gtp player needs a name")
        if len(name) > MAX_NAME_CHARS or any(unicodedata.category(ch) in _UNPRINTABLE for ch in name):
            named = "" if "name" in section else (" (a player given no name is named by its spec: give it one, "
                                                  "`name:` in a config, NAME=SPEC on the command line)")
            raise self.mismatch(f"{path}.name", name, "a name of at most 64 printable characters (no control "
                                f"characters or terminal escape codes){named}", found=repr(name))
        if spec.kind is BotKind.GTP and spec.gtp is not None and not spec.gtp.name:
            settings = dataclasses.replace(spec.gtp, name=name)  # its faults name the player, not its program's file
            spec = BotSpec(BotKind.GTP, name, gtp=settings, game=self.game_played)
        time = None if section.get("time") is None else read_time(self, section["time"], f"{path}.time")
        return PlayerConfig(name, spec, spec_text, time)

    def bot_spec(self, text: str, path: str) -> BotSpec:
        """A built-in or plugin spec; plugin paths resolved (config folder, then CWD)."""
        try:
            spec = parse_bot_spec(text, self.game_played)
        except BotSpecError as err:
            raise self.error(path, str(err), value=text, expected="a built-in bot or a plugin file:Class") from err
        if spec.kind is BotKind.PLUGIN:
            found = self.existing(spec.path or "", path, "plugin file")
            if found is not None:
                spec = BotSpec(BotKind.PLUGIN, spec.name, spec.options, path=str(found), game=spec.game)
        return spec

    def schedule(self, value: Any, players: Sequence[PlayerConfig], board: Board, rules: Any,
                 handicap: HandicapSettings) -> ScheduleSettings:
        """Format, games per pair, challenger, rounds, tie-break games, openings and SPRT."""
        section = self.mapping(value, "schedule", _SCHEDULE_KEYS)
        fmt = self.choice(section.get("format", "round-robin"), "schedule.format", ScheduleFormat)
        games = DEFAULT_GAMES_PER_PAIR if "games_per_pair" not in section else self.integer(
            section["games_per_pair"], "schedule.games_per_pair", at_least=1, at_most=1_000_000)
        names = [p.name for p in players]
        challenger = None
        if fmt is ScheduleFormat.GAUNTLET:
            if "challenger" not in section:
                raise self.missing("schedule.challenger", "a player name",
                                   "a gauntlet names the player who meets all others")
            challenger = self.text(section["challenger"], "schedule.challenger")
            if challenger not in names:
                raise self.mismatch("schedule.challenger", challenger,
                                    f"one of the player names ({', '.join(names)})", found=repr(challenger),
                                    hint=close_hint(challenger, names))
        elif "challenger" in section:
            raise self.unused("schedule.challenger", section["challenger"], f"format gauntlet, not {fmt.value!r}")
        if fmt is ScheduleFormat.MATCH and len(players) != 2:
            raise self.error("players", f"format match needs exactly 2 players; found {len(players)}",
                             value=names, expected="exactly 2 players")
        rounds = self.rounds(section, fmt, len(players))
        tiebreak = DEFAULT_TIEBREAK_GAMES
        if "tiebreak_games" in section:
            if fmt is not ScheduleFormat.KNOCKOUT:
                raise self.unused("schedule.tiebreak_games", section["tiebreak_games"],
                                  f"format knockout, not {fmt.value!r}")
            tiebreak = self.integer(section["tiebreak_games"], "schedule.tiebreak_games", at_least=0,
                                    at_most=MAX_TIEBREAK_GAMES)
            if tiebreak % 2:
                raise self.mismatch("schedule.tiebreak_games", tiebreak,
                                    "an even number (tie-break games are played in pairs, seats swapped)")
        if fmt.in_rounds and handicap.mode is not HandicapMode.NONE:
            raise self.error("handicap", f"format {fmt.value} plays even games; handicaps are for round-robin, "
                             "gauntlet and match", value=handicap.mode.value, expected="handicap: {mode: none}")
        planned = pair_count(fmt, len(players), rounds) * games
        if planned > MAX_PLANNED_GAMES:
            raise self.error(
                "schedule.games_per_pair",
                f"{pair_count(fmt, len(players), rounds):,} pairs x {games:,} games per pair plan {planned:,} games; "
                f"expected at most {MAX_PLANNED_GAMES:,} in one tournament (fewer players or games per pair, or "
                "several tournaments rated together)", value=games,
                expected=f"at most {MAX_PLANNED_GAMES:,} planned games")
        sprt = None
        if section.get("sprt") is not None:
            if fmt is not ScheduleFormat.MATCH:
                raise self.unused("schedule.sprt", section["sprt"], f"format match, not {fmt.value!r}")
            sprt = read_sprt(self, section["sprt"], "schedule.sprt")
        openings = None
        if section.get("openings") is not None:
            openings = self.openings(section["openings"], board, rules, handicap)
        return ScheduleSettings(fmt, games, challenger, openings, sprt, rounds, tiebreak)

    def rounds(self, section: Mapping[str, Any], fmt: ScheduleFormat, players: int) -> int:
        """A Swiss's number of rounds (0 for the other formats)."""
        if fmt is not ScheduleFormat.SWISS:
            if "rounds" in section:
                raise self.unused("schedule.rounds", section["rounds"], f"format swiss, not {fmt.value!r}")
            return 0
        if "rounds" not in section:
            raise self.missing("schedule.rounds", "a number of rounds", "a swiss names how many rounds it plays")
        rounds = self.integer(section["rounds"], "schedule.rounds", at_least=1)
        most = most_rounds(players)
        if rounds > most:
            raise self.mismatch("schedule.rounds", rounds, f"at most {most}: a swiss of {players} players runs out of "
                                "opponents not met before after that many rounds", found=repr(rounds))
        return rounds

    def unused(self, path: str, value: Any, needs: str) -> ConfigError:
        """A key given where the rest of the config makes no use of it."""
        return self.error(path, f"only used with {needs}", value=value, expected=f"no {path} here")

    def openings(self, value: Any, board: Board, rules: Any, handicap: HandicapSettings) -> OpeningSettings:
        """Opening lines from a file, or random plies."""
        return read_openings(self, value, self.game_played, board, rules, handicap.mode is not HandicapMode.NONE)

    def canonical(self, top: Mapping[str, Any], name: str, game: Game, board: Board, rules: Any,
                  schedule: ScheduleSettings,
                  handicap: HandicapSettings, time: TimeControl, seed: int, players: Sequence[PlayerConfig],
                  adjudication: Adjudication = DEFAULT_ADJUDICATION) -> str:
        """JSON of everything that decides which games are played, as written (paths unresolved).

        The execution keys (workers, ratings, fault_limit, memory_mb) are left out: they may change when a run is
        resumed.
        """
        openings: dict[str, Any] | None = None
        if schedule.openings is not None:
            lines = [" ".join(opening_key(m) for m in line) for line in schedule.openings.lines]
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
                if entry["gtp"] is not None:
                    entry["gtp"].pop("log", None)  # transcripts on or off: still the same tournament
            else:
                entry["bot"] = player.spec_text
            if player.time is not None:  # only then: a config without time odds keeps its stored key
                entry["time"] = dataclasses.asdict(player.time)
            raw_players.append(entry)
        key = {
            "name": name,
            "board": board.spec,
            "rules": game.rules_dict(rules),
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
            "time": dataclasses.asdict(time),
            "seed": seed,
            "players": raw_players,
        }
        if schedule.format is ScheduleFormat.SWISS:  # keys of the newer formats only: older folders keep theirs
            key["schedule"]["rounds"] = schedule.rounds
        elif schedule.format is ScheduleFormat.KNOCKOUT:
            key["schedule"]["tiebreak_games"] = schedule.tiebreak_games
        if adjudication != DEFAULT_ADJUDICATION:  # folders written before adjudication existed keep their key
            key["adjudication"] = adjudication.to_dict()
        key |= game_key(game.name)  # Y folders written before games existed keep their key
        return json.dumps(key, sort_keys=True, default=str)
