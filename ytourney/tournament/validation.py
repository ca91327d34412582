"""Check a config before a run: what the run would do, and every player built as a worker would build it.

`validate_config` is the body of `ytourney validate`: it reads the config, plans its games, looks at the results
folder, starts every player once (`check_player`), and with the Ray backend checks every player on every alive
node of the cluster too. It returns a `Validation` whose lines the command prints.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from ytourney.errors import BackendError, RunnerError, YTourneyError
from ytourney.players.plugin import check_plugin_source
from ytourney.players.spec import BotKind, create_bot
from ytourney.stats.handicap import HandicapMode
from ytourney.tournament.config import PlayerConfig, ScheduleFormat, TournamentConfig, load_config, pair_count
from ytourney.tournament.executor import Backend
from ytourney.tournament.growth import growth_problem
from ytourney.tournament.probe import probe_engine
from ytourney.tournament.ray import RayNode, on_every_node
from ytourney.tournament.run import results_folder
from ytourney.tournament.schedule import planned_games
from ytourney.tournament.store import (
    config_differences,
    stored_count,
    stored_info,
)


def check_player(config: TournamentConfig, player: PlayerConfig) -> str:
    """Build the player as a worker would, start its game setup, close it; return a note or raise YTourneyError.
    Whatever its code starts and leaves running is ended when the check is over."""
    from ytourney.players.gtp.reaper import plugin_code
    from ytourney.players.untrusted import set_player_memory

    set_player_memory(config.memory_mb)  # engines started here, and plugin hosts, get the config's memory limit
    with plugin_code():
        return _check_player(config, player)


def _check_player(config: TournamentConfig, player: PlayerConfig) -> str:
    spec = player.spec
    note = "ok"
    if spec.kind is BotKind.PLUGIN:
        return _check_plugin(config, player)
    if spec.kind is BotKind.GTP:
        from ytourney.players.gtp.settings import check_engine

        check_engine(spec.gtp)
    bot = create_bot(spec, 0)
    try:
        bot.new_game(config.variant.board, config.rules, config.game_rules.first_color)
        if spec.kind is BotKind.GTP:
            engine = " ".join(filter(None, (getattr(bot, "engine_name", ""), getattr(bot, "engine_version", ""))))
            note = f"ok, engine started ({engine})" if engine else "ok, engine started"
    except YTourneyError:
        raise
    except (Exception, SystemExit) as err:  # a plugin failing to set up a game is reported, not raised raw
        raise RunnerError(f"new_game failed: {type(err).__name__}: {err}") from err
    finally:
        with contextlib.suppress(Exception):
            bot.close()
    return note


def _check_plugin(config: TournamentConfig, player: PlayerConfig) -> str:
    """The start check of a plugin, in a child process under deadlines and the memory limit: its import, its
    constructor, its game setup and its close(); nothing of its code runs in this process."""
    from ytourney.players.host import START_SECONDS, HostedBot

    game = config.game_rules
    bot = HostedBot(player.spec, 0, game, memory_mb=config.memory_mb, start_seconds=START_SECONDS,
                    what=f"plugin class {player.spec.name!r} in {player.spec.path!r}")
    try:
        bot.new_game(config.variant.board, config.rules, game.first_color)
    except YTourneyError as err:
        raise RunnerError(f"new_game failed: {err}") from None
    finally:
        bot.close()
    if bot.close_problem:
        raise RunnerError(f"close() failed: {bot.close_problem}")
    return "ok"


@dataclass(frozen=True)
class PlayerCheck:
    """One player checked: a note when fine, else the problem."""

    name: str
    note: str
    problem: str = ""
    details: tuple[str, ...] = ()  # lines shown under the player (a probe's hint and transcript)


def _check(config: TournamentConfig, player: PlayerConfig, start: bool, probe: bool = False) -> PlayerCheck:
    """Check a player here: start it, or with `start` false only look for its files; with `probe` an engine also
    plays the probe games (`probe_engine`)."""
    try:
        note = check_player(config, player) if start else _look_for(config, player)
        if probe and player.spec.kind is BotKind.GTP:
            found = probe_engine(config, player)
            if found.problem:
                return PlayerCheck(player.name, "", found.problem, tuple(found.lines()))
            note += "; probe games clean in both seats"
    except YTourneyError as err:
        return PlayerCheck(player.name, "", str(err))
    except (Exception, SystemExit) as err:  # noqa: BLE001 - anything a plugin throws is a problem to report
        return PlayerCheck(player.name, "", f"{type(err).__name__}: {err}")
    return PlayerCheck(player.name, note)


def _look_for(config: TournamentConfig, player: PlayerConfig) -> str:
    """Check a player's files, and an engine's settings against the board, without starting it."""
    spec = player.spec
    if spec.kind is BotKind.GTP:
        from ytourney.players.gtp.settings import check_engine

        check_engine(spec.gtp, config.variant.board)
        return "engine program found (not started)"
    if spec.kind is BotKind.PLUGIN:
        if not spec.path or not os.path.isfile(spec.path):
            raise BackendError(f"plugin file {spec.path!r} does not exist on this node")
        check_plugin_source(spec.path)
        return "plugin file found and compiles (not loaded)"
    return "not started (--no-start)"


def check_players(config: TournamentConfig) -> None:
    """Start every player once, as `validate` does, before a run plays or stores anything; raise RunnerError naming
    the first player that cannot start and why."""
    for player in config.players:
        check = _check(config, player, True)
        if check.problem:
            raise RunnerError(f"player {player.name!r} cannot be started: {check.problem}; nothing was played "
                              "(`ytourney validate` checks every player)")


# --- every node of a Ray cluster ------------------------------------------------------------------------------


def node_facts() -> dict[str, str]:
    """The versions that must match across nodes: ytourney and Python."""
    import ytourney

    return {"ytourney": ytourney.__version__, "python": f"{sys.version_info[0]}.{sys.version_info[1]}"}


@dataclass(frozen=True)
class NodeReport:
    """What one node says about itself: its host name, its versions, and every player checked there."""

    host: str
    facts: dict[str, str]
    players: tuple[PlayerCheck, ...]


def check_players_here(config: TournamentConfig, start: bool) -> NodeReport:
    """Run on a node: check every player (start it when `start`, else only look for its files) and report."""
    players = tuple(_check(config, player, start) for player in config.players)
    return NodeReport(socket.gethostname(), node_facts(), players)


@dataclass(frozen=True)
class NodeCheck:
    """Everything checked on one Ray node."""

    node: RayNode
    players: tuple[PlayerCheck, ...] = ()
    error: str = ""

    @property
    def problems(self) -> list[str]:
        """What this node lacks, one line each."""
        lines = [self.error] if self.error else []
        lines += [f"{p.name}: {p.problem}" for p in self.players if p.problem]
        return lines

    def lines(self) -> list[str]:
        """The node on one line, then what it lacks."""
        problems = self.problems
        if not problems:
            return [f"{self.node.describe()}  [ok: {len(self.players)} players]"]
        return [f"{self.node.describe()}  [PROBLEM]", *(f"  {problem}" for problem in problems)]


def check_cluster(config: TournamentConfig, *, address: str | None = None, start: bool = True,
                  timeout: float = 120.0) -> list[NodeCheck]:
    """Check on every alive Ray node that every player can be built there, with the versions of this machine."""
    head = node_facts()
    checks = []
    for answer in on_every_node(check_players_here, config, start, address=address, timeout=timeout):
        report: NodeReport | None = answer.value
        if answer.error or report is None:
            checks.append(NodeCheck(answer.node, error=answer.error))
            continue
        mismatch = [f"{key} {report.facts.get(key)} there, {value} here" for key, value in head.items()
                    if report.facts.get(key) != value]
        error = "version mismatch: " + "; ".join(mismatch) if mismatch else ""
        node = replace(answer.node, host=report.host or answer.node.host)
        checks.append(NodeCheck(node, report.players, error))
    return checks


# --- the whole check ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Validation:
    """A config checked before a run: what the run would do, every player checked here (and on every Ray node)."""

    source: str
    config: TournamentConfig
    games: int
    pairs: int
    directory: Path
    stored: int
    differing: tuple[str, ...] | None
    players: tuple[PlayerCheck, ...]
    nodes: tuple[NodeCheck, ...] | None = None
    address: str | None = None

    @property
    def failure(self) -> str:
        """Why the config is not ready to run ('' when it is)."""
        problems = sum(1 for player in self.players if player.problem)
        if problems:
            return f"{self.source}: {problems} player(s) cannot be started or failed the probe; see above"
        short = sum(1 for node in self.nodes or () if node.problems)
        if short:
            return f"{self.source}: {short} Ray node(s) cannot play every player; see above"
        return ""

    def lines(self) -> list[str]:
        """The summary `ytourney validate` prints (its verdict aside)."""
        config = self.config
        board, rules, schedule, handicap = (config.variant.board, config.rules, config.schedule,
                                             config.handicap)
        fmt = schedule.format.value + (f" (challenger {schedule.challenger})" if schedule.challenger else "")
        if schedule.format is ScheduleFormat.SWISS:
            fmt += f" of {schedule.rounds} round{'s' * (schedule.rounds != 1)}"
            fmt += ", a bye a round to one player" if len(config.players) % 2 else ""
        extra = ""
        if schedule.format is ScheduleFormat.KNOCKOUT:
            extra = (f", and a tied match up to {schedule.tiebreak_games} more (then the better seed goes through)"
                     if schedule.tiebreak_games else " (a tied match: the better seed goes through)")
        lines = [
            f"{self.source}: tournament {config.name!r}",
            f"  board      {board.spec} ({board.num_cells} cells), {config.game_rules.rules_text(rules)}",
            f"  schedule   {fmt}: {self.pairs} pair{'s' * (self.pairs != 1)} x {schedule.games_per_pair} "
            f"game{'s' * (schedule.games_per_pair != 1)} = {self.games} game{'s' * (self.games != 1)}{extra}",
        ]
        if schedule.sprt is not None:
            sprt = schedule.sprt
            terms = ", ".join(f"{key} {value:g}" if isinstance(value, float) else f"{key} {value}"
                              for key, value in sprt.to_dict().items())
            lines.append(f"  sprt       {config.player_names[0]} tested: {terms} (stops early once decided)")
        if schedule.openings is not None:
            openings = schedule.openings
            source = (f"{len(openings.lines)} lines from {openings.file} ({openings.order.value})" if openings.lines
                      else f"{openings.random_plies} random plies")
            lines.append(f"  openings   {source}")
        detail = {HandicapMode.NONE: "none", HandicapMode.FIXED: f"fixed at level {handicap.level:g}",
                  HandicapMode.AUTO: f"auto (max level {handicap.max_level}, target {handicap.target:g})"}
        lines.append(f"  handicap   {detail[handicap.mode]}")
        lines.append(f"  time       {config.time.describe()}")
        lines.append(f"  adjudicate {config.adjudication.describe(config.game_rules)}")
        for player in config.players:
            if player.time is not None:
                lines.append(f"  time odds  {player.name}: {player.time.describe()}")
        suspension = (f"suspend a player after {config.fault_limit} faults in a row" if config.fault_limit
                      else "never suspend a faulty player")
        lines.append(f"  run        workers {config.workers or 'one per core'}, seed {config.seed}, {suspension}")
        stored = f" ({self.stored} of {self.games} games already stored)" if self.stored else ""
        lines.append(f"  results    {self.directory}/{stored}")
        if self.differing is not None:
            lines.append(f"  warning    {self.directory}/ holds a run of a different config (differs in: "
                         f"{', '.join(self.differing[:8]) or 'config'}); `run` will refuse it: use --out elsewhere")
        lines.append("  players")
        width = max(len(p.name) for p in config.players)
        for player, check in zip(config.players, self.players):
            note = f"PROBLEM: {check.problem}" if check.problem else check.note
            lines.append(f"    {player.name:<{width}}  {player.spec.kind.value:<7}  {player.spec_text}  [{note}]")
            lines += [f"      {detail}" for detail in check.details]
        if self.nodes is not None:
            lines.append(f"  ray nodes  {len(self.nodes)} alive at {self.address or 'a local Ray instance'}")
            lines += [f"    {line}" for node in self.nodes for line in node.lines()]
        return lines


def validate_config(path: str, *, start: bool = True, backend: Backend = Backend.LOCAL,
                    address: str | None = None, probe: bool = True) -> Validation:
    """Check the config at `path` without playing a tournament game: start every player once (not with `start`
    false), let every GTP engine play the probe games against the random bot (not with `probe` false), and with
    the Ray backend check every player on every alive node of the cluster at `address` as well."""
    config = load_config(path)
    directory = results_folder(config)
    differing = None
    stored = stored_info(directory)
    if stored is not None:
        if stored.config_hash != config.digest() and growth_problem(stored.config_key, config) is not None:
            differing = tuple(config_differences(stored.config_key, config.key()))
    players = tuple(_check(config, player, start, probe and start) for player in config.players)
    nodes = None
    if backend is Backend.RAY:
        nodes = tuple(check_cluster(config, address=address, start=start))
    return Validation(path, config, planned_games(config),
                      pair_count(config.schedule.format, len(config.players), config.schedule.rounds), directory,
                      stored_count(directory), differing, players, nodes, address)
