"""The one-ply `heuristic` bots of Tetra, Quinta, Sexta and Singularity, and the selective search their knowledge
gives `mcts`: wins in one, blocks, legal and reproducible play, the best one-ply actions kept."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from ytourney.games.api import Game
from ytourney.games.bot import Limit
from ytourney.games.kernel import ONGOING, Kernel
from ytourney.games.knowledge import Knowledge
from ytourney.games.one_ply import OnePlyBot
from ytourney.games.pie import swap_follows
from ytourney.games.registry import get_game
from ytourney.games.variant import Variant
from ytourney.players import create_bot, parse_bot_spec
from ytourney.tournament.match import Seat, play_game

GAMES = ("tetra", "quinta", "sexta", "singularity")


def start(game: Game) -> tuple[Kernel, Knowledge]:
    board = game.parse_board(game.default_board)
    rules = game.parse_rules(None)
    return game.new_state(board, rules).search_kernel(), game.knowledge(board, rules)


def random_positions(game: Game, seed: int, plies: int = 150) -> Iterator[tuple[Kernel, Knowledge]]:
    """Positions along games of half random, half heuristic moves (the same kernel, moved on after each yield):
    random play alone rarely comes near an end in Singularity."""
    rng = random.Random(seed)
    kernel, knowledge = start(game)
    bot = heuristic(game, knowledge, seed)
    for _ in range(plies):
        if kernel.result != ONGOING:
            return
        yield kernel, knowledge
        kernel.apply(bot.choose(kernel) if rng.random() < 0.5 else rng.choice(kernel.legal_actions()))


def heuristic(game: Game, knowledge: Knowledge, seed: int = 1) -> OnePlyBot:
    bot = create_bot(parse_bot_spec("heuristic:seconds=0.2", game), seed=seed)
    assert isinstance(bot, OnePlyBot) and bot.seconds == 0.2
    bot.knowledge = knowledge
    return bot


@pytest.mark.parametrize("name", GAMES)
def test_the_heuristic_wins_in_one_whenever_it_can(name: str) -> None:
    game = get_game(name)
    found = 0
    for seed in range(40):
        for kernel, knowledge in random_positions(game, seed):
            if knowledge.winning_action(kernel) is None:
                continue
            mover = kernel.to_move
            kernel.apply(heuristic(game, knowledge).choose(kernel))
            assert kernel.result == mover
            kernel.undo()
            found += 1
            break
        if found >= 3:
            break
    assert found >= 3


@pytest.mark.parametrize("name", GAMES)
def test_the_heuristic_blocks_a_win_in_one_when_an_action_does(name: str) -> None:
    game = get_game(name)
    found = 0
    for seed in range(60):
        for kernel, knowledge in random_positions(game, seed):
            if knowledge.winning_action(kernel) is not None:
                continue
            values = knowledge.one_ply_values(kernel, kernel.legal_actions())
            if min(values) > 0.0 or max(values) == 0.0:
                continue  # nothing threatens, or nothing blocks
            action = heuristic(game, knowledge).choose(kernel)
            kernel.apply(action)
            assert kernel.result != ONGOING or knowledge.winning_action(kernel) is None
            kernel.undo()
            found += 1
            break
        if found >= 3:
            break
    assert found >= 3


@pytest.mark.parametrize("name", GAMES)
def test_the_heuristic_plays_legal_moves_and_the_same_game_for_a_seed(name: str) -> None:
    game = get_game(name)
    variant = Variant(game, game.parse_board(game.default_board), game.parse_rules({"max_plies": 200}))

    def record(seed: int) -> tuple[tuple[str, ...], str]:
        seats = [Seat("heuristic", create_bot(parse_bot_spec("heuristic", game), seed=seed)),
                 Seat("random", create_bot(parse_bot_spec("random", game), seed=seed + 1))]
        played = play_game(seats, variant, seed=seed)
        assert not played.termination.is_fault, played.reason
        return played.moves, played.termination.value

    assert record(3) == record(3)


@pytest.mark.parametrize("name", GAMES)
def test_a_selective_node_keeps_the_best_one_ply_actions(name: str) -> None:
    game = get_game(name)
    for kernel, knowledge in random_positions(game, 5, plies=30):
        legal = kernel.legal_actions()
        kept = knowledge.search_actions(kernel)
        breadth = knowledge.defaults.breadth
        if breadth <= 0:
            assert kept == legal
            continue
        values = dict(zip(legal, knowledge.one_ply_values(kernel, legal)))
        if len(kept) == 1 < len(legal):  # a forced action: the win in one, or the one block of the opponent's
            assert kept[0] in legal
            assert values[kept[0]] == 1.0 or all(values[a] == 0.0 for a in legal if a != kept[0])
            continue
        assert len(kept) == min(breadth, len(legal)) and set(kept) <= set(legal)
        assert min(values[a] for a in kept) >= max((values[a] for a in legal if a not in kept), default=0.0)
        assert all(0.0 <= value <= 1.0 for value in values.values())


@pytest.mark.parametrize("name", GAMES)
def test_the_one_ply_values_see_a_win_and_a_loss_in_one(name: str) -> None:
    game = get_game(name)
    seen = set()
    for seed in range(40):
        for kernel, knowledge in random_positions(game, seed):
            legal = kernel.legal_actions()
            values = knowledge.one_ply_values(kernel, legal)
            win = knowledge.winning_action(kernel)
            if win is not None:
                assert values[legal.index(win)] == 1.0
                seen.add("win")
            for action, value in zip(legal, values):
                if value == 0.0:
                    kernel.apply(action)
                    assert kernel.result not in (ONGOING, kernel.to_move) or knowledge.winning_action(kernel) is not None
                    kernel.undo()
                    seen.add("loss")
        if seen == {"win", "loss"}:
            break
    assert seen == {"win", "loss"}


@pytest.mark.parametrize("name", GAMES)
def test_under_the_pie_the_heuristic_opens_nearest_even_and_swaps_a_better_first_seat(name: str) -> None:
    game = get_game(name)
    board = game.parse_board(game.default_board)
    rules = game.parse_rules({"pie": True})
    state = game.new_state(board, rules)
    assert swap_follows(state) and not swap_follows(game.new_state(board, game.parse_rules({"pie": False})))
    knowledge = game.knowledge(board, rules)
    bot = heuristic(game, knowledge)
    opening = bot.move(state.copy(), Limit())
    kernel = state.search_kernel()
    assert state.action_of(opening) == knowledge.even_openings(kernel, 1)[0]
    nearest = knowledge.even_openings(kernel, 3)
    values = knowledge.opening_values(kernel, nearest)
    assert [abs(v - 0.5) for v in values] == sorted(abs(v - 0.5) for v in values)
    state.play(opening)
    assert not swap_follows(state) and state.can_swap()
    after = state.search_kernel()
    assert bot.swap(state.copy(), Limit()) is (knowledge.reply_value(after) < 0.5)
