"""The build cache never serves stale output, and a cached build equals a build without cache.

Each test builds a scratch copy of the real project in this process (``build()``), changes
one input, builds again, and checks that the change shows up and that the output is byte
for byte what a build without cache gives. The copy is in two languages
(:func:`conftest.keep_two_languages`), except in the test of which languages ``serve``
renders again.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, TWO_LANGUAGES, keep_two_languages, scratch_project

from site_builder import cache
from site_builder.build import build
from site_builder.errors import UserError
from site_builder.project import CACHE_DIR
from site_builder.session import Session


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def uncached(project: Path, tmp_path: Path, name: str = "nocache") -> dict[str, bytes]:
    out = tmp_path / name
    build(project, out, cache=False)
    return tree(out)


@pytest.fixture
def project(project: Path) -> Path:
    """The scratch project, in two languages."""
    return keep_two_languages(project)


@pytest.fixture
def built(project: Path) -> Path:
    """The scratch project, built once with the cache."""
    result = build(project, project / "dist")
    assert result.rendered == result.languages
    return project


def rebuild(project: Path, session: Session | None = None) -> list[str]:
    """Build again with the cache (and *session*); the languages that were rendered again."""
    return build(project, project / "dist", session=session).rendered


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_unchanged_rebuild_does_nothing_and_equals_uncached(built: Path, tmp_path: Path) -> None:
    before = tree(built / "dist")
    assert rebuild(built) == []
    assert tree(built / "dist") == before == uncached(built, tmp_path)
    assert (built / CACHE_DIR).is_dir()


def test_template_change_shows_up(built: Path, tmp_path: Path) -> None:
    replace(built / "templates" / "base.html", "</footer>", "<!-- template v2 --></footer>")
    assert rebuild(built) == TWO_LANGUAGES
    page = (built / "dist" / "pl" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert "<!-- template v2 -->" in page
    assert tree(built / "dist") == uncached(built, tmp_path)





def test_content_change_shows_up(built: Path, tmp_path: Path) -> None:
    replace(built / "content" / "first-meld.md", "## The threshold", "## The threshold, again")
    assert rebuild(built) == TWO_LANGUAGES
    page = (built / "dist" / "en" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert "The threshold, again</a></h2>" in page
    assert tree(built / "dist") == uncached(built, tmp_path)


def test_rule_profile_change_shows_up(built: Path, tmp_path: Path) -> None:
    replace(built / "content" / "profiles.toml", 'name = "house rules"',
            'name = "kitchen-table rules"')
    assert rebuild(built) == TWO_LANGUAGES
    page = (built / "dist" / "en" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert "kitchen-table rules" in page
    assert tree(built / "dist") == uncached(built, tmp_path)
    # a profile whose rules disagree with a stated claim fails, cache or not
    replace(built / "content" / "profiles.toml", "joker_value = 15", "joker_value = 14")
    with pytest.raises(UserError, match=r"content/first-meld\.md:\d+: .*stated total 61"):
        rebuild(built)


def test_engine_change_shows_up(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The code (the engine's source among it) is part of the key: a changed engine is never
    # served from cache. A session stands for a process running an edited engine.
    edited = Session(code="an edited engine")
    assert rebuild(built, edited) == TWO_LANGUAGES
    assert rebuild(built, edited) == []
    # ... and the examples are replayed by that engine, not taken from a cache.
    from site_builder import engine
    from site_builder.engine import opening

    real = opening.evaluate_opening

    def off_by_one(*args: object, **kwargs: object) -> object:
        import dataclasses

        result = real(*args, **kwargs)  # type: ignore[arg-type]
        return dataclasses.replace(result, total=result.total + 1)

    monkeypatch.setattr(engine, "evaluate_opening", off_by_one)
    with pytest.raises(UserError, match=r"content/first-meld\.md:\d+: .*the engine computes"):
        rebuild(built, Session(code="an engine that adds one"))


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
    page = built / "dist" / "pl" / "first-meld" / "index.html"
    page.write_text("edited by hand", encoding="utf-8")
    assert rebuild(built) == TWO_LANGUAGES  # an edited output: built again
    assert tree(built / "dist") == uncached(built, tmp_path)


def test_failed_build_leaves_output_untouched(built: Path) -> None:
    before = tree(built / "dist")
    replace(built / "content" / "first-meld.md", "total: 61", "total: 62")
    with pytest.raises(UserError):
        rebuild(built)
    assert tree(built / "dist") == before
    assert not [p for p in built.iterdir() if p.name.startswith(".dist.")]





# --- the fast paths give the same result as the libraries they stand in for ----------------


def test_fast_inline_markdown_equals_markdown(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the fast path renders equals what the renderer renders through Python-Markdown
    alone: the same renderer, its fast path switched off by its public names (no private
    attribute reached)."""
    from site_builder.render import markdown as module

    pieces = ["a", "Bc", " ", "  ", "*", "**", "`", "[", "]", "(", ")", "x y", ".", ",", "_",
              "-", "--", "1", "1. ", "&", "<", "'", '"', "/", "../p-1/", "ą", "đ", "!", "{n}",
              "\\", "#", ":", "%", "*a*", "`c`", "[l](t)", "**s**", "*a b*", "[x y](../q/)"]
    rnd = random.Random(0)
    fast: dict[str, str] = {}
    for _ in range(30000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 12)))
        if module.is_plain(text) or module.simple_inline(text) is not None:
            fast[text] = str(module.MarkdownRenderer().inline(text))
    monkeypatch.setattr(module, "is_plain", lambda text: False)
    monkeypatch.setattr(module, "simple_inline", lambda text: None)
    reference = module.MarkdownRenderer()
    checked = 0
    for text, html in fast.items():
        assert html == str(reference.inline(text)), text
        checked += 1
    assert checked > 1000





