"""Stage 4, write: a staging folder next to the output, files written into it as they
are rendered, then two renames put it in place of the output. A build holds a lock on the
output's folder from start to end (:func:`locked`), so builds of one output queue up, and
what a killed build left next to it (a staging folder, or the old site between the two
renames) is the next build's to clean up: it puts the old site back if the output is
missing, then deletes the rest."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

# The folders a build makes next to the output NAME, each .NAME.KIND-PID-xxxx: the staging
# folder (new), the old site while it is swapped out (old), and the folder that tries
# whether the output's folder can be written (probe).
NEW, OLD, PROBE = "new", "old", "probe"


def staging(out: Path) -> Path:
    """A new, empty staging folder next to *out*."""
    out.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{out.name}.{NEW}-{os.getpid()}-", dir=out.parent))


@contextlib.contextmanager
def locked(out: Path) -> Iterator[None]:
    """Hold an exclusive lock on the folder of *out* (made if missing) while the block
    runs: another build of an output there waits for it. The lock is the folder's own
    (``flock``), so it leaves no file behind and ends with the process, however it ends."""
    out.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(out.parent, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def clean_stale(out: Path) -> None:
    """Delete the folders next to *out* (staging, old site, probe) that killed builds
    left; called with the lock held (:func:`locked`), so no running build owns them. If a
    build was killed between its two renames (:func:`swap`), *out* is missing and the old
    site is put back first."""
    if not out.parent.is_dir():
        return
    for entry in sorted(out.parent.glob(f".{out.name}.*-*")):
        kind, _, rest = entry.name[len(out.name) + 2:].partition("-")
        pid = rest.split("-", 1)[0]
        if kind not in (NEW, OLD, PROBE) or not pid.isdigit():
            continue
        if kind == OLD and not out.exists() and (entry / "site").is_dir():
            os.rename(entry / "site", out)
        shutil.rmtree(entry, ignore_errors=True)


def try_writing(where: Path, out: Path) -> None:
    """Make and remove a folder in *where* (the output's folder, or the nearest that
    exists), raising :class:`OSError` if it cannot be written. Named as the build's other
    folders, so that :func:`clean_stale` deletes one a killed build left."""
    os.rmdir(tempfile.mkdtemp(prefix=f".{out.name}.{PROBE}-{os.getpid()}-", dir=where))


def write_file(base: Path, rel: str, data: bytes | Iterable[bytes]) -> tuple[int, int]:
    """Write one output file under *base*, given whole or in pieces, as a new file; its
    size and modification time, for the build's record."""
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


def swap(tmp: Path, out: Path) -> None:
    """Put the staging folder *tmp* in place of *out* by two renames, the old site
    deleted after. A build killed between the two leaves *out* missing and the old site
    next to it, which the next build puts back (:func:`clean_stale`)."""
    os.chmod(tmp, 0o755)
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.{OLD}-{os.getpid()}-", dir=out.parent))
        os.rename(out, old / "site")
    os.rename(tmp, out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def write_atomic(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Replace the file *path* by *data* in one step: written to a temporary file next to
    it, then renamed over it, so that a reader, a kill or a full disk never leaves half a
    file there (the temporary file is removed on failure, and an :class:`OSError` names
    *path*, not the temporary file). *path* is a file, not a symlink (see
    :func:`site_builder.i18n.gnu.write_if_changed`, which writes through one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):  # named by the file replaced, not the temporary one
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise


# The file a build writes last into its output: the list of every other file it wrote
# (with sizes) after a hash of that list. A folder holding a marker whose hash checks
# out, and every file it lists, was written by a build (:func:`written_by_build`); a
# folder that merely holds an index.html and a 404.html was not.
MARKER = ".site-builder"
_MARKER_HEAD = b"site-builder output "


def marker(files: dict[str, tuple[int, int]]) -> bytes:
    """The marker's bytes for an output of *files* (by path: size, mtime); the same
    files give the same bytes (the mtimes are left out).

    >>> marker({"b.html": (2, 9), "a.html": (1, 7)}).split(b"\\n")[1:]
    [b'1 a.html', b'2 b.html', b'']
    """
    body = "".join(f"{files[rel][0]} {rel}\n" for rel in sorted(files) if rel != MARKER)
    return _MARKER_HEAD + _hash(body.encode("utf-8")) + b"\n" + body.encode("utf-8")


def _hash(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).hexdigest().encode("ascii")


def written_by_build(out: Path) -> bool:
    """Whether the folder *out* holds a build's marker (:func:`marker`) whose hash checks
    out, and every file that it lists."""
    try:
        with open(out / MARKER, "rb") as fh:
            data = fh.read(64 << 20)
        head, _, body = data.partition(b"\n")
        if head != _MARKER_HEAD + _hash(body):
            return False
        for line in body.decode("utf-8").splitlines():
            rel = line.partition(" ")[2]
            if not rel or rel.startswith("/") or ".." in rel.split("/") \
                    or not os.path.isfile(out / rel):
                return False
    except (OSError, ValueError):
        return False
    return True
