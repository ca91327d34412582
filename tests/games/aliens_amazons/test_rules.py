"""Aliens and Amazons pinned to the rulebook text and DESIGN §1b: placing order, when each side starts moving,
steps, jump chains with their captures (forks at the pentads, along the edge only), both endings and the threshold."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from ytourney.boards.board import parse_board
from ytourney.cli import main
from ytourney.errors import GameSpecError, IllegalMoveError, NotationError
from ytourney.games.aliens_amazons import tables as t
from ytourney.games.aliens_amazons.bots import HeuristicBot
from ytourney.games.aliens_amazons.state import AliensAmazonsState
from ytourney.games.api import Color, Move, MoveKind
from ytourney.games.bot import Limit
from ytourney.games.registry import get_game
from ytourney.players.bots.mcts_bot import MctsBot

GAME = get_game("aliens-amazons")
BOARD = parse_board("kadon")
N = BOARD.index_of


def new(**rules: object) -> AliensAmazonsState:
    return GAME.new_state(BOARD, GAME.parse_rules(rules))


def position(aliens: list[str], amazons: list[str], *, to_move: Color = Color.WHITE, placed: int = 30,
             captured: int = 0, **rules: object) -> AliensAmazonsState:
    """A hand-made position: Aliens (White) and Amazons (Black) on the named nodes, counters as given."""
    state = new(**rules)
    state.setup(map(N, aliens), map(N, amazons), to_move=to_move, amazons_placed=placed, captured=captured)
    return state


def names(moves: list[Move]) -> set[str]:
    return {GAME.format_move(BOARD, m) for m in moves}


def play(state: AliensAmazonsState, *moves: str) -> None:
    for text in moves:
        state.play(GAME.parse_move(BOARD, text))


# --- the threshold ------------------------------------------------------------------------------------------


def test_threshold_is_ten_on_kadon_with_the_corner_trio_as_witness() -> None:
    tables = t.tables_for("kadon")
    assert tables.threshold == 10
    assert {BOARD.names[a] for a in tables.witness} in ({"A1", "B1", "A2"}, {"H1", "I1", "J2"}, {"A8", "J8", "A9"})
    mask = 0
    for a in tables.witness:
        mask |= tables.need[a]
    cover = {BOARD.names[c] for c in range(BOARD.num_cells) if mask >> c & 1} - {BOARD.names[a] for a in
                                                                                   tables.witness}
    assert len(cover) == 10
    # those ten Amazons really immobilize the three Aliens, and any nine leave a move
    trio = [BOARD.names[a] for a in tables.witness]
    assert position(trio, sorted(cover)).is_over is False
    stuck = position(trio, sorted(cover))
    assert stuck.legal_moves() == []
    for missing in sorted(cover):
        assert position(trio, sorted(cover - {missing})).legal_moves(), missing


def test_threshold_search_is_exact_on_a_toy_need_table() -> None:
    # four nodes whose needs overlap: the best trio shares the most
    need = [0b000011, 0b000110, 0b001100, 0b110000]
    assert t.immobilizing_minimum(need) == (1, (0, 1, 2))


def test_a_lone_corner_alien_needs_six_amazons_and_jumps_have_one_middle() -> None:
    tables = t.tables_for("kadon")
    assert min(len(nodes) for nodes in tables.need_nodes) == 6
    assert {BOARD.names[c] for c in tables.need_nodes[N("A1")]} == {"B1", "A2", "B2", "C1", "A3", "C3"}
    for (a, c), over in tables.middle.items():
        assert c not in BOARD.neighbors[a] and over in BOARD.neighbors[a]


def test_threshold_rule_option_and_its_checks() -> None:
    assert new().threshold == 10
    assert new(threshold=5).threshold == 5
    assert GAME.rules_dict(GAME.parse_rules(None)) == {"pie": False, "max_plies": 1000, "threshold": 10,
                                                       "amazons": 30}
    assert GAME.parse_rules({"threshold": None}) == GAME.parse_rules(None)  # records before the value was stored
    assert "threshold 10" in GAME.rules_text(GAME.parse_rules(None))
    assert "None" not in GAME.rules_text(GAME.parse_rules(None))
    with pytest.raises(GameSpecError, match="threshold"):
        GAME.parse_rules({"threshold": 61})


def test_the_amazons_rule_is_read_checked_and_played() -> None:
    state = new(amazons=40)
    assert state.amazons_in_hand == 40 and state.amazons_left == 40 and state.threshold == 10
    play(state, "G6", "A1", "C3", "B1", "F2", "I1")
    assert state.placing(Color.BLACK) and state.amazons_in_hand == 37
    assert GAME.rules_dict(GAME.parse_rules({"amazons": 45}))["amazons"] == 45
    for bad in (9, 61, "40", 40.0, True):
        with pytest.raises(GameSpecError, match="amazons"):
            GAME.parse_rules({"amazons": bad})
    late = new(amazons=40)
    late.setup(map(N, ["A1", "I1", "A9"]), [N("E5")], to_move=Color.BLACK, amazons_placed=38)
    assert late.placing(Color.BLACK) and late.amazons_in_hand == 2 and len(late.legal_moves()) == 89


def test_with_more_amazons_the_aliens_need_more_captures() -> None:
    """amazons=31: the Aliens win once 9 are left, so a capture that leaves 10 does not end the game."""
    state = new(amazons=31)
    state.setup(map(N, ["C3", "A9", "I1"]), [N("C4"), N("E5")], captured=20)
    play(state, "C3-C5")
    assert state.captured == 21 and state.amazons_left == 10 and not state.is_over
    state = new(amazons=31)
    state.setup(map(N, ["C3", "A9", "I1"]), [N("C4"), N("E5")], captured=21)
    play(state, "C3-C5")
    assert state.is_over and state.outcome.termination.value == "captures"
    with pytest.raises(GameSpecError, match="unknown aliens-amazons rule 'misere'"):
        GAME.parse_rules({"misere": True})
    with pytest.raises(GameSpecError, match="expected kadon"):
        GAME.parse_board("tri:11")


# --- placing ------------------------------------------------------------------------------------------------


def test_aliens_place_first_then_alternate_and_move_after_their_third() -> None:
    state = new()
    assert state.to_move is Color.WHITE and GAME.first_color is Color.WHITE
    assert len(state.legal_moves()) == 93 and not state.can_swap()
    play(state, "G6", "A1", "C3", "B1", "F2")
    assert state.to_move is Color.BLACK and state.amazons_placed == 2
    play(state, "I1")
    assert state.to_move is Color.WHITE and state.aliens_on_board == 3
    moves = state.legal_moves()
    assert all(m.kind is not MoveKind.PLACE for m in moves)
    assert "G6-G7" in names(moves) and "F2-F1" in names(moves)
    play(state, "G6-G7")
    # the Amazons still place: 27 in hand
    assert all(m.kind is MoveKind.PLACE for m in state.legal_moves())
    assert state.amazons_in_hand == 27
    with pytest.raises(IllegalMoveError, match="A1-A2: the Amazons are still placing \\(3 of 30 placed\\)"):
        play(state, "A1-A2")


def test_amazons_move_only_once_all_thirty_are_placed_counting_the_captured() -> None:
    state = new()
    play(state, "G6", "A1", "C3", "B1", "F2", "H1")
    # the Alien on C3 jumps B2? (empty) no: capture the Amazon on C... place one to be captured
    play(state, "F2-F3", "C4")
    play(state, "C3-C5")  # jumps the Amazon on C4
    assert state.captured == 1 and state.cells[N("C4")] == t.EMPTY
    rng = random.Random(3)
    while state.amazons_placed < 30 and not state.is_over:
        moves = state.legal_moves()
        if state.to_move is Color.BLACK:
            assert all(m.kind is MoveKind.PLACE for m in moves)
            state.play(rng.choice(moves))
        else:
            state.play(next((m for m in moves if m.kind is MoveKind.STEP), moves[0]))
    if not state.is_over:
        if state.to_move is Color.WHITE:
            state.play(next(m for m in state.legal_moves() if m.kind is MoveKind.STEP))
        assert state.to_move is Color.BLACK
        assert all(m.kind is MoveKind.STEP for m in state.legal_moves())
        with pytest.raises(IllegalMoveError, match="no stones in hand"):
            state.play(Move.place(next(c for c, s in enumerate(state.cells) if s == t.EMPTY)))


def test_placing_on_an_occupied_node_is_refused() -> None:
    state = new()
    play(state, "E5")
    with pytest.raises(IllegalMoveError, match="E5: E5 is occupied"):
        play(state, "E5")


# --- moving -------------------------------------------------------------------------------------------------


def test_alien_steps_and_a_single_jump_captures() -> None:
    state = position(["G6", "A1", "I1"], ["G7"])
    moves = names(state.legal_moves())
    assert {"G6-G5", "G6-H5", "G6-F6", "G6-H6", "G6-F7", "G6-H7"} <= moves
    assert "G6-G7" not in moves
    play(state, "G6-H7")
    assert state.cells[N("G7")] == t.EMPTY and state.cells[N("H7")] == t.ALIEN and state.captured == 1


def test_jumping_an_alien_captures_nothing() -> None:
    state = position(["C3", "D3", "A9"], ["H1"])
    assert "C3-E3" in names(state.legal_moves())
    play(state, "C3-E3")
    assert state.cells[N("D3")] == t.ALIEN and state.captured == 0


def test_jump_chains_every_prefix_is_a_move_and_capture_is_optional() -> None:
    # C3 over C4 to C5, then over D5? build a two-jump chain: C3 -> C5 (over C4) -> E5 (over D5)
    state = position(["C3", "A9", "I1"], ["C4", "D5"])
    landing = [BOARD.names[c] for c in BOARD.continuations(N("C5"), N("D5"))]
    moves = names(state.legal_moves())
    assert "C3-C5" in moves and "C3-C4" not in moves
    assert {f"C3-C5-{c}" for c in landing} <= moves
    assert "C3-D3" in moves  # a step instead: capturing is not mandatory
    play(state, f"C3-C5-{landing[0]}")
    assert state.captured == 2 and state.cells[N("C4")] == state.cells[N("D5")] == t.EMPTY


def test_a_chain_without_a_capture_never_lands_twice_nor_jumps_back_over_an_alien() -> None:
    state = position(["C3", "D3", "A9"], ["H1"])
    assert not any(m.kind is MoveKind.JUMP and len(m.path) > 2 and m.path[-1] == N("C3")
                   for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="lands on C3 again with no capture since"):
        play(state, "C3-E3-C3")


REVISIT_ALIENS = ["I7", "E1", "G6"]
REVISIT_AMAZONS = ["B4", "J5", "L5", "H8", "D3", "E5", "D7", "F5", "C2", "B6", "K6", "E2", "B3", "L6", "I5", "E8",
                   "H6", "D1", "F6", "F1", "J4", "E9", "C3", "A7", "J6", "K3", "B1", "H5", "D2", "E4", "D6", "A6"]


def test_a_capture_lets_a_chain_land_again_where_it_has_been_its_start_included() -> None:
    """DESIGN §1b: E1 over D1 (an Amazon, captured) to C1, over D2 to E3, over E2 back to its start E1."""
    state = position(REVISIT_ALIENS, REVISIT_AMAZONS)
    assert "E1-C1-E3-E1" in names(state.legal_moves())
    play(state, "E1-C1-E3-E1")
    assert state.captured == 3 and state.cells[N("E1")] == t.ALIEN
    assert all(state.cells[N(n)] == t.EMPTY for n in ("D1", "D2", "E2", "C1", "E3"))
    assert sum(1 for stone in state.cells if stone == t.ALIEN) == 3
    state.kernel.undo()
    assert state.kernel.cells[N("E1")] == t.ALIEN and state.kernel.captured == 0


def test_after_a_capture_only_the_jumps_over_aliens_must_land_anew() -> None:
    """Landings since the last capture stay distinct (else jumps over Aliens alone would loop for ever)."""
    state = position(REVISIT_ALIENS, REVISIT_AMAZONS)
    for move in state.legal_moves():
        path, segment = move.path, [move.path[0]]
        for a, c in zip(path, path[1:]):
            assert c not in segment, GAME.format_move(BOARD, move)
            over = t.tables_for("kadon").middle.get((a, c))
            segment = [c] if over is not None and over in map(N, REVISIT_AMAZONS) else [*segment, c]


def test_jumps_fork_at_a_pentad() -> None:
    state = position(["D4", "A9", "I1"], ["E5"])
    moves = names(state.legal_moves())
    assert {"D4-F5", "D4-E6"} <= moves


def test_edge_stones_are_jumped_only_along_the_edge() -> None:
    state = position(["E2", "D1", "A9"], ["E1", "C1"])
    moves = names(state.legal_moves())
    assert not any(m.startswith("E2-") and "E1" in m for m in moves)  # E2 over E1 leaves the board: no jump
    assert {"D1-F1", "D1-B1"} <= moves  # along the edge, over E1 and over C1


def test_amazons_step_one_node_and_never_jump() -> None:
    state = position(["A1", "I1", "A9"], ["G6", "G7"], to_move=Color.BLACK)
    moves = state.legal_moves()
    assert all(m.kind is MoveKind.STEP for m in moves)
    assert "G6-H7" not in names(moves) and "G6-G5" in names(moves)
    with pytest.raises(IllegalMoveError, match="Amazons never jump"):
        play(state, "G6-H7")
    with pytest.raises(IllegalMoveError, match="A1 holds no Amazon"):
        play(state, "A1-A2")


def test_refusals_name_the_move_and_the_reason() -> None:
    state = position(["C3", "A9", "I1"], ["C4"])
    with pytest.raises(IllegalMoveError, match="C3-C5-C7: D5? is empty|C3-C5-C7"):
        play(state, "C3-C5-C7")
    with pytest.raises(IllegalMoveError, match="E5-E6: E5 holds no Alien"):
        play(state, "E5-E6")
    with pytest.raises(IllegalMoveError, match="C3-E3: D3 is empty"):
        play(state, "C3-E3")
    with pytest.raises(IllegalMoveError, match="no passing"):
        state.play(GAME.parse_move(BOARD, "pass"))
    with pytest.raises(NotationError, match="not on a line from E5"):
        GAME.parse_move(BOARD, "E5-E8")


# --- endings ------------------------------------------------------------------------------------------------


def test_amazons_win_when_the_aliens_to_move_have_none() -> None:
    cover = ["A3", "A4", "B2", "B3", "C1", "C2", "C3", "C4", "D1"]  # D3 still open
    state = position(["A1", "B1", "A2"], [*cover, "E3"], to_move=Color.BLACK)
    assert state.play(GAME.parse_move(BOARD, "E3-E4")) is None  # the hole stays: the Aliens move on
    assert "B1-D3" in names(state.legal_moves())
    state = position(["A1", "B1", "A2"], [*cover, "E3"], to_move=Color.BLACK)
    outcome = state.play(GAME.parse_move(BOARD, "E3-D3"))
    assert outcome is not None and outcome.winner is Color.BLACK and outcome.termination.value == "immobilized"
    assert GAME.views.highlight(state) == {N("A1"), N("B1"), N("A2")}
    assert "immobilizing" in GAME.views.win_text(outcome.termination, state.rules)


def test_aliens_win_when_fewer_amazons_are_left_than_the_threshold() -> None:
    state = position(["C3", "A9", "I1"], ["C4"], captured=20)
    assert state.amazons_left == 10 and not state.is_over
    outcome = state.play(GAME.parse_move(BOARD, "C3-C5"))
    assert outcome is not None and outcome.winner is Color.WHITE and outcome.termination.value == "captures"
    assert "9 Amazons left" in outcome.reason
    # with a lower threshold the same capture does not end the game
    lower = position(["C3", "A9", "I1"], ["C4", "M5"], captured=20, threshold=9)
    assert lower.play(GAME.parse_move(BOARD, "C3-C5")) is None


def test_move_limit_is_a_draw() -> None:
    state = new(max_plies=8)
    play(state, "A1", "E5", "I1", "G6", "A9", "C3", "A1-A2", "F6")
    assert state.outcome is not None and state.outcome.winner is None
    assert state.outcome.termination.value == "move-limit"


def test_pie_is_off_by_default_and_takes_the_aliens_when_on() -> None:
    assert not new().can_swap()
    state = new(pie=True)
    play(state, "E5")
    assert state.can_swap()
    play(state, "swap")
    assert state.swapped and state.to_move is Color.BLACK and state.color_of_seat(1) is Color.WHITE


# --- notation -----------------------------------------------------------------------------------------------


def test_notation_round_trips() -> None:
    for text, kind in (("E5", MoveKind.PLACE), ("e5-e6", MoveKind.STEP), ("C3-C5", MoveKind.JUMP),
                       ("C3-C5-E5", MoveKind.JUMP), ("swap", MoveKind.SWAP), ("pass", MoveKind.PASS)):
        move = GAME.parse_move(BOARD, text)
        assert move.kind is kind
        assert GAME.format_move(BOARD, move) == text.upper() if kind not in (MoveKind.SWAP, MoveKind.PASS) else text
        assert GAME.parse_move(BOARD, GAME.format_move(BOARD, move)) == move
    for bad, message in (("Z9", "unknown node"), ("E5-", "unknown node"), ("F8-F6xG6", "captures are implied"),
                         ("E5-E9", "not on a line")):
        with pytest.raises(NotationError, match=message):
            GAME.parse_move(BOARD, bad)


def test_random_games_round_trip_and_end() -> None:
    rng = random.Random(5)
    for _ in range(3):
        state = new()
        while not state.is_over:
            moves = state.legal_moves()
            for move in moves[:20]:
                assert GAME.parse_move(BOARD, GAME.format_move(BOARD, move)) == move
            state.play(rng.choice(moves))
        assert state.outcome.termination.value in ("captures", "immobilized", "move-limit")


# --- bots and the CLI ---------------------------------------------------------------------------------------


def test_bots_answer_legal_moves() -> None:
    state = new()
    play(state, "E5", "A1", "G6", "I1", "F7", "A9")
    for bot in (HeuristicBot(seed=1), MctsBot(seed=1, playouts=30)):
        move = GAME.coerce_move(BOARD, bot.move(state, Limit()))
        assert state.is_legal(move)


def test_heuristic_aliens_take_the_longest_capture() -> None:
    state = position(["C3", "A9", "I1"], ["C4", "D5"])
    move = HeuristicBot(seed=0).move(state, Limit())
    assert move.kind is MoveKind.JUMP and len(move.path) == 3


def test_cli_match(tmp_path) -> None:
    # mcts's Amazons keep their stones safe against random Aliens, so a game can run long: a short move limit
    result = CliRunner().invoke(main, ["match", "random", "mcts:playouts=50", "--game", "aliens-amazons",
                                       "--games-per-pair", "2", "--rule", "max_plies=150",
                                       "--out", str(tmp_path / "m")])
    assert result.exit_code == 0, result.output


# --- the Amazons' knowledge for the generic mcts ------------------------------------------------------------


def searched_moves(state: object) -> list[Move]:
    """The moves the game's knowledge gives the search to expand."""
    return [state.move_of(a) for a in GAME.knowledge(BOARD, state.rules).search_actions(state.kernel)]


