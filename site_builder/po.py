"""A fast reader for well-formed ``.po`` catalogs, with Babel's reading as the reference.

Babel's ``read_po`` reads a catalog line by line in Python; a site with thousands of
pages has catalogs of tens of thousands of entries, and reading them took longer than
rendering. :func:`parse_po` reads the usual shape of an entry (comments, an optional
``msgctxt``, ``msgid``, an optional ``msgid_plural``, the ``msgstr`` lines) with one
regular expression over the whole file and gives the same messages as Babel: same ids,
strings, contexts, fuzzy flags and line numbers, in the same order. Anything else
(obsolete ``#~`` entries, conflict markers, odd spacing, a duplicate id, a syntax
error) makes it return None, and the caller reads the file with Babel, which also
reports errors with their line.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

_QUOTED = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
_STR = rf"{_QUOTED}(?:\n{_QUOTED})*"
_ENTRY_RE = re.compile(  # groups: the whole entry, comments, context, id, plural, msgstrs
    r"("
    r"((?:#[^\n]*\n)*)"
    rf"(?:msgctxt ({_STR})\n)?"
    rf"msgid ({_STR})\n"
    rf"(?:msgid_plural ({_STR})\n)?"
    rf"((?:msgstr(?:\[\d+\])? {_STR}(?:\n|\Z))+)"
    r"\n*)"
)
_PIECE_RE = re.compile(r'"([^"\\\n]*(?:\\.[^"\\\n]*)*)"')
_MSGSTR_RE = re.compile(rf"msgstr(?:\[(\d+)\])? ({_STR})")
_ESCAPE_RE = re.compile(r"\\([\\trn\"])")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}
_ANY_ESCAPE_RE = re.compile(r"\\(.?)")
_KNOWN_ESCAPES = frozenset('\\trn"')
_NPLURALS_RE = re.compile(r"nplurals\s*=\s*(\d+)")


def _unescape_match(m: re.Match[str]) -> str:
    return _ESCAPES.get(m.group(1), m.group(1))


def _string(quoted: str) -> str:
    """The text of a possibly multi-line PO string, as Babel's ``denormalize``."""
    if "\n" in quoted:
        text = "".join(_PIECE_RE.findall(quoted))
    else:
        text = quoted[1:-1]
    if "\\" not in text:
        return text
    if any(e not in _KNOWN_ESCAPES for e in _ANY_ESCAPE_RE.findall(text)):
        raise Unreadable  # an escape Babel would keep as it is: it reports it
    return _ESCAPE_RE.sub(_unescape_match, text)


@dataclass(slots=True)
class PoMessage:
    """The parts of a Babel ``Message`` that the build reads."""

    id: str | tuple[str, str]
    string: str | tuple[str, ...]
    context: str | None
    flags: frozenset[str]
    lineno: int

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def pluralizable(self) -> bool:
        return isinstance(self.id, tuple)


class PoCatalog:
    """Messages in file order, without the header; ``get`` works as in Babel's ``Catalog``."""

    def __init__(self, messages: dict[tuple[str, str | None], PoMessage]) -> None:
        self._messages = messages

    def __iter__(self) -> Iterator[PoMessage]:
        return iter(self._messages.values())

    def __len__(self) -> int:
        return len(self._messages)

    def get(self, id: str | tuple[str, str], context: str | None = None) -> PoMessage | None:
        key = id[0] if isinstance(id, tuple) else id
        return self._messages.get((key, context))


class Readable(Protocol):
    """An open binary file, or anything that reads like one."""

    def read(self, size: int = -1, /) -> bytes: ...


PIECE_SIZE = 1 << 20
_CONTROL_BYTES_RE = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]")  # Babel's reader reports them
_UNKNOWN = (b"\r", b"\n#~", b"\n#-", "\u2068".encode(), "\u2069".encode())


