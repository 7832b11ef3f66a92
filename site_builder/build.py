"""The build, top to bottom: load → verify → render → write.

1. **load** the project into a :class:`site_builder.load.Site` record;
2. **verify** it: every example replayed by the engine, every rule placeholder, every
   template compiled; on any problem, every catalog is checked too, every problem is
   reported and nothing is written;
3. **render** each language into a staging folder next to the output: its catalog is
   read with Babel and checked, its pages and 404 page written, the catalog let go
   (in a pool of processes from :data:`PARALLEL_MIN_PAGES` pages, with ``--jobs`` > 1);
   then each rendered language is indexed for search (:mod:`site_builder.render.search`);
4. **write** the site-wide files (status pages, chooser, root 404, sitemap, robots,
   assets), then put the staging folder in place of the output in one step.

The build's record (:mod:`site_builder.cache`) lets a build with nothing changed write
nothing, and one after a catalog edit render only that language (the others are
linked from the current output into the staging folder).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder.cache import (
    Inputs,
    code_version,
    files_match,
    forget_record,
    hash_inputs,
    read_record,
    write_record,
)
from site_builder.errors import Problem, UserError
from site_builder.output import carry_over, clean_stale, staging, swap
from site_builder.project import CACHE_DIR, output_problem

if TYPE_CHECKING:
    from site_builder.render.pages import Job, LanguageResult

# Languages are rendered in a pool of processes only from this many pages: below it,
# starting the processes costs more than it saves.
PARALLEL_MIN_PAGES = 50


@dataclass
class BuildResult:
    files: list[str]  # every file of the output
    languages: list[str]
    rendered: list[str]  # the languages this build rendered (none: nothing changed)
    claims: int  # how many claims the engine verified
    fallbacks: list[tuple[str, str, int, str]]  # (lang, file, line, English text)


def build(root: Path, out: Path, base_url: str | None = None, strict: bool = False,
          cache: bool = True, jobs: int | None = None, search: bool = True) -> BuildResult:
    """Build the site of *root* into *out*; raise :class:`UserError` with every problem,
    leaving *out* as it was. *jobs*: processes to render with (default: one per core);
    *search*: index each language for search (``check``, which keeps no site, does not)."""
    refused = output_problem(root, out)
    if refused is not None:
        raise UserError([refused])
    out = out.resolve()
    clean_stale(out)  # what killed builds left next to it
    inputs = hash_inputs(root, base_url) if cache else None
    record = read_record(root, out) if inputs is not None else None
    if inputs is not None and record is not None and _unchanged(record, inputs, out):
        _check_strict(strict, record["fallbacks"])
        return BuildResult(sorted(record["all_files"]), list(record["languages"]), [],
                           record["claims"], record["fallbacks"])
    # The stages' modules (Jinja2, Babel, Markdown, the engine) are imported only now: a
    # build with nothing changed takes a third of the time without them.
    from site_builder.i18n.messages import card_terms
    from site_builder.render.pages import Job, LanguageResult, render_language, render_site_files
    from site_builder.sources.site import load, read_catalog, verify
    from site_builder.sources.templates import bytecode_cache

    site, problems = load(root, base_url)  # 1. load
    bytecode = bytecode_cache(root / CACHE_DIR / "jinja" if cache else None, code_version()[:16])
    verified = verify(site, problems, catalogs=False, bytecode=bytecode)  # 2. verify
    if verified.problems:
        terms = card_terms(verified.templates)
        raise UserError(verified.problems + [p for lang in site.languages[1:]
                                             for p in read_catalog(root, lang, terms)[1]])
    reused = _reusable(record, inputs, out, site.languages, LanguageResult.from_json)
    todo = [lang for lang in site.languages if lang not in reused]
    tmp = staging(out)
    try:
        job = Job.of(site, verified, tmp, bytecode)
        done = _render(job, todo, jobs, render_language)  # 3. render
        problems = [p for lang in todo for p in _problems(done[lang])]
        if problems:
            raise UserError(problems)
        from site_builder.render.search import index as search_index

        # each language's search, in the staging folder
        searched = search_index(tmp, todo) if search else {}
        for lang, found in done.items():
            if isinstance(found, LanguageResult):
                found.files.update((f, st) for f, st in searched.items()
                                   if f.startswith(f"{lang}/"))
        for result in reused.values():
            carry_over(out, tmp, result.files)
        results = {**{lang: found for lang, found in done.items()
                      if isinstance(found, LanguageResult)}, **reused}
        results = {lang: results[lang] for lang in site.languages}
        fallbacks = [f for r in results.values() for f in r.fallbacks]
        _check_strict(strict, fallbacks)
        site_files = render_site_files(job, results)  # 4. write
        if inputs is not None:
            forget_record(root, out)
        swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    files = sorted({*site_files, *(f for r in results.values() for f in r.files)})
    if inputs is not None:
        write_record(root, out, {
            "site": inputs.site_key, "claims": len(verified.claims), "fallbacks": fallbacks,
            "languages": {lang: inputs.language_key(lang) for lang in site.languages},
            "results": {lang: r.as_json() for lang, r in results.items()},
            "site_files": site_files, "all_files": files})
    return BuildResult(files, site.languages, todo, len(verified.claims), fallbacks)


Render = Callable[["Job", str], "LanguageResult | list[Problem]"]
_WORKER: tuple[Job, Render] | None = None  # a worker process's job, set when it starts


def _start_worker(job: Job, render: Render) -> None:
    global _WORKER
    _WORKER = (job, render)


def _render_in_worker(lang: str) -> LanguageResult | list[Problem]:
    assert _WORKER is not None
    job, render = _WORKER
    return render(job, lang)


def _render(job: Job, langs: list[str], jobs: int | None, render: Render
            ) -> dict[str, LanguageResult | list[Problem]]:
    """Render *langs*: when the site has :data:`PARALLEL_MIN_PAGES` pages and *jobs*
    allows more than one process, this process renders its share of the languages while
    a pool of processes renders the rest (each process holds the site: one that only
    waited would hold it for nothing)."""
    workers = min(jobs or os.cpu_count() or 1, len(langs))
    if workers < 2 or len(job.site.pages) < PARALLEL_MIN_PAGES:
        return {lang: render(job, lang) for lang in langs}
    # The source language, which has no catalog to read, last: the processes end closer.
    langs = sorted(langs, key=lambda lang: lang == job.site.languages[0])
    ours = langs[::workers]
    with ProcessPoolExecutor(workers - 1, initializer=_start_worker,
                             initargs=(job, render)) as pool:
        theirs = {lang: pool.submit(_render_in_worker, lang)
                  for lang in langs if lang not in ours}
        done = {lang: render(job, lang) for lang in ours}
        done.update((lang, future.result()) for lang, future in theirs.items())
    return done


def _unchanged(record: dict[str, Any], inputs: Inputs, out: Path) -> bool:
    """Whether nothing changed since the recorded build of *out*: inputs and output."""
    try:
        return bool(record["site"] == inputs.site_key and files_match(out, {
            **record["site_files"],
            **{f: st for r in record["results"].values() for f, st in r["files"].items()}}))
    except (KeyError, TypeError, AttributeError):
        return False


def _reusable(record: dict[str, Any] | None, inputs: Inputs | None, out: Path,
              languages: list[str], from_json: Callable[[Any], LanguageResult]
              ) -> dict[str, LanguageResult]:
    """The languages whose recorded rendering *out* still holds, with inputs unchanged."""
    reused: dict[str, LanguageResult] = {}
    if record is None or inputs is None:
        return reused
    for lang in languages:
        try:
            if record["languages"][lang] == inputs.language_key(lang):
                result = from_json(record["results"][lang])
                if files_match(out, result.files):
                    reused[lang] = result
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return reused


def _problems(found: LanguageResult | list[Problem]) -> list[Problem]:
    return found if isinstance(found, list) else []


def _check_strict(strict: bool, fallbacks: list[Any]) -> None:
    if strict and fallbacks:
        raise UserError([Problem(src, line, f"[{lang}] missing or fuzzy translation "
                                            f"(--strict): {text!r}")
                         for lang, src, line, text in fallbacks])
