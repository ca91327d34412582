"""Players: the bot protocol, built-in bots, Python plugins and bot specs."""

from __future__ import annotations

from ytourney.games.bot import BaseBot, Bot, Limit
from ytourney.players.plugin import load_plugin_class
from ytourney.players.spec import (
    BUILTIN_BOTS,
    BotKind,
    BotOption,
    BotSpec,
    bot_factory,
    bots_of,
    builtin_class,
    builtin_options,
    create_bot,
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
    "bot_factory",
    "bots_of",
    "builtin_options",
    "create_bot",
    "load_plugin_class",
    "parse_bot_spec",
]
