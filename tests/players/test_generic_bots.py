"""The bots that play every game: `random` and the generic UCT `mcts`, on a test-only game and on Y."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from ytourney.games import registry
from ytourney.games.api import PASS, Move
from ytourney.games.bot import Limit
from ytourney.players.bots.random_bot import RandomBot, playable_moves
from ytourney.players.bots.mcts_bot import MctsBot
from ytourney.players.spec import builtin_class, parse_bot_spec
from ytourney.tournament.match import Seat, play_game

FAKE_GAMES = Path(__file__).resolve().parents[1] / "fake_games"


@pytest.fixture()
def tictactoe(monkeypatch: pytest.MonkeyPatch) -> object:
    monkeypatch.syspath_prepend(str(FAKE_GAMES))
    monkeypatch.setitem(registry.GAMES, "tictactoe", "tictactoe:GAME")
    return registry.get_game("tictactoe")


def test_mcts_is_the_search_library_except_where_a_game_has_its_own(tictactoe: object) -> None:
    assert builtin_class("mcts", registry.get_game("tictactoe")) is MctsBot
    assert builtin_class("mcts", registry.get_game("y")) is not MctsBot  # Y keeps its tuned search
    assert parse_bot_spec("mcts:playouts=10,c=0.5", registry.get_game("tictactoe")).options == (("c", 0.5), ("playouts", 10))


def test_mcts_takes_a_win_in_one_and_blocks_a_loss_in_one(tictactoe: object) -> None:
    game = tictactoe
    board = game.parse_board("tri:3")
    state = game.new_state(board, game.parse_rules(None))
    for name in ("a1", "a2", "b1"):  # Black a1 b1 threatens c1; White a2
        state.play(game.parse_move(board, name))
    block = MctsBot(seed=3, playouts=400).move(state.copy(), Limit())
    assert game.format_move(board, block) == "c1"  # White must block the side a1 b1 c1
    state.play(game.parse_move(board, "b2"))  # White elsewhere instead: Black wins at c1
    assert game.format_move(board, MctsBot(seed=3, playouts=400).move(state.copy(), Limit())) == "c1"


def test_mcts_never_loses_to_random_at_tictactoe(tictactoe: object) -> None:
    results = []
    for seed in range(10):
        seats = [Seat("mcts", MctsBot(seed=seed, playouts=200)), Seat("random", RandomBot(seed=seed))]
        record = play_game(seats if seed % 2 else seats[::-1], tictactoe, "tri:3", seed=seed)
        results.append("win" if record.winner_name == "mcts" else "draw" if record.winner is None else "loss")
    # tri:3 tic-tac-toe is a draw with best play: the search never loses and wins whenever random errs (29 of 60
    # games, none lost, over seeds 0-59)
    assert "loss" not in results and results.count("win") >= 3


def test_mcts_keeps_to_its_time_budget_and_answers_the_pie_with_a_bool() -> None:
    game = registry.get_game("y")
    board = game.parse_board("tri:9")
    state = game.new_state(board, game.parse_rules(None))
    state.play(game.parse_move(board, "e3"))
    bot = MctsBot(seed=1, playouts=10_000_000)
    begin = time.perf_counter()
    answer = bot.swap(state.copy(), Limit(seconds=0.2))
    assert isinstance(answer, bool) and time.perf_counter() - begin < 0.5
    move = bot.move(state.copy(), Limit(seconds=0.2))
    assert state.is_legal(move) and not move.is_swap


class _PassGame:
    has_passes = True


class _PassState:
    """A stand-in state whose legal moves include a pass, for the random bot's choice alone."""

    game = _PassGame()

    def __init__(self, moves: list[Move]) -> None:
        self.moves = moves

    def legal_moves(self) -> list[Move]:
        return list(self.moves)


def test_random_passes_only_when_nothing_else_is_legal() -> None:
    others = [Move.place(0), Move.place(1)]
    rng_bot = RandomBot(seed=4)
    for _ in range(50):
        assert not rng_bot.move(_PassState([*others, PASS]), Limit()).is_pass
    assert rng_bot.move(_PassState([PASS]), Limit()).is_pass
    assert playable_moves(_PassState([PASS])) == [PASS]


def test_random_plays_y_exactly_as_before_the_game_api() -> None:
    # the same draws over the same list: a random empty cell (the golden tournaments pin the whole games)
    game = registry.get_game("y")
    board = game.parse_board("tri:7")
    state = game.new_state(board, game.parse_rules({"pie": False}))
    bot, rng = RandomBot(seed=9), random.Random(9)
    for _ in range(5):
        move = bot.move(state.copy(), Limit())
        assert move.cell == rng.choice(state.empty_cells())
        state.play(move)


def test_every_built_in_bot_of_every_game_takes_seconds() -> None:
    from ytourney.games.registry import all_games
    from ytourney.players import bots_of
    from ytourney.players.spec import create_bot

    for game in all_games().values():
        for name in bots_of(game):
            bot = create_bot(parse_bot_spec(f"{name}:seconds=0.05", game), seed=1)
            try:
                assert "seconds" in builtin_class(name, game).OPTIONS, (game.name, name)
            finally:
                bot.close()


def test_every_games_ladder_is_made_of_its_own_bots_and_its_notes_name_them() -> None:
    from ytourney.games.registry import all_games
    from ytourney.players import bots_of

    for game in all_games().values():
        assert len(game.ladder) >= 2, game.name
        for spec in game.ladder:
            parse_bot_spec(spec, game)
        assert set(game.bot_notes) <= set(bots_of(game)), game.name
