"""Results folders as report sources: their stored config is read again by the one config reader, without the files
it names, and a stored config that no longer reads is one clear error naming the folder."""

from __future__ import annotations

import shutil
import sqlite3
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.errors import ConfigError
from ytourney.players.spec import BotKind
from ytourney.publish.sources import load_source, sprt_state_of
from ytourney.stats.handicap import HandicapMode, HandicapSettings
from ytourney.stats.ratings import RatingSettings
from ytourney.tournament.store import ResultStore

PLUGIN = """
from ytourney.players import BaseBot


class First(BaseBot):
    def move(self, state, limit):
        return state.empty_cells()[0]
"""

CONFIG = """
name: moved
board: tri:4
rules: {pie: false}
schedule: {games_per_pair: 2, openings: {file: lines.txt}}
ratings: {mu: 100, sigma: 10, beta: 5, tau: 0}
players:
  - {name: first, bot: "plugins/first.py:First"}
  - random
"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results folder of a tournament whose plugin and opening files were left behind on another machine."""
    home = tmp_path_factory.mktemp("home")
    (home / "plugins").mkdir()
    (home / "plugins" / "first.py").write_text(PLUGIN)
    (home / "lines.txt").write_text("a1\nb1\n")
    config = home / "moved.yaml"
    config.write_text(textwrap.dedent(CONFIG))
    out = tmp_path_factory.mktemp("results") / "moved"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "--workers", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    shutil.rmtree(home)
    return out


def copy_with_config(folder: Path, destination: Path, text: str) -> Path:
    """A copy of a results folder whose stored config text is replaced."""
    shutil.copytree(folder, destination)
    with sqlite3.connect(destination / "tournament.db") as conn:
        conn.execute("UPDATE tournaments SET config_text = ? WHERE id = 1", (text,))
    return destination


def ratings(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["ratings", *args])
    return result.exit_code, result.output


def test_stored_config_is_read_again_without_the_files_it_names(played: Path) -> None:
    source = load_source(played)
    assert source.config is not None and source.name == "moved"
    assert source.rating_settings == RatingSettings(mu=100.0, sigma=10.0, beta=5.0, tau=0.0)
    assert source.handicap_settings == HandicapSettings()
    plugin = source.config.players[0].spec
    assert plugin.kind is BotKind.PLUGIN and plugin.path == "plugins/first.py"  # as written: the file is gone
    assert source.config.schedule.openings is not None and source.config.schedule.openings.file == "lines.txt"
    assert sprt_state_of(source) is None
    code, out = ratings(str(played))
    assert code == 0, out
    assert "2 games rated with TrueSkill (mu 100, sigma 10, beta 5, tau 0)" in out


def test_a_stored_config_that_no_longer_reads_is_an_error_naming_the_folder(played: Path, tmp_path: Path) -> None:
    text = textwrap.dedent(CONFIG).replace("tau: 0", "tau: -5")
    broken = copy_with_config(played, tmp_path / "broken", text)
    with pytest.raises(ConfigError) as info:
        load_source(broken)
    error = info.value
    assert error.source == f"stored config of results folder {str(broken)!r}"
    assert (error.path, error.value, error.expected) == ("ratings.tau", -5, "a number >= 0")
    expected = f"stored config of results folder {str(broken)!r}: ratings.tau: expected a number >= 0; found -5"
    assert str(error) == expected
    for command in ("ratings", "crosstable", "handicap"):
        result = CliRunner().invoke(main, [command, str(broken)])
        assert result.exit_code == 1 and "Traceback" not in result.output and result.exception is not None
        assert result.output == f"Error: {expected}\n"


def test_corrupted_stored_config_text_gives_one_clear_error(played: Path, tmp_path: Path) -> None:
    garbled = copy_with_config(played, tmp_path / "garbled", "name: moved\nplayers: [first, {{\x00")
    code, out = ratings(str(garbled))
    assert code == 1 and "Traceback" not in out
    assert out.startswith(f"Error: stored config of results folder {str(garbled)!r}: ") and "invalid YAML" in out
    assert out.count("\n") == 1


def test_a_stored_config_is_checked_like_a_new_one(played: Path, tmp_path: Path) -> None:
    text = textwrap.dedent(CONFIG).replace("random\n", "{name: m, bot: 'mcts:playout=5'}\n")
    typo = copy_with_config(played, tmp_path / "typo", text)
    code, out = ratings(str(typo))
    assert code == 1 and "players[1].bot: unknown option 'playout' for bot 'mcts'" in out
    unnamed = copy_with_config(played, tmp_path / "unnamed", textwrap.dedent(CONFIG).replace("name: moved\n", ""))
    assert load_source(unnamed).config.name == "moved"  # the name the run gave it, not the folder's


def test_a_folder_without_a_stored_config_reports_with_default_settings(tmp_path: Path) -> None:
    with ResultStore.open(tmp_path / "bare", name="bare", config_text="", config_hash="h", config_key={},
                          planned_games=0):
        pass
    source = load_source(tmp_path / "bare")
    assert source.config is None and source.rating_settings == RatingSettings()
    assert source.handicap_settings.mode is HandicapMode.NONE and sprt_state_of(source) is None


@pytest.mark.parametrize(("line", "message"), [
    ('{"id": 1, "termination": "bogus"}', "line 2: not a game record: missing key"),
    ('[1, 2]', "line 2: not a game record: expected a JSON object, found list"),
])
def test_a_bad_line_of_a_records_file_is_named_by_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    from ytourney.errors import ReportError
    from ytourney.games.record import GameRecord
    from ytourney.publish.export import to_jsonl
    from ytourney.publish.sources import read_jsonl

    good = tmp_path / "good.jsonl"
    good.write_text('{"id": 1, "board": "kadon", "game": "quinta", "first": "a", "black": "a", "white": "b", '
                    '"moves": [], "winner": null, "termination": "move-limit"}\n')
    record = read_jsonl(good)[0]
    assert isinstance(record, GameRecord)
    path = tmp_path / "games.jsonl"
    path.write_text(to_jsonl([record]) + line + "\n")
    with pytest.raises(ReportError) as caught:
        read_jsonl(path)
    assert str(caught.value).startswith(f"{str(path)!r} {message}") and "{" not in str(caught.value)[len(str(path)):]
