"""Build the optional C core of ytourney's game state; the project metadata lives in pyproject.toml.

`optional=True`: where no C compiler or Python headers are available the extension is skipped with a warning,
the install still succeeds, and ytourney.games.y.state falls back to its pure-Python GameState.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("ytourney.games.y._gamecore", sources=["ytourney/games/y/_gamecore.c"], optional=True),
        Extension("ytourney.games.solitaire._solvecore", sources=["ytourney/games/solitaire/_solvecore.c"],
                  optional=True),
    ],
)
