"""Tetra's search knowledge: a win in one, short random playouts on scratch masks, and an evaluation by the
figures each side still holds alone, weighted 4^(stones - 1).

On the C kernel (ckernel.py) each of these runs in the core. A playout draws from a 64-bit LCG seeded once from
the search's `random.Random` (`getrandbits(64)`), each choice `(state >> 32) % n` in the same candidate order as the
core, so for one seed the pure-Python and the C playouts play the same moves and return the same value."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ytourney.games.bitboard import bits
from ytourney.games.kernel import ONGOING, Kernel
from ytourney.games.knowledge import LCG_INC, LCG_MUL, MASK64, Knowledge, SearchDefaults, result_value
from ytourney.games.tetra.kernel import TetraKernel, TetraTables

BLACK = 1
MOVER_BONUS = 1.5
"""The side to move's figures count half again: its next stone comes first."""
TEMPERATURE = 24.0


def value_of(ones: int, twos: int, others: int) -> int:
    """The weighted figures a side holds alone, from its bit-sliced counts (`ones`, `twos`) and the figures the
    other side touches (`others`): 1 for one stone, 4 for two, 16 for three."""
    alone = ones & ~others
    # one stone: 1; two: 4; three (both bits): 1 + 4 + 11 = 16
    return alone.bit_count() + 4 * (twos & ~others).bit_count() + 11 * (alone & twos).bit_count()


def evaluate_counts(black_ones: int, black_twos: int, white_ones: int, white_twos: int, to_move: int) -> float:
    """Black's prospects in [0, 1]: the figures each side still holds alone, weighted 4^(stones - 1), the side to
    move's half again, squashed."""
    ours = value_of(black_ones, black_twos, white_ones | white_twos)
    theirs = value_of(white_ones, white_twos, black_ones | black_twos)
    if to_move == BLACK:
        ours *= MOVER_BONUS
    else:
        theirs *= MOVER_BONUS
    return 1.0 / (1.0 + math.exp(-(ours - theirs) / TEMPERATURE))


def _random_move(t: TetraTables, stones: list[int], occupied: int, state: int) -> tuple[int | None, int]:
    """A random move: a random stone among `stones` that can move, then a random move of it (`stones` untouched);
    with the generator's state after the draws."""
    regions, memo = t.regions, t.memo
    sources = stones
    while sources:
        state = (state * LCG_MUL + LCG_INC) & MASK64
        i = (state >> 32) % len(sources)
        source = sources[i]
        moves = memo[source][occupied & regions[source]]
        if moves:
            state = (state * LCG_MUL + LCG_INC) & MASK64
            return moves[(state >> 32) % len(moves)], state
        if sources is stones:
            sources = stones.copy()
        sources[i] = sources[-1]
        sources.pop()
    return None, state


def _ready_nodes(k: TetraKernel, colour: int) -> set[int]:
    """The empty nodes of the figures holding three of `colour`'s stones and none of the other's."""
    own = k.masks[colour]
    ready = k.ones[colour] & k.twos[colour] & ~(k.ones[3 - colour] | k.twos[3 - colour])
    figures = k.t.figures
    nodes = set()
    while ready:
        low = ready & -ready
        ready ^= low
        nodes.add((figures[low.bit_length() - 1] & ~own).bit_length() - 1)
    return nodes


def _double_threat_placement(k: TetraKernel, colour: int) -> bool:
    """True when a placement of `colour` makes figures of three it holds alone with two different empty nodes: two
    figures of two it holds alone share an empty node and their other empty nodes differ."""
    pairs = k.twos[colour] & ~k.ones[colour] & ~(k.ones[3 - colour] | k.twos[3 - colour])
    figures = k.t.figures
    empty = ~(k.masks[1] | k.masks[2])
    paired: dict[int, int] = {}
    while pairs:
        low = pairs & -pairs
        pairs ^= low
        first, second = bits(figures[low.bit_length() - 1] & empty)
        for placed, left in ((first, second), (second, first)):
            if paired.setdefault(placed, left) != left:
                return True
    return False


