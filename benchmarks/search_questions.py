"""Measure: where the search in the header puts the section that answers a player's question.

    .venv/bin/python benchmarks/search_questions.py [--site dist] [--lang pl ...]
        [--questions benchmarks/search_questions_unseen.toml]

Serves a built site (``site-builder build`` first) on 127.0.0.1, opens each language's home
page in Chromium (Debian's, /usr/bin/chromium), types each question of
``benchmarks/search_questions.toml`` (or of ``--questions``: the held-out questions of
``search_questions_unseen.toml``, never tuned on) into the search box as a reader does, and
prints the rank of the first result that leads to an answering section (``-`` when none of
the results shown does), as a Markdown table per language and a summary line.
"""

from __future__ import annotations

import argparse
import functools
import threading
import tomllib
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

HERE = Path(__file__).resolve().parent
QUESTIONS = HERE / "search_questions.toml"
CHROMIUM = "/usr/bin/chromium"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib signature)
        pass


def results(page: Page, query: str) -> list[str]:
    """The results the search box lists for *query*, as ``page#section`` (or ``page``)."""
    page.fill("#q", "")
    page.wait_for_function("() => document.querySelectorAll('.search ol li').length === 0")
    page.fill("#q", query)
    try:
        page.wait_for_function(
            "q => document.querySelector('#q').value === q"
            " && document.querySelectorAll('.search ol li').length > 0", arg=query,
            timeout=10_000)
    except PlaywrightTimeout:
        return []  # nothing found
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)  # a later debounced answer replaces the list
    hrefs = page.eval_on_selector_all(".search ol li a", "as => as.map(a => a.href)")
    out = []
    for href in hrefs:
        path, _, fragment = href.partition("#")
        slug = path.split("?")[0].rstrip("/").removesuffix("/index.html").rsplit("/", 1)[-1]
        out.append(f"{slug}#{fragment}" if fragment else slug)
    return out


def rank(found: list[str], answer: str) -> int | None:
    """The 1-based rank of the first of *found* that is one of *answer*'s sections (an
    answer without a section, ``play``, is the page: any of its sections answers)."""
    wanted = answer.split("|")
    return next((i for i, r in enumerate(found, 1)
                 if r in wanted or r.partition("#")[0] in wanted), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=HERE.parent / "dist")
    parser.add_argument("--lang", nargs="*")
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    args = parser.parse_args()
    questions = tomllib.loads(args.questions.read_text(encoding="utf-8"))
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(_Quiet, directory=str(args.site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    total = top3 = first = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 360, "height": 800})
        for lang in args.lang or list(questions):
            page.goto(f"{url}{lang}/")
            page.click(".search-open")
            print(f"\n{lang}\n\n| question | answer | rank | first result |\n|---|---|---|---|")
            for query, answer in questions[lang]:
                found = results(page, query)
                r = rank(found, answer)
                total += 1
                top3 += r is not None and r <= 3
                first += r == 1
                print(f"| {query} | {answer.split('|')[0]} | {r or '-'} "
                      f"| {found[0] if found else '-'} |")
        browser.close()
    server.shutdown()
    print(f"\n{total} questions: {first} answered first, {top3} in the first three")


if __name__ == "__main__":
    main()
