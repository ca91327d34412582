"""Build the optional C core of ytourney's game state; the project metadata lives in pyproject.toml.

`optional=True`: where no C compiler or Python headers are available the extension is skipped with a warning,
the install still succeeds, and ytourney.games.y.state falls back to its pure-Python GameState.
"""

import sys

from setuptools import Extension, setup

# What the six games' cores share (the playout LCG, reading actions, the undo stack, the type boilerplate).
CORE_COMMON = "ytourney/games/core_common.h"

setup(
    ext_modules=[
        Extension("ytourney.games.y._gamecore", sources=["ytourney/games/y/_gamecore.c"], optional=True),
        # The mcts-pro search core; no contracted multiply-adds, so it computes exactly what its Python twin does.
        Extension("ytourney.games.y._ysearch",
                  sources=["ytourney/games/y/_ysearch.c", "ytourney/games/y/ysearch_core.c",
                           "ytourney/games/y/ysearch_vc.c"],
                  depends=["ytourney/games/y/ysearch_core.h"], optional=True,
                  extra_compile_args=[] if sys.platform == "win32" else ["-O2", "-ffp-contract=off"]),
        Extension("ytourney.games.solitaire._solvecore", sources=["ytourney/games/solitaire/_solvecore.c"],
                  optional=True),
        # Leap Over's jump chains; ytourney.games.leap_over.kernel lists them in pure Python without it.
        Extension("ytourney.games.leap_over._leapcore", sources=["ytourney/games/leap_over/_leapcore.c"],
                  depends=[CORE_COMMON], optional=True),
        # The kernels (and playouts) of the other games; each game runs its pure-Python kernel without its core.
        Extension("ytourney.games.tetra._tetracore", sources=["ytourney/games/tetra/_tetracore.c"],
                  depends=[CORE_COMMON], optional=True),
        Extension("ytourney.games.yvy._yvycore", sources=["ytourney/games/yvy/_yvycore.c"], depends=[CORE_COMMON],
                  optional=True),
        Extension("ytourney.games.aliens_amazons._aacore", sources=["ytourney/games/aliens_amazons/_aacore.c"],
                  depends=[CORE_COMMON], optional=True),
        Extension("ytourney.games.singularity._singcore", sources=["ytourney/games/singularity/_singcore.c"],
                  depends=[CORE_COMMON], optional=True),
        Extension("ytourney.games._slidecore", sources=["ytourney/games/_slidecore.c"], depends=[CORE_COMMON],
                  optional=True),
    ],
)
