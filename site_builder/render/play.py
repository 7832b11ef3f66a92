"""The practice table's files: the Python runtime for the browser (npm
``pyodide``, copied from ``node_modules``, never fetched from a CDN) and the rules engine
packed as a zip named by its content hash, so that the table plays the very rules that
verified the pages.

Only a site with a practice page (front matter ``play: true``) needs them. The runtime
is found in the site's own ``node_modules/pyodide`` (``npm ci``; ``scripts/setup`` and
the GitHub workflow run it), and nowhere else.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path

from babel import Locale

from site_builder.errors import Problem, UserError
from site_builder.sources.parsing import parse

PACKAGE_DIR = Path(__file__).resolve().parent.parent
ENGINE_DIR = PACKAGE_DIR / "engine"
#: The runtime's files the page loads (``loadPyodide({indexURL})`` fetches the last four).
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
PLAY_DIR = "assets/play"
# The practice page's Content-Security-Policy is that of every page in a language folder
# (render/context.py, SEARCH_CSP), which already has what the runtime needs: script-src 'self'
# 'wasm-unsafe-eval' to compile the Python interpreter (WebAssembly; it allows no JavaScript
# eval or new Function) and connect-src 'self' to fetch the interpreter, its standard library
# and the engine. Pagefind's search needs the same two, so the table loosens nothing.
# A fixed date for every member of the engine's zip: the same sources, the same bytes.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def runtime_dir(root: Path) -> Path | None:
    """Where the npm ``pyodide`` package is: in *root*'s own ``node_modules``, as
    ``npm ci`` puts it there; None if it is missing or incomplete. Never elsewhere: a
    build reads only the project it builds, so that what passes on a developer's machine
    passes on a fresh checkout too."""
    found = root / "node_modules" / "pyodide"
    if all((found / name).is_file() for name in RUNTIME_FILES):
        return found
    return None


def runtime_version(found: Path) -> str:
    """The runtime's version, from its ``package.json`` (it names the output folder)."""
    rel = "node_modules/pyodide/package.json"
    try:
        data, problem = parse(json.loads, (found / "package.json").read_text("utf-8"), rel,
                              "json")
    except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError included
        problem = Problem(rel, 0, f"cannot read the runtime's version: {exc}; run 'npm ci' "
                                  "again")
    if problem is not None:
        raise UserError([problem])
    version = data.get("version", "") if isinstance(data, dict) else ""
    return "".join(ch for ch in str(version) if ch.isalnum() or ch in ".-") or "0"


def missing_runtime() -> UserError:
    """The one-line error when a site has a practice page and the runtime is not installed."""
    return UserError([Problem("node_modules/pyodide", 0,
                              "the practice page needs the Python runtime for the browser "
                              "(npm pyodide, in package.json): run 'npm ci' (or bash "
                              "scripts/setup)")])


def engine_archive() -> tuple[str, bytes]:
    """The rules engine as a zip (``site_builder/engine`` and an empty package
    ``site_builder``), deterministic: members sorted, one fixed date and mode. Its file
    name carries the first 16 hex digits of its SHA-256.

    >>> name, data = engine_archive()
    >>> name.startswith("engine-") and name.endswith(".zip"), engine_archive()[1] == data
    (True, True)
    >>> "site_builder/engine/play/table.py" in zipfile.ZipFile(io.BytesIO(data)).namelist()
    True
    """
    members = {"site_builder/__init__.py": b'"""The rules engine of site_builder."""\n'}
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        rel = path.relative_to(PACKAGE_DIR.parent).as_posix()
        members[rel] = path.read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, members[name], compresslevel=9)
    data = buffer.getvalue()
    return f"engine-{hashlib.sha256(data).hexdigest()[:16]}.zip", data


def runtime_path(root: Path) -> str:
    """The runtime's folder in the output (``assets/pyodide/<version>``)."""
    found = runtime_dir(root)
    if found is None:
        raise missing_runtime()
    return f"assets/pyodide/{runtime_version(found)}"


def files(root: Path, archive: tuple[str, bytes]) -> list[tuple[str, bytes]]:
    """The output files the practice page loads: the runtime and the packed engine
    (*archive*: :func:`engine_archive`'s, made once a build)."""
    found = runtime_dir(root)
    if found is None:
        raise missing_runtime()
    folder = runtime_path(root)
    out = [(f"{folder}/{name}", (found / name).read_bytes()) for name in RUNTIME_FILES]
    name, data = archive
    out.append((f"{PLAY_DIR}/{name}", data))
    return out


def plural_samples(lang: str) -> dict[str, int]:
    """For each CLDR plural category of *lang*, the smallest whole number in it: the page
    renders each plural message once per category (``ngettext`` with that number), and the
    script picks the form by ``Intl.PluralRules``, which follows the same CLDR rules.

    >>> plural_samples("en"), plural_samples("pl"), plural_samples("ms")
    ({'other': 0, 'one': 1}, {'many': 0, 'one': 1, 'few': 2}, {'other': 0})
    """
    rule = Locale.parse(lang).plural_form
    out: dict[str, int] = {}
    for n in range(0, 200):
        out.setdefault(rule(n), n)
    return out

