"""Leap Over's one-ply `heuristic` and the endgame planner behind mcts: legal and reproducible play, a filling chain
taken at once, and a straggler with no chain into the goal brought in by a plan of several own moves."""

from __future__ import annotations

import math
import random

import pytest

from ytourney.boards.regions import region
from ytourney.games.api import Color
from ytourney.games.bot import Limit
from ytourney.games.leap_over.bots import HeuristicBot
from ytourney.games.leap_over import endgame, evaluation
from ytourney.games.leap_over.endgame import Planner, PlanMemory, reach
from ytourney.games.leap_over.kernel import tables
from ytourney.games.leap_over.knowledge import knowledge
from ytourney.games.leap_over.state import LeapOverState
from ytourney.games.registry import get_game
from ytourney.players import create_bot, parse_bot_spec
from ytourney.players.bots.mcts_bot import MctsBot

GAME = get_game("leap-over")
BOARD = GAME.parse_board("kadon")
M5_TRIANGLE = [BOARD.names[c] for c in region(BOARD, "side-triangle-3")]
E1_SIDE = "E1 E2 F2 E3 F3 G3 E4 F4 G4"


def n(name: str) -> int:
    node = BOARD.index_of(name)
    assert node is not None
    return node


def position(black: list[str], white: list[str], to_move: Color = Color.BLACK) -> LeapOverState:
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    state.set_position([n(x) for x in black], [n(x) for x in white], to_move)
    return state


def bot(seed: int = 1) -> HeuristicBot:
    made = create_bot(parse_bot_spec("heuristic:seconds=0.2", GAME), seed=seed)
    assert isinstance(made, HeuristicBot) and made.seconds == 0.2
    made.new_game(BOARD, GAME.parse_rules(None), Color.BLACK)
    return made


def test_it_takes_a_filling_chain_at_once() -> None:
    """Nine Black stones in the M5 triangle, the tenth on H5 with White's I5 next to it: H5-J5 wins."""
    home = [name for name in M5_TRIANGLE if name != "J5"]
    state = position([*home, "H5"], ["I5", *E1_SIDE.split()])
    move = bot().move(state, Limit())
    assert GAME.format_move(BOARD, move) == "H5-J5"
    state.play(move)
    assert state.outcome is not None and state.outcome.winner is Color.BLACK


def test_its_games_are_legal_and_reproducible_for_a_seed() -> None:
    def game(seed: int) -> tuple[object, ...]:
        state = GAME.new_state(BOARD, GAME.parse_rules({"max_plies": 120}))
        player, rng = bot(seed), random.Random(seed)
        while not state.is_over:
            if state.to_move is Color.BLACK:
                move = player.move(state, Limit())
                assert state.is_legal(move)
            else:
                move = rng.choice(state.legal_moves())
            state.play(move)
        return state.history

    assert game(3) == game(3)


def test_reach_is_every_landing_of_a_stones_chains() -> None:
    state = position(["E6", "G6"], ["F6", "H6", "A1"])
    listed = {m.path[-1] for m in state.legal_moves() if m.path[0] == n("E6")}
    occupied = state.kernel.masks[1] | state.kernel.masks[2]
    found = reach(tables(BOARD), n("E6"), occupied)
    assert {c for c in range(BOARD.num_cells) if found >> c & 1} == listed


def test_the_planner_brings_in_a_straggler_that_no_chain_takes_there_now() -> None:
    """Black's last stone on I4 has no chain into the goal (the front hole J5 needs a stone beyond it): the plan
    takes more than one own move, and mcts plays its first move."""
    home = [name for name in M5_TRIANGLE if name != "J5"]
    state = position([*home, "I4"], ["A1", "I1", "A9"])  # White's lone corner stones never leap: White passes
    t = tables(BOARD)
    masks = state.kernel.masks
    target = t.targets[1]
    assert not reach(t, n("I4"), masks[1] | masks[2]) & target & ~masks[1]
    first = Planner(t, masks[1], masks[2], 1).plan()
    assert first is not None
    urgent = knowledge(BOARD).urgent_actions(state.kernel)
    assert len(urgent) == 1
    path = state.move_of(urgent[0]).path
    assert (path[0], path[-1]) == first[0]
    mcts = MctsBot(seed=1, playouts=50)
    mcts.new_game(BOARD, state.rules, Color.BLACK)
    for _ in range(16):
        if state.is_over:
            break
        state.play(mcts.move(state, Limit()) if state.to_move is Color.BLACK else state.legal_moves()[0])
    assert state.outcome is not None and state.outcome.winner is Color.BLACK


