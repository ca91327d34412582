"""YvY's bots, views and the pipeline: random's passes, mcts's loops and passes, text, SVG hook, GTP, a CLI match."""

from __future__ import annotations

import json
import subprocess
import sys

from yvy_helpers import build, cell

from ytourney.games.api import PASS, Color, Move, MoveKind, Outcome
from ytourney.games.bot import Limit
from ytourney.games.yvy.bots import YvyRandomBot
from ytourney.games.yvy.game import GAME, SPROUT_FILL
from ytourney.games.yvy.state import LOOP, SCORE
from ytourney.players.bots.mcts_bot import MctsBot


def test_random_passes_only_when_the_board_is_full() -> None:
    bot = YvyRandomBot(seed=1)
    state = build("hex:3", "", "")
    assert all(bot.move(state, Limit()).kind is MoveKind.PLACE for _ in range(50))
    rng_state = build("hex:3", "", "")
    while not rng_state.is_over:
        move = bot.move(rng_state, Limit())
        if move.is_pass:
            assert not any(m.kind is MoveKind.PLACE for m in rng_state.legal_moves())
        rng_state.play(move)


def test_random_late_pass_option() -> None:
    bot = YvyRandomBot(seed=2, late_pass=1.0, late=0.0)
    assert bot.move(build("hex:3", "", ""), Limit()) == PASS
    early = YvyRandomBot(seed=2, late_pass=1.0, late=0.9)
    assert early.move(build("hex:3", "", ""), Limit()).kind is MoveKind.PLACE


def test_mcts_closes_a_loop_in_one() -> None:
    state = build("hex:4", "e4 e5 d5 c4 c3", "a1 i9 e9")  # White to move: d3 closes the ring round d4
    move = MctsBot(seed=3, playouts=20).move(state, Limit())
    assert move == Move.place(cell(state.board, "d3"))


def test_mcts_stops_the_opponents_loop() -> None:
    state = build("hex:4", "a1 i9 e9 g3", "e4 e5 d5 c4 c3")  # White to move; Black threatens d3
    move = MctsBot(seed=4, playouts=20).move(state, Limit())
    assert move in (Move.place(cell(state.board, "d3")), Move.place(cell(state.board, "d4")))


def test_mcts_passes_back_only_when_the_count_wins() -> None:
    state = build("hex:4", "a1", "")  # a1, then Black passed: White passing now wins 10-0
    assert MctsBot(seed=5, playouts=20).move(state, Limit()) == PASS
    losing = build("hex:4", "d4", "a1")  # White's d4 is dead: passing would lose
    losing.play(PASS)  # White passes, Black to move: Black passing wins
    assert MctsBot(seed=5, playouts=20).move(losing, Limit()) == PASS
    fresh = build("hex:4", "d4", "a1")
    assert MctsBot(seed=5, playouts=20).move(fresh, Limit()) != PASS


def test_the_kernel_mcts_closes_blocks_and_passes_back() -> None:
    from ytourney.players.bots.mcts_bot import MctsBot  # noqa: PLC0415 - the search over YvyKnowledge

    state = build("hex:4", "e4 e5 d5 c4 c3", "a1 i9 e9")
    assert MctsBot(seed=3, playouts=50).move(state, Limit()) == Move.place(cell(state.board, "d3"))
    threat = build("hex:4", "a1 i9 e9 g3", "e4 e5 d5 c4 c3")
    assert MctsBot(seed=4, playouts=50).move(threat, Limit()) == Move.place(cell(threat.board, "d3"))
    assert MctsBot(seed=5, playouts=50).move(build("hex:4", "a1", ""), Limit()) == PASS
    fresh = build("hex:4", "d4", "a1")
    assert MctsBot(seed=5, playouts=50).move(fresh, Limit()) != PASS


def test_views() -> None:
    state = build("hex:3", "c3", "d4")
    text = GAME.views.board_text(state, state.history[-1])
    assert "x" in text and "O" in text and "*" in text and text.count("\n") == 6
    board = state.board
    assert set(GAME.views.marked_cells(board)) == set(board.sprouts) and SPROUT_FILL in GAME.views.marked_cells(board).values()
    assert GAME.views.highlight(state) == frozenset()
    loop = Outcome(Color.WHITE, LOOP)
    assert GAME.views.result_text("ann", "bob", loop) == "ann beat bob by closing a loop"
    assert GAME.views.win_text(LOOP, None) == "by closing a loop"
    assert "10 to 9" in GAME.views.result_text("ann", "bob", Outcome(Color.BLACK, SCORE, (10.0, 9.0)))
    assert GAME.views.result_text(None, None, Outcome(None, SCORE, (-1.0, -1.0))).startswith("draw on score -1 to -1")


def test_start_diagram_has_green_sprouts() -> None:
    from ytourney.publish.svg import start_svg  # noqa: PLC0415 - a test may look above games/

    svg = start_svg(GAME)
    assert svg.count(SPROUT_FILL) == 21


def test_gtp_plays_white_pass() -> None:
    from ytourney.players.gtp.server import GtpServer  # noqa: PLC0415

    server = GtpServer(YvyRandomBot(seed=1), "hex:4", game=GAME)
    assert server.handle("play w pass").startswith("=")
    assert server.handle("play b a1").startswith("=")
    assert server.handle("play w pass").startswith("=")
    assert server.handle("play b pass").startswith("=")  # two passes: over, Black's a1 owns the board
    assert "over" in server.handle("genmove w")


def test_cli_match_random_against_mcts(tmp_path) -> None:
    out = tmp_path / "m"
    run = subprocess.run([sys.executable, "-m", "ytourney", "match", "random", "mcts:playouts=20", "--game", "yvy",
                          "--board", "hex:3", "--games-per-pair", "2", "--out", str(out), "--workers", "1"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    export = subprocess.run([sys.executable, "-m", "ytourney", "export", str(out), "--format", "jsonl"],
                            capture_output=True, text=True, timeout=60)
    records = [json.loads(line) for line in export.stdout.splitlines() if line.strip()]
    assert len(records) == 2 and all(r["game"] == "yvy" and r["termination"] in ("loop", "score") for r in records)
