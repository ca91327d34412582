"""The probe `validate` runs on every GTP player: short games against the random bot under the configured dialect.

A wrong dialect shows in the first moves: a flipped engine read with `rows: normal` names cells our board lacks or
refuses ours, an engine that calls the first mover white refuses `play b` on an empty board, a chatty engine read
with `chatter_lines: 0` answers with statistics. The probe plays one game in each seat; the first fault comes back
with the end of its transcript and a hint at the dialect key that most likely causes it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from dataclasses import dataclass

from ytourney.games.api import Move
from ytourney.games.dialect import GENERIC_DIALECT, side_distances
from ytourney.games.record import GameRecord, Termination
from ytourney.players.gtp.dialect import swap_style_hint
from ytourney.players.gtp.engine import GtpBot
from ytourney.players.gtp.settings import GtpSettings
from ytourney.players.gtp.transcript import Transcript
from ytourney.players.spec import BotKind, create_bot, parse_bot_spec
from ytourney.tournament.config import PlayerConfig, TournamentConfig
from ytourney.tournament.match import Seat, play_game

PROBE_OPPONENT = "random (probe)"
TRANSCRIPT_LINES = 14
"""Lines of the transcript shown with a probe's fault (empty answer lines left out)."""
SEATS = ("first", "second")


@dataclass(frozen=True)
class Probe:
    """What the probe found: '' when both games were clean, else the fault, a hint and the transcript's end."""

    problem: str = ""
    hint: str = ""
    transcript: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """The hint and the transcript, to print under the player."""
        lines = [f"hint: {self.hint}"] if self.hint else []
        if self.transcript:
            lines.append(f"transcript (last {len(self.transcript)} lines; > sent, < received, ms since start):")
            lines += [f"  {line}" for line in self.transcript]
        return lines


def probe_engine(config: TournamentConfig, player: PlayerConfig) -> Probe:
    """Play the engine against the random bot on the config's board and clock, once in each seat; the first fault."""
    if player.spec.kind is not BotKind.GTP or player.spec.gtp is None:
        return Probe()
    for seat in (0, 1):
        found = probe_seat(config, player, seat)
        if found.problem:
            return found
    return Probe()


def probe_seat(config: TournamentConfig, player: PlayerConfig, seat: int) -> Probe:
    """One probe game with the engine in `seat` (0: it moves first). Under the pie the swap path is forced in both
    seats: the probe swaps the engine's first stone, and opens with the centre, a stone the engine will take."""
    game = config.game_rules
    pie = bool(getattr(config.rules, "pie", False))
    engine = create_bot(player.spec, config.seed)
    transcript = Transcript(player.name)
    if isinstance(engine, GtpBot):
        engine.transcript = transcript
    opponent = create_bot(parse_bot_spec("random:swap_rate=1" if pie and seat == 0 else "random", game),
                          config.seed + seat)
    opening = centre_opening(config) if pie and seat == 1 else ()
    seats = [Seat(player.name, engine), Seat(PROBE_OPPONENT, opponent, trusted=True)]
    try:
        record = play_game(seats if seat == 0 else seats[::-1], config.variant, time_control=config.time,
                           seed=config.seed, opening=opening)
    finally:
        if isinstance(engine, GtpBot):
            engine.transcript = None  # the transcript ends with the game, before `quit`
        for bot in (engine, opponent):
            with contextlib.suppress(Exception):
                bot.close()
    if not (record.termination.is_fault and record.loser_name == player.name):
        return Probe()
    shown = [line for line in transcript.tail() if not re.fullmatch(r"[0-9]+ <.*?: ?", line)]
    return Probe(f"probe game as the {SEATS[seat]} mover: {record.reason}", probe_hint(record, player.spec.gtp),
                 tuple(shown[-TRANSCRIPT_LINES:]))


def centre_opening(config: TournamentConfig) -> tuple[Move, ...]:
    """The probe's first move when the engine answers the pie: the legal first move farthest from every side (the
    centre of a tri board), which a pie policy or an engine takes; none on a board without sides."""
    variant = config.variant
    state = variant.game.new_state(variant.board, config.rules)
    distances = side_distances(variant.board)
    moves = [move for move in state.legal_moves() if move.path]
    if not moves or max(distances) <= 0:
        return ()
    return (max(moves, key=lambda move: distances[move.target]),)


def probe_hint(record: GameRecord, gtp: GtpSettings) -> str:
    """The dialect key a probe's fault points at: right after a swap, a resignation, a refused colour or an occupied
    cell is the swap style (the probe forces the swap in both seats); otherwise the fault's own words decide."""
    swap_hint = swap_style_hint(record.moves, record.termination, record.reason, gtp)
    if swap_hint:
        return swap_hint
    return dialect_hint(dataclasses.replace(record, reason=record.reason.split(" right after a swap:")[0]), gtp)


def _clock_commands(gtp: GtpSettings) -> set[str]:
    """The commands that tell an engine its time: GTP's, and those of its game's engine families (its dialect's)."""
    dialect = GENERIC_DIALECT if gtp.game is None else gtp.game.engine_dialect()
    return {"time_settings", "time_left", *(command.split()[0] for command in dialect.time_commands.values())}


def dialect_hint(record: GameRecord, gtp: GtpSettings) -> str:
    """The dialect key a fault most likely points at ('' when the fault says nothing of the dialect)."""
    reason = record.reason.lower()
    rows = (f"gtp.rows (now {gtp.rows.value!r}; 'flipped' when the engine's row 1 is the top corner and its row r "
            "holds r cells)")
    first = (f"gtp.first_color (now {gtp.first_color.value!r}; 'white' when the engine calls the first mover "
             "white)")
    if "not a gtp response" in reason or "without being asked" in reason:
        return (f"the engine printed lines that are not GTP answers: raise gtp.chatter_lines (now "
                f"{gtp.chatter_lines}) if it prints statistics before its answer")
    if "swap" in reason:
        return (f"a swap went wrong: check gtp.swap (now {gtp.swap.value!r}; 'none' for an engine that knows no "
                "swap, 'genmove' when it may answer swap) and gtp.pie_policy")
    if "is not a cell" in reason:
        return f"the engine named a cell board {record.board} does not have: check {rows}"
    if "already occupied" in reason:
        return f"the engine sees another position than ours: check {rows} and {first}"
    refused = re.search(r"refused '(\w+)", reason)
    if refused and refused.group(1) in ("play", "genmove"):
        if re.search(r"colou?r|turn|should play", reason):
            return f"the engine refused a colour out of turn: check {first}"
        if re.search(r"vertex|cell|coordinate|occupied", reason):
            return f"the engine refused a cell we sent: check {rows}"
        return f"the engine refused a move we sent: check {first} and {rows}"
    if refused and refused.group(1) in _clock_commands(gtp):
        return f"the engine refused its time command: check gtp.time_command (now {gtp.time_command.value!r})"
    if refused and refused.group(1) == "boardsize":
        return f"the engine cannot play board {record.board}: choose a board it knows"
    if record.termination is Termination.TIME:
        return (f"the engine overran its time: check gtp.time_command (now {gtp.time_command.value!r}) and "
                "time.grace_seconds")
    return ""
