"""Fixtures of the publish tests."""

from __future__ import annotations

import pytest
from table_games import sample_records

from ytourney.games.record import GameRecord


@pytest.fixture
def records() -> list[GameRecord]:
    """Eight hand-built games (see table_games.sample_records)."""
    return sample_records()
