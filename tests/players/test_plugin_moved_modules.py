"""Plugins written before the game API: one that imports a moved module gets one line saying where it went; one
written against the Y state and returning cell indices keeps playing."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ytourney.cli import main
from ytourney.errors import PluginError
from ytourney.players.plugin import load_plugin_class


@pytest.mark.parametrize(("imported", "where"), [
    ("from ytourney.game.state import GameState", "ytourney.games.y.state"),
    ("from ytourney.game.board import ALL_SIDES", "ytourney.boards.board"),
    ("from ytourney.players.base import BaseBot", "ytourney.games.bot"),
    ("import ytourney.game.rules", "ytourney.games.y.rules"),
])
def test_an_old_import_names_where_the_module_went(tmp_path: Path, imported: str, where: str) -> None:
    plugin = tmp_path / "old.py"
    plugin.write_text(f"{imported}\n\nclass Old:\n    pass\n")
    with pytest.raises(PluginError) as info:
        load_plugin_class(str(plugin), "Old")
    assert where in str(info.value) and "moved" in str(info.value)
    result = CliRunner().invoke(main, ["play", f"{plugin}:Old", "random"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert where in result.output


def test_a_y_plugin_answering_cell_indices_still_plays(tmp_path: Path) -> None:
    plugin = tmp_path / "cells.py"
    plugin.write_text(
        "from ytourney.players import BaseBot\n\n"
        "class FirstEmpty(BaseBot):\n"
        "    def move(self, state, limit):\n"
        "        return state.empty_cells()[0]  # a flat cell index, as before the game API\n")
    result = CliRunner().invoke(main, ["play", f"{plugin}:FirstEmpty", "random", "--board", "tri:5", "--seed", "2",
                                       "--json"])
    assert result.exit_code == 0, result.output
    assert '"termination": "connection"' in result.output
