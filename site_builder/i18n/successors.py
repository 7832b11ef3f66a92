"""A translation fix that an update would drop: the entry it was made on becomes obsolete
while the entry that replaced its msgid keeps other wording.

How it happens: on one branch a translator fixes the translation of msgid X; on another,
X's English is changed to Y and Y is translated from X's wording before the fix. When the
branches meet, the catalog holds both, and ``i18n update`` keeps Y (the template has it)
and makes X obsolete (``#~``), the fix with it: the page shows the old wording again, and
nothing says so. (A Polish fix of the checker's ambiguity message was lost so, in a merge.)

:func:`dropped_fixes` names each such pair at the line of Y in the merged catalog: an entry
that this update makes obsolete (translated and active in the catalog read), whose
successor (the active, translated entry that ``msgmerge`` itself would match to it, as it
matches a changed msgid) holds a different translation. An update that changes a msgid on
its own branch never reports it: there Y is new, and ``msgmerge`` gives it X's translation
as fuzzy.
"""

from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from site_builder.errors import Problem
from site_builder.i18n.gnu import babel_readable, gnu_readable, run_tool, tool_path

_HEADER = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n'


def _read(data: bytes) -> Catalog:
    return read_po(io.BytesIO(babel_readable(gnu_readable(data))))


def _key(message: Message) -> tuple[str, str | None]:
    ident = message.id if isinstance(message.id, str) else message.id[0]
    return ident, message.context


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return bool(message.id) and not message.fuzzy and all(strings)


def q(text: str) -> str:
    """*text* as a PO string (JSON's escapes are a subset of C's, which PO uses)."""
    return json.dumps(text, ensure_ascii=False)


def _entry(message: Message, translated: bool) -> str:
    """*message* as a catalog entry: with its translation, or (for a template) without."""
    out = f"msgctxt {q(message.context)}\n" if message.context is not None else ""
    strings = message.string if isinstance(message.string, (tuple, list)) \
        else (message.string or "",)
    if isinstance(message.id, str):
        out += f"msgid {q(message.id)}\nmsgstr {q(strings[0] if translated else '')}\n"
    else:
        out += f"msgid {q(message.id[0])}\nmsgid_plural {q(message.id[1])}\n"
        for n, string in enumerate(strings if translated else ("", "")):
            out += f"msgstr[{n}] {q(string)}\n"
    return out


def _fields(lines: list[str]) -> dict[str, str]:
    """The keywords of one entry's *lines* (``msgid``, ``msgctxt``, ...) and their text."""
    out: dict[str, str] = {}
    keyword = ""
    for line in lines:
        word, _, rest = line.partition(" ") if not line.startswith('"') else ("", "", line)
        keyword = word or keyword
        out[keyword] = out.get(keyword, "") + json.loads(rest)
    return out


def _previous(data: bytes) -> list[tuple[tuple[str, str | None], tuple[str, str | None]]]:
    """Each fuzzy entry of *data* (``msgmerge --previous`` output) that names a previous
    msgid (``#|``): its key and the previous one's (msgid, msgctxt)."""
    pairs = []
    for block in data.decode("utf-8").split("\n\n"):
        lines = block.splitlines()
        before = _fields([line[3:] for line in lines if line.startswith("#| ")])
        now = _fields([line for line in lines if line and not line.startswith("#")])
        if "msgid" in before and now.get("msgid"):
            pairs.append(((now["msgid"], now.get("msgctxt")),
                          (before["msgid"], before.get("msgctxt"))))
    return pairs


def dropped_fixes(read: bytes, merged: bytes, rel: str) -> list[Problem]:
    """Each entry of *merged* (``msgmerge``'s output for the catalog *read*, at *rel*)
    whose translation differs from that of the entry this update makes obsolete and
    ``msgmerge`` matches to it as its previous msgid: a problem at its line, naming the
    obsolete entry's line.

    >>> head = b'msgid ""\\nmsgstr "Content-Type: text/plain; charset=UTF-8\\\\n"\\n\\n'
    >>> old = b'msgid "Write suits as symbols"\\nmsgstr "Zapisz kolory symbolami!"\\n\\n'
    >>> new = b'msgid "Write suits as words or symbols"\\nmsgstr "Zapisz kolory slowami"\\n'
    >>> gone = (b'\\n#~ msgid "Write suits as symbols"\\n'
    ...         b'#~ msgstr "Zapisz kolory symbolami!"\\n')
    >>> merged = head + new + gone
    >>> [str(p) for p in dropped_fixes(head + old + new, merged, "x.po")]  # doctest: +ELLIPSIS
    ['x.po:4: the entry whose msgid this one replaced is made obsolete by this update (line 7, ...']
    >>> dropped_fixes(head + new + b'\\n' + old, merged, "x.po")[0].message.count("line 7")
    1
    >>> dropped_fixes(merged, merged, "x.po")  # obsolete before
    []
    """
    before, after = _read(read), _read(merged)
    active = {_key(m): m for m in before if _translated(m)}
    gone = [m for m in after.obsolete.values() if _key(m) in active]
    if not gone:
        return []
    successors = [m for m in after if _translated(m)]
    with tempfile.TemporaryDirectory(prefix="site-builder-successors-") as tmp:
        old, ref = Path(tmp) / "old.po", Path(tmp) / "ref.pot"
        header = gnu_readable(merged).split(b"\n\n", 1)[0].decode("utf-8") + "\n"
        old.write_text("\n".join([header, *(_entry(active[_key(m)], True) for m in gone)]),
                       encoding="utf-8")  # the catalog's header: its plural forms
        ref.write_text("\n".join([_HEADER, *(_entry(m, False) for m in successors)]),
                       encoding="utf-8")
        matched = run_tool([tool_path("msgmerge"), "--quiet", "--previous", "-o", "-",
                            str(old), str(ref)], rel)
    lines = {_key(m): m.lineno for m in after.obsolete.values()}
    problems = []
    for (ident, context), previous in _previous(matched):
        ours = after.get(ident, context)
        theirs = active.get(previous)
        if ours is None or theirs is None or ours.string == theirs.string:
            continue
        problems.append(Problem(rel, ours.lineno or 0, (
            "the entry whose msgid this one replaced is made obsolete by this update (line "
            f"{lines[_key(theirs)]}, #~), and its translation differs from this one: if it "
            "was corrected there (on a branch that a merge brought in, say), the correction "
            "is lost here; compare the two, carry it over, then delete the obsolete entry")))
    return sorted(problems, key=lambda p: p.line)
