"""Measure: the CPU time of ``check`` on the real site plus one hostile page of about
--size bytes (issue 33): worked rounds whose every row asks the engine a costly question
(``draw discard`` of a joker onto a 59-card hand under a maxed profile: 4 decks, 8
jokers, 8 a meld, threshold 1000, rami sec), each question bounded on its own.

    .venv/bin/python benchmarks/hostile_page.py [--size 100000] [--out /tmp/hostile-site]
    /usr/bin/time -v .venv/bin/site-builder check --root /tmp/hostile-site

It copies the site's sources to --out, adds the profile to content/profiles.toml and the
page as content/hostile.md, and prints the page's size and number of rounds. ``check``
then fails (exit 2), and the question is how much CPU it spends first: the whole run's
engine work is bounded (ENGINE_STEPS in site_builder/examples/verify.py). With
--steps it instead prints how many search steps the engine took for the real site
alone (what ENGINE_STEPS must leave room for).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from site_builder import engine
from site_builder.build import load
from site_builder.examples import verify_pages

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("content", "templates", "locales", "babel.cfg", "pyproject.toml")
FULL = " ".join(f"{r}{s}" for s in "CDHS" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())
PROFILE = """
[hostile_maxed]
name = "hostile maxed"
decks = 4
jokers = 8
max_jokers_per_meld = 8
adjacent_jokers = true
all_joker_melds = true
opening_threshold = 1000
rami_sec = true
"""
HEAD = ("---\ntitle: Hostile\nslug: hostile\norder: 99\n"
        "description: Many costly worked rounds.\n---\n\nCostly rounds.\n\n")


def block(n: int) -> str:
    return (f"```example\ntable: round\ngame: rami51\nprofile: hostile_maxed\n"
            f"hands: {FULL} {'JK ' * 7}| KC KD\nstock: KS 3C 3D\ndiscard: JK\n\n"
            f"caption: Round {n}\nstep: 1: draw discard\n```\n\n")


def page(size: int) -> tuple[str, int]:
    text, count = HEAD, 0
    while len(text.encode()) + len(block(count + 1).encode()) <= size:
        count += 1
        text += block(count)
    return text, count


def real_site_steps() -> int:
    site, _ = load(ROOT, None, None)
    total = engine.Budget(10**15)
    verify_pages(site.pages, site.profiles, site.broken_profiles, total=total)
    return total.limit - total.left


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--out", type=Path, default=Path("/tmp/hostile-site"))
    parser.add_argument("--steps", action="store_true")
    args = parser.parse_args()
    if args.steps:
        print(f"the real site's examples: {real_site_steps():,} engine search steps")
        return
    shutil.rmtree(args.out, ignore_errors=True)
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, args.out / name)
        elif source.exists():
            shutil.copy2(source, args.out / name)
    with open(args.out / "content" / "profiles.toml", "a", encoding="utf-8") as profiles:
        profiles.write(PROFILE)
    text, count = page(args.size)
    (args.out / "content" / "hostile.md").write_text(text, encoding="utf-8")
    print(f"{args.out}/content/hostile.md: {len(text.encode()):,} bytes, {count} rounds")


if __name__ == "__main__":
    main()