def test_no_plan_is_sought_with_many_stones_outside_or_an_opponent_in_the_goal() -> None:
    t = tables(BOARD)
    start = GAME.new_state(BOARD, GAME.parse_rules(None)).kernel.masks
    assert Planner(t, start[1], start[2], 1).plan() is None
    home = [name for name in M5_TRIANGLE if name != "J5"]
    blocked = position([*home, "I4"], ["J5", *E1_SIDE.split()])
    masks = blocked.kernel.masks
    assert Planner(t, masks[1], masks[2], 1).plan() is None


def test_mcts_opens_a_door_for_a_stuck_opponent_stone_in_its_goal() -> None:
    """White left its apex stone on M5, Black's goal: stuck (L5 and K5 filled, the edge nodes beside it empty) it
    blocks Black for ever; Black's urgent move lets it leap, out of the goal."""
    from ytourney.games.leap_over.endgame import assist_action

    black = ["L5", "K5", "J5", "K6", "J6", "I6", "I7", "H7", "H6", "I5"]
    white = ["M5", "A5", "B5", "C5", "D5", "B6", "C6", "D6", "C7", "D7"]
    state = position(black, white)
    t = tables(BOARD)
    masks = state.kernel.masks
    assert not reach(t, n("M5"), masks[1] | masks[2])
    actions = knowledge(BOARD).search_actions(state.kernel)
    door = assist_action(state.kernel, t, actions, state.kernel.path_of)
    assert door is not None and knowledge(BOARD).urgent_actions(state.kernel) == [door]
    state.kernel.apply(door)
    masks = state.kernel.masks
    assert reach(t, n("M5"), masks[1] | masks[2]) & ~t.targets[1]


def straggler_on_i4() -> tuple[int, int]:
    """Black's and White's stones: nine Black stones in the goal, the tenth on I4 with no chain in."""
    home = [name for name in M5_TRIANGLE if name != "J5"]
    masks = position([*home, "I4"], ["A1", "I1", "A9"]).kernel.masks
    return masks[1], masks[2]


def test_a_search_stopped_by_its_budget_resumes_on_a_later_move_and_finds_the_same_plan() -> None:
    t = tables(BOARD)
    black, white = straggler_on_i4()
    whole = Planner(t, black, white, 1).plan()
    assert whole is not None and len(whole) > 1
    piecemeal = Planner(t, black, white, 1)
    found, calls = None, 0
    while found is None and not piecemeal.exhausted:
        found = piecemeal.plan(nodes=1000)  # about a fifth of what the whole search takes
        calls += 1
    assert calls > 1 and found == whole


def test_a_plan_found_is_followed_without_a_new_search_while_it_still_fills_the_goal(monkeypatch) -> None:
    t = tables(BOARD)
    black, white = straggler_on_i4()
    memory = PlanMemory()
    steps = memory.next_moves(t, black, white, 1, 40)
    assert steps is not None and len(steps) > 1
    source, landing = steps[0]
    black = (black ^ (1 << source)) | (1 << landing)

    def no_search(*args: object) -> Planner:
        raise AssertionError("a kept plan needs no new search")

    monkeypatch.setattr(endgame, "Planner", no_search)
    assert memory.next_moves(t, black, white, 1, 42) == steps[1:]
    moved_away = (black ^ (1 << steps[1][0])) | (1 << n("A2"))  # the plan's next stone went elsewhere
    monkeypatch.undo()
    assert memory.next_moves(t, moved_away, white, 1, 44) != steps[2:]


def test_a_new_game_starts_with_nothing_kept() -> None:
    """A colour asked again at an earlier ply is in a new game: the plans and searches of the last are dropped, so a
    game plays as it would alone."""
    t = tables(BOARD)
    black, white = straggler_on_i4()
    memory = PlanMemory()
    assert memory.next_moves(t, black, white, 1, 40) is not None
    assert memory.kept
    start = GAME.new_state(BOARD, GAME.parse_rules(None)).kernel.masks
    assert memory.next_moves(t, start[1], start[2], 1, 0) is None
    assert not memory.kept and not memory.searches


