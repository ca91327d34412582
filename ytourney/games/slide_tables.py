"""The slide games' move tables on a board, built once: a slide goes from a stone any distance along a line through
empty nodes, so a source's slides follow from the stones on its rays. The rays of a source are grouped so that each
group is looked up by the stones on its own nodes (a memo filled on first sight); lines from one source that meet
again far out are split into their own parts and a tail past the meeting, so each target is listed once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ytourney.boards.board import Board
from ytourney.games.bitboard import full_mask, mask_of, neighbour_masks
from ytourney.games.cores import load_core
from ytourney.games.stones import slide_table

CORE_METHODS = ("one_ply_values", "search_actions")
"""Kernel methods of the latest core source: a core built before them is not loaded (Python runs instead)."""
core = load_core("ytourney.games._slidecore", CORE_METHODS)
"""The optional C core listing a side's slides (None when not built, built from an older source, or
YTOURNEY_PURE_PYTHON=1)."""

MEMO_CAP = 1 << 10
"""Occupancy patterns a ray group remembers before it forgets them all (bounds memory on long runs)."""
MERGE_NODES = 10
"""Ray groups of a source are merged while their nodes number at most this (2^10 patterns: they all fit)."""
FLAG_BIT = 1024
"""The first bit of a tail memo's open-walk flags, above every node's bit."""


def slide_action(source: int, target: int) -> int:
    """The kernel action of the slide source-target (`encode_path` of the two nodes, written out)."""
    return ((target + 1) << 19) | ((source + 1) << 10) | 1


def slide_target(action: int) -> int:
    """The node a slide action ends on."""
    return (action >> 19) - 1


class GroupMemo(dict[int, tuple[int, ...]]):
    """One ray group of a source: the occupancy of its nodes -> the slides it allows, each target once, worked out
    on first sight (`dict.__missing__`, so a lookup is one C call) and forgotten all at once past `MEMO_CAP`."""

    __slots__ = ("actions", "walks")

    def __init__(self, walks: tuple[tuple[int, tuple[int, ...]], ...], actions: tuple[int, ...]) -> None:
        super().__init__()
        self.walks = walks
        """Each ray as (mask of the prefix it shares with an earlier ray, the nodes it walks after it)."""
        self.actions = actions
        """The source's action per target node."""

    def __missing__(self, key: int) -> tuple[int, ...]:
        found: dict[int, None] = {}
        for prefix, walk in self.walks:
            if prefix & key:
                continue
            for node in walk:
                if key >> node & 1:
                    break
                found[self.actions[node]] = None
        if len(self) >= MEMO_CAP:
            self.clear()
        got = self[key] = tuple(found)
        return got


class TailMemo(dict[int, tuple[int, ...]]):
    """The far parts of lines from one source that meet again: the key holds their nodes' stones and a flag per
    walk open up to its far part; each target once."""

    __slots__ = ("actions", "walks")

    def __init__(self, walks: tuple[tuple[int, tuple[int, ...]], ...], actions: tuple[int, ...]) -> None:
        super().__init__()
        self.walks = walks
        """Each walk's far part as (its flag, the nodes it walks)."""
        self.actions = actions

    def __missing__(self, key: int) -> tuple[int, ...]:
        found: dict[int, None] = {}
        for flag, walk in self.walks:
            if not key & flag:
                continue
            for node in walk:
                if key >> node & 1:
                    break
                found[self.actions[node]] = None
        if len(self) >= MEMO_CAP:
            self.clear()
        got = self[key] = tuple(found)
        return got


@dataclass(frozen=True, eq=False)
class SlideTables:
    """A board's slide tables, built once: ray groups per source, line pairs, neighbour masks."""

    neighbours: tuple[int, ...]
    full: int
    groups: tuple[tuple[tuple[int, GroupMemo], ...], ...]
    """Per source, its ray groups as (mask of their nodes, memo): no two groups of a source reach a common node."""
    tails: tuple[tuple[tuple[tuple[tuple[int, int], ...], int, TailMemo], ...], ...]
    """Per source, where lines from it meet again far out: ((flag, mask of the nodes before the meeting) per walk,
    mask of the nodes from the meeting on, memo keyed by their stones and the flags of the walks open that far)."""
    pairs: dict[int, tuple[int, int, tuple[int, ...]]]
    """Every slide action along a line (ignoring stones) -> (source, target, the masks of the nodes between them
    on each line that joins them)."""
    lines: tuple[frozenset[int], ...]
    """Per source, every node on a line from it."""
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    """`Board.rays`: per node, every line leaving it."""


