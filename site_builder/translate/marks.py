"""Marking the texts that come from a catalog, in the translator's preview only.

While a translator's preview renders its language, each text looked up in the catalog is
wrapped in three private-use characters (U+E000 id U+E001 text U+E002) around the rendered
text; no other build makes them (:attr:`site_builder.render.pages.Job.marked`). As each file
is written, :func:`apply` turns a marked text in a page's body into
``<span data-sb-msg="id">`` and drops every mark anywhere else (in a tag's attributes, a
``<title>``, a script's data, a JavaScript or JSON file), so the pages read as the
published ones, with the catalog's texts findable.

The id names the entry, not its place: the first 12 hex digits of SHA-1 over the context
and the msgid, so a language kept from an earlier build keeps its marks' meaning.
"""

from __future__ import annotations

import hashlib
import re

OPEN, MID, CLOSE = "\ue000", "\ue001", "\ue002"
ID_RE = re.compile(r"^[0-9a-f]{12}$")
ATTRIBUTE = "data-sb-msg"

# Elements whose content is text, never markup: a mark inside is dropped.
_RAW = re.compile(r"<(title|script|style|textarea|option)\b[^>]*>.*?</\1\s*>", re.S | re.I)
_MARK = re.compile(f"{OPEN}([0-9a-f]{{12}}){MID}")
# a mark written by |urlencode (a link's query): dropped
_ENCODED = re.compile(r"%EE%80%80[0-9a-f]{12}%EE%80%81|%EE%80%82", re.I)


def message_id(msgid: str, context: str | None) -> str:
    """The id of the entry (*msgid*: its singular), as the pages' marks name it.

    >>> message_id("Melds", "nav") != message_id("Melds", None), len(message_id("a", None))
    (True, 12)
    """
    key = f"{context or ''}\x04{msgid}"
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]


def mark(msgid: str, context: str | None, text: str) -> str:
    """*text* (what the catalog gave for *msgid*, or the English shown for it) marked."""
    return f"{OPEN}{message_id(msgid, context)}{MID}{text}{CLOSE}"


def strip(text: str) -> str:
    """*text* without any mark.

    >>> strip(mark("a", None, "b") + "c")
    'bc'
    """
    if OPEN not in text and CLOSE not in text and "%EE%80" not in text.upper():
        return text
    return _ENCODED.sub("", _MARK.sub("", text).replace(CLOSE, ""))


def apply(page: str) -> str:
    """A marked *page*: each mark in the body's text as a ``<span data-sb-msg>``, every
    other mark dropped.

    >>> apply('<title>' + mark("T", None, "T") + '</title><p title="' + mark("x", None, "X")
    ...       + '">' + mark("P", None, "Pe") + '</p>').replace(message_id("P", None), "ID")
    '<title>T</title><p title="X"><span data-sb-msg="ID">Pe</span></p>'
    """
    if OPEN not in page:
        return strip(page)
    out: list[str] = []
    at = 0
    for raw in _RAW.finditer(page):
        out.append(_body(page[at:raw.start()]))
        out.append(strip(raw.group(0)))
        at = raw.end()
    out.append(_body(page[at:]))
    return "".join(out)


def _body(html: str) -> str:
    """Marks in text become spans; marks inside a tag (between ``<`` and ``>``) are
    dropped."""
    pieces = re.split(r"(<[^>]*>)", html)
    for n, piece in enumerate(pieces):
        if n % 2:  # a tag
            pieces[n] = strip(piece)
        elif OPEN in piece or CLOSE in piece:
            piece = _MARK.sub(lambda m: f'<span {ATTRIBUTE}="{m.group(1)}">', piece)
            pieces[n] = _ENCODED.sub("", piece.replace(CLOSE, "</span>"))
    return "".join(pieces)


def write_filter(rel: str, data: bytes) -> bytes:
    """What the translator's preview writes for the file *rel* of *data*."""
    if b"\xee\x80" not in data and b"%EE%80" not in data.upper():
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:  # an image, the runtime's WebAssembly: never marked
        return data
    return (apply(text) if rel.endswith(".html") else strip(text)).encode("utf-8")
