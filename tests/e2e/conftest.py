"""Browser tests against a real build served on 127.0.0.1.

One build per session: ``site-builder build --out TMP --base-url http://127.0.0.1:PORT/``,
served by ``http.server`` in a thread. The server is bound before the build, so the base
URL baked into the 404 pages, canonical links and sitemap is the one actually served.
Chromium is Debian's (/usr/bin/chromium); ``playwright install`` is never needed.

Every test that drives the browser gets the ``browser`` marker (``-m "not browser"`` runs
the checks of the built files alone).
"""

from __future__ import annotations

import functools
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import shared_build
from playwright.sync_api import Browser, BrowserContext, Page

from .e2e_site import CHROMIUM, PAGES, ROOT, TEMPLATE_PAGES, ServedSite
from .visit import DESKTOP, Tab, serve_axe

HERE = Path(__file__).resolve().parent


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that asks for ``site_page`` runs once for every page in every language; one
    that asks for ``template_page``, once for one page of each template (TEMPLATE_PAGES)."""
    if "site_page" in metafunc.fixturenames:
        metafunc.parametrize("site_page", PAGES, ids=[p.id for p in PAGES])
    if "template_page" in metafunc.fixturenames:
        metafunc.parametrize("template_page", TEMPLATE_PAGES, ids=[p.id for p in TEMPLATE_PAGES])


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The ``browser`` marker on every test here that uses Playwright's browser (directly,
    or through ``page``, ``context``, ``tab``...)."""
    for item in items:
        if HERE in Path(item.path).parents and "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


class _QuietHandler(SimpleHTTPRequestHandler):
    """Static files, like a plain static host: a missing path gets /404.html with status 404."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib signature)
        pass

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or self.command != "GET" or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def serving(directory: Path) -> Iterator[str]:
    """Serve *directory* (it may be filled after this starts) on a free port of 127.0.0.1,
    from a thread; yields the address."""
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(_QuietHandler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, name="e2e-http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def build_site(out: Path, base_url: str) -> None:
    """``site-builder build --out OUT --base-url BASE_URL`` on the project, as a user runs it."""
    build = subprocess.run(
        [sys.executable, "-m", "site_builder", "build", "--out", str(out), "--base-url", base_url],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, f"site-builder build failed:\n{build.stdout}{build.stderr}"


@pytest.fixture(scope="session")
def served_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedSite]:
    """Build the site into a temporary folder and serve it on 127.0.0.1 (a free port)."""
    out = tmp_path_factory.mktemp("site") / "dist"
    with serving(out) as url:
        build_site(out, url)
        yield ServedSite(out, url)


#: The address the built files of ``site_files`` are built for (never served).
FILES_URL = "http://127.0.0.1:8000/"


@pytest.fixture(scope="session")
def site_files(tmp_path_factory: pytest.TempPathFactory) -> ServedSite:
    """The built files, for the tests that read them without a browser: the site built for
    ``FILES_URL`` once per test session, shared by every xdist worker (the browser's
    ``served_site`` is built for the address of the server its worker starts)."""
    return ServedSite(shared_build(tmp_path_factory, "e2e-files", "--base-url", FILES_URL),
                      FILES_URL)


@pytest.fixture(scope="session")
def base_url(served_site: ServedSite) -> str:
    """Playwright resolves ``page.goto("pl/first-meld/")`` against the served build."""
    return served_site.url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    assert Path(CHROMIUM).is_file(), f"{CHROMIUM} is missing: run `bash scripts/setup`"
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"],
    }


class _NoServiceWorkers:
    """The browser, whose new contexts block service workers unless a test allows them: the
    language folders' workers would answer the pages' requests from their cache,
    past the routes that serve axe, and make a visit depend on the one before it. The
    offline tests (test_offline.py) ask for ``service_workers="allow"``."""

    def __init__(self, browser: Browser) -> None:
        self._browser = browser

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)

    def new_context(self, **kwargs: Any) -> BrowserContext:
        kwargs.setdefault("service_workers", "block")
        return self._browser.new_context(**kwargs)


@pytest.fixture(scope="session")
def browser(browser: Browser) -> Browser:
    return _NoServiceWorkers(browser)  # type: ignore[return-value]


@pytest.fixture
def page(page: Page) -> Page:
    """pytest-playwright's page, failing in 10 s instead of 30 s: a local static page loads in
    well under a second, and a systematic failure must not hold CI for hours."""
    page.set_default_timeout(10_000)
    page.set_default_navigation_timeout(10_000)
    return page


@pytest.fixture(scope="session")
def shared_context(browser: Browser, base_url: str) -> Iterator[BrowserContext]:
    """One context for the visits of every page (the CSP enforced, no cache: routing
    disables it, so that every visit loads each of its files, as a first visit does)."""
    context = browser.new_context(base_url=base_url, viewport=DESKTOP)
    context.set_default_timeout(10_000)
    context.set_default_navigation_timeout(10_000)
    serve_axe(context)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture(scope="module")
def tab(shared_context: BrowserContext) -> Iterator[Tab]:
    """A tab reused by a module's tests, one ``Tab.open`` per page and viewport."""
    page = shared_context.new_page()
    try:
        yield Tab(page)
    finally:
        page.close()
