"""Config-free runs (`ytourney match`): a tournament config written from command-line players and options.

The config is built as the YAML a user would write, saved in the results folder as `match.yaml` and read back by
the one config reader, so a match folder is a config-driven folder like any other: rerunning the same command
resumes it, and `validate`, the reports and `ytourney run OUT/match.yaml` all work on it.

Players on the command line:
- a bot spec, named by itself: `random`, `mcts:playouts=2000`, `bots/my_bot.py:MyBot`;
- `NAME=SPEC` to name it (a name holds no ':'): `strong=mcts:playouts=4000`;
- a GTP engine: `gtp:NAME=COMMAND ARGS[;KEY=VALUE…]`, KEY any key of a config's `gtp:` block (rows, first_color,
  swap, pie_policy, time_command, chatter_lines, setup, cwd, …), the value read as YAML:
  `'gtp:hy=/opt/y/y --gtp;rows=flipped;swap=genmove;time_command=y_param'` (row-reversed family),
  `'gtp:morat=/opt/morat/moy;first_color=white;swap=none;pie_policy=center;time_command=morat;chatter_lines=100'`
  (white-first family).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ytourney.errors import ConfigError
from ytourney.games.legacy import game_key
from ytourney.tournament.config import TournamentConfig, parse_config
from ytourney.safe_files import write_file
from ytourney.tournament.config_fields import apply_override, load_yaml
from ytourney.tournament.growth import check_folder

MATCH_FILE = "match.yaml"
"""The config a `ytourney match` writes into its results folder."""
GTP_PREFIX = "gtp:"
_SOURCE = "ytourney match"


@dataclass(frozen=True)
class MatchOptions:
    """The options of `ytourney match` that decide which games are played (workers and outputs are not among them)."""

    gauntlet: bool = False
    games_per_pair: int | None = None
    game: str | None = None
    board: str | None = None
    pie: bool | None = None
    rules: tuple[str, ...] = ()
    rule_flags: tuple[tuple[str, str], ...] = ()
    """(config key path, the option that set it) of rules set by a flag standing for a `--rule` item, for errors."""
    move_seconds: float | None = None
    game_seconds: float | None = None
    increment: float | None = None
    handicap: str | None = None
    openings: str | None = None
    random_plies: int | None = None
    seed: int | None = None
    name: str | None = None
    sprt: str | None = None
    max_level: int | None = None
    player_times: tuple[str, ...] = ()
    """`NAME=KEY=VALUE[,KEY=VALUE...]` items: a player's own time control (its `players[i].time`)."""
    resign: str | None = None
    draw: str | None = None


def _yaml_value(text: str, what: str, source: str = _SOURCE) -> Any:
    return load_yaml(text, f"{source}: {what}") if text.strip() else ""


def player_entry(text: str, index: int, source: str = _SOURCE) -> dict[str, Any]:
    """The config entry of one command-line player (see the module docstring); `source` names the command in
    errors."""
    where = f"player {index + 1} ({text!r})"
    if text.startswith(GTP_PREFIX):
        name, sep, rest = text[len(GTP_PREFIX):].partition("=")
        parts = rest.split(";")
        if not sep or not name.strip() or not parts[0].strip():
            raise ConfigError(f"{source}: {where}: expected gtp:NAME=COMMAND ARGS[;KEY=VALUE...], like "
                              "'gtp:hy=/opt/y/y;rows=flipped'", source=source, value=text)
        gtp: dict[str, Any] = {"command": parts[0].strip()}
        for part in parts[1:]:
            key, sep, value = part.partition("=")
            if not part.strip():
                continue
            if not sep or not key.strip():
                raise ConfigError(f"{source}: {where}: engine option {part!r}: expected KEY=VALUE, like rows=flipped",
                                  source=source, value=part)
            gtp[key.strip()] = _yaml_value(value, f"{where} {key.strip()}", source)
        return {"name": name.strip(), "gtp": gtp}
    head, sep, spec = text.partition("=")
    if sep and ":" not in head and head.strip():
        return {"name": head.strip(), "bot": spec.strip()}
    return {"bot": text.strip()}


