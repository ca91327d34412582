"""Hostile SGF import: odd encodings, huge numbers, deep variations, odd names, FIFOs and devices.

Classes covered (issue 24): a UTF-8 byte-order mark, UTF-16 with and without its mark, a `CA[]` charset
(ISO-8859-1, Shift_JIS; an unknown one or one that is no text encoding refused), player names with spaces (a
wrapped line or a tab read as one space), huge numbers in GN/RO/YS/HA and bad YC scores, variations nested
a hundred thousand deep (no RecursionError) and games of too many nodes, refusals of values the config reader refuses (a long
player name, an EV that cannot name a tournament) said of the SGF file and not of a config.yaml, a FIFO or a
device given as input (refused at once, never read), a file over the size cap
and more games than one import takes. Each is one clear line, exit 1, in seconds, under a memory
cap, and nothing is written.
"""

from __future__ import annotations

import codecs
import os
from pathlib import Path

import pytest
from click.testing import Result

import ytourney.publish.imports as imports
from ytourney.publish.sgf import MAX_SGF_NODES
from ytourney.tournament.store import load_records
from cli_run import invoke

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives

GAME = ("(;FF[4]GM[y]SZ[4]RU[Y pie]PB[{black}]PW[b]HA[{ha}]RE[W+]YT[connection]EV[{ev}]RO[{ro}]GN[{gn}]YS[{ys}]{extra}\n"
        ";B[c1];SW[];W[a3];B[b1];W[a4];B[d1];W[a2];B[b3];W[a1])\n")
MOVES = ";B[c1];SW[];W[a3];B[b1];W[a4];B[d1];W[a2];B[b3];W[a1]"


def game(**fields: str) -> str:
    values = {"black": "c", "ha": "0", "ev": "cup", "ro": "1", "gn": "1", "ys": "1", "extra": ""} | fields
    return GAME.format(**values)


def import_file(tmp_path: Path, content: bytes | str, name: str = "game.sgf") -> tuple[Result, Path]:
    """Import one file holding `content` into tmp_path/out; the file must stay as it was."""
    file = tmp_path / name
    file.write_bytes(content.encode() if isinstance(content, str) else content)
    out = tmp_path / "out"
    result = invoke("import", str(file), "--out", str(out))
    assert file.read_bytes() == (content.encode() if isinstance(content, str) else content)
    return result, out


def refused(tmp_path: Path, content: bytes | str, message: str) -> None:
    result, out = import_file(tmp_path, content)
    assert result.exit_code == 1 and message in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1 and str(tmp_path / "game.sgf") in result.output
    assert "config.yaml" not in result.output and not out.exists()


def black_name(out: Path) -> str:
    (record,) = load_records(out)
    return record.white if record.black == "b" else record.black


@pytest.mark.parametrize(("content", "name"), [
    (codecs.BOM_UTF8 + game(black="José").encode(), "José"),
    (codecs.BOM_UTF16_LE + game(black="José").encode("utf-16-le"), "José"),
    (codecs.BOM_UTF16_BE + game(black="José").encode("utf-16-be"), "José"),
    (game(black="José").encode("utf-16-le"), "José"),
    (game(black="José", extra="CA[ISO-8859-1]").encode("latin-1"), "José"),
    (game(black="José", extra="CA[latin1]").encode("latin-1"), "José"),
    (game(black="碁打ち", extra="CA[Shift_JIS]").encode("shift_jis"), "碁打ち"),
    (game(black="碁打ち", extra="CA[UTF-8]").encode(), "碁打ち"),
    (game(black="José").encode("latin-1"), "José"),  # no CA[] and no UTF-8: ISO-8859-1, SGF's default
    (game(black="Josè").encode("latin-1"), "Josè"),  # not 'Jos\ufffd' as José was too: one player of two
    (game(black="John Smith"), "John Smith"),
    (game(black="John\n  Smith"), "John Smith"),
    (game(black="Ann\tLee "), "Ann Lee"),
])
def test_encodings_charsets_and_names_with_spaces_are_read(tmp_path: Path, content: bytes | str, name: str) -> None:
    result, out = import_file(tmp_path, content)
    assert result.exit_code == 0, result.output
    assert black_name(out) == name


def test_a_pgn_file_is_named_as_pgn(tmp_path: Path) -> None:
    """`--pgn-out` files (time-odds games among them) were refused as "not readable SGF at line 1: unexpected '['"."""
    refused(tmp_path, '[Event "m"]\n[Site "ytourney"]\n[Result "1-0"]\n\n1. c1 a3 1-0\n',
            "this is PGN (it opens with a tag such as [Event \"...\"]); import reads SGF only")


