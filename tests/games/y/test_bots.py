"""Y's built-in bots (random, heuristic, tuned mcts), their specs and the plugin loader: legal play, tactics, rules, pie."""

from __future__ import annotations

import math
import pickle
import time
from pathlib import Path

import numpy as np
import pytest

from ytourney.errors import BotSpecError, PluginError
from ytourney.boards.board import parse_board
from ytourney.games.y.notation import parse_move, parse_moves
from ytourney.games.y.playout import RandomFill
from ytourney.games.api import Color
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import GameState
from ytourney.players import BaseBot, Limit, bots_of, create_bot, parse_bot_spec
from ytourney.games.y.bots.heuristic import (
    KADON_STONE_GAINS,
    HeuristicBot,
    completing_cells,
    first_stone_worth,
)
from ytourney.games.y.bots.mcts import MctsBot, bridge_saves
from ytourney.tournament.match import Seat, play_game
from ytourney.games.y.state import CONNECTION
from ytourney.games.registry import get_game

Y = get_game("y")

EXAMPLE_BOT = str(Path(__file__).resolve().parents[3] / "bots" / "example_bot.py")

# Small budgets keep the suite fast; strength is measured by benchmarks/ladder.py, not here.
FAST_SPECS = {
    "random": "random",
    "heuristic": "heuristic",
    "mcts": "mcts:playouts=200",
    "mcts-pro": "mcts-pro:playouts=200",
}


def fast_bot(name: str, seed: int = 1) -> BaseBot:
    return create_bot(parse_bot_spec(FAST_SPECS[name], get_game("y")), seed=seed)


def position(spec: str, moves: str, rules: Rules | None = None, handicap: int = 0) -> GameState:
    board = parse_board(spec)
    state = GameState(board, rules or Rules(pie=False), handicap)
    for move in parse_moves(board, moves):
        state.play(move)
    return state


def test_every_builtin_has_a_fast_spec() -> None:
    assert set(FAST_SPECS) == set(bots_of(get_game("y")))


@pytest.mark.parametrize("name", sorted(FAST_SPECS))
@pytest.mark.parametrize("board", ["tri:5", "tri:11", "kadon"])
def test_builtin_plays_legal_moves_to_the_end(name: str, board: str) -> None:
    spec = FAST_SPECS[name] if not (board == "kadon" and name == "mcts") else "mcts:playouts=64"
    seats = [Seat("a", create_bot(parse_bot_spec(spec, get_game("y")), seed=3)), Seat("b", fast_bot("random", seed=4))]
    record = play_game(seats, Y, board, Rules(pie=True), seed=3)
    assert record.termination is CONNECTION
    replay = GameState(board, Rules(pie=True))
    for token in record.moves:
        replay.play(parse_move(replay.board, token))
    assert replay.winner == record.winner


@pytest.mark.parametrize("spec", ["random", "heuristic:temperature=2", "mcts:playouts=300"])
def test_same_seed_same_game(spec: str) -> None:
    def game() -> tuple[str, ...]:
        seats = [Seat("a", create_bot(parse_bot_spec(spec, get_game("y")), seed=11)), Seat("b", fast_bot("random", seed=5))]
        return play_game(seats, Y, "tri:7", Rules(pie=True), seed=11).moves

    assert game() == game()


def test_mcts_same_seed_same_move_and_different_seeds_explore() -> None:
    state = position("tri:9", "e3 c4")
    moves = {MctsBot(seed=7, playouts=500).move(state.copy(), Limit()) for _ in range(2)}
    assert len(moves) == 1
    bot = MctsBot(seed=7, playouts=500)
    bot.move(state.copy(), Limit())
    assert bot.last_search.simulations >= 500


# --- tactics ------------------------------------------------------------------------------------------

# Black a1 b1 c1 d1 join sides A and B; e1 would add side C (d2 is White's).
BLACK_THREAT = "a1 d2 b1 a5 c1 b4 d1"


