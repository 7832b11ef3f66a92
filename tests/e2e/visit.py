"""What the browser tests share: the viewports, a page's problems, a reused tab, axe.

The per-page checks visit each page once per viewport in one tab of one browser context
(``Tab``, see the ``tab`` fixture), instead of opening a fresh context for every check: a
visit costs a navigation, a fresh context more than that again.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import (
    BrowserContext,
    ConsoleMessage,
    Page,
    Request,
    Response,
    Route,
    ViewportSize,
)

from .e2e_site import AXE

PHONE: ViewportSize = {"width": 360, "height": 780}
NARROW_PHONE: ViewportSize = {"width": 320, "height": 700}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
LAPTOP: ViewportSize = {"width": 1280, "height": 720}  # pytest-playwright's default viewport

# The browser's default font sizes (standard, fixed), and the same at 200 %, as the
# browser's font-size setting (or a phone's font scaling) makes them: rem, em and media
# queries in em follow them.
FONT_SIZES = {"standard": 16, "fixed": 13}
DOUBLE_FONT_SIZES = {"standard": 32, "fixed": 26}

WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# axe.min.js reaches the page as a script of the site's own origin, answered by the test
# from node_modules (``serve_axe``): the pages' CSP (script-src 'self') allows it, so axe
# runs with the CSP enforced, in the same visit as the other checks.
AXE_PATH = "/__test__/axe.min.js"


class Problems:
    """Console errors, uncaught exceptions, failed requests and HTTP errors of one page."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        self.requests: list[Request] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"uncaught: {exc}"))
        page.on("request", lambda r: self.requests.append(r))
        page.on("requestfailed", lambda r: self.errors.append(
            f"request failed: {r.url} ({r.failure})"))
        page.on("response", self._response)

    def clear(self) -> None:
        self.errors.clear()
        self.requests.clear()

    def _console(self, msg: ConsoleMessage) -> None:
        if msg.type in ("error", "assert"):
            self.errors.append(f"console {msg.type}: {msg.text} ({msg.location.get('url')})")

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            self.errors.append(f"HTTP {response.status}: {response.url}")


def serve_axe(context: BrowserContext) -> None:
    """Answer ``AXE_PATH`` on any origin with node_modules' axe.min.js."""
    assert AXE.is_file(), f"{AXE} is missing: run `bash scripts/setup`"
    body = AXE.read_bytes()

    def fulfill(route: Route) -> None:
        route.fulfill(status=200, body=body, content_type="text/javascript; charset=utf-8")

    context.route(f"**{AXE_PATH}", fulfill)


def describe_violations(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:5]:
            lines.append(f"    {node['target']}: {node['failureSummary']}".replace("\n", " "))
    return "\n".join(lines)


def inject_axe(page: Page) -> None:
    page.add_script_tag(url=AXE_PATH)


def run_axe(page: Page) -> dict[str, Any]:
    """axe-core's WCAG 2.1 A and AA rules on the page as it is now (axe injected first if
    it is not there yet): the number of rules passed, and every violation. (Every rule runs;
    only the violations' nodes are gathered and sent back, the bulk of axe's time else.)"""
    if not page.evaluate("typeof axe !== 'undefined'"):
        inject_axe(page)
    result: dict[str, Any] = page.evaluate("""tags => axe.run(document, {
        runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
    }).then(r => ({passes: r.passes.length, violations: r.violations}))""", WCAG_21_AA)
    return result


class Tab:
    """One tab, reused from page to page: each ``open`` resets what a visit may change
    (media, colour scheme, font size, viewport) and the problems seen."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.problems = Problems(page)
        self._cdp = page.context.new_cdp_session(page)
        self._cdp.send("Page.enable")
        self._fonts = FONT_SIZES

    def font_sizes(self, sizes: dict[str, int]) -> None:
        """Set the browser's default font sizes; the open document follows them at once."""
        if sizes != self._fonts:
            self._cdp.send("Page.setFontSizes", {"fontSizes": sizes})
            self._fonts = sizes

    def open(self, path: str, viewport: ViewportSize, color_scheme: str = "light") -> Response:
        page = self.page
        page.emulate_media(media="screen", color_scheme=color_scheme)  # type: ignore[arg-type]
        self.font_sizes(FONT_SIZES)
        page.set_viewport_size(viewport)
        self.problems.clear()
        response = page.goto(path, wait_until="load")
        assert response is not None, path
        return response


def search_links(page: Page, query: str, every: bool = False) -> list[str]:
    """Type *query* into the open search box and wait for its results: their links' addresses
    (the list empties first, so that the results are this query's); with *every*, after
    pressing the button that lists the results beyond the first ones, if there is one."""
    page.fill("#q", "")
    page.wait_for_function("() => document.querySelectorAll('.search ol li').length === 0")
    page.fill("#q", query)
    page.wait_for_function(
        "q => document.querySelector('#q').value === q"
        " && document.querySelectorAll('.search ol li').length > 0", arg=query)
    page.wait_for_load_state("networkidle")
    more = page.locator(".search ol .search-more")
    if every and more.count():
        first = page.locator(".search ol li a").count()
        more.press("Enter")  # by keyboard, as a reader who tabbed to it
        page.wait_for_function("n => document.querySelectorAll('.search ol li a').length > n",
                               arg=first)
        # the list goes on where the reader was: the first result they had not seen
        assert page.evaluate("document.activeElement.closest('.search ol') !== null")
    links: list[str] = page.eval_on_selector_all(".search ol li a", "as => as.map(a => a.href)")
    return links
