"""A position of Aliens and Amazons: the placing phases, Alien steps and jump chains, Amazon steps, the ends."""

from __future__ import annotations

from typing import Any

from ytourney.boards.board import Board
from ytourney.games.api import Color, Game, Move, MoveKind, Outcome, Termination
from ytourney.games.aliens_amazons import policy
from ytourney.games.aliens_amazons import tables as t
from ytourney.games.stones import StoneState

IMMOBILIZED = Termination.define("immobilized")
CAPTURES = Termination.define("captures")

AMAZONS_COLOR = Color.BLACK
ALIENS_COLOR = Color.WHITE


def to_move(path: tuple[int, ...], neighbors: tuple[tuple[int, ...], ...]) -> Move:
    """The Move of a raw path: a placement, a step to a neighbour, else a jump chain."""
    if len(path) == 1:
        return Move.place(path[0])
    if len(path) == 2 and path[1] in neighbors[path[0]]:
        return Move.step(path[0], path[1])
    return Move.jump(path)


class AliensAmazonsState(StoneState):
    """Aliens (White, 3 stones, first) and Amazons (Black, 30): both place; the Aliens move once their 3 are on
    the board, the Amazons once all 30 have been placed."""

    first_action = "the first Alien is placed"

    def __init__(self, game: Game, board: Board, rules: Any, handicap: int = 0) -> None:
        self.tables = t.tables_for(board.spec)
        self.threshold = rules.threshold or self.tables.threshold
        self.amazons_placed = 0
        self.captured = 0
        super().__init__(game, board, rules, handicap)

    # --- counts --------------------------------------------------------------------------------------------

    @property
    def aliens_on_board(self) -> int:
        """Aliens placed so far (they are never captured)."""
        return sum(1 for stone in self.cells if stone == t.ALIEN)

    @property
    def amazons_in_hand(self) -> int:
        """Amazons still to be placed."""
        return t.AMAZONS - self.amazons_placed

    @property
    def amazons_left(self) -> int:
        """Amazons not captured: on the board or still in hand."""
        return t.AMAZONS - self.captured

    def placing(self, color: Color) -> bool:
        """True while `color` places stones rather than moving them."""
        if color is ALIENS_COLOR:
            return self.aliens_on_board < t.ALIENS
        return self.amazons_placed < t.AMAZONS

    # --- StoneState --------------------------------------------------------------------------------------

    def raw_moves(self) -> list[tuple[int, ...]]:
        """The side to move's moves as raw paths."""
        if self.placing(self._to_move):
            return t.placements(self.cells)
        if self._to_move is ALIENS_COLOR:
            return t.alien_moves(self.cells, self.tables)
        return t.amazon_steps(self.cells, self.tables)

    def generate_moves(self) -> list[Move]:
        """Placements while placing; Alien steps and jump chains; Amazon steps."""
        neighbors = self.tables.neighbors
        return [to_move(path, neighbors) for path in self.raw_moves()]

    def apply(self, move: Move) -> None:
        """Place, step, or jump along the chain removing every Amazon jumped over."""
        mover = self._to_move
        if move.kind is MoveKind.PLACE and mover is AMAZONS_COLOR:
            self.amazons_placed += 1
        self.captured += t.apply_path(self.cells, move.path, int(mover), self.tables)

    def judge(self, move: Move) -> Outcome | None:
        """Aliens win once fewer Amazons are left than can immobilize them; Amazons win when the Aliens, to move,
        have no move."""
        if self._to_move is AMAZONS_COLOR:  # the Aliens just moved
            if self.amazons_left < self.threshold:
                return Outcome(ALIENS_COLOR, CAPTURES, None,
                               f"{self.amazons_left} Amazons left, fewer than the {self.threshold} that can "
                               "immobilize three Aliens")
            return None
        if not self.generate_moves_cached():
            return self.no_moves_outcome()
        return None

    def search_moves(self) -> list[Move]:
        """For the generic mcts: the Amazons' moves that leave no Amazon open to a jump (all when none does)."""
        if self._to_move is ALIENS_COLOR:
            return self.generate_moves()
        neighbors = self.tables.neighbors
        paths = policy.safe_amazon_moves(list(self.cells), self.raw_moves(), self.tables)
        return [to_move(path, neighbors) for path in paths]

    def rollout(self, rng: Any, plies: int) -> float:
        """Black's (the Amazons') value for the generic mcts: `plies` plies of the cheap policy, then evaluated."""
        return 1.0 - policy.rollout(self, rng, plies)

    def no_moves_outcome(self) -> Outcome:
        """Aliens with no move are immobilized: the Amazons win (Amazons with none lose, as in every game)."""
        if self._to_move is ALIENS_COLOR:
            return Outcome(AMAZONS_COLOR, IMMOBILIZED, None, "the Aliens are immobilized")
        return super().no_moves_outcome()

    def refusal(self, move: Move) -> str:
        """Why an illegal move is refused: one line naming it and the rule it breaks."""
        return self.why_illegal(move)

    # --- explaining a refusal --------------------------------------------------------------------------------

    def why_illegal(self, move: Move) -> str:
        """One line naming the move and why the rules refuse it here."""
        names = self.board.names
        text = self._name(move).strip("'\"")
        side = "Aliens" if self._to_move is ALIENS_COLOR else "Amazons"
        if move.kind is MoveKind.PASS:
            return f"{text}: there is no passing in aliens-amazons"
        if any(not 0 <= node < self.board.num_cells for node in move.path) or not move.path:
            return f"{text}: not a node of {self.board.spec}"
        if move.capture is not None:
            return f"{text}: captures are implied by the jumps; name only the landings"
        if self.placing(self._to_move):
            if move.kind is not MoveKind.PLACE:
                done = (f"{self.aliens_on_board} of {t.ALIENS}" if self._to_move is ALIENS_COLOR
                        else f"{self.amazons_placed} of {t.AMAZONS}")
                return f"{text}: the {side} are still placing ({done} placed); play a node"
            return f"{text}: {names[move.cell]} is occupied"
        if move.kind is MoveKind.PLACE:
            return f"{text}: the {side} have no stones in hand; move one ({names[move.cell]}-...)"
        source = move.path[0]
        if self.cells[source] != int(self._to_move):
            return f"{text}: {names[source]} holds no {side[:-1]}"
        if move.kind is MoveKind.STEP:
            if move.path[1] not in self.tables.neighbors[source]:
                return f"{text}: {names[move.path[1]]} is not next to {names[source]}"
            return f"{text}: {names[move.path[1]]} is occupied"
        if self._to_move is AMAZONS_COLOR:
            return f"{text}: Amazons never jump; they step one node"
        return self._why_chain(move.path, text)

    def _why_chain(self, path: tuple[int, ...], text: str) -> str:
        names = self.board.names
        cells = self.cells.copy()
        cells[path[0]] = t.EMPTY
        seen = {path[0]}
        for a, c in zip(path, path[1:]):
            over = self.tables.middle.get((a, c))
            if over is None:
                return f"{text}: {names[c]} is not on a line from {names[a]} two nodes on (no jump lands there)"
            if cells[over] == t.EMPTY:
                return f"{text}: {names[over]} is empty, nothing to jump from {names[a]} to {names[c]}"
            if c in seen:
                return f"{text}: a chain lands on {names[c]} twice"
            if cells[c] != t.EMPTY:
                return f"{text}: the landing {names[c]} is occupied"
            seen.add(c)
            if cells[over] == t.AMAZON:
                cells[over] = t.EMPTY
        return f"{text}: not a legal move for the {side_name(self._to_move)} here"  # pragma: no cover

    def copy_extra(self, new: StoneState) -> None:
        """Counters are ints and the tables shared: nothing more to copy."""


def side_name(color: Color) -> str:
    """'Aliens' for White, 'Amazons' for Black."""
    return "Aliens" if color is ALIENS_COLOR else "Amazons"
