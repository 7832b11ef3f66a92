"""Catalogs written exactly as GNU gettext writes them, by GNU gettext's own tools.

Translators' tools (Poedit, Weblate through translate-toolkit, Lokalize, ``msgmerge``)
save catalogs in GNU gettext's layout: strings wrapped at 79 columns by its rules,
header fields in its order. A catalog in any other layout is rewritten in full by the
first translator who saves it, and the review of that change is a diff of hundreds of
unrelated lines. So ``i18n extract``, ``update`` and ``init`` write what GNU gettext
writes, and ``msgcat`` on any catalog changes nothing.

Why GNU's tools themselves rather than a Python writer (measured on this site's
catalogs, 2026-11-30): translate-toolkit 3.20.4's ``pypo`` wraps as GNU gettext does
within a string, but decides whether a string fits on its keyword's line as if every
keyword were ``msgid``: a string of 71 characters after ``msgstr``, 68 to 71 after
``msgstr[N]``, 70 to 71 after ``msgctxt`` or 65 to 71 after ``msgid_plural`` stays on
one line where GNU starts it on the next (one entry of the Polish catalog, 9 lines);
Babel wraps its own way (``msgcat`` changed 292 to 341 lines of each catalog, 157 of
the template; ``benchmarks/catalog_format.py`` measures it again). GNU's ``msgcat`` and
``msgmerge`` are the reference, so they are byte-identical by construction:

* :func:`normalise` passes a catalog written by Babel through ``msgcat``;
* :func:`merge` is ``msgmerge --previous``: fuzzy matching, previous msgids (``#|``),
  and every entry the template no longer has kept as obsolete (``#~``), translations
  included, exactly as translators' tools merge.

Both read the catalog with LF line ends (a CRLF catalog, as some editors on Windows
save it, is read the same). GNU gettext (``msgcat``, ``msgmerge``; Debian's and
Homebrew's ``gettext`` package) is needed by these three commands only: ``build`` and
``check`` read catalogs with Babel.
"""

from __future__ import annotations

import codecs
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from site_builder.errors import Problem, UserError
from site_builder.output import write_atomic

INSTALL = ("GNU gettext writes the catalogs in the format translators' tools use: install "
           "it (apt-get install gettext, or brew install gettext) and run this again")


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise UserError(f"{name} not found. {INSTALL}")
    return found


def gnu_readable(data: bytes) -> bytes:
    r"""*data* as GNU gettext can read it: LF line ends (CRLF and lone CR become LF), and
    no byte order mark (which some editors on Windows write, and the build ignores).

    >>> gnu_readable(b'\xef\xbb\xbfmsgid "a"\r\nmsgstr "b"\r\n')
    b'msgid "a"\nmsgstr "b"\n'
    """
    return data.removeprefix(codecs.BOM_UTF8).replace(b"\r\n", b"\n").replace(b"\r", b"\n")


_OBSOLETE_PREVIOUS = re.compile(rb"^#~\|[^\n]*", re.M)


def babel_readable(data: bytes) -> bytes:
    r"""*data* as Babel can read it. GNU gettext writes an obsolete entry's previous
    msgid as ``#~|`` lines, which Babel's reader rejects: each becomes an empty comment
    ``#``, so that every other line keeps its number (nothing reads a previous msgid).

    >>> babel_readable(b'#, fuzzy\n#~| msgid "old"\n#~ msgid "new"\n#~ msgstr "nowy"\n')
    b'#, fuzzy\n#\n#~ msgid "new"\n#~ msgstr "nowy"\n'
    """
    return _OBSOLETE_PREVIOUS.sub(b"#", data) if b"#~|" in data else data


def _run(args: list[str], rel: str, data: bytes | None = None) -> bytes:
    """Run a GNU gettext tool; its complaints about the catalog become problems of *rel*."""
    proc = subprocess.run(args, input=data, capture_output=True)
    if proc.returncode != 0:
        problems = []
        for line in proc.stderr.decode("utf-8", "replace").splitlines():
            m = re.match(r"^(?:.*?):(\d+):(?:\d+:)?\s*(.*)$", line)
            if m and not line.startswith(os.path.basename(args[0]) + ": "):
                problems.append(Problem(rel, int(m.group(1)), m.group(2)))
            elif line.strip():
                problems.append(Problem(rel, 0, line.strip()))
        raise UserError(problems or [Problem(rel, 0, f"{args[0]} failed")])
    return proc.stdout


