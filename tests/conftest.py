"""Shared fixtures: scratch copies of the real project, and running the CLI in-process."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PARTS = ("content", "locales", "templates", "babel.cfg")
# The client's seed pages; a copy is committed so that the tests also run outside the
# workplace, and test_seed_copy_is_current compares it with ../shared/seeds when present.
SEEDS = ROOT / "tests" / "seeds"
SHARED_SEEDS = ROOT.parent / "shared" / "seeds"


def copy_project(dest: Path) -> Path:
    """Copy what a build reads (content, catalogs, templates) into *dest*."""
    dest.mkdir(parents=True, exist_ok=True)
    for part in PROJECT_PARTS:
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, dest / part, ignore=shutil.ignore_patterns("*.mo"))
        else:
            shutil.copy2(src, dest / part)
    return dest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A scratch copy of the real project, safe to break."""
    return copy_project(tmp_path / "project")


@dataclass
class Result:
    code: int
    out: str
    err: str


def run_cli(*args: str, cwd: Path | None = None) -> Result:
    """Run ``site-builder ARGS`` as a user would, in a separate process."""
    proc = subprocess.run([sys.executable, "-m", "site_builder", *args], cwd=cwd or ROOT,
                          capture_output=True, text=True, timeout=300)
    return Result(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real site, built once per test session."""
    out = tmp_path_factory.mktemp("site") / "dist"
    result = run_cli("build", "--root", str(ROOT), "--out", str(out))
    assert result.code == 0, result.err
    return out
