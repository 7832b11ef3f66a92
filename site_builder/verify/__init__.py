"""Stage 2, verify: every check of the run, before anything is rendered.

``site-builder check`` is this stage (and a rendering in memory): it reports what ``build``
reports. Each
example is replayed by the engine, each rule placeholder named, each link followed, each
template compiled and each catalog read and checked, one language at a time; the
catalogs that pass are kept for the render stage, which then cannot fail on one. (A
template can still fail while rendering: ``check`` renders every page in memory too,
:func:`site_builder.build.check`.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from babel.messages.catalog import Catalog

from site_builder import engine
from site_builder.cache import Store, digest, tree_digest
from site_builder.errors import Problem
from site_builder.examples import (
    Claim,
    Verification,
    VerifiedTable,
    describe,
    verify_pages,
)
from site_builder.examples.verify import ENGINE_STEPS
from site_builder.i18n import messages
from site_builder.i18n.catalog import load_catalog, locale_problems
from site_builder.i18n.checks import check_catalog
from site_builder.i18n.messages import (
    TemplateMessage,
    card_terms,
    source_catalog,
    tree_messages,
)
from site_builder.i18n.terms import load_terms, terms_path
from site_builder.i18n.translator import Translations, Translator, is_translated
from site_builder.project import SHEETS, SOURCE_LANG, STATUS_SLUG, TEMPLATES_DIR, po_path
from site_builder.sources.page import Page, placeholders
from site_builder.sources.profiles import PROFILES_FILE
from site_builder.sources.site import Site
from site_builder.sources.templates import bytecode_cache, compile_templates, make_environment
from site_builder.verify.links import link_problems


@dataclass
class Verified:
    """What verifying a site gives: the example tables by (page, line), every claim, the
    templates' messages, each catalog that passed its checks, and every problem."""

    site: Site
    tables: dict[tuple[str, int], VerifiedTable] = field(default_factory=dict)
    claims: list[Claim] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    templates: list[TemplateMessage] = field(default_factory=list)
    catalogs: dict[str, Translations] = field(default_factory=dict)
    bytecode: Any = None  # the compiled templates' cache, for rendering
    # every message a reader may see, where it is shown: what coverage counts
    source: Catalog = field(default_factory=Catalog)
    # once rendered in memory (site_builder.build.check): each language's messages looked
    # up that the template lacks; None: not rendered
    lookups: dict[str, dict[Any, Any]] | None = None


# A language's catalog as last checked: the key of its bytes and the card terms, and what
# checking it gave (the translations, None if it did not pass; its problems).
CheckedCatalog = tuple[str, tuple[Translations | None, list[Problem]]]


@dataclass
class Reuse:
    """What verifying again in the same process may take from the last time, kept by a
    :class:`site_builder.session.Session`: each language's catalog as last checked (by
    its bytes: ``serve`` checks again only the catalog a translator saved), each
    template's syntax tree with its source (only a changed template is parsed again), and
    the code's messages (the code that runs does not change under it)."""

    catalogs: dict[str, CheckedCatalog] = field(default_factory=dict)
    trees: dict[str, tuple[str, jinja2.nodes.Template]] = field(default_factory=dict)
    code: tuple[TemplateMessage, ...] | None = None

    def code_messages(self, store: Store | None = None) -> tuple[TemplateMessage, ...]:
        """The messages the code looks up (:func:`site_builder.i18n.messages.code_messages`),
        read from the code once per process, and with *store* once per version of the
        code (the store's key holds the code's hash)."""
        if self.code is None:
            found = _stored_messages(store.get("code-messages", "")) if store is not None else None
            if found is None:
                found = list(messages.code_messages())
                if store is not None:
                    store.put("code-messages", "", _message_rows(found))
            self.code = tuple(found)
        return self.code


