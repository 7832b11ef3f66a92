"""A bare Jinja2 + Python-Markdown loop over the pages written for MkDocs: a speed yardstick.

    .venv/bin/python benchmarks/bare_loop.py --docs /tmp/rami-compare-1000/bare/docs \\
        --out /tmp/rami-compare-1000/bare/site

``benchmarks/compare.py`` runs it as its own process, like the other tools (tool ``bare``).
It reads ``DOCS/<lang>/<slug>.md`` (front matter with ``title`` and ``description``, then
Markdown), renders each page with Python-Markdown (extension ``tables``) into one small
Jinja2 template with a language switcher (hreflang links), a nav of 12 nearby pages
(the home page and the 11 around the page, as site-builder's) and the content, and writes
``OUT/<lang>/<slug>/index.html`` (``OUT/<lang>/index.html`` for ``index``). One process,
no cache, no parallelism: what the machine does with the plainest loop, to set the
other tools' figures against figures measured on another machine.

Pages are read twice (titles first, for the nav, then one page at a time), so that the
loop holds one page's text at a time, not the corpus.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import jinja2
import markdown  # type: ignore[import-untyped]
from markupsafe import Markup

TEMPLATE = """<!DOCTYPE html>
<html lang="{{ lang }}">
<head>
<meta charset="utf-8">
<title>{{ title }}</title>
<meta name="description" content="{{ description }}">
{% for alt in switcher %}<link rel="alternate" hreflang="{{ alt.lang }}" href="{{ alt.href }}">
{% endfor %}</head>
<body>
<nav class="languages"><ul>
{% for alt in switcher %}<li><a href="{{ alt.href }}" hreflang="{{ alt.lang }}">
{{- alt.lang }}</a></li>
{% endfor %}</ul></nav>
<nav class="site-nav"><ul>
{% for item in nav %}<li><a href="{{ item.href }}">{{ item.title }}</a></li>
{% endfor %}</ul></nav>
<main>
{{ content }}
</main>
</body>
</html>
"""

NAV_AROUND = 5


def front_matter(text: str) -> tuple[dict[str, str], str]:
    """The ``key: "value"`` lines between ``---`` lines, and the Markdown after them."""
    meta: dict[str, str] = {}
    if text.startswith("---\n"):
        head, _, text = text[4:].partition("\n---\n")
        for line in head.splitlines():
            key, _, value = line.partition(":")
            value = value.strip()
            if value.startswith('"') and value.endswith('"'):
                value = value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
            meta[key.strip()] = value
    return meta, text


def url(lang: str, slug: str) -> str:
    return f"/{lang}/" if slug == "index" else f"/{lang}/{slug}/"


def nav_indexes(count: int, current: int) -> list[int]:
    """The home page (position 0) and the 11 pages around *current*."""
    start = max(1, min(current - NAV_AROUND, count - 2 * NAV_AROUND - 1))
    return [0, *range(start, min(count, start + 2 * NAV_AROUND + 1))]


def build(docs: Path, out: Path) -> int:
    langs = sorted(p.name for p in docs.iterdir() if p.is_dir())
    template = jinja2.Environment(autoescape=True).from_string(TEMPLATE)
    md = markdown.Markdown(extensions=["tables"])
    names = {lang: {p.name for p in (docs / lang).glob("*.md")} for lang in langs}
    written = 0
    for lang in langs:
        files = sorted((docs / lang).glob("*.md"), key=lambda p: (p.stem != "index", p.stem))
        slugs = [p.stem for p in files]
        titles = [front_matter(p.read_text(encoding="utf-8"))[0].get("title", p.stem)
                  for p in files]
        for n, (path, slug) in enumerate(zip(files, slugs, strict=True)):
            meta, body = front_matter(path.read_text(encoding="utf-8"))
            content = md.reset().convert(body)
            html = template.render(
                lang=lang, title=meta.get("title", slug), description=meta.get("description", ""),
                switcher=[{"lang": other, "href": url(other, slug)} for other in langs
                          if path.name in names[other]],
                nav=[{"title": titles[i], "href": url(lang, slugs[i])}
                     for i in nav_indexes(len(files), n)],
                content=Markup(content))
            target = out / lang / ("index.html" if slug == "index" else f"{slug}/index.html")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(html, encoding="utf-8")
            written += 1
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, required=True,
                        help="folder with one subfolder of Markdown pages per language")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    written = build(args.docs, args.out)
    print(f"wrote {written} pages to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
