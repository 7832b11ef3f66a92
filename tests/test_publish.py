"""For the people who publish the site and run CI: annotations, the command line's edges."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, keep_two_languages, run_cli

FM = "content/first-meld.md"


def break_line(project: Path, rel: str, old: str, new: str) -> int:
    """Replace *old* by *new* on its line of *rel*; return that line's number."""
    path = project / rel
    lines = path.read_text(encoding="utf-8").split("\n")
    number = next(i for i, line in enumerate(lines, 1) if old in line)
    lines[number - 1] = lines[number - 1].replace(old, new)
    path.write_text("\n".join(lines), encoding="utf-8")
    return number


# --- check --format github --------------------------------------------------------------------

def test_github_annotations_point_at_the_broken_line(project: Path) -> None:
    line = break_line(project, FM, "total: 52", "total: 53")
    result = run_cli("check", "--format", "github", "--root", str(project))
    assert result.code == 2, result.err
    errors = [x for x in result.out.splitlines() if x.startswith("::error ")]
    assert len(errors) == 1, result.out
    head, message = errors[0].split("::", 2)[1:]
    assert head == f"error file={FM},line={line},title=site-builder check"
    assert "stated total 53, the engine computes 52" in message
    # the same problem as the text format reports it
    text = run_cli("check", "--root", str(project))
    assert text.code == 2 and f"{FM}:{line}: " + message in text.err


def test_github_warnings_for_fuzzy_and_missing_translations(project: Path) -> None:
    keep_two_languages(project)  # the formats of one report: any number of languages
    po = project / "locales" / "pl" / "LC_MESSAGES" / "messages.po"
    lines = po.read_text(encoding="utf-8").split("\n")
    at = next(i for i, x in enumerate(lines) if x == 'msgid "Goal"')
    lines.insert(at, "#, fuzzy")
    baseline = set(run_cli("check", "--format", "github", "--root", str(project))
                   .out.splitlines())  # messages not yet translated at all, if any
    po.write_text("\n".join(lines), encoding="utf-8")
    result = run_cli("check", "--format", "github", "--root", str(project))
    assert result.code == 0, result.out + result.err
    warnings = [x for x in result.out.splitlines()
                if x.startswith("::warning ") and x not in baseline]
    assert warnings == ["::warning file=locales/pl/LC_MESSAGES/messages.po,"
                        f"line={at + 2},title=site-builder check::"
                        "[pl] fuzzy translation, shown in English: 'Goal'"]
    assert "::error" not in result.out
    strict = run_cli("check", "--format", "github", "--strict", "--root", str(project))
    assert strict.code == 2
    assert [x.replace("::error ", "::warning ", 1) for x in strict.out.splitlines()
            if x.startswith("::")] == [x for x in result.out.splitlines()
                                       if x.startswith("::")]
    text = run_cli("check", "--root", str(project))
    assert text.code == 0 and f"{len(baseline) + 1} translations missing or fuzzy" in text.out
    report = json.loads(run_cli("check", "--format", "json", "--root", str(project)).out)
    assert report["ok"] and at + 2 in [w["line"] for w in report["warnings"]
                                       if w["source"].startswith("locales/pl/")]


def test_github_escapes_properties_and_messages(project: Path) -> None:
    """A message with %, a newline or a comma in the file name stays one command."""
    from site_builder.errors import Problem, workflow_command

    line = workflow_command("error", Problem("content/a,b:c.md", 4, "100%\r\nsure"), "t,x")
    assert line == "::error file=content/a%2Cb%3Ac.md,line=4,title=t%2Cx::100%25%0D%0Asure"


def test_json_alias_and_format_json_agree() -> None:
    a, b = run_cli("check", "--json"), run_cli("check", "--format", "json")
    assert a.code == b.code == 0 and a.out == b.out and json.loads(a.out)["ok"]


@pytest.mark.parametrize("args", [("check", "--format", "xml"),
                                  ("i18n", "stats", "--format", "yaml")])
