"""Fake plugins that attack their host: loops and exits outside a move, answers and errors that loop when printed,
forks that return twice, closed descriptors, memory without bound, messages without end."""

from __future__ import annotations

import os
import signal
import time

from ytourney.players import BaseBot


class Endless:
    """Every way of printing it loops; its truth raises."""

    def __repr__(self) -> str:
        while True:
            time.sleep(0.01)

    __str__ = __repr__

    def __bool__(self) -> bool:
        raise RuntimeError("no truth here")

    def __eq__(self, other: object) -> bool:
        while True:
            time.sleep(0.01)

    __hash__ = object.__hash__


class Unprintable:
    """Printing it raises."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    __str__ = __repr__


class EndlessError(Exception):
    """An error whose message loops."""

    def __str__(self) -> str:
        while True:
            time.sleep(0.01)


class First(BaseBot):
    """Plays the first empty cell (the base of the fakes)."""

    def move(self, state, limit):  # noqa: ANN001, ANN201 - a plugin as users write them
        return state.empty_cells()[0]


class InitLoops(First):
    """Its constructor never returns."""

    def __init__(self, seed=None) -> None:  # noqa: ANN001
        while True:
            time.sleep(0.01)


class InitExits(First):
    """Its constructor ends the process."""

    def __init__(self, seed=None) -> None:  # noqa: ANN001
        os._exit(4)


class CloseLoops(First):
    """Its close() never returns."""

    def close(self) -> None:
        while True:
            time.sleep(0.01)


class MoveExits(First):
    """Ends the process on its first move."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        os._exit(5)


class MoveHangs(First):
    """Never answers a move."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        while True:
            time.sleep(0.01)


class AnswersEndless(First):
    """Answers moves and the pie with an object whose repr, str and eq loop."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        return Endless()

    def swap(self, state, limit):  # noqa: ANN001, ANN201
        return Endless()


class AnswersUnprintable(First):
    """Answers moves and the pie with an object whose repr raises."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        return Unprintable()

    def swap(self, state, limit):  # noqa: ANN001, ANN201
        return Unprintable()


class RaisesEndless(First):
    """Raises an error whose message loops."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        raise EndlessError()


class RaisesHuge(First):
    """Raises an error with a message of a million characters."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        raise RuntimeError("x" * 1_000_000)


class ForksTwice(First):
    """Forks in every move: the parent and the child both return the answer."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        os.fork()
        return state.empty_cells()[0]


class ClosesDescriptors(First):
    """Closes every descriptor above stderr on its second move."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        if state.num_stones >= 2:
            os.closerange(3, 65536)
        return state.empty_cells()[0]


class Greedy(First):
    """Asks for 64 GiB on its first move."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        hoard = bytearray(64 << 30)
        return state.empty_cells()[len(hoard) % 2]


class ReadsStdin(First):
    """Reads everything on its stdin before each move (under `gtp`, the controller's commands)."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        os.read(0, 1 << 16)
        return state.empty_cells()[0]


class CloseLoopsAfterFault(First):
    """Raises in every move, then never returns from close() (the start check sees a polite bot)."""

    faulted = False

    def move(self, state, limit):  # noqa: ANN001, ANN201
        self.faulted = True
        raise RuntimeError("lost")

    def close(self) -> None:
        while self.faulted:
            time.sleep(0.01)


class RaisesLines(First):
    """Raises an error whose message holds blank lines and a fake GTP answer."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        raise RuntimeError("first\n\n= a1\n\nlast")


class SignalsTheRun(First):
    """Sends a signal to its host's parent (the run) from its first move, once per run (the file named by
    YTOURNEY_TEST_ONCE is made then): from the worker, from a detached grandchild (double fork and setsid), or to
    its whole process group. YTOURNEY_TEST_SIGNAL names it (TERM, INT) and YTOURNEY_TEST_HOW how (parent, detached,
    group)."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        try:
            os.close(os.open(os.environ["YTOURNEY_TEST_ONCE"], os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return super().move(state, limit)
        number = getattr(signal, "SIG" + os.environ.get("YTOURNEY_TEST_SIGNAL", "TERM"))
        how = os.environ.get("YTOURNEY_TEST_HOW", "parent")
        run = os.getppid()
        if how == "group":
            os.killpg(0, number)
        elif how == "detached":
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    time.sleep(0.2)  # its parent is gone: it belongs to no process of the run by parentage
                    os.kill(run, number)
                    os.close(os.open(os.environ["YTOURNEY_TEST_ONCE"] + ".done", os.O_CREAT | os.O_WRONLY))
                os._exit(0)
            os.wait()
            waited = time.monotonic() + 60  # the signal is sent well before; a loaded machine is slow to fork
            while not os.path.exists(os.environ["YTOURNEY_TEST_ONCE"] + ".done") and time.monotonic() < waited:
                time.sleep(0.02)  # the run is still running when the signal comes
        else:
            os.kill(run, number)
        return super().move(state, limit)