def _pieces(source: bytes | Readable) -> Iterator[str | None]:
    """A catalog's text in pieces of about :data:`PIECE_SIZE` bytes, each ending after the
    blank lines between two entries, so that a large catalog is never held whole.

    None stands for a piece this reader does not read (not UTF-8, obsolete entries,
    carriage returns, bidirectional marks); the caller then leaves the file to Babel.
    """
    stream = io.BytesIO(source) if isinstance(source, bytes) else source
    rest = b""
    while True:
        block = stream.read(PIECE_SIZE)
        data = rest + block
        if not data:
            return
        end = data.rfind(b"\n\n") if block else len(data)
        while 0 <= end < len(data) and data[end:end + 1] == b"\n":
            end += 1
        if end < 0 or (block and end == len(data)):  # the blank lines may go on: read on
            rest = data
            continue
        piece, rest = data[:end], data[end:]
        if any(mark in piece for mark in _UNKNOWN) or piece.startswith((b"#~", b"#-")) \
                or _CONTROL_BYTES_RE.search(piece):
            yield None
            return
        try:
            yield piece.decode("utf-8")
        except UnicodeDecodeError:
            yield None
            return
        if not block:
            return


_UTF8_RE = re.compile(r"charset=utf-?8\b", re.IGNORECASE)


class Unreadable(Exception):
    """The catalog has something :func:`iter_po` does not read: leave it to Babel."""


def parse_po(data: bytes | Readable, num_plurals: int) -> PoCatalog | None:
    """Read a well-formed catalog, given as bytes or an open binary file; None when only
    Babel can read (or reject) it.

    *num_plurals* is the locale's number of plural forms, used when the header does
    not say (as Babel does).

    >>> cat = parse_po(b'msgid ""\\nmsgstr ""\\n"Plural-Forms: nplurals=2; plural=(n != 1);\\\\n"'
    ...                b'\\n\\n#, fuzzy\\nmsgid "a"\\nmsgstr "b"\\n', 2)
    >>> [(m.id, m.string, m.fuzzy, m.lineno) for m in cat]
    [('a', 'b', True, 6)]
    """
    try:
        return PoCatalog({(m.id[0] if isinstance(m.id, tuple) else m.id, m.context): m
                          for m in iter_po(data, num_plurals)})
    except Unreadable:
        return None


def iter_po(data: bytes | Readable, num_plurals: int) -> Iterator[PoMessage]:
    """The messages of a well-formed catalog, one at a time, in file order (as
    :func:`parse_po`); raises :class:`Unreadable`, possibly after some messages, where
    only Babel can read (or reject) the file."""
    seen: set[bytes] = set()
    nplurals = num_plurals
    line = 1
    no_flags: frozenset[str] = frozenset()
    for text in _pieces(data):
        if text is None:
            raise Unreadable
        covered = 0  # the entries must cover the whole piece: nothing this reader does not know
        for match in _ENTRY_RE.finditer(text):
            if match.start() != covered:
                raise Unreadable
            covered = match.end()
            whole, comments, ctx, msgid_q, plural, strs = match.groups()
            lineno = line + comments.count("\n") + (ctx.count("\n") + 1 if ctx else 0)
            line += whole.count("\n")
            msgid = _string(msgid_q)
            context = _string(ctx) if ctx else None
            if not msgid:  # the header comes first, and is not a message
                if ctx or plural or seen or not strs.startswith("msgstr "):
                    raise Unreadable
                header = _string(strs[7:].rstrip("\n"))
                if "charset=" in header.lower() and not _UTF8_RE.search(header):
                    raise Unreadable  # Babel would decode it otherwise: it reports this
                found_n = _NPLURALS_RE.search(header)
                if found_n:
                    nplurals = int(found_n.group(1))
                seen.add(b"")
                continue
            flags = no_flags
            if "#," in comments:
                found: set[str] = set()
                for comment in comments.split("\n"):
                    if comment.startswith("#,"):
                        found.update(f.strip() for f in comment[2:].lstrip().split(","))
                flags = frozenset(found)
            if not plural:
                single = strs.rstrip("\n")
                if not single.startswith("msgstr ") or "\nmsgstr" in single:
                    raise Unreadable
                string: str | tuple[str, ...] = _string(single[7:])
                key: str | tuple[str, str] = msgid
            else:
                forms = [""] * nplurals
                for index, quoted in _MSGSTR_RE.findall(strs):
                    if not index or int(index) >= nplurals:
                        raise Unreadable
                    forms[int(index)] = _string(quoted)
                string = tuple(forms)
                key = (msgid, _string(plural))
            ident = message_key(msgid, context)
            if ident in seen:
                raise Unreadable
            seen.add(ident)
            yield PoMessage(key, string, context, flags, lineno)
        if covered != len(text):
            raise Unreadable