def verify(site: Site, load_problems: Sequence[Problem] = (), bytecode: Any = None,
           reuse: Reuse | None = None, engine_steps: int | None = None,
           store: Store | None = None) -> Verified:
    """Every check of the run, with nothing rendered: the catalogs' files, the links
    between pages, every example replayed, every placeholder, every template compiled,
    and every catalog read and checked, one language at a time. The examples are not
    replayed when no rule profile loaded (among *load_problems*): every one would fail;
    nor those under a profile that did not load. *reuse*: what an earlier run of this
    process found (updated). *engine_steps*: the engine's work that every example
    together may do (:data:`site_builder.examples.verify.ENGINE_STEPS` if None).
    *store*: what the last process found checking the catalogs and reading the templates'
    and the code's messages (and where to keep this one's)."""
    if reuse is None:
        reuse = Reuse()
    problems = list(load_problems)
    problems.extend(locale_problems(site.root, SOURCE_LANG))
    problems.extend(link_problems(site.pages, complete=not site.unread_pages,
                                  generated=[STATUS_SLUG, *SHEETS]))  # and the build's own
    profiles_ok = bool(site.profiles) or not any(p.path == PROFILES_FILE for p in load_problems)
    total = engine.Budget(ENGINE_STEPS if engine_steps is None else engine_steps)
    verification = (verify_pages(site.pages, site.profiles, site.broken_profiles,
                                 total=total) if profiles_ok else Verification())
    problems.extend(verification_problems(verification))
    # a profile that did not load names no numbers: its placeholders are not judged, nor
    # any when no profile loaded (as the examples are not replayed)
    unjudged = tuple(f"{key}_" for key in site.broken_profiles)
    for page in site.pages if profiles_ok else ():
        problems.extend(placeholder_problems(page, site.numbers, unjudged))
    if bytecode is None:
        bytecode = bytecode_cache(None, "")
    errors, templates = _compiled_templates(site.root, bytecode, reuse, store)
    problems.extend(errors)
    terms = card_terms(templates)
    catalogs: dict[str, Translations] = {}
    for lang in site.languages[1:]:  # one at a time: each Babel catalog let go once read
        translations, found = _checked_catalog(site.root, lang, terms, reuse.catalogs,
                                                store)
        problems.extend(found)
        if translations is not None:
            catalogs[lang] = translations
            problems.extend(translated_note_problems(lang, translations,
                                                     verification.wrong_notes))
    source = source_catalog(site.pages, site.profiles, templates, reuse.code_messages(store))
    return Verified(site, verification.tables, verification.claims, problems, templates,
                    catalogs, bytecode, source)


def _compiled_templates(root: Path, bytecode: Any, reuse: Reuse, store: Store | None
                        ) -> tuple[list[Problem], list[TemplateMessage]]:
    """Every template compiled (:func:`compile_templates`; a problem for each that does
    not compile) and the messages they look up. Templates that all compiled before, by
    this code, as they are now (*store*: the hash of every file under ``templates/``) are
    not parsed again: their messages are taken from *store*."""
    key = tree_digest(root / TEMPLATES_DIR) if store is not None else ""
    found = _stored_messages(store.get("templates", key)) if store is not None else None
    if found is not None:
        return [], found
    env = make_environment(root / TEMPLATES_DIR, Translator(SOURCE_LANG), str, bytecode)
    errors, trees = compile_templates(env, root / TEMPLATES_DIR, reuse.trees)
    templates = tree_messages(trees)
    if store is not None and not errors:
        store.put("templates", key, _message_rows(templates))
    return errors, templates


def _message_rows(found: Sequence[TemplateMessage]) -> list[list[Any]]:
    return [[m.source, m.line, list(m.msgid) if isinstance(m.msgid, tuple) else m.msgid,
             m.context, list(m.comments)] for m in found]


def _stored_messages(rows: Any) -> list[TemplateMessage] | None:
    """The messages that :func:`_message_rows` gave, or None if *rows* are not of that shape.

    >>> m = TemplateMessage("templates/a.html", 3, ("card", "cards"), None, ("Note",))
    >>> _stored_messages(_message_rows([m])) == [m]
    True
    >>> [_stored_messages(v) for v in (None, [["a", 1, "x", None]], [[1, 1, "x", None, []]],
    ...  [["a", 1, ["x", 2], None, []]], [["a", 1, "x", 5, []]], [["a", True, "x", None, []]])]
    [None, None, None, None, None, None]
    """
    if not isinstance(rows, list):
        return None
    found = []
    for row in rows:
        if not (isinstance(row, list) and len(row) == 5):
            return None
        source, line, msgid, context, comments = row
        if isinstance(msgid, list) and all(isinstance(m, str) for m in msgid):
            msgid = tuple(msgid)
        if not (isinstance(source, str) and type(line) is int and isinstance(msgid, str | tuple)
                and isinstance(context, str | None) and isinstance(comments, list)
                and all(isinstance(c, str) for c in comments)):
            return None
        found.append(TemplateMessage(source, line, msgid, context, tuple(comments)))
    return found


def _checked_catalog(root: Path, lang: str, terms: list[tuple[str, str]],
                     checked: dict[str, CheckedCatalog], store: Store | None
                     ) -> tuple[Translations | None, list[Problem]]:
    """The catalog of *lang* read and checked (:func:`read_catalog`), kept small for
    rendering; the same bytes are checked again only if neither *checked* (this process)
    nor *store* (``.cache/``, the last process) holds what checking them gave."""
    data = (root / po_path(lang)).read_bytes()
    words = root / terms_path(lang)  # the language's term file, if it has one
    word_data = words.read_bytes() if words.is_file() else b""
    key = digest(data, word_data, lang, *(part for term in terms for part in term))
    found = checked.get(lang)
    if found is None or found[0] != key:
        name = f"catalog-{digest(lang)}"
        result = _stored_check(store.get(name, key)) if store is not None else None
        if result is None:
            catalog, problems = read_catalog(root, lang, terms, data,
                                             word_data if words.is_file() else None)
            result = (Translations(catalog) if catalog is not None and not problems
                      else None, problems)
            if store is not None:
                store.put(name, key, {
                    "rows": None if result[0] is None else result[0].rows(),
                    "problems": [[p.path, p.line, p.message] for p in problems]})
        found = checked[lang] = (key, result)
    translations, problems = found[1]
    return translations, list(problems)


