"""How long the in-browser checker takes to update after an edit, for 14 cards with jokers.

    .venv/bin/python benchmarks/checker_update.py [--edits 300] [--lang en] [--screens DIR]

Builds the site into a scratch folder, serves it on 127.0.0.1 and opens the first-meld page
in Debian's Chromium (``/usr/bin/chromium``, driven by Playwright; nothing is downloaded),
filled with two melds of 7 cards, each with a joker. Each edit changes one card of the
second meld (``input`` event, as typing does) and measures, inside the page:

* ``update``: the time the checker's input handler takes (parse, judge, write the results);
* ``frame``: from the edit to the next animation frame, when the browser can paint it.

The target is one frame (16 ms). Prints the median, 95th percentile and maximum of each,
with the sizes of the script and the rule data. ``--screens DIR`` also saves phone and
desktop screenshots of the filled-in checker as ``DIR/checker-phone.png`` and
``DIR/checker-desktop.png``.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from serve_latency import CHROMIUM, CHROMIUM_ARGS  # one browser setup for the benchmarks

ROOT = Path(__file__).resolve().parent.parent
FIRST = "JK 2C 3C 4C 5C 6C 7C"
SECOND = ["9D 10D JK QD KD AD JD", "9H 9S JK 9C", "8D 9D 10D JK QD KD AD",
          "3S 4S 5S JK 7S 8S 9S"]  # one edit at a time, 14 or 11 cards in all

MEASURE = """([values, edits]) => new Promise(done => {
    const input = document.querySelector('#ck-meld-2'), update = [], frame = [];
    let i = 0;
    function edit() {
        if (i === edits) { done({update, frame}); return; }
        input.value = values[i % values.length];
        const start = performance.now();
        input.dispatchEvent(new Event('input', {bubbles: true}));
        update.push(performance.now() - start);
        requestAnimationFrame(() => { frame.push(performance.now() - start); i++;
                                      setTimeout(edit, 0); });
    }
    edit();
})"""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def handle(self) -> None:
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):  # the browser left for another page
            pass


def summary(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    return (f"{name:>7}: median {statistics.median(values):6.2f} ms, p95 {p95:6.2f} ms, "
            f"max {max(values):6.2f} ms ({len(values)} edits)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=300)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--screens", type=Path)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "dist"
        subprocess.run([sys.executable, "-m", "site_builder", "build", "--out", str(out)],
                       cwd=ROOT, check=True, capture_output=True)
        sizes = {name: (out / "assets" / name).stat().st_size
                 for name in ("checker-core.js", "checker-notation.js", "checker-form.js",
                              "checker-rules.js")}
        script = sum(v for k, v in sizes.items() if k != "checker-rules.js")
        print(f"scripts {script} B + rule data {sizes['checker-rules.js']} B = "
              f"{sum(sizes.values())} B (uncompressed)")
        server = ThreadingHTTPServer(("127.0.0.1", 0),
                                     functools.partial(_Quiet, directory=str(out)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/{args.lang}/first-meld/"
        fragment = "#try=rami51:reference:" + "|".join(
            m.replace(" ", "+") for m in (FIRST, SECOND[0]))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(url + fragment)
                result = page.evaluate(MEASURE, [SECOND, args.edits])
                print(summary("update", result["update"]))
                print(summary("frame", result["frame"]))
                if args.screens:
                    args.screens.mkdir(parents=True, exist_ok=True)
                    for name, size, scale in (("phone", (360, 780), 2),
                                              ("desktop", (1280, 900), 1)):
                        shot = browser.new_page(viewport={"width": size[0], "height": size[1]},
                                                device_scale_factor=scale)
                        shot.goto(url + fragment)
                        shot.locator("section.checker").screenshot(
                            path=str(args.screens / f"checker-{name}.png"))
                        shot.close()
                    print(f"screenshots in {args.screens}")
                browser.close()
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
