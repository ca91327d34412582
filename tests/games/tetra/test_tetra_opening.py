"""Tetra without the pie is a first-player win in seven plies from G5 (docs/games/tetra.md): for every White stone,
some second Black stone leaves, for every White answer, a third Black stone with two threes needing two nodes."""

from __future__ import annotations

from ytourney.games.registry import get_game
from ytourney.games.tetra.kernel import tables


def test_black_wins_by_force_with_its_fourth_stone_after_g5() -> None:
    board = get_game("tetra").parse_board("kadon")
    figures = tables(board).figures
    size = board.num_cells
    names = [board.name_of(node) for node in range(size)]

    def double_threat(first: int, second: int, white: int) -> bool:
        """Some third stone makes two figures of three Black stones, untouched by White, needing two nodes."""
        needs: dict[int, set[int]] = {}
        for figure in figures:
            if figure >> first & 1 and figure >> second & 1 and not figure & white:
                rest = figure & ~(1 << first | 1 << second)
                for third in range(size):
                    if rest >> third & 1:
                        needs.setdefault(third, set()).add(rest & ~(1 << third))
        return any(len(empty) >= 2 for empty in needs.values())

    g5 = names.index("G5")
    for white in range(size):
        if white == g5:
            continue
        assert any(second not in (g5, white) and all(
            double_threat(g5, second, 1 << white | 1 << answer)
            for answer in range(size) if answer not in (g5, white, second))
            for second in range(size)), f"white {names[white]} holds"
