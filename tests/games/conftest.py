"""The games' tests: this folder (with its shared `kernel_checks` and `slide_checks`) is importable from every
game's own folder."""
