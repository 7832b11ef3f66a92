"""The practice table's weight and speed, in Debian's Chromium.

Serves a built site (``site-builder build --out``) on 127.0.0.1 and reports:

* the practice page's own HTML in each language (raw and gzip; the budget is 30 KB);
* the runtime's download: the Python runtime (npm pyodide) and the packed engine, raw and
  gzip (what a host that compresses sends);
* from pressing Start to the first dealt hand, the median of *runs*: on a first visit (a
  fresh browser profile, nothing cached), once cached (the same profile, the page opened
  again), and both again with the CPU throttled (CDP ``Emulation.setCPUThrottlingRate``,
  ``--throttle``, 4x by default), as a phone, Start pressed as soon as the form shows;
* how long each computer move takes at the hard level, its reasons (asked once the move is
  shown), and the round's review, in the browser, throttled as above: the engine run by the
  page's runtime plays a seeded game of three hard players against the normal player's
  hints, and each ``step``, ``reasons`` and round's ``review`` is timed there
  (``time.perf_counter`` in Pyodide).

Each figure has the load average (1, 5, 15 minutes) read before it. ``--before SITE``
measures a second build the same way, run for run beside the first (each run of one, then
the same run of the other), so that the two are compared under the same load.

    .venv/bin/site-builder build --out /tmp/site
    .venv/bin/python benchmarks/play.py /tmp/site --runs 5 [--before /tmp/site-before]

The machine's load matters: say what else ran when you quote the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from playwright.sync_api import Browser, Page, sync_playwright
from reading import CHROMIUM, FLAGS, PHONE, serving  # benchmarks/reading.py, beside this

LANGS = ("en", "id", "ms", "pl", "vi")
LOAD_MS = 180_000

# Run in the page's own runtime: a seeded game of hard players, each move timed.
HARD_GAME = """
import inspect, json, time
from site_builder.engine.play.table import Table
times, explained, reviews = [], [], []
# the page shows a computer move, then asks its reasons (an engine from before that gives both)
deferred = "reasons" in inspect.signature(Table.step).parameters
table = Table.new({"game": "rami51", "levels": ["hard", "hard", "hard"], "seed": SEED})
while not table.game_over and len(times) < MOVES:
    if table.state.is_over:
        start = time.perf_counter()
        table.review()
        reviews.append(time.perf_counter() - start)
        table.next_round()
    elif table.state.turn == table.human:
        table.act(table.hint()["action"])
    else:
        start = time.perf_counter()
        table.step(reasons=False) if deferred else table.step()
        times.append(time.perf_counter() - start)
        if deferred:
            start = time.perf_counter()
            table.reasons()
            explained.append(time.perf_counter() - start)
if table.state.is_over and not reviews:
    start = time.perf_counter()
    table.review()
    reviews.append(time.perf_counter() - start)
