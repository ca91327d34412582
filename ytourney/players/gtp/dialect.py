"""Dialects of GTP engines: moves and colours as the engine names them, and the pie for engines that cannot decide
it. Moves travel in their game's notation (`game.format_move`/`game.parse_move`); the game's engine dialect
(`Game.engine_dialect()`, games/dialect.py) renames the cells within it under the engine's row order."""

from __future__ import annotations

import random
import re

from collections.abc import Sequence

from ytourney.boards.board import Board
from ytourney.errors import NotationError
from ytourney.games.api import Color, Game, Move, MoveKind, State, Termination
from ytourney.games.dialect import GENERIC_DIALECT, EngineDialect
from ytourney.players.gtp.settings import FirstColor, GtpSettings, PiePolicy, RowOrder, SwapDialect, SwapStyle

# Colours: with `first_color: white` the engine calls the player who places the first stone "white"; we swap the two
# names on the wire in both directions. Under `swap_style: exchange` (the rulebooks') stones keep their colour after a pie
# swap and the players exchange theirs, so a `swap` never changes the names. Under `swap_style: recolor` (HexGUI's
# convention) the first stone changes colour and the players keep theirs: the engine's board is ours with every
# colour renamed, so from the swap on the names are exchanged once more.

VERTEX = re.compile(r"[a-z]{1,2}[0-9]{1,3}")
MOVE_TOKEN = re.compile(r"[a-z]{1,2}[0-9]{1,3}([-x][a-z]{1,2}[0-9]{1,3})*")
"""What an answer naming a move looks like in every game's notation: nodes joined by '-' (and 'x' for a capture)."""


def to_engine_move(game: Game, board: Board, move: Move, rows: str = RowOrder.NORMAL.value) -> str:
    """The engine's text for `move`: the game's notation, its cell names renamed by the game's dialect."""
    dialect = game.engine_dialect()
    if move.kind is MoveKind.PLACE and len(move.path) == 1 and dialect.renames(board, rows):
        return dialect.to_engine_cell(board, move.cell, rows)
    return dialect.to_engine_text(board, game.format_move(board, move), rows)


def from_engine_move(game: Game, board: Board, token: str, rows: str = RowOrder.NORMAL.value,
                     placing: bool = True) -> Move:
    """Our Move for the engine's text of one, under the `rows` dialect; NotationError when it names none (a lone
    name that is no cell, in the dialect's words, where moves are `placing` a stone on a cell)."""
    dialect = game.engine_dialect()
    rows = RowOrder(rows).value
    text = dialect.from_engine_text(board, token.strip(), rows)
    try:
        return game.parse_move(board, text)
    except NotationError:
        if placing and VERTEX.fullmatch(token.strip().lower()):
            dialect.from_engine_cell(board, token, rows)  # a name with no cell: say so in the dialect's words
        raise


def places_cells(state: State) -> bool:
    """True when every move of `state` places a stone on a cell (a placement game, Aliens and Amazons' placing
    phase): an engine's answer is then a 'cell', else a 'move' (a slide, a jump chain)."""
    moves = [move for move in state.legal_moves() if move.path]
    return bool(moves) and all(move.kind is MoveKind.PLACE for move in moves)


def to_engine_color(color: Color, first_color: str = FirstColor.BLACK.value, recolored: bool = False) -> str:
    """The GTP colour word ('b'/'w') the engine uses for our `color` (`recolored`: after a swap it recolours)."""
    if (first_color == FirstColor.WHITE.value) != recolored:
        color = color.other
    return "b" if color is Color.BLACK else "w"


def from_engine_color(word: str, first_color: str = FirstColor.BLACK.value, recolored: bool = False) -> Color:
    """Our colour for a GTP colour word of an engine with the given `first_color` dialect."""
    color = Color.parse(word)
    return color.other if (first_color == FirstColor.WHITE.value) != recolored else color


def engine_colors_flipped(swap_style: str, swapped: bool) -> bool:
    """True when the engine names every colour the other way round: after a swap under `swap_style: recolor`."""
    return swapped and swap_style == SwapStyle.RECOLOR.value


# --- what a fault says of the swap dialect ---------------------------------------------------------------------------


SWAP_FAULT_PLIES = 4
"""A fault with at most this many moves played (the swap among the first two) is one 'right after a swap'."""
_COLOUR_REFUSAL = re.compile(r"refused '(play|genmove) .*(colou?r|turn|to (play|move)|should play)", re.DOTALL)


def swap_style_fault(reason: str, resigned: bool) -> bool:
    """True for the faults a wrong gtp.swap_style causes right after a swap: the engine resigns (its board disagrees
    with the colour it is asked for), refuses a colour, or answers a cell its board shows empty and ours occupied;
    never a crash, a flood, a pass, an answer that is not text, or any other fault."""
    text = reason.lower()
    return resigned or "already occupied" in text or _COLOUR_REFUSAL.search(text) is not None


def swap_style_hint(moves: Sequence[str], termination: Termination, reason: str, settings: GtpSettings) -> str:
    """A hint at gtp.swap_style when an engine lost by a fault (a resignation included) soon after a swap, else ''.

    `moves` is the record's move list as played, `termination` and `reason` how the engine lost. An engine whose
    board recolours the first stone on `swap` resigns or refuses the next colour it is told when we exchange colours,
    and the other way round; nothing else in the first moves after a swap looks like that.
    """
    if not termination.is_fault or "swap" not in [move.lower() for move in moves[:2]]:
        return ""
    if len(moves) > SWAP_FAULT_PLIES or settings.swap == SwapDialect.NONE.value:
        return ""  # an engine never told of a swap has no swap style to get wrong
    if not swap_style_fault(reason, termination is Termination.FORFEIT):
        return ""
    style = SwapStyle(settings.swap_style)
    other = SwapStyle.RECOLOR if style is SwapStyle.EXCHANGE else SwapStyle.EXCHANGE
    what = ("the engine changes the first stone's colour on `swap`, the players keeping theirs (HexGUI's convention)"
            if other is SwapStyle.RECOLOR else "the engine exchanges the players' colours on `swap`")
    return (f"the engine went wrong right after a swap: check gtp.swap_style (now {style.value!r}; "
            f"{other.value!r} when {what})")


# --- the pie for engines that cannot decide it -------------------------------------------------------------------


def decide_pie(policy: str, state: State, rng: random.Random, dialect: EngineDialect = GENERIC_DIALECT) -> bool:
    """The pie answer the tool gives for an engine that cannot swap, given the position after the first stone; the
    centre policy asks the game's `dialect` whether the first stone is worth taking."""
    if policy == PiePolicy.NEVER.value:
        return False
    if policy == PiePolicy.ALWAYS.value:
        return True
    if policy == PiePolicy.RANDOM.value:
        return rng.random() < 0.5
    first = next((move for move in state.history if move.path), None)
    if first is None:
        return False  # nothing on the board to take
    return dialect.takes_first_stone(state.board, first.target)
