"""Leap Over's search knowledge: one chain per stone and landing, and leaves scored by the race evaluation at once.

Random play never finishes a game of Leap Over, so a playout says nothing: the defaults score each new leaf by
`evaluation.black_value` without playing on (exploration 0.5, no playout plies). A playout asked for anyway plays
uniform chains drawn from a 64-bit LCG seeded once from the search's `random.Random` (`getrandbits(64)`), each
choice `(state >> 32) % n` over the legal list, as the C core does: for one seed both play the same chains.

On the C kernel (ckernel.py) each of these runs in the core.
"""

from __future__ import annotations

import copy
import functools
import random

from ytourney.boards.board import Board
from ytourney.games.kernel import ONGOING, PASS_ACTION, Kernel
from ytourney.games.knowledge import LCG_INC, LCG_MUL, MASK64, Knowledge, SearchDefaults, result_value
from ytourney.games.leap_over.evaluation import black_value, distances
from ytourney.games.leap_over.endgame import PlanMemory, assist_action, plan_action
from ytourney.games.leap_over.kernel import FIRST_FIELD, LeapOverKernel, tables


class LeapOverKnowledge(Knowledge):
    """The chains worth searching and the race evaluation of Leap Over on one board."""

    defaults = SearchDefaults(exploration=0.5, playout_plies=0)

    def __init__(self, board: Board) -> None:
        self.board = board
        self.plans = PlanMemory()

    def for_search(self) -> LeapOverKnowledge:
        """A copy with a plan memory of its own: the endgame plans and cut searches one bot keeps in one game."""
        own = copy.copy(self)
        own.plans = PlanMemory()
        return own

    def search_actions(self, kernel: Kernel) -> list[int]:
        """One chain per stone and landing (chains ending on the same node give the same position), the shortest,
        found breadth first instead of listing every chain; the pass when there is none."""
        if type(kernel) is not LeapOverKernel:
            return kernel.search_actions()  # type: ignore[attr-defined, no-any-return]
        t = kernel.tables
        order, shift, over_start, landings = t.order, t.shift, t.over_start, t.landings
        occupied = kernel.masks[1] | kernel.masks[2]
        found: list[int] = []
        append = found.append
        mine = kernel.masks[kernel.to_move]
        while mine:
            low = mine & -mine
            mine ^= low
            s = low.bit_length() - 1
            if not landings(s, occupied):
                continue
            lifted = over_start[s]
            seen = low
            todo = [(s, 1 + ((s + 1) << FIRST_FIELD), 1)]
            for p, action, depth in todo:
                new = landings(p, occupied) & ~(seen | lifted[p])
                if new:
                    seen |= new
                    terms = shift[depth]
                    for q, _ in order[p][new]:
                        longer = action + terms[q]
                        append(longer)
                        todo.append((q, longer, depth + 1))
        return found or [PASS_ACTION]

    def urgent_actions(self, kernel: Kernel) -> list[int]:
        """The first move of an endgame plan (endgame.py) when at most four own stones are outside the goal and
        a few own moves bring them in, else a door for stuck opponent stones in the goal, else the chains that take
        an own stone out of its home toward the goal (`home_exits`); empty otherwise (and under the `filled`
        goal)."""
        if kernel.result != ONGOING or not kernel.goal_all:  # type: ignore[attr-defined]
            return []
        t, actions, path_of = tables(self.board), self.search_actions(kernel), kernel.path_of  # type: ignore[attr-defined]
        found = plan_action(kernel, t, actions, path_of, self.plans)
        if found is None:
            found = assist_action(kernel, t, actions, path_of)
        if found is None:
            return self.home_exits(kernel, actions, path_of)
        return [found]

    def home_exits(self, kernel: Kernel, actions: list[int], path_of: object) -> list[int]:
        """The chains among `actions` that take a stone of the side to move out of its home to a node nearer its
        goal. While a side has stones at home and such chains, its search weighs only them: a stone left at home
        when its neighbours have gone has nothing to leap over, and once the opponent's stones fill the triangle
        around it, it can leap only backwards or not at all; there it also holds a hole of the opponent's goal, and
        neither side can finish (the no-progress draw)."""
        colour = kernel.to_move
        home = tables(self.board).homes[colour]
        at_home = kernel.masks[colour] & home  # type: ignore[attr-defined]
        if not at_home:
            return []
        cost = distances(self.board)[colour]  # type: ignore[index]
        exits = []
        for action in actions:
            path = path_of(action)  # type: ignore[operator]
            if (path is not None and len(path) > 1 and at_home >> path[0] & 1 and not home >> path[-1] & 1
                    and cost[path[-1]] < cost[path[0]]):
                exits.append(action)
        return exits

    def evaluate(self, kernel: Kernel) -> float:
        """Black's chance by the search's evaluation: the race (distances still to go, the last stone, stranded
        stones, stones at home) and how far each side's last stone is from its own nearest stone."""
        if type(kernel) is not LeapOverKernel:
            return kernel.evaluate()  # type: ignore[attr-defined, no-any-return]
        return black_value(self.board, kernel.cells, kernel.masks[1] | kernel.masks[2])

    def race_value(self, kernel: Kernel) -> float:
        """Black's chance by the race evaluation alone, without the search's pull toward a lone last stone."""
        if type(kernel) is not LeapOverKernel:
            return kernel.race_value()  # type: ignore[attr-defined, no-any-return]
        return black_value(self.board, kernel.cells, kernel.masks[1] | kernel.masks[2], together=False)

    def playout_action(self, kernel: Kernel, rng: random.Random) -> int | None:
        """A uniform legal action (one seed drawn), None once the game is over."""
        if kernel.result != ONGOING:
            return None
        seed = rng.getrandbits(64)
        if type(kernel) is not LeapOverKernel:
            return kernel.playout_action(seed)  # type: ignore[attr-defined, no-any-return]
        actions = kernel.legal_actions()
        seed = (seed * LCG_MUL + LCG_INC) & MASK64
        return actions[(seed >> 32) % len(actions)]

    def rollout(self, kernel: Kernel, rng: random.Random, plies: int, trace: list[int] | None = None) -> float:
        """Black's value after up to `plies` uniform playout chains (one seed drawn when any), then the evaluation;
        the kernel is left as found and each action played is appended to `trace` when one is given."""
        if kernel.result != ONGOING:
            return result_value(kernel.result)
        if plies <= 0:
            return self.evaluate(kernel)
        seed = rng.getrandbits(64)
        if type(kernel) is not LeapOverKernel:
            return kernel.rollout(seed, plies, trace)  # type: ignore[attr-defined, no-any-return]
        return self.uniform_rollout(kernel, seed, plies, trace)


@functools.lru_cache(maxsize=4)
def knowledge(board: Board) -> LeapOverKnowledge:
    """The knowledge of `board`, made once."""
    return LeapOverKnowledge(board)