def test_a_new_template_message_shows_up_in_the_coverage(built: Path, tmp_path: Path) -> None:
    """The templates' messages are kept with their compiled code: a message added to a
    template is counted (untranslated) in every language, as without the cache."""
    status = built / "dist" / "pl" / "translation-status" / "index.html"
    before = status.read_text(encoding="utf-8")
    replace(built / "templates" / "base.html", "</footer>",
            '{{ _("A notice no catalog has yet") }}</footer>')
    assert rebuild(built) == TWO_LANGUAGES
    after = status.read_text(encoding="utf-8")
    assert after != before and "A notice no catalog has yet" in after
    # one more untranslated message in every language (the column before the percentage)
    untranslated = re.compile(r"<td[^>]*>\s*(\d+)\s*</td>\s*<td[^>]*><strong")
    counts = [int(n) for n in untranslated.findall(before)]
    assert len(counts) == len(TWO_LANGUAGES) - 1  # a row for each translation
    assert [int(n) for n in untranslated.findall(after)] == [n + 1 for n in counts]
    assert tree(built / "dist") == uncached(built, tmp_path)


def test_serve_renders_again_only_the_language_whose_catalog_changed(
        tmp_path: Path, kept_checks: list[Path]) -> None:
    """``serve`` keeps each language's rendering in memory: after a translator saves one
    catalog, only that language is rendered again, and the site is byte for byte what a
    build from scratch gives (the whole project: the other translations are not rendered
    again either)."""
    project = scratch_project(tmp_path / "project", kept_checks)
    session = Session()
    assert rebuild(project, session) == ["en", "id", "ms", "pl", "vi"]
    po = project / "locales" / "pl" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8")
    first = re.search(r'^msgstr "(.+)"$', text, re.M)
    assert first is not None
    po.write_text(text.replace(first.group(0), f'msgstr "{first.group(1)} (!)"', 1),
                  encoding="utf-8")
    assert rebuild(project, session) == ["pl"]
    assert tree(project / "dist") == uncached(project, tmp_path)
    replace(project / "content" / "first-meld.md", "## ", "## A ")  # content: every language
    assert rebuild(project, session) == ["en", "id", "ms", "pl", "vi"]


