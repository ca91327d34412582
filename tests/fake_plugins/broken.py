"""Fake plugins for tests: each misbehaves in one way (hang, raise, print, answer badly)."""

from __future__ import annotations

import sys
import time

from ytourney.players import BaseBot


class FirstEmpty(BaseBot):
    """The base of the fakes: plays the first empty cell."""

    name = "first-empty"

    def move(self, state, limit):  # noqa: ANN001, ANN201 - a plugin as users write them
        return state.empty_cells()[0]


class RaisingInit(FirstEmpty):
    """Cannot be built."""

    def __init__(self, seed=None) -> None:  # noqa: ANN001
        raise RuntimeError("weights not found")


class Hangs(FirstEmpty):
    """Never answers its third move."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        if state.num_stones >= 4:
            while True:
                time.sleep(0.05)
        return super().move(state, limit)


class HangsStubborn(FirstEmpty):
    """Never answers, and swallows every exception sent to stop it."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        while True:
            try:
                time.sleep(0.05)
            except BaseException:  # noqa: BLE001, S110 - the point of this fake
                pass


class Interrupts(FirstEmpty):
    """Raises KeyboardInterrupt on its second move."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        if state.num_stones >= 2:
            raise KeyboardInterrupt
        return super().move(state, limit)


class Exits(FirstEmpty):
    """Calls sys.exit() on its third move."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        if state.num_stones >= 4:
            sys.exit(3)
        return super().move(state, limit)


class Prints(FirstEmpty):
    """Prints to stdout on every move."""

    def move(self, state, limit):  # noqa: ANN001, ANN201
        print("= thinking hard")  # noqa: T201 - the point of this fake
        return super().move(state, limit)


class SaysNo(FirstEmpty):
    """Answers the pie offer with the string 'no'."""

    def swap(self, state, limit):  # noqa: ANN001, ANN201
        return "no"
