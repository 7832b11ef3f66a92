"""The build cache: content hashes of every input, and the record of the last build of
each output folder, which is what a user feels: with nothing changed a build writes
nothing.

Everything a build produces is a function of its inputs: the content files, the
profiles and site settings, the catalogs, the templates, the base URL, and the code
that turns them into pages (``site_builder`` including the engine, and the versions
of Jinja2, Babel, Markdown and Python). :func:`code_version` hashes the code,
:func:`hash_inputs` the rest. A record is JSON after a hash of it: a damaged one is
ignored (the build renders everything), never trusted.

The folder is ``ROOT/.cache/site-builder/`` (the compiled templates are in ``jinja/``);
deleting it is always safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

from site_builder.output import write_atomic
from site_builder.project import (
    CACHE_DIR,
    CONTENT_DIR,
    SOURCE_LANG,
    TEMPLATES_DIR,
    discover_languages,
    po_path,
)
from site_builder.sources.parsing import parse

PACKAGE_DIR = Path(__file__).resolve().parent
LIBRARIES = ("jinja2", "babel", "markdown", "markupsafe")  # their distributions


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


def code_version() -> str:
    """A hash of everything in the code that affects output.

    That is the ``site_builder`` sources (the engine via :func:`engine_version`), the
    versions of Jinja2, Babel, Markdown and MarkupSafe, and the Python version (bytecode).
    A process that builds more than once asks once (:class:`site_builder.session.Session`):
    the code that runs does not change under it.
    """
    versions = [f"{lib}={version(lib)}" for lib in LIBRARIES]
    own = hashlib.blake2b(digest_size=16)
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        if path.parent.name == "engine":
            continue
        own.update(path.relative_to(PACKAGE_DIR).as_posix().encode() + b"\0")
        own.update(path.read_bytes())
    return digest(own.hexdigest(), engine_version(), sys.version, *versions)


def language_keys(root: Path, base_url: str | None, code: str, date: str | None
                  ) -> dict[str, str]:
    """What each language's pages depend on: the *code* (:func:`code_version`), the content
    (pages, profiles, settings), the templates, the base URL, the languages, the printed
    build *date* (:func:`site_builder.project.build_date`), and the language's catalog."""
    languages = discover_languages(root)
    shared = digest(code, tree_digest(root / CONTENT_DIR), base_url or "",
                    ",".join(languages), tree_digest(root / TEMPLATES_DIR), date or "")
    return {SOURCE_LANG: digest(shared, SOURCE_LANG),
            **{lang: digest(shared, lang, file_digest(root / po_path(lang)))
               for lang in languages}}


def hash_inputs(keys: dict[str, str]) -> str:
    """A hash of everything a build reads, from every language's key
    (:func:`language_keys`)."""
    return digest(*(f"{k}={v}" for k, v in sorted(keys.items())))


def _record_path(root: Path, out: Path) -> Path:
    return root / CACHE_DIR / f"out-{digest(str(out))}.json"


def read_record(root: Path, out: Path) -> dict[str, Any] | None:
    """The record of the last build of *out* from *root*, or None (none, damaged, or not
    of the shape a build writes: :func:`valid_record`)."""
    found = read_hashed(_record_path(root, out))
    return found if valid_record(found) else None


def read_hashed(path: Path) -> Any:
    """The JSON kept at *path* after a hash of it (:func:`write_hashed`), or None: none,
    damaged, or unreadable (a cache is only ever trusted when its hash checks out)."""
    try:
        check, _, body = path.read_bytes().partition(b"\n")
        if check.decode("ascii") == digest(body):
            found, _ = parse(json.loads, body.decode("utf-8"), str(path), "json")
            return found  # None when nested too deep: rebuilt, as any damaged cache
    except (OSError, ValueError):
        pass
    return None


def write_hashed(path: Path, value: Any) -> None:
    """Keep *value* at *path* as JSON after a hash of it, replaced in one step."""
    body = json.dumps(value, sort_keys=True).encode("utf-8")
    try:
        write_atomic(path, digest(body).encode("ascii") + b"\n" + body)
    except OSError:
        pass  # a cache that cannot be written is only slower


def valid_record(found: Any) -> bool:
    """Whether *found* has every key of a record, each of its type (a record that does
    not is ignored, as a damaged one is).

    >>> valid_record({"site": "x", "claims": 1, "fallbacks": [["pl", "a.md", 3, "Hi"]],
    ...               "languages": ["en"], "files": {"a.html": [10, 7]}})
    True
    >>> valid_record({"site": "x", "claims": 1, "languages": ["en"], "files": {}})
    False
    """
    def ints(value: Any, n: int) -> bool:
        return isinstance(value, list) and len(value) == n and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)

    return (isinstance(found, dict)
            and isinstance(found.get("site"), str)
            and ints([found.get("claims")], 1)
            and isinstance(found.get("languages"), list)
            and all(isinstance(lang, str) for lang in found["languages"])
            and isinstance(found.get("files"), dict)
            and all(ints(v, 2) for v in found["files"].values())
            and isinstance(found.get("fallbacks"), list)
            and all(isinstance(f, list) and len(f) == 4 and isinstance(f[0], str)
                    and isinstance(f[1], str) and ints([f[2]], 1) and isinstance(f[3], str)
                    for f in found["fallbacks"]))


def write_record(root: Path, out: Path, record: dict[str, Any]) -> None:
    """Keep *record* for the next build of *out* (replaced in one step)."""
    write_hashed(_record_path(root, out), record)


@dataclass(frozen=True)
class Store:
    """What one process keeps in ``ROOT/.cache/site-builder/`` for the next: one file per
    *name*, holding a value with the hash of what it was made from and of the *code*
    (:func:`code_version`). A value made from other inputs, by other code, or damaged, is
    not given: it is made again and replaces the file.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     store = Store(Path(d), "code-1")
    ...     store.put("catalog-pl", "bytes-1", {"a": 1})
    ...     (store.get("catalog-pl", "bytes-1"), store.get("catalog-pl", "bytes-2"),
    ...      Store(Path(d), "code-2").get("catalog-pl", "bytes-1"))
    ({'a': 1}, None, None)
    """

    folder: Path
    code: str

    def get(self, name: str, key: str) -> Any:
        found = read_hashed(self.folder / f"{name}.json")
        if isinstance(found, dict) and found.get("key") == digest(self.code, key):
            return found.get("value")
        return None

    def put(self, name: str, key: str, value: Any) -> None:
        write_hashed(self.folder / f"{name}.json", {"key": digest(self.code, key),
                                                    "value": value})


def forget_record(root: Path, out: Path) -> None:
    """Delete the record of *out* (before its folder is replaced)."""
    try:
        _record_path(root, out).unlink()
    except OSError:
        pass


def files_match(out: Path, files: dict[str, Any]) -> bool:
    """Whether *out* holds the recorded *files* as they were written (size, mtime). A
    file or folder that the build did not write is no change but a reason to refuse the
    folder (:func:`site_builder.output.refusal`, asked first)."""
    try:
        for rel, expected in files.items():
            st = os.stat(out / rel)
            if [st.st_size, st.st_mtime_ns] != list(expected):
                return False
    except (OSError, TypeError, ValueError):
        return False
    return True
