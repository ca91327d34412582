"""What a game tells the search, through one typed protocol: the actions worth searching, urgent actions, a win in
one, priors, and how to score a leaf (a playout, an evaluation, or both).

The base class knows nothing of any game: it searches every legal action and scores a leaf by a random playout on
the kernel, undone afterwards. A game subclasses it where its knowledge pays (`Game.knowledge`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ytourney.games.kernel import DRAW, ONGOING, PASS_ACTION, Kernel

BLACK = 1
LCG_MUL = 6364136223846793005
LCG_INC = 1442695040888963407
MASK64 = (1 << 64) - 1
"""The playouts' generator, the same in every game's Python and C code so that both play the same moves for a seed:
state = state * LCG_MUL + LCG_INC mod 2^64, seeded once a rollout from the search's random stream; a draw is the
state's top 32 bits, modulo the number of choices."""
OPENING_SHORTLIST = 24
"""Openings weighed two plies deep under the pie (`even_openings`): those nearest even one ply deep."""


@dataclass(frozen=True)
class SearchDefaults:
    """A game's defaults for the search options a bot spec leaves out."""

    exploration: float = 1.0
    """The UCT exploration constant."""
    playout_plies: int = 400
    """Plies a playout runs before the leaf is scored by `evaluate` (0: evaluate at once)."""
    rave: float = 0.0
    """RAVE's equivalence parameter (visits at which the AMAF and the UCT values weigh equally); 0 turns RAVE off."""
    prior_visits: float = 0.0
    """Virtual visits a prior counts for at a new child (0: priors unused)."""
    breadth: int = 0
    """Actions a node searches at most, the best by `one_ply_values` (0: every legal action)."""


def result_value(result: int) -> float:
    """Black's value of an ended game's result: 1 Black won, 0 White won, 0.5 a draw."""
    return 0.5 if result == DRAW else float(result == BLACK)


