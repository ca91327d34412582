"""The site folder stays the only place a publish writes or removes: poisoned manifests, symbolic links, staging."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ytourney.errors import ReportError
from ytourney.publish.site_files import (
    MANIFEST,
    STAGING_PREFIX,
    SiteWriter,
    check_site_folder,
    safe_relative,
)


def publish(folder: Path, files: dict[str, str]) -> tuple[Path, ...]:
    writer = SiteWriter(folder)
    for name, content in files.items():
        writer.text(name, content)
    return writer.commit()


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under `folder` (links by target, never followed)."""
    result: dict[str, bytes | str] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root) / name
            key = str(path.relative_to(folder))
            if path.is_symlink():
                result[key] = "-> " + os.readlink(path)
            elif path.is_file():
                result[key] = path.read_bytes()
    return result


@pytest.mark.parametrize("entry", ["/etc/passwd", "../outside.txt", "a/../../outside.txt", "./x", "a//b", "",
                                   "C:/x", "a\\..\\b", "x\x00y"])
def test_unsafe_manifest_entries_are_refused(entry: str) -> None:
    assert safe_relative(entry) is None


def test_a_poisoned_manifest_removes_nothing_outside_the_site(tmp_path: Path) -> None:
    outside = tmp_path / "precious"
    outside.mkdir()
    (outside / "data.txt").write_text("keep me", encoding="utf-8")
    (tmp_path / "top.txt").write_text("keep me too", encoding="utf-8")
    site = tmp_path / "site"
    publish(site, {"index.html": "one", "games/a.html": "a"})
    poison = [f"{outside / 'data.txt'}", "../top.txt", "../precious/data.txt", "games/../../top.txt",
              "link/data.txt", "linked.txt", f"{tmp_path}/top.txt\tabc"]
    (site / "link").symlink_to(outside, target_is_directory=True)
    (site / "linked.txt").symlink_to(outside / "data.txt")
    manifest = site / MANIFEST
    manifest.write_text(manifest.read_text(encoding="utf-8") + "\n".join(poison) + "\n", encoding="utf-8")
    before = snapshot(outside)
    publish(site, {"index.html": "two"})
    assert snapshot(outside) == before
    assert (tmp_path / "top.txt").read_text(encoding="utf-8") == "keep me too"
    assert (site / "link").is_symlink() and (site / "linked.txt").is_symlink()  # links are left alone
    assert not (site / "games" / "a.html").exists()  # its own stale page goes
    assert (site / "index.html").read_text(encoding="utf-8") == "two"


def test_a_stale_file_changed_since_it_was_written_is_kept(tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(site, {"index.html": "one", "notes.html": "generated"})
    (site / "notes.html").write_text("edited by hand", encoding="utf-8")
    publish(site, {"index.html": "two"})
    assert (site / "notes.html").read_text(encoding="utf-8") == "edited by hand"


def test_files_the_user_added_are_never_removed(tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(site, {"index.html": "one"})
    (site / "mine.txt").write_text("mine", encoding="utf-8")
    publish(site, {"index.html": "two", "games/b.html": "b"})
    assert (site / "mine.txt").read_text(encoding="utf-8") == "mine"


def test_a_symlinked_subfolder_is_never_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    site = tmp_path / "site"
    publish(site, {"index.html": "one"})
    (site / "games").symlink_to(outside, target_is_directory=True)
    with pytest.raises(ReportError, match="is not a plain folder"):
        publish(site, {"index.html": "two", "games/a.html": "a"})
    assert list(outside.iterdir()) == []
    assert not any(p.name.startswith(STAGING_PREFIX) for p in site.iterdir())  # the staging folder is gone


def test_a_symlinked_page_is_replaced_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text("untouched", encoding="utf-8")
    site = tmp_path / "site"
    publish(site, {"index.html": "one"})
    (site / "index.html").unlink()
    (site / "index.html").symlink_to(target)
    publish(site, {"index.html": "two"})
    assert target.read_text(encoding="utf-8") == "untouched"
    assert not (site / "index.html").is_symlink() and (site / "index.html").read_text(encoding="utf-8") == "two"


def test_a_symlinked_manifest_is_not_read(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "list").write_text("index.html\n", encoding="utf-8")
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("someone's page", encoding="utf-8")
    (site / MANIFEST).symlink_to(elsewhere / "list")
    with pytest.raises(ReportError, match="holds no ytourney site"):
        check_site_folder(site)


def test_staging_happens_inside_the_site_and_leaves_nothing(tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(site, {"index.html": "one", "games/a.html": "a"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    assert sorted(p.name for p in site.iterdir()) == [MANIFEST, "games", "index.html"]
    (site / f"{STAGING_PREFIX}old").mkdir()  # left by a publish that was killed
    publish(site, {"index.html": "two"})
    assert sorted(p.name for p in site.iterdir()) == [MANIFEST, "games", "index.html"]


def test_unchanged_files_are_not_rewritten(tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(site, {"index.html": "one", "games/a.html": "a"})
    page = site / "games" / "a.html"
    os.utime(page, (1, 1))
    publish(site, {"index.html": "two", "games/a.html": "a"})
    assert page.stat().st_mtime == 1 and (site / "index.html").read_text(encoding="utf-8") == "two"


def test_a_failed_publish_leaves_the_site_as_it_was(tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(site, {"index.html": "one"})
    before = snapshot(site)
    writer = SiteWriter(site)
    writer.text("index.html", "two")
    writer.abandon()
    assert snapshot(site) == before
