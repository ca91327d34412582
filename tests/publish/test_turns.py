"""Moves are counted by turn everywhere (PGN, the game pages, `play`): a handicap's stones are one turn, and every
record states the rules in force (no pie in a handicap game)."""

from __future__ import annotations

import json
from pathlib import Path

from ytourney.games.api import Color
from ytourney.games.record import GameRecord
from ytourney.games.y.rules import Rules
from ytourney.games.y.state import CONNECTION
from ytourney.publish.export import ExportFormat, GameFeed, game_to_pgn, to_jsonl
from ytourney.publish.feed_files import scan_feed
from ytourney.publish.game_facts import move_count, result_sentence, turns
from ytourney.publish.svg import replay_moves

HANDICAP_MOVES = ("e5", "c6", "g3", "g2", "f4", "a1", "b2")


def handicap_record(moves: tuple[str, ...] = HANDICAP_MOVES, handicap: int = 4) -> GameRecord:
    return GameRecord(
        game="y", tournament="cup", round=1, board="tri:9", rules=Rules(pie=True, misere=False), handicap=handicap,
        first="weak", second="strong", black="weak", white="strong", moves=moves, winner=Color.WHITE,
        termination=CONNECTION, move_seconds=tuple(0.5 for _ in moves), seed=1,
        started="2026-12-05T10:00:00.000Z", finished="2026-12-05T10:01:00.000Z", id=7)


def test_a_handicap_s_stones_are_one_turn() -> None:
    record = handicap_record()
    assert turns(record) == [("e5", "c6", "g3", "g2"), ("f4",), ("a1",), ("b2",)]
    assert move_count(record) == 4 and result_sentence(record).endswith("after 4 moves")
    assert turns(handicap_record(handicap=1)) == [(move,) for move in HANDICAP_MOVES]  # level 1: one stone


def test_pgn_numbers_turns_with_the_handicap_stones_as_one_token(tmp_path: Path) -> None:
    pgn = game_to_pgn(handicap_record())
    movetext = pgn.split("\n\n")[1]
    assert movetext.startswith("1. e5:c6:g3:g2 f4 2. a1 b2 1-0")
    assert '[PlyCount "4"]' in pgn
    assert '[Rules "none"]' in pgn  # the handicap game was played without the pie the tournament's rules name
    feed = tmp_path / "games.pgn"
    writer = GameFeed(feed, ExportFormat.PGN)
    writer.write(handicap_record())
    writer.close()
    assert scan_feed(feed, pgn=True).keys == {("cup", 7)}  # a live file of turn tokens is read back as whole


def test_jsonl_states_the_rules_in_force() -> None:
    record = json.loads(to_jsonl([handicap_record()]))
    assert record["rules"]["pie"] is False and record["moves"] == list(HANDICAP_MOVES)
    even = json.loads(to_jsonl([handicap_record(handicap=0)]))
    assert even["rules"]["pie"] is True


def test_diagram_numbers_stones_by_turn() -> None:
    record = handicap_record()
    variant = record.variant
    played = replay_moves(variant.game, variant.board, record.moves, record.rules, record.handicap)
    names = {variant.board.names[node]: number for node, number in played.numbers.items()}
    assert names == {"e5": 1, "c6": 1, "g3": 1, "g2": 1, "f4": 2, "a1": 3, "b2": 4}
