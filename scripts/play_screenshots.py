"""Screenshots of the practice table for review and the closing note: a turn, a
refused move and the end of a round, in Polish and Vietnamese, on a phone (360x800) and a
desktop (1280x900), saved to ``docs/screenshots/play_*.png``.

    .venv/bin/site-builder build --out /tmp/dist
    .venv/bin/python scripts/play_screenshots.py /tmp/dist

Chromium is Debian's (/usr/bin/chromium). The runtime starts once per page load: expect
a few minutes on a loaded machine.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import Page, sync_playwright
from screenshots import CHROMIUM, FLAGS, serve  # scripts/screenshots.py, beside this

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
VIEWPORTS = {"phone": {"width": 360, "height": 800}, "desktop": {"width": 1280, "height": 900}}
LOAD_MS = 180_000
# A seeded Rami 51 deal against the easy player, and a CardVerse position (a "Play from
# here" link) in which the reader goes out in one turn.
DEAL = "#deal=rami51:4217:easy,hard"
OUT_POSITION = "#from=cardverse;5H6H7H/9CJD4S;2C3D8S;9D;"


def shoot(page: Page, name: str, selector: str) -> None:
    page.locator(selector).scroll_into_view_if_needed()
    page.screenshot(path=str(OUT / f"play_{name}.png"))
    print(OUT / f"play_{name}.png")


def scenarios(page: Page, base: str, lang: str, size: str) -> None:
    page.goto(f"{base}{lang}/play/{DEAL}")
    page.wait_for_selector("[data-hand] button", timeout=LOAD_MS)
    page.click("[data-act=draw_stock]")
    for index in (0, 1, 2):
        page.click(f"[data-hand] button >> nth={index}")
    shoot(page, f"{lang}_{size}_turn", "[data-hand]")
    page.click("[data-act=meld]")
    shoot(page, f"{lang}_{size}_refusal", "[data-refusal]")
    page.evaluate("localStorage.clear()")
    page.goto("about:blank")
    page.goto(f"{base}{lang}/play/{OUT_POSITION}")
    page.wait_for_selector("[data-hand] button", timeout=LOAD_MS)
    page.click("[data-act=draw_stock]")
    for code in ("5H", "6H", "7H"):
        page.click(f'[data-hand] button[data-code="{code}"]')
    page.click("[data-act=meld]")
    page.click("[data-hand] button >> nth=0")
    page.click("[data-act=discard]")
    page.wait_for_selector("[data-end]:visible")
    shoot(page, f"{lang}_{size}_round_end", "[data-end]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="a built site (site-builder build --out)")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    with serve(args.site) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for lang in ("pl", "vi"):
            for size, viewport in VIEWPORTS.items():
                context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
                page = context.new_page()
                page.set_default_timeout(30_000)
                scenarios(page, base, lang, size)
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