@pytest.mark.parametrize("spec", ["mcts:playouts=300", "heuristic"])
def test_plays_the_immediate_win(spec: str) -> None:
    state = position("tri:5", BLACK_THREAT + " a3")
    assert state.to_move is Color.BLACK
    bot = create_bot(parse_bot_spec(spec, get_game("y")), seed=1)
    assert state.board.names[bot.move(state, Limit())] == "e1"


@pytest.mark.parametrize("spec", ["mcts:playouts=300", "heuristic"])
def test_blocks_the_immediate_loss(spec: str) -> None:
    state = position("tri:5", BLACK_THREAT)
    assert state.to_move is Color.WHITE
    bot = create_bot(parse_bot_spec(spec, get_game("y")), seed=1)
    assert state.board.names[bot.move(state, Limit())] == "e1"


def test_completing_cells_finds_every_winning_cell() -> None:
    state = position("tri:5", "a1 a3 b1 a5 c1 b4 d1")
    assert sorted(state.board.names[c] for c in completing_cells(state, Color.BLACK)) == ["d2", "e1"]
    assert len(completing_cells(state, Color.WHITE)) == 0


# --- misère and handicap --------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["mcts:playouts=300", "heuristic", "bots/example_bot.py:ExampleBot"])
def test_misere_avoids_completing_its_own_y(spec: str) -> None:
    if spec.startswith("bots/"):
        spec = f"{EXAMPLE_BOT}:ExampleBot"
    state = position("tri:5", BLACK_THREAT + " a3", Rules(pie=False, misere=True))
    bot = create_bot(parse_bot_spec(spec, get_game("y")), seed=1)
    for _ in range(3):
        assert state.board.names[bot.move(state.copy(), Limit())] != "e1"


def test_misere_game_is_lost_by_the_player_completing_a_y() -> None:
    seats = [Seat("mcts", fast_bot("mcts")), Seat("random", fast_bot("random"))]
    record = play_game(seats, Y, "tri:5", Rules(pie=False, misere=True), seed=1)
    replay = GameState("tri:5", Rules(pie=False, misere=True))
    for token in record.moves:
        replay.play(parse_move(replay.board, token))
    last = replay.board.index_of(record.moves[-1])
    assert Color(replay.cells[last]) is not Color.parse(record.winner)


@pytest.mark.parametrize("spec", ["mcts:playouts=300", "heuristic"])
def test_handicap_stones_complete_a_y_in_one_turn(spec: str) -> None:
    # On tri:3 a whole side connects all three sides: three handicap stones are enough to win at once.
    seats = [Seat("strong", create_bot(parse_bot_spec(spec, get_game("y")), seed=1)), Seat("random", fast_bot("random"))]
    record = play_game(seats, Y, "tri:3", Rules(pie=False), handicap=3, seed=1)
    assert record.winner_name == "strong"
    assert len(record.moves) == 3


@pytest.mark.parametrize("name", sorted(FAST_SPECS))
def test_handicap_games_are_legal(name: str) -> None:
    seats = [Seat("weak", fast_bot("random")), Seat("strong", fast_bot(name, seed=2))]
    record = play_game(seats, Y, "tri:7", Rules(pie=False), handicap=3, seed=2)
    assert record.termination is CONNECTION
    assert record.black == "weak"


def test_mcts_tree_moves_the_same_colour_again_on_a_handicap_turn() -> None:
    state = GameState("tri:6", Rules(pie=False), handicap=4)
    state.play(state.board.index_of("a1"))
    bot = MctsBot(seed=1, playouts=300)
    bot.move(state, Limit())
    assert bot._root is not None and bot._root.to_move == Color.BLACK  # still Black's turn after its stone


# --- pie rule ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["mcts:playouts=2000", "heuristic"])
@pytest.mark.parametrize(("stone", "swaps"), [("c3", True), ("a1", False)])
def test_swaps_a_central_first_stone_but_not_a_corner(spec: str, stone: str, swaps: bool) -> None:
    state = position("tri:9", stone, Rules(pie=True))
    bot = create_bot(parse_bot_spec(spec, get_game("y")), seed=1)
    bot.new_game(state.board, state.rules, Color.WHITE)
    assert bot.swap(state, Limit()) is swaps


