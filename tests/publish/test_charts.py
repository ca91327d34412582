"""The site's charts: whole-number game axes and legends clear of the lines."""

from __future__ import annotations

import re

from ytourney.games.record import GameRecord
from ytourney.publish.charts import player_chart, rating_chart
from ytourney.stats.ratings import rate_records


def x_ticks(svg: str) -> int:
    """Major ticks of the x axis in a matplotlib SVG."""
    return len(set(re.findall(r'<g id="xtick_(\d+)"', svg)))


def test_a_short_history_has_ticks_at_whole_games_only(records: list[GameRecord]) -> None:
    ratings = rate_records(records[:4])  # 4 games: ticks 0..4, not 0, 0.5, ..., 4
    assert x_ticks(rating_chart(ratings, ["ann", "bob"]) or "") <= 5
    assert x_ticks(player_chart(ratings, "ann") or "") <= 5


def test_the_player_chart_keeps_its_legend_right_of_the_plot(records: list[GameRecord]) -> None:
    svg = player_chart(rate_records(records), "ann") or ""
    axes = re.search(r'<g id="patch_2">\s*<path d="M ([\d.]+) [\d.]+\s*L ([\d.]+)', svg)
    legend = re.search(r'<g id="legend_1">.*?<path d="M ([\d.]+)', svg, re.S)
    assert axes and legend and float(legend.group(1)) > float(axes.group(2))  # the legend starts past the axes
