"""``--out`` never empties a folder that no build wrote, "nothing changed" holds
only when nothing did, and damage to the cache of any kind is ignored and rebuilt. Each
test runs the real command in this process on a scratch copy of the project in two
languages (:func:`conftest.keep_two_languages`: what is tested here holds for any number);
what a build of it without cache gives (``fresh``) is built once per test session."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, copy_project, keep_two_languages, run_cli, shared_folder
from test_bad_inputs import snapshot

from site_builder import cache, output
from site_builder.errors import UserError
from site_builder.output import MARKER


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def build(project: Path, *args: str) -> str:
    result = run_cli("build", "--root", str(project), *args)
    assert result.code == 0, result.err
    assert "Traceback" not in result.err and "internal error" not in result.err
    return result.err


@pytest.fixture
def project(project: Path) -> Path:
    """The scratch project, in two languages."""
    return keep_two_languages(project)


def _fresh(folder: Path) -> None:
    build(keep_two_languages(copy_project(folder / "project")), "--no-cache", "--out",
          str(folder / "fresh"))


@pytest.fixture(scope="session")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The files of ``build --no-cache`` of a copy of the project (built once per test
    session, for every xdist worker): what a build that ignored a damaged cache must give."""
    return tree(shared_folder(tmp_path_factory, "nothing-lost-fresh-two", _fresh) / "fresh")


def refused(project: Path, out: Path | None, *names: str) -> None:
    """A build of *project* into *out* (default dist/) is refused in one line naming
    *names*, exit 2, no traceback."""
    args = ("--out", str(out)) if out is not None else ()
    result = run_cli("build", "--root", str(project), *args)
    assert result.code == 2, result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "no build of site-builder wrote" in lines[0], result.err
    assert "pass --out with a new or empty folder, or one that a build wrote" in lines[0]
    assert "Traceback" not in result.err
    for name in names:
        assert name in lines[0], (name, lines[0])


