"""A bot hosted in a child process: plugin code loaded and called only behind a deadline and a process boundary.

`HostedBot` forks a child that imports the plugin, builds the bot and answers `new_game`, `move`, `swap` and
`close` over a pipe. The child turns every answer into a plain value (a move's notation, a bool) and every error
into a capped line before anything crosses the pipe, so nothing the plugin returns is ever formatted in the parent.
The parent waits for each answer up to its deadline; a child past it is killed (the call is lost on time), a child
that ends (os._exit, a segfault, closed descriptors, a memory limit) is a crash named with its exit code. A copy of
the child that the plugin forked returns into our loop and is ended at once, so an answer never arrives twice.
`ytourney play`, `ytourney gtp` and the start check of `run` and `validate` use it.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import pickle
import signal
import sys
import time
from multiprocessing.connection import Connection, Pipe
from typing import Any

from ytourney.boards.board import Board
from ytourney.errors import IllegalAnswerError, PlayerFault, PluginError, YTourneyError
from ytourney.games.api import Color, Game, Move
from ytourney.games.bot import Limit
from ytourney.players.gtp.reaper import become_subreaper, keep, mark_descendants, reap_orphans, release
from ytourney.players.untrusted import (
    cap,
    describe_error,
    limit_memory,
    memory_note,
    plain_move,
    plain_swap,
    player_memory,
)

START_SECONDS = 60.0
"""Deadline of loading a plugin and building its bot (its import and constructor), and of its game setup."""
CLOSE_SECONDS = 5.0
"""Deadline of a plugin's close(); past it the child is killed."""
UNTIMED_SECONDS = 1800.0
"""Deadline of one decision when neither the caller nor the Limit bounds it."""
GRACE_SECONDS = 2.0
"""Seconds a decision may run past its Limit before the child is killed."""
REPLY_BYTES = 64 * 1024
"""Longest reply the parent reads from the child (answers and messages are capped far below it)."""
FORKED_COPY_EXIT = 0
"""Exit code of a copy of the child forked by plugin code, ended as soon as it returns into the host loop."""


_private_fds: set[int] = set()  # descriptors of this process a hosted plugin must never hold (the GTP stream)


def keep_private(fd: int) -> None:
    """Never let a hosted plugin hold descriptor `fd` of this process (closed in every child forked from now on)."""
    _private_fds.add(fd)


class TimeFault(PlayerFault):
    """A hosted bot did not answer before its deadline (the child was killed)."""

    termination = "time"