@pytest.mark.parametrize("spec", ["mcts:playouts=1000", "heuristic"])
def test_pie_opening_is_not_the_centre(spec: str) -> None:
    state = GameState("tri:9", Rules(pie=True))
    move = create_bot(parse_bot_spec(spec, get_game("y")), seed=1).move(state, Limit())
    worth = first_stone_worth(state.board, misere=False)
    assert worth[move] < worth.max()


def test_mcts_keeps_its_tree_across_a_swap() -> None:
    board = parse_board("tri:7")
    state = position("tri:7", "d2", Rules(pie=True))
    bot = MctsBot(seed=1, playouts=400)
    bot.new_game(board, state.rules, Color.WHITE)
    bot.swap(state, Limit())
    state.play(-1)
    state.play(board.index_of("c3"))
    move = bot.move(state, Limit())
    assert state.is_legal(move)


# --- limits -------------------------------------------------------------------------------------------


def test_mcts_respects_a_time_limit() -> None:
    state = GameState("tri:11", Rules(pie=False))
    bot = MctsBot(seed=1)
    begin = time.perf_counter()
    bot.move(state, Limit(seconds=0.2))
    assert time.perf_counter() - begin < 0.5
    assert bot.last_search.simulations > 0


def test_limit_playouts_override_the_option() -> None:
    state = GameState("tri:7", Rules(pie=False))
    bot = MctsBot(seed=1, playouts=5000)
    bot.move(state, Limit(playouts=100))
    assert 100 <= bot.last_search.simulations < 200


# --- the kadon first-stone table ------------------------------------------------------------------------


def test_kadon_stone_gains_are_what_the_playout_kernel_measures() -> None:
    # The stored table took 2**18 completions per cell; 2**12 here (standard error 0.008 per cell) pins each entry
    # loosely and their level tightly.
    board = parse_board("kadon")
    fill = RandomFill(board)
    rng = np.random.default_rng(1)
    measured = []
    for cell in range(board.num_cells):
        state = GameState(board, Rules(pie=False))
        state.play(cell)
        winners, _ = fill.play([state], 4096, rng)
        measured.append((winners == Color.BLACK).mean() - 0.5)
    error = np.array(measured) - np.array(KADON_STONE_GAINS)
    assert np.abs(error).max() < 4.5 * 0.5 / 64
    assert abs(error.mean()) < 4.5 * 0.5 / 64 / math.sqrt(board.num_cells)


