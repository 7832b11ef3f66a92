"""What the translator's preview says of a catalog entry, and what is left, page by page.

The entry's facts come from its catalog, read as ``check`` reads it
(:func:`site_builder.i18n.catalog.load_catalog`); its state is ``check``'s
(:func:`site_builder.i18n.coverage.coverage_state`: translated, fuzzy or missing); the
pages where it appears are the preview's pages that show its mark (read from the built
pages, so a text the templates show on every page is on every page).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from site_builder.errors import UserError
from site_builder.i18n.catalog import load_catalog
from site_builder.i18n.coverage import coverage_state
from site_builder.project import POT_PATH, po_path
from site_builder.translate.marks import ATTRIBUTE, message_id

STATES = {"translated": "translated", "fuzzy": "fuzzy", "untranslated": "missing"}
_MARKED = re.compile(ATTRIBUTE.encode() + rb'="([0-9a-f]{12})"')


def read_catalog(root: Path, lang: str, data: bytes | None = None) -> Catalog:
    """*lang*'s catalog as ``check`` reads it (comments included); a :class:`UserError`
    with ``check``'s problems if it cannot be read."""
    loaded, problems = load_catalog(root, lang, data=data)
    if loaded is None:
        raise UserError(problems)
    return loaded.catalog


def singular(message: Message) -> str:
    return str(message.id[0] if isinstance(message.id, list | tuple) else message.id)


def find(catalog: Catalog, wanted: str) -> Message | None:
    """The entry of *catalog* whose id (:func:`~site_builder.translate.marks.message_id`)
    is *wanted*."""
    for message in catalog:
        if message.id and message_id(singular(message), message.context) == wanted:
            return message
    return None


def strings(message: Message) -> list[str]:
    value = message.string
    return [str(v) for v in value] if isinstance(value, list | tuple) else [str(value or "")]


def state(message: Message | None) -> str:
    """``translated``, ``fuzzy`` or ``missing``, as ``check`` counts the entry."""
    return STATES[coverage_state(message)]


def page_index(out: Path, lang: str) -> dict[str, list[str]]:
    """Each mark's id: the addresses of *lang*'s preview pages that show it, in order."""
    found: dict[str, list[str]] = {}
    base = out / lang
    for page in sorted(base.rglob("index.html")) if base.is_dir() else ():
        address = "/" + page.parent.relative_to(out).as_posix() + "/"
        for wanted in dict.fromkeys(_MARKED.findall(page.read_bytes())):
            found.setdefault(wanted.decode(), []).append(address)
    return found


def describe(root: Path, lang: str, message: Message, pages: Iterable[str]) -> dict[str, Any]:
    """What the preview shows of an entry when a reader picks its text."""
    ids = [str(i) for i in message.id] if isinstance(message.id, list | tuple) else [message.id]
    return {"id": message_id(singular(message), message.context), "msgid": ids,
            "context": message.context, "catalog": po_path(lang), "line": message.lineno,
            "state": state(message), "strings": strings(message), "pages": list(pages),
            "comments": list(message.auto_comments),
            "locations": [f"{path}:{line}" for path, line in message.locations]}


def absent(root: Path, catalog: Catalog) -> list[Message]:
    """The messages of the template (``locales/messages.pot``) that *catalog* lacks
    altogether (a catalog not updated since, or an entry deleted by hand); none if the
    template cannot be read (``check`` says why)."""
    try:
        with (root / POT_PATH).open("rb") as fh:
            template = read_po(fh)
    except (OSError, ValueError):
        return []
    return [m for m in template if m.id and catalog.get(m.id, context=m.context) is None]


def left(root: Path, lang: str, index: dict[str, list[str]]) -> dict[str, Any]:
    """What is left of *lang*: each missing or fuzzy entry under each page that shows it
    (``""``: shown on no page, as a script's text), with its catalog line (none for a
    message of the template the catalog lacks), and each obsolete entry (``#~``, which no
    page shows: ``i18n update`` kept its translation for a msgid the template lost)."""
    catalog = read_catalog(root, lang)
    pages: dict[str, list[dict[str, Any]]] = {}
    for message in catalog:
        if not message.id or state(message) == "translated":
            continue
        wanted = message_id(singular(message), message.context)
        entry = {"id": wanted, "msgid": singular(message), "context": message.context,
                 "line": message.lineno, "state": state(message)}
        for address in index.get(wanted, [""]):
            pages.setdefault(address, []).append(entry)
    for message in absent(root, catalog):  # no line yet: i18n update adds it
        wanted = message_id(singular(message), message.context)
        entry = {"id": wanted, "msgid": singular(message), "context": message.context,
                 "line": None, "state": "missing"}
        for address in index.get(wanted, [""]):
            pages.setdefault(address, []).append(entry)
    obsolete = [{"msgid": singular(m), "context": m.context, "line": m.lineno,
                 "state": "obsolete"} for m in catalog.obsolete.values()]
    return {"lang": lang, "catalog": po_path(lang),
            "pages": [{"page": page, "entries": entries}
                      for page, entries in sorted(pages.items(), key=lambda p: p[0] or "~")],
            "obsolete": obsolete}
