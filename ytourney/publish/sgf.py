"""SGF both ways: our game records as SGF (FF[4]) for other Y tools, and SGF games played elsewhere read back.

Export: `(;FF[4]GM[y]SZ[N]…;B[c3];W[d4]…)`. GM[y] is lower case, as the public Y engines write and check
it. SZ[N] is the side of a `tri:N` board (no SZ on kadon); YB[spec] always names the board. Moves are B[cell]/W[cell]
in ytourney's notation (`c4` on tri, `E5` on kadon) with the stone colour as placed: colours alternate by move order
starting with B (handicap stones are consecutive B nodes). The pie answer is the node property SW[] on a node of its
own; after it PB (the swapper) owns the first stone. Root properties: PB/PW final owners, YF the player who placed
the first stone, HA the handicap level, RU the rules, RE as B+/W+ (connection), B+T/W+T (time) or B+F/W+F (other
faults), YT the termination, GN the game id, EV the tournament, RO the round, DT the date, YS the seed, C the fault.

Import reads ours and morat-style files (GM[y], its first mover called W, cells in our notation, SZ[N]): colours are
read by move order whatever letter the first mover has, so PB/PW name the owners of the second and first movers'
stones there. Every move is replayed by the rules; an illegal one stops the import with its file and move number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ytourney import __version__
from ytourney.errors import RecordError, YTourneyError
from ytourney.game.board import BoardKind, parse_board
from ytourney.game.notation import SWAP, SWAP_TOKEN, move_name, parse_move
from ytourney.game.record import GameRecord, Termination
from ytourney.game.rules import Color, Rules
from ytourney.publish.game_facts import rules_in_play
from ytourney.game.state import GameState

SGF_LINE_WIDTH = 79

# --- export -----------------------------------------------------------------------------------------------------


def _sgf_escape(value: object) -> str:
    return str(value).replace("\\", "\\\\").replace("]", "\\]")


def sgf_result(record: GameRecord) -> str:
    """RE value: B+ / W+ for a completed Y, with T for time and F for other faults."""
    colour = "W" if record.winner is Color.WHITE else "B"
    if record.termination is Termination.CONNECTION:
        return f"{colour}+"
    if record.termination is Termination.TIME:
        return f"{colour}+T"
    return f"{colour}+F"


def stone_colours(record: GameRecord) -> list[str | None]:
    """'B'/'W' for each action of the record as placed (None for the swap), replayed by the rules."""
    board = parse_board(record.board)
    rules = record.rules
    state = GameState(board, rules, record.handicap)
    colours: list[str | None] = []
    try:
        for token in record.moves:
            move = parse_move(board, token)
            colour = state.to_move
            state.play(move)
            colours.append(None if move == SWAP else ("B" if colour is Color.BLACK else "W"))
    except YTourneyError:
        # a damaged record: fall back to plain alternation (handicap stones first) for the rest
        placed = sum(c is not None for c in colours)
        for token in record.moves[len(colours):]:
            if token.lower() == "swap":
                colours.append(None)
                continue
            black_turn = placed < max(1, record.handicap) or (placed - max(1, record.handicap)) % 2 == 1
            colours.append("B" if black_turn else "W")
            placed += 1
    return colours


def game_to_sgf(record: GameRecord) -> str:
    """One game as an SGF (FF[4]) game tree; see the module docstring for the encoding."""
    board = parse_board(record.board)
    rules = [key for key, on in sorted(rules_in_play(record).items()) if on]  # a handicap game has no pie
    root = [("FF", "4"), ("GM", "y"), ("CA", "UTF-8"), ("AP", f"ytourney:{__version__}")]
    if board.kind is BoardKind.TRI:
        root.append(("SZ", str(board.size)))
    root += [("YB", record.board), ("RU", " ".join(["Y", *rules])), ("PB", record.black), ("PW", record.white),
             ("YF", record.first), ("HA", str(record.handicap)), ("RE", sgf_result(record)),
             ("YT", record.termination.value)]
    if record.started[:10]:
        root.append(("DT", record.started[:10]))
    if record.tournament:
        root.append(("EV", record.tournament))
    root.append(("RO", str(record.round)))
    if record.id is not None:
        root.append(("GN", str(record.id)))
    if record.seed is not None:
        root.append(("YS", str(record.seed)))
    if record.reason:
        root.append(("C", f"{record.loser_name} loses by {record.termination.value}: {record.reason}"))
    nodes = [";" + "".join(f"{key}[{_sgf_escape(value)}]" for key, value in root)]
    for token, colour in zip(record.moves, stone_colours(record)):
        if colour is None:
            nodes.append(";SW[]")
        else:
            nodes.append(f";{colour}[{_sgf_escape(token)}]")
    lines, line = [], "("
    for node in nodes:
        if len(line) + len(node) > SGF_LINE_WIDTH and line != "(":
            lines.append(line)
            line = node
        else:
            line += node
    lines.append(line + ")")
    return "\n".join(lines) + "\n"


def _slug(text: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")
    return slug[:60] or "games"


def sgf_filename(record: GameRecord, index: int) -> str:
    """File name of a game's SGF: tournament and game id (or replay index when the record has no id)."""
    number = record.id if record.id is not None else index
    return f"{_slug(record.tournament)}-{number:05d}.sgf"


