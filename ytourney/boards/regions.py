"""Named regions of the kadon board, exactly as DESIGN §1b lists them, and their cells on a board."""

from __future__ import annotations

from ytourney.boards.board import Board, BoardKind
from ytourney.errors import BoardSpecError

CENTRAL_TRIANGLE = ("E5", "F5", "G5", "H5", "I5", "E6", "F6", "G6", "H6", "E7", "F7", "G7", "E8", "F8", "E9")
"""The central triangle of side 5 (15 nodes), rows 5 to 9; its corners are the pentads."""

PENTADS = ("E5", "I5", "E9")
"""The three nodes with five neighbours, the corners of the central triangle."""

CENTRAL_NODES = ("F6", "G6", "F7")
"""The three nodes in the middle of the central triangle."""

CORNERS = ("A1", "I1", "A9")
"""The board's corners (three neighbours each)."""

SIDE_MIDDLES = ("E1", "A5", "M5")
"""The middle node of each side, the apexes of the side triangles."""

NEXT_TO_CORNERS = ("B2", "I2", "B9")
"""The interior node next to each corner."""

SIDE_TRIANGLES = (
    ("E1", "E2", "F2", "E3", "F3", "G3", "E4", "F4", "G4", "H4"),
    ("A5", "B5", "C5", "D5", "B6", "C6", "D6", "C7", "D7", "D8"),
    ("M5", "L5", "K5", "J5", "K6", "J6", "I6", "I7", "H7", "G8"),
)
"""The three side triangles (10 nodes each), apex first at the middle of a side: E1, A5, M5."""

PERIMETER = ("A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "I1", "J2", "K3", "L4", "M5", "L6", "K7", "J8",
             "A9", "A8", "A7", "A6", "A5", "A4", "A3", "A2")
"""The 24 edge nodes in order round the board from A1."""

RING = ("D4", "E4", "F4", "G4", "H4", "I4", "J5", "I6", "H7", "G8", "D9", "D8", "D7", "D6", "D5")
"""The 15 nodes round the central triangle, in order."""

REGIONS: dict[str, tuple[str, ...]] = {
    "central-triangle": CENTRAL_TRIANGLE,
    "pentads": PENTADS,
    "central-nodes": CENTRAL_NODES,
    "corners": CORNERS,
    "side-middles": SIDE_MIDDLES,
    "next-to-corners": NEXT_TO_CORNERS,
    "side-triangle-1": SIDE_TRIANGLES[0],
    "side-triangle-2": SIDE_TRIANGLES[1],
    "side-triangle-3": SIDE_TRIANGLES[2],
    "perimeter": PERIMETER,
    "ring": RING,
}
"""Every named kadon region by its name."""


def region(board: Board, name: str) -> tuple[int, ...]:
    """The cells of a named kadon region on `board`, in the order DESIGN lists them."""
    if board.kind is not BoardKind.KADON:
        raise BoardSpecError(f"board {board.spec!r} has no named regions; only 'kadon' has")
    try:
        names = REGIONS[name]
    except KeyError:
        raise BoardSpecError(f"unknown region {name!r}; expected one of {', '.join(REGIONS)}") from None
    cells = tuple(board.index_of(n) for n in names)
    assert None not in cells
    return cells  # type: ignore[return-value]
