"""Tetra's forced wins the search proves at once (two wins in one, made or to be made), the forced block, and the
core's one-ply values: the C and the Python kernel agree, and every forced win claimed is one."""

from __future__ import annotations

import random

import pytest

from ytourney.games.bot import Limit
from ytourney.games.cores import PURE_PYTHON_VARIABLE, load_core
from ytourney.games.kernel import ONGOING
from ytourney.games.knowledge import Knowledge
from ytourney.games.registry import get_game
from ytourney.games.tetra.kernel import TetraKernel, tables
from ytourney.games.tetra.state import KNOWLEDGE
from ytourney.players.bots.mcts_bot import PIE_OPENINGS, MctsBot
from ytourney.search.clock import Budget
from ytourney.search.mcts import Search
from ytourney.search.settings import SearchSettings

core = pytest.importorskip("ytourney.games.tetra._tetracore")

GAME = get_game("tetra")
BOARD = GAME.parse_board("kadon")


def positions(seed: int, lines: bool, count: int) -> list[tuple[object, TetraKernel]]:
    """`count` unfinished positions of random games, each as a C and a Python kernel."""
    rng = random.Random(seed)
    rules = GAME.parse_rules({"bridge_lines": lines, "max_plies": 60})
    found = []
    while len(found) < count:
        c = GAME.new_state(BOARD, rules).search_kernel()
        py = TetraKernel(tables(BOARD, lines), 60)
        for _ in range(rng.randrange(0, 45)):
            if c.result != ONGOING:
                break
            action = rng.choice(c.legal_actions())
            c.apply(action)
            py.apply(action)
        if c.result == ONGOING:
            found.append((c, py))
    return found


def wins_within(kernel: object, colour: int, plies: int) -> bool:
    """True when `colour` wins by force within `plies` plies (every line searched)."""
    if kernel.result != ONGOING:
        return kernel.result == colour
    if plies == 0:
        return False
    mine = kernel.to_move == colour
    for action in kernel.legal_actions():
        kernel.apply(action)
        won = wins_within(kernel, colour, plies - 1)
        kernel.undo()
        if won == mine:
            return mine
    return not mine


@pytest.mark.parametrize("lines", [True, False])
def test_both_kernels_see_the_same_forced_wins_blocks_and_one_ply_values(lines: bool) -> None:
    seen = set()
    for c, py in positions(3, lines, 300):
        assert KNOWLEDGE.forced_winner(c) == KNOWLEDGE.forced_winner(py)
        assert KNOWLEDGE.search_actions(c) == KNOWLEDGE.search_actions(py)
        legal = c.legal_actions()
        assert KNOWLEDGE.one_ply_values(c, legal) == Knowledge.one_ply_values(KNOWLEDGE, py, legal)
        seen.add((KNOWLEDGE.forced_winner(c) == c.to_move, KNOWLEDGE.forced_winner(c) == 3 - c.to_move))
    assert seen == {(False, False), (True, False), (False, True)}


def test_every_forced_win_claimed_is_won_within_three_plies() -> None:
    checked = {1: 0, 2: 0}  # 1: the side to move makes two threats; 2: the side that moved holds two
    for c, _ in positions(5, True, 2000):
        winner = KNOWLEDGE.forced_winner(c)
        if not winner or KNOWLEDGE.winning_action(c) is not None:
            continue
        case = 1 if winner == c.to_move else 2
        if checked[case] >= 6:
            continue
        assert wins_within(c, winner, 3 if case == 1 else 2)
        checked[case] += 1
        if min(checked.values()) >= 6:
            break
    assert min(checked.values()) >= 6


def test_the_one_threat_is_blocked_at_once_while_both_place() -> None:
    blocked = 0
    for c, _ in positions(7, True, 600):
        hand = c.hand
        if not (hand[1] and hand[2]) or KNOWLEDGE.winning_action(c) is not None:
            continue
        kept = KNOWLEDGE.search_actions(c)
        legal = c.legal_actions()
        values = dict(zip(legal, KNOWLEDGE.one_ply_values(c, legal)))
        if len(kept) == 1:  # every other placement lets the opponent complete its figure
            assert all(values[action] == 0.0 for action in legal if action != kept[0])
            blocked += 1
    assert blocked >= 5


def test_a_kept_root_proved_when_it_was_made_is_searched_again_for_its_move() -> None:
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    for name in ["C1", "E5", "E3"]:
        state.play(GAME.parse_move(BOARD, name))
    kernel = state.search_kernel()
    engine = Search(KNOWLEDGE, SearchSettings.from_defaults(KNOWLEDGE.defaults), random.Random(1))
    engine.run(kernel, Budget(3000, None))
    reply = GAME.parse_move(BOARD, "G5")
    node = state.action_of(reply)
    state.play(reply)
    kernel = state.search_kernel()
    assert KNOWLEDGE.forced_winner(kernel) == 1  # Black places two threats at once: proved when the node was made
    engine.advance([node])
    result = engine.run(kernel, Budget(3000, None))
    assert result.action is not None
    kernel.apply(result.action)
    assert KNOWLEDGE.forced_winner(kernel) == 1 and kernel.to_move == 2


@pytest.mark.parametrize("opening", ["C1", "A1", "G5"])
def test_mcts_takes_an_opening_it_proves_won_with_the_pie(opening: str) -> None:
    rules = GAME.parse_rules({"pie": True})
    state = GAME.new_state(BOARD, rules)
    state.play(GAME.parse_move(BOARD, opening))
    bot = MctsBot(seed=1, playouts=20_000)
    bot.new_game(BOARD, rules, state.to_move)
    assert bot.swap(state.copy(), Limit()) is True
    assert bot.last_search is not None and bot.last_search.proof == -1  # the side to move's proved loss


def test_mcts_opens_among_the_nearest_even_openings_under_the_pie_and_as_usual_without() -> None:
    rules = GAME.parse_rules({"pie": True})
    state = GAME.new_state(BOARD, rules)
    bot = MctsBot(seed=2, playouts=400)
    bot.new_game(BOARD, rules, state.to_move)
    opening = state.action_of(bot.move(state.copy(), Limit()))
    assert opening in KNOWLEDGE.even_openings(state.search_kernel(), PIE_OPENINGS)
    plain = GAME.new_state(BOARD, GAME.parse_rules(None))
    bot.new_game(BOARD, plain.rules, plain.to_move)
    assert plain.action_of(bot.move(plain.copy(), Limit())) in KNOWLEDGE.search_actions(plain.search_kernel())


def test_a_core_built_from_an_older_source_is_not_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    methods = ("one_ply_values", "forced_winner", "block")
    if not all(hasattr(core.Kernel, name) for name in methods):
        pytest.skip("this checkout's Tetra core was built from an older source (python setup.py build_ext --inplace)")
    assert load_core("ytourney.games.tetra._tetracore", methods) is core
    assert load_core("ytourney.games.tetra._tetracore", ("a_method_of_a_later_source",)) is None