def test_unknown_format_is_a_one_line_usage_error(args: tuple[str, ...]) -> None:
    result = run_cli(*args)
    assert result.code == 2 and result.out == ""
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert "invalid choice" in result.err and "github" in result.err


@pytest.mark.parametrize("threshold", ["-1", "100.5", "nan", "ninety"])
def test_a_threshold_outside_0_to_100_is_refused(threshold: str) -> None:
    result = run_cli("i18n", "stats", "--fail-under", threshold)
    assert result.code == 2 and result.out == ""
    assert result.err.strip() == (f"site-builder i18n stats: error: argument --fail-under: "
                                  f"{threshold} is not a percentage: give a number from 0 "
                                  "to 100 (see --help)")


def test_stats_github_annotates_languages_under_the_threshold(project: Path) -> None:
    keep_two_languages(project)  # and the one added: any number of languages
    assert run_cli("i18n", "init", "de", "--root", str(project)).code == 0
    result = run_cli("i18n", "stats", "--format", "github", "--fail-under", "50",
                     "--root", str(project))
    assert result.code == 1
    assert result.out.splitlines() == [
        "::error file=locales/de/LC_MESSAGES/messages.po,title=translation coverage::"
        "de is 0.0%25 translated, under the 50%25 required (--fail-under)"]
    ok = run_cli("i18n", "stats", "--format", "github", "--fail-under", "0",
                 "--root", str(project))
    assert ok.code == 0 and ok.out == ""


def test_stats_github_annotates_a_catalog_it_cannot_read(project: Path) -> None:
    po = project / "locales" / "pl" / "LC_MESSAGES" / "messages.po"
    lines = po.read_text(encoding="utf-8").splitlines()
    bad = next(i for i, line in enumerate(lines) if line.startswith("msgstr ") and i > 20)
    lines[bad] = "msgstr unquoted"
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("i18n", "stats", "--format", "github", "--root", str(project))
    assert result.code == 2
    annotations = result.out.splitlines()
    assert annotations and all(a.startswith("::error file=locales/pl/LC_MESSAGES/messages.po,")
                               for a in annotations)
    assert f",line={bad + 1}," in annotations[0]
    assert "Traceback" not in result.err
    text = run_cli("i18n", "stats", "--root", str(project))  # as before: path:line on stderr
    assert text.code == 2 and text.out == ""
    assert f"locales/pl/LC_MESSAGES/messages.po:{bad + 1}:" in text.err


# --- the command line's rough edges ---------------------------------------------------------

def engine(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "site_builder", "engine", *args],
                          capture_output=True, text=True, cwd=ROOT)


def test_opening_takes_melds_separated_by_a_bar() -> None:
    apart = engine("opening", "--game", "rami51", "QH KH AH", "JK 7S 8S")
    together = engine("opening", "--game", "rami51", "QH KH AH | JK 7S 8S")
    assert apart.returncode == together.returncode == 0
    assert together.stdout == apart.stdout
    assert json.loads(together.stdout)["total"] == 52
    empty = engine("opening", "--game", "rami51", "QH KH AH || JK 7S 8S")
    assert empty.returncode == 2 and empty.stderr.strip() == (
        "site-builder: meld 2 has no cards (melds are separated by | or given as separate "
        "arguments)")


def test_variation_selectors_after_a_suit_are_ignored() -> None:
    plain = engine("meld", "--game", "rami51", "Q\u2665", "K\u2665", "A\u2665")
    emoji = engine("meld", "--game", "rami51", "Q\u2665\ufe0f", "K\u2665\ufe0e", "A\u2665\ufe0f")
    assert plain.returncode == emoji.returncode == 0, emoji.stderr
    assert emoji.stdout == plain.stdout
    assert json.loads(emoji.stdout)["points"] == 31
    # only after a suit: a selector after a rank is not a card
    bad = engine("meld", "--game", "rami51", "Q\ufe0fH", "KH", "AH")
    assert bad.returncode == 2 and "card 1" in bad.stderr


