"""The browser code passes ESLint (eslint.config.mjs, the version package-lock.json pins):
no finding on the tree, and the rules it promises do find a seeded mistake, each of them,
so that a config that checks nothing cannot pass."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

ESLINT = ROOT / "node_modules" / ".bin" / "eslint"
#: What ESLint reads: the browser code, the tests' Node scripts and the config itself.
TARGETS = ("templates", "tests", "site_builder", "eslint.config.mjs")


def eslint(*args: str, stdin: str | None = None) -> list[dict[str, object]]:
    """ESLint's findings (its JSON report), run from the repository as a developer does."""
    assert ESLINT.is_file(), "ESLint is missing: run `bash scripts/setup`"
    proc = subprocess.run([str(ESLINT), "--format", "json", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr  # 2: ESLint itself failed
    return [{"file": Path(result["filePath"]).relative_to(ROOT).as_posix(), **message}
            for result in json.loads(proc.stdout) for message in result["messages"]]


def test_the_browser_code_has_no_finding() -> None:
    findings = eslint(*TARGETS)
    assert findings == [], "\n".join(
        f"{f['file']}:{f['line']}: {f['message']} ({f['ruleId']})" for f in findings)


SEEDED = """\
import { standing } from "../score/check.js";
let total = 1;
if (total == 2) undefinedHelper(standing);
const unused = 3;
"""


def test_a_seeded_mistake_is_found_by_each_rule() -> None:
    """A practice-table module that imports another island, compares with ==, never
    reassigns a let, calls a name nobody defined and keeps a value it never reads."""
    findings = eslint("--stdin", "--stdin-filename", "templates/assets/play/seeded.js",
                      stdin=SEEDED)
    assert {(f["line"], f["ruleId"]) for f in findings} == {
        (1, "no-restricted-imports"), (2, "prefer-const"), (3, "eqeqeq"), (3, "no-undef"),
        (4, "no-unused-vars")}


def test_the_developers_pre_commit_hook_is_valid() -> None:
    """.pre-commit-config.yaml runs the same ESLint before each commit (pre-commit, a test
    tool of pyproject.toml, reads it)."""
    tool = Path(sys.executable).parent / "pre-commit"
    proc = subprocess.run([str(tool), "validate-config", ".pre-commit-config.yaml"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    config = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert "node_modules/.bin/eslint" in config
