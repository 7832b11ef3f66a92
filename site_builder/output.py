"""The output folder: a staging folder next to it, files written into it as they are
rendered, then one swap. A killed build leaves the old site and a staging folder, which
the next build deletes."""

from __future__ import annotations

import errno
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

# The folders a build makes next to the output NAME, each .NAME.KIND-PID-xxxx: the staging
# folder (new), the old site while it is swapped out (old), and the folder that tries
# whether the output's folder can be written (probe).
NEW, OLD, PROBE = "new", "old", "probe"


def staging(out: Path) -> Path:
    """A new, empty staging folder next to *out*."""
    out.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{out.name}.{NEW}-{os.getpid()}-", dir=out.parent))


def clean_stale(out: Path) -> None:
    """Delete the folders next to *out* (staging, old site, probe) that builds no longer
    running left. If a build was killed between its two renames (:func:`swap`), *out* is
    missing and the old site is put back first."""
    if not out.parent.is_dir():
        return
    for entry in sorted(out.parent.glob(f".{out.name}.*-*")):
        kind, _, rest = entry.name[len(out.name) + 2:].partition("-")
        pid = rest.split("-", 1)[0]
        if kind not in (NEW, OLD, PROBE) or not pid.isdigit() or _running(int(pid)):
            continue
        if kind == OLD and not out.exists() and (entry / "site").is_dir():
            os.rename(entry / "site", out)
        shutil.rmtree(entry, ignore_errors=True)


def try_writing(where: Path, out: Path) -> None:
    """Make and remove a folder in *where* (the output's folder, or the nearest that
    exists), raising :class:`OSError` if it cannot be written. Named as the build's other
    folders, so that :func:`clean_stale` deletes one a killed build left."""
    os.rmdir(tempfile.mkdtemp(prefix=f".{out.name}.{PROBE}-{os.getpid()}-", dir=where))


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return False  # this build has not made its folders yet
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def write_file(base: Path, rel: str, data: bytes | Iterable[bytes]) -> tuple[int, int]:
    """Write one output file under *base*, given whole or in pieces, as a new file (a
    file linked from the old site is replaced, never changed); its size and
    modification time, for the build's record."""
    target = os.path.join(base, rel)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    try:
        fd = os.open(target, flags, 0o644)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        fd = os.open(target, flags, 0o644)
    except FileExistsError:
        os.unlink(target)
        fd = os.open(target, flags, 0o644)
    try:
        for piece in (data,) if isinstance(data, bytes) else data:
            view = memoryview(piece)
            while view:
                view = view[os.write(fd, view):]
        st = os.fstat(fd)
    finally:
        os.close(fd)
    return st.st_size, st.st_mtime_ns


def carry_over(out: Path, tmp: Path, files: Iterable[str]) -> None:
    """Link *files* of the current site into the staging folder (copy them where links
    are not possible): a language that is not rendered again."""
    for rel in files:
        target = tmp / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(out / rel, target)
        except OSError:
            shutil.copy2(out / rel, target)


def swap(tmp: Path, out: Path) -> None:
    """Replace *out* by the staging folder *tmp* in one step, the old site deleted after.

    On Linux the two folders are exchanged by one ``renameat2(RENAME_EXCHANGE)``, so
    *out* is at every moment the whole old site or the whole new one. Elsewhere (or on a
    file system without it) it takes two renames, and a build killed between them leaves
    *out* missing until the next build puts the old site back (:func:`clean_stale`)."""
    os.chmod(tmp, 0o755)
    if out.exists() and _exchange(tmp, out):
        shutil.rmtree(tmp, ignore_errors=True)  # now the old site; if killed, clean_stale
        return
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.{OLD}-{os.getpid()}-", dir=out.parent))
        os.rename(out, old / "site")
    os.rename(tmp, out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Exchange folders *a* and *b* atomically; False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:  # a C library older than glibc 2.28
        return False
    at_fdcwd, rename_exchange = -100, 2  # from <fcntl.h> and <linux/fs.h>
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):  # not on this file system
        return False
    raise OSError(code, os.strerror(code), str(b))
