"""No reader-visible string escapes the catalogs: every message the build looks
up in a language's catalog is in ``locales/messages.pot``, and a lookup of one that is not
is reported at its line and counted as untranslated."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from conftest import ROOT, copy_project, run_cli

from site_builder.i18n import translator as translator_module
from site_builder.i18n.translator import Translations, Translator, template_keys
from site_builder.project import CACHE_DIR

LANGS = ("id", "ms", "pl", "vi")
SITE_FILES = "site_builder/render/site_files.py"
GO_BACK = "Go to the rules index"
DYNAMIC = "Words a template names by a variable"


def pot_keys(root: Path) -> dict[tuple[str, str | None], Any]:
    """The msgids of *root*'s ``locales/messages.pot`` (:func:`pot_keys_of`)."""
    return pot_keys_of(root / "locales" / "messages.pot")


def pot_keys_of(path: Path) -> dict[tuple[str, str | None], Any]:
    """The msgids of the template *path* by (singular, context), each as its msgid (a
    plural's a tuple)."""
    with path.open("rb") as fh:
        pot = read_po(fh)
    return {(m.id if isinstance(m.id, str) else m.id[0], m.context):
            m.id if isinstance(m.id, str) else tuple(m.id) for m in pot if m.id}


def build_lookups(root: Path, out: Path, monkeypatch: pytest.MonkeyPatch
                  ) -> set[tuple[Any, str | None]]:
    """Build *root* in this process (every language, every page and site-wide file) and
    record every message looked up in a language's catalog: each ``get`` of the
    :class:`Translations` the renderer reads, with the msgid as the caller passed it (a
    plural lookup passes singular and plural)."""
    from site_builder import build as build_module

    seen: set[tuple[Any, str | None]] = set()
    get = Translations.get

    def recording(self: Translations, id: Any, context: str | None = None) -> Any:
        seen.add((tuple(id) if isinstance(id, list | tuple) else id, context))
        return get(self, id, context)

    monkeypatch.setattr(Translations, "get", recording)
    build_module.build(root, out, cache=False, search_index=False)
    monkeypatch.undo()
    return seen


def outside_template(root: Path, lookups: set[tuple[Any, str | None]]) -> list[Any]:
    """The lookups that ``locales/messages.pot`` lacks: no entry of that msgid and
    context, or a singular entry for a plural lookup (or the reverse), or another plural."""
    pot = pot_keys(root)
    missing = []
    for msgid, context in lookups:
        singular = msgid if isinstance(msgid, str) else msgid[0]
        if pot.get((singular, context)) != msgid:
            missing.append((msgid, context))
    return sorted(missing, key=repr)