def _key_values(text: str, flag: str, shown: str, example: str) -> dict[str, Any]:
    """`KEY=VALUE[,KEY=VALUE...]` of option `flag` (its item shown as `shown`) as a mapping, the values read as
    YAML."""
    entry: dict[str, Any] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{_SOURCE}: {flag} {shown!r}: expected KEY=VALUE pairs separated by commas, like "
                              f"{example}", source=_SOURCE, value=shown)
        if key.strip() in entry:
            raise ConfigError(f"{_SOURCE}: {flag} {shown!r} names {key.strip()!r} twice; expected each key once",
                              source=_SOURCE, value=shown)
        entry[key.strip()] = _yaml_value(value, f"{flag} {key.strip()}")
    return entry


def sprt_entry(text: str) -> dict[str, Any]:
    """`elo0=0,elo1=5[,alpha=0.05,beta=0.05,model=pentanomial]` (or p0=…,p1=…) as the `schedule.sprt` mapping."""
    return _key_values(text, "--sprt", text, "elo0=0,elo1=5,alpha=0.05,beta=0.05,model=pentanomial")


def add_player_times(entries: Sequence[dict[str, Any]], items: Sequence[str]) -> None:
    """Give the players named by `--player-time NAME=KEY=VALUE[,...]` items their own `time` mapping (the keys of
    a config's `time:`, checked by the config reader like any config)."""
    index_of = {str(entry.get("name") or entry.get("bot")): index for index, entry in enumerate(entries)}
    example = "fast=move_seconds=0.2 or slow=game_seconds=60,increment=0.5"
    for item in items:
        named = max((n for n in index_of if item.strip().startswith(f"{n}=")), key=len, default=None)
        # a name may hold '=' itself (a player named by its spec, mcts:playouts=500): the longest name that fits
        name, sep, rest = (named, "=", item.strip()[len(named) + 1:]) if named else item.partition("=")
        if not sep or not name.strip() or not rest.strip():
            raise ConfigError(f"{_SOURCE}: --player-time {item!r}: expected NAME=KEY=VALUE[,KEY=VALUE...], like "
                              f"{example}", source=_SOURCE, value=item)
        index = index_of.get(name.strip())
        if index is None:
            raise ConfigError(f"{_SOURCE}: --player-time {item!r}: no player is named {name.strip()!r}; expected one "
                              f"of {', '.join(repr(n) for n in index_of)}", source=_SOURCE, value=item)
        if "time" in entries[index]:
            raise ConfigError(f"{_SOURCE}: --player-time {item!r}: player {name.strip()!r} already has a time "
                              "control; give each player's once", source=_SOURCE, value=item)
        entries[index]["time"] = _key_values(rest, "--player-time", item, example)


def resign_entry(text: str) -> Any:
    """`--resign`: `proved` (on a proved loss only), `off`, or `movecount=N,score=S[,twosided=true][,proved=false]`
    as the `adjudication.resign` value."""
    word = text.strip().lower()
    if word in ("off", "on", "proved"):
        return "on" if word == "proved" else word
    if "=" not in text:
        raise ConfigError(f"{_SOURCE}: --resign {text!r}: expected proved, off or KEY=VALUE pairs separated by "
                          "commas, like movecount=8,score=0.05,twosided=true", source=_SOURCE, value=text)
    return _key_values(text, "--resign", text, "movecount=8,score=0.05,twosided=true")


def draw_entry(text: str) -> Any:
    """`--draw`: `auto`, `off`, a number of plies or `plies=N`, as the `adjudication.draw` value."""
    word = text.strip().lower()
    if word in ("off", "on"):
        return word
    value = word.partition("=")[2] if word.startswith("plies=") else word
    return {"plies": _yaml_value(value, "--draw")}


def default_name(players: Sequence[dict[str, Any]]) -> str:
    """A results-folder name from the players' names: `a-vs-b`, `a-vs-b-vs-c`, at most 64 characters."""
    names = [str(p.get("name") or p.get("bot") or "player") for p in players]
    text = "-vs-".join(re.sub(r"[^A-Za-z0-9._+-]+", "_", name.rsplit("/", 1)[-1]).strip("_.-") or "p"
                       for name in names)
    return text[:64].rstrip("_.-") or "match"