def test_searched_amazon_moves_leave_no_capture_open() -> None:
    from ytourney.games.aliens_amazons import policy  # noqa: PLC0415

    state = position(["E5"], ["E6", "A1", "C1"], to_move=Color.BLACK)  # E6 is open to E5-E7 unless E7 is filled
    assert policy.capture_open(list(state.cells), state.tables)
    searched = searched_moves(state)
    assert searched and set(searched) <= set(state.legal_moves())
    for move in searched:
        after = state.copy()
        after.play(move)
        assert not policy.capture_open(list(after.cells), after.tables), GAME.format_move(BOARD, move)
    assert searched_moves(state.copy()) == searched
    aliens = position(["E5"], ["E6"])
    assert set(searched_moves(aliens)) == set(aliens.legal_moves())  # the Aliens' moves are not narrowed


def test_loose_counts_amazons_with_both_ends_of_a_line_empty() -> None:
    from ytourney.games.aliens_amazons import policy  # noqa: PLC0415

    corner = position(["E5"], ["A1"])
    assert policy.loose(list(corner.cells), corner.tables) == 0  # nothing jumps a corner stone
    open_stone = position(["A9"], ["E5"])
    assert policy.loose(list(open_stone.cells), open_stone.tables) == 1


def test_records_and_exports_show_the_computed_threshold_never_none() -> None:
    from ytourney.games.record import GameRecord
    from ytourney.games.termination import Termination
    from ytourney.publish.export import game_to_pgn, to_jsonl
    from ytourney.publish.sgf import game_to_sgf

    moves = ("B5", "J4", "L6", "D5", "G7", "A6", "B5-B6")
    record = GameRecord(
        tournament="aa", round=1, board="kadon", rules=GAME.parse_rules(None), handicap=0, first="ann",
        second="bob", black="bob", white="ann", moves=moves, winner=Color.WHITE,
        termination=Termination("captures"), move_seconds=(0.1,) * len(moves), seed=3,
        started="2026-01-02T03:04:05Z", finished="2026-01-02T03:04:06Z", id=1, game="aliens-amazons")
    assert record.rules_dict["threshold"] == 10
    pgn, jsonl, sgf = game_to_pgn(record), to_jsonl([record]), game_to_sgf(record)
    assert "threshold=10" in pgn and '"threshold": 10' in jsonl and "threshold" in sgf and "10" in sgf
    for text in (pgn, jsonl, sgf):
        assert "None" not in text and "null" not in text
