"""SGF import of every registered game: ytourney's own export reads back for every game and rule setting, RU is
read by the game's typed rule reader, and the replay, not RE or YT, decides how a game ended."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ytourney.cli import main
from ytourney.errors import RecordError
from ytourney.games.api import Game
from ytourney.games.record import GameRecord, Termination
from ytourney.games.registry import all_games
from ytourney.games.rules import rule_from_text
from ytourney.players.spec import create_bot, parse_bot_spec
from ytourney.publish.sgf import game_to_sgf, read_sgf_games
from ytourney.tournament.match import Seat, play_game

GAMES = dict(all_games())
KEPT = ("game", "board", "rules", "handicap", "first", "second", "black", "white", "moves", "winner", "termination",
        "reason", "seed", "round", "id", "tournament", "score")


def rule_settings(game: Game) -> list[dict[str, Any]]:
    """The defaults, then each option moved off its default once (ints to their low bound: short games)."""
    settings_ = [{}]
    for key, option in game.rule_options.items():
        if option.type is bool:
            settings_.append({key: not option.default})
        elif option.choices:
            settings_ += [{key: choice} for choice in option.choices if choice != option.default]
        elif option.type is int:
            low = int(option.low if option.low is not None else 1)
            settings_.append({key: low if option.default is not None else low + 2})
    return settings_


CASES = [(name, rules) for name, game in GAMES.items() for rules in rule_settings(game)]


def played(game: Game, rules: dict[str, Any], seed: int = 1, players: tuple[str, str] = ("ann", "bob")) -> GameRecord:
    seats = [Seat(name, create_bot(parse_bot_spec("random", game), seed + i)) for i, name in enumerate(players)]
    return play_game(seats, game, None, game.parse_rules(rules), 0, seed=seed, tournament="cup", round_number=1,
                     game_id=seed)


def same(left: GameRecord, right: GameRecord) -> list[str]:
    return [key for key in KEPT if getattr(left, key) != getattr(right, key)]


@pytest.mark.parametrize(("name", "rules"), CASES, ids=[f"{n}-{json.dumps(r)}" for n, r in CASES])
def test_every_game_and_rule_setting_reads_back_as_exported(name: str, rules: dict[str, Any]) -> None:
    for seed in (1, 2):
        record = played(GAMES[name], rules, seed)
        (back,) = read_sgf_games(game_to_sgf(record), "x.sgf")
        assert same(record, back) == [], (record, back)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_imports_through_the_cli_and_exports_the_same_moves(tmp_path: Path, name: str) -> None:
    game = GAMES[name]
    records = [played(game, rule_settings(game)[-1], seed, pair)
               for seed, pair in enumerate([("ann", "bob"), ("bob", "cy"), ("cy", "ann")], start=1)]
    folder = tmp_path / "sgf"
    folder.mkdir()
    for record in records:
        (folder / f"g{record.id}.sgf").write_text(game_to_sgf(record))
    result = CliRunner().invoke(main, ["import", str(folder), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["export", str(tmp_path / "out"), "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    back = [GameRecord.from_dict(json.loads(line)) for line in result.stdout.splitlines()]
    assert [(r.moves, r.winner, r.termination, r.rules, r.black, r.white) for r in back] == \
        [(r.moves, r.winner, r.termination, r.rules, r.black, r.white) for r in records]


def forfeit_sgf(game: Game, ru: str, extra: str = "") -> str:
    """A game of `game` lost by a forfeit before any move, with RU[ru]: only its root is read."""
    escaped = ru.replace("\\", "\\\\").replace("]", "\\]")
    return (f"(;FF[4]GM[{game.sgf_game}]YB[{game.default_board}]YG[{game.name}]RU[{escaped}]PB[a]PW[b]"
            f"RE[B+F]YT[forfeit]{extra})")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), data=st.data(), value=JSON_VALUES)
def test_an_ru_value_of_any_json_type_is_read_as_rule_reads_it(name: str, data: Any, value: Any) -> None:
    game = GAMES[name]
    key = data.draw(st.sampled_from(sorted(game.rule_options)))
    written = json.dumps(value, separators=(",", ":"))
    option = game.rule_options[key]
    text = forfeit_sgf(game, f"{game.title} {key}={written}")
    try:
        read = value if option.type is str and isinstance(value, str) else rule_from_text(written, option)
        expected = game.parse_rules({k: False for k, o in game.rule_options.items() if o.type is bool} | {key: read})
    except Exception:  # noqa: BLE001 - the --rule reader refuses it: so must the import, as one line
        with pytest.raises(RecordError) as refused:
            read_sgf_games(text, "x.sgf")
        message = str(refused.value)
        assert message.startswith("x.sgf: RU[") and name in message and "\n" not in message
    else:
        (record,) = read_sgf_games(text, "x.sgf")
        assert record.rules == expected


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("value", ['"1000"', '{"a":1}', "[1]", "true", "1.0", "1e3", "null",
                                   "[" * 50_000 + "]" * 50_000, "[" * 50_000])
def test_the_issue_s_ru_values_are_one_line(name: str, value: str) -> None:
    game = GAMES[name]
    key = "max_plies" if "max_plies" in game.rule_options else "pie"
    value = "maybe" if key == "pie" and value == "true" else value  # the one value of the list a switch takes
    with pytest.raises(RecordError, match=rf"^x\.sgf: RU\[.*{re.escape(name)} rule") as refused:
        read_sgf_games(forfeit_sgf(game, f"{game.title} {key}={value}"), "x.sgf")
    assert len(str(refused.value)) < 400


@pytest.mark.parametrize("name", GAMES)
def test_an_ru_of_another_game_or_gm_and_yg_that_disagree_are_refused(name: str) -> None:
    game = GAMES[name]
    for other in GAMES.values():
        if other is game:
            continue
        with pytest.raises(RecordError, match=rf"^x\.sgf: RU\[{re.escape(other.title)}\] names the game "
                                              rf"'{re.escape(other.name)}'"):
            read_sgf_games(forfeit_sgf(game, other.title), "x.sgf")
        text = forfeit_sgf(game, game.title).replace(f"YG[{game.name}]", f"YG[{other.name}]")
        with pytest.raises(RecordError, match=rf"^x\.sgf: GM\[.*\] is a game of {re.escape(name)} but "
                                              rf"YG\[{re.escape(other.name)}\] names another"):
            read_sgf_games(text, "x.sgf")
    with pytest.raises(RecordError, match="does not begin with the game's title"):
        read_sgf_games(forfeit_sgf(game, "Japanese"), "x.sgf")


@pytest.mark.parametrize("name", GAMES)
def test_a_game_against_oneself_is_refused_naming_the_player(name: str) -> None:
    text = forfeit_sgf(GAMES[name], GAMES[name].title).replace("PW[b]", "PW[a]")
    with pytest.raises(RecordError, match=r"^x\.sgf: PB and PW both name 'a'"):
        read_sgf_games(text, "x.sgf")


def root_with(text: str, **values: str) -> str:
    for key, value in values.items():
        text = re.sub(rf"{key}\[[^\]]*\]", f"{key}[{value}]", text, count=1)
    return text


ENDINGS = ["B+", "W+", "0", "B+F", "W+T"]


@pytest.mark.parametrize("name", GAMES)
def test_the_replay_decides_the_ending_re_and_yt_must_agree(name: str) -> None:
    game = GAMES[name]
    records = [played(game, {}, seed) for seed in range(1, 8)]
    record = next((r for r in records if r.winner is not None), records[0])  # a decided game, else a draw
    text = game_to_sgf(record)
    true_re = re.search(r"RE\[([^\]]*)\]", text).group(1)
    endings = {t.value for t in Termination._known.values()}  # every game's and the tool's
    for result in ENDINGS:
        for termination in endings:
            changed = root_with(text, RE=result, YT=termination)
            if (result, termination) == (true_re, record.termination.value):
                assert read_sgf_games(changed, "x.sgf")[0].termination is record.termination
                continue
            with pytest.raises(RecordError, match=rf"^x\.sgf: RE\[.*\] YT\[.*\] says .*, but this game of "
                                                  rf"{re.escape(name)} ends after"):
                read_sgf_games(changed, "x.sgf")
    cut = text[:text.rindex(";")] + ")"  # the last move taken away: the game is not over
    for termination in endings:
        for result in ENDINGS:
            changed = root_with(cut, RE=result, YT=termination)
            fault = Termination.parse(termination).is_fault
            adjudicated = (termination, result in ("B+", "W+")) == ("adjudicated-resign", True) or (
                (termination, result) == ("adjudicated-draw", "0"))  # the referee may stop a game short
            if (fault and result != "0") or adjudicated:
                assert read_sgf_games(changed, "x.sgf")[0].termination.value == termination
                continue
            with pytest.raises(RecordError, match=rf"^x\.sgf: RE\[.*\] YT\[.*\] .*this game of {re.escape(name)} "
                                                  "is not over"):
                read_sgf_games(changed, "x.sgf")


def test_a_draw_said_of_a_won_game_is_called_a_draw() -> None:
    game = GAMES["tetra"]  # a game won by a figure
    record = next(r for r in (played(game, {}, seed) for seed in range(1, 30)) if r.winner is not None)
    with pytest.raises(RecordError, match=r"RE\[0\] YT\[figure\] says a draw by .*, but .* ends after \d+ moves in "
                                          r"a win for [BW] by "):
        read_sgf_games(root_with(game_to_sgf(record), RE="0"), "x.sgf")


def test_two_rule_settings_are_named_as_the_cli_names_rules(tmp_path: Path) -> None:
    game = next(g for g in GAMES.values() if "max_plies" in g.rule_options)
    low = int(game.rule_options["max_plies"].low or 1)
    for seed, plies in ((1, low), (2, low + 1)):
        (tmp_path / f"g{seed}.sgf").write_text(game_to_sgf(played(game, {"max_plies": plies}, seed)))
    result = CliRunner().invoke(main, ["import", str(tmp_path / "g1.sgf"), str(tmp_path / "g2.sgf"),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 1 and f"max_plies={low}" in result.stderr and f"max_plies={low + 1}" in result.stderr
    assert "Rules(" not in result.stderr and "g1.sgf" in result.stderr and "g2.sgf" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", [name for name, game in GAMES.items() if not game.has_handicap])
def test_a_handicap_in_a_game_without_a_ladder_is_refused_naming_ha(name: str) -> None:
    """HA[2] on a Tetra game was blamed on a config ("the games' handicap cannot be used: expected handicap: {mode:
    none}") that the user never wrote."""
    with pytest.raises(RecordError, match=rf"^x\.sgf: HA\[2\]: {re.escape(name)} has no handicap ladder; expected "
                                          r"HA\[0\] or no HA$"):
        read_sgf_games(forfeit_sgf(GAMES[name], GAMES[name].title, "HA[2]"), "x.sgf")


@pytest.mark.parametrize("name", GAMES)
def test_ru_reads_rule_values_as_rule_does(name: str) -> None:
    """`RU[Tetra pie=on]` was refused though `--rule pie=on` takes it: RU values go through the --rule reader."""
    game = GAMES[name]
    switches = {key: False for key, option in game.rule_options.items() if option.type is bool}
    for word, on in (("on", True), ("off", False), ("yes", True), ("0", False)):
        (record,) = read_sgf_games(forfeit_sgf(game, f"{game.title} pie={word}"), "x.sgf")
        assert record.rules == game.parse_rules(switches | {"pie": on})
