"""Singularity's kernel: apply then undo restores everything, it agrees with the front on every move and ending, its
legality test takes any int, its endings (singularity, move limit, no moves), and the search knowledge on it."""

from __future__ import annotations

import math
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ytourney.boards.regions import region
from ytourney.games.api import Color, Termination
from ytourney.games.kernel import DRAW, NODE_LIMIT, ONGOING, PASS_ACTION, encode_path
from ytourney.games.registry import get_game
from ytourney.games.singularity.evaluation import TEMPERATURE, distances, node_costs
from ytourney.games.singularity.kernel import SINGULARITY, SingularityKernel, start_nodes, tables

GAME = get_game("singularity")
BOARD = GAME.parse_board("kadon")
KNOWLEDGE = GAME.knowledge(BOARD, GAME.parse_rules(None))
QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 10_000)
NEAR = sorted(set(region(BOARD, "central-triangle")) | set(region(BOARD, "ring")))
FUSIONS = ("both", "landing", "resting")


def n(name: str) -> int:
    node = BOARD.index_of(name)
    assert node is not None, name
    return node


def nodes(names: str) -> list[int]:
    return [n(x) for x in names.split()]


def kernel(black: str, white: str, to_move: int = 1, fusion: str = "both", max_plies: int = 3000) -> SingularityKernel:
    return SingularityKernel(BOARD, fusion, max_plies, nodes(black), nodes(white), to_move)


def snapshot(k: SingularityKernel) -> tuple[object, ...]:
    return (k.key(), k.cells.copy(), k.masks.copy(), k.stones.copy(), k.to_move, k.plies, k.result, k.termination,
            sorted(k.legal_actions()))


def random_kernel(seed: int, plies: int, fusion: str = "both") -> tuple[SingularityKernel, random.Random]:
    """A kernel after up to `plies` random actions from the start (fewer when the game ends first)."""
    rng = random.Random(seed)
    black, white = start_nodes(BOARD, "black")
    k = SingularityKernel(BOARD, fusion, 3000, black, white)
    for _ in range(plies):
        if k.result != ONGOING:
            break
        k.apply(rng.choice(k.legal_actions()))
    return k, rng


def crowded(seed: int) -> SingularityKernel:
    """A hand-made position crowded round the central triangle (two central stones a side may happen)."""
    rng = random.Random(seed)
    stones = list(dict.fromkeys(rng.sample(range(BOARD.num_cells), 4) + rng.sample(NEAR, rng.randrange(3, 14))))
    cut = rng.randrange(1, len(stones))
    return SingularityKernel(BOARD, FUSIONS[seed % 3], 3000, stones[:cut], stones[cut:], rng.choice((1, 2)))


@QUICK
@given(SEEDS, st.integers(0, 400), st.integers(1, 40))
def test_apply_then_undo_restores_the_position_its_key_and_its_legal_actions(seed: int, start: int,
                                                                             depth: int) -> None:
    k, rng = random_kernel(seed, start, FUSIONS[seed % 3])
    before = snapshot(k)
    played = 0
    while k.result == ONGOING and played < depth:
        if played == 1 and seed % 2:
            k.count_swap()
        else:
            k.apply(rng.choice(k.legal_actions()))
        played += 1
    for _ in range(played):
        k.undo()
    assert snapshot(k) == before


@QUICK
@given(SEEDS)
def test_every_well_formed_slide_is_legal_exactly_when_listed_and_has_move_agrees(seed: int) -> None:
    k = crowded(seed)
    legal = k.legal_actions()
    assert len(set(legal)) == len(legal)
    assert {a for a in k.t.decode if k.is_legal(a)} == set(legal)
    assert k.has_move(k.to_move) == bool(legal)
    assert k.has_move(3 - k.to_move) == bool(k._slides(3 - k.to_move, False))
    for action in legal:
        before = snapshot(k)
        k.apply(action)
        assert sum(k.cells[c] == 3 - k.to_move for c in k.t.central_nodes) <= 1
        k.undo()
        assert snapshot(k) == before


