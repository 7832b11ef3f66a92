"""The build, top to bottom: load → verify → render → write.

1. **load** the project into a :class:`site_builder.load.Site` record;
2. **verify** it: every example replayed by the engine, every rule placeholder, every
   template compiled; on any problem, every catalog is checked too, every problem is
   reported and nothing is written;
3. **render** each language into a staging folder next to the output: its catalog is
   read with Babel and checked, its pages and 404 page written, the catalog let go
   (in a pool of processes from :data:`PARALLEL_MIN_PAGES` pages, with ``--jobs`` > 1);
4. **write** the site-wide files (status pages, chooser, root 404, sitemap, robots,
   assets), then put the staging folder in place of the output in one step.

The build's record (:mod:`site_builder.cache`) lets a build with nothing changed write
nothing, and one after a catalog edit render only that language (the others are
linked from the current output into the staging folder).
"""

from __future__ import annotations

import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
from site_builder.examples import PROFILES_FILE
from site_builder.i18n import native_names
from site_builder.load import Site, Verified, load, read_catalog, rule_values, verify
from site_builder.messages import card_terms
from site_builder.output import carry_over, clean_stale, staging, swap
from site_builder.project import CACHE_DIR, output_problem
from site_builder.render import Job, LanguageResult, render_language, render_site_files
from site_builder.templating import bytecode_cache

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
          cache: bool = True, jobs: int | None = None) -> BuildResult:
    """Build the site of *root* into *out*; raise :class:`UserError` with every problem,
    leaving *out* as it was. *jobs*: processes to render with (default: one per core)."""
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

    site, problems = load(root, base_url)  # 1. load
    bytecode = bytecode_cache(root / CACHE_DIR / "jinja" if cache else None,
                              code_version()[:16])
    verified = verify(site, problems, catalogs=False, bytecode=bytecode)  # 2. verify
    terms = card_terms(verified.templates)
    if verified.problems:
        raise UserError(verified.problems + [p for lang in site.languages[1:]
                                             for p in read_catalog(root, lang, terms)[1]])
    reused = _reusable(record, inputs, out, site.languages)
    todo = [lang for lang in site.languages if lang not in reused]
    tmp = staging(out)
    try:
        job = _job(site, verified, tmp, bytecode)
        done = _render(job, todo, jobs)  # 3. render
        problems = [p for lang in todo if isinstance(done[lang], list) for p in done[lang]]
        if problems:
            raise UserError(problems)
        for result in reused.values():
            carry_over(out, tmp, result.files)
        results: dict[str, LanguageResult] = {
            lang: reused[lang] if lang in reused else done[lang]  # type: ignore[misc]
            for lang in site.languages}
        fallbacks = [f for result in results.values() for f in result.fallbacks]
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


def _job(site: Site, verified: Verified, tmp: Path, bytecode: Any) -> Job:
    """What every language's rendering reads."""
    templates = verified.templates
    profiles = sorted(site.profiles.values(), key=lambda p: p.line)
    other = [(p.name, None, PROFILES_FILE) for p in profiles]
    other += [(m.msgid, m.context, m.source) for m in templates]
    return Job(site, verified.tables, rule_values(), native_names(site.languages), tmp,
               card_terms(templates), other,
               [(m.msgid, m.context) for m in templates], bytecode)


_JOB: Job | None = None  # a worker process's job, set when it starts


def _start_worker(job: Job) -> None:
    global _JOB
    _JOB = job


def _render_in_worker(lang: str) -> LanguageResult | list[Problem]:
    assert _JOB is not None
    return render_language(_JOB, lang)


def _render(job: Job, langs: list[str], jobs: int | None
            ) -> dict[str, LanguageResult | list[Problem]]:
    """Render *langs*: in a pool of processes, a language each at a time, when the site
    has :data:`PARALLEL_MIN_PAGES` pages and *jobs* allows more than one process."""
    workers = min(jobs or os.cpu_count() or 1, len(langs))
    if workers < 2 or len(job.site.pages) < PARALLEL_MIN_PAGES:
        return {lang: render_language(job, lang) for lang in langs}
    with ProcessPoolExecutor(workers, initializer=_start_worker, initargs=(job,)) as pool:
        return dict(zip(langs, pool.map(_render_in_worker, langs), strict=True))


def _unchanged(record: dict[str, Any], inputs: Inputs, out: Path) -> bool:
    """Whether nothing changed since the recorded build of *out*: inputs and output."""
    try:
        return bool(record["site"] == inputs.site_key and files_match(out, {
            **record["site_files"],
            **{f: st for r in record["results"].values() for f, st in r["files"].items()}}))
    except (KeyError, TypeError, AttributeError):
        return False


def _reusable(record: dict[str, Any] | None, inputs: Inputs | None, out: Path,
              languages: list[str]) -> dict[str, LanguageResult]:
    """The languages whose recorded rendering *out* still holds, with inputs unchanged."""
    reused: dict[str, LanguageResult] = {}
    if record is None or inputs is None:
        return reused
    for lang in languages:
        try:
            if record["languages"][lang] == inputs.language_key(lang):
                result = LanguageResult.from_json(record["results"][lang])
                if files_match(out, result.files):
                    reused[lang] = result
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return reused


def _check_strict(strict: bool, fallbacks: list[Any]) -> None:
    if strict and fallbacks:
        raise UserError([Problem(src, line, f"[{lang}] missing or fuzzy translation "
                                            f"(--strict): {text!r}")
                         for lang, src, line, text in fallbacks])
