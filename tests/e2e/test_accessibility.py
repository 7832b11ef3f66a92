"""axe-core on every page in every language, in the light and the dark colour scheme.

axe.min.js is injected as an inline script, which the pages' CSP (script-src 'self')
rightly blocks; these tests alone use a context with ``bypass_csp=True``. Every other
test runs with the CSP enforced.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .e2e_site import NODE_MODULES, SitePage

pytestmark = pytest.mark.e2e

AXE = NODE_MODULES / "axe-core" / "axe.min.js"
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@pytest.fixture(params=["light", "dark"])
def scheme_page(request: pytest.FixtureRequest, browser: Browser, base_url: str,
                ) -> Iterator[tuple[str, Page]]:
    context = browser.new_context(base_url=base_url, bypass_csp=True,
                                  color_scheme=request.param, viewport={"width": 1280,
                                                                        "height": 900})
    context.set_default_timeout(10_000)
    try:
        yield request.param, context.new_page()
    finally:
        context.close()


def _describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:5]:
            lines.append(f"    {node['target']}: {node['failureSummary']}".replace("\n", " "))
    return "\n".join(lines)


def test_axe_finds_no_wcag_21_aa_violation(scheme_page: tuple[str, Page],
                                           site_page: SitePage) -> None:
    scheme, page = scheme_page
    assert AXE.is_file(), f"{AXE} is missing: run `bash scripts/setup`"
    page.goto(site_page.path)
    assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", WCAG_21_AA)
    assert result["passes"], "axe ran no check at all"
    assert result["violations"] == [], _describe(result["violations"])


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
