"""SGF both ways: our game records as SGF (FF[4]) for other tools, and SGF games played elsewhere read back.

Export: `(;FF[4]GM[y]SZ[N]…;B[c3];W[d4]…)` for Y. GM[y] is lower case, as the public Y engines write
and check it; every other game is GM[ytourney-<game>] (the game's `sgf_game`), its moves in the game's own notation
(`E5-E7`, `F8-H6-H4`). SZ[N] is the side of a `tri:N` board (no SZ on other boards); YB[spec] always names the
board, YG[game] the game when it is not Y. Moves are B[move]/W[move] with the colour of the side that made them
(handicap stones are consecutive B nodes). The pie answer is the node property SW[] on a node of its own; after it
PB (the swapper) owns the first stone. Root properties: PB/PW final owners, YF the player who placed the first
stone, HA the handicap level, RU the rules (the game's title, then each option on, or option=value), RE as B+/W+
(a rule ending, B+<margin> with a score), B+T/W+T (time), B+F/W+F (other faults), B+R/W+R (an adjudicated
resignation) or 0 (a draw), YT the termination, YS the seed, GN the game id, EV the tournament, RO the round, DT the
date, C the fault or the adjudication's reason.

Import reads ours and morat-style files (GM[y], its first mover called W, cells in our notation, SZ[N]): colours are
read by move order whatever letter the first mover has, so PB/PW name the owners of the second and first movers'
stones there. RU is read by the game's typed rule reader (an RU of another game is refused). Every move is replayed
by the rules; an illegal one stops the import with its file and move number, and the final position decides the
ending: RE and YT must agree with it (a game not over was lost by a fault).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ytourney import __version__
from ytourney.errors import RecordError, YTourneyError
from ytourney.games.api import SWAP_TOKEN, Color, Game, Move, MoveKind, Termination
from ytourney.games.record import GameRecord
from ytourney.games.registry import all_games, game_names
from ytourney.games.rules import RULE_KINDS, RuleOption, rule_from_text
from ytourney.games.replay import ReplayError, replay, replay_record
from ytourney.publish.game_facts import rules_in_play

SGF_LINE_WIDTH = 79
SGF_GAME_PREFIX = "ytourney-"
"""GM[ytourney-<game>]: the SGF game of a game with no standard SGF number or name."""
MAX_SGF_NODES = 100_000
"""Most nodes one game tree's main line may hold (no game of ours lasts that long): memory stays bounded."""
NUMBER_BOUNDS: dict[str, tuple[int, int]] = {"GN": (0, 2**53), "RO": (0, 2**31 - 1), "YS": (0, 2**63 - 1),
                                             "HA": (0, 10_000)}
"""The whole numbers of the root node and what is accepted (the store keeps them as 64-bit integers)."""

FAULT_RESULTS = ("+F", "+R", "+RESIGN")
"""RE endings of a game lost by a fault other than time (B+T, W+T)."""

# --- export -----------------------------------------------------------------------------------------------------


def _sgf_escape(value: object) -> str:
    return str(value).replace("\\", "\\\\").replace("]", "\\]")


def sgf_result(record: GameRecord) -> str:
    """RE value: B+ / W+ for a rule ending (B+<margin> with a score), T for time, F for other faults, R for an
    adjudicated resignation, 0 a draw."""
    if record.winner is None:
        return "0"
    colour = "W" if record.winner is Color.WHITE else "B"
    if record.termination is Termination.TIME:
        return f"{colour}+T"
    if record.termination.is_fault:
        return f"{colour}+F"
    if record.termination is Termination.ADJUDICATED_RESIGN:
        return f"{colour}+R"
    if record.score is not None:
        return f"{colour}+{abs(record.score[0] - record.score[1]):g}"
    return f"{colour}+"


def fallback_colours(record: GameRecord, known: Sequence[str | None]) -> list[str | None]:
    """Colours of the moves after `known` (those that replayed) in plain alternation, handicap stones first, for
    a damaged record: 'B'/'W' by the game's first colour, None for a swap."""
    first = "B" if record.game_rules.first_color is Color.BLACK else "W"
    second = "W" if first == "B" else "B"
    placed = sum(c is not None for c in known)
    stones = record.game_rules.first_turn_stones(record.handicap)
    colours: list[str | None] = []
    for token in record.moves[len(known):]:
        if token.lower() == SWAP_TOKEN:
            colours.append(None)
            continue
        first_turn = placed < stones or (placed - stones) % 2 == 1
        colours.append(first if first_turn else second)
        placed += 1
    return colours


