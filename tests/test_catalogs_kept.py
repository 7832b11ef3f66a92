"""The translators' files are safe. ``i18n update`` writes nothing over a
catalog saved while it ran, writes a symlinked catalog through its link, ``i18n compile``
replaces each ``.mo`` in one step, and an error (a catalog that cannot be replaced, a
full disk) is one line naming the user's file. The commands run in this process."""

from __future__ import annotations

import errno
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from conftest import run_cli

from site_builder.commands import i18n as i18n_command
from site_builder.errors import UserError
from site_builder.i18n import gnu

PL = "locales/pl/LC_MESSAGES/messages.po"


def add_paragraph(project: Path) -> None:
    """A content change that gives every catalog a new message (so update writes)."""
    with open(project / "content/glossary.md", "a", encoding="utf-8") as fh:
        fh.write("\nA new paragraph, for the catalogs' sake.\n")


def catalogs(project: Path) -> dict[str, bytes]:
    return {p.relative_to(project).as_posix(): p.read_bytes()
            for p in sorted((project / "locales").rglob("*.po*"))}


def one_line(err: str) -> list[str]:
    assert "Traceback" not in err and "internal error" not in err, err
    return err.strip().splitlines()


def test_a_catalog_saved_during_update_is_not_overwritten(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    add_paragraph(project)
    real_merge = i18n_command.merge
    saved = b'\nmsgid "A translator\'s own new entry"\nmsgstr "Nowy wpis"\n'

    def merge_while_saving(po: bytes, pot: bytes, rel: str) -> bytes:
        merged = real_merge(po, pot, rel)
        if rel == PL:  # the translator saves while msgmerge runs
            with open(project / PL, "ab") as fh:
                fh.write(saved)
        return merged

    monkeypatch.setattr(i18n_command, "merge", merge_while_saving)
    before = catalogs(project)
    result = run_cli("i18n", "update", "--root", str(project))
    assert result.code == 2
    [line] = [x for x in one_line(result.err) if x.startswith(PL)]
    assert line.startswith(f"{PL}: the catalog changed while this command ran")
    assert (project / PL).read_bytes() == before[PL] + saved  # the translator's save kept
    assert f"{PL}: updated" not in result.out
    assert "locales/ms/LC_MESSAGES/messages.po: updated" in result.out  # the others merged


def test_a_catalog_saved_while_update_writes_is_not_overwritten(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The translator saves after the comparison with what was read, while
    the merged catalog is being written to its temporary file: the comparison is made
    again once that file is written, immediately before the rename."""
    from site_builder import output

    add_paragraph(project)
    saved = b'\nmsgid "Saved in the write window"\nmsgstr "Zapisane"\n'
    real_chmod = os.chmod

    def chmod_while_saving(path: object, mode: int, **kwargs: object) -> None:
        real_chmod(path, mode, **kwargs)  # type: ignore[arg-type]
        if str(path).startswith(str(project / "locales/pl/LC_MESSAGES/.messages.po.")):
            with open(project / PL, "ab") as fh:  # the temporary file is written by now
                fh.write(saved)

    monkeypatch.setattr(output.os, "chmod", chmod_while_saving)
    before = catalogs(project)
    result = run_cli("i18n", "update", "--root", str(project), "pl")
    assert result.code == 2, result.err
    [line] = one_line(result.err)
    assert line.startswith(f"{PL}: the catalog changed while this command ran")
    assert (project / PL).read_bytes() == before[PL] + saved
    assert not [p.name for p in (project / PL).parent.iterdir() if p.name.startswith(".")]


LINKS = [  # (the link, the command)
    ("locales/pl/LC_MESSAGES/messages.mo", ("i18n", "compile")),
    ("locales/messages.pot", ("i18n", "extract")),
    ("locales/de/LC_MESSAGES/messages.po", ("i18n", "init", "de")),
]


@pytest.mark.parametrize(("link", "args"), LINKS, ids=[" ".join(a) for _, a in LINKS])
@pytest.mark.parametrize("target", ["notes.txt", "new/x.po"])
def test_no_i18n_command_writes_outside_through_a_link(
        project: Path, tmp_path: Path, link: str, args: tuple[str, ...], target: str) -> None:
    """A link planted in the repository (to a user's file, or dangling into a folder that
    does not exist) leads no i18n command outside the project: one line naming the link,
    exit 2, the user's file as it was, nothing made."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("my notes")
    if (project / link).exists():
        (project / link).unlink()
    (project / link).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(home / target, project / link)
    result = run_cli(*args, "--root", str(project))
    assert result.code == 2, result.err
    [line] = one_line(result.err)
    assert line.startswith(f"{link}: "), line  # init: "already exists" for a file there
    assert sorted(p.name for p in home.iterdir()) == ["notes.txt"]
    assert (home / "notes.txt").read_text() == "my notes"


def test_a_link_to_a_catalog_of_its_kind_is_written_through(project: Path,
                                                            tmp_path: Path) -> None:
    """A ``.mo`` or template linked to a file that already is one is written through."""
    assert run_cli("i18n", "compile", "--root", str(project)).code == 0
    mo = project / "locales/pl/LC_MESSAGES/messages.mo"
    shared = tmp_path / "shared.mo"
    os.replace(mo, shared)
    os.symlink(shared, mo)
    pot = tmp_path / "messages.pot"
    os.replace(project / "locales/messages.pot", pot)
    os.symlink(pot, project / "locales/messages.pot")
    add_paragraph(project)
    for args in (("i18n", "compile"), ("i18n", "extract")):
        result = run_cli(*args, "--root", str(project))
        assert result.code == 0, result.err
    assert os.path.islink(mo) and b"A new paragraph" in pot.read_bytes()


def test_a_symlinked_catalog_is_written_through_its_link(project: Path,
                                                         tmp_path: Path) -> None:
    shared = tmp_path / "translators" / "pl.po"
    shared.parent.mkdir()
    os.replace(project / PL, shared)
    os.symlink(shared, project / PL)
    add_paragraph(project)
    result = run_cli("i18n", "update", "--root", str(project), "pl")
    assert result.code == 0, result.err
    assert f"{PL}: updated" in result.out
    assert os.path.islink(project / PL) and os.readlink(project / PL) == str(shared)
    assert b"A new paragraph, for the catalogs' sake." in shared.read_bytes()
    assert [p.name for p in shared.parent.iterdir()] == ["pl.po"]  # no temporary file left


def test_compile_replaces_each_mo_in_one_step(project: Path) -> None:
    assert run_cli("i18n", "compile", "--root", str(project)).code == 0
    mo = project / PL.replace(".po", ".mo")
    good = mo.read_bytes()
    reader = mo.with_name("reader.mo")
    os.link(mo, reader)  # what a program reading the old file holds
    with open(project / PL, "a", encoding="utf-8") as fh:
        fh.write('\nmsgid "An extra message"\nmsgstr "Dodatkowa wiadomość"\n')
    assert run_cli("i18n", "compile", "--root", str(project)).code == 0
    assert reader.read_bytes() == good  # not truncated and written in place
    assert mo.read_bytes() != good and b"Dodatkowa" in mo.read_bytes()
    assert os.stat(mo).st_ino != os.stat(reader).st_ino


def refuse_replace(monkeypatch: pytest.MonkeyPatch, code: int, text: str) -> None:
    """``os.replace`` fails as the kernel makes it fail (both names on the error), and so
    does the exchange of two files that ``i18n update`` replaces a catalog with."""
    def replace(src: str, dst: str) -> None:
        raise OSError(code, text, src, None, dst)

    def exchange(a: Path, b: Path) -> bool:
        raise OSError(code, text, str(b))
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(gnu, "exchange", exchange)


def test_a_catalog_that_cannot_be_replaced_is_named(project: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    add_paragraph(project)
    before = catalogs(project)
    refuse_replace(monkeypatch, errno.EPERM, "Operation not permitted")  # chattr +i
    result = run_cli("i18n", "update", "--root", str(project), "pl")
    assert result.code == 2
    [line] = one_line(result.err)
    assert line.startswith(f"{PL}: cannot write or read it: Operation not permitted"), line
    assert ".messages.po." not in line
    monkeypatch.undo()
    assert catalogs(project) == before
    assert not [p for p in (project / "locales").rglob(".*")]


@pytest.mark.parametrize("command", [("i18n", "update", "pl"), ("i18n", "extract"),
                                     ("i18n", "compile")])
def test_a_full_disk_is_one_line(project: Path, monkeypatch: pytest.MonkeyPatch,
                                 command: tuple[str, ...]) -> None:
    add_paragraph(project)
    assert run_cli("i18n", "compile", "--root", str(project)).code == 0
    before = catalogs(project)
    mos = {p: p.read_bytes() for p in (project / "locales").rglob("*.mo")}
    refuse_replace(monkeypatch, errno.ENOSPC, "No space left on device")
    result = run_cli(*command[:2], "--root", str(project), *command[2:])
    monkeypatch.undo()
    assert result.code == 2
    lines = one_line(result.err)
    assert len(lines) == 1 and "the disk is full (No space left on device)" in lines[0]
    assert lines[0].split(":")[0].endswith((".po", ".pot", ".mo")), lines[0]
    assert catalogs(project) == before
    assert {p: p.read_bytes() for p in mos} == mos


def test_a_full_disk_in_build_is_one_line(project: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``os.write`` fails with no file name: the build still says so in one line."""
    assert run_cli("build", "--root", str(project)).code == 0
    dist = {p: p.read_bytes() for p in (project / "dist").rglob("*") if p.is_file()}
    from site_builder.render import pages

    def write_file(base: Path, rel: str, data: object) -> tuple[int, int]:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pages, "write_file", write_file)
    add_paragraph(project)
    result = run_cli("build", "--root", str(project))
    assert result.code == 2
    [line] = one_line(result.err)
    assert line.startswith("site-builder: --out") and "the disk is full" in line
    assert "the earlier site is kept" in line
    assert {p: p.read_bytes() for p in (project / "dist").rglob("*") if p.is_file()} == dist
    assert not [p for p in project.iterdir() if p.name.startswith(".dist.")]


# --- a save at every step of update's write --------------------------------------------------

OLD = b'msgid "Goal"\nmsgstr "Cel"\n'
MERGED = b'msgid "Goal"\nmsgstr "Cel"\n\nmsgid "New"\nmsgstr ""\n'
SAVE = b'msgid "Goal"\nmsgstr "Cel gry"\n'  # the translator's save


def save_in_place(path: Path) -> None:  # as an editor that rewrites the file it opened
    with open(path, "wb") as fh:
        fh.write(SAVE)


def save_renamed_over(path: Path) -> None:  # as an editor that writes a copy, renamed over
    copy = path.with_name("editor-copy~")
    copy.write_bytes(SAVE)
    os.replace(copy, path)


def save_recreated(path: Path) -> None:  # as a tool that deletes the file, then writes anew
    path.unlink()
    path.write_bytes(SAVE)


SAVES = [save_in_place, save_renamed_over, save_recreated]
# The code of the write: a save is injected before each line of it runs.
TRACED = {"write_if_changed", "unchanged", "_read", "_temporary", "_keep", "exchange",
          "write_atomic"}


def write_with_a_save_at(step: int, folder: Path, save: Callable[[Path], None]
                         ) -> tuple[bool, str | None, bool]:
    """``write_if_changed`` of the merged catalog over the one read, with *save* made
    before the *step*-th line of the write runs: whether it wrote, the error, and whether
    the save was made (a step past the last is never reached)."""
    path = folder / "messages.po"
    path.write_bytes(OLD)
    count, saved = 0, False

    def trace(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal count, saved
        if frame.f_code.co_name not in TRACED:
            return None
        if event == "line" and not saved:
            count += 1
            if count == step:
                saved = True
                save(path)
        return trace

    sys.settrace(trace)
    try:
        wrote, error = gnu.write_if_changed(path, MERGED, "messages.po", OLD), None
    except UserError as exc:
        wrote, error = False, str(exc)
    finally:
        sys.settrace(None)
    return wrote, error, saved


@pytest.mark.parametrize("save", SAVES, ids=[s.__name__ for s in SAVES])
def test_a_save_at_every_step_of_the_write_is_never_lost(tmp_path: Path,
                                                         save: Callable[[Path], None]) -> None:
    """The translator saves at each step of ``i18n update``'s write in turn (before every
    line of it, the exchange and the comparisons included), the whole sweep 20 times:
    the save is always in place or kept beside with its name in the message, the command
    says the catalog changed unless the save came after the write, and nothing is left
    behind but what the message names."""
    steps = 0
    for run in range(20):
        folder = tmp_path / f"run-{run}"
        step = 0
        while True:
            step += 1
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            wrote, error, saved = write_with_a_save_at(step, folder, save)
            path = folder / "messages.po"
            left = sorted(p.name for p in folder.iterdir() if p.name != "messages.po")
            shown = f"run {run}, step {step}: wrote={wrote}, error={error}, left={left}"
            if not saved:  # past the last step: the merged catalog written
                assert wrote and error is None and path.read_bytes() == MERGED, shown
                assert left == [], shown
                break
            kept = [folder / name for name in left if error and name in error]
            assert path.read_bytes() == SAVE or any(p.read_bytes() == SAVE for p in kept), shown
            assert left == [p.name for p in kept], shown  # no temporary file left
            if error is not None:
                assert error.startswith("messages.po: the catalog "), shown
            else:  # written, and saved over afterwards: the save is the catalog
                assert path.read_bytes() == SAVE, shown
        steps = max(steps, step)
    assert steps > 20  # the write has that many steps: each was tried
