"""The C core (_aacore.c) against the pure-Python kernel, side by side: the same legal actions in the same order at
every ply, the same ends, cells and counters, apply/undo, junk never legal, and the same rollouts, evaluations and
heuristic moves for the same seeds. Skipped where the core is not built (or YTOURNEY_PURE_PYTHON=1)."""

from __future__ import annotations

import random

import pytest
from kernel_checks import check_same_rollout, play_random

from ytourney.games.aliens_amazons import core, policy
from ytourney.games.aliens_amazons import tables as t
from ytourney.games.aliens_amazons.bots import HeuristicBot
from ytourney.games.aliens_amazons.kernel import AliensAmazonsKernel
from ytourney.games.aliens_amazons.knowledge import KNOWLEDGE
from ytourney.games.bot import Limit
from ytourney.games.kernel import NODE_BITS, ONGOING, PASS_ACTION, encode_path
from ytourney.games.registry import get_game

if core.CORE is None:
    pytest.skip("the C core is not built or not allowed", allow_module_level=True)

GAME = get_game("aliens-amazons")
BOARD = GAME.parse_board("kadon")
GAMES = 30


def pair(max_plies: int | None = 1000, threshold: int | None = None) -> tuple[AliensAmazonsKernel, object]:
    return AliensAmazonsKernel(BOARD, threshold, max_plies), core.new_kernel(BOARD, threshold, max_plies)


def facts(k: object) -> tuple[object, ...]:
    return (k.cells, k.to_move, k.plies, k.result, k.termination, k.score, k.amazons, k.aliens,  # type: ignore[attr-defined]
            k.amazons_placed, k.aliens_placed, k.captured)  # type: ignore[attr-defined]


def junk(rng: random.Random, actions: list[int]) -> list[object]:
    return [-1, -(2**40), 2**80, 2**4000, PASS_ACTION, BOARD.num_cells, 511, 513, 1 << 63, (1 << 64) + 1,
            rng.randrange(1 << 72), rng.randrange(1 << 20), actions[0] ^ 2, actions[-1] + 2, actions[-1] | 2,
            -actions[0], True, False, 3.0, "5", None, (5,)]


def test_the_kernels_agree_on_every_ply_of_random_games() -> None:
    plies = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        py, c = pair(rng.choice([None, 120, 400]))
        assert type(c) is not AliensAmazonsKernel
        while True:
            actions = py.legal_actions()
            assert c.legal_actions() == actions and facts(c) == facts(py)
            if py.result != ONGOING:
                assert actions == []
                break
            assert all(c.is_legal(a) for a in actions)
            for probe in junk(rng, actions):
                assert c.is_legal(probe) is py.is_legal(probe), probe
            key = c.key()
            probe = rng.choice(actions)
            c.apply(probe)
            c.undo()
            assert c.key() == key and facts(c) == facts(py) and c.legal_actions() == actions
            action = rng.choice(actions)
            py.apply(action)
            c.apply(action)
            plies += 1
        while py.plies:
            py.undo()
            c.undo()
            assert facts(c) == facts(py)
        assert c.legal_actions() == py.legal_actions()
    assert plies > 3000


def test_long_chains_pass_64_bits_and_back() -> None:
    longest = 0
    for seed in range(40):
        rng = random.Random(seed)
        py, c = pair()
        while py.result == ONGOING:
            actions = c.legal_actions()
            longest = max(longest, max(a.bit_length() for a in actions))
            action = max(actions) if rng.random() < 0.5 else rng.choice(actions)
            py.apply(action)
            c.apply(action)
            assert facts(c) == facts(py)
    assert longest > 64


