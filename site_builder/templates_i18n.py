"""Messages of the templates, extracted the same way ``pybabel extract -F babel.cfg`` does.

:func:`template_messages` gives them whole (with their lines and translators' comments),
for the catalogs. A build needs only their keys, (context, msgid), and gets those from
the syntax tree it compiles each template from (:func:`remember_keys`), so that a
template is parsed once, not once by Babel's extractor and again by Jinja2.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from babel.messages.extract import DEFAULT_KEYWORDS, extract

TEMPLATE_METHOD = "jinja2.ext.babel_extract"
TEMPLATE_OPTIONS = {"extensions": "jinja2.ext.i18n", "trim_blocks": "true",
                    "lstrip_blocks": "true"}
TEMPLATES_DIR = "templates"

Key = tuple[str | None, str | tuple[str, str]]  # (context, msgid)
FileKey = tuple[str, str | None, str | tuple[str, str]]  # (file, context, msgid)


@dataclass(frozen=True)
class TemplateMessage:
    source: str
    line: int
    msgid: str | tuple[str, str]
    context: str | None
    comments: tuple[str, ...]


# The last extraction, by the templates' names and bytes: a command asks more than once.
_LAST: tuple[tuple[tuple[str, bytes], ...], list[TemplateMessage]] | None = None
# The keys of each template, by its name and text as Jinja2 reads it: this process's
# memo of :func:`template_keys`.
_KEYS: dict[tuple[str, str], list[Key]] = {}


def template_files(root: Path) -> tuple[tuple[str, bytes], ...]:
    """The templates' names and bytes, as :func:`template_messages` reads them."""
    return tuple((path.relative_to(root).as_posix(), path.read_bytes())
                 for path in sorted((root / TEMPLATES_DIR).rglob("*.html")) if path.is_file())


def template_messages(root: Path) -> list[TemplateMessage]:
    """Every gettext call in ``templates/**.html``, in file and line order."""
    global _LAST
    files = template_files(root)
    if _LAST is not None and _LAST[0] == files:
        return list(_LAST[1])
    out = [TemplateMessage(rel, lineno, message, context, tuple(comments))
           for rel, data in files
           for lineno, message, comments, context in extract(
               TEMPLATE_METHOD, io.BytesIO(data), DEFAULT_KEYWORDS, ["Translators:"],
               TEMPLATE_OPTIONS)]
    _LAST = (files, out)
    return list(out)


def ast_keys(ast: Any) -> list[Key]:
    """The (context, msgid) of every gettext call in a parsed template (a
    ``jinja2.nodes.Template``), in line order: what Babel extracts from its source,
    without the comments (see :func:`template_messages`).
    """
    from jinja2.ext import extract_from_ast

    def from_ast(fileobj: Any, keywords: Any, comment_tags: Any,
                 options: Any) -> Any:  # an extraction method for Babel, on the tree
        return ((line, func, message, []) for line, func, message
                in extract_from_ast(ast, keywords))

    # a plural's msgid is (singular, plural): DEFAULT_KEYWORDS name two strings at most
    return [cast(Key, (context, msgid)) for _, msgid, _, context
            in extract(from_ast, io.BytesIO(b""), DEFAULT_KEYWORDS)]


def _cache_key(name: str, source: str) -> str:
    from site_builder.cache import code_version, digest

    return digest(code_version(), name, source)


def remember_keys(name: str, source: str, ast: Any, cache: Any = None) -> None:
    """Keep the keys of template *name* (its *source* as Jinja2 read it, and the *ast*
    parsed from it, before it is compiled) for :func:`template_keys`: in this process,
    and in *cache* (a :class:`site_builder.cache.Cache`) for the others and later builds.
    """
    keys = ast_keys(ast)
    _KEYS[(name, source)] = keys
    if cache is not None and cache.enabled:
        cache.put("template-keys", _cache_key(name, source), keys)


def template_keys(root: Path, cache: Any = None) -> list[FileKey]:
    """The (file, context, msgid) of every gettext call in ``templates/**.html``, in file
    and line order: :func:`template_messages` without lines and comments.

    Each template's keys come from this process's memo or *cache* (see
    :func:`remember_keys`), else from parsing it here. A template that does not parse
    has none (the build reports its error where it compiles it).
    """
    import jinja2

    base = root / TEMPLATES_DIR
    keys: list[FileKey] = []
    memo: dict[tuple[str, str], list[Key]] = {}
    wanted = []
    env = None
    for path in sorted(base.rglob("*.html")):
        name = path.relative_to(base).as_posix()
        if not path.is_file():  # reported by the templates' check (a FIFO would hang)
            continue
        try:
            source = path.read_text(encoding="utf-8")  # universal newlines, as Jinja2 reads
        except (OSError, UnicodeDecodeError):
            continue
        found = _KEYS.get((name, source))
        cache_key = _cache_key(name, source) if cache is not None and cache.enabled else None
        if found is None and cache_key is not None:
            found = cache.get("template-keys", cache_key)
        if not isinstance(found, list):
            if env is None:
                env = jinja2.Environment(extensions=["jinja2.ext.i18n"], trim_blocks=True,
                                         lstrip_blocks=True)
            try:
                found = ast_keys(env.parse(source, name, str(path)))
            except jinja2.TemplateSyntaxError:
                found = []
            else:
                if cache_key is not None:
                    cache.put("template-keys", cache_key, found)
        if cache_key is not None:
            wanted.append(cache_key)
        memo[(name, source)] = found
        rel = f"{TEMPLATES_DIR}/{name}"
        keys.extend((rel, context, msgid) for context, msgid in found)
    _KEYS.clear()
    _KEYS.update(memo)
    if cache is not None and cache.enabled:
        cache.prune("template-keys", wanted)
    return keys


def card_terms(root: Path) -> list[tuple[str, str]]:
    """The (context, msgid) pairs that name cards: ranks, suits and the card-name pattern."""
    from site_builder.checks import CARD_CONTEXTS

    return sorted({(context, msgid) for _, context, msgid in template_keys(root)
                   if context in CARD_CONTEXTS and isinstance(msgid, str)})
