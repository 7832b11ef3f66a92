"""The practice table's weight and speed, in Debian's Chromium.

Serves a built site (``site-builder build --out``) on 127.0.0.1 and reports:

* the practice page's own HTML in each language (raw and gzip; the budget is 30 KB);
* the runtime's download: the Python runtime (npm pyodide) and the packed engine, raw and
  gzip (what a host that compresses sends);
* from pressing Start to the first dealt hand, the median of *runs*: on a first visit (a
  fresh browser profile, nothing cached), once cached (the same profile, the page opened
  again), and both again with the CPU throttled (CDP ``Emulation.setCPUThrottlingRate``,
  ``--throttle``, 4x by default), as a phone;
* how long each computer move takes at the hard level, in the browser: the engine run by
  the page's runtime plays a seeded game of three hard players against the normal
  player's hints, and each ``step`` is timed there (``time.perf_counter`` in Pyodide).

    .venv/bin/site-builder build --out /tmp/site
    .venv/bin/python benchmarks/play.py /tmp/site --runs 5

The machine's load matters: say what else ran when you quote the figures.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright
from reading import CHROMIUM, FLAGS, PHONE, serving  # benchmarks/reading.py, beside this

LANGS = ("en", "id", "ms", "pl", "vi")
LOAD_MS = 180_000

# Run in the page's own runtime: a seeded game of hard players, each move timed.
HARD_GAME = """
import json, time
from site_builder.engine.play.table import Table
times = []
table = Table.new({"game": "rami51", "levels": ["hard", "hard", "hard"], "seed": SEED})
while not table.game_over and len(times) < MOVES:
    if table.state.is_over:
        table.next_round()
    elif table.state.turn == table.human:
        table.act(table.hint()["action"])
    else:
        start = time.perf_counter()
        table.step()
        times.append(time.perf_counter() - start)
json.dumps(times)
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


def start_to_hand(page: Page, url: str) -> float:
    """Open the practice page and time Start to the first dealt hand (seconds)."""
    page.goto(url)
    page.evaluate("localStorage.clear()")
    page.goto(url)
    page.wait_for_selector("[data-start]:visible")
    began = time.perf_counter()
    page.click("[data-start]")
    page.wait_for_selector("[data-hand] button", timeout=LOAD_MS)
    return time.perf_counter() - began


def timings(browser: Browser, url: str, runs: int, throttle: float) -> dict[str, float]:
    first, cached = [], []
    for _ in range(runs):
        context = browser.new_context(viewport=PHONE)  # a fresh profile: nothing cached
        page = context.new_page()
        if throttle != 1:
            page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate",
                                                    {"rate": throttle})
        first.append(start_to_hand(page, url))
        cached.append(start_to_hand(page, url))
        context.close()
    return {"first_visit_median_s": round(statistics.median(first), 2),
            "cached_median_s": round(statistics.median(cached), 2),
            "first_visit_s": [round(t, 2) for t in first],
            "cached_s": [round(t, 2) for t in cached]}


def hard_moves(browser: Browser, url: str, seed: int, moves: int) -> dict[str, Any]:
    """Each hard move's time in the page's runtime (milliseconds)."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(url)
    page.click("[data-start]")
    page.wait_for_selector("[data-hand] button", timeout=LOAD_MS)
    script = page.get_attribute("script[data-engine]", "data-runtime")
    times = json.loads(page.evaluate("""async ([runtime, code]) => {
        const index = new URL(runtime, document.baseURI).href;
        const {loadPyodide} = await import(new URL("pyodide.mjs", index).href);
        const py = await loadPyodide({indexURL: index});
        const zip = document.querySelector("script[data-engine]").dataset.engine;
        py.unpackArchive(await (await fetch(zip)).arrayBuffer(), "zip");
        return py.runPython(code);
    }""", [script, HARD_GAME.replace("SEED", str(seed)).replace("MOVES", str(moves))]))
    context.close()
    ms = sorted(t * 1000 for t in times)
    return {"moves": len(ms), "median_ms": round(statistics.median(ms), 1),
            "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 1), "max_ms": round(ms[-1], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="a built site (site-builder build --out)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", default="pl")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--throttle", type=float, default=4,
                        help="how many times slower the throttled CPU runs (default 4: a phone)")
    args = parser.parse_args()
    report: dict[str, Any] = {"sizes": sizes(args.site)}
    with serving(args.site) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        url = f"{base}{args.lang}/play/"
        report["start_to_first_hand"] = timings(browser, url, args.runs, 1)
        report["start_to_first_hand_throttled"] = {
            "rate": args.throttle, **timings(browser, url, args.runs, args.throttle)}
        report["hard_move"] = hard_moves(browser, url, args.seed, args.moves)
        browser.close()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
