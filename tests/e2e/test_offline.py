"""Offline at the card table: a reader who visited a language reads, searches,
checks melds and opens the quick reference with no connection; a republished site reaches
them the next time they are online, after they accept it, and never mixes two builds.

The site is built from a scratch copy of the project under a base path (``/rami/``), served
on 127.0.0.1, then built again with a changed page into the same folder (a republish)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from conftest import copy_project, run_cli
from playwright.sync_api import Browser, Page

from .conftest import serving
from .visit import PHONE

LANGS = ("pl", "vi")
MARK = " ✓"  # added to a page title by the republish


@dataclass
class Site:
    project: Path
    out: Path
    url: str  # the site's address, under its base path

    def build(self) -> None:
        result = run_cli("build", "--root", str(self.project), "--out", str(self.out),
                         "--base-url", self.url, "--no-cache")
        assert result.code == 0, result.err


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    tmp = tmp_path_factory.mktemp("offline")
    project = copy_project(tmp / "project")
    www = tmp / "www"
    www.mkdir()
    with serving(www) as url:
        built = Site(project, www / "rami", url + "rami/")
        built.build()
        yield built


def _turn_title(site: Site, lang: str) -> str:
    html = (site.out / lang / "turn" / "index.html").read_text(encoding="utf-8")
    return html[html.index("<h1") :].split(">", 1)[1].split("<", 1)[0]


def _republish(site: Site, lang: str) -> str:
    """Change the title of *lang*'s Turn page in its catalog, and build again: the new title."""
    po_file = site.project / "locales" / lang / "LC_MESSAGES" / "messages.po"
    with po_file.open("rb") as fh:
        catalog = read_po(fh)
    old = _turn_title(site, lang)
    message = next(m for m in catalog if m.id and m.string == old)
    message.string = old + MARK
    with po_file.open("wb") as fh:
        write_po(fh, catalog, width=79)
    site.build()
    assert _turn_title(site, lang) == old + MARK
    return old + MARK


def _controlled(page: Page, url: str) -> None:
    """Visit *url* and wait until its language's worker has installed and controls it (not
    the site root's worker), with no newer-version notice and no reload: a first visit."""
    page.goto(url)
    page.evaluate("window.firstVisit = true")
    page.wait_for_function("""() => {
        const worker = navigator.serviceWorker.controller;
        return worker !== null && worker.scriptURL === new URL('sw.js', location.href).href;
    }""", timeout=30_000)
    page.wait_for_timeout(300)  # a reload or a notice would follow the change of worker
    assert page.evaluate("window.firstVisit === true"), "the page reloaded"
    assert page.locator(".update-ready").is_hidden()


def _search(page: Page, query: str) -> list[str]:
    page.click(".search-open")
    page.fill("#q", query)
    page.wait_for_function("() => document.querySelectorAll('.search ol li a').length > 0",
                           timeout=15_000)
    return page.eval_on_selector_all(".search ol li a", "as => as.map(a => a.pathname)")