def _overlapping(walks: list[tuple[int, tuple[int, ...]]]) -> list[list[int]]:
    """The walks of a source in groups whose walks meet (a target must be listed once), each group in ray order."""
    parent = list(range(len(walks)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, (_, walk) in enumerate(walks):
        for j in range(i):
            if set(walk) & set(walks[j][1]):
                parent[root(i)] = root(j)
    members: dict[int, list[int]] = {}
    for i in range(len(walks)):
        members.setdefault(root(i), []).append(i)
    return list(members.values())


def _key_mask(group: list[tuple[int, tuple[int, ...]]]) -> int:
    """The nodes whose stones decide a group's slides: its prefixes and its walks."""
    return mask_of(node for _, walk in group for node in walk) | functools.reduce(int.__or__, (p for p, _ in group), 0)


@functools.lru_cache(maxsize=8)
def slide_tables(board: Board) -> SlideTables:
    """The slide tables of `board`."""
    size = board.num_cells
    actions = tuple(tuple(slide_action(s, t) for t in range(size)) for s in range(size))
    groups = []
    pairs: dict[int, tuple[int, int, tuple[int, ...]]] = {}
    lines = []
    tails = []
    for source, rays in enumerate(slide_table(board)):
        walks = [(mask_of(ray[:shared]), ray[shared:]) for ray, shared in rays]
        plain: list[list[tuple[int, tuple[int, ...]]]] = []
        crossings = []
        for component in _overlapping(walks):
            nodes = {node for i in component for node in rays[i][0]}
            if len(component) == 1 or len(nodes) <= MERGE_NODES:
                plain.append([walks[i] for i in component])
                continue
            # lines that meet again far out: each walk's own part alone, the parts from the first shared node
            # on in a tail keyed by which walks are open that far
            seen = [node for i in component for node in walks[i][1]]
            shared = {node for node in seen if seen.count(node) > 1}
            tail = []
            for prefix, walk in (walks[i] for i in component):
                cut = next((k for k, node in enumerate(walk) if node in shared), len(walk))
                if cut:
                    plain.append([(prefix, walk[:cut])])
                tail.append((prefix | mask_of(walk[:cut]), walk[cut:]))
            flags = tuple(1 << (FLAG_BIT + k) for k in range(len(tail)))
            crossings.append((tuple(zip(flags, (mask for mask, _ in tail), strict=True)),
                              mask_of(node for _, walk in tail for node in walk),
                              TailMemo(tuple(zip(flags, (walk for _, walk in tail), strict=True)), actions[source])))
        merged: list[list[tuple[int, tuple[int, ...]]]] = []
        for group in sorted(plain, key=lambda g: _key_mask(g).bit_count()):
            # small groups share one memo while its patterns stay few: one lookup instead of several
            for other in merged:
                if (_key_mask(other) | _key_mask(group)).bit_count() <= MERGE_NODES:
                    other += group
                    break
            else:
                merged.append(list(group))
        groups.append(tuple((_key_mask(group), GroupMemo(tuple(group), actions[source])) for group in merged))
        tails.append(tuple(crossings))
        between: dict[int, set[int]] = {}
        for ray, _ in rays:
            for i, target in enumerate(ray):
                between.setdefault(target, set()).add(mask_of(ray[:i]))
        lines.append(frozenset(between))
        for target, paths in between.items():
            pairs[actions[source][target]] = (source, target, tuple(sorted(paths)))
    return SlideTables(neighbour_masks(board), full_mask(board), tuple(groups), tuple(tails), pairs, tuple(lines),
                       board.rays)


def core_walks(board: Board) -> tuple[list[list[tuple[int, tuple[int, ...]]]], list[list[int]]]:
    """Every source's walks in the order the Python kernel looks them up (its ray groups, then its tails), as
    (prefix mask, nodes), and every source's action per target: what the C core lists slides from."""
    tables = slide_tables(board)
    size = board.num_cells
    walks = []
    for source in range(size):
        row = [walk for _, memo in tables.groups[source] for walk in memo.walks]
        row += [(near, walk) for opens, _, tail in tables.tails[source]
                for (_, near), (_, walk) in zip(opens, tail.walks, strict=True)]
        walks.append(row)
    return walks, [[slide_action(s, t) for t in range(size)] for s in range(size)]


@functools.lru_cache(maxsize=8)
def core_tables(board: Board) -> object | None:
    """The C core's listing tables of `board` (`core_walks`), so both list the same slides in the same order; None
    without the core."""
    if core is None:
        return None
    return core.tables(board.num_cells, *core_walks(board))
