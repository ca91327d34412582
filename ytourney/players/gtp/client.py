"""The GTP conversation: send a command, read its framed response before a deadline, report faults."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from ytourney.errors import (
    EngineCrashError,
    EngineProtocolError,
    EngineTimeoutError,
)
from ytourney.numerals import foreign_digit
from ytourney.players.gtp.transport import ANSWER_BYTES, Transport

# --- the GTP conversation ----------------------------------------------------------------------------------------

_RESPONSE = re.compile(r"([=?])([0-9]*)(?:\s(.*))?$", re.DOTALL)  # an id is ASCII digits ('\d' takes '²')
CHATTER_BYTES = 1 << 16
"""Most bytes of chatter (lines that are not GTP) an engine may print before one answer."""
SILENT_COMMANDS = frozenset({"play", "boardsize", "clear_board", "komi", "time_left", "time_settings"})
"""Commands whose success GTP answers with an empty `=`: text there is a second answer to the command before."""
SECOND_ANSWER_SECONDS = 1.0
"""How long an empty answer to genmove after a silent command waits for a line telling it was a late second answer to
that command (the genmove's own answer following); none within it, and the genmove answered nothing."""


@dataclass(frozen=True)
class GtpResponse:
    """One GTP response: success (`=`) or failure (`?`) and its text."""

    ok: bool
    text: str


class GtpClient:
    """Sends GTP commands and reads framed responses, every read bounded by a deadline.

    An engine may print up to `chatter_lines` lines (and CHATTER_BYTES bytes) that are not GTP before an answer, as
    engines that show their search statistics on stdout do; they are skipped. Any more is a protocol fault.

    One response per command: an engine that answers a command twice is blamed for the double answer, whether the
    second comes at once (output nobody asked for), as the text of a command that answers nothing, or as the empty
    answer of a genmove after such a command.
    """

    def __init__(self, transport: Transport, name: str, chatter_lines: int = 0,
                 chatter_bytes: int = CHATTER_BYTES) -> None:
        self.transport = transport
        self.name = name
        self.chatter_lines = chatter_lines
        self.chatter_bytes = chatter_bytes
        self.last_command = ""  # the command answered before, to blame a second answer to it

    def command(self, command: str, timeout: float) -> GtpResponse:
        """Send `command` and return its response; raise the engine fault that prevents an answer."""
        self._check_quiet()
        try:
            self.transport.send(command)
        except EngineCrashError as err:
            raise EngineCrashError(self.describe_death(f"before {command!r} ({err})")) from err
        deadline = time.monotonic() + timeout
        first: re.Match[str] | None = None
        body: list[str] = []
        chatter = chatter_bytes = size = 0
        while True:
            try:
                line = self.transport.receive(deadline - time.monotonic())
            except TimeoutError:
                if first is None:
                    raise EngineTimeoutError(
                        f"{self.name} gave no answer to {command!r} within {timeout:.2f}s"
                    ) from None
                raise EngineProtocolError(
                    f"{self.name} began answering {command!r} but never ended the response with an empty line"
                ) from None
            if line is None:
                if first is not None and first.group(1) == "=" and command == "quit":
                    break
                raise EngineCrashError(self.describe_death(f"while answering {command!r}"))
            if first is None:
                if not line.strip():
                    continue
                first = _RESPONSE.match(line.strip())
                if first is None:
                    _refuse_foreign_id(self.name, command, line)
                    chatter += 1
                    chatter_bytes += len(line.encode("utf-8", "replace")) + 1
                    if chatter <= self.chatter_lines and chatter_bytes <= self.chatter_bytes:
                        continue
                    before = f" after {chatter - 1} lines of chatter" if chatter > 1 else ""
                    raise EngineProtocolError(
                        f"{self.name} answered {command!r} with {clip(line)!r}{before}, which is not a GTP "
                        f"response (it must start with '=' or '?'; gtp.chatter_lines lets {self.chatter_lines} "
                        f"lines, at most {self.chatter_bytes} bytes, come before it)"
                    )
                body.append(first.group(3) or "")
            elif line.strip():
                body.append(line)
                size += len(line) + 1
                if size > ANSWER_BYTES:
                    raise EngineProtocolError(f"{self.name} answered {command!r} with more than {ANSWER_BYTES} bytes")
            else:
                return self._answered(command, GtpResponse(first.group(1) == "=", "\n".join(body).strip()), deadline)
        return GtpResponse(True, "\n".join(body).strip())  # `quit` answered, then the engine closed its output

    def _answered(self, command: str, response: GtpResponse, deadline: float) -> GtpResponse:
        """The response, unless it shows a second answer to the command before (see the class docstring)."""
        before, self.last_command = self.last_command, command
        verb = command.split()[0] if command.split() else ""
        if not before or not response.ok:
            return response
        if verb in SILENT_COMMANDS and response.text:
            raise EngineProtocolError(
                f"{self.name} answered {before!r} twice: {clip(response.text)!r} came as the answer to {command!r}, "
                f"which answers nothing (GTP gives one response per command)")
        if verb == "genmove" and not response.text and before.split()[0] in SILENT_COMMANDS:
            # no line follows: the genmove itself answered nothing (a late second answer has the genmove's behind it)
            if not self._more_before(min(deadline, time.monotonic() + SECOND_ANSWER_SECONDS)):
                raise EngineProtocolError(f"{self.name} answered {command!r} with nothing: an empty '=' names no move")
            raise EngineProtocolError(
                f"{self.name} answered {before!r} twice: its second, empty answer came as the answer to {command!r} "
                "(GTP gives one response per command)")
        return response

    def _more_before(self, deadline: float) -> bool:
        """True when the engine writes another line before `deadline` (read and dropped: the engine is faulted)."""
        while True:
            try:
                line = self.transport.receive(deadline - time.monotonic())
            except TimeoutError:
                return False
            if line is None:
                return False
            if line.strip():
                return True

    def expect(self, command: str, timeout: float) -> str:
        """Send `command` and return its text; EngineProtocolError when the engine answers `?`."""
        response = self.command(command, timeout)
        if not response.ok:
            raise EngineProtocolError(f"{self.name} refused {command!r}: ? {clip(response.text)}")
        return response.text

    def describe_death(self, when: str) -> str:
        """A message for an engine that stopped: exit status and the tail of its stderr."""
        code = None
        for _ in range(40):  # the exit status usually follows end of output within milliseconds
            code = self.transport.exit_code()
            if code is not None:
                break
            time.sleep(0.005)
        if code is None:
            status = "closed its output"
        elif code < 0:
            status = f"was killed by signal {-code}"
        else:
            status = f"exited with code {code}"
        tail = self.transport.stderr_tail()[-3:]
        detail = "; stderr: " + " | ".join(clip(line, 120) for line in tail) if tail else ""
        return f"{self.name} {status} {when}{detail}"

    def _check_quiet(self) -> None:
        """Fail on output the engine wrote without being asked (an answer out of turn)."""
        while True:
            try:
                line = self.transport.receive(0.0)
            except TimeoutError:
                return
            if line is None:
                raise EngineCrashError(self.describe_death("between commands"))
            if line.strip():
                double = f", a second answer to {self.last_command!r}" if self.last_command and _RESPONSE.match(
                    line.strip()) else ""
                raise EngineProtocolError(f"{self.name} wrote {clip(line)!r} without being asked{double} (GTP gives "
                                          "one response per command)")


def _refuse_foreign_id(name: str, command: str, line: str) -> None:
    """EngineProtocolError for a response whose id is numerals of another script ('=² b2', '?١'): no id of GTP's, and
    not chatter either."""
    word = line.strip()[1:].split(maxsplit=1)[0] if line.strip()[:1] in ("=", "?") and line.strip()[1:2].strip() \
        else ""
    if word and all(char.isnumeric() for char in word) and foreign_digit(word):
        raise EngineProtocolError(f"{name} answered {command!r} with {clip(line)!r}, whose id {clip(word, 20)!r} is "
                                  "not ASCII digits (a GTP id is written 0-9)")


def clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


