"""Aliens and Amazons' handicap ladder: level k gives the Amazons 5k more stones, applied by the game itself."""

from __future__ import annotations

import pickle

import pytest

from ytourney.errors import GameSpecError
from ytourney.games.aliens_amazons.bots import HeuristicBot
from ytourney.games.api import Color
from ytourney.games.bot import Limit
from ytourney.games.registry import get_game

GAME = get_game("aliens-amazons")
BOARD = GAME.parse_board("kadon")


@pytest.mark.parametrize(("amazons", "level", "stones"), [(30, 0, 30), (30, 2, 40), (30, 6, 60), (45, 3, 60)])
def test_a_level_gives_the_amazons_five_stones(amazons: int, level: int, stones: int) -> None:
    rules = GAME.parse_rules({"amazons": amazons})
    state = GAME.new_state(BOARD, rules, level)
    assert state.amazons_in_hand == stones and state.handicap == level
    assert GAME.handicap_axis.top(GAME, rules) == (60 - amazons) // 5
    assert GAME.handicap_axis.amount(GAME, rules, level) == f"{stones} Amazons"
    again = pickle.loads(pickle.dumps(state))  # a copy for a worker replays with the level
    assert again.amazons_in_hand == stones and again.handicap == level


def test_a_level_past_sixty_amazons_or_not_a_level_is_refused() -> None:
    with pytest.raises(GameSpecError, match=r"handicap level 4 gives the Amazons 65 stones, above the most \(60\) "
                                            r"with amazons=45; expected a level of at most 3"):
        GAME.new_state(BOARD, GAME.parse_rules({"amazons": 45}), 4)
    for level in (-1, True, 1.5):
        with pytest.raises(GameSpecError, match="handicap level must be a whole number"):
            GAME.new_state(BOARD, GAME.parse_rules(None), level)  # type: ignore[arg-type]


def test_the_ladder_favours_the_amazons_and_is_no_first_turn_stones() -> None:
    axis = GAME.handicap_axis
    assert axis.favours is Color.BLACK and GAME.views.side_names[Color.BLACK] == "Amazons"
    assert GAME.has_handicap and GAME.first_turn_stones(4) == 1
    y = get_game("y")
    assert y.handicap_axis.favours is None and y.first_turn_stones(4) == 4 and y.first_turn_stones(0) == 1
    assert y.handicap_axis.amount(y, y.parse_rules(None), 1.5) == "level 1.5"


def moves_of(bot: HeuristicBot, plies: int = 60) -> list[str]:
    state = GAME.new_state(BOARD, GAME.parse_rules(None))
    played = []
    for _ in range(plies):
        move = bot.move(state, Limit())
        state.play(move)
        played.append(GAME.format_move(BOARD, move))
    return played


def test_heuristic_blunders_mix_in_random_moves_and_none_changes_nothing() -> None:
    plain = moves_of(HeuristicBot(seed=4))
    assert moves_of(HeuristicBot(seed=4, blunders=0.0)) == plain  # no extra draw of the generator
    assert moves_of(HeuristicBot(seed=4, blunders=1.0)) != plain
    assert moves_of(HeuristicBot(seed=4, blunders=0.5)) == moves_of(HeuristicBot(seed=4, blunders=0.5))
    assert HeuristicBot.OPTIONS["blunders"].low == 0 and HeuristicBot.OPTIONS["blunders"].high == 1
