"""Hostile publishes: manifests without digests, binary or oversized manifests, several publishes at once.

Classes covered (issue 24): a manifest entry without a digest (the file it names is never removed), a binary
(non-UTF-8, or NUL-holding) or oversized manifest (refused in one line, exit 1, the folder untouched), concurrent
publishes into one site (they take turns under the site's lock: the manifest always agrees with every page; a
publish that waits too long is refused in one line).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

import ytourney.publish.site_files as site_files
from ytourney.cli import main
from ytourney.errors import ReportError
from ytourney.publish.live import publish_results
from ytourney.publish.site_files import MANIFEST, SiteWriter, digest, lock_site, read_manifest

pytestmark = pytest.mark.usefixtures("memory_cap")  # tests/conftest.py: a regression fails, the machine lives


def publish(folder: Path, files: dict[str, str]) -> None:
    writer = SiteWriter(folder)
    for name, content in files.items():
        writer.text(name, content)
    writer.commit()


def test_a_manifest_entry_without_a_digest_never_removes_its_file(tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(site, {"index.html": "one"})
    (site / "notes.html").write_text("the user's own page", encoding="utf-8")
    (site / "old.html").write_text("ours, from an old manifest", encoding="utf-8")
    manifest = site / MANIFEST
    manifest.write_text(manifest.read_text(encoding="utf-8") + "notes.html\nold.html\t\n", encoding="utf-8")
    publish(site, {"index.html": "two"})
    assert (site / "notes.html").read_text(encoding="utf-8") == "the user's own page"
    assert (site / "old.html").exists()


def test_a_publish_waits_its_turn_then_gives_up_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           ) -> None:
    site = tmp_path / "site"
    publish(site, {"index.html": "one"})
    held = lock_site(site, 0)
    try:
        with pytest.raises(ReportError, match="in use by another publish"):
            SiteWriter(site, wait=0.2)
        monkeypatch.setattr(site_files, "LOCK_SECONDS", 0.2)
        out = tmp_path / "results"
        config = tmp_path / "cup.yaml"
        config.write_text("name: cup\nboard: tri:4\nseed: 3\nworkers: 1\nschedule: {games_per_pair: 2}\n"
                          "players: [{name: a, bot: random}, {name: b, bot: random}]\n")
        assert CliRunner().invoke(main, ["run", str(config), "--out", str(out), "-q"]).exit_code == 0
        result = CliRunner().invoke(main, ["publish", str(out), "--out", str(site)])
        assert result.exit_code == 1 and "in use by another publish" in result.output
        assert "Traceback" not in result.output
        assert (site / "index.html").read_text(encoding="utf-8") == "one"
    finally:
        os.close(held)
    publish(site, {"index.html": "two"})  # the lock is free again
    assert (site / "index.html").read_text(encoding="utf-8") == "two"


def test_four_publishes_at_once_leave_a_manifest_that_agrees_with_every_page(tmp_path: Path) -> None:
    out = tmp_path / "results"
    config = tmp_path / "cup.yaml"
    config.write_text("name: cup\nboard: tri:4\nseed: 3\nworkers: 1\nschedule: {games_per_pair: 6}\n"
                      "players: [{name: a, bot: random}, {name: b, bot: random}, {name: c, bot: random}]\n")
    assert CliRunner().invoke(main, ["run", str(config), "--out", str(out), "-q"]).exit_code == 0
    site = tmp_path / "site"
    errors: list[BaseException] = []

    def one(index: int) -> None:
        try:
            publish_results([out], site, title=f"publish {index}", status=f"status {index}")
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    manifest = read_manifest(site)
    assert manifest is not None and len(manifest) > 10
    for name, entry in manifest.items():
        assert digest((site / name).read_bytes()) == entry.digest, name
    on_disk = {str(p.relative_to(site)) for p in site.rglob("*") if p.is_file()} - {MANIFEST}
    assert on_disk == set(manifest)
    titles = {line for line in (site / "index.html").read_text(encoding="utf-8").splitlines() if "publish " in line}
    assert len({t for t in ("publish 0", "publish 1", "publish 2", "publish 3") if any(t in x for x in titles)}) == 1


def _folder_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("manifest", [b"\x00\xff\xfe binary \x80\x81", b"index.html\tabc\ncaf\xe9.html\tdef\n",
                                      b"index.html\x00\tabc\n", b"x" * 2000])
def test_a_binary_or_oversized_manifest_is_refused_in_one_line_and_the_folder_untouched(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, manifest: bytes) -> None:
    out = tmp_path / "results"
    config = tmp_path / "cup.yaml"
    config.write_text("name: cup\nboard: tri:4\nseed: 3\nworkers: 1\nschedule: {games_per_pair: 1}\n"
                      "players: [{name: a, bot: random}, {name: b, bot: random}]\n")
    assert CliRunner().invoke(main, ["run", str(config), "--out", str(out), "-q"]).exit_code == 0
    site = tmp_path / "site"
    publish(site, {"index.html": "one", "notes.html": "the user's own page"})
    (site / MANIFEST).write_bytes(manifest)
    before = _folder_bytes(site)
    monkeypatch.setattr(site_files, "MANIFEST_BYTES", 1000)
    result = CliRunner().invoke(main, ["publish", str(out), "--out", str(site)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1
    expected = "holds 2000 bytes; expected at most 1000" if len(manifest) > 1000 else \
        "is binary, not the text list of files ytourney writes"
    assert f"site manifest '{site / MANIFEST}'" in result.output or expected in result.output, result.output
    assert expected in result.output, result.output
    assert _folder_bytes(site) == before
