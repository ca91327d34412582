"""Allow `python -m ytourney`."""

from __future__ import annotations

from ytourney.cli import main

main(prog_name="ytourney")