@pytest.mark.parametrize(("content", "said"), [
    (game(black="José", extra="CA[UTF-8]").encode("latin-1"), "CA[UTF-8]"),
    (codecs.BOM_UTF8 + game(black="José").encode("latin-1"), "UTF-8 (by its byte-order mark)"),
])
def test_bytes_the_named_charset_cannot_read_are_refused_not_replaced(tmp_path: Path, content: bytes,
                                                                      said: str) -> None:
    """Replaced by U+FFFD, José and Josè were one player ('PB and PW both name ...' when they met)."""
    refused(tmp_path, content, f"(b'\\xe9') cannot be read as {said}; expected the file's real character set named "
                               "in CA[], like CA[ISO-8859-1]")


@pytest.mark.parametrize(("fields", "message"), [
    ({"gn": "9" * 5000}, "GN[9999999999999999999999999999999999999999... (5000 characters)] is not a whole number"),
    ({"gn": "99999999999999999999999"}, "GN[99999999999999999999999] is not a whole number from 0 to"),
    ({"gn": "-5"}, "GN[-5] is not a whole number from 0 to"),
    ({"ro": "99999999999999999999999"}, "RO[99999999999999999999999] is not a whole number from 0 to 2147483647"),
    ({"ys": "99999999999999999999999"}, "YS[99999999999999999999999] is not a whole number from 0 to"),
    ({"ys": "1e400"}, "YS[1e400] is not a whole number"),
    ({"ha": "99999999999999999999999"}, "HA[99999999999999999999999] is not a whole number from 0 to 10000"),
    ({"ha": "9999"}, "handicap 9999 is too large for board 'tri:4'"),
    ({"extra": "YC[x y]"}, "YC[x y] is not two scores; expected two numbers"),
    ({"extra": "YC[nan 1]"}, "YC[nan 1] is not two scores; expected two finite numbers"),
    ({"extra": "CA[zlib]"}, "CA[zlib] is no character set Python knows"),
    ({"extra": "CA[no-such-charset]"}, "CA[no-such-charset] is no character set Python knows"),
    ({"black": "x" * 500}, "player name 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (500 characters) cannot be used: "
                           "expected a name of at most 64 printable characters"),
    ({"black": "a\x1b[31mb"}, "player name 'a\\x1b[31mb' cannot be used"),
    ({"ev": "my cup/2"}, "EV[my cup/2] cannot name the tournament: expected letters, digits"),
])
def test_bad_numbers_charsets_and_names_are_one_line_naming_the_file(tmp_path: Path, fields: dict[str, str],
                                                                    message: str) -> None:
    refused(tmp_path, game(**fields), message)


def test_variations_nested_deeply_are_read_without_recursion(tmp_path: Path) -> None:
    depth = MAX_SGF_NODES + 10  # far beyond Python's recursion limit
    side_lines = "(;B[a1])" * 3
    nested = "(;C[x]" * depth + ")" * depth  # a side line nested deep, after the main line's variation
    text = "(;FF[4]GM[y]SZ[4]RU[Y pie]PB[c]PW[b]RE[W+](" + MOVES + ")" + nested + side_lines + ")\n"
    result, out = import_file(tmp_path, text)
    assert result.exit_code == 0, result.output
    (record,) = load_records(out)
    assert len(record.moves) == 9
    for path in out.iterdir():
        path.unlink()
    out.rmdir()
    deep_main_line = "(;FF[4]GM[y]SZ[4]RU[Y pie]PB[c]PW[b]RE[W+]" + "(;C[x]" * depth + ")" * depth + ")\n"
    refused(tmp_path, deep_main_line, f"more than {MAX_SGF_NODES} nodes in one game")
    refused(tmp_path, "(;FF[4]GM[y]SZ[4]" + "(;C[x]" * 1000, "a game tree is not closed with ')'")


@pytest.mark.parametrize("target", ["fifo", "/dev/zero", "/dev/urandom"])
def test_a_fifo_or_a_device_given_as_input_is_refused_at_once(tmp_path: Path, target: str) -> None:
    path = target if target.startswith("/") else str(tmp_path / target)
    if target == "fifo":
        os.mkfifo(path)
    result = invoke("import", path, "--out", str(tmp_path / "out"))
    assert result.exit_code == 1 and ("is a FIFO" in result.output or "device" in result.output), result.output
    assert len(result.output.strip().splitlines()) == 1 and not (tmp_path / "out").exists()


def test_a_file_over_the_size_cap_and_too_many_games_are_one_line(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(imports, "SGF_BYTES", 1000)
    refused(tmp_path, game() + " " * 1000, f"holds {len(game()) + 1000} bytes; expected at most 1000")
    monkeypatch.setattr(imports, "SGF_BYTES", 1 << 20)
    monkeypatch.setattr(imports, "MAX_IMPORT_GAMES", 3)
    refused(tmp_path, game() * 4, "more than 3 games; expected at most 3 in one import")
    result, out = import_file(tmp_path, game(gn="1") + game(gn="2") + game(gn="3"))
    assert result.exit_code == 0 and len(load_records(out)) == 3, result.output