def _die_with_parent() -> None:
    """Ask Linux to kill this child when its parent dies."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class HostedBot:
    """A bot of `spec` living in a child process; calls wait up to their deadline, answers arrive as plain values."""

    def __init__(self, spec: Any, seed: int | None, game: Game, *, memory_mb: int | None = None,
                 start_seconds: float | None = None, untimed_seconds: float = UNTIMED_SECONDS, what: str = "",
                 restart: bool = False) -> None:
        self.game = game
        self.what = what or str(spec)
        self.name = "plugin"
        self.close_problem = ""
        self.untimed_seconds = untimed_seconds
        self._spec, self._seed = spec, seed
        self._start_seconds = START_SECONDS if start_seconds is None else start_seconds
        self._memory_mb = player_memory() if memory_mb is None else memory_mb
        self._restart = restart  # a call after the child was lost starts a new one (the GTP server's bot)
        self._setup: tuple[Any, ...] | None = None  # the last new_game, replayed into a restarted child
        self._pid = 0
        self._conn: Connection | None = None
        self._spawn()

    def _spawn(self) -> None:
        """Fork the child, which loads the plugin and builds the bot within the start deadline."""
        become_subreaper()  # what the plugin forks and leaves is adopted by us, and ended
        parent_conn, child_conn = Pipe(duplex=True)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            parent_conn.close()
            _child_main(child_conn, self._spec, self._seed, self.game, self._memory_mb)
        child_conn.close()
        self._pid, self._conn = pid, parent_conn
        keep(pid)  # marked, yet ours while it runs
        try:
            kind, value = self._wait(self._start_seconds, "loading and building it")
        except PlayerFault as err:
            raise PluginError(f"{self.what} could not be started: {err}") from None
        if kind != "ok":
            self._end()
            raise PluginError(f"{self.what} could not be started: {value}")
        self.name = value

    # --- the bot protocol -----------------------------------------------------------------------------------------

    def new_game(self, board: Board, rules: Any, color: Color) -> None:
        """Forwarded, with the start deadline."""
        self._setup = (board, rules, color)
        self._ask("new_game", self._setup, self._start_seconds, "setting up a game")

    def move(self, state: Any, limit: Limit) -> Move:
        """Forwarded; the answer comes back as a Move (an illegal answer raises IllegalAnswer-style faults)."""
        answer = self._ask("move", (state, limit), self.seconds(limit), "choosing a move")
        try:
            if not isinstance(answer, str):
                raise IllegalAnswerError("answered no move")
            return self.game.parse_move(state.board, answer)
        except YTourneyError as err:
            self._end()  # our own child sends only our notation: something else wrote on its pipe
            raise IllegalAnswerError(f"answered {cap(answer if isinstance(answer, str) else '', 80)!r}, which is "
                                     f"not a move ({err})") from None

    def swap(self, state: Any, limit: Limit) -> bool:
        """Forwarded; the answer comes back as a plain bool."""
        return self._ask("swap", (state, limit), self.seconds(limit), "answering the pie offer") is True

    def close(self) -> None:
        """Close the bot in the child (deadline CLOSE_SECONDS) and end the child; a problem is kept in
        `close_problem`, never raised."""
        if not self._pid:
            return
        try:
            self._ask("close", (), CLOSE_SECONDS, "closing")
        except PlayerFault as err:
            self.close_problem = str(err)
        finally:
            self._end()

    # --- the parent's side --------------------------------------------------------------------------------------

    def seconds(self, limit: Limit) -> float:
        """The deadline of a decision under `limit`: its time (a clock's remaining time) plus GRACE_SECONDS, else
        `untimed_seconds`."""
        budget = limit.remaining if limit.remaining is not None else limit.seconds
        return self.untimed_seconds if budget is None else budget + GRACE_SECONDS

    @property
    def alive(self) -> bool:
        """Whether the child still runs."""
        return bool(self._pid)

    def _ask(self, op: str, args: tuple[Any, ...], seconds: float, doing: str) -> Any:
        if not self._pid and self._restart and op != "close":
            self._spawn()
            if op != "new_game" and self._setup is not None:
                self._ask("new_game", self._setup, self._start_seconds, "setting up the game again")
        if not self._pid or self._conn is None:
            raise PlayerFault(f"{self.what} is no longer running")
        try:
            self._conn.send_bytes(pickle.dumps((op, args), protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:
            self._wait(1.0, doing)  # the child is gone: say how
        kind, value = self._wait(seconds, doing)
        if kind == "ok":
            return value
        if kind == "illegal":
            raise IllegalAnswerError(value)
        raise PlayerFault(value)

    def _wait(self, seconds: float, doing: str) -> tuple[str, Any]:
        """The child's next reply; a fault when it is late (the child is killed) or gone."""
        assert self._conn is not None
        try:
            ready = self._conn.poll(max(0.0, seconds))
            data = self._conn.recv_bytes(REPLY_BYTES) if ready else None
        except (EOFError, OSError):
            code = self._end()
            raise PlayerFault(f"ended its process while {doing} ({_exit_text(code)})") from None
        except BaseException:  # an alarm or Ctrl-C while waiting: the child's answer would come out of step
            self._end()
            raise
        if data is None:
            self._end()
            raise TimeFault(f"gave no answer within {seconds:g}s while {doing}; its process was killed")
        try:  # JSON, never pickle: the plugin's process could write anything on this pipe
            kind, value = json.loads(data.decode("utf-8"))
            if not isinstance(kind, str) or not isinstance(value, (str, bool, type(None))):
                raise ValueError("not a reply")
        except ValueError:
            self._end()
            raise PlayerFault(f"wrote {len(data)} bytes that are not an answer on its pipe while {doing}") from None
        return kind, value

    def _end(self) -> int | None:
        """Kill and reap the child (if it still runs) and whatever it left; its exit status."""
        pid, self._pid = self._pid, 0
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.close()
            self._conn = None
        if not pid:
            return None
        status = None
        with contextlib.suppress(ChildProcessError, OSError):
            done, status = os.waitpid(pid, os.WNOHANG)
            if not done:
                deadline = time.monotonic() + 0.2  # a child that is exiting on its own is given a moment
                while not done and time.monotonic() < deadline:
                    time.sleep(0.01)
                    done, status = os.waitpid(pid, os.WNOHANG)
            if not done:
                os.kill(pid, signal.SIGKILL)
                _, status = os.waitpid(pid, 0)
        release(pid)
        reap_orphans()
        return status


def _exit_text(status: int | None) -> str:
    if status is None:
        return "exit status unknown"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            return f"killed by {signal.Signals(number).name}"
        except ValueError:
            return f"killed by signal {number}"
    return f"exit code {os.WEXITSTATUS(status)}"


# --- the child's side -----------------------------------------------------------------------------------------


def _child_main(conn: Connection, spec: Any, seed: int | None, game: Game, memory_mb: int) -> None:
    """Run the hosted bot; never returns (os._exit)."""
    code = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C means
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _die_with_parent()
        mark_descendants()  # whatever the plugin starts is ended by the parent once the child is gone
        limit_memory(memory_mb)
        for fd in _private_fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.dup2(2, 1)  # what the plugin prints never reaches a protocol or a table on stdout
            nothing = os.open(os.devnull, os.O_RDONLY)
            os.dup2(nothing, 0)  # nor does it read the controller's commands
            os.close(nothing)
        sys.stdout = sys.stderr
        sys.stdin = open(os.devnull)  # noqa: SIM115 - the child's whole life
        _serve(conn, spec, seed, game)
    except BaseException:  # noqa: BLE001 - the child ends here whatever happened
        code = 70
    finally:
        os._exit(code)


def _send(conn: Connection, me: int, kind: str, value: Any) -> None:
    if os.getpid() != me:  # a copy forked by the plugin: it never answers
        os._exit(FORKED_COPY_EXIT)
    conn.send_bytes(json.dumps([kind, value]).encode("utf-8"))


def _serve(conn: Connection, spec: Any, seed: int | None, game: Game) -> None:
    from ytourney.players.spec import create_bot

    me = os.getpid()
    try:
        bot = create_bot(spec, seed)
        name = getattr(bot, "name", "")
        name = cap(name, 80) if isinstance(name, str) and name else "plugin"
    except YTourneyError as err:
        _send(conn, me, "error", cap(str(err)))
        return
    except BaseException as err:  # noqa: BLE001 - anything the plugin raises at import or in its constructor
        _send(conn, me, "error", describe_error(err) + memory_note(err))
        return
    _send(conn, me, "ok", name)
    board: Board | None = None
    while True:
        try:
            op, args = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            if op == "new_game":
                board = args[0]
                bot.new_game(*args)
                kind, value = "ok", None
            elif op == "move":
                answer = plain_move(game, board or args[0].board, bot.move(*args))
                if os.getpid() != me:
                    os._exit(FORKED_COPY_EXIT)
                kind, value = ("ok", game.format_move(args[0].board, answer)) if isinstance(answer, Move) \
                    else ("illegal", answer)
            elif op == "swap":
                wants = plain_swap(bot.swap(*args))
                kind, value = ("ok", wants) if isinstance(wants, bool) else ("illegal", wants)
            elif op == "close":
                bot.close()
                kind, value = "ok", None
            else:
                kind, value = "error", f"unknown call {op!r}"
        except BaseException as err:  # noqa: BLE001 - whatever the bot raises is its fault, described here
            kind, value = "error", describe_error(err) + memory_note(err)
        _send(conn, me, kind, value)
        if op == "close":
            return
