"""YvY's one-ply `heuristic`: legal and reproducible, closes a loop in one, blocks the opponent's, passes back only
when the count wins, and answers inside its time."""

from __future__ import annotations

import random
import time

from yvy_helpers import build, cell

from ytourney.games.api import PASS, Move, MoveKind
from ytourney.games.bot import Limit
from ytourney.games.registry import get_game
from ytourney.games.yvy.bots import YvyHeuristicBot
from ytourney.players import create_bot, parse_bot_spec


def test_it_is_registered_with_a_time_budget() -> None:
    bot = create_bot(parse_bot_spec("heuristic:seconds=0.2", get_game("yvy")), seed=1)
    assert isinstance(bot, YvyHeuristicBot) and bot.seconds == 0.2


def test_it_closes_a_loop_in_one_and_blocks_the_opponents() -> None:
    state = build("hex:4", "e4 e5 d5 c4 c3", "a1 i9 e9")  # White to move: d3 closes the ring round d4
    assert YvyHeuristicBot(seed=1).move(state, Limit()) == Move.place(cell(state.board, "d3"))
    threat = build("hex:4", "a1 i9 e9 g3", "e4 e5 d5 c4 c3")  # White to move; Black threatens d3
    assert YvyHeuristicBot(seed=2).move(threat, Limit()) == Move.place(cell(threat.board, "d3"))


def test_it_passes_back_only_when_the_count_wins() -> None:
    assert YvyHeuristicBot(seed=3).move(build("hex:4", "a1", ""), Limit()) == PASS
    fresh = build("hex:4", "d4", "a1")
    assert YvyHeuristicBot(seed=3).move(fresh, Limit()) != PASS


def test_its_games_are_legal_and_reproducible_for_a_seed() -> None:
    def game(seed: int) -> tuple[Move, ...]:
        state = build("hex:4", "", "")
        bot, rng = YvyHeuristicBot(seed=seed), random.Random(seed)
        while not state.is_over:
            if state.to_move.value == 2:
                move = bot.move(state, Limit())
                assert state.is_legal(move)
            else:
                move = rng.choice([m for m in state.legal_moves() if m.kind is MoveKind.PLACE] or [PASS])
            state.play(move)
        return state.history

    assert game(7) == game(7)


def test_it_answers_well_inside_a_fifth_of_a_second() -> None:
    state = build("hex:7", "d4 e5 f6", "j9 k10 h8")
    began = time.perf_counter()
    YvyHeuristicBot(seed=4).move(state, Limit(seconds=0.2))
    assert time.perf_counter() - began < 0.2
