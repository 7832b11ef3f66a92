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

    With a :class:`site_builder.cache.Cache`, the extraction is kept there, by the
    templates' bytes and the code version, for the next build.
    """
    global _LAST
    files = template_files(root)
    if _LAST is not None and _LAST[0] == files:
        return list(_LAST[1])
    key = None
    if cache is not None and cache.enabled:
        from site_builder.cache import code_version, digest

        key = digest(code_version(), *(part for rel, data in files for part in (rel, data)))
        found = cache.get("templates", key)
        if isinstance(found, list):
            _LAST = (files, found)
            return list(found)
    out: list[TemplateMessage] = []
    for rel, data in files:
        for lineno, message, comments, context in extract(
                TEMPLATE_METHOD, io.BytesIO(data), DEFAULT_KEYWORDS, ["Translators:"],
                TEMPLATE_OPTIONS):
            out.append(TemplateMessage(rel, lineno, message, context, tuple(comments)))
    _LAST = (files, out)
    if key is not None:
        cache.put("templates", key, out)
        cache.prune("templates", [key])
    return list(out)


def card_terms(root: Path) -> list[tuple[str, str]]:
    """The (context, msgid) pairs that name cards: ranks, suits and the card-name pattern."""
    return sorted({(m.context, m.msgid) for m in template_messages(root)
                   if m.context in CARD_CONTEXTS and isinstance(m.msgid, str)})