def match_data(players: Sequence[str], options: MatchOptions) -> dict[str, Any]:
    """The YAML tree of the config a `ytourney match` command line stands for."""
    entries = [player_entry(text, index) for index, text in enumerate(players)]
    seen: dict[str, int] = {}
    for index, entry in enumerate(entries):
        name = str(entry.get("name") or entry.get("bot"))
        if name in seen:
            raise ConfigError(f"{_SOURCE}: player {index + 1} ({name!r}) is also player {seen[name] + 1}; name them "
                              f"apart, like a={name} b={name}", source=_SOURCE, value=name)
        seen[name] = index
    add_player_times(entries, options.player_times)
    if options.openings is not None and options.random_plies is not None:
        raise ConfigError(f"{_SOURCE}: --openings and --random-plies: expected one of them, not both",
                          source=_SOURCE, value=options.openings)
    data: dict[str, Any] = {"name": options.name or default_name(entries)}
    if options.game is not None and game_key(options.game.strip().lower()):  # Y's config names no game
        data["game"] = options.game
    if options.board is not None:
        data["board"] = options.board
    rules: dict[str, Any] = {} if options.pie is None else {"pie": options.pie}
    for item in options.rules:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{_SOURCE}: --rule {item!r}: expected KEY=VALUE, like max_plies=400", source=_SOURCE,
                              value=item)
        if key.strip() in rules:
            raise ConfigError(f"{_SOURCE}: --rule {item!r}: rule {key.strip()!r} is already set (by --pie/--no-pie, a "
                              "rule flag or an earlier --rule); give each rule once", source=_SOURCE, value=item)
        rules[key.strip()] = _yaml_value(value, f"--rule {key.strip()}")
    if rules:
        data["rules"] = rules
    fmt = "match" if len(entries) == 2 and not options.gauntlet else "gauntlet" if options.gauntlet else "round-robin"
    schedule: dict[str, Any] = {"format": fmt}
    if options.gauntlet:
        schedule["challenger"] = str(entries[0].get("name") or entries[0].get("bot"))
    if options.games_per_pair is not None:
        schedule["games_per_pair"] = options.games_per_pair
    if options.openings is not None:
        schedule["openings"] = {"file": options.openings}
    elif options.random_plies is not None:
        schedule["openings"] = {"random_plies": options.random_plies}
    if options.sprt is not None:
        schedule["sprt"] = sprt_entry(options.sprt)
    data["schedule"] = schedule
    if options.handicap is not None:
        word = options.handicap.strip().lower()
        data["handicap"] = ({"mode": word} if word in ("auto", "none")
                            else {"mode": "fixed", "level": _yaml_value(options.handicap, "--handicap")})
    if options.max_level is not None:
        data.setdefault("handicap", {})["max_level"] = options.max_level
    time = {key: value for key, value in (("move_seconds", options.move_seconds),
                                          ("game_seconds", options.game_seconds), ("increment", options.increment))
            if value is not None}
    if time:
        data["time"] = time
    adjudication = {key: entry(text) for key, entry, text in (("resign", resign_entry, options.resign),
                                                                ("draw", draw_entry, options.draw))
                    if text is not None}
    if adjudication:
        data["adjudication"] = adjudication
    if options.seed is not None:
        data["seed"] = options.seed
    data["players"] = entries
    return data


