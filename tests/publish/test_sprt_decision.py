"""ONE decision: the SPRT decision that stopped a run (results in completion order, 2 workers) is the one reports show."""

from __future__ import annotations

from pathlib import Path

import pytest

from ytourney.publish.sources import load_source, sprt_state_of
from ytourney.stats.sprt import SprtDecision
from ytourney.tournament.config import parse_config
from ytourney.tournament.run import Runner
from ytourney.tournament.schedule import sprt_condition
from ytourney.tournament.store import stream_records

SPRTS = ("{elo0: 0, elo1: 150, alpha: 0.1, beta: 0.1}", "{elo0: -100, elo1: 50, model: trinomial}",
         "{p0: 0.35, p1: 0.5}")


@pytest.mark.parametrize("sprt", SPRTS)
def test_the_decision_that_stopped_a_two_worker_run_is_the_one_reports_show(tmp_path: Path, sprt: str) -> None:
    for seed in range(3):
        text = (f"name: m{seed}\nboard: tri:4\nseed: {seed}\nschedule: {{format: match, games_per_pair: 2000, "
                f"sprt: {sprt}}}\nplayers: [{{name: a, bot: 'random:swap_rate=0'}}, {{name: b, bot: random}}]\n")
        config = parse_config(text, str(tmp_path / f"m{seed}.yaml"))
        folder = tmp_path / f"m{seed}"
        stop, state = sprt_condition(config)
        summary = Runner(config, folder, workers=2, stop_condition=stop).run()
        live = state()
        assert live is not None and live.finished and summary.stopped
        shown = sprt_state_of(load_source(folder))
        assert shown is not None
        assert (shown.decision, shown.decided_after, shown.decided_llr) == (
            live.decision, live.decided_after, live.decided_llr)
        assert shown.decision is not SprtDecision.CONTINUE
        # a rerun replays the stored games in the same order, reaches the same decision and plays nothing
        stop, again = sprt_condition(config)
        rerun = Runner(config, folder, workers=2, stop_condition=stop).run()
        assert rerun.played == 0 and again().decided_after == live.decided_after
        assert sum(1 for _ in stream_records(folder, moves=False)) == summary.stored
