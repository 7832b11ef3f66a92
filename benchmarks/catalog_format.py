"""How far each catalog writer is from GNU gettext's layout: lines ``msgcat`` changes.

    .venv/bin/python benchmarks/catalog_format.py [--root DIR]

For each catalog under ``locales/`` it prints how many lines ``msgcat`` changes in:
the file as committed; the file as translate-toolkit's ``pypo`` writes it, every string
set again (so that pypo wraps it itself); and the file as ``site-builder i18n update``
writes it (GNU's ``msgmerge``). Zero means the writer's layout is GNU's.
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def changed_lines(data: bytes) -> int:
    """How many lines ``msgcat`` removes or adds when it rewrites *data*."""
    out = subprocess.run(["msgcat", "-"], input=data, capture_output=True, check=True).stdout
    diff = difflib.ndiff(data.decode().splitlines(), out.decode().splitlines())
    return sum(1 for line in diff if line[:1] in "+-")


def pypo_bytes(data: bytes) -> bytes:
    """*data* read and written by translate-toolkit, each string set again."""
    from translate.storage import pypo

    store = pypo.pofile(data)
    for unit in store.units:
        if unit.isheader():
            continue
        if unit.hasplural():
            unit.source = list(unit.source.strings)
            unit.target = list(unit.target.strings)
        else:
            for attr in ("source", "target"):
                text = str(getattr(unit, attr))
                setattr(unit, attr, text + "x")  # a change, so that it is quoted again
                setattr(unit, attr, text)
    return bytes(store)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    root = args.root
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp)
        for part in ("content", "locales", "templates", "babel.cfg"):
            src = root / part
            (shutil.copytree if src.is_dir() else shutil.copy2)(src, copy / part)
        for action in ("extract", "update"):
            subprocess.run([sys.executable, "-m", "site_builder", "i18n", action, "--root",
                            str(copy)], check=True, capture_output=True, cwd=root)
        print(f"{'catalog':<40} {'committed':>9} {'pypo':>6} {'update':>7}")
        for path in sorted((root / "locales").rglob("*.po*")):
            rel = path.relative_to(root)
            data = path.read_bytes()
            print(f"{rel.as_posix():<40} {changed_lines(data):>9} "
                  f"{changed_lines(msgcat_input(data, pypo_bytes)):>6} "
                  f"{changed_lines((copy / rel).read_bytes()):>7}")


def msgcat_input(data: bytes, writer: object) -> bytes:
    """What *writer* makes of the catalog once ``msgcat`` laid it out: its own wrapping
    shows, not the file's."""
    gnu = subprocess.run(["msgcat", "-"], input=data, capture_output=True,
                         check=True).stdout
    return writer(gnu)  # type: ignore[operator]


if __name__ == "__main__":
    main()
