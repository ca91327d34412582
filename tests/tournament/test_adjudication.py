"""Adjudication: the resign and draw rules in configs and `match`, applied by the referee, kept by records and exports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.errors import ConfigError
from ytourney.games.api import Color, Move, State
from ytourney.games.bot import BaseBot, Evaluation, Limit
from ytourney.games.record import GameRecord, Termination
from ytourney.games.registry import get_game
from ytourney.games.variant import load_variant
from ytourney.players.bots.mcts_bot import MctsBot
from ytourney.players.bots.random_bot import RandomBot
from ytourney.players.spec import create_bot, parse_bot_spec
from ytourney.publish.export import game_to_pgn
from ytourney.publish.game_pages import result_sentence
from ytourney.publish.sgf import game_to_sgf, read_sgf_games
from ytourney.tournament.adjudication import (
    DEFAULT_ADJUDICATION,
    NO_ADJUDICATION,
    Adjudication,
    Adjudicator,
    DrawRule,
    ResignRule,
)
from ytourney.tournament.config import parse_config
from ytourney.tournament.match import Seat, play_game
from ytourney.tournament.store import load_records

PLAYERS = "players: [{name: a, bot: random}, {name: b, bot: random}]\n"


class Reporter(BaseBot):
    """Plays the first legal move and reports the evaluations it is given, one per move (then None)."""

    name = "reporter"

    def __init__(self, reports: list[Any]) -> None:
        super().__init__()
        self.reports = list(reports)
        self.last: Any = None

    def move(self, state: State, limit: Limit) -> Move:
        self.last = self.reports.pop(0) if self.reports else None
        return state.legal_moves()[0]

    def evaluation(self) -> Any:
        return self.last


class Shuffler(BaseBot):
    """Slides one stone back and forth: no progress by any measure once the first slide is made."""

    name = "shuffler"

    def __init__(self) -> None:
        super().__init__()
        self.back: Move | None = None

    def move(self, state: State, limit: Limit) -> Move:
        if self.back is not None and state.is_legal(self.back):
            move, self.back = self.back, None
            return move
        move = state.legal_moves()[0]
        self.back = Move.step(move.target, move.source)
        return move


def _play(seats: list[Any], game: str = "y", board: str | None = "tri:5", adjudication: Adjudication | None = None,
          trusted: bool = True, **rules: Any) -> GameRecord:
    variant = load_variant(game, board, rules or None)
    return play_game([Seat(f"p{i}", bot, False, trusted) for i, bot in enumerate(seats)], variant,
                     adjudication=adjudication)


# --- config ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "message"), [
    ("adjudication: {resign: {movecount: -1}}", "adjudication.resign.movecount: expected a whole number >= 0"),
    ("adjudication: {resign: {movecount: 4, score: 0.5}}", "adjudication.resign.score: expected a number < 0.5"),
    ("adjudication: {resign: {twosided: true}}", "adjudication.resign.twosided: only used with movecount"),
    ("adjudication: {resign: {proved: maybe}}", "adjudication.resign.proved: expected true or false"),
    ("adjudication: {draw: {plies: 0}}", "adjudication.draw.plies: expected a whole number >= 1"),
    ("adjudication: {draw: {plies: soon}}", "adjudication.draw.plies: expected auto (the game's own number)"),
    ("adjudication: {drawn: off}", "adjudication.drawn: unknown key; did you mean 'draw'?"),
    ("adjudication: 7", "adjudication: expected a mapping with keys resign, draw"),
])
def test_config_errors_name_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(f"name: t\n{text}\n{PLAYERS}", source="t.yaml")
    assert f"t.yaml: {message}" in str(info.value)


def test_config_forms_and_defaults() -> None:
    def read(text: str) -> Adjudication:
        return parse_config(f"name: t\n{text}\n{PLAYERS}").adjudication

    assert read("") == DEFAULT_ADJUDICATION == Adjudication(ResignRule(proved=True, movecount=0), DrawRule(None))
    assert read("adjudication: off") == read("adjudication: {resign: off, draw: off}") == NO_ADJUDICATION
    assert read("adjudication: {resign: {movecount: 6, score: 0.1, twosided: true}, draw: {plies: 40}}") == (
        Adjudication(ResignRule(True, 6, 0.1, True), DrawRule(40)))


def test_the_defaults_leave_the_stored_key_of_older_folders_as_it_was() -> None:
    plain = parse_config(f"name: t\n{PLAYERS}")
    explicit = parse_config(f"name: t\nadjudication: {{resign: {{proved: true}}, draw: {{plies: auto}}}}\n{PLAYERS}")
    changed = parse_config(f"name: t\nadjudication: {{draw: {{plies: 50}}}}\n{PLAYERS}")
    assert "adjudication" not in plain.key() and plain.key() == explicit.key()
    assert changed.key()["adjudication"]["draw"] == {"plies": 50}


# --- the referee -------------------------------------------------------------------------------------------


def test_a_proved_loss_resigns_and_the_opponent_wins() -> None:
    record = _play([Reporter([]), Reporter([Evaluation(0.4), Evaluation(0.0, True)])],
                   adjudication=DEFAULT_ADJUDICATION)
    assert record.termination is Termination.ADJUDICATED_RESIGN
    assert record.winner is Color.BLACK and record.winner_name == "p0" and len(record.moves) == 4
    assert record.reason == "adjudicated: white resigned (its search proved the loss)"


def test_a_real_search_proves_its_loss_on_a_small_board() -> None:
    y = get_game("y")
    seats = [create_bot(parse_bot_spec("mcts:playouts=300", y), seed=seed) for seed in (1, 2)]
    record = _play(seats, board="tri:4", adjudication=DEFAULT_ADJUDICATION, pie=False)
    assert record.termination is Termination.ADJUDICATED_RESIGN and record.winner is Color.BLACK
    assert "proved the loss" in record.reason
    assert _play([create_bot(parse_bot_spec("mcts:playouts=300", y), seed=seed) for seed in (1, 2)],
                 board="tri:4", pie=False).termination.value == "connection"  # no adjudication: played out


def test_the_value_rule_counts_moves_in_a_row_and_two_sided_waits_for_the_opponent() -> None:
    low = [Evaluation(0.01)] * 2 + [Evaluation(0.5)] + [Evaluation(0.02)] * 3
    rule = Adjudication(ResignRule(proved=False, movecount=3, score=0.05), DrawRule(0))
    record = _play([Reporter(low), Reporter([])], adjudication=rule)
    assert record.termination is Termination.ADJUDICATED_RESIGN and record.winner is Color.WHITE
    assert len(record.moves) == 11  # Black's 6th move: the run was broken at its 3rd
    assert record.reason == "adjudicated: black resigned (its value stayed below 5% for 3 moves)"
    two = Adjudication(ResignRule(proved=False, movecount=3, score=0.05, twosided=True), DrawRule(0))
    assert _play([Reporter(low), Reporter([])], adjudication=two).termination.value == "connection"
    agreed = _play([Reporter(low), Reporter([Evaluation(0.99)] * 9)], adjudication=two)
    assert agreed.termination is Termination.ADJUDICATED_RESIGN and agreed.winner is Color.WHITE
    assert "its opponent's above 95%" in agreed.reason


def test_a_plugins_evaluation_is_checked() -> None:
    for report, words in ((Evaluation(1.5), "expected a number from 0 to 1"),
                          (Evaluation(0.5, True), "a proof is a value of 0"),
                          ("lost", "which is not an Evaluation or None"),
                          (Evaluation(float("nan")), "expected a number from 0 to 1")):
        record = _play([Reporter([]), Reporter([report])], adjudication=DEFAULT_ADJUDICATION, trusted=False)
        assert record.termination is Termination.PROTOCOL and record.winner is Color.BLACK, report
        assert words in record.reason
    fine = _play([Reporter([]), Reporter([Evaluation(0, True)])], adjudication=DEFAULT_ADJUDICATION, trusted=False)
    assert fine.termination is Termination.ADJUDICATED_RESIGN


def test_a_shuffling_slide_game_is_drawn_by_its_own_measure() -> None:
    rule = Adjudication(ResignRule(proved=False), DrawRule(12))
    record = _play([Shuffler(), Shuffler()], "sexta", None, adjudication=rule)
    assert record.termination is Termination.ADJUDICATED_DRAW and record.winner is None
    assert len(record.moves) <= 14  # the first slides may still make progress
    assert record.reason.startswith("adjudicated: drawn after 12 plies without progress (a side's largest group")
    default = _play([Shuffler(), Shuffler()], "sexta", None, adjudication=DEFAULT_ADJUDICATION)
    assert default.termination is Termination.ADJUDICATED_DRAW
    assert len(default.moves) <= get_game("sexta").no_progress_plies + 2


def test_placements_are_progress_so_the_draw_rule_never_cuts_a_y_game() -> None:
    rule = Adjudication(ResignRule(proved=False), DrawRule(1))
    record = _play([RandomBot(seed=3), RandomBot(seed=4)], adjudication=rule, pie=False)
    assert record.termination.value == "connection"


def test_each_game_measures_progress_from_its_position() -> None:
    for name in ("y", "tetra", "quinta", "sexta", "aliens-amazons", "singularity", "leap-over", "yvy"):
        game = get_game(name)
        state = load_variant(name).new_state()
        marks = game.progress_marks(state)
        assert marks and all(type(mark) is int for mark in marks), name
        adjudicator = Adjudicator(DEFAULT_ADJUDICATION, game, state)
        assert adjudicator.draw_plies == game.no_progress_plies
        assert (game.no_progress_plies > 0) == (name not in ("y", "yvy"))  # placement games never stall


def test_the_generic_mcts_reports_its_search() -> None:
    bot = MctsBot(seed=1, playouts=50)
    state = load_variant("quinta").new_state()
    bot.new_game(state.board, state.rules, state.to_move)
    assert bot.evaluation() is None
    bot.move(state, Limit())
    report = bot.evaluation()
    assert isinstance(report, Evaluation) and 0.0 <= report.value <= 1.0 and not report.proved


# --- records and exports -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def adjudicated() -> tuple[GameRecord, GameRecord]:
    resigned = _play([Reporter([]), Reporter([Evaluation(0.0, True)])], adjudication=DEFAULT_ADJUDICATION)
    drawn = _play([Shuffler(), Shuffler()], "quinta", None, adjudication=Adjudication(draw=DrawRule(10)))
    return resigned, drawn


def test_records_round_trip_through_jsonl_and_sgf(adjudicated: tuple[GameRecord, GameRecord]) -> None:
    for record in adjudicated:
        assert GameRecord.from_dict(record.to_dict()).to_dict() == record.to_dict()
        (back,) = read_sgf_games(game_to_sgf(record), "game.sgf")
        assert (back.termination, back.winner, back.reason, back.moves) == (
            record.termination, record.winner, record.reason, record.moves)
    assert "RE[B+R]" in game_to_sgf(adjudicated[0]) and "RE[0]" in game_to_sgf(adjudicated[1])


def test_pgn_says_adjudication_and_the_page_names_the_rule(adjudicated: tuple[GameRecord, GameRecord]) -> None:
    resigned, drawn = adjudicated
    pgn = game_to_pgn(resigned)
    assert '[Termination "adjudication"]' in pgn and '[YTermination "adjudicated-resign"]' in pgn
    assert "{adjudicated: white resigned (its search proved the loss)} 0-1" in " ".join(pgn.split())
    assert '[Result "1/2-1/2"]' in game_to_pgn(drawn)
    assert result_sentence(resigned) == ("p0 (black) wins by adjudication after 2 moves: white resigned (its search "
                                         "proved the loss)")
    assert result_sentence(drawn) == (f"Draw by adjudication after {len(drawn.moves)} moves: drawn after 10 plies "
                                      "without progress (a side's best open run of five at a new count)")


# --- the command line ---------------------------------------------------------------------------------------


def test_match_flags_write_the_config_and_end_games_by_the_rules(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = CliRunner().invoke(main, ["match", "a=random", "b=random", "--game", "sexta", "--draw", "16",
                                       "--resign", "movecount=4,score=0.02", "--games-per-pair", "2", "-q",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "adjudication:\n  resign:\n    movecount: 4\n    score: 0.02\n  draw:\n    plies: 16" in (
        out / "match.yaml").read_text()
    records = load_records(out)
    assert len(records) == 2 and {r.termination for r in records} == {Termination.ADJUDICATED_DRAW}
    again = CliRunner().invoke(main, ["match", "a=random", "b=random", "--game", "sexta", "--draw", "16",
                                      "--resign", "movecount=4,score=0.02", "--games-per-pair", "2", "-q",
                                      "--out", str(out)])
    assert again.exit_code == 0 and len(load_records(out)) == 2  # the same command resumes a finished match
    other = CliRunner().invoke(main, ["match", "a=random", "b=random", "--game", "sexta", "--draw", "20",
                                      "--games-per-pair", "2", "-q", "--out", str(out)])
    assert other.exit_code == 1 and "adjudication" in other.output  # other rules: another tournament, refused


@pytest.mark.parametrize(("flags", "message"), [
    (["--resign", "movecount=x"], "--resign movecount: expected a whole number; found str 'x'"),
    (["--resign", "sometimes"], "--resign 'sometimes': expected proved, off or KEY=VALUE pairs"),
    (["--resign", "score=0.1"], "--resign score: only used with movecount"),
    (["--draw", "0"], "--draw plies: expected a whole number >= 1; found 0"),
])
def test_bad_adjudication_flags_are_one_clean_line(tmp_path: Path, flags: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["match", "a=random", "b=random", *flags, "--out", str(tmp_path / "m")])
    assert result.exit_code == 1 and message in result.output, result.output
    assert "Traceback" not in result.output and not (tmp_path / "m").exists()


def test_validate_shows_the_rules_and_refuses_a_bad_one_in_one_line(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(f"name: g\ngame: sexta\nadjudication: {{resign: {{movecount: 6, score: 0.04}}}}\n{PLAYERS}")
    result = CliRunner().invoke(main, ["validate", str(good), "--no-start"])
    assert result.exit_code == 0, result.output
    assert ("  adjudicate resign on a proved loss; resign after 6 moves valued below 4%; draw after 120 plies without "
            "progress (a side's largest group at a new size)") in result.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"name: b\nadjudication: {{resign: {{movecount: 6, score: 0.6}}}}\n{PLAYERS}")
    result = CliRunner().invoke(main, ["validate", str(bad), "--no-start"])
    assert result.exit_code == 1
    assert result.output == f"Error: {bad}: adjudication.resign.score: expected a number < 0.5; found 0.6\n"
