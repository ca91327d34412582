"""A PGN reader for the tests: reads back what `to_pgn` writes (tag pairs and plain-token movetext)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ytourney.errors import ReportError

PGN_TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')
"""One tag pair line."""


@dataclass(frozen=True)
class PgnGame:
    """One game read back from PGN: its tags, move tokens, comments and result."""

    tags: dict[str, str]
    moves: tuple[str, ...]
    result: str
    comments: tuple[str, ...] = field(default_factory=tuple)


_PGN_TOKEN = re.compile(r'\{[^}]*\}|\d+\.(?:\.\.)?|1-0|0-1|1/2-1/2|\*|[^\s{}]+')


def parse_pgn(text: str) -> list[PgnGame]:
    """Read a PGN database written by `to_pgn` (or any PGN with tag pairs and plain-token movetext)."""
    games: list[PgnGame] = []
    tags: dict[str, str] = {}
    movetext: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            if movetext:
                raise ReportError(f"PGN line {number}: tag pair after the movetext without a result: {stripped!r}")
            match = PGN_TAG.match(stripped)
            if match is None:
                raise ReportError(f"PGN line {number}: malformed tag pair {stripped!r}")
            tags[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
            continue
        if not stripped:
            continue
        movetext.append(stripped)
        tokens = _PGN_TOKEN.findall(" ".join(movetext))
        if tokens and tokens[-1] in ("1-0", "0-1", "1/2-1/2", "*"):
            moves = tuple(t for t in tokens[:-1] if not t.startswith("{") and not re.fullmatch(r"\d+\.(\.\.)?", t))
            comments = tuple(t[1:-1].strip() for t in tokens if t.startswith("{"))
            games.append(PgnGame(tags, moves, tokens[-1], comments))
            tags, movetext = {}, []
    if tags or movetext:
        raise ReportError("PGN ends inside a game (no result token after the last movetext)")
    return games
