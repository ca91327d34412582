"""Aliens and Amazons' knowledge for the search: the Amazons' safe moves, the policy playout and the evaluation
(policy.py), and wins in one (a capture chain below the threshold, the stone that closes the last hole)."""

from __future__ import annotations

import random

from ytourney.games.aliens_amazons import policy
from ytourney.games.aliens_amazons import tables as t
from ytourney.games.aliens_amazons.core import KERNELS
from ytourney.games.aliens_amazons.kernel import AliensAmazonsKernel
from ytourney.games.kernel import ONGOING, Kernel, encode_path
from ytourney.games.knowledge import Knowledge, SearchDefaults

WIN_SCAN = 4
"""The Aliens' win in one is looked for only when at most this many captures would win (else: None, cheaply)."""


class AliensAmazonsKnowledge(Knowledge):
    """Safe Amazon moves to search, `policy.GREED` policy playouts of 8 plies, then `policy.evaluate`."""

    defaults = SearchDefaults(exploration=0.7, playout_plies=8)

    def search_actions(self, kernel: Kernel) -> list[int]:
        """The Aliens' every move; the Amazons' moves that leave no Alien a capture at once and the fewest loose
        Amazons (all of them when every move opens a capture)."""
        if kernel.to_move == t.ALIEN:
            return kernel.legal_actions()
        if type(kernel) is not AliensAmazonsKernel:
            return kernel.safe_amazon_actions()  # type: ignore[attr-defined]  # the C core's, alike
        actions = kernel.legal_actions()
        return policy.safe_amazon_actions(kernel, actions) if actions else actions

    def winning_action(self, kernel: Kernel) -> int | None:
        """A chain that leaves fewer Amazons than the threshold, or the Amazon that fills the Aliens' last hole."""
        if not isinstance(kernel, KERNELS) or kernel.result != ONGOING or kernel.aliens_placed < t.ALIENS:
            return None
        if kernel.to_move == t.ALIEN:
            wanted = kernel.amazons_total - kernel.captured - kernel.threshold + 1
            if wanted > WIN_SCAN:
                return None
            if wanted <= 0:  # a studied position already below the threshold: any move ends it
                return next(iter(kernel.alien_actions()), None)
            best, chosen = kernel.capture_moves()
            return chosen[0] if best >= wanted else None
        union = policy.need_union(kernel)
        hole = union & ~(kernel.amazons | kernel.aliens)
        if hole.bit_count() != 1:
            return None
        node = hole.bit_length() - 1
        if kernel.amazons_placed < kernel.amazons_total:
            return node
        cells = kernel.cells
        for source in kernel.tables.neighbors[node]:
            if cells[source] == t.AMAZON and not union >> source & 1:
                return encode_path((source, node))
        return None

    def evaluate(self, kernel: Kernel) -> float:
        """The Amazons' (Black's) value: one minus the Aliens' by `policy.evaluate`."""
        return 1.0 - policy.evaluate(kernel)  # type: ignore[arg-type]

    def playout_action(self, kernel: Kernel, rng: random.Random) -> int | None:
        """The policy's move: greedy captures for the Aliens, safe blocking stones for the Amazons."""
        actions = kernel.legal_actions()
        return policy.policy(kernel, actions, rng, policy.GREED) if actions else None  # type: ignore[arg-type]

    def rollout(self, kernel: Kernel, rng: random.Random, plies: int, trace: list[int] | None = None) -> float:
        """The Amazons' value after up to `plies` plies of policy play drawing from `policy.SplitMix64` seeded once
        from `rng`, by the evaluation: in C on the core's kernel, the same moves and value in Python; the kernel as
        found (the actions played appended to `trace` when given)."""
        seed = rng.getrandbits(64)
        if type(kernel) is AliensAmazonsKernel:
            return 1.0 - policy.rollout(kernel, policy.SplitMix64(seed), plies, trace)
        return kernel.rollout(seed, plies, trace)  # type: ignore[attr-defined]


KNOWLEDGE = AliensAmazonsKnowledge()
"""The one instance every position shares: the knowledge keeps no state of its own."""
