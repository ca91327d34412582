"""The human seat's prompt: a turn whose only legal move is a pass says so (Leap Over's rule: a player passes only
when no leap is possible, and a person at the board may not see that none is)."""

from __future__ import annotations

import io

import pytest

from ytourney.games.api import PASS
from ytourney.games.registry import all_games
from ytourney.players.human import KIND_WORDS, Console, HumanBot, QuitGame

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


@pytest.mark.parametrize("game", list(all_games().values()), ids=lambda game: game.name)
def test_help_shows_one_example_move_of_each_kind(game) -> None:
    """Y's help read 'e.g. e5 swap c3 (tri)', like a sequence of moves: now each example is one move, of a kind."""
    import re

    board = game.parse_board(game.default_board)
    rules = game.parse_rules({"pie": True} if "pie" in game.rule_options else None)
    text = Console(game, board, rules, 0, ["you", "bot"], io.StringIO(""), io.StringIO()).help_text()
    examples = re.search(r"one of each kind: (.*?); commands:", text)
    assert examples is not None, text
    seen = []
    for item in examples.group(1).split(", "):
        written, words = re.fullmatch(r"(\S+) \((.+)\)", item).groups()
        move = game.parse_move(board, written)
        assert game.format_move(board, move) == written
        seen.append((move.kind, words))
        assert KIND_WORDS[move.kind] in words and ("capture" in words) == (move.capture is not None)
    assert len(set(seen)) == len(seen) >= 1
    assert ("pie swap" in examples.group(1)) == ("pie" in game.rule_options)