def test_read_search_check_offline_then_a_republish(browser: Browser, site: Site) -> None:
    context = browser.new_context(service_workers="allow", viewport=PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        for lang in LANGS:
            _controlled(page, f"{site.url}{lang}/index.html")
        # only the visited languages are cached, each in its own cache
        names = page.evaluate("caches.keys()")
        scopes = [name[len("rami:"):name.rindex(":")] for name in names
                  if name.startswith("rami:")]  # (not the note of the language last read)
        assert sorted(scope.rstrip("/").rsplit("/", 1)[1] for scope in scopes) \
            == sorted(LANGS), names

        # the practice table's runtime is cached once the reader starts the table
        page.goto(f"{site.url}pl/play/index.html")
        page.locator("[data-start]").click()
        page.wait_for_selector("[data-hand] button", timeout=120_000)
        runtime = page.evaluate("""async () => {
            const names = await caches.keys();
            const cache = await caches.open(names.find(n => n.includes('/pl/')));
            return (await cache.keys()).filter(r => r.url.includes('/pyodide/')).length;
        }""")
        assert runtime >= 3, runtime

        page.wait_for_function("""async () => {
            const worker = await navigator.serviceWorker.getRegistration('../');
            return worker && worker.scope.endsWith('/rami/') && worker.active !== null;
        }""")  # the site root's worker, for the languages never visited
        context.set_offline(True)
        page.goto(f"{site.url}pl/play/index.html")  # and plays offline from then on (the
        if page.locator("[data-start]").is_visible():  # saved game resumes, or a new one)
            page.locator("[data-start]").click()
        page.wait_for_selector("[data-hand] button", timeout=120_000)
        for lang in LANGS:
            page.goto(f"{site.url}{lang}/index.html")
            page.reload()
            title = _turn_title(site, lang)
            page.locator('main a[href$="turn/index.html"]').first.click()
            assert page.locator("h1").inner_text() == title
            assert any(path.endswith("/turn/") or "/turn/" in path
                       for path in _search(page, title.split()[0])), title
            page.goto(f"{site.url}{lang}/first-meld/index.html")
            form = page.locator("form[data-checker]")
            form.locator("#ck-meld-1").fill("QH KH AH")
            page.wait_for_function(
                "() => document.querySelector('output[data-field=\"verdict\"]')"
                ".innerText.trim() !== ''")
            page.goto(f"{site.url}{lang}/quick-reference/rami/index.html")
            assert page.locator("h1").count() == 1
        # the language menu marks the languages saved on this device, and no other
        page.goto(f"{site.url}pl/turn/index.html")
        page.locator(".lang-menu summary").click()
        marked = page.eval_on_selector_all(
            ".languages a[hreflang]",
            "as => as.filter(a => a.querySelector('.offline-mark')).map(a => a.hreflang)")
        assert sorted(marked) == sorted(LANGS), marked
        ms_name = page.locator(".languages a[hreflang=ms]").inner_text()
        # a language never visited: the site's own offline page, in the language being
        # read, naming it and listing the languages ready
        offline = (site.out / "pl" / "offline.html").read_text(encoding="utf-8")
        heading = offline[offline.index("<h1"):].split(">", 1)[1].split("<", 1)[0]
        page.locator(".languages a[hreflang=ms]").click()
        page.wait_for_url("**/pl/offline.html?lang=ms")
        assert page.locator("h1").inner_text() == heading
        assert page.locator("html").get_attribute("lang") == "pl"
        assert ms_name in page.locator(".offline-asked").inner_text()
        ready = page.eval_on_selector_all(".offline-ready a", "as => as.map(a => a.pathname)")
        assert sorted(ready) == sorted(f"/rami/{lang}/index.html" for lang in LANGS), ready
        page.locator(".offline-ready a[lang=vi]").click()  # and each of them opens
        assert page.url.endswith("/vi/index.html")
        # a page of a saved language that was never saved: the same page, from its worker
        page.goto(f"{site.url}pl/no-such-page/index.html")
        assert page.locator("h1").inner_text() == heading
        # an address typed into a language never visited: the site root's worker answers
        # with the offline page of the language last read (pl), naming the one asked for
        page.goto(f"{site.url}ms/turn/index.html")
        assert page.locator("h1").inner_text() == heading
        assert page.locator("html").get_attribute("lang") == "pl"
        page.locator(".offline-asked").wait_for(state="visible")
        assert ms_name in page.locator(".offline-asked").inner_text()
        assert page.locator(".offline-ready a").count() == len(LANGS)

        new_title = _republish(site, "pl")
        context.set_offline(False)
        page.goto(f"{site.url}pl/turn/index.html")
        assert page.locator("h1").inner_text() != new_title  # the old build, whole
        notice = page.locator(".update-ready")
        notice.wait_for(state="visible", timeout=30_000)
        with page.expect_navigation():
            notice.locator("button").click()
        assert page.locator("h1").inner_text() == new_title
        names = page.evaluate("caches.keys()")
        assert len([n for n in names if "/pl/" in n]) == 1, names  # the old cache removed
        assert [e for e in errors if "CORS policy" not in e and "ERR_FAILED" not in e] == []
    finally:
        context.close()


def test_installable_in_each_language(browser: Browser, site: Site) -> None:
    """Chromium finds nothing that stops it offering to install the site; the installed app
    opens in the reader's language, under its name in that language, with a description,
    a short name of its own and a maskable icon."""
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    names: set[str] = set()
    try:
        for lang in LANGS:
            _controlled(page, f"{site.url}{lang}/index.html")
            cdp = context.new_cdp_session(page)
            errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
            # a test's browser context is incognito, where Chromium never installs: that
            # is the browser's profile, not the site
            assert [e for e in errors if e["errorId"] != "in-incognito"] == [], errors
            manifest = json.loads((site.out / lang / "manifest.webmanifest").read_text("utf-8"))
            assert manifest["lang"] == lang and manifest["start_url"] == "./index.html"
            assert manifest["description"] and manifest["short_name"] not in names, names
            names.add(manifest["short_name"])  # each language installs under its own name
            maskable = [i for i in manifest["icons"] if i["purpose"] == "maskable"]
            assert {i["sizes"] for i in maskable} == {"192x192", "512x512"}
            for icon in maskable:
                assert (site.out / lang / icon["src"]).resolve().is_file(), icon
            home = (site.out / lang / "index.html").read_text(encoding="utf-8")
            assert f'<a class="brand" href="index.html">{manifest["name"]}</a>' in home
    finally:
        context.close()


def test_from_disk_no_worker_and_no_error(browser: Browser, site: Site) -> None:
    """Opened from disk (file://), a page registers no worker and shows no error. (Chromium
    loads no ES module from disk: the pages' scripts, search among them, are refused with
    a CORS message, which is the browser's rule and not an error of the page; the page
    reads without them.)"""
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        page.goto((site.out / "pl" / "index.html").as_uri())
        page.wait_for_load_state("load")
        assert page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.controller"
                             " : null") is None
        assert [e for e in errors if "CORS policy" not in e and "ERR_FAILED" not in e] == []
    finally:
        context.close()


@pytest.mark.slow
@pytest.mark.browser
def test_the_offline_benchmark_runs(site: Site) -> None:
    """benchmarks/offline.py, at its smallest (one language, once), on this build."""
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "offline.py"
    run = subprocess.run([sys.executable, str(script), str(site.out), "--smoke"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert re.search(r"^\| pl \| \d+ \| \d+ KiB \| [\d.]+ s \| \d+ ms \|$", run.stdout, re.M), \
        run.stdout
