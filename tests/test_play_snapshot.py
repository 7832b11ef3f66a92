"""The practice table's start-up snapshot (site_builder/render/play.py, snapshot.mjs): made
by Node from the runtime and the engine, the same bytes every time, kept between builds,
made again when the kept copy is damaged, and a build without Node stops with one line."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

from site_builder.render import play


def _runtime_copy(root: Path) -> Path:
    """*root* with a ``node_modules/pyodide`` of its own (links to the checkout's runtime
    files), so that nothing is kept there yet."""
    found = root / "node_modules" / "pyodide"
    found.mkdir(parents=True)
    for name in (*play.RUNTIME_FILES, "package.json"):
        (found / name).symlink_to(ROOT / "node_modules" / "pyodide" / name)
    return found


@pytest.mark.slow
def test_a_snapshot_made_again_is_the_same_bytes_and_replaces_a_damaged_one(
        tmp_path: Path) -> None:
    archive = play.engine_archive()
    kept_name, kept = play.start_snapshot(ROOT, archive)  # the checkout's, made or kept
    found = _runtime_copy(tmp_path)
    name, data = play.start_snapshot(tmp_path, archive)  # made here, by Node, afresh
    assert (name, data) == (kept_name, kept)
    assert name.startswith("snapshot-") and name.endswith(".gz")
    assert len(gzip.decompress(data)) > 10_000_000  # the interpreter's memory
    copy = next((found.parent / play.SNAPSHOT_CACHE).glob("snapshot-*.gz"))
    assert copy.read_bytes() == data
    copy.write_bytes(data[: len(data) // 2])  # a copy cut short: never published
    assert play.start_snapshot(tmp_path, archive) == (name, data)
    assert copy.read_bytes() == data


def test_a_build_without_node_stops_with_one_line(project: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "node_modules").unlink()  # a runtime with nothing kept beside it
    _runtime_copy(project)
    monkeypatch.setenv("PATH", str(project / "no-such-folder"))
    result = run_cli("build", "--root", str(project))
    assert result.code == 2, result.err
    assert result.err.splitlines() == [
        "node_modules/pyodide: cannot prepare the practice table's start-up (node "
        "snapshot.mjs): Node.js is not installed; install it (bash scripts/setup does), as "
        "'npm ci' needs it too"], result.err
    assert not (project / "dist").exists()


def test_the_page_names_the_snapshot_beside_the_runtime(built_site: Path) -> None:
    page = (built_site / "pl" / "play" / "index.html").read_text("utf-8")
    names = sorted(p.name for p in built_site.glob("assets/pyodide/*/snapshot-*.gz"))
    assert len(names) == 1
    assert f'/{names[0]}"' in page and 'data-snapshot="' in page
