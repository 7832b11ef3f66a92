"""The build cache never serves stale output, and a cached build equals a build without cache.

Each test builds a scratch copy of the real project in this process (``build()``), changes
one input, builds again, and checks that the change shows up and that the output is byte
for byte what a build without cache gives.
"""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, copy_project

from site_builder import cache
from site_builder.build import build, load_site
from site_builder.errors import UserError


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def uncached(project: Path, tmp_path: Path, name: str = "nocache") -> dict[str, bytes]:
    out = tmp_path / name
    build(project, out, cache=False)
    return tree(out)


@pytest.fixture
def built(project: Path) -> Path:
    """The scratch project, built once with the cache."""
    result = build(project, project / "dist")
    assert result.rendered == result.languages
    return project


def rebuild(project: Path) -> list[str]:
    """Build again with the cache; the languages that were rendered again."""
    return build(project, project / "dist").rendered


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_unchanged_rebuild_does_nothing_and_equals_uncached(built: Path, tmp_path: Path) -> None:
    before = tree(built / "dist")
    assert rebuild(built) == []
    assert tree(built / "dist") == before == uncached(built, tmp_path)
    assert (built / cache.CACHE_DIR).is_dir()


def test_template_change_shows_up(built: Path, tmp_path: Path) -> None:
    replace(built / "templates" / "base.html", "</footer>", "<!-- template v2 --></footer>")
    assert rebuild(built) == ["en", "id", "ms", "pl", "vi"]
    page = (built / "dist" / "pl" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert "<!-- template v2 -->" in page
    assert tree(built / "dist") == uncached(built, tmp_path)


def test_catalog_change_redoes_only_that_language(built: Path, tmp_path: Path) -> None:
    po = built / "locales" / "pl" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8")
    start = text.index('msgid "Rules"\nmsgstr "')
    old = text[start:text.index("\n", text.index("msgstr", start))]
    po.write_text(text.replace(old, old[:-1] + ' (nowe)"', 1), encoding="utf-8")
    ms_before = (built / "dist" / "ms" / "first-meld" / "index.html").stat()
    assert rebuild(built) == ["pl"]
    page = (built / "dist" / "pl" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert " (nowe)</a>" in page
    assert (built / "dist" / "ms" / "first-meld" / "index.html").stat().st_ino == \
        ms_before.st_ino  # untouched
    assert tree(built / "dist") == uncached(built, tmp_path)


def test_catalog_change_does_not_verify_the_content_again(
        built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The content's verification is kept by the hash of what it depends on: a catalog
    or template edit reuses it, a content edit does not."""
    from site_builder import build as build_module

    scans: list[Path] = []
    real = build_module.scan_site

    def counting(root: Path, base_url: str | None = None) -> object:
        scans.append(root)
        return real(root, base_url)

    monkeypatch.setattr(build_module, "scan_site", counting)
    replace(built / "locales" / "vi" / "LC_MESSAGES" / "messages.po",
            'msgid "Rules"\nmsgstr "', 'msgid "Rules"\nmsgstr "Các ')
    assert rebuild(built) == ["vi"] and scans == []
    assert tree(built / "dist") == uncached(built, tmp_path)
    scans.clear()  # the uncached build scanned
    replace(built / "templates" / "page.html", "<h1", '<h1 class="title"')
    assert rebuild(built) == ["en", "id", "ms", "pl", "vi"] and scans == []
    assert tree(built / "dist") == uncached(built, tmp_path / "after-template")
    scans.clear()
    replace(built / "content" / "first-meld.md", "## The threshold", "## The threshold, again")
    assert rebuild(built) == ["en", "id", "ms", "pl", "vi"] and len(scans) == 1


def test_catalog_checks_are_kept_by_the_catalogs_bytes(
        built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalog read again to be rendered, but unchanged, is not checked again; a
    changed one is; a problem found once is reported on every build."""
    from site_builder import checks

    checked: list[str] = []
    real = checks.CatalogChecker.add

    def counting(self: checks.CatalogChecker, message: Any) -> None:
        checked.append(self.lang)
        real(self, message)

    monkeypatch.setattr(checks.CatalogChecker, "add", counting)
    replace(built / "templates" / "page.html", "<h1", '<h1 class="title"')
    assert rebuild(built) == ["en", "id", "ms", "pl", "vi"] and checked == []
    replace(built / "locales" / "vi" / "LC_MESSAGES" / "messages.po",
            'msgid "Rules"\nmsgstr "', 'msgid "Rules"\nmsgstr "Các ')
    assert rebuild(built) == ["vi"] and set(checked) == {"vi"}
    replace(built / "locales" / "pl" / "LC_MESSAGES" / "messages.po",
            'msgid "Rules"\nmsgstr "', 'msgid "Rules"\nmsgstr "{x} ')
    for _ in range(2):
        checked.clear()
        with pytest.raises(UserError) as caught:
            rebuild(built)
        assert "placeholders differ" in str(caught.value.problems)
    assert checked == []  # the second time, from the cache


def test_content_change_shows_up(built: Path, tmp_path: Path) -> None:
    replace(built / "content" / "first-meld.md", "## The threshold", "## The threshold, again")
    assert rebuild(built) == ["en", "id", "ms", "pl", "vi"]
    page = (built / "dist" / "en" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert "The threshold, again</a></h2>" in page
    assert tree(built / "dist") == uncached(built, tmp_path)


def test_rule_profile_change_shows_up(built: Path, tmp_path: Path) -> None:
    replace(built / "content" / "profiles.toml", 'name = "house rules"',
            'name = "kitchen-table rules"')
    assert rebuild(built) == ["en", "id", "ms", "pl", "vi"]
    page = (built / "dist" / "en" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert "kitchen-table rules" in page
    assert tree(built / "dist") == uncached(built, tmp_path)
    # a profile whose rules disagree with a stated claim fails, cache or not
    replace(built / "content" / "profiles.toml", "joker_value = 15", "joker_value = 14")
    with pytest.raises(UserError, match=r"content/first-meld\.md:\d+: .*stated total 61"):
        rebuild(built)


def test_engine_change_shows_up(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine's source is part of the key: a changed engine is never served from cache.
    monkeypatch.setattr(cache, "_code_version", None)
    monkeypatch.setattr(cache, "engine_version", lambda: "an edited engine")
    assert rebuild(built) == ["en", "id", "ms", "pl", "vi"]
    assert rebuild(built) == []
    # ... and the examples are replayed by that engine, not taken from a cache.
    from site_builder import engine
    from site_builder.engine import opening

    real = opening.evaluate_opening

    def off_by_one(*args: object, **kwargs: object) -> object:
        import dataclasses

        result = real(*args, **kwargs)  # type: ignore[arg-type]
        return dataclasses.replace(result, total=result.total + 1)

    monkeypatch.setattr(engine, "evaluate_opening", off_by_one)
    monkeypatch.setattr(cache, "_code_version", None)
    monkeypatch.setattr(cache, "engine_version", lambda: "an engine that adds one")
    with pytest.raises(UserError, match=r"content/first-meld\.md:\d+: .*the engine computes"):
        rebuild(built)


def test_engine_version_hashes_the_engine_source(tmp_path: Path) -> None:
    # A scratch copy of the package: editing one engine file changes the hash.
    copy = tmp_path / "pkg"
    import shutil

    shutil.copytree(ROOT / "site_builder", copy / "site_builder",
                    ignore=shutil.ignore_patterns("__pycache__"))
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from site_builder import cache; "
            "print(cache.engine_version(), cache.code_version())")

    def versions() -> list[str]:
        out = subprocess.run([sys.executable, "-c", code, str(copy)], capture_output=True,
                             text=True, check=True).stdout
        return out.split()

    before = versions()
    rules = copy / "site_builder" / "engine" / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    after = versions()
    assert before[0] != after[0] and before[1] != after[1]


def test_base_url_change_shows_up(built: Path) -> None:
    build(built, built / "dist", base_url="https://example.net/rules/")
    assert "https://example.net/rules/pl/" in (built / "dist" / "sitemap.xml").read_text()


def test_edited_output_is_rebuilt(built: Path, tmp_path: Path) -> None:
    page = built / "dist" / "vi" / "first-meld" / "index.html"
    page.write_text("edited by hand", encoding="utf-8")
    assert rebuild(built) == ["en", "id", "ms", "pl", "vi"]
    assert tree(built / "dist") == uncached(built, tmp_path)


def test_failed_build_leaves_output_untouched(built: Path) -> None:
    before = tree(built / "dist")
    replace(built / "content" / "first-meld.md", "total: 61", "total: 62")
    with pytest.raises(UserError):
        rebuild(built)
    assert tree(built / "dist") == before
    assert not [p for p in built.iterdir() if p.name.startswith(".dist.")]


def test_a_small_site_compiles_its_templates_aside_only_when_needed(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A site too small to render in parallel still has a worker compile its templates
    on a first build, unless they are compiled already or the process has threads."""
    import threading

    from site_builder.build import _compile_aside

    monkeypatch.setattr(threading, "active_count", lambda: 1)  # whatever other tests left
    assert _compile_aside(project)  # nothing compiled yet
    build(project, tmp_path / "first")
    assert not _compile_aside(project)  # the first build compiled them
    replace(project / "templates" / "page.html", "<h1", "<h1 class=\"title\"")
    assert _compile_aside(project)  # an edited template is compiled again
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert not _compile_aside(project)  # never fork a process that has threads
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    build(project, tmp_path / "second")
    page = (tmp_path / "second" / "pl" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert '<h1 class="title"' in page


def test_parallel_build_equals_serial_build(tmp_path: Path) -> None:
    from site_builder.build import PARALLEL_MIN_PAGES

    pages = 2 * PARALLEL_MIN_PAGES  # enough for two processes
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "make_corpus.py"), "--pages",
                    str(pages), "--out", str(tmp_path / "corpus")], check=True,
                   capture_output=True)
    corpus = tmp_path / "corpus"
    build(corpus, tmp_path / "parallel", jobs=2)
    build(corpus, tmp_path / "serial", jobs=1, cache=False)
    assert tree(tmp_path / "parallel") == tree(tmp_path / "serial")
    nav = (tmp_path / "serial" / "pl" / "page-00050" / "index.html").read_text(encoding="utf-8")
    assert nav.count('href="../page-') < 20  # a large site lists only nearby pages
    # Worker processes check the catalogs before the templates (which name the card
    # terms) are read; a card left untranslated is still reported, at its line.
    po = corpus / "locales" / "pl" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8")
    blanked, count = re.subn(r'(msgctxt "rank"\nmsgid "ace"\nmsgstr )"[^"]*"', r'\1""', text)
    assert count == 1
    po.write_text(blanked, encoding="utf-8")
    line = blanked[:blanked.index('msgctxt "rank"\nmsgid "ace"')].count("\n") + 2
    with pytest.raises(UserError) as caught:
        build(corpus, tmp_path / "parallel", jobs=2)
    assert [str(p) for p in caught.value.problems] == [
        f"locales/pl/LC_MESSAGES/messages.po:{line}: card term 'ace' (context 'rank') is not "
        "translated; card names must be complete"]


def test_catalogs_too_large_to_hold_at_once_give_the_same_site(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the catalog budget, the catalogs are checked first, then read again a group
    of languages at a time to be rendered: the site is the same."""
    from site_builder import build as build_module

    whole = tmp_path / "whole"
    build(project, whole, cache=False)
    assert len(build_module.language_groups(project, ["en", "id", "ms", "pl", "vi"])) == 1
    monkeypatch.setattr(build_module, "CATALOG_BUDGET", 1)
    assert build_module.language_groups(project, ["en", "id", "ms", "pl", "vi"]) == \
        [["en", "id"], ["ms"], ["pl"], ["vi"]]
    grouped = tmp_path / "grouped"
    build(project, grouped, cache=False)
    assert tree(grouped) == tree(whole)
    # a catalog with a problem is reported before anything is rendered
    replace(project / "locales" / "pl" / "LC_MESSAGES" / "messages.po",
            'msgid "Rules"\nmsgstr "', 'msgid "Rules"\nmsgstr "{x} ')
    with pytest.raises(UserError) as caught:
        build(project, grouped, cache=False)
    assert "placeholders differ" in str(caught.value.problems)
    assert tree(grouped) == tree(whole)


def test_each_group_of_catalogs_is_let_go_once_rendered(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the catalog budget, nothing still holds a group's catalogs (its languages'
    translators and environments) once the group is rendered."""
    from site_builder import build as build_module

    monkeypatch.setattr(build_module, "CATALOG_BUDGET", 1)
    held: list[list[str]] = []
    real = build_module._render_languages
    depth = [0]

    def spy(shared: Any, catalogs: dict[str, Any], tmp: Path, jobs: int) -> Any:
        depth[0] += 1  # a group's languages may be rendered in two processes, each a call
        try:
            done = real(shared, catalogs, tmp, jobs)
        finally:
            depth[0] -= 1
        if not depth[0]:
            held.append(sorted(lang for lang in catalogs if lang in shared.tools))
        return done

    monkeypatch.setattr(build_module, "_render_languages", spy)
    build(project, tmp_path / "out", cache=False)
    assert held == [[], [], [], []]  # en+id, ms, pl, vi


def test_pages_kept_whole_or_read_again_give_the_same_site(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Within its budget a build keeps the pages it verified whole; beyond it, it reads
    them again to render them. The site is the same; a kept page is rendered as it was
    verified."""
    from site_builder import build as build_module

    site, _ = build_module.scan_site(project)
    assert sorted(site.parsed) == sorted(p.source for p in site.pages)  # a small site: all
    assert [p.blocks for p in site.bodies()] == [site.parsed[p.source].blocks for p in site.pages]
    kept = tmp_path / "kept"
    build(project, kept, cache=False)
    monkeypatch.setattr(build_module, "KEEP_PARSED", 0)
    assert not build_module.scan_site(project)[0].parsed
    read_again = tmp_path / "read-again"
    build(project, read_again, cache=False)
    assert tree(read_again) == tree(kept)


def test_a_catalog_changed_after_its_check_is_not_rendered(project: Path) -> None:
    from site_builder.build import ReadCatalog, _read_again

    checked = {"pl": ReadCatalog(None, [], [], "0" * 32)}  # what the check read
    with pytest.raises(UserError) as caught:
        _read_again(project, ["en", "pl"], checked, 1)
    problem = caught.value.problems[0]
    assert problem.path == "locales/pl/LC_MESSAGES/messages.po"
    assert "changed while the site was being built" in problem.message


def test_a_catalog_only_babel_reads_builds_the_same_site(project: Path, tmp_path: Path) -> None:
    """An obsolete (``#~``) entry sends a catalog to Babel's reader instead of the fast
    one; the site is the same."""
    before = tmp_path / "before"
    build(project, before, cache=False)
    po = project / "locales" / "ms" / "LC_MESSAGES" / "messages.po"
    po.write_text(po.read_text(encoding="utf-8") + '\n#~ msgid "Gone"\n#~ msgstr "Hilang"\n',
                  encoding="utf-8")
    after = tmp_path / "after"
    build(project, after, cache=False)
    assert tree(after) == tree(before)


# --- the fast paths give the same result as the libraries they stand in for ----------------


def test_fast_inline_markdown_equals_markdown() -> None:
    from site_builder.render import MarkdownRenderer, is_plain, simple_inline

    md = MarkdownRenderer()
    pieces = ["a", "Bc", " ", "  ", "*", "**", "`", "[", "]", "(", ")", "x y", ".", ",", "_",
              "-", "--", "1", "1. ", "&", "<", "'", '"', "/", "../p-1/", "ą", "đ", "!", "{n}",
              "\\", "#", ":", "%", "*a*", "`c`", "[l](t)", "**s**", "*a b*", "[x y](../q/)"]
    rnd = random.Random(0)
    checked = 0
    for _ in range(30000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 12)))
        fast = text if is_plain(text) else simple_inline(text)
        if fast is None:
            continue
        checked += 1
        html = md._md.reset().convert(text)
        if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
            html = html[3:-4]
        assert fast == html, text
    assert checked > 1000


@pytest.mark.parametrize("piece_size", [None, 64])
def test_fast_po_reader_equals_babel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     piece_size: int | None) -> None:
    """The same messages as Babel, whether a catalog is read whole or in small pieces."""
    from babel.messages.pofile import read_po

    from site_builder import po
    from site_builder.i18n import num_plurals
    from site_builder.po import parse_po

    if piece_size is not None:
        monkeypatch.setattr(po, "PIECE_SIZE", piece_size)

    tricky = ('msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : 1);\\n"\n\n'
              '#. a comment\n#: content/a.md:1 content/b.md:2\n#, fuzzy, python-brace-format\n'
              'msgid ""\n"Two \\"lines\\"\\n"\n"and a tab\\t"\nmsgstr "Dwie\\\\linie"\n\n'
              'msgctxt "rank"\nmsgid "ace"\nmsgstr "as"\n\n'
              'msgid "{n} point"\nmsgid_plural "{n} points"\nmsgstr[0] "{n} punkt"\n'
              'msgstr[2] "{n} punktów"\n\nmsgid "empty"\nmsgstr ""\n')
    samples = [tricky.encode()] + [p.read_bytes() for p in
                                   sorted((ROOT / "locales").glob("*/LC_MESSAGES/*.po"))]
    for data in samples:
        ref = read_po(io.BytesIO(data), locale="pl", abort_invalid=True)
        fast = parse_po(data, num_plurals("pl"))
        assert fast is not None
        assert [(m.id, m.string, m.context, m.fuzzy, m.lineno) for m in ref if m.id] == \
               [(m.id, m.string, m.context, m.fuzzy, m.lineno) for m in fast]
    # what it does not read, it leaves to Babel
    assert parse_po(b'msgid "a"\nmsgstr "b"\n\n#~ msgid "old"\n#~ msgstr "alt"\n', 2) is None
    assert parse_po(b'msgid "a\nmsgstr "b"\n', 2) is None
    assert parse_po(b'msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n', 2) is None


def test_streamed_coverage_equals_babel_coverage() -> None:
    """The build counts coverage page by page as it renders; Babel counts it from the
    whole source catalog. Both give the same counts, overall and per page."""
    from site_builder.build import load_catalog, scan_site
    from site_builder.i18n import coverage
    from site_builder.site import prepare, render_language
    from site_builder.source import source_catalog

    site, problems = load_site(ROOT)
    assert not problems
    source = source_catalog(site)
    scanned, checked = scan_site(ROOT)
    assert not checked.problems
    shared = prepare(scanned, checked.verification)
    for lang in scanned.languages[1:]:
        loaded, errs = load_catalog(ROOT, lang)
        assert loaded is not None and not errs
        result = render_language(shared, lang, loaded.catalog, lambda rel, data: None)
        assert (result.overall, result.pages) == coverage(source, site.catalogs[lang].catalog)
        assert result.overall is not None and result.overall.total > 200, lang


def test_copy_project_has_no_cache(tmp_path: Path) -> None:
    assert not (copy_project(tmp_path / "p") / cache.CACHE_DIR).exists()


def test_a_new_template_message_shows_up_in_the_coverage(built: Path, tmp_path: Path) -> None:
    """The templates' messages are kept with their compiled code: a message added to a
    template is counted (untranslated) in every language, as without the cache."""
    status = built / "dist" / "pl" / "translation-status" / "index.html"
    before = status.read_text(encoding="utf-8")
    replace(built / "templates" / "base.html", "</footer>",
            '{{ _("A notice no catalog has yet") }}</footer>')
    assert rebuild(built) == ["en", "id", "ms", "pl", "vi"]
    after = status.read_text(encoding="utf-8")
    assert after != before and "A notice no catalog has yet" in after
    assert re.search(r"<td[^>]*>\s*1\s*</td>", after)  # one untranslated, per language
    assert tree(built / "dist") == uncached(built, tmp_path)


def test_a_small_site_built_in_two_processes_equals_one_built_in_one(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a first build a worker process compiles the templates, and a small site's
    languages are rendered half in a worker: the site is the one a single process
    builds, and the worker leaves the templates' message keys in the cache."""
    from site_builder import build as build_module

    calls: list[str] = []

    def spy(name: str) -> Any:
        real = getattr(build_module, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(build_module, "TemplateWorker", spy("TemplateWorker"))
    monkeypatch.setattr(build_module, "_render_split", spy("_render_split"))
    monkeypatch.setattr(build_module, "_can_fork", lambda: True)
    build(project, tmp_path / "two")
    assert calls == ["TemplateWorker", "_render_split"]
    keys = project / cache.CACHE_DIR / "template-keys"
    assert len(list(keys.iterdir())) == len(list((project / "templates").glob("*.html")))
    monkeypatch.setattr(build_module, "_can_fork", lambda: False)
    build(project, tmp_path / "one", cache=False)
    assert calls == ["TemplateWorker", "_render_split"]
    assert tree(tmp_path / "two") == tree(tmp_path / "one")


def test_a_render_worker_that_fails_fails_the_build(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker rendering half the languages that fails for a reason of its own (not a
    problem in the input) fails the build, naming its languages; nothing is written."""
    from site_builder import build as build_module

    real = build_module._render_languages

    def failing(shared: Any, catalogs: dict[str, Any], tmp: Path, jobs: int) -> Any:
        if "pl" in catalogs and jobs == 0:
            raise ValueError("a disk that is full, say")
        return real(shared, catalogs, tmp, jobs)

    monkeypatch.setattr(build_module, "_render_languages", failing)
    monkeypatch.setattr(build_module, "_can_fork", lambda: True)
    with pytest.raises(RuntimeError, match=r"rendering id, pl failed: ValueError: a disk"):
        build(project, tmp_path / "out", cache=False)
    assert not (tmp_path / "out").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.new-")]
