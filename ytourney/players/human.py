"""A person at the terminal as a player: `human` in `ytourney play`, for any game, in the game's own notation.

The seat reads lines from a text stream (the terminal, or a pipe: tests drive it so) and writes to another. Every
move is parsed and tried on a copy of the position first, so an illegal one is refused with the game's own reason
and asked again: nothing is lost. Commands the referee carries out instead of a move (take back, resign, quit) are
raised as `SeatCommand`s; the referee never counts them as the player's fault.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from typing import Any, TextIO

from ytourney.boards.board import Board
from ytourney.boards.text import STONE_CHARS
from ytourney.errors import YTourneyError
from ytourney.games.api import PASS, SWAP, Color, Game, Move, MoveKind, State
from ytourney.games.bot import Limit

HUMAN_SPEC = "human"
"""The player spec of a person at the terminal."""
YES = frozenset({"yes", "swap"})
NO = frozenset({"no"})
LINE_CHARS = 1000
"""The longest line read as a move or command; a longer one is read on in pieces and refused."""


class SeatCommand(BaseException):
    """A human seat's command that the referee carries out instead of a move (BaseException: never a fault)."""


class TakeBack(SeatCommand):
    """Take the game back to `plies` actions (the human's last turn and the reply are undone)."""

    def __init__(self, plies: int) -> None:
        super().__init__(plies)
        self.plies = plies


class Resign(SeatCommand):
    """The human resigns: the game ends as their loss."""


class QuitGame(SeatCommand):
    """The human quits (or the input ended): the game ends without a result and is not recorded; `problem` says what
    failed when the terminal did (its input or output), '' when the person quit."""

    def __init__(self, problem: str = "") -> None:
        super().__init__(problem)
        self.problem = problem


class Console:
    """The terminal the human seats share: the streams, the game's views, and how far the board was last drawn."""

    def __init__(self, game: Game, board: Board, rules: Any, handicap: int, names: Sequence[str],
                 reader: TextIO, writer: TextIO) -> None:
        self.game = game
        self.board = board
        self.rules = rules
        self.handicap = handicap
        self.names = tuple(names)
        self.reader = reader
        self.writer = writer
        self.drawn: int | None = None  # actions shown when the board was last drawn; None: never, or taken back
        self.examples: str | None = None  # the notation's example moves, found when help is first shown
        self.mid_line = False  # a prompt is written and its answer not read: the cursor stands on the prompt's line

    def say(self, text: str = "") -> None:
        """Write a line and flush, so a pipe or a terminal sees it before the next read."""
        self._write(text + "\n")

    def end_line(self) -> None:
        """End the prompt's line when its answer never came (Ctrl-C), so what is said next starts on its own line."""
        if self.mid_line:
            self.mid_line = False
            with contextlib.suppress(QuitGame):  # the terminal failing as the game stops changes nothing more
                self.say()

    def _write(self, text: str) -> None:
        """Write and flush; QuitGame naming the failure when the output cannot take it (a full disk, a closed pipe):
        a person who cannot see the board cannot play, and it is no fault of theirs."""
        try:
            self.writer.write(text)
            self.writer.flush()
        except (OSError, ValueError) as err:
            raise QuitGame(f"cannot write the board and prompts ({getattr(err, 'strerror', None) or err})") from err

    def ask(self, prompt: str) -> str:
        """One line of input, stripped; QuitGame at the end of the input."""
        self.mid_line = True  # before the prompt is written: a Ctrl-C the moment it shows must still end its line
        self._write(prompt)
        try:
            line = self.reader.readline(LINE_CHARS + 1)  # a person's wait: Ctrl-C, EOF and `quit` end it, no deadline
        except (OSError, ValueError) as err:  # the terminal hung up, or the stream was closed
            raise QuitGame(f"cannot read the input ({getattr(err, 'strerror', None) or err})") from err
        self.mid_line = False
        if not line:
            self.say()
            raise QuitGame
        huge = len(line) > LINE_CHARS and not line.endswith("\n")
        if not _is_terminal(self.reader):  # piped input: echoed, so the transcript reads like a session
            self.say(_printable(line[:40] + "..." if huge else line.rstrip("\r\n")))
        if huge:
            while (rest := self.reader.readline(LINE_CHARS)) and not rest.endswith("\n"):
                pass
            self.say(f"a line of more than {LINE_CHARS} characters is not a move or a command ({self.help_text()})")
            return ""
        return line.strip()

    def turn_number(self, ply: int) -> int:
        """The 1-based turn of action `ply` (0-based): a handicap level's stones are turn 1, as records count."""
        return ply + 1 - max(0, min(ply + 1, self.game.first_turn_stones(self.handicap)) - 1)

    def turn_start(self, ply: int) -> int:
        """The first action of the turn that action `ply` belongs to (0 for any of a handicap level's stones)."""
        return 0 if ply < self.game.first_turn_stones(self.handicap) else ply

    def show(self, state: State, *, force: bool = False) -> None:
        """The moves made since the board was last drawn (who made each), then the board and its legend."""
        history = state.history
        if len(history) == self.drawn and not force:
            return
        replayed = self.game.new_state(self.board, self.rules, self.handicap)
        for ply, move in enumerate(history):
            seat, colour = replayed.seat_to_move(), replayed.to_move
            replayed.play(move)
            if self.drawn is None or ply >= self.drawn:
                self.say(f"  {self.turn_number(ply)}. {self.names[seat]} ({self.side(colour)}): "
                         f"{self.game.format_move(self.board, move)}")
        self.drawn = len(history)
        last = next((move for move in reversed(history) if move.path), None)
        self.say(self.game.views.board_text(state, last))
        self.say(f"{STONE_CHARS[int(Color.BLACK)]} {self.side(Color.BLACK)}, "
                 f"{STONE_CHARS[int(Color.WHITE)]} {self.side(Color.WHITE)}; lower case: the last move's stones")

    def side(self, colour: Color) -> str:
        """A colour as the game names its side ('white (Aliens)' where sides differ)."""
        name = self.game.views.side_names.get(colour)
        return f"{colour} ({name})" if name else str(colour)

    def help_text(self) -> str:
        """The commands and the game's notation, shown by one example move of each kind."""
        if self.examples is None:
            self.examples = move_examples(self.game, self.board, self.rules)
        return (f"moves in {self.game.title}'s notation, one of each kind: {self.examples}; commands: "
                "undo (take back your last turn and the reply), resign, quit (end without a result; nothing is "
                "recorded), board (draw it again), help; when offered the pie: swap, or a move to decline")


