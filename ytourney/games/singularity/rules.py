"""Singularity's rule options: the colour on the corners, the fusion zone, the pie rule and the move limit."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from ytourney.errors import GameSpecError

CORNER_COLOURS = ("black", "white")
FUSION_ZONES = ("both", "landing", "resting")
DEFAULT_MAX_PLIES = 3000


@dataclass(frozen=True)
class Rules:
    """One rule set of Singularity (DESIGN §1b readings by default)."""

    pie: bool = False
    max_plies: int = DEFAULT_MAX_PLIES
    corners: str = "black"
    """Which colour starts on the corners and side middles (the other takes the nodes between)."""
    fusion: str = "both"
    """Where a fusion happens: 'both' stones in the central triangle, only the 'landing' stone, or only the
    'resting' (captured) stone."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form used in records."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Rules:
        """Rules from their JSON form; missing keys take the defaults, unknown keys and values are errors."""
        data = dict(data or {})
        unknown = sorted(set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise GameSpecError(f"unknown singularity rule {unknown[0]!r}; expected pie, max_plies, corners, fusion")
        rules = cls(**data)
        if rules.corners not in CORNER_COLOURS:
            raise GameSpecError(f"rule corners={rules.corners!r}; expected one of {', '.join(CORNER_COLOURS)}")
        if rules.fusion not in FUSION_ZONES:
            raise GameSpecError(f"rule fusion={rules.fusion!r}; expected one of {', '.join(FUSION_ZONES)}")
        if not isinstance(rules.max_plies, int) or isinstance(rules.max_plies, bool) or rules.max_plies < 1:
            raise GameSpecError(f"rule max_plies={rules.max_plies!r}; expected a whole number of plies >= 1")
        return rules
