"""Messages of the templates, extracted the same way ``pybabel extract -F babel.cfg`` does."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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


def template_messages(root: Path) -> list[TemplateMessage]:
    """Every gettext call in ``templates/**.html``, in file and line order."""
    out: list[TemplateMessage] = []
    base = root / "templates"
    for path in sorted(base.rglob("*.html")):
        rel = path.relative_to(root).as_posix()
        with path.open("rb") as fileobj:
            for lineno, message, comments, context in extract(
                    TEMPLATE_METHOD, fileobj, DEFAULT_KEYWORDS, ["Translators:"],
                    TEMPLATE_OPTIONS):
                out.append(TemplateMessage(rel, lineno, message, context, tuple(comments)))
    return out


def card_terms(root: Path) -> list[tuple[str, str]]:
    """The (context, msgid) pairs that name cards: ranks, suits and the card-name pattern."""
    return sorted({(m.context, m.msgid) for m in template_messages(root)
                   if m.context in CARD_CONTEXTS and isinstance(m.msgid, str)})
