"""Saving one translation from the translator's preview into its catalog.

* The same checks as ``check``: the new catalog is read as ``check`` reads it (its
  syntax), and the entry is checked by ``check``'s own checks (placeholders, numbers,
  Markdown, plural forms: :func:`~site_builder.i18n.checks.check_message`; the language's
  terms: :func:`~site_builder.i18n.checks.check_terms`). A translation that fails is not
  written, and the reasons go back to the field.
* The same safe write as ``i18n update`` (:func:`site_builder.i18n.gnu.write_if_changed`):
  the catalog is written only if it still holds the bytes the save was made from, in one
  step, so a save in a text editor meanwhile is never lost; the save is then made again
  from the editor's file (the entry itself changed: the reader is told, nothing written).
* Only the entry changes: its msgstr, its fuzzy flag and its previous msgid (``#|``),
  laid out by GNU ``msgcat`` as ``i18n update`` lays catalogs out; every other byte of
  the catalog stays as it was.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from site_builder.errors import UserError
from site_builder.i18n.checks import check_message, check_terms
from site_builder.i18n.gnu import normalise, write_if_changed
from site_builder.i18n.terms import load_terms
from site_builder.project import LOCALES_DIR, po_path
from site_builder.translate.entries import find, read_catalog, state, strings

ATTEMPTS = 5  # saves in an editor while this one is written, in a row, before giving up
_LOCK = threading.Lock()  # two saves of this server land one after the other


class Forbidden(Exception):
    """A write the preview never makes (a file outside ``locales/``): answered 403."""


@dataclass
class Outcome:
    """How a save ended: ``saved``, ``refused`` (a check failed: *reasons*), or
    ``changed`` (the entry is no longer what the reader edited: *now*)."""

    status: str
    reasons: list[str]
    entry: dict[str, Any]


def catalog_file(root: Path, lang: str, asked: str) -> Path:
    """The catalog the save may write: *lang*'s, named *asked*, and inside ``locales/``
    once every link is followed; :class:`Forbidden` for anything else."""
    if asked != po_path(lang):
        raise Forbidden(f"{asked!r} is not the catalog of {lang}")
    locales = os.path.realpath(root / LOCALES_DIR)
    real = os.path.realpath(root / asked)
    if os.path.commonpath([locales, real]) != locales or not os.path.isfile(real):
        raise Forbidden(f"{asked!r} is not a catalog under {LOCALES_DIR}/")
    return root / asked


def _quoted(text: str) -> str:
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
               .replace("\t", "\\t"))
    return f'"{escaped}"'


def edit(data: bytes, line: int, new: list[str], plural: bool) -> bytes:
    """Catalog *data* with the entry whose msgid is at *line* (1-based) holding *new*:
    msgstr (or msgstr[N]) replaced, not fuzzy, no previous msgid; the entry laid out by
    ``msgcat``, the rest byte for byte.

    >>> po = b'msgid ""\\nmsgstr "Content-Type: text/plain; charset=UTF-8\\\\n"\\n\\n'
    >>> po += b'#: a.md:1\\n#, fuzzy\\n#| msgid "Old"\\nmsgid "New"\\nmsgstr "Stary"\\n\\n'
    >>> po += b'msgid "b"\\nmsgstr ""\\n'
    >>> print(edit(po, 8, ["Nowy"], False).decode().split("\\n\\n")[1])
    #: a.md:1
    msgid "New"
    msgstr "Nowy"
    """
    lines = data.decode("utf-8").split("\n")
    at = line - 1
    start = at
    while start > 0 and lines[start - 1].strip():
        start -= 1
    first = next(n for n in range(at, len(lines)) if lines[n].startswith("msgstr"))
    end = first + 1
    while end < len(lines) and lines[end].strip() and not lines[end].startswith("#"):
        end += 1
    head = []
    for text in lines[start:first]:
        if text.startswith("#|"):
            continue
        if text.startswith("#,"):
            flags = [f.strip() for f in text[2:].split(",") if f.strip() != "fuzzy"]
            if not flags:
                continue
            text = "#, " + ", ".join(flags)
        head.append(text)
    if plural:
        body = [f"msgstr[{n}] {_quoted(s)}" for n, s in enumerate(new)]
    else:
        body = [f"msgstr {_quoted(new[0])}"]
    entry = "\n".join(head + body)
    header = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    try:
        laid = normalise((header + entry + "\n").encode("utf-8"), "entry").decode("utf-8")
        entry = laid.split("\n\n", 1)[1].rstrip("\n")
    except UserError:
        pass  # no msgcat: the entry as written (check reads it all the same)
    return "\n".join(lines[:start] + entry.split("\n") + lines[end:]).encode("utf-8")


def save(root: Path, lang: str, catalog: str, wanted: str, base: list[str], new: list[str]
         ) -> Outcome:
    """Save *new* as the translation of the entry *wanted* (its id) of *lang*'s *catalog*,
    if it still holds *base* (what the reader edited) and *new* passes the checks."""
    path = catalog_file(root, lang, catalog)
    rel = po_path(lang)
    with _LOCK:
        for _ in range(ATTEMPTS):
            old = path.read_bytes()
            message = find(read_catalog(root, lang, old), wanted)
            if message is None:
                return Outcome("changed", ["this entry is not in the catalog (any more): run "
                                           "site-builder i18n update"], {})
            now = strings(message)
            if now != base:
                return Outcome("changed", [], {"strings": now, "state": state(message)})
            if len(new) != len(now) or not all(isinstance(s, str) for s in new):
                return Outcome("refused", [f"give {len(now)} form(s)"], {})
            data = edit(old, message.lineno or 1, new, len(now) > 1 or
                        isinstance(message.string, list | tuple))
            try:
                edited = find(read_catalog(root, lang, data), wanted)
            except UserError as exc:
                return Outcome("refused", [p.message for p in exc.problems], {})
            if edited is None:
                return Outcome("refused", ["the translation breaks the catalog's entry"], {})
            terms, _ = load_terms(root, lang)
            reasons = check_message(edited, lang) + check_terms(edited, terms)
            if reasons:
                return Outcome("refused", reasons, {})
            try:
                write_if_changed(path, data, rel, read=old)
            except UserError:
                continue  # saved in an editor meanwhile: made again from what it saved
            return Outcome("saved", [], {"strings": strings(edited), "state": state(edited),
                                         "line": edited.lineno})
    return Outcome("changed", ["the catalog kept changing while this was saved; save again"],
                   {})
