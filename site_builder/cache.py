"""The build cache: content hashes of every input, and a git-ignored folder that keeps results.

Everything a build produces is a function of its inputs: the content files, the
profiles and site settings, the catalogs, the templates, the base URL, and the code
that turns them into pages (``site_builder`` including the engine, and the versions
of Jinja2, Babel, Markdown and Python). :func:`code_version` hashes the code; the
build hashes the rest. A cached result is used only when the hash of everything it
was made from is the same, so a cached build is byte for byte the build without cache.

The folder is ``ROOT/.cache/site-builder/``; deleting it is always safe.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

CACHE_DIR = ".cache/site-builder"
PACKAGE_DIR = Path(__file__).resolve().parent
LIBRARIES = ("jinja2", "babel", "markdown", "markupsafe")  # their import names

_code_version: str | None = None


def digest(*parts: bytes | str) -> str:
    """A short content hash of *parts* (each one length-prefixed, so parts cannot run together).

    >>> digest("a", "bc") == digest("ab", "c")
    False
    """
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def file_digest(path: Path) -> str:
    return digest(path.read_bytes())


def tree_digest(base: Path, pattern: str = "*") -> str:
    """One hash of every file under *base* (names and bytes), in a stable order."""
    h = hashlib.blake2b(digest_size=16)
    if base.is_dir():
        for path in sorted(base.rglob(pattern)):
            rel = path.relative_to(base).as_posix().encode("utf-8")
            if not path.is_file():  # a directory, a FIFO, a dangling link: its name counts
                h.update(b"\0other\0" + rel)
                continue
            data = path.read_bytes()
            h.update(len(rel).to_bytes(8, "little") + rel + len(data).to_bytes(8, "little"))
            h.update(data)
    return h.hexdigest()


def engine_version() -> str:
    """A hash of the rules engine's source code (``site_builder/engine/**.py``)."""
    return tree_digest(PACKAGE_DIR / "engine", "*.py")


def library_version(name: str) -> str:
    """The installed version of the library imported as *name*, without importing it
    (nor :mod:`importlib.metadata`, which takes longer than a small build): the name of
    its ``.dist-info`` folder, or else its ``__init__.py``'s size and modification time.

    >>> library_version("jinja2").count(".") >= 1, library_version("no_such_library")
    (True, '?')
    """
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return "?"
    origin = Path(spec.origin)
    prefix = name.lower().replace("-", "_") + "-"
    try:
        for entry in os.listdir(origin.parent.parent):
            low = entry.lower()
            if low.startswith(prefix) and low.endswith(".dist-info"):
                return entry[len(prefix):-len(".dist-info")]
        st = origin.stat()
    except OSError:
        return "?"
    return f"{origin}:{st.st_size}:{st.st_mtime_ns}"


def code_version() -> str:
    """A hash of everything in the code that affects output.

    That is the ``site_builder`` sources (the engine via :func:`engine_version`), the
    versions of Jinja2, Babel, Markdown and MarkupSafe, and the Python version (bytecode).
    """
    global _code_version
    if _code_version is None:
        versions = [f"{lib}={library_version(lib)}" for lib in LIBRARIES]
        own = hashlib.blake2b(digest_size=16)
        for path in sorted(PACKAGE_DIR.rglob("*.py")):
            if path.parent.name == "engine":
                continue
            own.update(path.relative_to(PACKAGE_DIR).as_posix().encode() + b"\0")
            own.update(path.read_bytes())
        _code_version = digest(own.hexdigest(), engine_version(), sys.version, *versions)
    return _code_version


class Cache:
    """Pickled results by key in ``ROOT/.cache/site-builder/``; a broken entry is a miss.

    ``Cache(None)`` is a cache that never hits and never writes (``--no-cache``).
    """

    def __init__(self, root: Path | None) -> None:
        self.dir = (root / CACHE_DIR) if root is not None else None

    @property
    def enabled(self) -> bool:
        return self.dir is not None

    def path(self, kind: str, key: str) -> Path | None:
        return None if self.dir is None else self.dir / kind / f"{key}.pickle"

    def get(self, kind: str, key: str) -> Any:
        path = self.path(kind, key)
        if path is None:
            return None
        try:
            with path.open("rb") as fh:
                return pickle.load(fh)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError,
                IndexError, TypeError, ValueError):
            return None

    def put(self, kind: str, key: str, value: Any) -> None:
        path = self.path(kind, key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except OSError:
            pass  # a cache that cannot be written is only slower

    def prune(self, kind: str, keep: Iterable[str]) -> None:
        """Delete the entries of *kind* not in *keep* (old results of a changed input)."""
        if self.dir is None:
            return
        wanted = {f"{k}.pickle" for k in keep}
        folder = self.dir / kind
        if not folder.is_dir():
            return
        for entry in os.scandir(folder):
            if entry.name not in wanted:
                try:
                    os.unlink(entry.path)
                except OSError:
                    pass


def bytecode_cache(root: Path | None) -> Any:
    """A Jinja2 bytecode cache shared by every language's environment.

    Each template is compiled (or read from disk) once per build, not once per
    language, and every environment gets the same code object; with a root,
    the compiled code is also kept on disk (keyed by the template's source checksum
    and :func:`code_version`, so an edited template is compiled again).
    """
    import jinja2

    class SharedBytecodeCache(jinja2.BytecodeCache):
        def __init__(self, directory: Path | None) -> None:
            # Each template's code, by its key and checksum: loaded (or compiled) once for
            # every environment, since code objects are immutable.
            self.code: dict[str, Any] = {}
            self.directory = directory

        def _file(self, bucket: jinja2.bccache.Bucket) -> Path | None:
            return self._path(bucket.key, bucket.checksum)

        def _path(self, key: str, checksum: str) -> Path | None:
            if self.directory is None:
                return None
            return self.directory / f"{digest(code_version(), key, checksum)}.bc"

        def compiled(self, env: jinja2.Environment) -> bool:
            """Whether every template of *env* is compiled, on disk, as it is now."""
            assert env.loader is not None
            for name in env.list_templates(extensions=["html"]):
                source, filename, _ = env.loader.get_source(env, name)
                path = self._path(self.get_cache_key(name, filename),
                                  self.get_source_checksum(source))
                if path is None or not path.is_file():
                    return False
            return True

        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            code = self.code.get(bucket.key + bucket.checksum)
            if code is not None:
                bucket.code = code
                return
            path = self._file(bucket)
            if path is None:
                return
            try:
                data = path.read_bytes()
            except OSError:
                return
            bucket.bytecode_from_string(data)  # no code if the file is not Jinja2's
            if bucket.code is not None:
                self.code[bucket.key + bucket.checksum] = bucket.code

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            self.code[bucket.key + bucket.checksum] = bucket.code
            path = self._file(bucket)
            if path is not None:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
                    with os.fdopen(fd, "wb") as fh:
                        fh.write(bucket.bytecode_to_string())
                    os.replace(tmp, path)
                except OSError:
                    pass

    return SharedBytecodeCache(root / CACHE_DIR / "jinja" if root is not None else None)
