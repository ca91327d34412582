"""SIGINT and SIGTERM of a run, checked for their sender: the players a run starts cannot stop it.

A plugin runs in a worker whose parent is the run, so it knows the run's pid and may signal it; so may an engine,
or anything they start, however it detaches. While the gate is open, SIGINT and SIGTERM are blocked in every
thread of the run and one thread takes them with `sigtimedwait`, which names the sender: a signal from a process
the run started (it carries the mark `players.gtp.reaper` gives every worker, engine and plugin fork, which it
cannot drop) is ignored and noted; any other (the terminal's Ctrl-C, `kill` from a shell, a supervisor) is handed
to the main thread's handler as if it had arrived there. Once one was handed over and the run has put its own
handler back, a later one is ignored, also once the gate closed: the command is already ending and says so
(Ctrl-C then SIGTERM 0.3 s later prints the same lines as Ctrl-C alone, and exits 130). Processes forked while
the gate is open start with the signals unblocked; a program the run itself starts with `subprocess` would not
(Ray's), so `run` opens the gate for the local backend only, whose engines start in the workers. Linux only
(elsewhere, and outside the main thread, the gate does nothing).
"""

from __future__ import annotations

import _thread
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator

from ytourney.players.gtp.reaper import started_by_us

GATED = frozenset({signal.SIGINT, signal.SIGTERM})
WAIT_SECONDS = 0.1
"""How often the listening thread looks whether the gate was closed."""

_open = False  # a gate is open in this process: a forked child unblocks the signals


def _unblock_in_child() -> None:
    if _open:
        with contextlib.suppress(OSError, ValueError):
            signal.pthread_sigmask(signal.SIG_UNBLOCK, GATED)


os.register_at_fork(after_in_child=_unblock_in_child)


def _usable() -> bool:
    return (sys.platform.startswith("linux") and hasattr(signal, "sigtimedwait")
            and threading.current_thread() is threading.main_thread() and not _open)


class _Gate:
    """The listening thread and what it has handed over."""

    def __init__(self, ignored: Callable[[str], None]) -> None:
        self.ignored = ignored
        self.handed = False
        self.closing = threading.Event()
        self.thread = threading.Thread(target=self._listen, name="ytourney-signals", daemon=True)

    def _listen(self) -> None:
        while not self.closing.is_set():
            info = signal.sigtimedwait(GATED, WAIT_SECONDS)
            if info is not None:
                self.take(info.si_signo, info.si_pid)

    def take(self, number: int, sender: int) -> None:
        """One signal: ignored when a player sent it, else handed to the main thread (or its default action)."""
        if started_by_us(sender):
            self.ignored(f"ignored {signal.Signals(number).name} from process {sender}, which a player of this run "
                         "started")
            return
        handler = signal.getsignal(number)
        if handler is signal.SIG_IGN:
            return
        if self.handed and handler in (signal.SIG_DFL, None, signal.default_int_handler):
            return  # the run was stopped and has put its handler back: it is ending and says so
        self.handed = True
        if callable(handler):
            _thread.interrupt_main(number)  # the handler runs in the main thread, as for a signal arriving there
            return
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {number})  # the default action: this thread takes it and dies
        os.kill(os.getpid(), number)

    def drain(self) -> None:
        """Take what came after the thread stopped: the command has ended (or is ending), so a signal now is only
        noted, a player's as such."""
        while True:
            info = signal.sigtimedwait(GATED, 0)
            if info is None:
                return
            if started_by_us(info.si_pid):
                self.ignored(f"ignored {signal.Signals(info.si_signo).name} from process {info.si_pid}, which a "
                             "player of this run started")


@contextlib.contextmanager
def gated_signals(ignored: Callable[[str], None]) -> Iterator[None]:
    """SIGINT and SIGTERM checked for their sender while the block runs; `ignored` hears of each one a player
    sent (from the listening thread)."""
    global _open
    if not _usable():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, GATED)
    _open = True
    gate = _Gate(ignored)
    gate.thread.start()
    try:
        yield
    finally:
        gate.closing.set()
        gate.thread.join()
        try:
            gate.drain()
            if gate.handed:  # the command was stopped and is ending, having said so: a later signal changes nothing
                for number in GATED:
                    signal.signal(number, signal.SIG_IGN)
        finally:
            _open = False
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
