"""The build, top to bottom: load → verify → render → write.

1. **load** (:mod:`site_builder.sources`): the project's files into a
   :class:`~site_builder.sources.site.Site`;
2. **verify** (:mod:`site_builder.verify`): every example replayed by the engine, every
   placeholder and link, every template compiled, every catalog read and checked; on any
   problem, every problem is reported and nothing is written. ``site-builder check`` is
   :func:`check`: these two stages, and the templates rendered in memory;
3. **render** (:mod:`site_builder.render`): each language's pages into a staging folder
   next to the output, then its search index, then the site-wide files;
4. **write** (:mod:`site_builder.output`): the staging folder put in place of the output.

The build's record (:mod:`site_builder.cache`) lets a build with nothing changed write
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from site_builder.cache import (
    code_version,
    files_match,
    forget_record,
    hash_inputs,
    language_keys,
    read_record,
    write_record,
)
from site_builder.errors import Problem, UserError
from site_builder.i18n.catalog import Key, Unknown
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
from site_builder.project import CACHE_DIR
from site_builder.render import search
from site_builder.render.offline import offline_files
from site_builder.render.pages import Job, LanguageResult, render_language
from site_builder.render.site_files import render_site_files
from site_builder.sources.site import load
from site_builder.sources.templates import bytecode_cache
from site_builder.verify import Verified, verify


@dataclass
class Kept:
    """A language's rendering (its files and what the site-wide files need of it), kept
    in memory by a long-running process (``serve``) for the next build: a translator's
    catalog edit renders that language again, not the others."""

    key: str  # what its pages depend on (site_builder.cache.language_keys)
    result: LanguageResult
    files: dict[str, bytes]


@dataclass
class BuildResult:
    files: list[str]  # every file of the output
    languages: list[str]
    rendered: list[str]  # the languages this build rendered (none: nothing changed)
    claims: int  # how many claims the engine verified
    fallbacks: list[tuple[str, str, int, str]]  # (lang, file, line, English text)
    # each message looked up that the template lacks, where (a warning; an error --strict)
    unknown: list[Problem] = field(default_factory=list)


def load_and_verify(root: Path, base_url: str | None = None, cache: bool = True) -> Verified:
    """Stages 1 and 2: the site of *root*, loaded and verified, with every problem found
    (*cache*: the compiled templates kept in ``ROOT/.cache/``)."""
    site, problems = load(root, base_url)
    bytecode = bytecode_cache(root / CACHE_DIR / "jinja" if cache else None, code_version()[:16])
    return verify(site, problems, bytecode=bytecode)


def check(root: Path) -> Verified:
    """What ``site-builder check`` runs: load and verify, then every page and site-wide
    file rendered in memory (a template can fail only while rendering, and only in one
    language: ``{% if lang == "pl" %}``), nothing written and nothing indexed. Every
    problem ``build`` would report is in the result's problems."""
    verified = load_and_verify(root)
    if not verified.problems:
        job = Job.of(verified, None)
        try:
            results = {lang: render_language(job, lang) for lang in verified.site.languages}
            _, verified.lookups = render_site_files(job, results)
            verified.problems.extend(unknown_problems(verified.lookups))
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
          cache: bool = True, search_index: bool = True, keep: dict[str, Kept] | None = None
          ) -> BuildResult:
    """Build the site of *root* into *out*; raise :class:`UserError` with every problem,
    leaving *out* as it was. *keep*: the languages kept from the last build of this
    process, used again where their inputs are unchanged, and updated."""
    refused = refusal(out, root, recorded_files(root, out.resolve()))
    if refused is not None:
        raise UserError([refused])
    out = out.resolve()
    with locked(out):  # another build of *out* waits
        clean_stale(out)  # what killed builds left next to it
        refused = refusal(out, root, recorded_files(root, out))  # again, under the lock
        if refused is not None:
            raise UserError([refused])
        return _build(root, out, base_url, strict, cache, search_index, keep)


def recorded_files(root: Path, out: Path) -> dict[str, list[int]] | None:
    """The files of the last build of *out* recorded in *root*'s cache (which vouch for
    an output written before builds wrote their marker), or None."""
    found = read_record(root, out)
    return None if found is None else found["files"]


def _build(root: Path, out: Path, base_url: str | None, strict: bool, cache: bool,
           search_index: bool, keep: dict[str, Kept] | None) -> BuildResult:
    keys = language_keys(root, base_url) if cache or keep is not None else {}
    inputs = hash_inputs(keys) if cache else None
    found = read_record(root, out) if inputs is not None else None
    if found is not None and found.get("site") == inputs and files_match(out, found["files"]):
        unknown = [Problem(*p) for p in found.get("unknown", [])]
        _check_strict(strict, found["fallbacks"], unknown)  # nothing changed
        return BuildResult(sorted(found["files"]), found["languages"], [], found["claims"],
                           found["fallbacks"], unknown)
    verified = load_and_verify(root, base_url, cache)  # 1. load, 2. verify
    if verified.problems:
        raise UserError(verified.problems)
    site = verified.site
    kept = {lang: k for lang, k in (keep or {}).items()
            if lang in site.languages and keys.get(lang) == k.key}
    todo = [lang for lang in site.languages if lang not in kept]
    tmp = staging(out)
    try:
        job = Job.of(verified, tmp)
        results = {lang: render_language(job, lang) for lang in todo}  # 3. render
        fallbacks = [f for lang in site.languages
                     for f in (results[lang] if lang in results else kept[lang].result).fallbacks]
        _check_strict(strict, fallbacks, unknown_problems(
            {lang: (results[lang] if lang in results else kept[lang].result).unknown
             for lang in site.languages}))  # before the search index is made
        files = {f: st for r in results.values() for f, st in r.files.items()}
        if search_index:
            files.update(search.index(tmp, todo))
        for lang, k in kept.items():
            results[lang] = k.result
            files.update((rel, job.write(rel, data)) for rel, data in k.files.items())
        if keep is not None:
            keep.clear()
            keep.update((lang, Kept(keys[lang], results[lang], {
                rel: (tmp / rel).read_bytes() for rel in files if rel.startswith(f"{lang}/")}))
                for lang in site.languages)
        results = {lang: results[lang] for lang in site.languages}
        written, lookups = render_site_files(job, results)
        files.update(written)
        files.update(offline_files(job, tmp, files))  # last before the marker: it hashes them
        unknown = unknown_problems(lookups)
        _check_strict(strict, [], unknown)
        files[MARKER] = job.write(MARKER, marker(files))  # last: the output is whole
        recorded = recorded_files(root, out)  # vouches for an output from before markers
        if inputs is not None:
            forget_record(root, out)
        swap(tmp, out, recorded)  # 4. write
    except BaseException:
        discard(tmp)
        raise
    if inputs is not None:
        write_record(root, out, {"site": inputs, "claims": len(verified.claims),
                                 "fallbacks": fallbacks, "languages": site.languages,
                                 "files": files,
                                 "unknown": [[p.path, p.line, p.message] for p in unknown]})
    return BuildResult(sorted(files), site.languages, todo, len(verified.claims), fallbacks,
                       unknown)


def _check_strict(strict: bool, fallbacks: list[tuple[str, str, int, str]],
                  unknown: list[Problem]) -> None:
    if strict and (fallbacks or unknown):
        raise UserError([Problem(src, line, f"[{lang}] missing or fuzzy translation "
                                            f"(--strict): {text!r}")
                         for lang, src, line, text in fallbacks] + unknown)
