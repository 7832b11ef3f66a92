"""Every English source message of the site: pages, rule profile names, the code's own
strings and templates.

:func:`source_catalog` holds the same messages, in the same order, as
``pybabel extract -F babel.cfg`` would write; ``site-builder i18n extract`` writes it as
``locales/messages.pot``. The templates' messages come from Babel's Jinja2 extractor,
with the options of ``babel.cfg``; the code's (a literal passed to ``gettext``,
``ngettext``, ``pgettext``, ``_`` or ``N_`` in ``site_builder/**.py``) from Babel's Python
extractor, with its default keywords, as ``[python: site_builder/**.py]`` maps them.
"""

from __future__ import annotations

import codecs
import datetime as dt
import io
import re
import tomllib
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract
from jinja2.ext import extract_from_ast

import site_builder
from site_builder.i18n.checks import CARD_CONTEXTS
from site_builder.project import TEMPLATES_DIR
from site_builder.sources.page import ExampleBlock, Heading, ListBlock, Page, Paragraph, parse_page
from site_builder.sources.parsing import parse
from site_builder.sources.profiles import PROFILES_FILE, Profile, profile_lines

PROJECT = "Rami rules"
FIXED_DATE = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
TEMPLATE_METHOD = "jinja2.ext.babel_extract"
TEMPLATE_OPTIONS = {"extensions": "jinja2.ext.i18n", "trim_blocks": "true",
                    "lstrip_blocks": "true"}

Msgid = str | tuple[str, ...]  # a plural's msgid is (singular, plural)
SourceEntry = tuple[Msgid, str | None, str, int, list[str]]  # msgid, context, file, line, comments


@dataclass(frozen=True)
class TemplateMessage:
    source: str
    line: int
    msgid: Msgid
    context: str | None
    comments: tuple[str, ...]


def template_messages(root: Path) -> list[TemplateMessage]:
    """Every gettext call in ``templates/**.html``, in file and line order."""
    files = [(path.relative_to(root).as_posix(), path.read_bytes())
             for path in sorted((root / TEMPLATES_DIR).rglob("*.html"))
             if path.is_file()]  # a FIFO would hang: the templates' check reports it
    return [TemplateMessage(rel, lineno, message, context, tuple(comments))
            for rel, data in files
            for lineno, message, comments, context in extract(
                TEMPLATE_METHOD, io.BytesIO(data), DEFAULT_KEYWORDS, ["Translators:"],
                TEMPLATE_OPTIONS)]


def tree_messages(trees: dict[str, Any]) -> list[TemplateMessage]:
    """The messages of templates already parsed (syntax trees by name), as
    :func:`template_messages` gives them but without comments, so that a build parses
    each template once, to compile it and for its messages."""
    out: list[TemplateMessage] = []
    # in the order of template_messages (its paths': a folder's templates before the
    # file of the same name)
    for name, tree in sorted(trees.items(), key=lambda item: PurePosixPath(item[0])):
        def from_tree(fileobj: Any, keywords: Any, comment_tags: Any, options: Any,
                      tree: Any = tree) -> Any:  # an extraction method for Babel
            return ((line, func, message, []) for line, func, message
                    in extract_from_ast(tree, keywords))

        out.extend(TemplateMessage(f"{TEMPLATES_DIR}/{name}", line, message, context, ())
                   for line, message, _, context
                   in extract(from_tree, io.BytesIO(b""), DEFAULT_KEYWORDS))
    return out


# The code that looks messages up: the ``site_builder`` package (the one running, wherever it
# is installed), its files named as in ``babel.cfg``, from the folder that holds it.
PACKAGE_DIR = Path(site_builder.__file__).resolve().parent
CODE_METHOD = "python"
# A file that names none of the keywords cannot hold a message: Babel tokenizes the rest
# (a fifth of a build's time went to tokenizing every module).
_KEYWORD_CALL = re.compile(
    r"\b(?:" + "|".join(map(re.escape, DEFAULT_KEYWORDS)) + r")\s*\(").search


def code_messages() -> tuple[TemplateMessage, ...]:
    """Every message the code passes to gettext as a literal (Babel's Python extractor,
    its default keywords), in file and line order: ``site_builder/render/site_files.py``
    names the root 404 page's link. A process that builds more than once reads them once
    (:class:`site_builder.verify.Reuse`): the code running is the code it was imported
    from."""
    out: list[TemplateMessage] = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        data = path.read_bytes()
        if not _KEYWORD_CALL(data.decode("utf-8", "replace")):
            continue
        rel = path.relative_to(PACKAGE_DIR.parent).as_posix()
        out.extend(TemplateMessage(rel, lineno, message, context, tuple(comments))
                   for lineno, message, comments, context in extract(
                       CODE_METHOD, io.BytesIO(data), DEFAULT_KEYWORDS, ["Translators:"], {}))
    return tuple(out)


