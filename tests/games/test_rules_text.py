"""A rule's value `default` sets it back to its default (Aliens and Amazons' computed `threshold` included) in every
game and every way rules are given: GTP's `ytourney-rules`, `--rule`, a config; numbers in text are ASCII digits."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from ytourney.cli import main
from ytourney.cli.options import rules_mapping
from ytourney.games.registry import game_names, get_game
from ytourney.games.rules import rule_from_text
from ytourney.players.bots.random_bot import RandomBot
from ytourney.players.gtp.server import GtpServer
from ytourney.tournament.config import parse_config


def changed(option) -> str:
    """A legal value of `option` other than its default, as text."""
    if option.type is bool:
        return "off" if option.default else "on"
    if option.choices:
        return next(choice for choice in option.choices if choice != option.default)
    return str(int(option.default) - 1 if option.high is not None and option.default >= option.high
               else int(option.default) + 1)


@pytest.mark.parametrize("game", game_names())
def test_every_rule_resets_to_default_over_gtp(game: str) -> None:
    played = get_game(game)
    server = GtpServer(RandomBot(seed=1), game=played)
    defaults = played.parse_rules(None)
    changes = " ".join(f"{key}={changed(option)}" for key, option in played.rule_options.items())
    assert server.handle(f"ytourney-rules {changes}") == "=\n\n"
    assert server.rules != defaults
    resets = " ".join(f"{key}=DEFAULT" for key in played.rule_options)
    assert server.handle(f"ytourney-rules {resets}") == "=\n\n"
    assert server.rules == defaults


def test_the_aliens_threshold_resets_to_its_computed_value_over_gtp() -> None:
    played = get_game("aliens-amazons")
    server = GtpServer(RandomBot(seed=1), game=played)
    assert server.handle("ytourney-rules threshold=5") == "=\n\n" and server.rules.threshold == 5
    assert server.handle("ytourney-rules threshold=default") == "=\n\n"
    assert server.rules.threshold == played.threshold(server.board) == 10


@pytest.mark.parametrize("game", game_names())
def test_default_is_read_alike_in_a_config_and_on_the_command_line(tmp_path: Path, game: str) -> None:
    played = get_game(game)
    rules = ", ".join(f"{key}: default" for key in played.rule_options)
    config = parse_config(f"name: x\ngame: {game}\nrules: {{{rules}}}\nplayers: [random, {{name: r, bot: random}}]\n",
                          str(tmp_path / "x.yaml"), tmp_path)
    assert config.rules == played.parse_rules(None)
    items = tuple(f"{key}=default" for key in played.rule_options)  # --rule KEY=default, as play and match read it
    with click.Context(main):
        assert played.parse_rules(rules_mapping(played, None, items)) == played.parse_rules(None)


@pytest.mark.parametrize("text", ["１０", "١٠", "1٠", "²"])
def test_a_number_rule_in_text_is_ascii_digits_only(text: str) -> None:
    option = get_game("tetra").rule_options["max_plies"]
    with pytest.raises(ValueError):
        rule_from_text(text, option)
    assert rule_from_text("400", option) == 400
