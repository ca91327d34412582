"""The human seat's prompt: a turn whose only legal move is a pass says so (Leap Over's rule: a player passes only
when no leap is possible, and a person at the board may not see that none is)."""

from __future__ import annotations

import io

import pytest

from ytourney.games.api import PASS
from ytourney.games.registry import all_games
from ytourney.players.human import Console, HumanBot, QuitGame

PASSING = [game for game in all_games().values() if game.has_passes]


@pytest.mark.parametrize("game", PASSING, ids=lambda game: game.name)
def test_a_turn_with_no_move_but_pass_says_so(game, monkeypatch: pytest.MonkeyPatch) -> None:
    board = game.parse_board(game.default_board)
    rules = game.parse_rules(None)
    state = game.new_state(board, rules)
    out = io.StringIO()
    bot = HumanBot("you", Console(game, board, rules, 0, ["you", "bot"], io.StringIO(""), out))
    bot.new_game(board, rules, state.to_move)
    with pytest.raises(QuitGame):
        bot.move(state, None)
    assert "to move: " in out.getvalue() and "no move but pass" not in out.getvalue()
    monkeypatch.setattr(type(state), "legal_moves", lambda self: [PASS])
    out.seek(0)
    out.truncate()
    with pytest.raises(QuitGame):
        bot.move(state, None)
    assert "to move (no move but pass): " in out.getvalue()


class Unreadable(io.StringIO):
    """An input that fails as a terminal that hung up does."""

    def readline(self, size: int = -1) -> str:
        raise OSError(5, "Input/output error")


def test_an_input_that_cannot_be_read_ends_the_game_as_the_end_of_input_does() -> None:
    """It was the human's loss 'by crash (OSError ...)', an internal error recorded as a result."""
    game = PASSING[0]
    board = game.parse_board(game.default_board)
    rules = game.parse_rules(None)
    out = io.StringIO()
    bot = HumanBot("you", Console(game, board, rules, 0, ["you", "bot"], Unreadable(), out))
    bot.new_game(board, rules, game.first_color)
    with pytest.raises(QuitGame) as ended:
        bot.move(game.new_state(board, rules), None)
    assert ended.value.problem == "cannot read the input (Input/output error)"