def card_terms(messages: Iterable[TemplateMessage]) -> list[tuple[str, str]]:
    """The (context, msgid) pairs of the templates' *messages* that name cards: ranks,
    suits and the card-name pattern."""
    return sorted({(m.context, m.msgid) for m in messages
                   if m.context in CARD_CONTEXTS and isinstance(m.msgid, str)})


def page_entries(page: Page) -> Iterator[SourceEntry]:
    """The source messages of one page."""
    kinds = segment_kinds(page)
    for segment in page.segments():
        yield (segment.text, None, page.source, segment.line,
               [kinds.get(id(segment), "paragraph")])


def other_entries(profiles: dict[str, Profile], templates: Iterable[TemplateMessage],
                  code: Iterable[TemplateMessage] | None = None) -> Iterator[SourceEntry]:
    """The source messages that are not in pages: rule profile names, the code's strings
    (*code*, or :func:`code_messages`) and template strings (``babel.cfg``'s order:
    content/, site_builder/, templates/)."""
    for profile in sorted(profiles.values(), key=lambda p: p.line):
        yield (profile.name, None, PROFILES_FILE, profile.name_line,
               [f"rule profile name ({profile.key})"])
    for message in (*(code_messages() if code is None else code), *templates):
        yield (message.msgid, message.context, message.source, message.line,
               list(message.comments))


def source_catalog(pages: Iterable[Page], profiles: dict[str, Profile],
                   templates: Iterable[TemplateMessage],
                   code: Iterable[TemplateMessage] | None = None) -> Catalog:
    """The template catalog: content segments by page, then rule profile names, the code's
    strings (*code*, or :func:`code_messages`), then template strings (*templates*:
    :func:`template_messages`, or :func:`tree_messages` where the comments are not
    needed)."""
    catalog = Catalog(project=PROJECT, version="1.0", charset="utf-8",
                      creation_date=FIXED_DATE, fuzzy=False)
    for page in sorted(pages, key=lambda p: p.source):
        for msgid, context, source, line, comments in page_entries(page):
            catalog.add(msgid, locations=[(source, line)], auto_comments=comments,
                        context=context)
    for msgid, context, source, line, comments in other_entries(profiles, templates, code):
        catalog.add(msgid, locations=[(source, line)], auto_comments=comments, context=context)
    return catalog


# --- the extraction method for content pages and rule profiles ---------------------------
# Registered as the ``rami_content`` entry point in ``babel.extractors`` and mapped in
# ``babel.cfg``, so that the plain ``pybabel extract -F babel.cfg -o messages.pot .``
# collects every content segment with a ``#: content/<file>.md:<line>`` reference.

Extracted = tuple[int, str | None, str, list[str]]


def extract_content(fileobj: IO[bytes], keywords: Mapping[str, Any],
                    comment_tags: Collection[str],
                    options: Mapping[str, Any]) -> Iterator[Extracted]:
    """Yield ``(lineno, funcname, message, comments)`` for every translatable segment.

    >>> import io
    >>> page = (b"---\\ntitle: T\\nslug: t\\norder: 1\\ndescription: D\\n---\\n"
    ...         b"\\n## Head\\n\\nSome text.\\n")
    >>> [(line, msg) for line, _, msg, _ in extract_content(io.BytesIO(page), {}, [], {})]
    [(2, 'T'), (5, 'D'), (8, 'Head'), (10, 'Some text.')]
    """
    name = getattr(fileobj, "name", "")
    data: bytes | str = fileobj.read()
    # as the build reads it (a byte order mark dropped)
    text = (data.removeprefix(codecs.BOM_UTF8).decode("utf-8") if isinstance(data, bytes)
            else data)
    if str(name).endswith(".toml"):
        yield from _extract_profiles(text)
        return
    page, _problems = parse_page(text, str(name))
    if page is None:
        return
    kinds = segment_kinds(page)
    for segment in page.segments():
        yield segment.line, None, segment.text, [kinds.get(id(segment), "paragraph")]


def segment_kinds(page: Any) -> dict[int, str]:
    kinds = {id(page.title): "page title", id(page.description): "page description (meta)"}
    for block in page.blocks:
        if isinstance(block, Heading):
            kinds[id(block.segment)] = "heading"
        elif isinstance(block, Paragraph) and block.callout:
            kinds[id(block.segment)] = f"callout ({block.callout})"
        elif isinstance(block, ListBlock):
            kinds.update({id(item): "list item" for item in block.items})
        elif isinstance(block, ExampleBlock):
            for row in block.rows:
                kinds[id(row.caption)] = "example caption"
                if row.note is not None:
                    kinds[id(row.note)] = "example note"
    return kinds


def _extract_profiles(text: str) -> Iterator[Extracted]:
    try:  # a file that does not parse, or nests too deep, has its problem in check
        data, _ = parse(tomllib.loads, text, PROFILES_FILE, "toml")
    except tomllib.TOMLDecodeError:
        return
    if data is None:
        return

    lines = text.splitlines()
    for key, table in data.items():
        if isinstance(table, dict) and isinstance(table.get("name"), str):
            _, line = profile_lines(lines, key)
            yield line, None, table["name"], [f"rule profile name ({key})"]