class TetraKnowledge(Knowledge):
    """Win in one, playouts of 16 plies scored by the figure evaluation; the tables come with the kernel (on the C
    kernel, each is the core's own)."""

    defaults = SearchDefaults(exploration=0.7, playout_plies=0, breadth=12)
    """A selective search on the figure evaluation: the 12 actions best one ply deep, leaves scored at
    once."""

    def search_actions(self, kernel: Kernel) -> list[int]:
        """A win in one alone; while both sides place, the block of a figure the opponent holds three of alone
        (every other placement loses to its fourth stone); else the selective search's best by one ply."""
        if kernel.result == ONGOING:
            winning = self.winning_action(kernel)
            if winning is not None:
                return [winning]
            hand = kernel.hand  # type: ignore[attr-defined]
            if hand[1] and hand[2]:
                threat = self._block(kernel)
                if threat is not None:
                    return [threat]  # a placement's action is its node
        return super().search_actions(kernel)

    def one_ply_values(self, kernel: Kernel, actions: Sequence[int]) -> list[float]:
        """The base's values (a win 1, a loss or a win in one left to the opponent 0, else the evaluation), on a C
        kernel in one call of its core: most of a selective search's time is spent here."""
        if type(kernel) is TetraKernel:
            return super().one_ply_values(kernel, actions)
        return kernel.one_ply_values(actions)  # type: ignore[attr-defined, no-any-return]

    def forced_winner(self, kernel: Kernel) -> int:
        """The side to move with a win in one; the side that has just moved, still placing, holding alone figures of
        three with two different empty nodes (one reply fills one); the side to move, two stones in hand and the other
        side holding no figure of three, with a placement making two such nodes; else 0."""
        if type(kernel) is not TetraKernel:
            return kernel.forced_winner()  # type: ignore[attr-defined, no-any-return]
        k = kernel
        if k.result != ONGOING or k.plies + 3 > k.max_plies:
            return 0
        c = k.to_move
        o = 3 - c
        if self.winning_action(k) is not None:
            return c
        if k.hand[o] and len(_ready_nodes(k, o)) >= 2:
            return o
        if k.hand[c] >= 2 and not _ready_nodes(k, o) and _double_threat_placement(k, c):
            return c
        return 0

    def _block(self, kernel: Kernel) -> int | None:
        """The lowest empty node of a figure the side not to move holds three of alone, or None."""
        if type(kernel) is TetraKernel:
            nodes = _ready_nodes(kernel, 3 - kernel.to_move)
            return min(nodes) if nodes else None
        return kernel.block()  # type: ignore[attr-defined, no-any-return]

    def winning_action(self, kernel: Kernel) -> int | None:
        """A placement or a move of a stone from outside onto the one empty node of a figure holding three own."""
        if type(kernel) is not TetraKernel:
            return kernel.winning_action()  # type: ignore[attr-defined, no-any-return]
        k = kernel
        if k.result != ONGOING:
            return None
        c = k.to_move
        o = 3 - c
        # three own stones (both count bits) and none of the other's: the fourth node is empty
        ready = k.ones[c] & k.twos[c] & ~(k.ones[o] | k.twos[o])
        if not ready:
            return None
        own = k.masks[c]
        other = k.masks[o]
        t = k.t
        placing = k.hand[c] > 0
        occupied = own | other
        figures, reaching = t.figures, t.reaching
        while ready:
            low = ready & -ready
            ready ^= low
            fig = figures[low.bit_length() - 1]
            target = (fig & ~own).bit_length() - 1
            if placing:
                return target
            for source_bit, via_bit, action in reaching[target]:
                if own & source_bit and not source_bit & fig and not via_bit & occupied:
                    return action
        return None

    def urgent_actions(self, kernel: Kernel) -> list[int]:
        """The win in one, when there is one."""
        action = self.winning_action(kernel)
        return [] if action is None else [action]

    def evaluate(self, kernel: Kernel) -> float:
        """Black's value: the figures each side holds alone, weighted by how full, the mover's half again."""
        if type(kernel) is not TetraKernel:
            return kernel.evaluate()  # type: ignore[attr-defined, no-any-return]
        k = kernel
        return evaluate_counts(k.ones[1], k.twos[1], k.ones[2], k.twos[2], k.to_move)

    def playout_action(self, kernel: Kernel, rng: random.Random) -> int | None:
        """A random empty node while placing, else a random movable stone's random move (one seed drawn)."""
        if kernel.result != ONGOING:
            return None
        seed = rng.getrandbits(64)
        if type(kernel) is not TetraKernel:
            return kernel.playout_action(seed)  # type: ignore[attr-defined, no-any-return]
        k = kernel
        c = k.to_move
        occupied = k.masks[1] | k.masks[2]
        if k.hand[c]:
            size = k.t.size
            if occupied == (1 << size) - 1:
                return None
            while True:
                seed = (seed * LCG_MUL + LCG_INC) & MASK64
                target = (seed >> 32) % size
                if not occupied >> target & 1:
                    return target
        stones = bits(k.masks[c])
        if not stones:
            return None
        seed = (seed * LCG_MUL + LCG_INC) & MASK64
        source = stones[(seed >> 32) % len(stones)]
        moves = k.t.memo[source][occupied & k.t.regions[source]]
        if moves:
            seed = (seed * LCG_MUL + LCG_INC) & MASK64
            return moves[(seed >> 32) % len(moves)]
        return _random_move(k.t, stones, occupied, seed)[0]

    def rollout(self, kernel: Kernel, rng: random.Random, plies: int, trace: list[int] | None = None) -> float:
        """Up to `plies` playout moves on scratch masks (the kernel untouched); 1 or 0 on a win or a side left
        without a move, 0.5 at the move limit, else `evaluate` of where they stop. The actions played are
        appended to `trace` when one is given (for RAVE)."""
        if kernel.result != ONGOING:
            return result_value(kernel.result)
        seed = rng.getrandbits(64)
        if type(kernel) is not TetraKernel:
            return kernel.rollout(seed, plies, trace)  # type: ignore[attr-defined, no-any-return]
        k = kernel
        t = k.t
        size, steps, figure_bits, regions, memo = t.size, t.steps, t.figure_bits, t.regions, t.memo
        masks = k.masks.copy()
        hand = k.hand.copy()
        ones = k.ones.copy()
        twos = k.twos.copy()
        stones = [[], bits(masks[1]), bits(masks[2])]
        mover = k.to_move
        played = min(plies, k.max_plies - k.plies)
        full = (1 << size) - 1
        for _ in range(played):
            occupied = masks[1] | masks[2]
            o, w = ones[mover], twos[mover]
            if hand[mover]:
                if occupied == full:  # a set-up board with no empty node: no placement left
                    return 0.0 if mover == BLACK else 1.0
                seed = (seed * LCG_MUL + LCG_INC) & MASK64
                target = (seed >> 32) % size
                while occupied >> target & 1:
                    seed = (seed * LCG_MUL + LCG_INC) & MASK64
                    target = (seed >> 32) % size
                hand[mover] -= 1
                masks[mover] |= 1 << target
                stones[mover].append(target)
                action = target
            else:
                # a random stone among those that can move, then a random move of it
                mine = stones[mover]
                if not mine:
                    return 0.0 if mover == BLACK else 1.0
                seed = (seed * LCG_MUL + LCG_INC) & MASK64
                i = (seed >> 32) % len(mine)
                source = mine[i]
                moves = memo[source][occupied & regions[source]]
                if not moves:
                    found, seed = _random_move(t, mine, occupied, seed)
                    if found is None:
                        return 0.0 if mover == BLACK else 1.0
                    action = found
                    source = steps[action][0]
                    i = mine.index(source)
                else:
                    seed = (seed * LCG_MUL + LCG_INC) & MASK64
                    action = moves[(seed >> 32) % len(moves)]
                target = steps[action][1]
                masks[mover] ^= (1 << source) | (1 << target)
                mine[i] = target
                remove = figure_bits[source]
                w ^= remove & ~o
                o ^= remove
            if trace is not None:
                trace.append(action)
            add = figure_bits[target]
            carry = o & add
            if w & carry:
                return 1.0 if mover == BLACK else 0.0
            ones[mover] = o ^ add
            twos[mover] = w ^ carry
            mover = 3 - mover
        if k.plies + played >= k.max_plies:
            return 0.5
        return evaluate_counts(ones[1], twos[1], ones[2], twos[2], mover)
