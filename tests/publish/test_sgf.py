"""SGF both ways: GM[y] export, import of ours and morat-style files, the round trip, illegal move lists refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.errors import RecordError
from ytourney.games.record import GameRecord, Termination
from ytourney.games.registry import get_game
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.players.spec import create_bot, parse_bot_spec
from ytourney.publish.sgf import game_to_sgf, read_sgf_games
from ytourney.tournament.match import Seat, play_game

KEPT = ("id", "tournament", "round", "board", "rules", "handicap", "first", "second", "black", "white", "moves",
        "winner", "winner_name", "termination", "reason", "seed")


def game(seed: int, board: str = "tri:6", rules: Rules = Rules(), handicap: int = 0,
         players: tuple[str, str] = ("ann", "bob")) -> GameRecord:
    seats = [Seat(name, create_bot(parse_bot_spec("random", get_game("y")), seed + i)) for i, name in enumerate(players)]
    return play_game(seats, get_game("y"), board, rules, handicap, seed=seed, tournament="cup", round_number=2, game_id=seed)


def same(left: GameRecord, right: GameRecord) -> bool:
    return all(getattr(left, key) == getattr(right, key) for key in KEPT)


@pytest.mark.parametrize("seed", range(12))
def test_export_then_import_gives_the_same_record(seed: int) -> None:
    rules = Rules(pie=seed % 3 != 0, misere=seed % 4 == 1)
    record = game(seed, board="kadon" if seed == 5 else "tri:6", rules=rules, handicap=2 if seed == 7 else 0)
    (back,) = read_sgf_games(game_to_sgf(record), "x.sgf")
    assert same(record, back), (record, back)


def test_a_fault_keeps_its_termination_and_reason() -> None:
    record = game(1)
    record = GameRecord(**{**record.__dict__, "moves": record.moves[:3], "move_seconds": record.move_seconds[:3],
                           "termination": Termination.TIME, "reason": "took 3.2s, 2s allowed] [x"})
    text = game_to_sgf(record)
    assert "GM[y]" in text and "YT[time]" in text
    (back,) = read_sgf_games(text, "x.sgf")
    assert same(record, back)


def morat_text(record: GameRecord) -> str:
    """The game as morat writes it: GM[y], its first mover called W, colours by move order, no swap."""
    letters = "WB" * len(record.moves)
    moves = "".join(f";{letter}[{move}]" for letter, move in zip(letters, record.moves))
    winner = "W" if record.winner_name == record.first else "B"
    size = record.board.split(":")[1]
    return f"(;FF[4]GM[y]SZ[{size}]PW[{record.first}]PB[{record.second}]RE[{winner}+]{moves})"


def test_a_morat_style_game_reads_by_move_order() -> None:
    record = game(3, rules=Rules(pie=False), players=("morat", "other"))
    (back,) = read_sgf_games(morat_text(record), "m.sgf")
    assert back.moves == record.moves and back.first == "morat" and back.second == "other"
    assert back.winner_name == record.winner_name and back.termination is CONNECTION


@pytest.mark.parametrize(("text", "message"), [
    ("(;GM[y]SZ[5];B[a1];W[a1])", "x.sgf: move 2 ('a1') is illegal"),
    ("(;GM[y]SZ[5];B[a1];W[e5])", "x.sgf: move 2 ('e5') is illegal"),
    ("(;GM[y]SZ[5];B[a1];W[b1];SW[])", "x.sgf: move 3 ('swap') is illegal"),
    ("(;GM[1]SZ[5];B[a1])", "x.sgf: GM[1] is not a game ytourney plays; expected GM[y]"),
    ("(;GM[y];B[a1])", "x.sgf: no board"),
    ("(;GM[y]SZ[5]RE[B+];B[a1];W[b1])", "RE[B+] says a win for B, but this game of y is not over after 2 moves"),
    ("(;GM[y]SZ[5];B[a1]", "not readable SGF"),
])
def test_bad_games_are_refused_with_file_and_move(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=re.escape(message)):
        read_sgf_games(text, "x.sgf")


def write_games(folder: Path, records: list[GameRecord]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for record in records:
        (folder / f"g{record.id}.sgf").write_text(game_to_sgf(record))


def test_import_writes_a_results_folder_every_command_reads(tmp_path: Path) -> None:
    records = [game(seed, players=pair) for seed, pair in enumerate([("ann", "bob"), ("bob", "cy"), ("cy", "ann"),
                                                                    ("ann", "cy")], start=1)]
    write_games(tmp_path / "sgf", records[:3])
    (tmp_path / "one.sgf").write_text(morat_text(game(9, rules=Rules(pie=False), players=("dee", "ann"))))
    out = tmp_path / "imported"
    result = CliRunner().invoke(main, ["import", str(tmp_path / "sgf"), str(tmp_path / "one.sgf"), "--out", str(out)])
    assert result.exit_code == 1 and "more than one rules" in result.stderr and not out.exists()
    result = CliRunner().invoke(main, ["import", str(tmp_path / "sgf"), "--out", str(out), "--name", "elsewhere"])
    assert result.exit_code == 0, result.output
    assert "imported 3 games of 3 players from 3 file(s)" in result.stderr
    for command in (["ratings"], ["crosstable"]):
        shown = CliRunner().invoke(main, [*command, str(out)])
        assert shown.exit_code == 0, shown.output
    # the config reads, and its players are refused even without starting them: imported games cannot be added to
    checked = CliRunner().invoke(main, ["validate", str(out / "config.yaml"), "--no-start"])
    assert checked.exit_code == 1 and "imported-player-cannot-be-started" in checked.output, checked.output
    lines = CliRunner().invoke(main, ["export", str(out)]).stdout.splitlines()
    back = [GameRecord.from_dict(json.loads(line)) for line in lines]
    assert [r.tournament for r in back] == ["elsewhere"] * 3
    for original, imported in zip(records, back):
        assert all(getattr(original, key) == getattr(imported, key) for key in KEPT if key != "tournament")
    again = CliRunner().invoke(main, ["import", str(tmp_path / "sgf"), "--out", str(out)])
    assert again.exit_code == 1 and "already holds a results store" in again.stderr


def test_an_illegal_move_list_writes_nothing(tmp_path: Path) -> None:
    write_games(tmp_path / "sgf", [game(1), game(2)])
    (tmp_path / "sgf" / "bad.sgf").write_text("(;FF[4]GM[y]SZ[6]PB[a]PW[b];B[c2];W[c2])")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", str(tmp_path / "sgf"), "--out", str(out)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.count("\n") == 1 and "bad.sgf: move 2 ('c2') is illegal" in result.stderr
    assert not out.exists()
    missing = CliRunner().invoke(main, ["import", str(tmp_path / "nope.sgf"), "--out", str(out)])
    assert missing.exit_code == 1 and "does not exist" in missing.stderr


def test_a_file_named_twice_is_refused_not_imported_twice(tmp_path: Path) -> None:
    write_games(tmp_path / "sgf", [game(1), game(2)])
    inner = tmp_path / "sgf" / sorted(p.name for p in (tmp_path / "sgf").iterdir())[0]
    out = tmp_path / "out"
    for paths in ([inner, inner], [tmp_path / "sgf", inner]):
        result = CliRunner().invoke(main, ["import", *map(str, paths), "--out", str(out)])
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert f"SGF file '{inner}' is given twice" in result.stderr and "imported twice" in result.stderr
        assert not out.exists()


@pytest.mark.parametrize(("game", "message"), [
    ("y", "x.sgf: no board: give SZ[N] for tri:N (or YB[spec])"),
    ("ytourney-tetra", "x.sgf: no board: give YB[spec] with a board of tetra: kadon"),
    ("ytourney-yvy", "x.sgf: no board: give YB[spec] with a board of yvy: 'hex:N' with 3 <= N <= 12"),
])
def test_a_game_without_a_board_is_told_how_its_game_names_one(game: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_sgf_games(f"(;FF[4]GM[{game}]PB[a]PW[b];B[a1])", "x.sgf")
    assert str(caught.value).startswith(message)


def test_a_handicap_game_is_written_without_the_pie_and_reads_back_the_same() -> None:
    from ytourney.publish.game_facts import move_count, rules_in_play

    record = game(3, handicap=3)  # the tournament's rules say pie on; a handicap game has none
    assert record.rules.pie and rules_in_play(record)["pie"] is False
    text = game_to_sgf(record)
    assert "RU[Y]" in text and "RU[Y pie]" not in text
    (back,) = read_sgf_games(text, "x.sgf")
    assert same(record, back)
    assert move_count(record) == len(record.moves) - 2  # its 3 stones are one move
    assert "RU[Y pie]" in game_to_sgf(game(3))