def test_setup_positions_and_the_endings_agree() -> None:
    n = BOARD.index_of
    cases = [("C3 A9 I1", "C4", t.ALIEN, 30, 20, "C3-C5"),
             ("A1 B1 A2", "A3 A4 B2 B3 C1 C2 C3 C4 D1 E3", t.AMAZON, 30, 0, "E3-D3"),
             ("A9 I1 E5", "", t.ALIEN, 30, 0, "E5-E6")]
    for aliens, amazons, to_move, placed, captured, text in cases:
        py, c = pair()
        for k in (py, c):
            k.setup([n(x) for x in aliens.split()], [n(x) for x in amazons.split()], to_move, placed, captured)
        assert facts(c) == facts(py) and c.legal_actions() == py.legal_actions()
        action = encode_path(GAME.parse_move(BOARD, text).path)
        py.apply(action)
        c.apply(action)
        assert facts(c) == facts(py) and py.result != ONGOING
        assert KNOWLEDGE.evaluate(c) == KNOWLEDGE.evaluate(py)


def test_apply_refuses_what_is_not_legal_and_undo_an_empty_stack() -> None:
    _, c = pair()
    with pytest.raises(ValueError, match="not legal"):
        c.apply(encode_path((0, 1)))
    with pytest.raises(IndexError):
        c.undo()
    c.apply(0)
    c.count_swap()
    assert c.plies == 2 and c.to_move == t.AMAZON
    c.undo()
    c.undo()
    assert c.plies == 0 and c.cells == [t.EMPTY] * BOARD.num_cells


def test_clone_is_independent_and_keys_ignore_the_order_of_play() -> None:
    _, c = pair()
    for node in (0, 10, 20):
        c.apply(node)
    twin = c.clone()
    twin.apply(30)
    assert c.plies == 3 and twin.plies == 4 and twin.cells[30] == t.AMAZON and c.cells[30] == t.EMPTY
    twin.undo()
    assert twin.key() == c.key()
    _, other = pair()
    for node in (20, 10, 0):
        other.apply(node)
    assert other.key() == c.key() and other.cells == c.cells
    other.undo()
    assert other.key() != c.key()


def test_rollouts_evaluations_and_knowledge_agree_for_the_same_seeds() -> None:
    rollouts = 0
    for seed in range(60):
        rng = random.Random(seed)
        py, c = pair()
        play_random([py, c], rng, rng.randrange(0, 260))
        assert policy.evaluate(c) == policy.evaluate(py) and KNOWLEDGE.evaluate(c) == KNOWLEDGE.evaluate(py)
        assert KNOWLEDGE.search_actions(c) == KNOWLEDGE.search_actions(py)
        assert KNOWLEDGE.winning_action(c) == KNOWLEDGE.winning_action(py)
        assert c.capture_moves() == py.capture_moves()
        for plies in (8, 30):
            draw = rng.getrandbits(32)
            value = check_same_rollout(KNOWLEDGE, c, py, draw, plies)
            assert KNOWLEDGE.rollout(c, random.Random(draw), plies) == value
            rollouts += 1
        assert facts(c) == facts(py)
    assert rollouts == 120


def test_the_python_policy_draws_splitmix64_as_the_core() -> None:
    draws = policy.SplitMix64(1234567)  # the reference outputs of splitmix64 for this seed
    assert [draws.next() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]
    assert 0.0 <= draws.random() < 1.0 and draws.choice("abc") in "abc"


def test_the_heuristic_bot_plays_alike_on_both_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = GAME.parse_rules({"max_plies": 60})
    fast = GAME.new_state(BOARD, rules)
    monkeypatch.setattr(core, "CORE", None)
    slow = GAME.new_state(BOARD, rules)
    assert type(slow.kernel) is AliensAmazonsKernel and type(fast.kernel) is not AliensAmazonsKernel
    bots = [HeuristicBot(seed=7), HeuristicBot(seed=7)]
    while not fast.is_over:
        move = bots[0].move(fast, Limit())
        assert bots[1].move(slow, Limit()) == move
        fast.play(move)
        slow.play(move)
    assert slow.outcome == fast.outcome and fast.cells == slow.cells


def test_a_malformed_field_between_nodes_is_junk() -> None:
    py, c = pair()
    for k in (py, c):
        k.setup([BOARD.index_of(name) for name in ("C3", "A9", "I1")], [BOARD.index_of("C4")], t.ALIEN)
    step = encode_path((BOARD.index_of("C3"), BOARD.index_of("D3")))
    holed = step | (5 << (NODE_BITS * 3 + 10))  # a node above an empty field
    far_holed = step | (5 << (NODE_BITS * 9 + 10))  # the same past 64 bits
    for k in (py, c):
        assert k.is_legal(step) and not k.is_legal(holed) and not k.is_legal(far_holed)
        assert not k.is_legal(step + (1 << 1))


