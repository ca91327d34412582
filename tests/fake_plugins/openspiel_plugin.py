"""A plugin seating a bot built on OpenSpiel's API, as a user seats a trained agent: OpenSpiel's uniform random bot
here (an AlphaZero checkpoint would be loaded in make_bot through OpenSpiel's own loader instead)."""

from __future__ import annotations

import pyspiel

from ytourney.players.openspiel import OpenSpielBot


class SpielRandom(OpenSpielBot):
    """OpenSpiel's uniform random bot, seated through the adapter."""

    name = "spiel-random"

    def make_bot(self, game, player, seed):  # noqa: ANN001, ANN201 - a plugin as users write them
        return pyspiel.make_uniform_random_bot(player, seed)
