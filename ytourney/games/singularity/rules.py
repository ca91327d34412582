"""Singularity's rule options: the colour on the corners, the fusion zone, the pie rule and the move limit."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


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