def stone_colours(record: GameRecord) -> list[str | None]:
    """'B'/'W' for each action of the record as made (None for the swap), replayed by the rules."""
    colours: list[str | None] = []

    def visit(number: int, move: Move, colour: Color) -> None:
        colours.append(None if move.kind is MoveKind.SWAP else "B" if colour is Color.BLACK else "W")

    try:
        replay_record(record, visit)
    except YTourneyError:
        pass  # a damaged record: plain alternation for the rest
    return colours + fallback_colours(record, colours)


def rules_words(game: Game, rules: Any) -> str:
    """RU value: the game's title, then each option that is on (booleans) or option=value."""
    words = [game.title]
    for key, value in sorted(game.rules_dict(rules).items()):
        if value is True:
            words.append(key)
        elif value is not False and value is not None:
            words.append(f"{key}={json.dumps(value, separators=(',', ':'))}")
    return " ".join(words)


def game_to_sgf(record: GameRecord) -> str:
    """One game as an SGF (FF[4]) game tree; see the module docstring for the encoding."""
    variant = record.variant
    game, board = variant.game, variant.board
    root = [("FF", "4"), ("GM", game.sgf_game), ("CA", "UTF-8"), ("AP", f"ytourney:{__version__}")]
    if board.kind.value == "tri":
        root.append(("SZ", str(board.size)))
    root.append(("YB", record.board))
    if game.sgf_game != game.name:  # GM[...] does not name the game (only Y's does): YG names it
        root.append(("YG", game.name))
    played_rules = game.parse_rules(rules_in_play(record))  # a handicap game has no pie, whatever the tournament's
    root += [("RU", rules_words(game, played_rules)), ("PB", record.black), ("PW", record.white),
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
    if record.score is not None:
        root.append(("YC", f"{record.score[0]:g} {record.score[1]:g}"))
    if record.reason and record.termination.is_adjudicated:
        root.append(("C", record.reason))
    elif record.reason and record.winner is not None:
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
    """A reader of SGF collections that keeps each tree's main line (first variations), with an explicit stack:
    variations nested a million deep cost no recursion."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.at = 0

    def collection(self) -> Iterator[list[Node]]:
        """Each game tree's main line in turn (read lazily: one tree in memory at a time)."""
        while self._skip() and self.text[self.at] == "(":
            yield self.tree()
        if self._skip():
            raise self.error(f"unexpected {self.text[self.at]!r}")

    def tree(self) -> list[Node]:
        """The main line of the tree opening here: its nodes, then its first variation's, and so on."""
        self.at += 1  # "("
        nodes: list[Node] = []
        frames = [[True, False]]  # per open tree: on the main line, a variation of it seen
        while frames:
            frame = frames[-1]
            while self._skip() and self.text[self.at] == ";":
                self.at += 1
                node = self.node()
                if frame[0]:
                    nodes.append(node)
                    if len(nodes) > MAX_SGF_NODES:
                        raise self.error(f"more than {MAX_SGF_NODES} nodes in one game; expected a game")
            if self._skip() and self.text[self.at] == "(":
                self.at += 1
                frames.append([frame[0] and not frame[1], False])  # only the first variation continues the line
                frame[1] = True
            elif self._skip() and self.text[self.at] == ")":
                self.at += 1
                frames.pop()
            else:
                raise self.error("a game tree is not closed with ')'")
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
    return list(_Parser(text, source).collection())


@dataclass(frozen=True)
class SgfGame:
    """One game read from SGF: its record (tournament and id as the file gives them) and where it came from."""

    record: GameRecord
    source: str


def _one(node: Node, key: str) -> str | None:
    values = node.get(key)
    return values[0].strip() if values else None


def _shown(text: str, limit: int = 40) -> str:
    """A value as an error shows it: cut to `limit` characters."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _number(node: Node, key: str, source: str) -> int | None:
    """The whole number of a root property, within NUMBER_BOUNDS; None when it is absent or empty."""
    text = _one(node, key)
    if text is None or text == "":
        return None
    low, high = NUMBER_BOUNDS[key]
    if not re.fullmatch(r"-?[0-9]{1,30}", text) or not low <= int(text) <= high:
        raise RecordError(f"{source}: {key}[{_shown(text)}] is not a whole number from {low} to {high}")
    return int(text)


def _player(node: Node, key: str) -> str | None:
    """A player name (PB, PW): spaces kept, runs of white space (a wrapped line, a tab) as one space."""
    text = _one(node, key)
    return " ".join(text.split()) if text else None


def _scores(text: str | None, source: str) -> tuple[float, float] | None:
    """The YC value: Black's and White's scores, two finite numbers; None when there is none."""
    words = (text or "").split()
    if len(words) != 2:
        return None
    try:
        scores = (float(words[0]), float(words[1]))
    except ValueError as err:
        raise RecordError(f"{source}: YC[{_shown(text or '')}] is not two scores; expected two numbers") from err
    if not all(math.isfinite(score) for score in scores):
        raise RecordError(f"{source}: YC[{_shown(text or '')}] is not two scores; expected two finite numbers")
    return scores


def sgf_game_of(value: str | None, source: str) -> Game:
    """The game of a GM[...] value: GM[y] or GM[ytourney-<game>] (any case)."""
    text = (value or "").strip().lower()
    for name, game in all_games().items():
        if text == game.sgf_game.lower() or text == f"{SGF_GAME_PREFIX}{name}":
            return game
    raise RecordError(f"{source}: GM[{value or ''}] is not a game ytourney plays; expected GM[y] or "
                      f"GM[{SGF_GAME_PREFIX}<game>] with a game of {', '.join(game_names())}")


def _titled(text: str, title: str) -> bool:
    """True when `text` begins with the game title `title` as whole words (any case)."""
    return text.lower() == title.lower() or text.lower().startswith(title.lower() + " ")


def _rules_of(game: Game, text: str | None, source: str) -> Any:
    """The rules of an RU value as `rules_words` writes it (the game's title, then each option on or option=value),
    each value read as `--rule` reads it, then checked by the game's typed rule reader; no RU reads as the title alone.
    RecordError naming the file and the game for an RU of another game, or for a value the reader refuses."""
    text = " ".join((text or "").split()) or game.title  # no RU: the title alone, every switch off (as morat's)
    shown = _shown(text, 60)
    if not _titled(text, game.title):
        named = [other for other in all_games().values() if _titled(text, other.title)]
        what = f"names the game {named[0].name!r}" if named else f"does not begin with the game's title {game.title!r}"
        raise RecordError(f"{source}: RU[{shown}] {what}; a game of {game.name} has RU[{game.title} ...]")
    given: dict[str, Any] = {}
    for word in text[len(game.title):].split():
        key, equals, value = word.partition("=")
        key = key.lower()
        if key in given:
            raise RecordError(f"{source}: RU[{shown}] gives the {game.name} rule {key!r} twice")
        option = game.rule_options.get(key)
        if not equals or option is None:  # a switch that is on, or a key the rules reader refuses by name
            given[key] = value if equals else True
            continue
        try:
            given[key] = _ru_value(value, option)
        except ValueError:
            kind = RULE_KINDS.get(option.type, option.type.__name__)
            raise RecordError(f"{source}: RU[{shown}]: {game.name} rule {key}={_shown(value)!r}: expected {kind}") \
                from None
    data = {key: given.get(key, False) if option.type is bool else given[key]
            for key, option in game.rule_options.items() if option.type is bool or key in given}
    data.update({key: value for key, value in given.items() if key not in data})
    try:
        return game.parse_rules(data)
    except YTourneyError as err:
        raise RecordError(f"{source}: RU[{shown}]: {err}") from err


def _ru_value(text: str, option: RuleOption) -> Any:
    """One RU rule value, read as `--rule` reads it (rule_from_text: on/off, yes/no, default, ASCII numbers); a word
    in JSON quotes, as `rules_words` writes one, is that word. ValueError for anything else."""
    if option.type is str and text.startswith('"'):
        try:
            word = json.loads(text)
        except (ValueError, RecursionError) as err:
            raise ValueError(text) from err
        if not isinstance(word, str):
            raise ValueError(text)
        return word
    return rule_from_text(text, option)


def _winner(result: str, first_letter: str, state: Any, source: str) -> Color | None:
    """The winning colour of an RE value read by move order (None for a draw)."""
    letter = result[:1].upper()
    if letter in ("B", "W"):
        return Color.BLACK if letter == first_letter else Color.WHITE
    if result.strip().lower() in ("0", "draw", "jigo"):
        return None
    if state.is_over:
        return state.outcome.winner
    raise RecordError(f"{source}: no result (RE[B+], RE[W+] or RE[0]) and the game is not over")


def _ending_text(letters: Mapping[Color, str], winner: Color | None, termination: Termination) -> str:
    """An ending in words, the colours by the file's letters: 'a draw by move-limit', 'a win for B by figure'."""
    if winner is None:
        return f"a draw by {termination.value}"
    return f"a win for {letters[winner]} by {termination.value}"


def _ending(game: Game, state: Any, result: str, termination: Termination | None, winner: Color | None,
            plies: int, letters: Mapping[Color, str], source: str) -> Termination:
    """The game's termination, decided by the replay: a finished position ends as the rules say, and RE and YT
    must agree with it; an unfinished one can only have ended by a fault (time, illegal, crash, ...) with a winner,
    or by adjudication (a resignation with a winner, a draw without).
    RecordError naming the file and the game for a record that contradicts its position."""
    outcome = state.outcome
    claimed = f"RE[{result}]" + (f" YT[{termination.value}]" if termination is not None else "")
    if outcome is not None:
        by_fault = result.upper().endswith((*FAULT_RESULTS, "+T"))  # a fault said by RE whatever YT says
        if termination in (None, outcome.termination) and winner is outcome.winner and not by_fault:
            return outcome.termination
        said = _ending_text(letters, winner, termination or outcome.termination) + (" by a fault" if by_fault else "")
        raise RecordError(f"{source}: {claimed} says {said}, but this game of {game.name} ends after {plies} moves "
                          f"in {_ending_text(letters, outcome.winner, outcome.termination)}")
    if termination is not None and termination.is_fault and winner is not None:
        return termination
    resigned = winner is not None and not result.upper().endswith(("+F", "+T"))  # B+, B+R: no fault said
    if (termination is Termination.ADJUDICATED_RESIGN and resigned) or (
            termination is Termination.ADJUDICATED_DRAW and winner is None):
        return termination
    if termination is not None and termination.is_fault:
        raise RecordError(f"{source}: {claimed} is a draw by {termination.value}, but a fault loses the game; "
                          f"expected RE[B+F] or RE[W+F] (this game of {game.name} is not over after {plies} moves)")
    said = _ending_text(letters, winner, termination) if termination is not None else (
        "a draw" if winner is None else f"a win for {letters[winner]}")
    raise RecordError(f"{source}: {claimed} says {said}, but this game of {game.name} is not over after {plies} "
                      "moves; a game cut short is lost by a fault (YT[time], YT[forfeit], ...) or adjudicated "
                      "(YT[adjudicated-resign] with a winner, YT[adjudicated-draw] with RE[0])")


def _board_property(game: Game) -> str:
    """How an SGF file names a board of `game`: SZ[N] where it plays tri:N (SZ names a tri board only), else YB."""
    try:
        game.parse_board("tri:5")
    except YTourneyError:
        return f"YB[spec] with a board of {game.name}: {game.boards_help}"
    return "SZ[N] for tri:N (or YB[spec])"


def game_from_sgf(nodes: Sequence[Node], source: str) -> GameRecord:
    """A record from one game tree's main line; RecordError naming `source` (and the move number) when it is no
    game ytourney knows or holds an illegal move."""
    if not nodes:
        raise RecordError(f"{source}: an empty game tree")
    root = nodes[0]
    game = sgf_game_of(_one(root, "GM"), source)
    named = _one(root, "YG")
    if named is not None and named.lower() != game.name:
        raise RecordError(f"{source}: GM[{_shown(_one(root, 'GM') or '')}] is a game of {game.name} but "
                          f"YG[{_shown(named)}] names another; expected YG[{game.name}] or no YG")
    spec = _one(root, "YB") or (f"tri:{_one(root, 'SZ')}" if _one(root, "SZ") else None)
    if spec is None:
        raise RecordError(f"{source}: no board: give {_board_property(game)}")
    try:
        board = game.parse_board(spec)
    except YTourneyError as err:
        raise RecordError(f"{source}: {err}") from err
    rules = _rules_of(game, _one(root, "RU"), source)
    handicap = _number(root, "HA", source) or 0
    if handicap and not game.has_handicap:
        raise RecordError(f"{source}: HA[{handicap}]: {game.name} has no handicap ladder; expected HA[0] or no HA")
    pie = game.rule_options["pie"].default if "pie" in game.rule_options else None
    if handicap > 0 and pie is True and game.rules_dict(rules).get("pie") is False:  # written without it (no pie
        rules = game.parse_rules({**game.rules_dict(rules), "pie": True})  # in a handicap game): the game's default
    tokens: list[str] = []
    letters: list[str] = []
    for node in nodes[1:]:
        letter = "B" if "B" in node else "W" if "W" in node else ""
        token = SWAP_TOKEN if "SW" in node else (_one(node, letter) or "") if letter else None
        if token is None:
            continue  # a node without a move (a comment, a setup we do not know)
        tokens.append(token)
        letters.append("" if "SW" in node else letter)
    moves: list[str] = []
    first_letter = ""

    def visit(number: int, move: Move, colour: Color) -> None:
        nonlocal first_letter
        if move.kind is not MoveKind.SWAP and not first_letter:
            first_letter = letters[number - 1]
        moves.append(game.format_move(board, move))

    try:
        state = replay(game, board, rules, handicap, tokens, visit)
    except ReplayError as err:
        raise RecordError(f"{source}: move {err.number} ({err.token or 'empty'!r}) is illegal: "
                          f"{err.__cause__ or err}") from err
    except YTourneyError as err:  # before the first move: a handicap the board cannot take
        raise RecordError(f"{source}: {err}") from err
    first_letter = first_letter or ("B" if game.first_color is Color.BLACK else "W")
    other_letter = "W" if first_letter == "B" else "B"
    first_colour = game.first_color
    # PB/PW as read by move order: the owner of the first mover's stones, then of the other's
    first_owner = _player(root, f"P{first_letter}") or "first mover"
    other_owner = _player(root, f"P{other_letter}") or "second mover"
    black, white = (first_owner, other_owner) if first_colour is Color.BLACK else (other_owner, first_owner)
    first, second = (other_owner, first_owner) if state.swapped else (first_owner, other_owner)
    if first_owner == other_owner:
        raise RecordError(f"{source}: PB and PW both name {_shown(first_owner)!r}; a game against oneself is not "
                          "rated, expected two players")
    result = _one(root, "RE") or ""
    termination_text = _one(root, "YT")
    try:
        termination = Termination.parse(termination_text) if termination_text else (
            Termination.TIME if result.upper().endswith("+T") else
            Termination.FORFEIT if result.upper().endswith(FAULT_RESULTS) else None)
    except RecordError as err:
        raise RecordError(f"{source}: YT[{termination_text}] is no termination: {err}") from err
    black_letter = first_letter if first_colour is Color.BLACK else other_letter
    winner = _winner(result, black_letter, state, source)
    letters = {Color.BLACK: black_letter, Color.WHITE: "W" if black_letter == "B" else "B"}
    termination = _ending(game, state, result, termination, winner, len(moves), letters, source)
    loser = (white if winner is Color.BLACK else black) if termination.is_fault else ""
    reason = _one(root, "C") or ""
    prefix = f"{loser} loses by {termination.value}: "
    if not termination.is_adjudicated:  # an adjudication's comment is its reason as it stands
        reason = reason[len(prefix):] if termination.is_fault and reason.startswith(prefix) else ""
    if state.outcome is not None:
        reason = state.outcome.reason  # a rule ending's reason is the replay's, whatever C says
    date = _one(root, "DT") or ""
    started = f"{date[:10]}T00:00:00.000Z" if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}.*", date) else ""
    score = _scores(_one(root, "YC"), source)
    outcome = state.outcome
    if score is None and outcome is not None and outcome.score is not None:
        score = outcome.score
    return GameRecord(
        game=game.name, score=score,
        tournament=_one(root, "EV") or "", round=_number(root, "RO", source) or 0, board=board.spec, rules=rules,
        handicap=handicap, first=first, second=second, black=black, white=white, moves=tuple(moves), winner=winner,
        termination=termination, move_seconds=(0.0,) * len(moves), seed=_number(root, "YS", source),
        started=started, finished=started, id=_number(root, "GN", source), reason=reason,
    )


def read_sgf_games(text: str, source: str, *, limit: int | None = None) -> list[GameRecord]:
    """Every game of an SGF collection as a record, read one tree at a time (the next one read ahead, to name
    games by number in a collection); more than `limit` games is an error."""
    trees = _Parser(text, source).collection()
    current = next(trees, None)
    if current is None:
        raise RecordError(f"{source}: holds no SGF game tree")
    following = next(trees, None)
    many = following is not None
    records: list[GameRecord] = []
    while current is not None:
        if limit is not None and len(records) >= limit:
            raise RecordError(f"{source}: more than {limit} games; expected at most {limit} in one import")
        records.append(game_from_sgf(current, f"{source} game {len(records) + 1}" if many else source))
        current, following = following, (next(trees, None) if following is not None else None)
    return records