class Knowledge:
    """A game's search knowledge; this base is knowledge-free (random playouts over every legal action)."""

    defaults = SearchDefaults()
    avoid_pass = False
    """True in games with passes: a playout passes only when nothing else is legal (else random play ends at once)."""

    def for_search(self) -> Knowledge:
        """The knowledge one bot's search of one game uses: this shared one, or a copy of its own in a game whose
        knowledge keeps state between moves (so nothing a bot learned reaches another bot or its next game)."""
        return self

    def search_actions(self, kernel: Kernel) -> list[int]:
        """The actions a tree node expands: a subset of the legal actions that keeps every good one (with a
        `breadth`, the best that many by `one_ply_values`: a selective search, whose proofs hold within it)."""
        actions = kernel.legal_actions()
        breadth = self.defaults.breadth
        if breadth <= 0 or len(actions) <= breadth:
            return actions
        values = self.one_ply_values(kernel, actions)
        order = sorted(range(len(actions)), key=values.__getitem__, reverse=True)[:breadth]
        return [actions[i] for i in order]

    def one_ply_values(self, kernel: Kernel, actions: Sequence[int]) -> list[float]:
        """The mover's value of each action: 1 for a win, 0 for a loss or an action after which the opponent wins
        in one, else the evaluation of the position it leaves (the kernel is left as found)."""
        mover = kernel.to_move
        values = []
        for action in actions:
            kernel.apply(action)
            if kernel.result != ONGOING:
                black = result_value(kernel.result)
            elif self.winning_action(kernel) is not None:
                black = float(mover != BLACK)
            else:
                black = self.evaluate(kernel)
            kernel.undo()
            values.append(black if mover == BLACK else 1.0 - black)
        return values

    def reply_value(self, kernel: Kernel) -> float:
        """The side to move's best value one ply deep (`one_ply_values` of its search actions; 0.5 with none)."""
        values = self.one_ply_values(kernel, self.search_actions(kernel))
        return max(values) if values else 0.5

    def opening_values(self, kernel: Kernel, actions: Sequence[int]) -> list[float]:
        """The mover's value of each action as an opening the opponent may take with the pie: one minus the
        opponent's best reply one ply deep (`reply_value`); the kernel is left as found."""
        values = []
        for action in actions:
            kernel.apply(action)
            values.append(result_value(kernel.result) if kernel.result != ONGOING else 1.0 - self.reply_value(kernel))
            kernel.undo()
        return values

    def even_openings(self, kernel: Kernel, count: int) -> list[int]:
        """The `count` legal actions whose `opening_values` lie nearest even, nearest first: the openings a pie
        answer cannot punish (of the rest, the `count` nearest by `one_ply_values` are weighed two plies deep)."""
        actions = kernel.legal_actions()
        near = sorted(zip(self.one_ply_values(kernel, actions), actions), key=lambda pair: abs(pair[0] - 0.5))
        shortlist = [action for _, action in near[:max(count, OPENING_SHORTLIST)]]
        values = self.opening_values(kernel, shortlist)
        order = sorted(range(len(shortlist)), key=lambda i: abs(values[i] - 0.5))
        return [shortlist[i] for i in order[:count]]

    def urgent_actions(self, kernel: Kernel) -> list[int]:
        """The actions the side to move must choose among now (a win in one, the one block); empty when none."""
        return []

    def winning_action(self, kernel: Kernel) -> int | None:
        """An action that wins at once for the side to move, or None (also when the game cannot tell cheaply)."""
        return None

    def forced_winner(self, kernel: Kernel) -> int:
        """The colour (1 Black, 2 White) that wins by force from here as a few cheap facts show, say two wins in one
        that one reply cannot both stop; 0 when they show nothing (this base: always). A search proves it at once."""
        return 0

    def priors(self, kernel: Kernel, actions: Sequence[int]) -> Sequence[float] | None:
        """The mover's expected value in [0, 1] of each action, for a node's first visits; None for no prior."""
        return None

    def evaluate(self, kernel: Kernel) -> float:
        """Black's value of an unfinished position in [0, 1] (this base: 0.5, a coin)."""
        return 0.5

    def playout_action(self, kernel: Kernel, rng: random.Random) -> int | None:
        """One playout move for the side to move (None when it has none, which the kernel has already judged)."""
        actions = kernel.legal_actions()
        if not actions:
            return None
        if self.avoid_pass and len(actions) > 1:
            action = rng.choice(actions)
            while action == PASS_ACTION:
                action = rng.choice(actions)
            return action
        return rng.choice(actions)

    def uniform_rollout(self, kernel: Kernel, seed: int, plies: int, trace: list[int] | None = None) -> float:
        """Black's value after up to `plies` uniformly random legal actions drawn from the LCG seeded with `seed`,
        then `evaluate`; the kernel is left as found (the pure-Python twin of a C core's uniform playout)."""
        draw = [seed]

        def uniform(kernel: Kernel) -> int | None:
            actions = kernel.legal_actions()
            if not actions:
                return None
            draw[0] = (draw[0] * LCG_MUL + LCG_INC) & MASK64
            return actions[(draw[0] >> 32) % len(actions)]

        return self.play_out(kernel, uniform, plies, trace)

    def rollout(self, kernel: Kernel, rng: random.Random, plies: int, trace: list[int] | None = None) -> float:
        """Black's value of `kernel` from up to `plies` playout moves, then `evaluate`; the kernel is left as found.
        When `trace` is given, the playout appends each action it plays to it (RAVE learns from them)."""
        return self.play_out(kernel, lambda position: self.playout_action(position, rng), plies, trace)

    def play_out(self, kernel: Kernel, choose: Callable[[Kernel], int | None], plies: int,
                 trace: list[int] | None) -> float:
        """Black's value after up to `plies` actions `choose` picks (None: the side to move has none), then
        `evaluate`; every action is undone afterwards and, with a `trace`, recorded in it."""
        played = 0
        while kernel.result == ONGOING and played < plies:
            action = choose(kernel)
            if action is None:
                break
            kernel.apply(action)
            if trace is not None:
                trace.append(action)
            played += 1
        value = result_value(kernel.result) if kernel.result != ONGOING else self.evaluate(kernel)
        for _ in range(played):
            kernel.undo()
        return value
