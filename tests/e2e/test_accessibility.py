"""axe-core in the dark colour scheme, on one page of each template (the dark scheme is one
block of the stylesheet); the light scheme is checked on every page, in every language, in
test_pages.py's desktop visit.

axe.min.js is served to the page from the site's own origin by the test (visit.serve_axe),
so that it runs with the pages' CSP (script-src 'self') enforced.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser

from .e2e_site import SitePage
from .visit import DESKTOP, Tab, describe_violations, run_axe

pytestmark = pytest.mark.e2e


def test_axe_finds_no_wcag_21_aa_violation_in_the_dark_scheme(tab: Tab,
                                                              template_page: SitePage) -> None:
    page = tab.page
    response = tab.open(template_page.path, DESKTOP, color_scheme="dark")
    assert response.status == 200
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    result = run_axe(page)
    assert result["passes"], "axe ran no check at all"
    assert result["violations"] == [], describe_violations(result["violations"])


def test_light_and_dark_schemes_differ(browser: Browser, base_url: str) -> None:
    colours = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(base_url=base_url, color_scheme=scheme)
        try:
            page = context.new_page()
            page.goto("en/first-meld/")
            colours[scheme] = json.dumps(page.evaluate("""() => {
                const s = getComputedStyle(document.body);
                return [s.color, s.backgroundColor];
            }"""))
        finally:
            context.close()
    assert colours["light"] != colours["dark"]
