"""Growing a results folder's tournament: more games per pair on a folder that holds games already.

A config that differs from the stored one only in `schedule.games_per_pair`, and only upwards, plans the same
games in the same slots (same pairs, seats, seeds and openings) followed by new rounds: the stored games are kept
and the new slots are played. Anything else that differs (a board, a player, the seed, fewer games, an odd count
whose last round would be rebuilt) would change the meaning of stored games and is refused, naming the key.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ytourney.errors import ConfigMismatchError
from ytourney.tournament.config import TournamentConfig
from ytourney.tournament.schedule import SlotPlan
from ytourney.tournament.store import TournamentInfo, config_differences, stored_info

GROWABLE = "schedule.games_per_pair"
"""The one key a stored tournament may change: upwards, keeping every stored slot."""


def _games_per_pair(key: Mapping[str, Any]) -> int | None:
    schedule = key.get("schedule")
    value = schedule.get("games_per_pair") if isinstance(schedule, Mapping) else None
    return value if isinstance(value, int) else None


def growth_problem(old_key: Mapping[str, Any], config: TournamentConfig) -> str | None:
    """None when `config` grows the tournament stored with `old_key` (or is the same); else why it does not, naming
    the keys that differ."""
    differing = config_differences(old_key, config.key())
    if not differing:
        return None
    if differing != [GROWABLE]:
        shown = ", ".join(differing[:8]) + (f" and {len(differing) - 8} more" if len(differing) > 8 else "")
        return f"differs in: {shown}"
    old, new = _games_per_pair(old_key), config.schedule.games_per_pair
    if old is None:
        return f"differs in: {GROWABLE}"
    if config.schedule.format.in_rounds:
        return (f"differs in: {GROWABLE}, {old} when stored and now {new}: a {config.schedule.format.value} plans "
                "each round from the games before it, so its games per pair never change")
    if new < old:
        return f"differs in: {GROWABLE}, {old} when stored and now {new}: games per pair may grow, never shrink"
    if not _extends(config, old):
        return (f"differs in: {GROWABLE}, {old} when stored and now {new}: the last round of an odd count holds one "
                "game of each pair, and growing it would move stored games to other slots")
    return None


def _extends(config: TournamentConfig, old_games: int) -> bool:
    """True when the plan of `config` starts with the plan it had with `old_games` games per pair, slot by slot."""
    old_config = dataclasses.replace(config, schedule=dataclasses.replace(config.schedule, games_per_pair=old_games))
    old, new = SlotPlan(old_config), SlotPlan(config)
    count = len(old)
    return len(new) >= count and all(
        getattr(new, name)[:count] == getattr(old, name) for name in ("_pair", "_first_is_a", "_round", "_group",
                                                                     "_seeds"))


def grows(info: TournamentInfo, config: TournamentConfig) -> bool:
    """True when `config` grows the stored tournament `info` (not when it is the same config)."""
    return info.config_hash != config.digest() and growth_problem(info.config_key, config) is None


def check_folder(directory: str | os.PathLike[str], config: TournamentConfig,
                 advice: str = "restore the old config to continue it") -> TournamentInfo | None:
    """Refuse (ConfigMismatchError) a results folder whose stored tournament `config` neither continues nor grows;
    return the stored tournament (None when the folder holds none)."""
    info = stored_info(directory)
    if info is None or info.config_hash == config.digest():
        return info
    problem = growth_problem(info.config_key, config)
    if problem is not None:
        raise ConfigMismatchError(
            f"results folder {str(Path(directory))!r} holds tournament {info.name!r} run with a different config "
            f"({problem}); use --out to write this config's results elsewhere, or {advice}")
    return info


def growth_note(info: TournamentInfo | None, config: TournamentConfig, planned: int) -> str:
    """What a run that grows the stored tournament says ('' when it does not grow it)."""
    if info is None or not grows(info, config):
        return ""
    old = _games_per_pair(info.config_key)
    return (f"{GROWABLE} grows from {old} to {config.schedule.games_per_pair}: {info.planned_games} planned games "
            f"become {planned}, stored games are kept")