class HumanBot:
    """A person at the terminal; the referee asks it like any bot, and it asks the person until a move is legal."""

    def __init__(self, name: str, console: Console) -> None:
        self.name = name
        self.console = console
        self.color = Color.BLACK
        self.moved_at: list[int] = []  # the number of actions before each of this seat's own actions
        self.planned: tuple[int, Move] | None = None  # a move typed at the pie prompt, played as the answer after

    def new_game(self, board: Board, rules: Any, color: Color) -> None:
        """Start a game seated as `color`."""
        self.color = color
        self.moved_at.clear()
        self.planned = None

    def swap(self, state: State, limit: Limit) -> bool:
        """Ask whether to take the opponent's first move: `swap` (or yes), `no`, or a move, which declines."""
        console = self.console
        console.show(state)
        first = console.game.format_move(console.board, state.history[-1])
        while True:
            answer = self._read(state, f"{self.name}: swap (take {first} as your own) or play on? "
                                       "[swap / no / a move] ", pie=True)
            if isinstance(answer, Move):
                self.planned = (len(state.history), answer)
                return False
            if answer.lower() in YES:
                self.moved_at.append(len(state.history))
                return True
            if answer.lower() in NO:
                return False
            console.say(f"{answer!r}: expected swap, no or a move ({console.help_text()})")

    def move(self, state: State, limit: Limit) -> Move:
        """Ask for a move until it is legal here; commands raise SeatCommands for the referee."""
        plies = len(state.history)
        if self.planned is not None and self.planned[0] == plies:
            move = self.planned[1]
            self.planned = None
            self.moved_at.append(plies)
            return move
        self.planned = None
        self.console.show(state)
        legal = state.legal_moves()
        forced = " (no move but pass)" if legal and all(move.is_pass for move in legal) else ""
        while True:
            answer = self._read(state, f"{self.console.turn_number(plies)}. {self.name} "
                                       f"({self.console.side(state.to_move)}) to move{forced}: ")
            if isinstance(answer, Move):
                self.moved_at.append(plies)
                return answer
            self.console.say(f"{answer!r}: not a move or command ({self.console.help_text()})")

    def _read(self, state: State, prompt: str, *, pie: bool = False) -> Move | str:
        """A legal move (tried on a copy of `state`), or at the pie prompt (`pie`) a yes or no word; commands are
        carried out or raised."""
        console = self.console
        while True:
            text = console.ask(prompt)
            word = text.lower()
            if not text:
                continue
            if word in ("help", "?"):
                console.say(console.help_text())
            elif word == "board":
                console.show(state, force=True)
            elif word == "quit":
                raise QuitGame
            elif word == "resign":
                raise Resign
            elif word == "undo":
                plies = len(state.history)
                earlier = [at for at in self.moved_at if at < plies]
                if earlier:  # back to the start of this seat's last turn: a handicap's stones go together
                    start = console.turn_start(earlier[-1])
                    self.moved_at = [at for at in earlier if at < start]
                    taken = console.turn_number(plies - 1) - console.turn_number(start) + 1
                    console.say(f"took back {taken} move{'s' if taken != 1 else ''}")
                    console.drawn = None  # the position taken back to is drawn with its moves
                    raise TakeBack(start)
                console.say("nothing to undo: you have not moved yet")
            elif pie and (word in YES or word in NO):
                return word
            else:
                move = self._legal(state, text)
                if move is not None:
                    return move

    def _legal(self, state: State, text: str) -> Move | None:
        """The move `text` names when it is legal now; else None, the game's reason said."""
        console = self.console
        try:
            move = console.game.parse_move(console.board, text)
        except YTourneyError as err:
            console.say(f"{text!r} is not a move: {err}")
            return None
        try:
            state.copy().play(move)
        except YTourneyError as err:
            console.say(f"{text!r} is illegal: {err}")
            return None
        if move.kind is MoveKind.SWAP:  # legal on the board, but this seat already declined the pie
            console.say(f"{text!r}: you declined the swap; give a move")
            return None
        return move

    def close(self) -> None:
        """Nothing to release: the streams belong to the command."""


