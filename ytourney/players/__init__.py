"""Players: the bot protocol, built-in bots, Python plugins and bot specs."""

from __future__ import annotations

from ytourney.players.base import BaseBot, Bot, Limit
from ytourney.players.spec import (
    BUILTIN_BOTS,
    BotKind,
    BotOption,
    BotSpec,
    builtin_class,
    builtin_options,
    create_bot,
    load_plugin_class,
    parse_bot_spec,
)

__all__ = [
    "BUILTIN_BOTS",
    "BaseBot",
    "Bot",
    "BotKind",
    "BotOption",
    "BotSpec",
    "Limit",
    "builtin_class",
    "builtin_options",
    "create_bot",
    "load_plugin_class",
    "parse_bot_spec",
]
