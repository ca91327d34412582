"""Charts of the site as SVG (matplotlib, no pyplot): ratings over the games, fair handicaps, level worths."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ytourney.stats.level_worth import LevelValue
from ytourney.stats.ratings import Ratings

CHART_WIDTH = 900
"""Width in pixels at which the charts are shown."""
MAX_POINTS = 800
"""Points drawn per line at most: longer histories are thinned evenly (the last point always kept)."""
Item = TypeVar("Item")


def thin(points: Sequence[Item], limit: int = MAX_POINTS) -> list[Item]:
    """At most `limit` points spread evenly over `points`, the first and the last kept."""
    if len(points) <= limit:
        return list(points)
    step = (len(points) - 1) / (limit - 1)
    return [points[round(k * step)] for k in range(limit)]


def _figure(width: float = 9.0, height: float = 4.2) -> Any:
    from matplotlib.figure import (
        Figure,  # no pyplot: no global backend state, the SVG canvas writes the file
    )

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _whole_ticks(axes: Any) -> None:
    """Ticks at whole numbers only on the x axis (games, levels): no 'game 1.5' on a short history."""
    from matplotlib.ticker import MaxNLocator

    axes.xaxis.set_major_locator(MaxNLocator(integer=True))


def _svg_text(figure: Any) -> str:
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "ytourney", "svg.fonttype": "path"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def rating_chart(ratings: Ratings, names: Sequence[str]) -> str | None:
    """One line per player: mu after each of their games, against the game number in replay order."""
    if not ratings.games:
        return None
    figure = _figure(9.0, 4.2 if len(names) <= 12 else 5.5)
    axes = figure.add_subplot()
    palette = _palette(len(names))
    start = ratings.settings.mu
    for colour, name in zip(palette, names):
        points = thin(ratings.history.get(name, ()))
        xs = [0] + [p.game for p in points]
        mus = [start] + [p.mu for p in points]
        sigmas = [ratings.settings.sigma] + [p.sigma for p in points]
        axes.plot(xs, mus, color=colour, linewidth=1.6, label=name, drawstyle="steps-post")
        if len(names) <= 8:
            low = [m - s for m, s in zip(mus, sigmas)]
            high = [m + s for m, s in zip(mus, sigmas)]
            axes.fill_between(xs, low, high, color=colour, alpha=0.10, linewidth=0, step="post")
    axes.set_xlabel("game (replay order)")
    _whole_ticks(axes)
    axes.set_ylabel("TrueSkill mu")
    axes.set_xlim(0, max(1, len(ratings.games)))
    axes.grid(True, color="#dddddd", linewidth=0.6)
    axes.spines[["top", "right"]].set_visible(False)
    axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False, fontsize=9)
    return _svg_text(figure)


def player_chart(ratings: Ratings, name: str) -> str | None:
    points = thin(ratings.history.get(name, ()))
    if not points:
        return None
    figure = _figure(9.0, 3.4)
    axes = figure.add_subplot()
    xs = [0] + [p.game for p in points]
    mus = [ratings.settings.mu] + [p.mu for p in points]
    sigmas = [ratings.settings.sigma] + [p.sigma for p in points]
    axes.fill_between(xs, [m - 3 * s for m, s in zip(mus, sigmas)], [m + 3 * s for m, s in zip(mus, sigmas)],
                      color="#1f5fbf", alpha=0.12, linewidth=0)
    axes.plot(xs, mus, color="#1f5fbf", linewidth=1.8, marker="o", markersize=2.5, label="mu")
    axes.plot(xs, [m - 3 * s for m, s in zip(mus, sigmas)], color="#b3261e", linewidth=1.2, linestyle="--",
              label="mu - 3 sigma")
    axes.set_xlabel("game (replay order)")
    _whole_ticks(axes)
    axes.set_ylabel("TrueSkill")
    axes.grid(True, color="#dddddd", linewidth=0.6)
    axes.spines[["top", "right"]].set_visible(False)
    axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False, fontsize=9)  # off the lines
    return _svg_text(figure)


def _palette(count: int) -> list[Any]:
    from matplotlib import colormaps

    if count <= 10:
        return [colormaps["tab10"](i) for i in range(count)]
    cmap = colormaps["tab20"] if count <= 20 else colormaps["turbo"]
    return [cmap(i / max(1, count - 1)) if count > 20 else cmap(i) for i in range(count)]


@dataclass(frozen=True)
class FairLevelPoint:
    """A pair's fair-level estimate right after one of its games, and that game: level played (signed: positive when
    the pair's finally weaker player received it) and whether the receiver (at level 0: that player) won."""

    game: int
    median: float
    low: float
    high: float
    level: int
    receiver_won: bool


