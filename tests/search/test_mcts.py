"""The search library on a small game: proofs, a win in one, blocks, budgets, tree reuse and RAVE."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from ytourney.games import registry
from ytourney.games.bot import Limit
from ytourney.games.kernel import ONGOING
from ytourney.games.knowledge import Knowledge
from ytourney.search.clock import Budget
from ytourney.search.mcts import Search
from ytourney.search.settings import SearchSettings
from ytourney.search.tree import PROVEN_LOSS, PROVEN_WIN

FAKE_GAMES = Path(__file__).resolve().parents[1] / "fake_games"


@pytest.fixture()
def tictactoe(monkeypatch: pytest.MonkeyPatch) -> object:
    monkeypatch.syspath_prepend(str(FAKE_GAMES))
    monkeypatch.setitem(registry.GAMES, "tictactoe", "tictactoe:GAME")
    return registry.get_game("tictactoe")


def position(game: object, names: list[str]) -> object:
    board = game.parse_board("tri:3")
    state = game.new_state(board, game.parse_rules(None))
    for name in names:
        state.play(game.parse_move(board, name))
    return state


def search(settings: SearchSettings | None = None, seed: int = 1) -> Search:
    return Search(Knowledge(), settings or SearchSettings(), random.Random(seed))


def test_the_kernel_is_left_as_found_and_a_win_in_one_is_proved(tictactoe: object) -> None:
    state = position(tictactoe, ["a1", "a2", "b1", "b2"])  # Black to move wins at c1
    kernel = state.search_kernel()
    before = (kernel.key(), list(kernel.cells), kernel.plies)
    result = search().run(kernel, Budget(500, None))
    assert (kernel.key(), kernel.cells, kernel.plies) == before and kernel.result == ONGOING
    assert state.move_of(result.action) == tictactoe.parse_move(state.board, "c1")
    assert result.proof == PROVEN_WIN and result.simulations < 500  # the proof ends the search early


class Nim:
    """Take one or two from a pile; who takes the last wins: a pile of 3k is lost for the side to move."""

    def __init__(self, pile: int) -> None:
        self.pile, self.to_move, self.plies, self.result = pile, 1, 0, ONGOING
        self.cells: list[int] = []
        self.termination = None
        self.score = None
        self.taken: list[int] = []

    def legal_actions(self) -> list[int]:
        return [] if self.result != ONGOING else [take for take in (1, 2) if take <= self.pile]

    def apply(self, action: int) -> None:
        self.taken.append(action)
        self.pile -= action
        self.plies += 1
        self.result = self.to_move if self.pile == 0 else ONGOING
        self.to_move = 3 - self.to_move

    def undo(self) -> None:
        self.pile += self.taken.pop()
        self.plies -= 1
        self.to_move = 3 - self.to_move
        self.result = ONGOING


@pytest.mark.parametrize(("pile", "proof"), [(9, PROVEN_LOSS), (10, PROVEN_WIN), (11, PROVEN_WIN)])
def test_the_solver_proves_wins_and_losses(pile: int, proof: int) -> None:
    result = search().run(Nim(pile), Budget(50_000, None))
    assert result.proof == proof and result.simulations < 50_000
    if proof == PROVEN_WIN:
        assert (pile - result.action) % 3 == 0  # the move that leaves a lost pile


def test_the_search_blocks_the_one_threat(tictactoe: object) -> None:
    state = position(tictactoe, ["a1", "a2", "b1"])  # White must block c1
    result = search(seed=3).run(state.search_kernel(), Budget(2000, None))
    assert tictactoe.format_move(state.board, state.move_of(result.action)) == "c1"


def test_a_deadline_binds_and_a_count_binds(tictactoe: object) -> None:
    kernel = position(tictactoe, []).search_kernel()
    assert search().run(kernel, Budget(37, None)).simulations <= 37
    begin = time.perf_counter()
    result = search(SearchSettings(solver=False)).run(kernel, Budget(float("inf"), begin + 0.1))
    assert time.perf_counter() - begin < 0.3 and result.simulations > 10


def test_the_budget_of_a_limit() -> None:
    assert Budget.of(Limit(playouts=50), 0.0, 1000, None) == Budget(50, None)
    assert Budget.of(Limit(), 0.0, 1000, None) == Budget(1000, None)
    timed = Budget.of(Limit(seconds=1.0), 10.0, float("inf"), None)
    assert timed.simulations == float("inf") and 10.9 < timed.deadline < 11.0
    assert Budget.of(Limit(seconds=1.0), 10.0, 100, 0.5).deadline < 10.5  # the bot's own seconds, the sooner
    clock = Budget.of(Limit(seconds=5.0, remaining=2.0), 0.0, 100, None)
    assert clock.deadline == 1.0  # never more than half the time left
    assert Budget.of(Limit(), 0.0, float("inf"), None).simulations == 1000  # time alone with no time given


def test_tree_reuse_keeps_the_subtree_of_the_moves_played(tictactoe: object) -> None:
    state = position(tictactoe, [])
    engine = search(SearchSettings(solver=False))
    engine.run(state.search_kernel(), Budget(400, None))
    grown = engine.nodes
    reply = state.action_of(tictactoe.parse_move(state.board, "b2"))
    engine.advance([reply])
    assert 1 < engine.nodes < grown
    engine.advance([10_000])  # an action the tree never saw: nothing kept
    assert engine.nodes == 0
    off = search(SearchSettings(reuse=False))
    off.run(state.search_kernel(), Budget(100, None))
    off.advance([reply])
    assert off.nodes == 0


def test_the_node_budget_caps_the_tree(tictactoe: object) -> None:
    engine = search(SearchSettings(max_nodes=5, solver=False))
    engine.run(position(tictactoe, []).search_kernel(), Budget(300, None))
    assert engine.nodes <= 5


def test_rave_and_priors_change_the_search_not_its_soundness(tictactoe: object) -> None:
    class Prior(Knowledge):
        def priors(self, kernel: object, actions: list[int]) -> list[float]:
            return [0.9 if action == 2 else 0.1 for action in actions]

    state = position(tictactoe, ["a1", "a2", "b1"])
    engine = Search(Prior(), SearchSettings(rave=50, prior_visits=10), random.Random(2))
    result = engine.run(state.search_kernel(), Budget(3000, None))
    assert tictactoe.format_move(state.board, state.move_of(result.action)) == "c1"
    first = Search(Prior(), SearchSettings(prior_visits=50, solver=False), random.Random(2))
    first.run(state.search_kernel(), Budget(1, None))
    assert first._root is not None and first._root.children[0].action == 2  # the best prior expands first


def test_same_seed_same_search(tictactoe: object) -> None:
    kernel = position(tictactoe, ["a1"]).search_kernel()
    runs = [search(SearchSettings(rave=20), seed=9).run(kernel, Budget(300, None)) for _ in range(2)]
    assert runs[0].action == runs[1].action and runs[0].value == runs[1].value


class NimKnowledge(Knowledge):
    """Nim's theory as a forced result: a pile of 3k is lost for the side to move."""

    def forced_winner(self, kernel: Nim) -> int:  # type: ignore[override]
        return 3 - kernel.to_move if kernel.pile and kernel.pile % 3 == 0 else 0


def test_a_forced_winner_proves_a_node_when_it_is_made_and_a_kept_root_still_gets_its_move() -> None:
    engine = Search(NimKnowledge(), SearchSettings(), random.Random(1))
    pile = Nim(10)
    result = engine.run(pile, Budget(1000, None))
    assert result.proof == PROVEN_WIN and result.action == 1 and result.simulations <= 3  # 9 is proved at once
    pile.apply(1)
    engine.advance([1])  # the kept root was proved when it was made and has no child yet
    answer = engine.run(pile, Budget(1000, None))
    assert answer.action in (1, 2) and answer.proof == PROVEN_LOSS
