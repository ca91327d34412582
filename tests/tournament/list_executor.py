"""A fake executor for Runner tests: it keeps submitted games in a list and never plays them (subclasses say what
`results` hands back), and a two-player config for such runs."""

from __future__ import annotations

from pathlib import Path


class ListExecutor:
    """The executor protocol over a plain list of submitted tasks; `results` is each test's own."""

    in_process = False
    capacity = 1

    def __init__(self) -> None:
        self.tasks: list[object] = []

    @property
    def in_flight(self) -> int:
        return len(self.tasks)

    def submit(self, task: object) -> None:
        self.tasks.append(task)

    def shutdown(self, abandon: bool = False) -> None:
        self.tasks.clear()


def write_cup_config(tmp_path: Path) -> Path:
    """A run of two random players, 2 games on tri:5."""
    config = tmp_path / "cup.yaml"
    config.write_text("name: cup\nboard: tri:5\nseed: 3\nschedule: {games_per_pair: 2}\n"
                      "players: [{name: a, bot: random}, {name: b, bot: random}]\n")
    return config