def test_a_session_prints_a_new_commits_date(project: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The printed date is the checked-out commit's, asked once a build and never kept: a
    process that builds again (``serve``, with its session) prints a new commit's date,
    and renders every language again for it."""
    import os

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)

    def commit(date: str, *args: str) -> None:
        who = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
               "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
        subprocess.run(["git", "-C", str(project), "-c", "commit.gpgsign=false", "commit",
                        "-q", "-m", date, *args], check=True, env={**os.environ, **who})

    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(["git", "-C", str(project), "add", "-A"], check=True)
    commit("2026-01-01T12:00:00Z")
    session = Session()
    page = project / "dist" / "en" / "first-meld" / "index.html"
    assert rebuild(project, session) == TWO_LANGUAGES
    assert "January 1, 2026" in page.read_text(encoding="utf-8")
    assert rebuild(project, session) == []
    commit("2026-06-01T12:00:00Z", "--allow-empty")
    assert rebuild(project, session) == TWO_LANGUAGES
    text = page.read_text(encoding="utf-8")
    assert "June 1, 2026" in text and "January 1, 2026" not in text


def test_a_catalogs_check_is_kept_for_its_bytes_and_code_only(project: Path) -> None:
    """What checking a catalog gave is kept in ``.cache/`` for the next process: used for
    the same bytes checked by the same code, made again for other bytes, other code, or
    a stored value of the wrong shape (whose hash checks out)."""
    from site_builder.build import load_and_verify

    def problems(session: Session | None = None) -> list[str]:
        return [str(p) for p in load_and_verify(project, session=session).problems]

    assert problems() == []
    po = project / "locales" / "pl" / "LC_MESSAGES" / "messages.po"
    stored = project / CACHE_DIR / f"catalog-{cache.digest('pl')}.json"
    kept = cache.read_hashed(stored)
    rows = kept["value"]["rows"]
    fake = {"rows": None, "problems": [["locales/pl/LC_MESSAGES/messages.po", 7, "stored"]]}

    def store(value: object) -> None:
        cache.write_hashed(stored, {"key": kept["key"], "value": value})

    store(fake)  # used: what is stored for these bytes is reported, the catalog not read
    assert problems() == ["locales/pl/LC_MESSAGES/messages.po:7: stored"]
    assert problems(Session(code="other code")) == []  # not by other code
    assert cache.read_hashed(stored)["value"]["rows"] == rows
    store({"rows": [["a"]], "problems": []})  # a wrong shape (a valid hash): made again
    assert problems() == []
    assert cache.read_hashed(stored)["value"]["rows"] == rows
    store(fake)
    po.write_bytes(po.read_bytes() + b"\n")  # other bytes: read and checked again
    assert problems() == []


def test_the_templates_messages_are_kept_for_their_files_and_code_only(project: Path) -> None:
    """Templates that all compiled, as they are now, by this code, are not parsed again by
    the next process: their messages come from ``.cache/`` (as do the code's own, by the
    code's hash); any template changed, other code, or a stored value of the wrong shape,
    and they are parsed (and a template that no longer compiles is reported)."""
    from site_builder.build import load_and_verify

    def messages(session: Session | None = None) -> set[str]:
        verified = load_and_verify(project, session=session)
        assert [str(p) for p in verified.problems] == []
        return {m.msgid for m in verified.templates if isinstance(m.msgid, str)}

    real = messages()
    stored = project / CACHE_DIR / "templates.json"
    kept = cache.read_hashed(stored)
    fake = [*kept["value"], ["templates/base.html", 1, "Kept, not parsed", None, []]]

    def store(value: object) -> None:
        cache.write_hashed(stored, {"key": kept["key"], "value": value})

    store(fake)
    assert messages() == real | {"Kept, not parsed"}  # used: nothing parsed
    assert messages(Session(code="other code")) == real  # not by other code
    store([["templates/base.html", "1", "x", None, []]])  # a wrong shape: parsed again
    assert messages() == real
    assert cache.read_hashed(stored)["value"] == kept["value"]
    store(fake)
    replace(project / "templates" / "base.html", "</body>", "{{ _('Parsed again') }}</body>")
    assert messages() == real | {"Parsed again"}  # a template changed: parsed again
    replace(project / "templates" / "base.html", "{{ _('Parsed again') }}", "{% if %}")
    problems = [str(p) for p in load_and_verify(project).problems]
    assert any(p.startswith("templates/base.html:") for p in problems), problems
