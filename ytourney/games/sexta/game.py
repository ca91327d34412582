"""Sexta on the game API: its rules, notation example, win and knowledge (the rest is the slide games' `SlideGame`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ytourney.games.sexta import progress
from ytourney.games.api import RuleOption, State
from ytourney.games.sexta.knowledge import SextaKnowledge
from ytourney.games.sexta.state import START_SETS, SextaRules, SextaState
from ytourney.games.slides import SlideGame, SlideViews


class SextaViews(SlideViews):
    """How Sexta shows itself."""

    highlight_text = "the winning chain is ringed in gold"
    win_termination = "chain"
    win_phrase = "by a chain of six"


class SextaGame(SlideGame):
    """Sexta: slide a stone any distance along a line; all six in one chain (none touching three) wins."""

    no_progress_plies = 120
    progress_text = progress.PROGRESS_TEXT

    def progress_marks(self, state: State) -> tuple[int, ...]:
        """This game's measure of progress (its progress module)."""
        return progress.progress_marks(state)

    views = SextaViews()

    name = "sexta"
    title = "Sexta"
    notation_example = "B1-B5 (a slide along a line)"
    own_bots: ClassVar[Mapping[str, str]] = {"heuristic": "ytourney.games.sexta.bots:HeuristicBot"}
    ladder: ClassVar[tuple[str, ...]] = ("random", "heuristic", "mcts")
    bot_notes: ClassVar[Mapping[str, str]] = {
        "heuristic": "won 40/40 against random at 0.2 s a move; games last about 26 plies",
        "mcts": "won 35/40 against heuristic at 0.2 s a move (95% interval 74-95%); games last about 14 plies",
    }
    rule_options: ClassVar[Mapping[str, RuleOption]] = {
        "pie": RuleOption(bool, False, "the second player may take the first move (not in the rulebook)"),
        "start": RuleOption(str, "between", "which every-other perimeter nodes start: between (DESIGN) or corners",
                            choices=tuple(START_SETS)),
        "rings": RuleOption(bool, True, "a closed ring of six counts as a chain"),
        "max_plies": RuleOption(int, 1000, "plies after which the game is a move-limit draw", 20, 1_000_000),
    }
    rules_class = SextaRules
    state_class = SextaState
    knowledge_class = SextaKnowledge


GAME = SextaGame()
SextaState.game = GAME