json.dumps([times, explained, reviews])
"""


def sizes(site: Path) -> dict[str, Any]:
    """The practice pages' HTML and the runtime's files, raw and gzip, in bytes."""
    pages = {lang: (site / lang / "play" / "index.html").read_bytes() for lang in LANGS}
    runtime = sorted([*(site / "assets" / "pyodide").rglob("*"),
                      *(site / "assets" / "play").glob("engine-*.zip")])
    files = {p.relative_to(site).as_posix(): p.read_bytes() for p in runtime if p.is_file()}
    return {
        "page_html": {lang: [len(data), len(gzip.compress(data, 9))]
                      for lang, data in pages.items()},
        "runtime": {rel: [len(data), len(gzip.compress(data, 6))]
                    for rel, data in files.items()},
        "runtime_total": [sum(len(d) for d in files.values()),
                          sum(len(gzip.compress(d, 6)) for d in files.values())],
    }


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def start_to_hand(page: Page, url: str) -> float:
    """Open the practice page and time Start to the first dealt hand (seconds)."""
    # forget the game the last run left, from a page of the site that does not play it
    page.goto(urljoin(url, "/robots.txt"))
    page.evaluate("localStorage.clear()")
    page.goto(url)
    page.wait_for_selector("[data-start]:visible")
    began = time.perf_counter()
    page.click("[data-start]")
    page.wait_for_selector("[data-hand] button", timeout=LOAD_MS)
    return time.perf_counter() - began


def one_run(browser: Browser, url: str, throttle: float) -> tuple[float, float, list[float]]:
    """Start to the first hand on a first visit and once cached (seconds), and the load."""
    before = load()
    context = browser.new_context(viewport=PHONE)  # a fresh profile: nothing cached
    page = context.new_page()
    if throttle != 1:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                                {"rate": throttle})
    first = start_to_hand(page, url)
    cached = start_to_hand(page, url)
    context.close()
    return first, cached, before


def summary(results: list[tuple[float, float, list[float]]], **extra: Any) -> dict[str, Any]:
    first = [r[0] for r in results]
    cached = [r[1] for r in results]
    return {**extra, "first_visit_median_s": round(statistics.median(first), 2),
            "cached_median_s": round(statistics.median(cached), 2),
            "first_visit_s": [round(t, 2) for t in first],
            "cached_s": [round(t, 2) for t in cached],
            "load_before_each_run": [r[2] for r in results]}


def timings(browser: Browser, urls: list[str], runs: int, throttle: float
            ) -> list[dict[str, Any]]:
    """:func:`one_run` *runs* times for each of *urls*, run for run side by side."""
    results: list[list[tuple[float, float, list[float]]]] = [[] for _ in urls]
    for _ in range(runs):
        for i, url in enumerate(urls):
            results[i].append(one_run(browser, url, throttle))
    return [summary(r) for r in results]


def hard_moves(browser: Browser, url: str, seed: int, moves: int, throttle: float
               ) -> dict[str, Any]:
    """Each hard move's time, and each round review's, in the page's runtime
    (milliseconds), the CPU throttled *throttle* times."""
    before = load()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    if throttle != 1:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                                {"rate": throttle})
    page.goto(url)
    page.click("[data-start]")
    page.wait_for_selector("[data-hand] button", timeout=LOAD_MS)
    script = page.get_attribute("script[data-engine]", "data-runtime")
    times, explained, reviews = json.loads(page.evaluate("""async ([runtime, code]) => {
        const index = new URL(runtime, document.baseURI).href;
        const {loadPyodide} = await import(new URL("pyodide.mjs", index).href);
        const py = await loadPyodide({indexURL: index});
        const zip = document.querySelector("script[data-engine]").dataset.engine;
        py.unpackArchive(await (await fetch(zip)).arrayBuffer(), "zip");
        return py.runPython(code);
    }""", [script, HARD_GAME.replace("SEED", str(seed)).replace("MOVES", str(moves))]))
    context.close()
    ms = sorted(t * 1000 for t in times)
    review_ms = sorted(t * 1000 for t in reviews)
    reasons_ms = sorted(t * 1000 for t in explained)
    return {"rate": throttle, "load_before": before,
            "moves": len(ms), "median_ms": round(statistics.median(ms), 1),
            "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 1), "max_ms": round(ms[-1], 1),
            # the move's reasons, asked once the move is shown (none: an engine that gives
            # them with the move, counted in the move's time)
            "reasons_median_ms": round(statistics.median(reasons_ms), 1) if reasons_ms else None,
            "reasons_max_ms": round(reasons_ms[-1], 1) if reasons_ms else None,
            "reviews": len(review_ms),
            "review_max_ms": round(review_ms[-1], 1) if review_ms else None,
            "review_ms": [round(t, 1) for t in review_ms]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="a built site (site-builder build --out)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", default="pl")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--throttle", type=float, default=4,
                        help="how many times slower the throttled CPU runs (default 4: a phone)")
    parser.add_argument("--before", type=Path,
                        help="another build, measured the same way, run for run beside")
    args = parser.parse_args()
    sites = [args.site] + ([args.before] if args.before else [])
    reports: list[dict[str, Any]] = [{"sizes": sizes(site)} for site in sites]
    with contextlib.ExitStack() as stack, sync_playwright() as p:
        bases = [stack.enter_context(serving(site)) for site in sites]
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        urls = [f"{base}{args.lang}/play/" for base in bases]
        for report, found in zip(reports, timings(browser, urls, args.runs, 1), strict=True):
            report["start_to_first_hand"] = found
        throttled = timings(browser, urls, args.runs, args.throttle)
        for report, found in zip(reports, throttled, strict=True):
            report["start_to_first_hand_throttled"] = {"rate": args.throttle, **found}
        for report, url in zip(reports, urls, strict=True):
            report["hard_move"] = hard_moves(browser, url, args.seed, args.moves,
                                             args.throttle)
        browser.close()
    report = reports[0]
    if args.before:
        report["before"] = reports[1]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