def normalise(data: bytes, rel: str) -> bytes:
    """*data* (a catalog or template) as GNU gettext writes it: ``msgcat``'s output."""
    return _run([_tool("msgcat"), "-"], rel, gnu_readable(data))


def merge(po: bytes, pot: bytes, rel: str) -> bytes:
    """The catalog *po* merged with the template *pot* by ``msgmerge --previous``: fuzzy
    matching, previous msgids (``#|``), and every entry the template no longer has kept
    as obsolete (``#~``), translations included, exactly as translators' tools merge.
    *po* is passed through ``msgcat`` first, so that a catalog another tool saved
    without blank lines between entries is read as GNU reads it."""
    msgmerge = _tool("msgmerge")
    with tempfile.TemporaryDirectory(prefix="site-builder-merge-") as tmp:
        (Path(tmp) / "old.po").write_bytes(normalise(po, rel))
        (Path(tmp) / "new.pot").write_bytes(gnu_readable(pot))
        return _run([msgmerge, "--quiet", "--previous", "-o", "-", str(Path(tmp) / "old.po"),
                     str(Path(tmp) / "new.pot")], rel)


def counts(data: bytes) -> tuple[int, int]:
    r"""The fuzzy entries and the obsolete entries of catalog *data* as GNU gettext writes
    it, counted without reading every entry (100,000 of them took seconds).

    >>> counts(b'msgid ""\nmsgstr ""\n\n#, fuzzy, python-format\nmsgid "a"\nmsgstr "b"\n\n'
    ...        b'msgid "c"\nmsgstr ""\n\n#, fuzzy\n#~ msgid "d"\n#~ msgstr "e"\n')
    (1, 1)
    """
    fuzzy = obsolete = 0
    blocks = _blocks(gnu_readable(data))
    for block in blocks[len(_header(blocks)):]:
        if re.search(rb"^#~ msgid ", block, re.M):
            obsolete += 1
        elif re.search(rb"^#,.*\bfuzzy\b", block, re.M):
            fuzzy += 1
    return fuzzy, obsolete


def _blocks(data: bytes) -> list[bytes]:
    """The entries of catalog *data* as GNU gettext writes it (``msgcat``'s or
    ``msgmerge``'s output), each with its comment lines: GNU separates entries by blank
    lines. Another tool's catalog may not (two entries with no blank line between them
    would be one block): pass it through :func:`normalise` first."""
    return [b for b in re.split(rb"\n(?:[ \t]*\n)+", data) if b.strip()]


def _header(blocks: list[bytes]) -> list[int]:
    """``[0]`` if the first of *blocks* is the catalog's header (``msgid ""``), else
    ``[]``."""
    return [0] if blocks and re.match(rb'(?:#[^\n]*\n)*msgid ""\nmsgstr', blocks[0]) else []


def write_if_changed(path: Path, data: bytes, rel: str | None = None,
                     read: bytes | None = None) -> bool:
    """Write *data* to *path* in one step (a temporary file renamed over it); return
    whether the file changed. A symlink is written through: the file it points to is
    replaced, next to it, and the link is kept. *read*: the bytes that the
    command read from *path* and worked from; if the file no longer holds them (saved
    by a translator meanwhile), nothing is written and the problem is raised as a
    :class:`UserError` of *rel*: the translator's save is not lost. The file is compared
    again once the temporary file is written, immediately before the rename, so that a
    save made while a large catalog was written is not lost either."""
    target = Path(os.path.realpath(path))
    try:
        now = target.read_bytes() if target.exists() else None
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    expected = now if read is None else read
    changed = UserError(Problem(rel or str(path), 0,
                                "the catalog changed while this command ran (saved by an "
                                "editor or a translator's tool?); nothing was written to "
                                "it: run the command again"))
    if now != expected:
        raise changed
    if now == data:
        return False
    try:
        mode = target.stat().st_mode & 0o7777 if now is not None else 0o644
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None

    def unchanged() -> None:
        try:
            again = target.read_bytes() if os.path.lexists(target) else None
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        if again != expected:
            raise changed

    write_atomic(target, data, mode, unchanged)
    return True