def _stored_check(value: Any) -> tuple[Translations | None, list[Problem]] | None:
    """What checking a catalog gave, as :func:`_checked_catalog` stored it, or None if
    *value* is not of that shape (a damaged cache is made again, never trusted).

    >>> _stored_check({"rows": None, "problems": [["a.po", 3, "bad"]]})
    (None, [Problem(path='a.po', line=3, message='bad')])
    >>> _stored_check({"rows": [["Rules", None, "Zasady", False, 9]], "problems": []})[0].get(
    ...     "Rules").string
    'Zasady'
    >>> [_stored_check(v) for v in ([], {"rows": None, "problems": []}, {"rows": [["a"]],
    ...  "problems": []}, {"rows": None, "problems": [[1, 2]]}, {"rows": [[1, None, "x",
    ...  False, 1]], "problems": []}, {"rows": [], "problems": [["a.po", "3", "bad"]]},
    ...  {"rows": None, "problems": [["a.po", True, "bad"]]})]
    [None, None, None, None, None, None, None]
    """
    try:
        problems = [Problem(path, line, message) for path, line, message in value["problems"]
                    if isinstance(path, str) and type(line) is int
                    and isinstance(message, str)]
        if len(problems) != len(value["problems"]):
            return None
        if value["rows"] is None:
            return (None, problems) if problems else None
        translations = Translations.from_rows(value["rows"])
    except (TypeError, ValueError, KeyError):
        return None
    return None if translations is None or problems else (translations, problems)


def read_catalog(root: Path, lang: str, terms: list[tuple[str, str]],
                 data: bytes | None = None, word_data: bytes | None = None
                 ) -> tuple[Catalog | None, list[Problem]]:
    """The catalog of *lang* read with Babel, and every problem of reading or checking it
    (*terms*: the card terms, :func:`site_builder.i18n.messages.card_terms`), with the
    language's term file (*word_data*: its bytes, if read already) and its problems."""
    words, word_problems = load_terms(root, lang, word_data)
    loaded, problems = load_catalog(root, lang, comments=False, data=data)
    if loaded is None:
        return None, word_problems + problems
    return (None if word_problems else loaded.catalog), word_problems + check_catalog(
        loaded, terms, words)


def translated_note_problems(lang: str, translations: Translations,
                             wrong: Mapping[str, tuple[str, int]]) -> list[Problem]:
    """A problem at each entry of *lang*'s catalog that translates a caption or note
    whose numbers the engine disagrees with (*wrong*: each such text, and its page and
    line): the translation keeps the English numbers, so it is wrong too.

    >>> from babel.messages.catalog import Catalog
    >>> catalog = Catalog(locale="pl")
    >>> _ = catalog.add("Worth 22 points.", "Warte 22 punkty.", lineno=9)
    >>> translated_note_problems("pl", Translations(catalog),
    ...                          {"Worth 22 points.": ("content/a.md", 4)})[0].line
    9
    """
    problems = []
    for text, (source, line) in wrong.items():
        entry = translations.get(text)
        if entry is not None and entry.lineno and is_translated(entry):
            problems.append(Problem(po_path(lang), entry.lineno, (
                f"this translates an example's text whose numbers the engine disagrees with "
                f"({source}:{line}); once the English is corrected, run 'site-builder i18n "
                f"extract' and 'i18n update', then translate it again (msgid {text[:60]!r})")))
    return problems


def verification_problems(verification: Verification) -> list[Problem]:
    """The problems of *verification*, and one for each claim the engine disagrees with."""
    problems = list(verification.problems)
    disagreements = verification.disagreements
    if disagreements:
        rows = {(c.source, c.line): vr for t in verification.tables.values() for vr in t.rows
                for c in vr.claims}
        for claim in disagreements:
            problems.append(Problem(claim.source, claim.line,
                                    describe(claim, rows.get((claim.source, claim.line)))))
    return problems


def placeholder_problems(page: Page, values: Mapping[str, int], unjudged: tuple[str, ...] = ()
                         ) -> list[Problem]:
    """A problem for each ``{name}`` in *page* that is not a rule value
    (:func:`site_builder.engine.rule_numbers`), but those that start as *unjudged* does."""
    problems = []
    for segment in page.segments():
        if "{" not in segment.text and "}" not in segment.text:
            continue
        for name in placeholders(segment.text):
            if name not in values and not name.startswith(unjudged):
                def names(text: str, name: str = name) -> bool:
                    return name in placeholders(text)
                line = segment.line_where(names)
                problems.append(Problem(page.source, line,
                                        f"unknown rule placeholder {{{name}}}; known: "
                                        f"{', '.join(sorted(values))}"))
    return problems
