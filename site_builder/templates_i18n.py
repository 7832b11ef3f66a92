"""Messages of the templates, extracted the same way ``pybabel extract -F babel.cfg`` does."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.extract import DEFAULT_KEYWORDS, extract

from site_builder.checks import CARD_CONTEXTS

TEMPLATE_METHOD = "jinja2.ext.babel_extract"
TEMPLATE_OPTIONS = {"extensions": "jinja2.ext.i18n", "trim_blocks": "true",
                    "lstrip_blocks": "true"}


@dataclass(frozen=True)
class TemplateMessage:
    source: str
    line: int
    msgid: str | tuple[str, str]
    context: str | None
    comments: tuple[str, ...]


# The last extraction, by the templates' names and bytes: a build asks more than once.
_LAST: tuple[tuple[tuple[str, bytes], ...], list[TemplateMessage]] | None = None


def template_files(root: Path) -> tuple[tuple[str, bytes], ...]:
    """The templates' names and bytes, as :func:`template_messages` reads them."""
    return tuple((path.relative_to(root).as_posix(), path.read_bytes())
                 for path in sorted((root / "templates").rglob("*.html")))


def template_messages(root: Path, cache: Any = None) -> list[TemplateMessage]:
    """Every gettext call in ``templates/**.html``, in file and line order.

    With a :class:`site_builder.cache.Cache`, each template's messages are kept there,
    by its name and bytes and the code version, for the next build: after a template
    edit only that template is read again.
    """
    global _LAST
    files = template_files(root)
    if _LAST is not None and _LAST[0] == files:
        return list(_LAST[1])
    enabled = cache is not None and cache.enabled
    if enabled:
        from site_builder.cache import code_version, digest
    out: list[TemplateMessage] = []
    keys = []
    for rel, data in files:
        key = digest(code_version(), rel, data) if enabled else None
        found = cache.get("templates", key) if key is not None else None
        if not isinstance(found, list):
            found = [TemplateMessage(rel, lineno, message, context, tuple(comments))
                     for lineno, message, comments, context in extract(
                         TEMPLATE_METHOD, io.BytesIO(data), DEFAULT_KEYWORDS, ["Translators:"],
                         TEMPLATE_OPTIONS)]
            if key is not None:
                cache.put("templates", key, found)
        if key is not None:
            keys.append(key)
        out.extend(found)
    if enabled:
        cache.prune("templates", keys)
    _LAST = (files, out)
    return list(out)


def card_terms(root: Path) -> list[tuple[str, str]]:
    """The (context, msgid) pairs that name cards: ranks, suits and the card-name pattern."""
    return sorted({(m.context, m.msgid) for m in template_messages(root)
                   if m.context in CARD_CONTEXTS and isinstance(m.msgid, str)})
