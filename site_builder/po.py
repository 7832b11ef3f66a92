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

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

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
_NPLURALS_RE = re.compile(r"nplurals\s*=\s*(\d+)")


def _unescape_match(m: re.Match[str]) -> str:
    return _ESCAPES.get(m.group(1), m.group(1))


def _string(quoted: str) -> str:
    """The text of a possibly multi-line PO string, as Babel's ``denormalize``."""
    if "\n" in quoted:
        text = "".join(_PIECE_RE.findall(quoted))
    else:
        text = quoted[1:-1]
    return _ESCAPE_RE.sub(_unescape_match, text) if "\\" in text else text


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


PIECE_SIZE = 1 << 20
_UNKNOWN = (b"\r", b"\n#~", b"\n#-", "\u2068".encode(), "\u2069".encode())


def _pieces(source: bytes | BinaryIO) -> Iterator[str | None]:
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
        if any(mark in piece for mark in _UNKNOWN) or piece.startswith((b"#~", b"#-")):
            yield None
            return
        try:
            yield piece.decode("utf-8")
        except UnicodeDecodeError:
            yield None
            return
        if not block:
            return


def parse_po(data: bytes | BinaryIO, num_plurals: int) -> PoCatalog | None:
    """Read a well-formed catalog, given as bytes or an open binary file; None when only
    Babel can read (or reject) it.

    *num_plurals* is the locale's number of plural forms, used when the header does
    not say (as Babel does).

    >>> cat = parse_po(b'msgid ""\\nmsgstr ""\\n"Plural-Forms: nplurals=2; plural=(n != 1);\\\\n"'
    ...                b'\\n\\n#, fuzzy\\nmsgid "a"\\nmsgstr "b"\\n', 2)
    >>> [(m.id, m.string, m.fuzzy, m.lineno) for m in cat]
    [('a', 'b', True, 6)]
    """
    messages: dict[tuple[str, str | None], PoMessage] = {}
    nplurals = num_plurals
    line = 1
    no_flags: frozenset[str] = frozenset()
    for text in _pieces(data):
        if text is None:
            return None
        covered = 0  # the entries must cover the whole piece: nothing this reader does not know
        for match in _ENTRY_RE.finditer(text):
            if match.start() != covered:
                return None
            covered = match.end()
            whole, comments, ctx, msgid_q, plural, strs = match.groups()
            lineno = line + comments.count("\n") + (ctx.count("\n") + 1 if ctx else 0)
            line += whole.count("\n")
            msgid = _string(msgid_q)
            context = _string(ctx) if ctx else None
            if not msgid:  # the header comes first, and is not a message
                if ctx or plural or messages or not strs.startswith("msgstr "):
                    return None
                found_n = _NPLURALS_RE.search(_string(strs[7:].rstrip("\n")))
                if found_n:
                    nplurals = int(found_n.group(1))
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
                    return None
                string: str | tuple[str, ...] = _string(single[7:])
                key: str | tuple[str, str] = msgid
            else:
                forms = [""] * nplurals
                for index, quoted in _MSGSTR_RE.findall(strs):
                    if not index or int(index) >= nplurals:
                        return None
                    forms[int(index)] = _string(quoted)
                string = tuple(forms)
                key = (msgid, _string(plural))
            dict_key = (msgid, context)
            if dict_key in messages:
                return None
            messages[dict_key] = PoMessage(key, string, context, flags, lineno)
        if covered != len(text):
            return None
    return PoCatalog(messages)