def test_game_names_in_any_case() -> None:
    upper = engine("meld", "--game", "RAMI51", "JK", "7S", "8S")
    lower = engine("meld", "--game", "rami51", "JK", "7S", "8S")
    assert upper.returncode == 0 and upper.stdout == lower.stdout
    assert engine("hand", "--game", "CardVerse", "AH").returncode == 0


def test_a_closed_pipe_ends_quietly() -> None:
    """``check --json | head``: the reader goes away; no 'internal error', no traceback,
    and the exit status of a process ended by a closed pipe (128 + SIGPIPE)."""
    proc = subprocess.Popen([sys.executable, "-m", "site_builder", "check", "--json"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before it writes: its first write meets a closed pipe
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 141, err
    assert err == ""


# --- the GitHub workflow ----------------------------------------------------------------------

WORKFLOW = ROOT / ".github" / "workflows" / "site.yml"
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    exe = BIN / name
    assert exe.exists(), f"{name} is a test dependency: pip install -e '.[test]'"
    return str(exe)


def test_workflow_passes_the_linter() -> None:
    """GitHub's workflow schema (SchemaStore's, bundled with check-jsonschema: no network)."""
    proc = subprocess.run([tool("check-jsonschema"), "--builtin-schema",
                           "vendor.github-workflows", str(WORKFLOW)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_linter_catches_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "site.yml"
    broken.write_text(WORKFLOW.read_text(encoding="utf-8").replace(
        "pages: write", "pages: admin"), encoding="utf-8")
    proc = subprocess.run([tool("check-jsonschema"), "--builtin-schema",
                           "vendor.github-workflows", str(broken)],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "admin" in proc.stdout


def workflow() -> dict[str, Any]:
    import yaml

    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_workflow_least_privilege_and_official_pages_actions() -> None:
    flow = workflow()
    assert flow["permissions"] == {"contents": "read"}
    build, deploy = flow["jobs"]["build"], flow["jobs"]["deploy"]
    assert "permissions" not in build
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    uses = [s.get("uses", "").split("@")[0] for job in (build, deploy) for s in job["steps"]]
    assert "actions/upload-pages-artifact" in uses and "actions/deploy-pages" in uses
    upload = next(s for s in build["steps"] if "upload-pages-artifact" in s.get("uses", ""))
    assert upload["with"]["path"] == "pages/"
    # published from the default branch only, never from a pull request
    for condition in (upload["if"], deploy["if"]):
        assert "github.event.repository.default_branch" in condition
        assert "github.event_name != 'pull_request'" in condition
    assert set(flow[True] if True in flow else flow["on"]) >= {"push", "pull_request"}


def test_workflow_gates_only_the_languages_declared_ready() -> None:
    """The gate is the one of content/site.toml's [ready] table, one threshold per
    language: no threshold for every language in the workflow, which a new language would
    fail until it is translated."""
    flow = workflow()
    assert "TRANSLATED_MIN_PERCENT" not in WORKFLOW.read_text(encoding="utf-8")
    runs = [s["run"] for s in flow["jobs"]["build"]["steps"] if "run" in s]
    assert [r for r in runs if "i18n stats" in r] == [
        "site-builder i18n stats --format github --gate"]


def test_workflow_installs_the_runtime_the_build_needs() -> None:
    """The build copies the practice table's runtime from node_modules: the workflow sets
    up Node and installs package-lock.json exactly, before the first site-builder step."""
    steps = workflow()["jobs"]["build"]["steps"]
    names = [s.get("uses", "").split("@")[0] or s.get("run", "").split()[0] for s in steps]
    npm = next(i for i, s in enumerate(steps) if s.get("run", "").startswith("npm ci"))
    first = next(i for i, s in enumerate(steps) if s.get("run", "").startswith("site-builder"))
    assert names.index("actions/setup-node") < npm < first, names
    assert "--ignore-scripts" in steps[npm]["run"]


def test_workflow_commands_pass_on_the_site(project: Path) -> None:
    """The workflow's own site-builder steps, run as written on a copy of this site."""
    flow = workflow()
    env = {"PATH": f"{BIN}:/usr/bin:/bin", "SITE_URL": "https://owner.github.io/rami/"}
    runs = [s["run"] for s in flow["jobs"]["build"]["steps"]
            if s.get("run", "").startswith("site-builder ")]
    assert [r.split()[1] for r in runs] == ["check", "i18n", "build"]
    for command in runs:
        proc = subprocess.run(["bash", "-c", command], cwd=project, env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, (command, proc.stdout, proc.stderr)
        assert "::error" not in proc.stdout
    index = (project / "dist" / "pl" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="https://owner.github.io/rami/pl/first-meld/"' in index


# --- the pre-commit hook ----------------------------------------------------------------------

def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org",
                    "-c", "commit.gpgsign=false", *args], cwd=cwd, check=True,
                   capture_output=True)


@pytest.mark.slow  # pre-commit sets up an environment: in the full run
def test_pre_commit_try_repo_runs_the_hook(project: Path, tmp_path: Path) -> None:
    """``pre-commit try-repo`` on this repository's hooks, in a site repository.

    The ``site-builder-check-system`` hook runs the installed site-builder (no download,
    so the test works offline); ``site-builder-check`` is the same command in an
    environment pre-commit installs from the package index.
    """
    manifest = ROOT / ".pre-commit-hooks.yaml"
    assert subprocess.run([tool("pre-commit"), "validate-manifest", str(manifest)],
                          capture_output=True).returncode == 0
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / ".pre-commit-hooks.yaml").write_bytes(manifest.read_bytes())
    git(hooks, "init", "-q")
    git(hooks, "add", "-A")
    git(hooks, "commit", "-qm", "hooks")
    line = break_line(project, FM, "total: 52", "total: 53")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "site")
    env = {"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(tmp_path),
           "PRE_COMMIT_HOME": str(tmp_path / "cache")}

    def try_repo(*files: str) -> subprocess.CompletedProcess[str]:
        which = ["--files", *files] if files else ["--all-files"]
        return subprocess.run([tool("pre-commit"), "try-repo", str(hooks),
                               "site-builder-check-system", *which],
                              cwd=project, env=env, capture_output=True, text=True,
                              timeout=300)

    unrelated = try_repo("babel.cfg")  # a commit that touches none of the site's sources
    assert unrelated.returncode == 0 and "Skipped" in unrelated.stdout, unrelated.stdout
    failed = try_repo()
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "site-builder check (installed)" in failed.stdout
    assert f"{FM}:{line}: " in failed.stdout and "stated total 53" in failed.stdout
    break_line(project, FM, "total: 53", "total: 52")
    passed = try_repo()
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


@pytest.mark.parametrize("args", [("i18n", "stats"),
                                  ("engine", "meld", "--game", "rami51", "JK", "7S", "8S")])
def test_a_closed_pipe_after_a_short_output_too(args: tuple[str, ...]) -> None:
    """A short output waits in the buffer until the end: the same quiet exit 141."""
    proc = subprocess.Popen([sys.executable, "-m", "site_builder", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 141, err
    assert "internal error" not in err and "Traceback" not in err


def test_a_message_no_catalog_has_is_a_warning_at_its_source_line(project: Path) -> None:
    baseline = set(run_cli("check", "--format", "github", "--root", str(project))
                   .out.splitlines())
    line = break_line(project, FM, "## ", "A new paragraph.\n\n## ")
    result = run_cli("check", "--format", "github", "--root", str(project))
    assert result.code == 0, result.out + result.err
    assert [x for x in result.out.splitlines() if x not in baseline] == [
        f"::warning file={FM},line={line},title=site-builder check::[{lang}] missing "
        "translation, shown in English: 'A new paragraph.'" for lang in ("id", "ms", "pl", "vi")]


# --- the workflow's hardening ------------------------------------------------------------------

LOCK = ROOT / "requirements" / "site.txt"


def test_workflow_actions_are_pinned_to_commits() -> None:
    """A tag can be moved to other code; a commit cannot. Each pin says its tag."""
    import re

    text = WORKFLOW.read_text(encoding="utf-8")
    uses = re.findall(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$", text, re.MULTILINE)
    assert len(uses) == 5
    for target, comment in uses:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", target), target
        assert re.match(r"\s+#\s*v\d", comment), (target, comment)


def test_workflow_checkout_keeps_no_credentials() -> None:
    [checkout] = [s for s in workflow()["jobs"]["build"]["steps"]
                  if s.get("uses", "").startswith("actions/checkout@")]
    assert checkout["with"]["persist-credentials"] is False


def test_workflow_publishes_from_the_default_branchs_ref_only() -> None:
    """``github.ref_name`` is a tag's name too: a tag named after the default branch
    must not publish. The condition compares the full ref, and the ref's type."""
    flow = workflow()
    upload = next(s for s in flow["jobs"]["build"]["steps"]
                  if "upload-pages-artifact" in s.get("uses", ""))
    for condition in (upload["if"], flow["jobs"]["deploy"]["if"]):
        assert "github.ref_name" not in condition
        assert "github.ref_type == 'branch'" in condition
        assert "github.ref == format('refs/heads/{0}', " \
               "github.event.repository.default_branch)" in condition


def read_lock(path: Path) -> dict[str, str]:
    """A hash-pinned lock's versions by package name, each line checked: every
    requirement exact and with the hashes of its files."""
    pins = {}
    hashes: dict[str, int] = {}
    name = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith(" "):  # a hash of the requirement above
            assert re.fullmatch(r"\s+--hash=sha256:[0-9a-f]{64}( \\)?", line), line
            hashes[name] += 1
            continue
        pinned = re.fullmatch(r"([A-Za-z0-9_.-]+)==([^\s\\;]+)( \\)?", line)
        assert pinned, line
        name = pinned[1].lower().replace("_", "-")
        pins[name], hashes[name] = pinned[2], 0
    assert all(hashes.values()), hashes  # every requirement with its files' hashes
    return pins


def test_workflow_installs_the_pinned_versions() -> None:
    """The workflow installs requirements/site.txt (exact versions) and site-builder
    without resolving anything; scripts/setup installs that lock and the test tools' one
    (requirements/test.txt), which agree on every package they share. The locks pin every
    dependency within pyproject.toml's range, and this environment has exactly those
    versions: what a fresh clone gets is what CI tested."""
    import tomllib
    from importlib.metadata import version

    from packaging.requirements import Requirement

    runs = [s["run"] for s in workflow()["jobs"]["build"]["steps"]
            if s.get("name") == "Install site-builder"]
    assert runs == ["python -m pip install --require-hashes --only-binary :all: -r "
                    "requirements/site.txt\n"
                    "python -m pip install --no-deps --no-build-isolation .\n"]
    site, test = read_lock(LOCK), read_lock(ROOT / "requirements" / "test.txt")
    assert {name: v for name, v in test.items() if name in site} == \
        {name: v for name, v in site.items() if name in test}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for spec, pins in [*((s, site) for s in project["dependencies"]),
                       *((s, test) for s in project["optional-dependencies"]["test"])]:
        req = Requirement(spec)
        name = req.name.lower().replace("_", "-")
        assert req.specifier.contains(pins[name]), (spec, pins[name])
    for name, pinned in {**site, **test}.items():
        if name not in ("setuptools", "wheel"):
            assert version(name) == pinned, (name, version(name), pinned)
    assert {"setuptools", "wheel"} <= site.keys()


def tiny_wheel(folder: Path) -> Path:
    """A minimal wheel of a package ``tiny`` 1.0, made here (no network)."""
    import zipfile

    wheel = folder / "tiny-1.0-py3-none-any.whl"
    info = "tiny-1.0.dist-info"
    files = {"tiny.py": "", f"{info}/METADATA": "Metadata-Version: 2.1\nName: tiny\n"
             "Version: 1.0\n", f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\n"
             "Root-Is-Purelib: true\nTag: py3-none-any\n"}
    files[f"{info}/RECORD"] = "".join(f"{name},,\n" for name in [*files, f"{info}/RECORD"])
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return wheel


def test_a_lock_whose_hash_does_not_match_stops_setup_in_one_line(tmp_path: Path) -> None:
    """scripts/setup installs its locks through scripts/install-locked: a file whose hash
    is not the lock's is named in one line at the lock's line, and nothing is installed;
    the right hash installs it."""
    import hashlib

    wheel = tiny_wheel(tmp_path)
    right = hashlib.sha256(wheel.read_bytes()).hexdigest()
    lock = tmp_path / "lock.txt"
    target = tmp_path / "target"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PIP_NO_INDEX": "1",
           "PIP_FIND_LINKS": str(tmp_path), "PIP_TARGET": str(target),
           "TMPDIR": str(tmp_path)}

    def install(digest: str) -> subprocess.CompletedProcess[str]:
        lock.write_text(f"# a lock\ntiny==1.0 \\\n    --hash=sha256:{digest}\n",
                        encoding="utf-8")
        return subprocess.run(["bash", str(ROOT / "scripts" / "install-locked"),
                               sys.executable, str(lock)], capture_output=True, text=True,
                              env=env, timeout=300)

    wrong = install("0" * 64)
    assert wrong.returncode == 1
    assert wrong.stdout == ""
    [line] = wrong.stderr.splitlines()
    assert line.startswith(f"setup: {lock}:2: the hash of tiny==1.0 does not match the lock")
    assert "nothing was installed" in line and "bash scripts/lock" in line
    assert not target.exists()
    good = install(right)
    assert good.returncode == 0, good.stderr
    assert (target / "tiny.py").is_file()


def declare_ready(project: Path, **gates: float) -> int:
    """Declare *gates* in the project's content/site.toml ([ready]); return the line of
    the last one."""
    path = project / "content" / "site.toml"
    text = re.sub(r"(?ms)^\[ready\].*", "", path.read_text(encoding="utf-8"))
    text += "[ready]\n" + "".join(f"{lang} = {gate}\n" for lang, gate in gates.items())
    path.write_text(text, encoding="utf-8")
    return len(text.splitlines())


def test_a_new_language_is_a_draft_until_declared_ready(project: Path) -> None:
    """A language added with i18n init is built and does not fail the gate; declared
    ready, it fails it at its catalog's first untranslated entry with its percentage; a
    ready language the site lacks, or the source language, is named at its line."""
    keep_two_languages(project)
    declare_ready(project, pl=90)
    init = run_cli("i18n", "init", "de", "--root", str(project))
    assert init.code == 0 and "draft" in init.out and "[ready]" in init.out
    gate = ["i18n", "stats", "--gate", "--format", "github", "--root", str(project)]
    draft = run_cli(*gate)
    assert draft.code == 0 and draft.out == "", draft.out + draft.err
    line = declare_ready(project, pl=90, de=50)
    ready = run_cli(*gate)
    assert ready.code == 1
    po = project / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    first = next(i for i, text in enumerate(po.read_text(encoding="utf-8").splitlines(), 1)
                 if text.startswith("msgid ") and text != 'msgid ""')
    assert ready.out.splitlines() == [
        f"::error file=locales/de/LC_MESSAGES/messages.po,line={first},title=translation "
        f"coverage::de is 0.0%25 translated, under the 50%25 its translators declared ready "
        f"(content/site.toml:{line}): translate the rest (site-builder i18n stats lists it "
        "page by page), or remove de from [ready] to publish it as a draft"]
    line = declare_ready(project, pl=90, de=0, xx=90)
    unknown = run_cli("i18n", "stats", "--gate", "--root", str(project))
    assert unknown.code == 1
    assert f"content/site.toml:{line}: xx is declared ready but has no catalog" in unknown.err
    line = declare_ready(project, en=100)
    source = run_cli("i18n", "stats", "--gate", "--root", str(project))
    assert source.code == 1 and f"content/site.toml:{line}: en is the source" in source.err


@pytest.mark.parametrize("gates, said", [
    ('ready = 90', "ready must be a table of languages"),
    ('[ready]\npl = 120', "the gate of pl must be a number from 0 to 100 (percent), not 120"),
    ('[ready]\npl = "90"', "the gate of pl must be a number from 0 to 100 (percent), not '90'"),
    ('[ready]\n"pl-PL" = 90', "'pl-PL' is not a language code"),
])
def test_a_wrong_ready_table_is_named_at_its_line(project: Path, gates: str, said: str) -> None:
    site = project / "content" / "site.toml"
    text = re.sub(r"(?ms)^\[ready\].*", "", site.read_text(encoding="utf-8")) + gates + "\n"
    site.write_text(text, encoding="utf-8")
    result = run_cli("check", "--root", str(project))
    assert result.code == 2
    assert f"content/site.toml:{len(text.splitlines())}: {said}" in result.err, result.err


@pytest.mark.slow  # a fresh environment from the package index and npm: in the full run
def test_the_workflow_publishes_from_a_fresh_checkout(tmp_path: Path) -> None:
    """The build job's run: steps, as written in site.yml and in its order, on a git
    archive of this checkout in a fresh virtual environment: no node_modules, .venv or
    checkout of the developer within reach. It stages pages/, and does so again after a
    new language is added with i18n init (a draft, which does not block the gate)."""
    flow = workflow()
    copy = tmp_path / "checkout"
    copy.mkdir()
    tree = subprocess.run(["git", "stash", "create"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout.strip() or "HEAD"
    archive = subprocess.run(["git", "archive", tree], cwd=ROOT, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(copy)], input=archive, check=True)
    assert not (copy / "node_modules").exists() and not (copy / ".venv").exists()
    venv = tmp_path / "python"  # actions/setup-python: a Python of its own, on PATH
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(Path.home()),
           "SITE_URL": "https://owner.github.io/rami/", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    steps = flow["jobs"]["build"]["steps"]
    uses = {s["uses"].split("@")[0] for s in steps if "uses" in s}
    # what the runner does for these: the checkout above, Python above, Node on /usr/bin,
    # and the upload, which takes pages/ as staged here
    assert uses == {"actions/checkout", "actions/setup-python", "actions/setup-node",
                    "actions/upload-pages-artifact"}

    def run_job() -> None:
        for step in steps:
            if "run" not in step:
                continue
            proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=copy, env=env,
                                  capture_output=True, text=True, timeout=900)
            assert proc.returncode == 0, (step["run"], proc.stdout[-3000:], proc.stderr[-3000:])
            assert "::error" not in proc.stdout, proc.stdout
        page = copy / "pages" / "pl" / "first-meld" / "index.html"
        assert '<link rel="canonical" href="https://owner.github.io/rami/pl/first-meld/"' \
            in page.read_text(encoding="utf-8")
        assert (copy / "pages" / "pl" / "play" / "index.html").is_file()
        assert not (copy / "pages" / ".site-builder").exists()

    run_job()
    import shutil
    init = subprocess.run(["site-builder", "i18n", "init", "de"], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=300)
    assert init.returncode == 0, init.stderr
    for made in ("pages", "dist", "node_modules"):  # a fresh checkout of the next push
        shutil.rmtree(copy / made)
    run_job()
    assert (copy / "pages" / "de" / "first-meld" / "index.html").is_file()


def test_the_published_site_is_the_site_without_the_marker(project: Path) -> None:
    """The Pages artifact holds the site only: the workflow's step before the
    upload, run as written after a build, gives dist/ without dist/.site-builder."""
    flow = workflow()
    [step] = [s for s in flow["jobs"]["build"]["steps"]
              if s.get("name") == "The site to publish, without the build's marker"]
    assert run_cli("build", "--root", str(project)).code == 0
    proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=project, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr

    def files(folder: Path) -> dict[str, bytes]:
        return {p.relative_to(folder).as_posix(): p.read_bytes()
                for p in sorted(folder.rglob("*")) if p.is_file()}

    site = files(project / "dist")
    assert site.pop(".site-builder")
    assert files(project / "pages") == site
