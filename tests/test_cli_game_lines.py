"""Per-game lines on stderr as cutechess-cli prints them (`Finished game`, `Score of`, `Elo difference`), the
progress line's leader and rate, and a locked folder refused before anything is said."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner, Result

from ytourney.cli import main
from ytourney.tournament.folder import RunLock
from ytourney.tournament.progress import rate_text
from ytourney.tournament.store import load_records

FINISHED = re.compile(r"^Finished game (\d+) \((.+) vs (.+)\): (1-0|0-1|1/2-1/2) \{(.+)\}$")
SCORE = re.compile(r"^Score of (.+) vs (.+): (\d+) - (\d+) - (\d+)  \[(\d\.\d{3})\] (\d+)$")


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def finished(stderr: str) -> dict[int, tuple[str, ...]]:
    lines = [FINISHED.match(line) for line in stderr.splitlines()]
    return {int(m.group(1)): m.groups()[1:] for m in lines if m}


def test_a_match_prints_each_game_its_score_and_elo_with_the_sprt_llr(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = invoke("match", "random", "heuristic", "--board", "tri:5", "--games-per-pair", "6", "--out", str(out),
                    "--sprt", "elo0=0,elo1=50,model=trinomial", "--workers", "1")
    assert result.exit_code == 0, result.output
    records = {record.id: record for record in load_records(out)}
    games = finished(result.stderr)
    assert sorted(games) == sorted(records) == list(range(1, 7))
    for number, (first, second, outcome, ending) in games.items():
        record = records[number]
        assert (first, second) == (record.first, record.second)  # the first mover named first
        expected = "1-0" if record.winner_name == record.first else "0-1"
        assert outcome == expected and ending == record.termination.value  # seen from the first mover
    scores = [SCORE.match(line) for line in result.stderr.splitlines() if line.startswith("Score of")]
    assert len(scores) == 6 and all(scores)
    last = scores[-1]
    assert last is not None
    wins = sum(r.winner_name == "random" for r in records.values())
    assert last.groups()[:2] == ("random", "heuristic") and int(last.group(3)) == wins
    assert int(last.group(3)) + int(last.group(4)) + int(last.group(5)) == int(last.group(7)) == 6
    assert result.stderr.count("Elo difference: ") == 6 and "LOS: " in result.stderr
    assert re.search(r"LLR -?\d+\.\d\d \[-2\.94, 2\.94\]", result.stderr)  # in the progress line
    # the per-game lines end before the summary and never mix into the table on stdout
    assert "Finished game" not in result.stdout and "Ratings" in result.stdout


def test_quiet_drops_the_lines_and_a_round_robin_has_no_score(tmp_path: Path) -> None:
    quiet = invoke("match", "random", "heuristic", "--board", "tri:5", "--out", str(tmp_path / "q"), "-q")
    assert quiet.exit_code == 0 and quiet.stderr == ""
    three = invoke("match", "random", "heuristic", "mcts:playouts=20", "--board", "tri:5", "--out",
                   str(tmp_path / "rr"), "--workers", "1")
    assert three.exit_code == 0, three.output
    assert sorted(finished(three.stderr)) == list(range(1, 7))
    assert "Score of" not in three.stderr and "Elo difference" not in three.stderr


def test_a_resumed_run_numbers_games_by_their_stored_number_and_counts_the_stored_score(tmp_path: Path) -> None:
    config = tmp_path / "duel.yaml"
    config.write_text("name: duel\nboard: tri:5\nseed: 4\nschedule: {format: match, games_per_pair: 4}\n"
                      "players: [{name: a, bot: random}, {name: b, bot: heuristic}]\n")
    out = tmp_path / "out"
    first = invoke("run", str(config), "--out", str(out), "--workers", "1")
    assert first.exit_code == 0 and sorted(finished(first.stderr)) == [1, 2, 3, 4]
    more = invoke("run", str(config), "--out", str(out), "--workers", "1", "--set", "schedule.games_per_pair=6")
    assert more.exit_code == 0, more.output
    assert sorted(finished(more.stderr)) == [5, 6]
    totals = [int(m.group(7)) for m in map(SCORE.match, more.stderr.splitlines()) if m]
    assert totals == [5, 6]  # the four stored games are in the score


def test_the_last_progress_line_names_the_tables_leader_without_running(tmp_path: Path) -> None:
    result = invoke("match", "random", "heuristic", "--board", "tri:5", "--games-per-pair", "4", "--out",
                    str(tmp_path / "m"), "--workers", "1")
    assert result.exit_code == 0, result.output
    last = [line for line in result.stderr.splitlines() if "games (" in line][-1]
    table_first = next(line for line in result.stdout.splitlines() if line.startswith("1 "))
    name, rating = table_first.split()[1], table_first.split()[4]
    assert f"leader {name} (rating {rating})" in last and "running" not in last


def test_a_locked_folder_is_refused_before_anything_is_said(tmp_path: Path) -> None:
    out = tmp_path / "m"
    args = ("match", "random", "heuristic", "--board", "tri:5", "--games-per-pair", "4", "--out", str(out))
    assert invoke(*args, "-q").exit_code == 0
    lock = RunLock(out)
    lock.acquire()
    try:
        result = invoke(*args, "--games-per-pair", "6")
    finally:
        lock.release()
    assert result.exit_code == 1 and "in use by another run" in result.output
    assert "grows" not in result.output and "continues" not in result.output and "Finished" not in result.output


def test_slow_games_show_seconds_per_game() -> None:
    assert rate_text(300, 2.0) == "150 games/s"
    assert rate_text(3, 2.0) == "1.5 games/s"
    assert rate_text(2, 30.0) == "15.0 s/game"
    assert rate_text(1, 600.0) == "10.0 min/game"
    assert rate_text(0, 5.0) == ""


def _records(tmp_path: Path) -> list:
    out = tmp_path / "m"
    assert invoke("match", "random", "heuristic", "--board", "tri:5", "--out", str(out), "-q").exit_code == 0
    return load_records(out)


def test_on_a_terminal_the_lines_scroll_above_the_bar_and_in_a_log_they_are_plain_lines(tmp_path: Path) -> None:
    import io

    from ytourney.tournament.game_lines import GameReport
    from ytourney.tournament.progress import Progress

    record = _records(tmp_path)[0]
    report = GameReport(("Finished game 1 (a vs b): 1-0 {connection}", "Score of a vs b: 1 - 0 - 0  [1.000] 1"),
                        "LLR 0.10 [-2.94, 2.94]")
    terminal = io.StringIO()
    progress = Progress(terminal, live=True)
    progress.start(4, 0, 1)
    progress.game(record, lambda: "a (running rating 1.0)", report)
    progress.finish(lambda: "a (rating 2.00)")
    text = terminal.getvalue()
    # the bar is cleared, the lines written whole, then the bar redrawn under them
    assert "\r\x1b[KFinished game 1 (a vs b): 1-0 {connection}\nScore of a vs b: 1 - 0 - 0  [1.000] 1\n\r[" in text
    assert text.rstrip("\n").rsplit("\r", 1)[-1].count("leader a (rating 2.00)") == 1
    assert "LLR 0.10 [-2.94, 2.94]" in text.rsplit("\r", 1)[-1]
    log = io.StringIO()
    plain = Progress(log, live=False)
    plain.start(4, 0, 1)
    plain.game(record, lambda: "", report)
    plain.finish()
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue() and "\x1b" not in log.getvalue()
    assert lines[:2] == list(report.lines) and lines[-1].startswith("ytourney: 1/4 games (25%)")


def test_a_win_probability_sprt_gets_the_elo_of_the_score(tmp_path: Path) -> None:
    from ytourney.tournament.config import parse_config
    from ytourney.tournament.game_lines import GameLines
    from ytourney.tournament.schedule import sprt_condition

    config = parse_config("name: m\nboard: tri:5\nschedule: {format: match, sprt: {p0: 0.4, p1: 0.6}}\n"
                          "players: [{name: random, bot: random}, {name: heuristic, bot: heuristic}]\n")
    stop, state = sprt_condition(config)
    lines = GameLines(config, state)
    assert stop is not None
    for record in _records(tmp_path):
        stop(record)
        report = lines.report(record)
    assert report.lines[1].startswith("Score of random vs heuristic: ")
    assert report.lines[2].startswith("Elo difference: ") and report.status.startswith("LLR ")
    assert lines.games == 2