@FEW
@given(SEEDS)
def test_the_kernel_and_the_front_agree_on_every_move_and_outcome(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_state(BOARD, GAME.parse_rules({"max_plies": 250, "pie": True, "fusion": FUSIONS[seed % 3]}))
    k = state.search_kernel()
    while not state.is_over:
        moves = [m for m in state.legal_moves() if not m.is_swap]
        assert sorted(map(state.action_of, moves)) == sorted(k.legal_actions())
        move = rng.choice(state.legal_moves())
        state.play(move)
        k.count_swap() if move.is_swap else k.apply(state.action_of(move))
        assert k.cells == state.cells and k.key() == state.kernel.key()
    outcome = state.outcome
    assert outcome is not None and k.termination is outcome.termination
    assert k.result == (DRAW if outcome.winner is None else int(outcome.winner))


def test_is_legal_takes_any_int_and_refuses_the_malformed() -> None:
    k, _ = random_kernel(1, 30)
    s = next(c for c in range(BOARD.num_cells) if k.cells[c] == k.to_move)
    junk = [-1, -(2**40), 2**80, 0, 92, 93, NODE_LIMIT - 1, PASS_ACTION, NODE_LIMIT + 1, True,
            encode_path((s, s)), encode_path((s, 92, 91)), encode_path((s,), 5), encode_path((n("F8"), n("F6")), 0),
            encode_path((n("F8"), n("F6")), 600)]
    for action in junk:
        assert k.is_legal(action) is False
    assert all(k.is_legal(a) for a in k.legal_actions())


def test_the_last_stone_on_a_central_node_wins_and_undo_takes_it_back() -> None:
    k = kernel("F8 G6", "M5 A1")
    before = snapshot(k)
    k.apply(encode_path((n("F8"), n("F7"))))
    assert k.result == Color.BLACK and k.termination is SINGULARITY and k.legal_actions() == []
    assert k.cells[n("G6")] == 0 and k.stones == [0, 1, 2]
    k.undo()
    assert snapshot(k) == before
    lone = kernel("F8 H6", "M5 A1")
    lone.apply(encode_path((n("F8"), n("G7"))))
    assert lone.result == ONGOING and lone.stones[1] == 1  # one stone, but off the central nodes
    lone.apply(encode_path((n("M5"), n("L5"))))
    lone.apply(encode_path((n("G7"), n("F7"))))
    assert lone.result == Color.BLACK and lone.termination is SINGULARITY


def test_a_named_capture_removes_that_stone_only() -> None:
    k = kernel("F8 G5 E6", "M5")
    plain = encode_path((n("F8"), n("F6")))
    assert not k.is_legal(plain)
    named = encode_path((n("F8"), n("F6")), n("G5"))
    assert k.is_legal(named) and k.capture_of(named) == n("G5")
    k.apply(named)
    assert k.cells[n("E6")] == 1 and k.cells[n("G5")] == 0 and k.stones[1] == 2


def test_the_move_limit_draws_and_no_moves_loses() -> None:
    k, _ = random_kernel(4, 0)
    k.max_plies = 2
    k.apply(k.legal_actions()[0])
    assert k.result == ONGOING
    k.apply(k.legal_actions()[0])
    assert k.result == DRAW and k.termination is Termination.MOVE_LIMIT and k.legal_actions() == []
    walled = kernel("A1", "A2 B1 B2 M5", to_move=2)
    walled.apply(encode_path((n("M5"), n("L5"))))
    assert walled.result == Color.WHITE and walled.termination is Termination.NO_MOVES
    walled.undo()
    assert walled.result == ONGOING and walled.to_move == 2


def test_a_clone_plays_apart_from_the_original() -> None:
    k, rng = random_kernel(7, 50)
    twin = k.clone()
    assert snapshot(twin) == snapshot(k)
    twin.apply(twin.legal_actions()[0])
    assert snapshot(twin) != snapshot(k)
    twin.undo()
    assert snapshot(twin) == snapshot(k)


def test_the_evaluation_is_the_logistic_of_the_stone_costs() -> None:
    costs = node_costs(BOARD)
    for seed in range(20):
        k = crowded(seed)
        margin = sum(costs[c] for c in range(BOARD.num_cells) if k.cells[c] == 2) - sum(
            costs[c] for c in range(BOARD.num_cells) if k.cells[c] == 1)
        assert math.isclose(KNOWLEDGE.evaluate(k), 1 / (1 + math.exp(-margin / TEMPERATURE)), rel_tol=1e-12)
    fewer = kernel("F6", "A1 B1 C1")
    assert KNOWLEDGE.evaluate(fewer) > 0.9
    assert KNOWLEDGE.defaults.exploration == 0.5 and KNOWLEDGE.defaults.playout_plies == 0


def test_a_stone_costs_the_slides_it_needs_to_reach_the_triangle() -> None:
    costs, dist = node_costs(BOARD), distances(BOARD)
    central = {BOARD.names.index(name) for name in ("F6", "G6", "F7")}
    for node in range(BOARD.num_cells):  # a slide covers up to 3 nodes; every stone but the last leaves by a slide
        assert costs[node] == max(1, -(-dist[node] // 3)) - 0.2 * (node in central)
    corner = BOARD.names.index("A1")
    assert dist[corner] == 4 and costs[corner] == 2  # a corner stone needs two slides


def test_the_knowledge_finds_the_win_in_one_and_leaves_the_kernel_as_found() -> None:
    k = kernel("F8 G6", "M5 A1")
    before = snapshot(k)
    win = KNOWLEDGE.winning_action(k)
    assert win is not None and KNOWLEDGE.urgent_actions(k) == [win]
    k.apply(win)
    assert k.result == Color.BLACK
    k.undo()
    assert snapshot(k) == before
    assert KNOWLEDGE.winning_action(kernel("F8 A5", "M5 A1")) is None  # two stones, no fusion onto a central node
    start, rng = random_kernel(3, 0)
    assert KNOWLEDGE.winning_action(start) is None and KNOWLEDGE.urgent_actions(start) == []
    before = snapshot(start)
    value = KNOWLEDGE.rollout(start, rng, 30)
    assert 0.0 <= value <= 1.0 and snapshot(start) == before
    assert KNOWLEDGE.rollout(start, rng, 0) == KNOWLEDGE.evaluate(start)


def test_the_tables_list_each_slide_once_and_every_source_reaches_its_paths() -> None:
    t = tables(BOARD, "both")
    empty = SingularityKernel(BOARD, "both", 10, [], [])
    for s in range(BOARD.num_cells):
        empty.setup([s], [], 1)
        reached = sorted(t.decode[a][1] for a in empty.legal_actions())
        assert reached == sorted(t.paths[s]), BOARD.names[s]
