"""The `mcts-pro` bot: the top rung of the ladder, a morat-style MCTS whose search runs in C where it is built.

The search (ytourney.games.y.ysearch) is UCT with RAVE and knowledge priors (near the last move, near stones,
bridge answers; edge connections optional), one-move wins, forced blocks and virtual connections (bridges and edge
templates with disjoint carriers joining the three sides; at the root and its children also one stone away) solved
at expansion, proven results backed up (a root proven lost is searched again without the virtual connections, for
the move that resists best), playouts that answer bridge intrusions and stop at the first Y, tree reuse between
moves and a node budget. Options add ziggurats to the virtual connections (`zig`) and narrow the root and its
children to the must-play region against the opponent's connections one stone away (`mustplay`). It uses the
whole move time (a move's time cannot be banked, and searching on grows the subtree kept for the next move); the
option `early` stops once the most visited move cannot be overtaken, to save CPU. Without the C core it runs the
same search in Python, playing the same moves for the same seed and playout budget, only slower.
"""

from __future__ import annotations

import collections
import functools
import os
import random
import time
from typing import ClassVar

from ytourney.errors import YTourneyError
from ytourney.boards.board import Board
from ytourney.games.y.notation import SWAP
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import GameState
from ytourney.games.y.ysearch import PySearcher, Searcher
from ytourney.games.bot import BaseBot, Evaluation, Limit, search_evaluation
from ytourney.games.y.bots.heuristic import fair_openings
from ytourney.games.y.bots.mcts import SearchResult, bridge_saves, swap_decision
from ytourney.games.bot import BotOption

DEFAULT_PLAYOUTS = 20_000
DEFAULT_NODES = 2_000_000  # about 64 MB of tree in the C core (32 bytes a node)
# Share of the move's time the search may use, and a fixed reserve for the work around it.
TIME_SHARE = 0.96
TIME_RESERVE = 0.004


class SearchCoreError(YTourneyError):
    """The search core was asked for something it cannot do."""


@functools.lru_cache(maxsize=16)
def board_tables(board: Board) -> tuple[list[list[int]], bytes]:
    """Per board: each cell's bridge answers as flat (a, b, y) triples, and cell distances clipped at 4."""
    n = board.num_cells
    bridges = [[v for triple in bridge_saves(board)[x] for v in triple] for x in range(n)]
    dist = bytearray([4] * (n * n))
    for start in range(n):
        seen = {start: 0}
        queue = collections.deque([start])
        while queue:
            cell = queue.popleft()
            if seen[cell] >= 3:
                continue
            for nb in board.neighbors[cell]:
                if nb not in seen:
                    seen[nb] = seen[cell] + 1
                    queue.append(nb)
        for cell, d in seen.items():
            dist[start * n + cell] = d
    return bridges, bytes(dist)


def template_holds(board: Board, stone: int, side: int, carrier: tuple[int, ...]) -> bool:
    """True when `stone` reaches `side` through `carrier` whatever the intruder, who moves first, plays there."""
    index = {c: i for i, c in enumerate(carrier)}
    full = (1 << len(carrier)) - 1

    def joined(mine: int) -> bool:
        seen, stack = {stone}, [stone]
        while stack:
            c = stack.pop()
            if board.sides[c] & side:
                return True
            for nb in board.neighbors[c]:
                if nb in index and nb not in seen and mine >> index[nb] & 1:
                    seen.add(nb)
                    stack.append(nb)
        return False

    @functools.lru_cache(maxsize=None)
    def holds(mine: int, theirs: int) -> bool:  # the intruder to move
        if joined(mine):
            return True
        free = full & ~mine & ~theirs
        for i in range(len(carrier)):
            if free >> i & 1:
                rest = free & ~(1 << i)
                if not any(holds(mine | 1 << j, theirs | 1 << i) for j in range(len(carrier)) if rest >> j & 1):
                    return False
        return free != 0

    return holds(0, 0)


@functools.lru_cache(maxsize=16)
def ziggurats(board: Board) -> tuple[tuple[int, ...], ...]:
    """The board's ziggurats: a third-row stone, its side and the 8 cells that tie it there, each checked by play."""
    found = set()
    for side in (1, 2, 4):
        dist = board.side_distances(side)
        for a in range(board.num_cells):
            if dist[a] != 2 or board.sides[a]:
                continue
            for along in board.neighbors[a]:
                if dist[along] != 2:
                    continue
                second = {x for x in (*board.neighbors[a], *board.neighbors[along]) if dist[x] == 1}
                first = {x for r in second for x in board.neighbors[r] if dist[x] == 0}
                carrier = tuple(sorted(second | first | {along}))
                if len(second) == 3 and len(first) == 4 and template_holds(board, a, side, carrier):
                    found.add((a, side, *carrier))
    return tuple(sorted(found))


