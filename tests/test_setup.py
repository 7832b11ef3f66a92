"""The README's two commands are what CI runs, and the project's lint and type checks pass.

CI (``.ci/run``) runs exactly the README's two shell blocks, so that a fresh clone that
follows the README is what CI tests; this keeps the two from drifting apart.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

BIN = Path(sys.executable).parent


def readme_commands() -> list[str]:
    """The README's first two ``sh`` blocks, one command line each."""
    blocks = re.findall(r"^```sh\n(.*?)^```", (ROOT / "README.md").read_text(), re.M | re.S)
    return [block.strip() for block in blocks[:2]]


def ci_commands() -> list[str]:
    """The lines of ``.ci/run`` that run something (no comments, set, cd or export)."""
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    skip = ("#", "set ", "cd ", "export ")
    return [line.strip() for line in lines if line.strip() and not line.startswith(skip)]


def test_ci_runs_exactly_the_readme_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2, "the README must open with two sh blocks: set up, then test"
    assert all("\n" not in c for c in commands), commands
    assert ci_commands() == commands


def test_setup_script_is_quick_and_idempotent_when_everything_is_there() -> None:
    """Run again on a set-up tree, the script installs nothing and succeeds."""
    proc = subprocess.run(["bash", "scripts/setup"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "installing" not in proc.stderr


def test_setup_names_the_command_when_it_cannot_install(tmp_path: Path) -> None:
    """Without root or apt-get, a missing package gets one line naming the command."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # A PATH with only the basics the script uses, and no chromium, java, node or msgfmt.
    for tool in ("bash", "sha256sum", "cut", "cat", "id", "dirname", "python3"):
        found = subprocess.run(["bash", "-c", f"command -v {tool}"], capture_output=True,
                               text=True).stdout.strip()
        if found:
            (bin_dir / tool).symlink_to(found)
    proc = subprocess.run(["bash", str(ROOT / "scripts" / "setup")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": str(bin_dir)})
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    expected = r"setup: missing system packages; run: sudo apt-get install -y .*chromium.*"
    assert re.fullmatch(expected, lines[0]), lines[0]


def test_ruff() -> None:
    proc = subprocess.run([str(BIN / "ruff"), "check", "."], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_package_is_strictly_typed() -> None:
    # strict for the whole package, as pyproject.toml sets it; --strict again so that the
    # engine stays strict whatever the configuration says
    proc = subprocess.run([str(BIN / "mypy"), "--strict", "site_builder/"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
