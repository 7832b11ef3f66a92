"""Time from saving a ``.po`` to the reloaded page in the browser, with ``site-builder serve``.

    .venv/bin/python benchmarks/serve_latency.py [--runs 10]

Copies the real project to a scratch folder, starts ``site-builder serve`` on a free port,
opens the Polish first-meld page in Debian's Chromium (``/usr/bin/chromium``, driven by
Playwright; no browser is downloaded), then repeatedly saves the Polish catalog with a
new translation of the page's breadcrumb and measures until the reloaded page shows it.
Prints every run, the median, and the server's own build times.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]
PO = "locales/pl/LC_MESSAGES/messages.po"
MSGID = "Rules"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def save_translation(project: Path, text: str) -> None:
    po = project / PO
    data = po.read_text(encoding="utf-8")
    start = data.index(f'msgid "{MSGID}"\nmsgstr "')
    end = data.index("\n", data.index("msgstr", start))
    po.write_text(data[:start] + f'msgid "{MSGID}"\nmsgstr "{text}"' + data[end:],
                  encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="serve-latency-"))
    for part in ("content", "locales", "templates", "babel.cfg"):
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, scratch / part, ignore=shutil.ignore_patterns("*.mo"))
        else:
            shutil.copy2(src, scratch / part)
    # the practice table's runtime, as npm ci gives a checkout (a build reads it there only)
    (scratch / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "site_builder", "serve", "--root",
                               str(scratch), "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    timings: list[float] = []
    try:
        assert server.stdout is not None
        print(server.stdout.readline().strip(), file=sys.stderr)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/pl/first-meld/")
            page.wait_for_function("() => window.__siteBuilderPoll !== undefined")
            time.sleep(0.5)  # let the page ask /__reload.js
            for run in range(args.runs):
                marker = f"Zasady, wersja {'I' * (run % 3 + 1)}{'V' * (run // 3)}"
                with page.expect_navigation(timeout=30000):
                    start = time.perf_counter()
                    save_translation(scratch, marker)
                page.wait_for_function(
                    "m => document.body && document.body.innerText.includes(m)", arg=marker,
                    timeout=30000)
                elapsed = time.perf_counter() - start
                timings.append(elapsed)
                print(f"run {run + 1}: {elapsed * 1000:.0f} ms", file=sys.stderr)
                time.sleep(0.3)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
        log = server.stderr.read() if server.stderr else ""
        shutil.rmtree(scratch, ignore_errors=True)
    builds = [line.strip() for line in log.splitlines() if line.startswith("built")]
    print(f"save .po -> reloaded page: median {statistics.median(timings) * 1000:.0f} ms, "
          f"min {min(timings) * 1000:.0f} ms, max {max(timings) * 1000:.0f} ms "
          f"over {len(timings)} runs")
    print("server builds: " + "; ".join(builds[-len(timings):]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
