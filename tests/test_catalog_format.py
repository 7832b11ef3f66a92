"""Catalogs in GNU gettext's format: what translators' tools save is what we write.

``i18n extract``, ``update`` and ``init`` write the files as GNU gettext does, so
that ``msgcat`` (or a save in Poedit, Weblate, msgmerge) changes nothing.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from conftest import ROOT, run_cli

LANGS = ("id", "ms", "pl", "vi")
OLD = "This is the only difference between the two games."
NEW = "This is the one and only difference between the two games."


def po(project: Path, lang: str) -> Path:
    return project / "locales" / lang / "LC_MESSAGES" / "messages.po"


def catalogs(project: Path) -> list[Path]:
    return sorted((project / "locales").rglob("*.po*"))


def msgcat(path: Path, *options: str) -> bytes:
    exe = shutil.which("msgcat")
    assert exe, "GNU gettext is missing: run `bash scripts/setup`"
    return subprocess.run([exe, *options, str(path)], capture_output=True,
                          check=True).stdout


def entries(data: bytes) -> tuple[list[Any], list[Any]]:
    """Every entry of a catalog as Babel reads it (the header's fields aside), and its
    obsolete entries."""
    catalog = read_po(io.BytesIO(data))
    current = [(m.id, m.string, m.context, sorted(m.flags), m.locations, m.auto_comments,
                m.user_comments, m.previous_id) for m in catalog if m.id]
    obsolete = [(m.id, m.string, m.context) for m in catalog.obsolete.values()]
    return current, obsolete


def previous_msgid(data: bytes, msgid_start: str) -> str:
    """The ``#|`` previous msgid of the entry whose msgid starts with *msgid_start*
    (Babel does not read a previous msgid over several lines)."""
    for block in data.decode("utf-8").split("\n\n"):
        ids = "".join(m.group(1) for m in re.finditer(r'^(?:msgid )?"(.*)"$', block, re.M)
                      if not m.group(0).startswith("msgstr"))
        if ids.startswith(msgid_start.replace('"', '\\"')):
            return "".join(re.findall(r'^#\| (?:msgid )?"(.*)"$', block, re.M))
    raise AssertionError(f"no entry {msgid_start!r}")


def ok(*args: str) -> str:
    result = run_cli(*args)
    assert result.code == 0, result.err
    return result.out


def edit(project: Path, rel: str, old: str, new: str) -> None:
    path = project / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- zero diff ------------------------------------------------------------------------------

@pytest.mark.slow  # what we write, compared with GNU msgcat's: in the full run
def test_msgcat_changes_nothing_in_what_we_write(project: Path) -> None:
    """extract, update (after new, changed and removed messages) and init write every
    catalog exactly as msgcat does."""
    edit(project, "content/first-meld.md", OLD, NEW)  # a fuzzy entry with #| lines
    edit(project, "content/first-meld.md", "## ", "## A heading added here\n\n## ")  # new
    page = (project / "content" / "cardverse.md").read_text(encoding="utf-8")
    lines = page.split("\n")
    last = max(i for i, line in enumerate(lines) if line and line[0].isalpha())
    del lines[last]  # a translated paragraph removed: obsolete entries
    (project / "content" / "cardverse.md").write_text("\n".join(lines), encoding="utf-8")
    ok("i18n", "extract", "--root", str(project))
    ok("i18n", "update", "--root", str(project))
    ok("i18n", "init", "de", "--root", str(project))
    text = po(project, "pl").read_text(encoding="utf-8")
    assert "\n#| msgid " in text and "\n#~ msgid " in text and "#, fuzzy" in text
    for path in catalogs(project):
        assert msgcat(path) == path.read_bytes(), path


# locales/ is rewritten in GNU gettext's format once, in a commit of its own, by
#   site-builder i18n extract && site-builder i18n update
#   sed -i '/# REFORMAT$/d' tests/test_catalog_format.py   # the xfail marker below
@pytest.mark.parametrize("rel", ["locales/messages.pot",
                                 *(f"locales/{lang}/LC_MESSAGES/messages.po" for lang in LANGS)])
def test_committed_catalogs_are_in_gnu_gettext_format(rel: str) -> None:
    assert msgcat(ROOT / rel) == (ROOT / rel).read_bytes()


def test_reformatting_changes_layout_only(project: Path) -> None:
    """Writing today's catalogs in GNU's format keeps every entry's text, translation,
    context and flags (entries for messages the catalogs lacked are added, and
    references follow the content, as update does)."""
    before = {p: entries(p.read_bytes()) for p in catalogs(project)}
    ok("i18n", "extract", "--root", str(project))
    ok("i18n", "update", "--root", str(project))
    after = {p: entries(p.read_bytes()) for p in catalogs(project)}
    for path, (current, obsolete) in before.items():  # (references may have moved)
        def key(e: Any) -> tuple[Any, ...]:
            return (e[0], e[1], e[2], tuple(e[3]))

        kept = {key(e) for e in after[path][0]}
        assert [key(e) for e in current if key(e) not in kept] == [], path
        assert after[path][1] == obsolete, path


# --- update as msgmerge -----------------------------------------------------------------------

@pytest.mark.slow  # the same merge by GNU msgmerge, compared: in the full run
def test_update_gives_the_entries_msgmerge_gives(project: Path, tmp_path: Path) -> None:
    """Round trip: the same catalogs and content change, merged by our update and by
    GNU msgmerge --previous against our extracted template: the same entries."""
    ok("i18n", "update", "--root", str(project))  # the catalogs as GNU's tools write them
    original = {lang: po(project, lang).read_bytes() for lang in LANGS}
    edit(project, "content/first-meld.md", OLD, NEW)
    edit(project, "content/first-meld.md", "\n## ", "\nA paragraph added for the test.\n\n## ")
    ok("i18n", "extract", "--root", str(project))
    ok("i18n", "update", "--root", str(project))
    pot = project / "locales" / "messages.pot"
    for lang in LANGS:
        old = tmp_path / f"{lang}.po"
        old.write_bytes(original[lang])
        theirs = subprocess.run(["msgmerge", "--quiet", "--previous", "-o", "-", str(old),
                                 str(pot)], capture_output=True, check=True).stdout
        ours = po(project, lang).read_bytes()
        assert entries(ours) == entries(theirs), lang
        assert ours == theirs
        current, _ = entries(ours)
        changed = next(e for e in current if e[0].startswith(NEW))
        assert "fuzzy" in changed[3] and changed[1]  # the old translation, to review
        assert previous_msgid(ours, NEW).startswith(OLD)
        added = next(e for e in current if e[0] == "A paragraph added for the test.")
        assert added[1] == ""


def test_update_never_drops_a_translation(project: Path) -> None:
    """A translated paragraph removed from the content is kept as obsolete (#~), with its
    translation; when the paragraph comes back, so does its translation."""
    rel = "content/first-meld.md"
    text = (project / rel).read_text(encoding="utf-8")
    paragraph = next(p for p in text.split("\n\n") if p.startswith(OLD[:20]))
    before = {lang: read_po(po(project, lang).open("rb")).get(paragraph) for lang in LANGS}
    assert all(m is not None and m.string for m in before.values())
    obsolete = {lang: po(project, lang).read_text(encoding="utf-8").count("\n#~ msgid ")
                for lang in LANGS}
    edit(project, rel, paragraph + "\n\n", "")
    ok("i18n", "extract", "--root", str(project))
    out = ok("i18n", "update", "--root", str(project))
    for lang in LANGS:  # one more obsolete entry than the catalog had
        assert f"{lang}/LC_MESSAGES/messages.po: updated, 0 fuzzy, {obsolete[lang] + 1} obsolete" \
            in out, out
    for lang in LANGS:
        catalog = read_po(po(project, lang).open("rb"))
        assert catalog.get(paragraph) is None
        kept = catalog.obsolete.get(paragraph)
        assert kept is not None and kept.string == before[lang].string
    ok("build", "--root", str(project))  # an obsolete entry is no problem
    (project / rel).write_text(text, encoding="utf-8")
    ok("i18n", "extract", "--root", str(project))
    ok("i18n", "update", "--root", str(project))
    for lang in LANGS:
        back = read_po(po(project, lang).open("rb")).get(paragraph)
        assert back is not None and back.string == before[lang].string and not back.fuzzy


HEADING, PLAYERS = "The short version", "Players: {rami51_min_players} to "


def update_after_heading_change(project: Path, tmp_path: Path,
                                catalog: dict[str, bytes]) -> str:
    """Write *catalog* (language: the catalog's bytes), change the heading whose entry
    comes just before the PLAYERS one, extract and update; check that every catalog
    keeps the PLAYERS translation, not fuzzy, and is what msgmerge --previous gives."""
    before = {}
    for lang, data in catalog.items():
        before[lang] = next(m.string for m in read_po(po(project, lang).open("rb"))
                            if m.id.startswith(PLAYERS))
        assert before[lang]
        po(project, lang).write_bytes(data)
        (tmp_path / f"{lang}.po").write_bytes(data)
    edit(project, "content/at-a-glance.md", f"## {HEADING}\n", f"## {HEADING} of it\n")
    ok("i18n", "extract", "--root", str(project))
    out = ok("i18n", "update", "--root", str(project))
    pot = project / "locales" / "messages.pot"
    for lang in catalog:
        ours = po(project, lang).read_bytes()
        kept = next(m for m in read_po(io.BytesIO(ours)) if m.id.startswith(PLAYERS))
        assert kept.string == before[lang] and not kept.fuzzy, lang
        theirs = subprocess.run(["msgmerge", "--quiet", "--previous", "-o", "-",
                                 str(tmp_path / f"{lang}.po"), str(pot)],
                                capture_output=True, check=True).stdout
        assert ours == theirs, lang
    return out


def test_update_keeps_the_translation_of_an_entry_with_no_blank_line_before_it(
        project: Path, tmp_path: Path) -> None:
    """Two entries with no blank line between them (a catalog edited by hand, or saved
    by another tool): when update drops the first (its heading changed), the second
    keeps its translation. Update used to drop the whole blank-line-separated block,
    and with it the translation of the second entry."""
    data = po(project, "pl").read_bytes()
    heading = next(m for m in read_po(po(project, "pl").open("rb")) if m.id == HEADING)
    entry = f'msgid "{HEADING}"\nmsgstr "{heading.string}"\n\n#. list item\n'.encode()
    assert data.count(entry) == 1
    out = update_after_heading_change(
        project, tmp_path, {"pl": data.replace(entry, entry.replace(b"\n\n", b"\n"))})
    assert "pl/LC_MESSAGES/messages.po: updated, 1 fuzzy," in out, out  # the heading


def test_update_reads_a_catalog_with_no_blank_lines_at_all(project: Path,
                                                           tmp_path: Path) -> None:
    """A catalog with no blank line anywhere is merged as msgmerge --previous merges
    it (update used to fail on it, with a thousand errors about a file of its own)."""
    update_after_heading_change(project, tmp_path, {
        lang: re.sub(rb"\n\n+", b"\n", po(project, lang).read_bytes()) for lang in LANGS})


def test_extract_fails_on_a_template_it_cannot_parse(project: Path) -> None:
    template = project / "templates" / "page.html"
    lines = template.read_text(encoding="utf-8").split("\n")
    lines.insert(2, "{% if %}")
    template.write_text("\n".join(lines), encoding="utf-8")
    before = {p: p.read_bytes() for p in catalogs(project)}
    for action in ("extract", "update"):
        result = run_cli("i18n", action, "--root", str(project))
        assert result.code == 2, (action, result.out)
        assert result.err.startswith("templates/page.html:3: "), result.err
        assert "Traceback" not in result.err
    assert {p: p.read_bytes() for p in catalogs(project)} == before


def test_without_gnu_gettext_one_line_says_what_to_install(project: Path) -> None:
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}
    proc = subprocess.run([sys.executable, "-m", "site_builder", "i18n", "extract", "--root",
                           str(project)], capture_output=True, text=True, env=env)
    assert proc.returncode == 2
    assert proc.stderr.startswith("site-builder: msgcat not found. GNU gettext writes")
    assert len(proc.stderr.strip().splitlines()) == 1


# --- another tool's save ----------------------------------------------------------------------

def test_another_tools_save_builds_the_same_and_update_normalises(project: Path) -> None:
    """A catalog saved unwrapped with CRLF line ends (a Windows editor), another wrapped
    at 40 columns: the site builds byte for byte as before, and update writes GNU's
    format back."""
    ok("i18n", "update", "--root", str(project))
    gnu = {lang: po(project, lang).read_bytes() for lang in LANGS}
    ok("build", "--root", str(project), "--no-cache", "--out", str(project / "a"))
    po(project, "pl").write_bytes(msgcat(po(project, "pl"), "--no-wrap").replace(b"\n",
                                                                                 b"\r\n"))
    po(project, "vi").write_bytes(msgcat(po(project, "vi"), "--width=40"))
    assert po(project, "pl").read_bytes() != gnu["pl"]
    assert po(project, "vi").read_bytes() != gnu["vi"]
    ok("check", "--root", str(project))
    ok("build", "--root", str(project), "--no-cache", "--out", str(project / "b"))
    a = {p.relative_to(project / "a"): p.read_bytes() for p in (project / "a").rglob("*")
         if p.is_file()}
    b = {p.relative_to(project / "b"): p.read_bytes() for p in (project / "b").rglob("*")
         if p.is_file()}
    assert a == b and len(a) > 20
    ok("i18n", "update", "--root", str(project))
    assert {lang: po(project, lang).read_bytes() for lang in LANGS} == gnu


def test_an_obsolete_fuzzy_entry_is_read_by_every_command(project: Path) -> None:
    """GNU writes the previous msgid of an obsolete fuzzy entry as ``#~|`` lines: check,
    build and msgfmt read such a catalog, and the lines after keep their numbers."""
    rel = "content/first-meld.md"
    edit(project, rel, OLD, NEW)
    ok("i18n", "extract", "--root", str(project))
    ok("i18n", "update", "--root", str(project))
    text = (project / rel).read_text(encoding="utf-8")
    paragraph = next(p for p in text.split("\n\n") if p.startswith(NEW))
    edit(project, rel, paragraph + "\n\n", "")
    ok("i18n", "extract", "--root", str(project))
    ok("i18n", "update", "--root", str(project))
    for lang in LANGS:
        data = po(project, lang).read_bytes()
        assert b"\n#~| msgid " in data and msgcat(po(project, lang)) == data
        assert subprocess.run(["msgfmt", "--check", "-o", "/dev/null",
                               str(po(project, lang))]).returncode == 0
    result = run_cli("check", "--root", str(project))
    assert result.code == 0 and result.err == "", result.err
    ok("build", "--root", str(project))
    # an error after the #~| lines is reported at its own line
    path = po(project, "pl")
    lines = path.read_text(encoding="utf-8").split("\n")
    lines.append('msgid "unterminated')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("check", "--root", str(project))
    assert f"locales/pl/LC_MESSAGES/messages.po:{len(lines)}: syntax error" in result.err