def test_a_users_folder_with_an_index_and_a_404_is_refused(project: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mysite"
    (mine / "photos").mkdir(parents=True)
    for rel, text in {"index.html": "home", "404.html": "404", "notes.txt": "notes",
                      "photos/a.jpg": "jpg"}.items():
        (mine / rel).write_text(text)
    before = tree(mine)
    refused(project, mine, "notes.txt", "photos/")
    assert tree(mine) == before


def test_a_build_copied_into_a_users_folder_is_refused(project: Path, tmp_path: Path) -> None:
    """A build copied into a folder of one's own (docs/, public_html) that
    holds notes, photos and a CNAME: the marker vouches only for the files it lists, so
    the folder is refused, naming the others, and every file is kept."""
    built = tmp_path / "built"
    build(project, "--out", str(built))
    mine = tmp_path / "mysite"
    (mine / "photos").mkdir(parents=True)
    (mine / "notes.txt").write_text("notes")
    (mine / "photos/a.jpg").write_text("jpg")
    (mine / "CNAME").write_text("rami.example.org")
    shutil.copytree(built, mine, dirs_exist_ok=True)
    before = tree(mine)
    refused(project, mine, "CNAME", "notes.txt", "photos/")
    assert tree(mine) == before


def test_an_empty_marker_vouches_for_nothing(project: Path, tmp_path: Path) -> None:
    """A marker whose list is empty (its hash checks out) over a user's files."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("notes")
    (mine / MARKER).write_bytes(output.marker({}))
    refused(project, mine, "notes.txt")
    assert (mine / "notes.txt").read_text() == "notes"


def test_a_faked_marker_is_no_proof(project: Path, tmp_path: Path) -> None:
    built = tmp_path / "built"
    build(project, "--out", str(built))
    marker = (built / MARKER).read_bytes()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("notes")
    (mine / "index.html").write_text("home")
    (mine / MARKER).write_bytes(marker)  # a build's marker, but notes.txt is not in it
    refused(project, mine, "notes.txt")
    (mine / MARKER).write_bytes(b"site-builder output 0\n1 index.html\n")  # a wrong hash
    refused(project, mine, "index.html", "notes.txt")
    assert (mine / "notes.txt").read_text() == "notes"


def test_a_users_file_added_to_the_output_is_kept(project: Path) -> None:
    """A CNAME, a drafts/ folder, a page or an empty folder added inside
    dist/ after a build: the next build (cached or not) is refused naming it, and dist/
    stays byte for byte as it was (so a stray file is never published either). One build,
    then each addition in turn, alone."""
    build(project)
    dist = project / "dist"
    built = snapshot(dist)
    for added in ("CNAME", "drafts/a.md", "en/stray.html", "empty/"):
        path = dist / added
        made = path if added.endswith("/") or path.parent.exists() else path.parent
        if added.endswith("/"):
            path.mkdir()
        else:
            path.parent.mkdir(exist_ok=True)
            path.write_text("mine")
        before = snapshot(dist)
        shown = added.split("/")[0] + "/" if added.startswith(("drafts", "empty")) else added
        refused(project, None, shown)
        refused(project, None, shown)  # --no-cache below: the same
        result = run_cli("build", "--root", str(project), "--no-cache")
        assert result.code == 2 and shown in result.err, (added, result.err)
        assert snapshot(dist) == before, added
        if made.is_dir():  # take away what was added, only
            shutil.rmtree(made)
        else:
            made.unlink()
        assert snapshot(dist) == built, added


def test_a_damaged_output_is_rebuilt(project: Path, tmp_path: Path) -> None:
    """A file of dist/ deleted and another changed (a slip of the hand, a sync
    tool): the folder is still the build's, and the next build restores both."""
    build(project)
    dist = project / "dist"
    before = tree(dist)
    (dist / "pl" / "index.html").unlink()
    with (dist / "assets" / "site.css").open("a") as fh:
        fh.write("/* changed */")
    err = build(project)
    assert "nothing changed" not in err
    assert tree(dist) == before


def test_a_folder_replaced_during_a_build_is_kept(project: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """While a build renders, another program replaces dist/ by a folder
    of its own: the build checks again, under its lock, immediately before the swap,
    and is refused; the folder is kept."""
    from site_builder import build as build_module

    build(project)
    (project / "content" / "glossary.md").open("a").write("\nOne more sentence.\n")
    real = build_module.render_site_files

    def replaced(*args: object, **kwargs: object) -> object:
        shutil.rmtree(project / "dist")
        (project / "dist").mkdir()
        (project / "dist" / "notes.txt").write_text("notes")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "render_site_files", replaced)
    refused(project, None, "notes.txt")
    assert tree(project / "dist") == {"notes.txt": b"notes"}
    assert not [p.name for p in project.iterdir() if p.name.startswith(".dist.")]


def test_a_folder_replaced_at_the_swap_is_put_back(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The narrowest window: the folder is replaced after the last check and
    before the exchange. What was moved away is checked again and put back."""
    out = tmp_path / "dist"
    out.mkdir()
    tmp = output.staging(out)
    (tmp / "index.html").write_bytes(b"new")
    real = output._exchange

    def late(a: Path, b: Path) -> bool:
        if (b / "notes.txt").exists() is False and a == tmp:
            shutil.rmtree(b)
            b.mkdir()
            (b / "notes.txt").write_text("notes")
        return real(a, b)

    monkeypatch.setattr(output, "_exchange", late)
    with pytest.raises(UserError) as caught:
        output.swap(tmp, out)
    assert "notes.txt" in str(caught.value.problems[0])
    assert tree(out) == {"notes.txt": b"notes"}


def test_a_users_backup_next_to_the_output_is_kept(project: Path) -> None:
    """A folder next to dist/ named like a killed build's leftovers
    (``.dist.old-2024-backup``, a copy of dist/, marker and all) is not the build's to
    clean: only a folder that a build claimed is; a non-empty "probe" is kept too."""
    build(project)
    backup = project / ".dist.old-2024-backup"
    shutil.copytree(project / "dist", backup)
    probe = project / ".dist.probe-1-x"
    probe.mkdir()
    (probe / "mine.txt").write_text("mine")
    before = tree(backup)
    (project / "content" / "glossary.md").open("a").write("\nOne more sentence.\n")
    assert "nothing changed" not in build(project)
    assert tree(backup) == before and (probe / "mine.txt").read_text() == "mine"


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


WRONG_SHAPES = [
    drop("fallbacks"), drop("files"), drop("languages"), drop("claims"), drop("site"),
    typed("fallbacks", {"a": 1}), typed("fallbacks", [[1, 2]]), typed("files", []),
    typed("files", {"en/index.html": "x"}), typed("languages", "en"), typed("claims", "3"),
    typed("claims", None), lambda r: [r], lambda r: None,
]


def test_a_record_with_a_valid_hash_and_a_wrong_shape_is_not_read(built_site: Path,
                                                                   tmp_path: Path) -> None:
    """Every build reads its record through ``read_record`` (the refusal, the files to
    compare, what nothing changed gives): a record of any other shape is not given, as a
    damaged one is not."""
    out = built_site.resolve()
    record = cache.read_record(ROOT, out)
    assert record is not None  # the real site's build, recorded
    cache.write_record(tmp_path, out, record)
    assert cache.read_record(tmp_path, out) == record
    for change in WRONG_SHAPES:
        wrong = change(record)  # type: ignore[operator]
        cache.write_record(tmp_path, out, wrong)
        assert cache.read_record(tmp_path, out) is None, wrong


@pytest.mark.parametrize("change", [typed("files", []), lambda r: None],
                         ids=["files", "null"])
def test_a_record_with_a_valid_hash_and_a_wrong_shape_is_ignored(
        project: Path, fresh: dict[str, bytes], change: object) -> None:
    build(project)
    rewrite_record(record_path(project), change)
    build(project)
    assert tree(project / "dist") == fresh


@pytest.mark.parametrize("where", ["jinja", "."])
def test_a_file_where_a_cache_folder_should_be_is_ignored(project: Path, fresh: dict[str, bytes],
                                                          where: str) -> None:
    shutil.rmtree(project / ".cache", ignore_errors=True)  # what the fixture's check kept
    folder = project / cache.CACHE_DIR / where
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("not a folder")
    build(project)
    build(project)
    assert tree(project / "dist") == fresh


def test_an_output_from_before_the_marker_is_known_by_the_build_record(project: Path) -> None:
    """A dist/ written before builds wrote their marker is still a build's (its record in
    .cache/ lists its files); without the record nor the marker it is refused."""
    build(project)
    (project / "dist" / MARKER).unlink()
    (project / "dist" / "en" / "stray.txt").write_text("stray")
    refused(project, None, "en/stray.txt")  # the record lists every file too
    (project / "dist" / "en" / "stray.txt").unlink()
    build(project)
    assert (project / "dist" / MARKER).is_file()
    (project / "dist" / MARKER).unlink()
    shutil.rmtree(project / ".cache")
    result = run_cli("build", "--root", str(project))
    assert result.code == 2 and "no build of site-builder wrote" in result.err


MALFORMED_EPOCHS = ("abc", "99999999999999999999", "1_700_000_000", "-1",
                    "\u0661\u0667\u0660\u0660\u0660\u0660\u0660\u0660\u0660\u0660",
                    "1.5e9", "0x10",
                    # what int() reads by stripping it: a space, a tab, a line end, a
                    # Windows line end, a no-break space, a value that is only a space
                    " 1700000000", "1700000000\n", "\t1700000000", "1700000000\r\n",
                    "\u00a01700000000", " ",
                    # other scripts' digits that int() reads: fullwidth, Devanagari
                    "\uff11\uff17\uff10\uff10\uff10\uff10\uff10\uff10\uff10\uff10",
                    "\u0967\u096d\u0966\u0966\u0966\u0966\u0966\u0966\u0966\u0966",
                    "+1700000000", "1700000000.0", "-", "1" * 4400)  # past int()'s own limit


def test_a_malformed_source_date_epoch_is_one_line(project: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The reproducible-builds specification's SOURCE_DATE_EPOCH is ASCII
    digits; anything else is one line naming the variable, exit 2, from check and build
    alike, and the earlier dist/ is kept (it was dropped or read anyway). One build, then
    every malformed value in turn (each is refused before anything is read)."""
    build(project)
    before = snapshot(project / "dist")
    for epoch in MALFORMED_EPOCHS:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        for command in ("check", "build"):
            result = run_cli(command, "--root", str(project))
            shown = f"SOURCE_DATE_EPOCH={epoch!r}, {command}: exit {result.code}\n{result.err}"
            assert result.code == 2, shown
            lines = result.err.strip().splitlines()
            assert lines[0].startswith("SOURCE_DATE_EPOCH: "), shown
            assert len(lines) == 1 or command == "check", shown
            assert "Traceback" not in result.err and "internal error" not in result.err, shown
        assert snapshot(project / "dist") == before, epoch