def message_key(msgid: str | tuple[str, str], context: str | None) -> bytes:
    """A short hash of a message's id (its singular, for a plural) and context.

    >>> message_key("ace", "rank") != message_key("ace", None)
    True
    >>> message_key(("{n} point", "{n} points"), None) == message_key("{n} point", None)
    True
    """
    if isinstance(msgid, tuple):
        msgid = msgid[0]
    ident = f"{context}\x04{msgid}" if context is not None else f"\x05{msgid}"
    return hashlib.blake2b(ident.encode("utf-8"), digest_size=12).digest()


def text_keys(texts: Iterable[str]) -> dict[str, bytes]:
    """Each distinct non-empty text, as a message without context, with its
    :func:`message_key` (a page's segments, say).

    >>> text_keys(["ace", "", "ace"]) == {"ace": message_key("ace", None)}
    True
    """
    return {text: message_key(text, None) for text in texts if text}


_FUZZY = frozenset({"fuzzy"})
_NO_FLAGS: frozenset[str] = frozenset()


class CompactCatalog:
    """What rendering needs of a catalog, in about half the memory of its messages.

    Every translated or fuzzy string is kept as UTF-8 in one buffer, found through a
    short hash of its message's id and context (:func:`message_key`); ids, comments and
    line numbers are not kept. Few, large objects: processes forked after the catalog
    is read share it instead of copying it. ``get`` works as in Babel's ``Catalog``,
    giving a :class:`PoMessage` made on the spot (line number 0).

    >>> cat = CompactCatalog()
    >>> cat.add(PoMessage("ace", "as", "rank", frozenset(), 7))
    >>> cat.add(PoMessage("king", "", "rank", frozenset(), 9))
    >>> cat.add(PoMessage(("{n} point", "{n} points"), ("{n} punkt", "{n} punkty"), None,
    ...                   frozenset({"fuzzy"}), 11))
    >>> cat.get("ace", "rank").string, cat.get("ace"), cat.get("king", "rank")
    ('as', None, None)
    >>> found = cat.get("{n} point")
    >>> found.string, found.fuzzy
    (('{n} punkt', '{n} punkty'), True)
    """

    def __init__(self) -> None:
        self._index: dict[bytes, int] = {}  # key -> offset << 34 | length << 2 | flags
        self._buffer = bytearray()

    def __len__(self) -> int:
        return len(self._index)

    @classmethod
    def of(cls, catalog: Any) -> CompactCatalog:
        """*catalog* (a Babel ``Catalog``, a :class:`PoCatalog`) as a compact one."""
        if isinstance(catalog, CompactCatalog):
            return catalog
        compact = cls()
        for message in catalog:
            compact.add(message)
        return compact

    def add(self, message: PoMessage) -> None:
        """Keep *message*, if it is translated or fuzzy; an empty one is as if missing."""
        plural = isinstance(message.string, tuple)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not message.id or not any(strings):
            return
        data = "\0".join(strings).encode("utf-8")  # a PO string never holds a NUL
        self._index[message_key(message.id, message.context)] = (
            len(self._buffer) << 34 | len(data) << 2 | plural << 1 | message.fuzzy)
        self._buffer += data

    def get(self, id: str | tuple[str, str], context: str | None = None) -> PoMessage | None:
        return self.get_key(message_key(id, context), id, context)

    def get_key(self, key: bytes, id: str | tuple[str, str] = "?",
                context: str | None = None) -> PoMessage | None:
        """As :meth:`get`, by :func:`message_key`."""
        found = self._index.get(key)
        if found is None:
            return None
        start = found >> 34
        text = self._buffer[start:start + (found >> 2 & 0xFFFFFFFF)].decode("utf-8")
        string: str | tuple[str, ...] = tuple(text.split("\0")) if found & 2 else text
        return PoMessage(id, string, context, _FUZZY if found & 1 else _NO_FLAGS, 0)
