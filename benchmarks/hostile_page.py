"""Measure: the CPU time of ``check`` on the real site plus one hostile page of about
--size bytes: worked rounds whose every row asks the engine a costly question
(``draw discard`` of a joker onto a 59-card hand under a maxed profile: 4 decks, 8
jokers, 8 a meld, threshold 1000, rami sec), each question bounded on its own.

    .venv/bin/python benchmarks/hostile_page.py [--size 100000] [--out /tmp/hostile-site]
    /usr/bin/time -v .venv/bin/site-builder check --root /tmp/hostile-site

With --kind refused, the page is instead one long round (two seats passing cards through
the discard pile, under the free_discard profile) whose every row states a refused step:
each such row replays the round up to it, so the work grows with the square of its rows.

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


def refused_page(size: int) -> tuple[str, int]:
    """One round of about *size* bytes, a refused step stated on every row."""
    text = (f"{HEAD}```example\ntable: round\ngame: rami51\nprofile: free_discard\n"
            "hands: 5H 9D 4S | 9C 10D 6S\nstock: KS 3D KD\ndiscard: 7C\n\n")
    spare, top, count = [["5H"], ["9C"]], "7C", 0  # each seat discards its oldest spare
    while len(text.encode()) < size - 80:
        seat = count // 2 % 2
        if count % 2 == 0:
            step = f"{seat + 1}: draw discard"
            spare[seat].append(top)
        else:
            top = spare[seat].pop(0)
            step = f"{seat + 1}: discard {top}"
        text += f"caption: Row {count}\nstep: {step}\nrefused: {seat + 1}: discard KS\n\n"
        count += 1
    return text + "```\n", count


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
    parser.add_argument("--kind", choices=["draws", "refused"], default="draws")
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
    # the practice table's runtime, as npm ci gives a checkout (check reads it there only)
    (args.out / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    with open(args.out / "content" / "profiles.toml", "a", encoding="utf-8") as profiles:
        profiles.write(PROFILE)
    text, count = page(args.size) if args.kind == "draws" else refused_page(args.size)
    (args.out / "content" / "hostile.md").write_text(text, encoding="utf-8")
    what = "rounds" if args.kind == "draws" else "rows"
    print(f"{args.out}/content/hostile.md: {len(text.encode()):,} bytes, {count} {what}")


if __name__ == "__main__":
    main()