def test_the_search_evaluation_charges_a_last_stone_far_from_its_own_stones() -> None:
    """Black's last stone on A1 is four nodes from its nearest own stone: the search's value counts
    TOGETHER_WEIGHT for each node beyond the first, the one-ply race's does not; White's last stone has a
    neighbour of its own and costs nothing."""
    home = [name for name in M5_TRIANGLE if name not in ("J5", "K5")]
    state = position([*home, "E1", "E2", "A1"], ["A5", "B5", "C5", "D5", "B6", "C6", "D6", "C7", "D7", "E7"])
    kernel = state.kernel
    know = knowledge(BOARD)
    far = evaluation.pair_distances(BOARD)
    apart = min(far[n("A1")][other] for other in (n("E1"), n("E2")))
    assert apart > 2

    def margin(black: float) -> float:
        return evaluation.TEMPERATURE * math.log(black / (1 - black))

    assert know.evaluate(kernel) < know.race_value(kernel)
    assert margin(know.race_value(kernel)) - margin(know.evaluate(kernel)) == pytest.approx(
        evaluation.TOGETHER_WEIGHT * (apart - 1))


def test_while_stones_are_at_home_mcts_weighs_only_the_chains_that_take_one_out_toward_the_goal() -> None:
    """Black's D5 is still at home beside E5; its other stones have chains of their own. The search's root is
    D5's chains that leave home to a node nearer the goal; once no stone is at home, nothing is urgent."""
    white = ["A1", "I1", "A9", "E1", "E2", "F2", "E3", "F3", "G3", "E4"]
    state = position(["D5", "E5", "G5", "H5", "G6", "H6", "G7", "H7", "I8", "J8"], white)
    know = knowledge(BOARD)
    cost = evaluation.distances(BOARD)[Color.BLACK]
    paths = {action: state.move_of(action).path for action in know.search_actions(state.kernel)}
    home = tables(BOARD).homes[Color.BLACK]
    exits = {action for action, path in paths.items()
             if path[0] == n("D5") and not home >> path[-1] & 1 and cost[path[-1]] < cost[n("D5")]}
    assert exits and len(paths) > len(exits) + 5
    urgent = know.urgent_actions(state.kernel)
    assert set(urgent) == exits
    assert all(cost[paths[a][-1]] < cost[n("D5")] for a in urgent)
    away = position(["F5", "E5", "G5", "H5", "G6", "H6", "G7", "H7", "I8", "J8"], white)
    assert know.urgent_actions(away.kernel) == []


CUT_BLACK = ["I7", "J5", "H7", "L5", "M5", "K6", "J6", "I6", "A8", "I5"]
CUT_WHITE = ["C9", "E5", "B2", "J3"]
"""A position whose plan search one move's budget cuts (the next move's finds it): what one search left behind
shows in the move of any bot that resumed it."""


def test_the_cut_position_needs_a_second_moves_search() -> None:
    t = tables(BOARD)
    masks = position(CUT_BLACK, CUT_WHITE).kernel.masks
    planner = Planner(t, masks[1], masks[2], 1)
    assert planner.plan() is None and not planner.exhausted
    assert planner.plan() is not None


def first_black_move(bot: MctsBot) -> tuple[int, ...]:
    """`bot`'s move, in a new game, on the cut position after a White pass (ply 1)."""
    bot.new_game(BOARD, GAME.parse_rules(None), Color.BLACK)
    state = position(CUT_BLACK, CUT_WHITE, Color.WHITE)
    state.play(state.legal_moves()[0])
    assert state.to_move is Color.BLACK and state.kernel.plies == 1
    return bot.move(state, Limit()).path


@pytest.mark.parametrize("same_bot", [False, True])
def test_plans_and_cut_searches_stay_with_one_bot_and_one_game(same_bot: bool) -> None:
    """What the planner kept for one bot's game (here a search of the cut position, cut at ply 0) reaches neither
    another bot nor the same bot's next game, even at a later ply: each plays as it would alone."""
    alone = first_black_move(MctsBot(seed=4, playouts=30))
    earlier = MctsBot(seed=4, playouts=30)
    earlier.new_game(BOARD, GAME.parse_rules(None), Color.BLACK)
    earlier.move(position(CUT_BLACK, CUT_WHITE), Limit())
    if same_bot:
        earlier.reset(4)
    assert first_black_move(earlier if same_bot else MctsBot(seed=4, playouts=30)) == alone
