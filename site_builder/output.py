"""Stage 4, write: a staging folder next to the output, files written into it as they
are rendered, then one atomic exchange puts it in place of the output. A build holds a
lock on the output's folder from start to end (:func:`locked`), so builds of one output
queue up, and what a killed build left next to it is the next build's to clean up.

Whether a folder may be replaced by a build is decided here, and only here
(:func:`refusal`): a build replaces the whole folder, so it must hold nothing but what a
build wrote. It is asked before the build, again under the lock, and once more of the
folder actually moved away, immediately before and after the exchange: another program
may have put a folder of its own there meanwhile."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from site_builder.errors import Problem, UserError
from site_builder.project import SOURCE_DIRS

# The folders a build makes next to the output NAME, each .NAME.KIND-PID-xxxx: the staging
# folder (new), the old site while it is swapped out (old), and the folder that tries
# whether the output's folder can be written (probe). Each of the first two holds
# LEFTOVER-<its own name>, an empty file: only such a folder is a build's to delete
# (a user's backup named .dist.old-2024-backup is kept); a probe is only ever
# removed empty.
NEW, OLD, PROBE = "new", "old", "probe"
LEFTOVER = ".site-builder-leftover"
SITE = "site"  # the site inside a staging or old folder


def _claim(folder: Path) -> Path:
    """The file that marks *folder* as a build's own: named after the folder, so that a
    copy of it under another name (a user's backup) is not the build's."""
    return folder / f"{LEFTOVER}-{folder.name}"


def _claimed(folder: Path) -> Path:
    """Mark *folder* (just made, empty) as the build's own (one step: a file made)."""
    os.close(os.open(_claim(folder), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    return folder


def _ours(folder: Path) -> bool:
    """Whether *folder* was made by a build (:func:`_claimed`)."""
    return os.path.isfile(_claim(folder)) and not os.path.islink(_claim(folder))


def _remove(folder: Path) -> None:
    """Delete the claimed *folder*, its claim last, and only once nothing else is left in
    it: a build killed while deleting it, or a file that something still wrote there,
    leaves a folder that is still claimed, which the next build deletes."""
    claim = _claim(folder)
    for _ in range(3):
        try:
            with os.scandir(folder) as entries:
                rest = [Path(e.path) for e in entries if e.name != claim.name]
        except OSError:
            return
        if not rest:
            with contextlib.suppress(OSError):
                claim.unlink()
                folder.rmdir()
            return
        for entry in rest:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    entry.unlink()


def staging(out: Path) -> Path:
    """A new, empty staging folder for *out*: ``SITE`` inside a claimed folder next to it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    folder = _claimed(Path(tempfile.mkdtemp(prefix=f".{out.name}.{NEW}-{os.getpid()}-",
                                            dir=out.parent)))
    (folder / SITE).mkdir()
    return folder / SITE


def discard(tmp: Path) -> None:
    """Delete the staging folder of *tmp* (:func:`staging`), of a build that failed."""
    if _ours(tmp.parent):
        _remove(tmp.parent)
    else:
        shutil.rmtree(tmp, ignore_errors=True)


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
    """Delete the folders next to *out* that killed builds left (a staging folder, an
    old site, an empty probe); called with the lock held (:func:`locked`), so no running
    build owns them. Only a folder that a build claimed (:data:`LEFTOVER`) is deleted
    with what it holds, whatever its name (any other only if empty); if a build was
    killed with *out* missing (two renames, where the file system cannot exchange), the
    old site is put back first."""
    if not out.parent.is_dir():
        return
    for entry in sorted(out.parent.glob(f".{out.name}.*-*")):
        kind, _, rest = entry.name[len(out.name) + 2:].partition("-")
        if kind not in (NEW, OLD, PROBE) or not rest.split("-", 1)[0].isdigit() \
                or entry.is_symlink() or not entry.is_dir():
            continue
        if kind == PROBE or not _ours(entry):
            with contextlib.suppress(OSError):
                entry.rmdir()  # only if empty (a build killed before it claimed the folder)
            continue
        if kind == OLD and not os.path.lexists(out) and (entry / SITE).is_dir():
            os.rename(entry / SITE, out)
        _remove(entry)


def try_writing(where: Path, out: Path) -> None:
    """Make and remove a folder in *where* (the output's folder, or the nearest that
    exists), raising :class:`OSError` if it cannot be written. Named as the build's other
    folders, so that :func:`clean_stale` deletes one a killed build left (empty)."""
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


_RENAME_EXCHANGE, _AT_FDCWD = 2, -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap the folders *a* and *b* in one step (Linux's ``renameat2(RENAME_EXCHANGE)``),
    so that a reader of *b* never finds it missing; False where the
    system or the file system cannot. (The C library is opened each time, once a build:
    nothing is kept between builds.)"""
    try:
        call = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    if call(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def swap(tmp: Path, out: Path, recorded: Mapping[str, Sequence[int]] | None = None) -> None:
    """Put the staging folder *tmp* (:func:`staging`) in place of *out*, then delete the
    old site; called with the lock held. *out* is asked whether it may be replaced
    (:func:`refusal`; *recorded*: the build record's files) immediately before, and
    what was moved away is asked again: if another writer put a folder of its own there
    meanwhile, it is put back and the build refused, never deleted.

    Where the file system can, the two folders are exchanged in one step: *out* is
    never missing, not even for a reader of the preview. Elsewhere two
    renames: a build killed between them leaves *out* missing and the old site next to
    it, in a claimed folder, which the next build puts back (:func:`clean_stale`)."""
    problem = refusal(out, recorded=recorded)
    if problem is not None:
        raise UserError(problem)
    os.chmod(tmp, 0o755)
    folder = tmp.parent
    if not os.path.lexists(out):
        os.rename(tmp, out)  # onto nothing, or an empty folder made meanwhile
        _remove(folder)
        return
    if _exchange(tmp, out):
        problem = refusal(tmp, recorded=recorded)  # what was moved away
        if problem is not None:
            _exchange(tmp, out)  # put back, whatever it is
            raise UserError(problem)
        _remove(folder)
        return
    old = _claimed(Path(tempfile.mkdtemp(prefix=f".{out.name}.{OLD}-{os.getpid()}-",
                                         dir=out.parent)))
    os.rename(out, old / SITE)
    problem = refusal(old / SITE, recorded=recorded)
    if problem is not None:
        os.unlink(_claim(old))  # no longer the build's to delete, even if it stays
        with contextlib.suppress(OSError):
            os.rename(old / SITE, out)
            os.rmdir(old)
        raise UserError(problem)
    os.rename(tmp, out)
    _remove(folder)
    _remove(old)


def write_atomic(path: Path, data: bytes, mode: int = 0o644,
                 unchanged: Callable[[], None] | None = None) -> None:
    """Replace the file *path* by *data* in one step: written to a temporary file next to
    it, then renamed over it, so that a reader, a kill or a full disk never leaves half a
    file there (the temporary file is removed on failure, and an :class:`OSError` names
    *path*, not the temporary file). *unchanged* is called once the temporary file is
    written, immediately before the rename, and raises to leave *path* alone, so that
    a save made while the file was written is not lost). *path* is a file, not a
    symlink (see :func:`site_builder.i18n.gnu.write_if_changed`, which writes through one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
        if unchanged is not None:
            unchanged()
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):  # named by the file replaced, not the temporary one
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise


# The file a build writes last into its output: the list of every other file it wrote
# (with sizes) after a hash of that list. A folder holding a marker whose hash checks
# out, and nothing that it does not list, was written by a build (:func:`refusal`); a
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


def marked_files(out: Path) -> set[str] | None:
    """The files that the marker in *out* lists (:func:`marker`), or None if there is no
    marker, its hash does not check out, or it lists a path outside *out*. The files
    need not be there, nor as written: a build restores them."""
    try:
        with open(out / MARKER, "rb") as fh:
            data = fh.read(64 << 20)
        head, _, body = data.partition(b"\n")
        if head != _MARKER_HEAD + _hash(body):
            return None
        found = set()
        for line in body.decode("utf-8").splitlines():
            rel = line.partition(" ")[2]
            if not rel or rel.startswith("/") or "\\" in rel or "\x00" in rel \
                    or any(part in ("", ".", "..") for part in rel.split("/")):
                return None
            found.add(rel)
    except (OSError, ValueError):
        return None
    return found


def _recorded_files(out: Path, recorded: Mapping[str, Sequence[int]] | None) -> set[str] | None:
    """The files of the build record, if *out* holds every one as that build wrote it
    (size, modification time): an output written before builds wrote their marker."""
    if not recorded:
        return None
    try:
        for rel, expected in recorded.items():
            if rel == MARKER:
                continue
            st = os.lstat(out / rel)
            if [st.st_size, st.st_mtime_ns] != list(expected):
                return None
    except (OSError, ValueError, TypeError):
        return None
    return set(recorded) - {MARKER}


def unlisted(out: Path, files: set[str], limit: int = 6) -> list[str]:
    """Up to *limit* entries under *out* that are neither a listed file (nor the marker)
    nor a folder on the way to one, each folder once (``photos/``), in name order."""
    folders = {parent.as_posix() for rel in files for parent in Path(rel).parents}
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(out):
        here = Path(dirpath).relative_to(out)
        dirnames.sort()
        keep = []
        for name in dirnames:
            rel = (here / name).as_posix()
            if os.path.islink(os.path.join(dirpath, name)):
                filenames.append(name)  # a link is an entry, never followed
            elif rel in folders:
                keep.append(name)
            else:
                found.append(rel + "/")
        dirnames[:] = keep
        for name in sorted(filenames):
            rel = (here / name).as_posix()
            if rel not in files and rel != MARKER:
                found.append(rel)
        if len(found) >= limit:
            break
    return sorted(found)[:limit]


def refusal(out: Path, root: Path | None = None,
            recorded: Mapping[str, Sequence[int]] | None = None) -> Problem | None:
    """Why a build may not replace the folder *out*, or None: the one place that decides
    it. Refused: a folder that is, holds or lies in a source folder
    of *root* (the project, content/, locales/, templates/); a file, or a file on the way;
    a mount point (it cannot be renamed); and a folder holding anything that its build's
    marker does not list (:func:`marked_files`; for an output from before the marker,
    the build record's *recorded* files, all there as written): nothing of a user's is
    ever deleted, and those entries are named. Listed files that are missing or changed
    are no reason: the build restores them."""
    if root is not None:
        target, project = out.resolve(), root.resolve()
        for source in [project, *(project / name for name in SOURCE_DIRS)]:
            if target == source or source.is_relative_to(target) or (
                    source != project and target.is_relative_to(source)):
                shown = "the project folder" if source == project else f"{source.name}/"
                return Problem(str(out), 0, f"the output folder would replace {shown}, which "
                                            "holds sources; choose an output folder outside "
                                            "them, e.g. dist")
    for parent in [out, *out.parents]:
        if os.path.lexists(parent) and not parent.is_dir():
            shown = "it" if parent == out else str(parent)
            return _refused(out, f"{shown} is a file, not a folder; pass --out with a folder")
    if not out.is_dir():
        return None
    if os.path.ismount(out):
        return _refused(out, "it is a mount point, which a build cannot replace; pass --out "
                             "with a folder inside it")
    files = marked_files(out)
    if files is None:
        files = _recorded_files(out, recorded)
    found = unlisted(out, files or set())
    if not found:
        return None
    shown = ", ".join(found[:5]) + (", ..." if len(found) > 5 else "")
    where = f"no valid {MARKER} in it" if files is None else f"not listed in its {MARKER}"
    return _refused(out, f"it holds files that no build of site-builder wrote: {shown} "
                         f"({where}), and a build "
                         "replaces the whole folder; move them elsewhere, or pass --out "
                         "with a new or empty folder, or one that a build wrote")


def _refused(out: Path, why: str) -> Problem:
    return Problem("site-builder", 0, f"--out {out}: {why}")
