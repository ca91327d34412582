"""Quinta on the game API: its rules, notation example, win and knowledge (the rest is the slide games' `SlideGame`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ytourney.games.quinta import progress
from ytourney.games.api import RuleOption, State
from ytourney.games.quinta.knowledge import QuintaKnowledge
from ytourney.games.quinta.state import CORNERS, QuintaRules, QuintaState
from ytourney.games.slides import SlideGame, SlideViews


class QuintaViews(SlideViews):
    """How Quinta shows itself."""

    highlight_text = "the winning five are ringed in gold"
    win_termination = "line"
    win_phrase = "by five in a line"


class QuintaGame(SlideGame):
    """Quinta: slide a stone any distance along a line; five of one colour adjacent along one line wins."""

    no_progress_plies = 80
    progress_text = progress.PROGRESS_TEXT

    def progress_marks(self, state: State) -> tuple[int, ...]:
        """This game's measure of progress (its progress module)."""
        return progress.progress_marks(state)

    views = QuintaViews()

    name = "quinta"
    title = "Quinta"
    notation_example = "A5-E5 (a slide along a line)"
    own_bots: ClassVar[Mapping[str, str]] = {"heuristic": "ytourney.games.quinta.bots:HeuristicBot"}
    ladder: ClassVar[tuple[str, ...]] = ("random", "heuristic", "mcts")
    bot_notes: ClassVar[Mapping[str, str]] = {
        "heuristic": "won 40/40 against random at 0.2 s a move; games last about 10 plies",
        "mcts": "won 38/40 against heuristic at 0.2 s a move (95% interval 83-99%); games last about 25 plies",
    }
    rule_options: ClassVar[Mapping[str, RuleOption]] = {
        "pie": RuleOption(bool, False, "the second player may take the first move (not in the rulebook)"),
        "corners": RuleOption(str, "black", "whose pairs stand on the corners and side middles at the start",
                              choices=CORNERS),
        "max_plies": RuleOption(int, 1000, "plies after which the game is a move-limit draw", 20, 1_000_000),
    }
    rules_class = QuintaRules
    state_class = QuintaState
    knowledge_class = QuintaKnowledge


GAME = QuintaGame()
QuintaState.game = GAME
