"""Tetra's search knowledge: a win in one, short random playouts on scratch masks, and an evaluation by the
figures each side still holds alone, weighted 4^(stones - 1)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ytourney.games.bitboard import bits
from ytourney.games.kernel import ONGOING, Kernel
from ytourney.games.knowledge import Knowledge, SearchDefaults, result_value
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


def _random_move(t: TetraTables, stones: list[int], occupied: int, random: Callable[[], float]) -> int | None:
    """A random move: a random stone among `stones` that can move, then a random move of it (`stones` untouched)."""
    regions, memo = t.regions, t.memo
    sources = stones
    while sources:
        i = int(random() * len(sources))
        source = sources[i]
        moves = memo[source][occupied & regions[source]]
        if moves:
            return moves[int(random() * len(moves))]
        if sources is stones:
            sources = stones.copy()
        sources[i] = sources[-1]
        sources.pop()
    return None


class TetraKnowledge(Knowledge):
    """Win in one, playouts of 16 plies scored by the figure evaluation; the tables come with the kernel."""

    defaults = SearchDefaults(exploration=0.7, playout_plies=16)

    def winning_action(self, kernel: Kernel) -> int | None:
        """A placement or a move of a stone from outside onto the one empty node of a figure holding three own."""
        k: TetraKernel = kernel  # type: ignore[assignment]
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
        k: TetraKernel = kernel  # type: ignore[assignment]
        return evaluate_counts(k.ones[1], k.twos[1], k.ones[2], k.twos[2], k.to_move)

    def playout_action(self, kernel: Kernel, rng: random.Random) -> int | None:
        """A random empty node while placing, else a random movable stone's random move."""
        k: TetraKernel = kernel  # type: ignore[assignment]
        if k.result != ONGOING:
            return None
        c = k.to_move
        occupied = k.masks[1] | k.masks[2]
        random = rng.random
        if k.hand[c]:
            target = int(random() * k.t.size)
            while occupied >> target & 1:
                target = int(random() * k.t.size)
            return target
        return _random_move(k.t, bits(k.masks[c]), occupied, random)

    def rollout(self, kernel: Kernel, rng: random.Random, plies: int, trace: list[int] | None = None) -> float:
        """Up to `plies` playout moves on scratch masks (the kernel untouched); 1 or 0 on a win or a side left
        without a move, 0.5 at the move limit, else `evaluate` of where they stop. The actions played are
        appended to `trace` when one is given (for RAVE)."""
        k: TetraKernel = kernel  # type: ignore[assignment]
        if k.result != ONGOING:
            return result_value(k.result)
        t = k.t
        size, steps, figure_bits, regions, memo = t.size, t.steps, t.figure_bits, t.regions, t.memo
        masks = k.masks.copy()
        hand = k.hand.copy()
        ones = k.ones.copy()
        twos = k.twos.copy()
        stones = [[], bits(masks[1]), bits(masks[2])]
        mover = k.to_move
        random = rng.random
        played = min(plies, k.max_plies - k.plies)
        for _ in range(played):
            occupied = masks[1] | masks[2]
            o, w = ones[mover], twos[mover]
            if hand[mover]:
                target = int(random() * size)
                while occupied >> target & 1:
                    target = int(random() * size)
                hand[mover] -= 1
                masks[mover] |= 1 << target
                stones[mover].append(target)
                action = target
            else:
                # a random stone among those that can move, then a random move of it
                mine = stones[mover]
                i = int(random() * len(mine))
                source = mine[i]
                moves = memo[source][occupied & regions[source]]
                if not moves:
                    action = _random_move(t, mine, occupied, random)
                    if action is None:
                        return 0.0 if mover == BLACK else 1.0
                    source = steps[action][0]
                    i = mine.index(source)
                else:
                    action = moves[int(random() * len(moves))]
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
