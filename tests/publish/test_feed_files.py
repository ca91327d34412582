"""Live record files (`--pgn-out`, `--jsonl-out`, `play --out`): a path that cannot take a new file is refused when
it is opened, before the first game, and a path that can is left without a trace until a game is written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ytourney.errors import ReportError
from ytourney.publish.export import ExportFormat, GameFeed

UNCREATABLE = Path("/proc/ytourney-feed-test.pgn")  # /proc takes no new file, even for root


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs Linux /proc")
@pytest.mark.parametrize("fmt", [ExportFormat.PGN, ExportFormat.JSONL])
def test_a_folder_that_takes_no_new_file_is_refused_at_once(fmt: ExportFormat) -> None:
    with pytest.raises(ReportError, match="cannot create '/proc/ytourney-feed-test.pgn'"):
        GameFeed(UNCREATABLE, fmt)


def test_a_new_path_is_left_absent_until_a_game_is_written(tmp_path: Path) -> None:
    feed = GameFeed(tmp_path / "games.pgn", ExportFormat.PGN)
    feed.close()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write any file")
def test_a_file_that_cannot_be_written_is_refused_at_once(tmp_path: Path) -> None:
    feed = tmp_path / "games.jsonl"
    feed.write_text("")
    feed.chmod(0o444)
    with pytest.raises(ReportError, match="cannot append games to .*games.jsonl': it is not writable"):
        GameFeed(feed, ExportFormat.JSONL)


def test_a_read_only_file_is_refused_as_the_system_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As root (which may write any file) the refusal is shown by the system's answer: os.access says no on a
    read-only disk even for root."""
    feed = tmp_path / "games.pgn"
    feed.write_text("")
    monkeypatch.setattr(os, "access", lambda path, mode: not (mode & os.W_OK and str(path) == str(feed)))
    with pytest.raises(ReportError, match="it is not writable"):
        GameFeed(feed, ExportFormat.PGN)


@pytest.mark.parametrize("fmt", [ExportFormat.PGN, ExportFormat.JSONL])
def test_two_sessions_on_one_file_number_their_games_apart(tmp_path: Path, fmt: ExportFormat) -> None:
    """Two `play --out` sessions open the same file before either game ends: both games were written as game 1."""
    from dataclasses import replace

    from ytourney.games.registry import get_game
    from ytourney.games.variant import Variant
    from ytourney.players.spec import create_bot, parse_bot_spec
    from ytourney.tournament.match import Seat, play_game

    game = get_game("y")
    variant = Variant(game, game.parse_board("tri:4"), game.parse_rules(None))
    seats = [Seat(name, create_bot(parse_bot_spec("random", game), seed)) for seed, name in enumerate("ab")]
    record = replace(play_game(seats, variant, seed=1), tournament="play", id=1)
    path = tmp_path / f"games.{fmt.value}"
    first, second = GameFeed(path, fmt), GameFeed(path, fmt)
    assert (first.write_next(record).id, second.write_next(record).id) == (1, 2)
    first.close()
    second.close()
    assert GameFeed(path, fmt).keys == {first.key(record), first.key(replace(record, id=2))}
