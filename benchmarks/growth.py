"""How the build grows with the site: cold builds of 250, 1,000 and 2,000 source pages, side
by side in one run, with the figures per output page.

    .venv/bin/python benchmarks/growth.py                      # 250, 1000, 2000
    .venv/bin/python benchmarks/growth.py --sizes 250,1000 --code /tmp/old-checkout

Each size is a corpus of ``benchmarks/make_corpus.py`` (N source pages and a home page, in
five languages), built with ``site-builder build --no-cache`` into an empty folder. For
each it prints the wall time, the CPU time (site-builder and the Pagefind it starts), the
output's bytes, and the peak memory (the largest resident set of one process, and the
sampled peak of the whole process tree), each also per output page (an ``.html`` file),
then the growth of each figure per output page from the smallest size to each other.
A site that grows with its pages, not with their square, keeps the figures per page
about the same at every size.

``--code DIR``: another checkout (``git worktree add /tmp/old HEAD~3``), whose
``make_corpus.py`` (and so its templates) and ``site_builder`` are measured instead: the
same figures before a change. The machine's load average is printed beside the figures;
compare ratios measured in one run, not figures of two runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import run  # noqa: E402  (the measuring of compare.py: time, CPU, peaks)

SIZES = (250, 1000, 2000)


#: The parts of the output that grow with the pages, by where they are written: each
#: should grow no faster than the pages (bytes per output page about the same at each size).
KINDS = (("search index", "*/pagefind/**/*"), ("service workers", "*/sw.js"),
         ("sitemap", "sitemap*.xml"), ("status pages", "*/translation-status/index.html"),
         ("menu files", "*/menu.html"))


def output_figures(out: Path) -> tuple[int, int, int, dict[str, int]]:
    """The output's pages (``.html`` files), all its bytes, its pages' bytes, and the bytes
    of each of :data:`KINDS`."""
    pages = files = html = 0
    for path in out.rglob("*"):
        if path.is_file():
            size = path.stat().st_size
            files += size
            if path.suffix == ".html":
                pages += 1
                html += size
    kinds = {kind: sum(p.stat().st_size for p in out.glob(pattern) if p.is_file())
             for kind, pattern in KINDS}
    return pages, files, html, kinds


def measure(size: int, work: Path, code: Path) -> dict[str, float]:
    """One cold build of a corpus of *size* source pages, written by *code*'s
    make_corpus.py and built by its site_builder."""
    corpus = work / f"corpus-{size}"  # written again: it copies the templates it is built with
    subprocess.run([sys.executable, str(code / "benchmarks" / "make_corpus.py"), "--pages",
                    str(size), "--out", str(corpus)], check=True)
    out = work / f"dist-{size}"
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(corpus / ".cache", ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": str(code)}
    load = os.getloadavg()[0]
    wall, cpu, peak, tree = run([sys.executable, "-m", "site_builder", "build", "--root",
                                 str(corpus), "--out", str(out), "--no-cache"], corpus, env)
    pages, files, html, kinds = output_figures(out)
    shutil.rmtree(out, ignore_errors=True)
    return {"size": size, "pages": pages, "wall": wall, "cpu": cpu, "bytes": files,
            "html": html, "peak": peak, "tree": tree, "load": load, **kinds}


def report(rows: list[dict[str, float]]) -> str:
    lines = [f"{'source':>6} {'output':>6} {'wall':>7} {'CPU':>7} {'bytes':>8} {'peak':>5} "
             f"{'tree':>5} | {'ms/page':>7} {'CPU ms/page':>11} {'KB/page':>7} "
             f"{'HTML KB/page':>12} {'KiB/page':>8} | {'load':>4}",
             f"{'pages':>6} {'pages':>6} {'s':>7} {'s':>7} {'MB':>8} {'MiB':>5} {'MiB':>5} |"]
    for r in rows:
        n = r["pages"]
        lines.append(f"{r['size']:6.0f} {n:6.0f} {r['wall']:7.1f} {r['cpu']:7.1f} "
                     f"{r['bytes'] / 1e6:8.1f} {r['peak']:5.0f} {r['tree']:5.0f} | "
                     f"{1000 * r['wall'] / n:7.2f} {1000 * r['cpu'] / n:11.2f} "
                     f"{r['bytes'] / 1e3 / n:7.1f} {r['html'] / 1e3 / n:12.1f} "
                     f"{1024 * r['peak'] / n:8.1f} | {r['load']:4.1f}")
    lines.append("bytes per output page of each part that grows with the pages:")
    for kind, _ in KINDS:
        lines.append(f"  {kind:16}" + "".join(f" {r[kind] / r['pages']:9.0f} B ({r['size']:.0f})"
                                             for r in rows))
    first = rows[0]
    for r in rows[1:]:
        def growth(key: str, r: dict[str, float] = r) -> float:
            return (r[key] / r["pages"]) / (first[key] / first["pages"])

        lines.append(f"per output page, {r['size']:.0f} vs {first['size']:.0f} source pages: "
                     f"time x{growth('wall'):.2f}, CPU x{growth('cpu'):.2f}, "
                     f"bytes x{growth('bytes'):.2f}, HTML bytes x{growth('html'):.2f}; "
                     f"peak memory x{r['peak'] / first['peak']:.2f} for "
                     f"x{r['pages'] / first['pages']:.2f} the pages")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)),
                        help="source pages of each corpus, comma-separated")
    parser.add_argument("--work", type=Path, default=Path("/tmp/rami-growth"),
                        help="folder for the corpora (written anew, and kept)")
    parser.add_argument("--code", type=Path, default=ROOT,
                        help="the checkout to measure (default: this one)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    code = args.code.resolve()
    work = args.work / ("this" if code == ROOT else code.name)
    work.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(code / "site_builder")],
                   check=True)
    rows = []
    for size in sizes:
        rows.append(measure(size, work, code))
        r = rows[-1]
        print(f"{size} source pages: {r['pages']:.0f} output pages, wall {r['wall']:.1f} s, "
              f"CPU {r['cpu']:.1f} s, peak {r['peak']:.0f} MiB (load {r['load']:.1f})",
              file=sys.stderr, flush=True)
    load = os.getloadavg()
    print(f"cold builds (--no-cache) of {code}, {os.cpu_count()} CPUs; load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")
    print(report(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
