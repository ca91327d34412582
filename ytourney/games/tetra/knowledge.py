"""Tetra's search knowledge: a win in one, short random playouts on scratch masks, and an evaluation by the
figures each side still holds alone, weighted 4^(stones - 1)."""

from __future__ import annotations

import math
import random

from ytourney.games.kernel import ONGOING, Kernel
from ytourney.games.knowledge import Knowledge, SearchDefaults, result_value
from ytourney.games.tetra.kernel import TetraKernel, TetraTables, remember_moves

BLACK = 1
MOVER_BONUS = 1.5
"""The side to move's figures count half again: its next stone comes first."""
TEMPERATURE = 24.0


def touched(figure_bits: tuple[int, ...], stones: int) -> int:
    """The figures (a mask over figure indices) holding at least one of `stones`."""
    found = 0
    while stones:
        low = stones & -stones
        stones ^= low
        found |= figure_bits[low.bit_length() - 1]
    return found


def counts(figure_bits: tuple[int, ...], stones: int) -> tuple[int, int, int]:
    """How many of `stones` each figure holds, bit-sliced over figure indices: (the 1s bit, the 2s bit, four).

    A few big-int operations a stone instead of a pass over the 483 figures.
    """
    c0 = c1 = c4 = 0
    while stones:
        low = stones & -stones
        stones ^= low
        add = figure_bits[low.bit_length() - 1]
        carry = c0 & add
        c0 ^= add
        c4 |= c1 & carry
        c1 ^= carry
    return c0, c1, c4


def figure_value(figure_bits: tuple[int, ...], own: int, other: int) -> int:
    """The figures `own` holds alone (none of `other`'s stones), each weighted 1, 4, 16, 64 by its own stones."""
    alone = ~touched(figure_bits, other)
    c0, c1, c4 = counts(figure_bits, own)
    ones = c0 & alone
    # one stone: 1; two: 4; three (both bits): 1 + 4 + 11 = 16; four: 64
    return ones.bit_count() + 4 * (c1 & alone).bit_count() + 11 * (ones & c1).bit_count() + 64 * (
        c4 & alone).bit_count()


def evaluate_masks(t: TetraTables, black: int, white: int, to_move: int) -> float:
    """Black's prospects in [0, 1] from the stone masks and the side to move."""
    ours = figure_value(t.figure_bits, black, white) * (MOVER_BONUS if to_move == BLACK else 1.0)
    theirs = figure_value(t.figure_bits, white, black) * (MOVER_BONUS if to_move != BLACK else 1.0)
    return 1.0 / (1.0 + math.exp(-(ours - theirs) / TEMPERATURE))


def _random_move(t: TetraTables, stones: int, occupied: int, rng: random.Random) -> int | None:
    """A random move: a random stone among those that can move, then a random move of it."""
    sources = []
    while stones:
        low = stones & -stones
        stones ^= low
        sources.append(low.bit_length() - 1)
    regions, memo = t.regions, t.memo
    randrange = rng.randrange
    while sources:
        i = randrange(len(sources))
        source = sources[i]
        near = occupied & regions[source]
        moves = memo[source].get(near)
        if moves is None:
            moves = remember_moves(t, source, near)
        if moves:
            return moves[randrange(len(moves))]
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
        own = k.masks[c]
        other = k.masks[3 - c]
        t = k.t
        c0, c1, _ = counts(t.figure_bits, own)
        # three own stones and none of the other's: the fourth node is empty
        ready = c0 & c1 & ~touched(t.figure_bits, other)
        if not ready:
            return None
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
        return evaluate_masks(k.t, k.masks[1], k.masks[2], k.to_move)

    def playout_action(self, kernel: Kernel, rng: random.Random) -> int | None:
        """A random empty node while placing, else a random movable stone's random move."""
        k: TetraKernel = kernel  # type: ignore[assignment]
        if k.result != ONGOING:
            return None
        c = k.to_move
        occupied = k.masks[1] | k.masks[2]
        if k.hand[c]:
            target = rng.randrange(k.t.size)
            while occupied >> target & 1:
                target = rng.randrange(k.t.size)
            return target
        return _random_move(k.t, k.masks[c], occupied, rng)

    def rollout(self, kernel: Kernel, rng: random.Random, plies: int, trace: list[int] | None = None) -> float:
        """Up to `plies` playout moves on scratch masks (the kernel untouched); 1 or 0 on a win or a side left
        without a move, 0.5 at the move limit, else `evaluate` of where they stop. The actions played are
        appended to `trace` when one is given (for RAVE)."""
        k: TetraKernel = kernel  # type: ignore[assignment]
        if k.result != ONGOING:
            return result_value(k.result)
        t = k.t
        size, through = t.size, t.through
        masks = k.masks.copy()
        hand = k.hand.copy()
        mover = k.to_move
        randrange = rng.randrange
        played = min(plies, k.max_plies - k.plies)
        for _ in range(played):
            occupied = masks[1] | masks[2]
            if hand[mover]:
                target = randrange(size)
                while occupied >> target & 1:
                    target = randrange(size)
                hand[mover] -= 1
                own = masks[mover] | (1 << target)
                action = target
            else:
                action = _random_move(t, masks[mover], occupied, rng)
                if action is None:
                    return 0.0 if mover == BLACK else 1.0
                source, target, _ = t.steps[action]
                own = masks[mover] ^ ((1 << source) | (1 << target))
            masks[mover] = own
            if trace is not None:
                trace.append(action)
            for fig in through[target]:
                if fig & own == fig:
                    return 1.0 if mover == BLACK else 0.0
            mover = 3 - mover
        if k.plies + played >= k.max_plies:
            return 0.5
        return evaluate_masks(t, masks[1], masks[2], mover)
