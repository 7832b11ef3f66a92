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
import ctypes
import errno
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from site_builder.errors import Problem, UserError
from site_builder.output import write_atomic

INSTALL = ("GNU gettext writes the catalogs in the format translators' tools use: install "
           "it (apt-get install gettext, or brew install gettext) and run this again")


def tool_path(name: str) -> str:
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


def run_tool(args: list[str], rel: str, data: bytes | None = None) -> bytes:
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
    return run_tool([tool_path("msgcat"), "-"], rel, gnu_readable(data))


def merge(po: bytes, pot: bytes, rel: str) -> bytes:
    """The catalog *po* merged with the template *pot* by ``msgmerge --previous``: fuzzy
    matching, previous msgids (``#|``), and every entry the template no longer has kept
    as obsolete (``#~``), translations included, exactly as translators' tools merge.
    *po* is passed through ``msgcat`` first, so that a catalog another tool saved
    without blank lines between entries is read as GNU reads it."""
    msgmerge = tool_path("msgmerge")
    with tempfile.TemporaryDirectory(prefix="site-builder-merge-") as tmp:
        (Path(tmp) / "old.po").write_bytes(normalise(po, rel))
        (Path(tmp) / "new.pot").write_bytes(gnu_readable(pot))
        return run_tool([msgmerge, "--quiet", "--previous", "-o", "-", str(Path(tmp) / "old.po"),
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
    """Write *data* to *path* in one step; return whether the file changed. A symlink is
    written through: the file it points to is replaced, next to it, and the link is
    kept. *read*: the bytes that the command read from *path* and worked from; if the
    file no longer holds them (saved by a translator meanwhile), nothing is written and
    the problem is raised as a :class:`UserError` of *rel*: the translator's save is not
    lost.

    "Has the file changed since I read it?" then a rename would leave a gap: a save made
    between the two is lost. So the new file is not renamed over the old: the two are
    exchanged in one step (:func:`exchange`), which gives back what *path* held the
    instant before, and that is compared. A save made at any moment of the write is
    then put back in place (exchanged again), and nothing is written; if a second save
    lands while the first is put back, it is kept beside the catalog and the message
    says where. Where the system cannot exchange two files, the file is compared once
    more immediately before the rename."""
    target = Path(os.path.realpath(path))
    shown = rel or str(path)
    now = _read(target, path)
    expected = now if read is None else read
    changed = UserError(Problem(shown, 0,
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
        if _read(target, path) != expected:
            raise changed

    if expected is None:  # a new catalog (init)
        write_atomic(target, data, mode, unchanged)
        return True
    tmp = _temporary(target, data, mode)
    try:
        unchanged()  # a save made while the file was written: nothing to undo
        if not exchange(tmp, target):
            unchanged()
            os.replace(tmp, target)
            return True
        replaced = _read(tmp, path)  # what the catalog held the instant before
        if replaced == expected:
            return True
        # saved in the write window: the save goes back in place, as if nothing was written
        exchange(tmp, target)
        if _read(tmp, path) == data:
            raise changed
        # saved again meanwhile: that save is kept beside, named
        kept = _keep(tmp, target)
        raise UserError(Problem(shown, 0, f"the catalog was saved twice while this command "
                                          f"wrote it; the first save is in place, the later one "
                                          f"is kept beside it as {kept.name}: keep what you "
                                          "mean, then run the command again"))
    finally:
        tmp.unlink(missing_ok=True)


def _read(target: Path, path: Path) -> bytes | None:
    """The bytes of *target* (None if there is no file), an error naming *path*."""
    try:
        return target.read_bytes() if os.path.lexists(target) else None
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None


def _temporary(target: Path, data: bytes, mode: int) -> Path:
    """*data* in a new temporary file beside *target* (``.messages.po.*``), of *mode*."""
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError):  # named by the file replaced, not the temporary one
            raise OSError(exc.errno, exc.strerror, str(target)) from None
        raise
    return tmp


def _keep(tmp: Path, target: Path) -> Path:
    """*tmp* renamed beside *target* as ``<name>.saved``, ``<name>.saved-2``, ... (never
    over a file there)."""
    for n in range(1, 1000):
        kept = target.with_name(f"{target.name}.saved" + (f"-{n}" if n > 1 else ""))
        try:
            os.link(tmp, kept)
            return kept
        except FileExistsError:
            continue
    raise OSError(errno.EEXIST, "no free name to keep the catalog beside", str(target))


# renameat2(2)'s flag on Linux, renamex_np(2)'s on macOS: swap two paths in one step.
_RENAME_EXCHANGE, _RENAME_SWAP, _AT_FDCWD = 2, 2, -100


def _exchanger() -> Callable[[bytes, bytes], int] | None:
    """The C call that swaps two paths, or None where the C library has none."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
    if hasattr(libc, "renameat2"):
        call = libc.renameat2
        call.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                         ctypes.c_uint]
        return lambda a, b: int(call(_AT_FDCWD, a, _AT_FDCWD, b, _RENAME_EXCHANGE))
    if hasattr(libc, "renamex_np"):
        call = libc.renamex_np
        call.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint]
        return lambda a, b: int(call(a, b, _RENAME_SWAP))
    return None


_EXCHANGE = _exchanger()
_CANNOT = (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP)


def exchange(a: Path, b: Path) -> bool:
    """Swap the files *a* and *b* in one step (both must exist); False, with nothing
    changed, where the system or the file system cannot (then rename)."""
    if _EXCHANGE is None:
        return False
    if _EXCHANGE(os.fsencode(a), os.fsencode(b)) == 0:
        return True
    err = ctypes.get_errno()
    if err in _CANNOT:
        return False
    raise OSError(err, os.strerror(err), str(b))
