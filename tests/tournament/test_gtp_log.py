"""GTP transcripts: `run --gtp-log DIR` and `gtp: {log: true}` write every exchange per engine and game, bounded."""

from __future__ import annotations

import sys
from pathlib import Path

from click.testing import CliRunner

from ytourney.cli import main
from ytourney.players.gtp.transcript import Transcript
from ytourney.tournament.store import load_records

FAKE = Path(__file__).resolve().parents[1] / "fake_engines" / "fake_gtp.py"


def write_config(tmp_path: Path, gtp: str) -> Path:
    path = tmp_path / "logged.yaml"
    path.write_text("name: logged\nboard: tri:5\nseed: 3\nworkers: 1\ntime: {move_seconds: 2.0}\n"
                    "schedule: {games_per_pair: 2}\n"
                    f"players: [{{name: rnd, bot: random}}, {{name: fake, gtp: {{command: ['{sys.executable}', "
                    f"'{FAKE}', --fault, off-board, --after, '2']{gtp}}}}}]\n")
    return path


def test_gtp_log_writes_each_game_and_the_fault_names_its_file(tmp_path: Path) -> None:
    config, out, logs = write_config(tmp_path, ""), tmp_path / "out", tmp_path / "logs"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "--gtp-log", str(logs), "-q"])
    assert result.exit_code == 0, result.output
    files = sorted((logs / "fake").glob("game-*.log"))
    assert [f.name for f in files] == ["game-00001-second.log", "game-00002-first.log"]
    first = files[0].read_text()
    assert first.startswith("# GTP transcript of fake, started ")
    assert ">fake: name" in first and "<fake: = fake" in first and ">fake: boardsize 5" in first
    assert ">fake: genmove w" in first and "<fake: = f6" in first  # the off-board answer that lost the game
    records = load_records(out)
    assert len(records) == 2 and all(r.termination.value == "illegal" for r in records)
    for record in records:
        named = Path(record.extra["gtp_log"])
        assert named in files and record.id is not None and f"game-{record.id:05d}-" in named.name
    assert not (out / "gtp-logs").exists()


def test_gtp_log_key_writes_under_the_results_folder(tmp_path: Path) -> None:
    config, out = write_config(tmp_path, ", log: true"), tmp_path / "out"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert len(list((out / "gtp-logs" / "fake").glob("game-*.log"))) == 2
    assert all("gtp-logs" in r.extra["gtp_log"] for r in load_records(out))


def test_gtp_log_folder_that_cannot_be_made_is_one_clean_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    config = write_config(tmp_path, "")
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(tmp_path / "out"), "--gtp-log",
                                       str(blocker / "logs"), "-q"])
    assert result.exit_code == 1 and "GTP transcript folder" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()


def test_transcript_is_bounded_and_keeps_its_last_lines(tmp_path: Path) -> None:
    path = tmp_path / "t.log"
    transcript = Transcript("flood", path, limit=2000)
    for number in range(10_000):
        transcript.received(f"info line {number} " + "x" * 50)
    transcript.sent("y" * 10_000)
    transcript.close()
    text = path.read_text()
    assert len(text.encode()) <= 2000 + 100 and text.rstrip().endswith("reached its limit of 2000 bytes")
    tail = transcript.tail(2)
    assert "info line 9999" in tail[0] and tail[1].endswith("(8000 more characters)")


def test_turning_the_log_key_on_keeps_the_results_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert CliRunner().invoke(main, ["run", str(write_config(tmp_path, "")), "--out", str(out), "-q"]).exit_code == 0
    result = CliRunner().invoke(main, ["run", str(write_config(tmp_path, ", log: true")), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
