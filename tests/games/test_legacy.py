"""Nothing below the CLI defaults to Y: the registry wants a name, and what was written before games existed reads as
Y's through ytourney.games.legacy alone."""

from __future__ import annotations

import pickle

import pytest

from ytourney.errors import GameSpecError
from ytourney.games import legacy, registry
from ytourney.games.api import Color, Termination
from ytourney.games.record import GameRecord, GameSetup
from ytourney.games.variant import load_variant


def test_the_registry_has_no_default_game() -> None:
    assert not hasattr(registry, "DEFAULT_GAME")
    for missing in (None, "", 3):
        with pytest.raises(GameSpecError, match="unknown game"):
            registry.get_game(missing)  # type: ignore[arg-type]


def test_a_game_travels_by_name_and_is_the_same_value_after_a_pickle() -> None:
    for game in registry.all_games().values():
        assert pickle.loads(pickle.dumps(game)) is game


def test_a_record_without_a_game_key_is_y_and_a_record_needs_its_game() -> None:
    data = {"board": "tri:5", "first": "a", "black": "a", "white": "b", "moves": ["a1"], "winner": "black",
            "termination": "connection"}
    record = GameRecord.from_dict(data)
    assert record.game == legacy.LEGACY_GAME == "y" and record.game_rules is registry.get_game("y")
    assert GameRecord.from_dict({**data, "game": ""}).game == "y"
    with pytest.raises(TypeError, match="game"):
        GameRecord(tournament="t", round=1, board="tri:5", rules=None, handicap=0, first="a",  # type: ignore[call-arg]
                   second="b", black="a", white="b", moves=(), winner=Color.BLACK, termination=Termination.CRASH,
                   move_seconds=(), seed=None, started="", finished="")


def test_a_setup_carries_its_variant_into_the_record() -> None:
    variant = load_variant("tetra")
    record = GameSetup(variant, first="a", second="b").lost_by(0, Termination.CRASH, "gone")
    assert record.game == "tetra" and record.board == variant.board.spec and record.variant == variant
    assert record.rules_dict == variant.rules_dict


def test_only_y_writes_no_game_key() -> None:
    assert legacy.game_key("y") == {} and legacy.game_key("tetra") == {"game": "tetra"}
    assert legacy.game_of({}) == "y" and legacy.game_of({"game": "yvy"}) == "yvy"
    assert legacy.is_legacy("y") and not legacy.is_legacy("tetra")