def fair_level_chart(points: Sequence[FairLevelPoint], weaker: str, stronger: str, *, small: bool = False) -> str:
    """The fair level of one pair with its 95% band as games accumulate, each game's level marked by result."""
    figure = _figure(4.4, 2.8) if small else _figure(9.0, 3.8)
    axes = figure.add_subplot()
    shown = thin(points)
    xs = [p.game for p in shown]
    axes.fill_between(xs, [p.low for p in shown], [p.high for p in shown], color="#1f5fbf", alpha=0.15,
                      linewidth=0, step="post", label="95% interval")
    axes.plot(xs, [p.median for p in shown], color="#1f5fbf", linewidth=1.8, drawstyle="steps-post",
              label="fair level (median)")
    won = [p for p in points if p.receiver_won]
    lost = [p for p in points if not p.receiver_won]
    size = 18 if small else 36
    axes.scatter([p.game for p in won], [p.level for p in won], marker="^", s=size, color="#1b7a3c",
                 label=f"{_short(weaker)} won", zorder=3, linewidths=0)
    axes.scatter([p.game for p in lost], [p.level for p in lost], marker="v", s=size, color="#b3261e",
                 label=f"{_short(weaker)} lost", zorder=3, linewidths=0)
    axes.set_xlabel("game of the pair")
    _whole_ticks(axes)
    axes.set_ylabel(f"level for {_short(weaker)}")
    axes.grid(True, color="#dddddd", linewidth=0.6)
    axes.spines[["top", "right"]].set_visible(False)
    if not small:
        axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False, fontsize=9)
    else:
        axes.set_title(f"{_short(weaker)} vs {_short(stronger)}", fontsize=9)
    return _svg_text(figure)


def level_worth_chart(values: Sequence[LevelValue]) -> str | None:
    """The learned worth of each level with ± 2 sigma, one line per board."""
    boards: dict[str, list[LevelValue]] = {}
    for value in values:
        boards.setdefault(value.board, []).append(value)
    if not boards:
        return None
    figure = _figure(9.0, 3.6)
    axes = figure.add_subplot()
    for colour, (board, items) in zip(_palette(len(boards)), sorted(boards.items())):
        items = sorted(items, key=lambda v: v.level)
        axes.errorbar([v.level for v in items], [v.mu for v in items], yerr=[2 * v.sigma for v in items],
                      color=colour, marker="o", markersize=4, capsize=3, linewidth=1.6, label=board or "all boards")
    axes.set_xlabel("handicap level")
    _whole_ticks(axes)
    axes.set_ylabel("worth (TrueSkill mu)")
    axes.grid(True, color="#dddddd", linewidth=0.6)
    axes.spines[["top", "right"]].set_visible(False)
    axes.legend(loc="upper left", frameon=False, fontsize=9)
    return _svg_text(figure)


def _short(name: str, limit: int = 18) -> str:
    """A name short enough for a legend, its dollar signs kept from matplotlib's mathtext."""
    short = name if len(name) <= limit else name[: limit - 1] + "…"
    return short.replace("$", r"\$")
