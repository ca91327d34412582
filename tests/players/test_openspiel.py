"""OpenSpiel bots as players: `openspiel:mcts` and plugins subclassing OpenSpielBot play Y on tri boards, refereed
as usual; OpenSpiel's y is checked against ours (cells, legal moves, winner); anything else is one clear line."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.errors import BotSpecError, YTourneyError
from ytourney.games.api import Color
from ytourney.games.registry import game_names, get_game
from ytourney.players.spec import BotKind, create_bot, parse_bot_spec
from ytourney.tournament.match import Seat, play_game

Y = get_game("y")
PLUGIN = Path(__file__).resolve().parents[1] / "fake_plugins" / "openspiel_plugin.py"


def test_without_openspiel_the_spec_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if OpenSpiel were not installed
    with pytest.raises(BotSpecError, match=r"OpenSpiel bots need OpenSpiel, which is not installed: pip install -e "
                                           r"'\.\[openspiel\]'"):
        parse_bot_spec("openspiel:mcts", Y)
    result = CliRunner().invoke(main, ["match", "openspiel:mcts", "random", "--board", "tri:5"])
    assert result.exit_code == 1 and "pip install -e '.[openspiel]'" in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_games_openspiel_lacks_and_unknown_bots_are_refused_in_one_line() -> None:
    for name in game_names():
        if get_game(name).openspiel_name is None:
            with pytest.raises(BotSpecError, match=f"plays only games OpenSpiel has as ours; {name!r} is not"):
                parse_bot_spec("openspiel:mcts", get_game(name))
    with pytest.raises(BotSpecError, match="unknown OpenSpiel bot 'alphazero'"):
        parse_bot_spec("openspiel:alphazero", Y)


@pytest.fixture
def spiel() -> object:
    """OpenSpiel, for the tests that play it (CI installs the extra; without it only they are skipped)."""
    return pytest.importorskip("pyspiel")


def test_the_spec_reads_its_options_like_a_built_in(spiel: object) -> None:
    spec = parse_bot_spec("openspiel:mcts;simulations=500;uct_c=2;seed=1", Y)
    assert spec.kind is BotKind.OPENSPIEL and dict(spec.options) == {"simulations": 500, "uct_c": 2.0, "seed": 1}
    assert str(spec) == "openspiel:mcts:seed=1,simulations=500,uct_c=2.0"
    assert parse_bot_spec(str(spec), Y) == spec  # the canonical form reads back
    for text, words in [("openspiel:mcts;simulations=0", "must be at least 1"),
                        ("openspiel:mcts;pie_policy=maybe", "must be one of search, center, never, always"),
                        ("openspiel:mcts;playouts=9", "accepted options: pie_policy, rollouts, seed, simulations")]:
        with pytest.raises(BotSpecError, match=words):
            parse_bot_spec(text, Y)


@pytest.mark.parametrize("size", [3, 5, 7, 11, 13])
def test_openspiel_y_numbers_and_plays_the_cells_as_we_do(spiel: object, size: int) -> None:
    """OpenSpiel's y on board_size N names its actions as our tri:N cells, and agrees with ours on the legal moves
    and the winner of random games."""
    from ytourney.players.openspiel import spiel_board

    board = Y.parse_board(f"tri:{size}")
    spiel = spiel_board(Y, board)
    assert [spiel.game.new_initial_state().action_to_string(a) for a in spiel.actions] == list(board.names)
    rng = random.Random(size)
    for _ in range(5):
        ours, theirs = Y.new_state(board, Y.parse_rules({"pie": False})), spiel.game.new_initial_state()
        while not ours.is_over:
            assert sorted(spiel.nodes[a] for a in theirs.legal_actions()) == sorted(m.cell for m in ours.legal_moves())
            move = rng.choice(ours.legal_moves())
            ours.play(move)
            theirs.apply_action(spiel.actions[move.cell])
        assert theirs.is_terminal() and theirs.returns()[0] == (1.0 if ours.outcome.winner is Color.BLACK else -1.0)


@pytest.mark.parametrize("board", ["tri:5", "tri:7"])
@pytest.mark.parametrize("seat", [0, 1])
def test_openspiel_mcts_plays_refereed_games_against_random(spiel: object, board: str, seat: int) -> None:
    mcts = Seat("openspiel", create_bot(parse_bot_spec("openspiel:mcts;simulations=300", Y), 1))
    rnd = Seat("random", create_bot(parse_bot_spec("random", Y), 2), trusted=True)
    wins = 0
    for game_seed in range(2):
        record = play_game([mcts, rnd] if seat == 0 else [rnd, mcts], Y, board, seed=game_seed)
        assert record.termination.value == "connection", record.reason
        state = Y.new_state(Y.parse_board(board), record.rules)  # the record replays as a legal game
        for move in Y.parse_moves(state.board, record.moves):
            state.play(move)
        assert state.is_over and state.outcome.winner is record.winner
        wins += record.winner_name == "openspiel"
    assert wins >= 1  # 300 simulations a move beat random on these boards


def test_a_plugin_subclassing_the_adapter_plays_a_match_through_the_cli(spiel: object, tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = CliRunner().invoke(main, ["match", "openspiel:mcts;simulations=50", f"spielrandom={PLUGIN}:SpielRandom",
                                       "--board", "tri:5", "--games-per-pair", "2", "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    from ytourney.tournament.store import load_records

    records = load_records(out)
    assert len(records) == 2 and all(r.termination.value == "connection" for r in records)


@pytest.mark.parametrize(("board", "rules", "handicap", "words"), [
    ("kadon", None, 0, "OpenSpiel's 'y' is played on tri boards (board_size N for tri:N); board 'kadon' is not one"),
    ("tri:5", {"misere": True}, 0, "OpenSpiel's 'y' cannot play these rules: it has no misère rule"),
    ("tri:5", {"pie": False}, 2, "OpenSpiel's 'y' has no handicap stones"),
])
def test_boards_rules_and_handicaps_openspiel_lacks_are_refused_in_words(spiel: object, board: str, rules: dict | None,
                                                                         handicap: int, words: str) -> None:
    variant_board, variant_rules = Y.parse_board(board), Y.parse_rules(rules)
    bot = create_bot(parse_bot_spec("openspiel:mcts;simulations=10", Y), 1)
    with pytest.raises(YTourneyError) as refused:
        bot.new_game(variant_board, variant_rules, Color.WHITE)
        state = Y.new_state(variant_board, variant_rules, handicap)
        state.play(state.legal_moves()[0])
        state.play(state.legal_moves()[0])
        bot.move(state, __import__("ytourney.games.bot", fromlist=["Limit"]).Limit())
    assert words in str(refused.value)


def test_an_adapter_subclass_missing_what_it_needs_is_refused_before_its_first_move() -> None:
    """A plugin class defining neither make_bot nor choose, or a search pie without choose_swap, is named in one
    line when its game starts, not when a move or the pie first reaches the missing method."""
    from ytourney.players.openspiel import OpenSpielBot, PieAnswer

    class Empty(OpenSpielBot):
        pass

    class Searching(OpenSpielBot):
        pie_policy = PieAnswer.SEARCH

        def make_bot(self, game: object, player: int, seed: int) -> object:
            return None

    class Complete(Searching):
        def choose_swap(self, state: object, limit: object) -> bool:
            return False

    board, rules = Y.parse_board("tri:5"), Y.parse_rules(None)
    for cls, words in ((Empty, "'Empty' must define make_bot(game, player, seed) or choose(state, limit)"),
                       (Searching, "'Searching' has pie_policy 'search' but no choose_swap(state, limit)")):
        with pytest.raises(BotSpecError) as refused:
            cls(1, Y).new_game(board, rules, Color.BLACK)
        assert words in str(refused.value)
    assert Complete(1, Y)._unfinished() is None