# --- specs, pickling and plugins ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "random",
        "random:swap_rate=0.2",
        "heuristic",
        "heuristic:temperature=0.5,swap_margin=0.1",
        "mcts",
        "mcts:playouts=1000,c=0.5,rave=500,batch=8,reuse=false",
        "mcts:seconds=0.1",
        f"{EXAMPLE_BOT}:ExampleBot",
    ],
)
def test_bot_spec_pickles_and_creates_a_bot(text: str) -> None:
    spec = parse_bot_spec(text, get_game("y"))
    again = pickle.loads(pickle.dumps(spec))
    assert again == spec
    bot = create_bot(again, seed=3)
    state = GameState("tri:5", Rules(pie=False))
    bot.new_game(state.board, state.rules, Color.BLACK)
    assert state.is_legal(bot.move(state, Limit(playouts=50)))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mcts:playouts=many", "not a valid int"),
        ("mcts:depth=3", "unknown option .depth. for bot .mcts.; accepted options: .*playouts"),
        ("heuristic:temperature", "must be written key=value"),
    ],
)
def test_bad_bot_options_are_named(text: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        parse_bot_spec(text, get_game("y"))


def test_negative_option_is_refused_when_the_bot_is_created() -> None:
    with pytest.raises(BotSpecError, match="playouts"):
        create_bot(parse_bot_spec("mcts:playouts=-5", get_game("y")))


def test_example_plugin_loads_and_beats_random() -> None:
    spec = parse_bot_spec(f"{EXAMPLE_BOT}:ExampleBot", get_game("y"))
    wins = 0
    for game in range(4):
        seats = [Seat("example", create_bot(spec, seed=game)), Seat("random", fast_bot("random", seed=game))]
        if game % 2:
            seats.reverse()
        wins += play_game(seats, Y, "tri:7", Rules(pie=True), seed=game).winner_name == "example"
    assert wins >= 3


def test_plugin_missing_file(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match="does not exist"):
        create_bot(parse_bot_spec(f"{tmp_path}/nowhere.py:Bot", get_game("y")))


@pytest.mark.parametrize(
    ("source", "class_name", "message"),
    [
        ("class Alpha:\n    pass\n\nclass Beta:\n    pass\n", "Gamma", "no class 'Gamma'; classes found: Alpha, Beta"),
        ("class Half:\n    def move(self, state, limit):\n        return 0\n", "Half",
         "lacks the bot method\\(s\\) new_game, swap, close"),
        ("from ytourney.players import BaseBot\n\nclass NoMove(BaseBot):\n    pass\n", "NoMove",
         "does not define move"),
        ("x = 1\n\ndef f(:\n    pass\n", "Bot", "syntax error at line 3"),
        ("import no_such_module_for_ytourney\n", "Bot", "failed to import: ModuleNotFoundError"),
    ],
    ids=["missing class", "lacking methods", "abstract", "syntax error", "import error"],
)
def test_plugin_faults_are_named(tmp_path: Path, source: str, class_name: str, message: str) -> None:
    path = tmp_path / "plugin.py"
    path.write_text(source)
    with pytest.raises(PluginError, match=message):
        create_bot(parse_bot_spec(f"{path}:{class_name}", get_game("y")))


def test_plugin_with_a_dataclass_loads(tmp_path: Path) -> None:
    path = tmp_path / "dc.py"
    path.write_text(
        "from __future__ import annotations\n"
        "from dataclasses import dataclass\n"
        "from ytourney.players import BaseBot\n\n"
        "@dataclass\nclass Weights:\n    centre: float = 1.0\n\n"
        "class Bot(BaseBot):\n"
        "    def move(self, state, limit):\n"
        "        return state.empty_cells()[0]\n"
    )
    bot = create_bot(parse_bot_spec(f"{path}:Bot", get_game("y")))
    assert bot.move(GameState("tri:3"), Limit()) == 0


def test_heuristic_first_stone_worth_prefers_the_centre() -> None:
    board = parse_board("tri:9")
    worth = first_stone_worth(board, misere=False)
    assert worth[board.index_of("c3")] > 0.5 > worth[board.index_of("a1")]
    assert np.isclose(worth[board.index_of("a1")], worth[board.index_of("i1")])


def test_heuristic_temperature_is_validated() -> None:
    with pytest.raises(ValueError):
        HeuristicBot(temperature=-1)


def test_mcts_stops_growing_the_tree_at_its_memory_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    import ytourney.games.y.bots.mcts as mcts_module

    monkeypatch.setattr(mcts_module, "MEMORY_BYTES", 1)  # the floor of 1000 nodes applies
    state = GameState("tri:6", Rules(pie=False))
    bot = MctsBot(seed=1, playouts=5_000, batch=2)
    move = bot.move(state, Limit())
    assert state.is_legal(move)
    assert bot.last_search.nodes <= 1000
    assert bot.last_search.simulations >= 5_000


def test_bridge_saves_name_the_other_cell_of_each_bridge() -> None:
    board = parse_board("tri:5")
    saves = bridge_saves(board)
    c2 = board.index_of("c2")
    named = {(board.names[a], board.names[y]) for a, b, y in saves[c2] if b >= 0}
    assert ("c1", "d1") in named and ("b2", "b3") in named
    c1 = board.index_of("c1")
    edge = {(board.names[a], board.names[y]) for a, b, y in saves[c1] if b < 0}
    assert edge == {("b2", "b1"), ("c2", "d1")}


def test_mcts_answers_a_bridge_intrusion() -> None:
    # Black's bridge c2-d3 on tri:7 (common cells c3 and d2); White intrudes at c3: Black keeps the link at d2.
    state = position("tri:7", "c2 a7 d3 c3")
    move = MctsBot(seed=3, playouts=2000).move(state, Limit())
    assert state.board.names[move] == "d2"
