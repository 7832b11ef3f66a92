"""Issue 28: ``--out`` never empties a folder that no build wrote, "nothing changed" holds
only when nothing did, and damage to the cache of any kind is ignored and rebuilt. Each
test runs the real command in this process on a scratch copy of the project; what a build
of the project without cache gives (``fresh``) is built once per test session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import copy_project, run_cli, shared_folder

from site_builder import cache
from site_builder.output import MARKER


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def build(project: Path, *args: str) -> str:
    result = run_cli("build", "--root", str(project), *args)
    assert result.code == 0, result.err
    assert "Traceback" not in result.err and "internal error" not in result.err
    return result.err


def _fresh(folder: Path) -> None:
    build(copy_project(folder / "project"), "--no-cache", "--out", str(folder / "fresh"))


@pytest.fixture(scope="session")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The files of ``build --no-cache`` of a copy of the project (built once per test
    session, for every xdist worker): what a build that ignored a damaged cache must give."""
    return tree(shared_folder(tmp_path_factory, "nothing-lost-fresh", _fresh) / "fresh")


def test_a_users_folder_with_an_index_and_a_404_is_refused(project: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mysite"
    (mine / "photos").mkdir(parents=True)
    for rel, text in {"index.html": "home", "404.html": "404", "notes.txt": "notes",
                      "photos/a.jpg": "jpg"}.items():
        (mine / rel).write_text(text)
    before = tree(mine)
    result = run_cli("build", "--root", str(project), "--out", str(mine))
    assert result.code == 2
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "no build of site-builder wrote" in lines[0], result.err
    assert "pass --out with a new or empty folder, or one that a build wrote" in lines[0]
    assert tree(mine) == before


def test_a_faked_marker_is_no_proof(project: Path, tmp_path: Path) -> None:
    built = tmp_path / "built"
    build(project, "--out", str(built))
    marker = (built / MARKER).read_bytes()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("notes")
    (mine / "index.html").write_text("home")
    (mine / MARKER).write_bytes(marker)  # a build's marker, but its files are not there
    assert run_cli("build", "--root", str(project), "--out", str(mine)).code == 2
    (mine / MARKER).write_bytes(b"site-builder output 0\n1 index.html\n")  # a wrong hash
    assert run_cli("build", "--root", str(project), "--out", str(mine)).code == 2
    assert (mine / "notes.txt").read_text() == "notes"


def test_a_folder_a_build_wrote_is_replaced(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(project, "--out", str(out))
    (out / "en" / "stray.html").write_text("stray")
    build(project, "--out", str(out), "--no-cache")
    assert not (out / "en" / "stray.html").exists() and (out / MARKER).is_file()


def test_a_stray_file_is_a_change(project: Path, tmp_path: Path) -> None:
    build(project)
    dist = project / "dist"
    before = tree(dist)
    for stray in ("en/leftover.html", "extra/x.txt"):
        (dist / stray).parent.mkdir(exist_ok=True)
        (dist / stray).write_text("stray")
        err = build(project)
        assert "nothing changed" not in err
        assert tree(dist) == before
    (dist / "empty").mkdir()
    assert "nothing changed" not in build(project)
    assert not (dist / "empty").exists()
    assert "nothing changed" in build(project)


@pytest.mark.parametrize("epochs", [("1700000000", "1710000000")])
def test_the_build_date_is_an_input(project: Path, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch,
                                    epochs: tuple[str, str]) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epochs[0])
    build(project)
    assert "nothing changed" in build(project)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epochs[1])
    assert "nothing changed" not in build(project)
    build(project, "--no-cache", "--out", str(tmp_path / "fresh"))
    assert tree(project / "dist") == tree(tmp_path / "fresh")
    page = (project / "dist/en/first-meld/index.html").read_text(encoding="utf-8")
    assert "March 9, 2024" in page  # the second epoch's date, as English writes it


def record_path(project: Path) -> Path:
    [path] = (project / cache.CACHE_DIR).glob("out-*.json")
    return path


def rewrite_record(path: Path, change: object) -> None:
    body = json.loads(path.read_bytes().partition(b"\n")[2])
    body = change(body)  # type: ignore[operator]
    data = json.dumps(body, sort_keys=True).encode()
    path.write_bytes(cache.digest(data).encode() + b"\n" + data)


def drop(key: str) -> object:
    return lambda r: {k: v for k, v in r.items() if k != key}


def typed(key: str, value: object) -> object:
    return lambda r: {**r, key: value}


@pytest.mark.parametrize("change", [
    drop("fallbacks"), drop("files"), drop("languages"), drop("claims"), drop("site"),
    typed("fallbacks", {"a": 1}), typed("fallbacks", [[1, 2]]), typed("files", []),
    typed("files", {"en/index.html": "x"}), typed("languages", "en"), typed("claims", "3"),
    typed("claims", None), lambda r: [r], lambda r: None,
], ids=lambda c: getattr(c, "__name__", "change"))
def test_a_record_with_a_valid_hash_and_a_wrong_shape_is_ignored(
        project: Path, fresh: dict[str, bytes], change: object) -> None:
    build(project)
    rewrite_record(record_path(project), change)
    build(project)
    assert tree(project / "dist") == fresh


@pytest.mark.parametrize("where", ["jinja", "."])
def test_a_file_where_a_cache_folder_should_be_is_ignored(project: Path, fresh: dict[str, bytes],
                                                          where: str) -> None:
    folder = project / cache.CACHE_DIR / where
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("not a folder")
    build(project)
    build(project)
    assert tree(project / "dist") == fresh


def test_an_output_from_before_the_marker_is_known_by_the_build_record(project: Path) -> None:
    """A dist/ written before builds wrote their marker is still a build's (its record in
    .cache/ lists its files); without the record nor the marker it is refused."""
    import shutil

    build(project)
    (project / "dist" / MARKER).unlink()
    (project / "dist" / "en" / "stray.txt").write_text("stray")
    build(project)
    assert (project / "dist" / MARKER).is_file()
    assert not (project / "dist" / "en" / "stray.txt").exists()
    (project / "dist" / MARKER).unlink()
    shutil.rmtree(project / ".cache")
    result = run_cli("build", "--root", str(project))
    assert result.code == 2 and "no build of site-builder wrote" in result.err
