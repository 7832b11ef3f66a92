"""The build, top to bottom: load → verify → render → index → write, each stage a function
over what the one before returned.

1. **load** (:mod:`site_builder.sources`): the project's files into a
   :class:`~site_builder.sources.site.Site`;
2. **verify** (:mod:`site_builder.verify`): every example replayed by the engine, every
   placeholder and link, every template compiled, every catalog read and checked; on any
   problem, every problem is reported and nothing is written;
3. **render** (:func:`render`): each language's pages into a staging folder next to the
   output, then the site-wide files; what it gives (:class:`Rendered`) holds every message
   looked up that the template lacks, as data;
4. **index** (:class:`site_builder.render.search.Indexer`): each rendered language's search
   index, by Pagefind, started as soon as the language is rendered, while the next renders;
5. **write** (:mod:`site_builder.output`): the staging folder put in place of the output.

Around the stages, not inside them:

* **the build's record** (:mod:`site_builder.cache`): with nothing changed, a build reads
  its result from the record and writes nothing;
* **strict mode**: a check on what render gave, before the output is written (a failed
  build's staging folder, with what Pagefind indexed, is discarded);
* **the reuse of languages**: a :class:`~site_builder.session.Session` (``serve``'s, a
  test's) gives the languages whose inputs are unchanged to render, which writes them
  again from memory, and keeps this build's for the next.

``site-builder check`` is :func:`check`: stages 1 to 3, in memory.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.cache import (
    Store,
    files_match,
    forget_record,
    hash_inputs,
    language_keys,
    read_record,
    write_record,
)
from site_builder.errors import Problem, UserError
from site_builder.i18n.translator import Key, Unknown
from site_builder.output import (
    MARKER,
    clean_stale,
    discard,
    locked,
    marker,
    refusal,
    staging,
    swap,
)
from site_builder.project import CACHE_DIR, build_date
from site_builder.render import search
from site_builder.render.offline import offline_files
from site_builder.render.pages import Job, LanguageResult, render_language
from site_builder.render.site_files import render_site_files
from site_builder.session import Kept, Session
from site_builder.sources.site import load
from site_builder.sources.templates import bytecode_cache
from site_builder.verify import Verified, verify

Fallback = tuple[str, str, int, str]  # (lang, file, line, English text)


@dataclass
class BuildResult:
    files: list[str]  # every file of the output
    languages: list[str]
    rendered: list[str]  # the languages this build rendered (none: nothing changed)
    claims: int  # how many claims the engine verified
    fallbacks: list[Fallback]
    # each message looked up that the template lacks, where (a warning; an error --strict)
    unknown: list[Problem] = field(default_factory=list)


@dataclass
class Rendered:
    """What the render stage gives: each language's result (in site order), the files
    written (size, mtime), each language's messages looked up that the template lacks, and
    the languages rendered (the others were written again from a session's memory)."""

    languages: dict[str, LanguageResult]
    files: dict[str, tuple[int, int]]
    lookups: dict[str, dict[Key, Unknown]]
    rendered: list[str]

    @property
    def fallbacks(self) -> list[Fallback]:
        return [f for result in self.languages.values() for f in result.fallbacks]

    @property
    def unknown(self) -> list[Problem]:
        return unknown_problems(self.lookups)


def load_and_verify(root: Path, base_url: str | None = None, cache: bool = True,
                    session: Session | None = None, date: str | None = None) -> Verified:
    """Stages 1 and 2: the site of *root*, loaded and verified, with every problem found
    (*cache*: the compiled templates, the catalogs' checks and the templates' and code's
    messages kept in ``ROOT/.cache/``; *date*: the build's)."""
    session = session or Session()
    site, problems = load(root, base_url, date)
    bytecode = bytecode_cache(root / CACHE_DIR / "jinja" if cache else None,
                              session.code_version()[:16])
    store = Store(root / CACHE_DIR, session.code_version()) if cache else None
    return verify(site, problems, bytecode, session.verify, session.engine_steps, store)


def render(job: Job, kept: Mapping[str, Kept] | None = None,
           rendered_one: Callable[[str], object] | None = None) -> Rendered:
    """Stage 3: each language's pages, 404 page and quick-reference sheets, then the
    site-wide files (the status pages, once each, counting what the languages' pages looked
    up). The languages in *kept* are not rendered: their files are written again.
    *rendered_one(lang)*: called as each language is rendered (stage 4 starts on it)."""
    kept = kept or {}
    site = job.site
    todo = [lang for lang in site.languages if lang not in kept]
    results = {}
    for lang in todo:
        results[lang] = render_language(job, lang)
        if rendered_one is not None:
            rendered_one(lang)
    files = {f: st for r in results.values() for f, st in r.files.items()}
    for lang, k in kept.items():
        results[lang] = k.result
        files.update((rel, job.write(rel, data)) for rel, data in k.files.items())
    results = {lang: results[lang] for lang in site.languages}
    written, lookups = render_site_files(job, results)
    files.update(written)
    return Rendered(results, files, lookups, todo)


def check(root: Path, session: Session | None = None) -> Verified:
    """What ``site-builder check`` runs: load and verify, then every page and site-wide
    file rendered in memory (a template can fail only while rendering, and only in one
    language: ``{% if lang == "pl" %}``), nothing written and nothing indexed. Every
    problem ``build`` would report is in the result's problems."""
    verified = load_and_verify(root, session=session, date=build_date(root))
    if not verified.problems:
        try:
            rendered = render(Job.of(verified, None))
            verified.lookups = rendered.lookups
            verified.problems.extend(rendered.unknown)
        except UserError as exc:
            verified.problems.extend(exc.problems)
    return verified


def unknown_problems(unknown: dict[str, dict[Key, Unknown]]) -> list[Problem]:
    """One problem for each message looked up that the template lacks, at the template or
    code line that looked it up, once whichever languages looked it up (by file and line)."""
    found = {(u.path, u.line, u.context, u.msgid): u for lookups in unknown.values()
             for u in lookups.values()}
    return [found[key].problem() for key in sorted(found, key=lambda k: (k[0], k[1], repr(k[2:])))]


def build(root: Path, out: Path, base_url: str | None = None, strict: bool = False,
          cache: bool = True, search_index: bool = True, session: Session | None = None,
          marked: str | None = None) -> BuildResult:
    """Build the site of *root* into *out*; raise :class:`UserError` with every problem,
    leaving *out* as it was. *session*: what the earlier builds of this process keep
    (:class:`~site_builder.session.Session`), used again where the inputs are unchanged,
    and updated; none: this build is the only one. *marked*: the translator's preview's
    language, whose texts from the catalog are marked on its pages (``serve --translate``:
    :mod:`site_builder.translate.marks`); never in a build for publishing."""
    refused = refusal(out, root, recorded_files(root, out.resolve()))
    if refused is not None:
        raise UserError([refused])
    out = out.resolve()
    with locked(out):  # another build of *out* waits
        clean_stale(out)  # what killed builds left next to it
        refused = refusal(out, root, recorded_files(root, out))  # again, under the lock
        if refused is not None:
            raise UserError([refused])
        return _build(root, out, base_url, strict, cache, search_index, session, marked)


def recorded_files(root: Path, out: Path) -> dict[str, list[int]] | None:
    """The files of the last build of *out* recorded in *root*'s cache (which vouch for
    an output written before builds wrote their marker), or None."""
    found = read_record(root, out)
    return None if found is None else found["files"]


def _build(root: Path, out: Path, base_url: str | None, strict: bool, cache: bool,
           search_index: bool, session: Session | None, marked: str | None = None
           ) -> BuildResult:
    reuse = session is not None
    session = session or Session()
    date = build_date(root)  # asked once a build: a new commit's date is seen at once
    keys = (language_keys(root, base_url, session.code_version(), date) if cache or reuse
            else {})
    inputs = hash_inputs(keys) if cache else None
    unchanged = _recorded(root, out, inputs)  # the record, around the pipeline
    if unchanged is not None:
        _check_strict(strict, unchanged.fallbacks, unchanged.unknown)
        return unchanged

    verified = load_and_verify(root, base_url, cache, session, date)  # 1. load, 2. verify
    if verified.problems:
        raise UserError(verified.problems)
    give_back_memory()  # what reading the catalogs freed, before Pagefind runs beside us
    site = verified.site
    tmp = staging(out)
    indexer: search.Indexer | None = None
    try:
        indexer = search.Indexer(tmp) if search_index else None
        job = Job.of(verified, tmp)
        job.marked = marked
        rendered = render(job, session.kept(keys, site.languages),  # 3. render, and
                          indexer.add if indexer else None)  # 4. index each language
        _check_strict(strict, rendered.fallbacks, rendered.unknown)
        indexed = indexer.finish() if indexer else {}
        files = {**rendered.files, **indexed}
        if reuse:
            _keep(session, keys, rendered, indexed, tmp)
        files.update(offline_files(job, tmp, files))  # last before the marker: it hashes them
        files[MARKER] = job.write(MARKER, marker(files))  # last: the output is whole
        recorded = recorded_files(root, out)  # vouches for an output from before markers
        if inputs is not None:
            forget_record(root, out)
        swap(tmp, out, recorded)  # 5. write
    except BaseException:
        if indexer is not None:
            indexer.close()  # before its folder goes
        discard(tmp)
        raise
    result = BuildResult(sorted(files), site.languages, rendered.rendered,
                         len(verified.claims), rendered.fallbacks, rendered.unknown)
    if inputs is not None:
        write_record(root, out, {"site": inputs, "claims": result.claims,
                                 "fallbacks": result.fallbacks, "languages": site.languages,
                                 "files": files, "unknown": [[p.path, p.line, p.message]
                                                             for p in result.unknown]})
    return result


def give_back_memory() -> None:
    """Return the memory the process has freed to the system (glibc's ``malloc_trim``;
    nothing elsewhere). Python's allocator keeps what it freed for the next allocation: at
    5,005 pages, the Babel catalogs read and checked left 136 MiB where 118 MiB were in
    use, and the build kept those 18 MiB beside each Pagefind to its end."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


def _recorded(root: Path, out: Path, inputs: str | None) -> BuildResult | None:
    """The last build's result, if it was of these *inputs* and *out* holds what it wrote:
    nothing changed."""
    found = read_record(root, out) if inputs is not None else None
    if found is None or found.get("site") != inputs or not files_match(out, found["files"]):
        return None
    return BuildResult(sorted(found["files"]), found["languages"], [], found["claims"],
                       found["fallbacks"], [Problem(*p) for p in found.get("unknown", [])])


def _keep(session: Session, keys: dict[str, str], rendered: Rendered,
          indexed: dict[str, tuple[int, int]], tmp: Path) -> None:
    """Keep each language's rendering in *session* for the next build: its pages and its
    search index, as written into the staging folder *tmp*."""
    kept = dict(session.languages)
    session.languages.clear()
    for lang, result in rendered.languages.items():
        if lang not in rendered.rendered:
            session.languages[lang] = kept[lang]
            continue
        names = [*result.files, *(rel for rel in indexed if rel.startswith(f"{lang}/"))]
        session.languages[lang] = Kept(keys[lang], result,
                                       {rel: (tmp / rel).read_bytes() for rel in names})


def _check_strict(strict: bool, fallbacks: list[Fallback],
                  unknown: list[Problem]) -> None:
    if strict and (fallbacks or unknown):
        raise UserError([Problem(src, line, f"[{lang}] missing or fuzzy translation "
                                            f"(--strict): {text!r}")
                         for lang, src, line, text in fallbacks] + unknown)