def test_every_message_the_build_looks_up_is_in_the_template(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real site, built in full: every lookup (pages, profiles, templates, the code's
    own strings; plurals and contexts) is a msgid of the committed template."""
    lookups = build_lookups(ROOT, tmp_path / "dist", monkeypatch)
    assert (GO_BACK, None) in lookups  # the code's string (site_files.py)
    assert any(not isinstance(m, str) for m, _ in lookups)  # plurals were looked up
    assert any(c is not None for _, c in lookups)  # and messages with a context
    assert len(lookups) > 500
    assert outside_template(ROOT, lookups) == []
    root_404 = (tmp_path / "dist" / "404.html").read_text(encoding="utf-8")
    assert root_404.count(f">{GO_BACK} (") == 1  # on the English line only


def test_the_lookup_test_fails_on_a_string_outside_the_template(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bad input: a template that looks up a message the template catalog lacks (named by
    a variable, so no extractor finds it), and one added as a literal but not extracted
    (the committed template is stale): the recording build finds both."""
    project = copy_project(tmp_path / "project")
    page = project / "templates" / "404.html"
    page.write_text(page.read_text(encoding="utf-8").replace(
        "{% block way_back %}",
        f'{{% set note = "{DYNAMIC}" %}}<p>{{{{ _(note) }}}}</p>\n'
        '<p>{{ _("A literal never extracted") }}</p>\n{% block way_back %}', 1),
        encoding="utf-8")
    lookups = build_lookups(project, tmp_path / "dist", monkeypatch)
    assert outside_template(project, lookups) == [("A literal never extracted", None),
                                                  (DYNAMIC, None)]


def test_the_committed_template_is_what_extraction_gives(tmp_path: Path) -> None:
    """``locales/messages.pot`` is current: ``i18n extract`` leaves it as committed (so the
    lookups above are checked against what the code, templates and content hold), and
    plain ``pybabel extract -F babel.cfg`` finds the same messages, the code's included."""
    project = copy_project(tmp_path / "project")
    result = run_cli("i18n", "extract", "--root", str(project))
    assert result.code == 0, result.err
    pot = "locales/messages.pot"
    assert (project / pot).read_bytes() == (ROOT / pot).read_bytes()
    out = tmp_path / "pybabel.pot"
    subprocess.run([str(Path(sys.executable).parent / "pybabel"), "-q", "extract", "-F",
                    "babel.cfg", "-o", str(out), "."], cwd=ROOT, check=True)
    assert pot_keys(ROOT) == pot_keys_of(out)
    with out.open("rb") as fh:
        theirs = read_po(fh)
    assert (SITE_FILES, gettext_line(GO_BACK)) in theirs.get(GO_BACK).locations


def test_every_entry_tells_translators_where_it_shows() -> None:
    """Every message of the committed template (current: the test above) carries a
    translator's comment: a ``Translators:`` comment in the template or code above its
    gettext call, or the content extractor's (the page and block it comes from)."""
    with (ROOT / "locales" / "messages.pot").open("rb") as fh:
        template = read_po(fh)
    bare = [f"{m.locations[0][0]}:{m.locations[0][1]}: {m.id!r}" for m in template
            if m.id and not m.auto_comments]
    assert bare == [], "\n".join(bare)


def gettext_line(msgid: str) -> int:
    """The line of ``site_files.py`` that passes *msgid* to gettext."""
    lines = (ROOT / SITE_FILES).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if f'gettext("{msgid}")' in line)


