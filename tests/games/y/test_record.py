"""Game records: JSON round trip and derived fields."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from ytourney.errors import YTourneyError
from ytourney.games.record import GameRecord, Termination, utc_now
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION


def make_record(**changes: object) -> GameRecord:
    data = dict(
        tournament="demo", game="y", round=3, board="tri:11", rules=Rules(pie=True, misere=False), handicap=0,
        first="mcts-1k", second="random", black="random", white="mcts-1k", moves=("e5", "swap", "c3", "d4"),
        winner=Color.WHITE, termination=CONNECTION, move_seconds=(0.01, 0.0, 0.02, 0.01), seed=12345,
        started="2026-11-29T12:00:00Z", finished="2026-11-29T12:00:01Z", id=17,
    )
    data.update(changes)
    return GameRecord(**data)  # type: ignore[arg-type]


def test_json_has_the_design_keys_and_round_trips() -> None:
    record = make_record()
    data = json.loads(json.dumps(record.to_dict()))
    for key in ["id", "tournament", "round", "board", "rules", "handicap", "first", "black", "white", "moves",
                "winner", "winner_name", "termination", "move_seconds", "seed", "started", "finished"]:
        assert key in data
    assert data["winner_name"] == "mcts-1k"
    assert data["termination"] == "connection"
    assert GameRecord.from_dict(data) == record


def test_derived_fields() -> None:
    record = make_record(winner=Color.BLACK, termination=Termination.TIME)
    assert record.winner_name == "random" and record.loser_name == "mcts-1k"
    assert record.swapped and record.termination.is_fault
    assert replace(record, id=5).id == 5


def test_second_is_inferred_for_foreign_records() -> None:
    data = make_record().to_dict()
    del data["second"]
    assert GameRecord.from_dict(data).second == "random"


def test_malformed_record() -> None:
    with pytest.raises(YTourneyError, match="malformed"):
        GameRecord.from_dict({"board": "tri:5"})
    with pytest.raises(YTourneyError, match="malformed"):
        GameRecord.from_dict({**make_record().to_dict(), "termination": "nap"})


def test_utc_now_format() -> None:
    assert utc_now().endswith("Z") and "T" in utc_now()
