"""The optional C cores of the games: each is loaded when it was built and not refused by YTOURNEY_PURE_PYTHON=1;
without it a game runs its pure-Python kernel, which the core agrees with move for move."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE_PYTHON_VARIABLE = "YTOURNEY_PURE_PYTHON"


def pure_python() -> bool:
    """True when the environment asks for the pure-Python kernels (CI runs the games' tests both ways)."""
    return os.environ.get(PURE_PYTHON_VARIABLE, "").strip().lower() not in ("", "0", "false", "no")


def load_core(module: str, kernel_methods: tuple[str, ...] = ()) -> ModuleType | None:
    """The C core `module` (e.g. 'ytourney.games.tetra._tetracore') when built and allowed, else None; also None
    when its `Kernel` lacks one of `kernel_methods` (a core built from an older source: `python setup.py build_ext
    --inplace` builds it again)."""
    if pure_python():
        return None
    try:
        core = importlib.import_module(module)
    except ImportError:
        return None
    kernel = getattr(core, "Kernel", None)
    if any(not hasattr(kernel, name) for name in kernel_methods):
        return None
    return core
