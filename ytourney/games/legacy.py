"""What was written before games were values: the one module that names Y for compatibility.

Results folders, records, stored configs and `match` YAML written before a tournament could play another game carry
no `game` key; they are Y's, and Y's keep writing no key so that their stored config digests stay the same. Old
plugins' int answers (a cell index as a move) are read here (`legacy_cell`), for Y's own `Game.coerce_move`.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import Any

from ytourney.boards.board import Board
from ytourney.errors import IllegalMoveError

LEGACY_GAME = "y"
"""The game of everything written before games existed (no `game` key): Y, by its registry name."""

V1_RULE_SWITCHES = ("pie", "misere")
"""The rule columns of a version 1 results store (Y's two switches, each a column before rules were JSON)."""


def recorded_game(name: Any) -> Any:
    """The game name a record, store row or config gives (`name`), Y's when it gives none (None or '')."""
    return LEGACY_GAME if name is None or name == "" else name


def game_key(name: str) -> dict[str, str]:
    """The `game` key a config, canonical key or export writes for the game `name`: none for Y, as before games."""
    return {} if is_legacy(name) else {"game": name}


def game_of(data: Mapping[str, Any]) -> Any:
    """The game name of a mapping read from a file (a record, a config), Y's when its `game` key is absent."""
    return recorded_game(data.get("game"))


def is_legacy(name: str) -> bool:
    """True for the game of before games existed: reports, labels and exports name every other game, not this one."""
    return name == LEGACY_GAME


def legacy_cell(board: Board, answer: object) -> int | None:
    """The cell index of an old plugin's int answer (a cell index as a move, from before the game API), None for
    any other answer; IllegalMoveError when it is off `board`."""
    if not isinstance(answer, numbers.Integral) or isinstance(answer, bool):
        return None
    cell = int(answer)
    if not 0 <= cell < board.num_cells:
        raise IllegalMoveError(f"answered cell index {cell} outside the board")
    return cell
