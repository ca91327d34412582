"""Text that ships with the code says what the code does: the README names the modules as they are, the example
configs show the recommended forms."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_names_the_cli_package_and_the_sprt_config_shows_the_recommended_form() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`cli.py`" not in readme
    sprt = yaml.safe_load((ROOT / "configs" / "sprt.yaml").read_text(encoding="utf-8"))["schedule"]["sprt"]
    assert sprt["model"] == "pentanomial" and {"elo0", "elo1"} <= set(sprt) and "p0" not in sprt