@dataclass(frozen=True)
class MatchPlan:
    """The config a `ytourney match` command line stands for, checked against its results folder, not yet
    written: `write` puts it in the folder once its players have started (a refused match writes nothing)."""

    path: Path
    folder: Path
    text: str
    config: TournamentConfig

    def write(self) -> None:
        """Write the config into the results folder as MATCH_FILE, never through a link planted there."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise _write_error(f"cannot create {str(self.folder)!r}: {err.strerror or err}") from err
        write_file(self.path, self.text, root=self.folder, error=_write_error)


def plan_match(players: Sequence[str], options: MatchOptions, out: str | os.PathLike[str] | None = None,
               overrides: Sequence[str] = ()) -> MatchPlan:
    """Check the match a command line stands for (with `--set` overrides) against its results folder (`out`, else
    results/<name>/), writing nothing. A folder holding another tournament is refused naming the keys that differ;
    more games per pair grow the stored match. Errors name the command-line option, not the config key."""
    data = match_data(players, options)
    for override in overrides:
        data = apply_override(data, override, f"{_SOURCE}: --set")
    header = "".join(f"# --set {override}\n" for override in overrides)
    text = ("# written by `ytourney match`; rerun the same command (or `ytourney run` this file) to continue\n"
            + header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    folder = Path(out) if out else Path("results") / str(data["name"])
    path = folder / MATCH_FILE
    try:
        config: TournamentConfig = parse_config(text, source=str(path), base_dir=folder.resolve())
    except ConfigError as err:
        given = (*options.rule_flags, *((f"rules.{item.partition('=')[0].strip()}", f"--rule {item}")
                                        for item in options.rules))  # a bad value is blamed on the --rule giving it
        raise _in_flags(err, str(path), players, bool(overrides), given) from err
    check_folder(folder, config, advice="rerun the command that started it")
    return MatchPlan(path, folder, text, config)


_FLAGS = (("handicap.max_level", "--max-level"), ("handicap", "--handicap"), ("board", "--board"),
          ("rules.pie", "--pie/--no-pie"), ("schedule.games_per_pair", "--games-per-pair"),
          ("schedule.openings.file", "--openings"), ("schedule.openings.random_plies", "--random-plies"),
          ("schedule.openings", "--openings"), ("schedule.sprt", "--sprt"), ("time.move_seconds", "--move-seconds"),
          ("time.game_seconds", "--game-seconds"), ("time.increment", "--increment"), ("time", "--move-seconds"),
          ("seed", "--seed"), ("name", "--name"), ("adjudication.resign", "--resign"),
          ("adjudication.draw", "--draw"))
"""Config key paths (a prefix matches) and the `match` option that sets them, most specific first."""
_ADVICE = (("set rules.pie: false", "give --no-pie"), ("set handicap.mode: none", "leave out --handicap"))
"""A config error's advice in config keys, and the same advice in `match` options."""


def _in_flags(err: ConfigError, source: str, players: Sequence[str], overridden: bool,
              rule_flags: Sequence[tuple[str, str]] = ()) -> ConfigError:
    """A config error of the written match config, told in the terms of the command line: the option or the player
    (`--handicap: expected a number <= 6; ... raise the ladder with --max-level`), not `match.yaml: handicap.level`."""
    text, key = str(err), err.path
    prefix = f"{source}: {key}"
    if err.source != source or not key or not text.startswith(prefix) or overridden:
        return err
    rest = text[len(prefix):]
    player = re.match(r"players\[([0-9]+)\]", key)
    if player and int(player.group(1)) < len(players):
        index = int(player.group(1))
        where = f"player {index + 1} ({players[index]!r})" + key[player.end():].replace(".", " ", 1)
        if key[player.end():].startswith(".time"):  # set by --player-time, named by the player's name
            entry = player_entry(players[index], index)
            where = (f"--player-time {entry.get('name') or entry.get('bot')}"
                     + key[player.end() + len(".time"):].replace(".", " ", 1))
    else:
        where = next((flag + (key[len(path):].replace(".", " ", 1) if path.startswith("adjudication.") else "")
                      for path, flag in (*rule_flags, *_FLAGS) if key == path or key.startswith(path + ".")), key)
    for advice, flag_advice in _ADVICE:
        rest = rest.replace(advice, flag_advice)
    message = f"{_SOURCE}: {where}{rest}"
    if key == "handicap.level" and "<=" in rest:
        message += "; give --max-level to play higher levels"
    return ConfigError(message, source=_SOURCE, path=key, value=err.value, expected=err.expected)



def _write_error(message: str) -> ConfigError:
    return ConfigError(f"{message}; expected a writable results folder (use --out)")