def test_the_root_404_link_is_translated_in_every_catalog() -> None:
    """The root 404's link text, looked up by the code, is a live (not obsolete),
    translated entry of every catalog, referenced at the code's line."""
    for lang in LANGS:
        with (ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        entry = catalog.get(GO_BACK)
        assert entry is not None and entry.string and not entry.fuzzy, lang
        assert (SITE_FILES, gettext_line(GO_BACK)) in entry.locations, lang
        assert GO_BACK not in catalog.obsolete, lang


# --- reported at build time --------------------------------------------------------------

def dynamic_project(tmp_path: Path) -> tuple[Path, int]:
    """A copy of the project whose 404 template looks up a message no extractor can find;
    the project and that line."""
    project = copy_project(tmp_path / "project")
    page = project / "templates" / "404.html"
    lines = page.read_text(encoding="utf-8").split("\n")
    at = next(n for n, line in enumerate(lines) if "{% block way_back %}" in line)
    lines.insert(at, f'{{% set note = "{DYNAMIC}" %}}<p>{{{{ _(note) }}}}</p>')
    page.write_text("\n".join(lines), encoding="utf-8")
    return project, at + 1


def reported(path: str, line: int, msgid: str) -> str:
    return (f'{path}:{line}: message "{msgid}" is not in locales/messages.pot; run '
            "site-builder i18n extract")


def test_a_lookup_outside_the_template_is_an_error_in_check(tmp_path: Path) -> None:
    """Bad input: ``check`` (with or without --strict) reports the template's line, once
    for the four languages, and exits 2."""
    project, line = dynamic_project(tmp_path)
    for strict in ((), ("--strict",)):
        result = run_cli("check", "--root", str(project), *strict)
        assert result.code == 2, result.err
        about = [e for e in result.err.splitlines() if DYNAMIC in e]
        assert len(about) == 1, result.err
        assert about[0].startswith(reported("templates/404.html", line, DYNAMIC)), about
        assert "Traceback" not in result.err


def test_a_lookup_outside_the_template_warns_in_build_and_fails_strict(
        tmp_path: Path) -> None:
    """``build`` warns at the line and builds; every language's status page and ``i18n
    stats`` count the message as untranslated (it is shown in English), so neither says
    100%. ``build --strict`` refuses, writing nothing."""
    project, line = dynamic_project(tmp_path)
    out = tmp_path / "dist"
    result = run_cli("build", "--root", str(project), "--out", str(out), "--no-cache")
    assert result.code == 0, result.err
    assert reported("templates/404.html", line, DYNAMIC) in result.err
    status = (out / "en" / "translation-status" / "index.html").read_text(encoding="utf-8")
    assert status.count('<td data-label="Untranslated">1</td>') == len(LANGS)
    assert "<strong>100%</strong>" not in status
    # and the page by page list names where it is left: the texts shared by every page
    assert status.count("<li>Menus, buttons and tables: 1 entry untranslated</li>") == len(LANGS)
    assert DYNAMIC in (out / "pl" / "404.html").read_text(encoding="utf-8")

    stats = run_cli("i18n", "stats", "--root", str(project), "--format", "json")
    assert stats.code == 0, stats.err
    data = json.loads(stats.out)
    for lang in LANGS:
        assert data[lang]["untranslated"] == 1 and data[lang]["percent"] < 100, lang
        assert data[lang]["pages"]["templates"]["untranslated"] == 1, lang
    assert run_cli("i18n", "stats", "--root", str(project), "--fail-under", "100").code == 1

    strict = run_cli("build", "--root", str(project), "--out", str(tmp_path / "strict"),
                     "--strict")
    assert strict.code == 2 and reported("templates/404.html", line, DYNAMIC) in strict.err
    assert not (tmp_path / "strict").exists()


def test_a_code_string_the_extractor_misses_is_reported_at_the_code_line(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A defect once shipped, reproduced: without the code's strings in the template (as when
    ``babel.cfg`` did not extract Python), the root 404's link is reported at the line of
    ``site_files.py`` that looks it up, and no language reads 100%."""
    from site_builder.i18n import messages

    monkeypatch.setattr(messages, "code_messages", lambda: ())
    # what the code looks up is kept by the code's hash: this stands for other code
    (project / CACHE_DIR / "code-messages.json").unlink()
    result = run_cli("check", "--root", str(project))
    assert result.code == 2
    assert reported(SITE_FILES, gettext_line(GO_BACK), GO_BACK) in result.err, result.err
    stats = run_cli("i18n", "stats", "--root", str(project), "--format", "json")
    assert stats.code == 0, stats.err
    data = json.loads(stats.out)
    for lang in LANGS:  # what is missing is the code's strings looked up, and only those
        code = data[lang]["pages"]["code"]
        assert data[lang]["percent"] < 100, lang
        assert code["translated"] == 0 and code["untranslated"] > 0, lang
        assert data[lang]["untranslated"] == code["untranslated"], lang


def test_the_translator_reports_plural_and_context_forms_the_template_lacks() -> None:
    """A lookup counts as in the template only with the template's context and form: a
    plural lookup of a singular entry, or the same text in another context, is not; the
    location of a lookup from Python is its caller's file and line."""
    source = Catalog(locale="pl")
    source.add("Deck")
    source.add(("{n} card", "{n} cards"))
    source.add("Queen", context="rank")
    translator = Translator("pl", None, template_keys(source))
    translator.gettext("Deck")
    translator.ngettext("{n} card", "{n} cards", 2)
    translator.gettext("Queen", "rank")
    assert translator.unknown == {}
    here = inspect.currentframe()
    assert here is not None
    translator.ngettext("Deck", "Decks", 2); line = here.f_lineno  # noqa: E702
    translator.gettext("Queen")
    translator.gettext("{n} card")
    translator.ngettext("{n} card", "{n} cardz", 2)
    unknown = list(translator.unknown.values())
    assert [(u.msgid, u.context) for u in unknown] == [
        (("Deck", "Decks"), None), ("Queen", None), ("{n} card", None)]
    assert (unknown[0].path, unknown[0].line) == ("tests/test_lookups.py", line)
    assert str(unknown[0].problem()).startswith(
        f'tests/test_lookups.py:{line}: plural message "Deck" is not in locales/messages.pot')
    # the differing plural ("{n} cardz") shares the singular's key: reported once
    assert ("{n} card", None) in translator.unknown


def test_the_lookup_recorder_sees_what_rendering_reads(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """The recorder above wraps the class the renderer reads (not a copy): a
    :class:`Translator` over :class:`Translations` reaches its ``get``."""
    seen = []
    get = Translations.get
    monkeypatch.setattr(Translations, "get",
                        lambda self, id, context=None: seen.append(id) or get(self, id, context))
    source = Catalog(locale="pl")
    source.add("Deck", "Talia")
    assert translator_module.Translator("pl", Translations(source)).gettext("Deck") == "Talia"
    assert seen == ["Deck"]