def test_the_state_lists_the_move_tables_own_moves() -> None:
    rng = random.Random(3)
    state = GAME.new_state(BOARD, GAME.parse_rules({"pie": True, "max_plies": 200}))
    while not state.is_over:
        moves = state.legal_moves()
        actions = state.kernel.legal_actions()
        assert [m for m in moves if not m.is_swap] == [state.move_of(a) for a in actions]
        assert all(m is state.move_of(a) and state.action_of(m) == a for m, a in zip(moves, actions, strict=False))
        assert moves[-1].is_swap is (len(state.history) == 1)
        state.play(rng.choice(moves))


def test_the_amazons_searched_moves_and_wins_in_one_agree() -> None:
    checked = filtered = 0
    for seed in range(12):
        rng = random.Random(seed)
        py, c = pair()
        while py.result == ONGOING:
            if py.to_move == t.AMAZON:
                searched = KNOWLEDGE.search_actions(py)
                assert KNOWLEDGE.search_actions(c) == searched
                assert KNOWLEDGE.winning_action(c) == KNOWLEDGE.winning_action(py)
                checked += 1
                filtered += len(searched) < len(py.legal_actions())
            action = rng.choice(py.legal_actions())
            py.apply(action)
            c.apply(action)
    assert checked > 1000 and filtered > checked // 2


def test_the_kernels_agree_on_chains_that_land_again_after_a_capture() -> None:
    """Dense set-up positions, where chains revisit nodes after captures (DESIGN §1b): the same chains in the same
    order, each legal in both, the same capture counts, apply and undo alike."""
    rng = random.Random(5)
    revisits = 0
    for _ in range(150):
        nodes = rng.sample(range(BOARD.num_cells), 3 + rng.randint(20, 30))
        py, c = pair()
        for k in (py, c):
            k.setup(nodes[:3], nodes[3:], t.ALIEN, t.AMAZONS, 0)  # type: ignore[attr-defined]
        actions = py.legal_actions()
        assert c.legal_actions() == actions
        assert c.capture_moves() == py.capture_moves()  # type: ignore[attr-defined]
        chains = [a for a in actions if a >= 1 << NODE_BITS and len(set(py.decoded(a)[2])) < len(py.decoded(a)[2])]
        revisits += len(chains)
        for action in rng.sample(chains, min(3, len(chains))):
            assert c.is_legal(action) and py.is_legal(action)
            py.apply(action)
            c.apply(action)
            assert facts(c) == facts(py)
            py.undo()
            c.undo()
            assert facts(c) == facts(py)
    assert revisits > 100


def test_a_chain_is_never_longer_than_max_chain() -> None:
    """kernel.MAX_CHAIN bounds every path: between captures the landings lie behind the two other Aliens."""
    from ytourney.games.aliens_amazons.kernel import MAX_CHAIN

    behind: dict[int, set[int]] = {}
    for a, row in enumerate(t.tables_for("kadon").jumps):
        for over, land in row:
            behind.setdefault(over, set()).add(land)
    most = max(len(landings) for landings in behind.values())
    assert 1 + t.AMAZONS * (2 * most + 1) + 2 * most <= MAX_CHAIN


def test_the_kernels_agree_with_more_amazons() -> None:
    """The `amazons` rule: the same placing phase, the same ends, the same actions at every ply."""
    for seed in range(6):
        rng = random.Random(seed)
        py = AliensAmazonsKernel(BOARD, None, 400, 45)
        c = core.new_kernel(BOARD, None, 400, 45)
        assert c.amazons_total == py.amazons_total == 45
        while py.result == ONGOING:
            actions = py.legal_actions()
            assert c.legal_actions() == actions and facts(c) == facts(py)
            action = rng.choice(actions)
            py.apply(action)
            c.apply(action)
        assert facts(c) == facts(py)