KIND_WORDS = {MoveKind.PLACE: "a stone", MoveKind.STEP: "a move along a line", MoveKind.JUMP: "a jump",
              MoveKind.PASS: "a pass", MoveKind.SWAP: "the pie swap"}
"""What each kind of move is called in the help's examples."""
EXAMPLE_PLIES = 200
"""How far a sample game is played to find an example of each kind of move (jumps come only some moves in)."""


def move_examples(game: Game, board: Board, rules: Any) -> str:
    """One move of each kind this game has on `board`, in its notation ('c3 (a stone), swap (the pie swap)'): found
    in a sample game of random legal moves (fixed seed), so every example is a real move of the game in play."""
    found: dict[tuple[MoveKind, bool], Move] = {}
    state = game.new_state(board, rules)
    rng = random.Random(0)
    for _ in range(EXAMPLE_PLIES):
        if state.outcome is not None:
            break
        if state.can_swap():
            found.setdefault((MoveKind.SWAP, False), SWAP)
        legal = state.legal_moves()
        if not legal:
            break
        kinds: dict[tuple[MoveKind, bool], list[Move]] = {}
        for move in legal:
            kinds.setdefault((move.kind, move.capture is not None), []).append(move)
        for key, moves in kinds.items():
            found.setdefault(key, moves[len(moves) // 2])  # from the middle of the list: seldom a corner
        state.play(rng.choice(legal))
    if game.has_passes:
        found.setdefault((MoveKind.PASS, False), PASS)
    order = list(MoveKind)
    return ", ".join(f"{game.format_move(board, move)} ({KIND_WORDS[kind]}{' with a capture' * captures})"
                     for (kind, captures), move in sorted(found.items(),
                                                          key=lambda item: (order.index(item[0][0]), item[0][1])))


def _printable(text: str) -> str:
    """`text` with control characters written as escapes: piped input is echoed, never obeyed by the terminal."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def _is_terminal(stream: TextIO) -> bool:
    """True when `stream` is an interactive terminal (which echoes what is typed)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or stream-like object
        return False