class MctsProBot(BaseBot):
    """MCTS with RAVE, knowledge, bridge patterns, tactics, proofs and tree reuse over a C (or Python) core."""

    name = "mcts-pro"
    OPTIONS: ClassVar[dict[str, BotOption]] = {
        "playouts": BotOption(int, 0, f"simulations per move (0: use the time limit, else {DEFAULT_PLAYOUTS})",
                              0, 100_000_000),
        "seconds": BotOption(float, 0.0, "seconds per move when no playout budget is set, at most the game's "
                             "limit (0: that limit)", 0, 86_400),
        "rollouts": BotOption(int, 8, "random playouts per leaf", 1, 64),
        "rave": BotOption(float, 500.0, "RAVE factor: visits at which tree and AMAF values weigh equally (0: off)",
                          0, 1e9),
        "explore": BotOption(float, 0.0, "UCB exploration constant added to the RAVE value (0: none)", 0, 10),
        "fpu": BotOption(float, 1.0, "value of a move with no visits yet (first-play urgency)", 0, 10),
        "expand": BotOption(int, 1, "visits a leaf needs before it is expanded", 0, 1_000_000),
        "local": BotOption(int, 5, "prior for moves near the last move (times 4 - distance)", 0, 1000),
        "near": BotOption(int, 5, "prior for moves next to a stone", 0, 1000),
        "connect": BotOption(int, 0, "prior per side the move's group would touch (0: off; 20, morat's, lost "
                             "games against mcts by drawing moves to the edges)", 0, 1000),
        "bridge": BotOption(int, 100, "prior for answering an intrusion into a bridge", 0, 10_000),
        "pattern": BotOption(bool, True, "playouts answer bridge intrusions"),
        "lgr": BotOption(bool, False, "playouts play the last good reply to the previous move (LGRF-1)"),
        "vc": BotOption(bool, True, "solve positions where a side's bridges and edge templates join the three sides"),
        "vc1": BotOption(bool, True, "at the root and its children, also solve a virtual connection one stone away"),
        "mustplay": BotOption(bool, False, "at the root and its children, only moves that stop every virtual "
                              "connection the opponent makes in one stone (the others lose)"),
        "zig": BotOption(bool, False, "virtual connections also tie third-row stones to a side through ziggurats"),
        "nodes": BotOption(int, DEFAULT_NODES, "tree node budget (memory: 32 bytes a node in C)", 1000, 200_000_000),
        "early": BotOption(bool, False, "stop a search once the most visited move cannot be overtaken (saves CPU; "
                           "off by default: a move's unused time is lost, while searching on grows the kept subtree)"),
        "reuse": BotOption(bool, True, "keep the subtree of the actual moves between decisions"),
        "swap_margin": BotOption(float, 0.0, "swap when the first stone is worth more than 0.5 + this to Black",
                                 -0.5, 0.5, pie_only=True),
        "python": BotOption(bool, False, "use the pure-Python search core even where the C core is built"),
    }

    def __init__(
        self,
        seed: int | None = None,
        playouts: int = 0,
        seconds: float = 0.0,
        rollouts: int = 8,
        rave: float = 500.0,
        fpu: float = 1.0,
        explore: float = 0.0,
        expand: int = 1,
        local: int = 5,
        near: int = 5,
        connect: int = 0,
        bridge: int = 100,
        pattern: bool = True,
        vc: bool = True,
        vc1: bool = True,
        zig: bool = False,
        mustplay: bool = False,
        lgr: bool = False,
        nodes: int = DEFAULT_NODES,
        early: bool = False,
        reuse: bool = True,
        swap_margin: float = 0.0,
        python: bool = False,
    ) -> None:
        super().__init__(seed)
        for option, value in (("playouts", playouts), ("seconds", seconds), ("rave", rave), ("fpu", fpu),
                              ("expand", expand), ("local", local), ("near", near), ("connect", connect),
                              ("bridge", bridge)):
            if value < 0:
                raise ValueError(f"option {option}={value!r} must be >= 0")
        if rollouts < 1 or nodes < 1000:
            raise ValueError(f"options rollouts={rollouts!r} (>= 1) and nodes={nodes!r} (>= 1000) are too small")
        self.playouts = playouts
        self.seconds = seconds
        self.settings = dict(rollouts=rollouts, rave=float(rave), fpu=float(fpu), expand_at=expand, local=local,
                             near=near, connect=connect, bridge=bridge, pattern=pattern, vc=vc, vc1=vc1, lgr=lgr,
                             mustplay=mustplay,
                             explore=float(explore))
        self.zig = zig
        self.nodes = nodes
        self.early = early
        self.reuse = reuse
        self.swap_margin = swap_margin
        self.core_class = PySearcher if python else Searcher
        self._seed = seed if seed is not None else int.from_bytes(os.urandom(8), "little")
        self._openings_rng = random.Random(self._seed)
        self._core: object | None = None
        self._core_board: Board | None = None
        self._root_path: tuple[int, ...] | None = None
        self.last_search: SearchResult | None = None
        self._evaluation: Evaluation | None = None

    def new_game(self, board: Board, rules: Rules, color: Color) -> None:
        """Forget the previous game's tree."""
        super().new_game(board, rules, color)
        self._root_path = None

    def move(self, state: GameState, limit: Limit) -> int:
        """The search's choice from `state`; under the pie rule, a fair first stone."""
        if state.pie_active and state.num_stones == 0:
            openings = fair_openings(state.board, state.rules.misere, self.swap_margin)
            move = int(openings[self._openings_rng.randrange(len(openings))])
            self.last_search = SearchResult(move, 0.5, 0, 0.0)
            self._evaluation = None
            return move
        result = self.search(state, limit)
        self._evaluation = search_evaluation(result.value, result.winner == int(state.to_move) if result.winner
                                             else None)
        return result.move

    def evaluation(self) -> Evaluation | None:
        """The root value of the search behind the last move and its proof (None for an opening from the table)."""
        return self._evaluation

    def swap(self, state: GameState, limit: Limit) -> bool:
        """Swap when the search finds the first stone decisive for Black, else when the first-stone table says so."""
        return swap_decision(state, 1.0 - self.search(state, limit).value, self.swap_margin)

    # --- search --------------------------------------------------------------------------------------------

    def search(self, state: GameState, limit: Limit) -> SearchResult:
        """Run one search from `state` within `limit` and return its choice."""
        started = time.perf_counter()
        if state.is_over:
            raise SearchCoreError("no move to search for: the game is over")
        budget, deadline = self._budget(limit, started)
        core = self._core_for(state)
        path = tuple(m for m in state.moves if m != SWAP)
        kept = self._root_path
        if self.reuse and kept is not None and path[: len(kept)] == kept:
            core.reroot(list(path[len(kept) :]))
        else:
            core.clear()
        self._root_path = path
        core.set_position(state.cells, int(state.to_move), state.stones_left_this_turn, state.rules.misere,
                          path[-1] if path else -1)
        seconds = 0.0
        if deadline is not None:
            seconds = max(1e-4, deadline - time.perf_counter())
        move, value, sims, iterations, nodes = core.search(budget, seconds, self.early)
        if not state.is_legal(move):  # never expected: the core only proposes empty cells
            raise SearchCoreError(f"search core proposed illegal move {move!r}")
        result = SearchResult(move, value, sims, time.perf_counter() - started, nodes, iterations,
                              int(core.root_info()[1]))
        self.last_search = result
        return result

    def _core_for(self, state: GameState) -> object:
        board = state.board
        if self._core is None or self._core_board != board:
            bridges, dist = board_tables(board)
            self._core = self.core_class(board.neighbors, board.sides, bridges, dist, max_nodes=max(
                self.nodes, 1 + 2 * board.num_cells), ziggurats=ziggurats(board) if self.zig else None,
                **self.settings)
            self._core.seed(self._seed)
            self._core_board = board
            self._root_path = None
        return self._core

    def _budget(self, limit: Limit, started: float) -> tuple[int, float | None]:
        """Simulations allowed (0: none, the clock decides) and a wall-clock deadline (None: none)."""
        playouts = limit.playouts or self.playouts
        safety = None
        if limit.remaining is not None:
            safety = started + max(0.0, limit.remaining) * 0.5
        seconds = limit.seconds
        if self.seconds:
            seconds = self.seconds if seconds is None else min(seconds, self.seconds)
        if playouts:
            if seconds is not None:
                hard = started + seconds * TIME_SHARE - TIME_RESERVE
                safety = hard if safety is None else min(safety, hard)
            return playouts, safety
        if seconds is None:
            return DEFAULT_PLAYOUTS, safety
        deadline = started + max(0.001, seconds * TIME_SHARE - TIME_RESERVE)
        return 0, deadline if safety is None else min(deadline, safety)