def to_sgf_collection(records: Iterable[GameRecord]) -> str:
    """Every game as one SGF collection (game trees one after another)."""
    return "".join(game_to_sgf(record) for record in records)


# --- reading ------------------------------------------------------------------------------------------------------

Node = dict[str, list[str]]


class _Parser:
    """A recursive-descent reader of SGF collections that keeps each tree's main line (first variations)."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.at = 0

    def collection(self) -> list[list[Node]]:
        trees = []
        while self._skip() and self.text[self.at] == "(":
            trees.append(self.tree())
        if self._skip():
            raise self.error(f"unexpected {self.text[self.at]!r}")
        return trees

    def tree(self) -> list[Node]:
        self.at += 1  # "("
        nodes: list[Node] = []
        while self._skip() and self.text[self.at] == ";":
            self.at += 1
            nodes.append(self.node())
        first = True
        while self._skip() and self.text[self.at] == "(":
            variation = self.tree()
            if first:
                nodes += variation
                first = False
        if not self._skip() or self.text[self.at] != ")":
            raise self.error("a game tree is not closed with ')'")
        self.at += 1
        return nodes

    def node(self) -> Node:
        node: Node = {}
        while True:
            match = re.compile(r"\s*([A-Za-z]+)\s*\[").match(self.text, self.at)
            if match is None:
                return node
            key = "".join(ch for ch in match.group(1) if ch.isupper())  # FF[3] lower-case letters are dropped
            self.at = match.end() - 1
            values = node.setdefault(key, [])
            while self._skip() and self.text[self.at] == "[":
                values.append(self.value())

    def value(self) -> str:
        chars = []
        self.at += 1  # "["
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == "\\" and self.at + 1 < len(self.text):
                following = self.text[self.at + 1]
                self.at += 2
                if following != "\n":  # an escaped newline is a soft line break
                    chars.append(following)
                continue
            self.at += 1
            if char == "]":
                return "".join(chars)
            chars.append(char)
        raise self.error("a property value is not closed with ']'")

    def _skip(self) -> bool:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1
        return self.at < len(self.text)

    def error(self, problem: str) -> RecordError:
        line = self.text.count("\n", 0, self.at) + 1
        return RecordError(f"{self.source}: not readable SGF at line {line}: {problem}")


def parse_sgf(text: str, source: str = "<sgf>") -> list[list[Node]]:
    """The game trees of an SGF collection, each as its main line of nodes (property name -> values)."""
    return _Parser(text, source).collection()


@dataclass(frozen=True)
class SgfGame:
    """One game read from SGF: its record (tournament and id as the file gives them) and where it came from."""

    record: GameRecord
    source: str


def _one(node: Node, key: str) -> str | None:
    values = node.get(key)
    return values[0].strip() if values else None


def _number(node: Node, key: str, source: str) -> int | None:
    text = _one(node, key)
    if text is None or text == "":
        return None
    if not re.fullmatch(r"-?\d+", text):
        raise RecordError(f"{source}: {key}[{text}] is not a whole number")
    return int(text)


def game_from_sgf(nodes: Sequence[Node], source: str) -> GameRecord:
    """A record from one game tree's main line; RecordError naming `source` (and the move number) when it is no
    game of Y or holds an illegal move."""
    if not nodes:
        raise RecordError(f"{source}: an empty game tree")
    root = nodes[0]
    game = _one(root, "GM")
    if game is None or game.lower() != "y":
        raise RecordError(f"{source}: GM[{game or ''}] is not a game of Y; expected GM[y]")
    spec = _one(root, "YB") or (f"tri:{_one(root, 'SZ')}" if _one(root, "SZ") else None)
    if spec is None:
        raise RecordError(f"{source}: no board: give SZ[N] for tri:N (or YB[spec])")
    try:
        board = parse_board(spec)
    except YTourneyError as err:
        raise RecordError(f"{source}: {err}") from err
    rules_words = (_one(root, "RU") or "Y").lower().split()
    handicap = _number(root, "HA", source) or 0
    pie = "pie" in rules_words or handicap > 0  # a handicap game says no pie: it had none, whatever the tournament's
    rules = Rules(pie=pie, misere="misere" in rules_words) if rules_words[:1] == ["y"] else Rules()
    state = GameState(board, rules, handicap)
    moves: list[str] = []
    first_letter = ""
    for node in nodes[1:]:
        letter = "B" if "B" in node else "W" if "W" in node else ""
        token = SWAP_TOKEN if "SW" in node else (_one(node, letter) or "") if letter else None
        if token is None:
            continue  # a node without a move (a comment, a setup we do not know)
        number = len(moves) + 1
        try:
            move = parse_move(board, token)
            state.play(move)
        except YTourneyError as err:
            raise RecordError(f"{source}: move {number} ({token or 'empty'!r}) is illegal: {err}") from err
        if move != SWAP and not first_letter:
            first_letter = letter
        moves.append(move_name(board, move))
    first_letter = first_letter or "B"
    other_letter = "W" if first_letter == "B" else "B"
    black = _one(root, f"P{first_letter}") or "first mover"  # the owner of the first mover's stones
    white = _one(root, f"P{other_letter}") or "second mover"
    first, second = (white, black) if state.swapped else (black, white)
    result = _one(root, "RE") or ""
    termination_text = _one(root, "YT")
    try:
        termination = Termination(termination_text) if termination_text else (
            Termination.TIME if result.upper().endswith("+T") else
            Termination.FORFEIT if result.upper().endswith(("+F", "+R", "+RESIGN")) else Termination.CONNECTION)
    except ValueError as err:
        raise RecordError(f"{source}: YT[{termination_text}] is no termination; expected one of "
                          f"{', '.join(t.value for t in Termination)}") from err
    letter = result[:1].upper()
    if letter in ("B", "W"):
        winner = Color.BLACK if letter == first_letter else Color.WHITE
    elif state.is_over:
        winner = state.winner
    else:
        raise RecordError(f"{source}: no result (RE[B+] or RE[W+]) and the game is not over")
    if termination is Termination.CONNECTION and (not state.is_over or state.winner is not winner):
        shown = "the game is not over" if not state.is_over else "the Y on the board says otherwise"
        raise RecordError(f"{source}: RE[{result}] names a winner by connection but {shown} after "
                          f"{len(moves)} moves")
    loser = (white if winner is Color.BLACK else black) if termination.is_fault else ""
    reason = _one(root, "C") or ""
    prefix = f"{loser} loses by {termination.value}: "
    reason = reason[len(prefix):] if termination.is_fault and reason.startswith(prefix) else ""
    date = _one(root, "DT") or ""
    started = f"{date[:10]}T00:00:00.000Z" if re.fullmatch(r"\d{4}-\d{2}-\d{2}.*", date) else ""
    return GameRecord(
        tournament=_one(root, "EV") or "", round=_number(root, "RO", source) or 0, board=board.spec, rules=rules,
        handicap=handicap, first=first, second=second, black=black, white=white, moves=tuple(moves), winner=winner,
        termination=termination, move_seconds=(0.0,) * len(moves), seed=_number(root, "YS", source),
        started=started, finished=started, id=_number(root, "GN", source), reason=reason,
    )


def read_sgf_games(text: str, source: str) -> list[GameRecord]:
    """Every game of an SGF collection as a record."""
    trees = parse_sgf(text, source)
    if not trees:
        raise RecordError(f"{source}: holds no SGF game tree")
    many = len(trees) > 1
    return [game_from_sgf(tree, f"{source} game {number}" if many else source)
            for number, tree in enumerate(trees, start=1)]
