"""The build, as four stages: load → verify → render → write.

Nothing is written until every input has been read and checked. Output goes to a
temporary folder next to the destination, which then replaces it in one step.

A build to a folder (:func:`build`) holds little of the site at a time:

* load and verify: each page is read, parsed and its examples replayed, then only its
  front matter is kept (:func:`scan_site`); meanwhile worker processes read and check
  the catalogs (:class:`CatalogReader`) into :class:`site_builder.po.CompactCatalog`,
  and a forked worker compiles the templates (:class:`TemplateWorker`);
* render: runs of pages are rendered by this process and forked workers that share the
  catalogs; each page is read again (its bytes must not have changed) and rendered in
  every language (:func:`_render_languages`); a site too small for that has its
  languages rendered half in a forked worker (:func:`_render_split`); catalogs too
  large to hold together are read again a group of languages at a time
  (:func:`language_groups`);
* write: each file goes to the temporary folder as soon as it is rendered.

The build cache (:mod:`site_builder.cache`) skips what has not changed.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import tomllib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder.content import Page, decode_text, parse_page, placeholders
from site_builder.errors import Problem, UserError

if TYPE_CHECKING:
    from site_builder.checks import CatalogChecker
    from site_builder.content import ExampleBlock
    from site_builder.examples import Claim, Profile, Verification, VerifiedTable
    from site_builder.i18n import LoadedCatalog

CONTENT_DIR = "content"
TEMPLATES_DIR = "templates"
LOCALES_DIR = "locales"
SITE_FILE = "content/site.toml"
SOURCE_LANG = "en"


@dataclass
class Config:
    base_url: str = "https://rami-rules.example.org/"


@dataclass
class Site:
    """Everything the build read: pages, profiles, catalogs and settings."""

    root: Path
    config: Config
    pages: list[Page]
    profiles: dict[str, Profile]
    languages: list[str]  # published languages, the source language first
    catalogs: dict[str, LoadedCatalog] = field(default_factory=dict)
    # Set by :func:`scan_site`: the pages hold their front matter only (no blocks), and
    # each page's body is read again where it is rendered; by page source, the hash of
    # the bytes that were verified, so that a file changed since is noticed.
    digests: dict[str, str] | None = None
    # Set by :func:`scan_site`: the pages' messages (see :func:`site_builder.site.source_keys`).
    page_keys: set[bytes] | None = None
    # Set by :func:`scan_site`: pages kept whole, as verified, by source (see KEEP_PARSED).
    parsed: dict[str, Page] = field(default_factory=dict)

    def bodies(self, start: int = 0, stop: int | None = None) -> Iterator[Page]:
        """The pages from *start* to *stop* with their blocks, one at a time.

        For a scanned site each page is read and parsed again, unless it was kept as
        it was verified; a file that changed since it was verified raises
        :class:`UserError`.
        """
        if self.digests is None:
            yield from self.pages[start:stop]
            return
        from site_builder.cache import digest

        for light in self.pages[start:stop]:
            kept = self.parsed.get(light.source)
            if kept is not None:
                yield kept
                continue
            data = (self.root / light.source).read_bytes()
            if digest(data) != self.digests[light.source]:
                raise UserError([Problem(light.source, 0, "the file changed while the site was "
                                                          "being built; build again")])
            page, _ = parse_page(data.decode("utf-8"), light.source)
            assert page is not None  # it parsed when it was verified
            yield page


# --- stage 1: load --------------------------------------------------------------------------


def load_site(root: Path, base_url: str | None = None,
              catalogs: bool = True) -> tuple[Site, list[Problem]]:
    """Read content, profiles, settings and catalogs; report every problem found.

    With ``catalogs=False`` the catalogs are left to the caller (the build reads each
    one where its language is rendered).
    """
    from site_builder.examples import load_profiles

    problems: list[Problem] = []
    config = _load_config(root, problems, base_url)
    pages = [page for page, _ in read_pages(root, problems)]
    _check_pages(pages, problems)
    profiles, errs = load_profiles(root)
    problems.extend(errs)
    from site_builder.i18n import load_catalog as babel_load_catalog

    loaded_catalogs: dict[str, LoadedCatalog] = {}
    for lang in discover_languages(root) if catalogs else ():
        loaded, errs = babel_load_catalog(root, lang)
        problems.extend(errs)
        if loaded is not None:
            loaded_catalogs[lang] = loaded
    languages = [SOURCE_LANG, *discover_languages(root)]
    return Site(root, config, pages, profiles, languages, loaded_catalogs), problems


def read_pages(root: Path, problems: list[Problem]) -> Iterator[tuple[Page, bytes]]:
    """Each content page that parses, with its bytes, in file name order; the problems
    of those that do not go to *problems*."""
    content = root / CONTENT_DIR
    if not content.is_dir():
        problems.append(Problem(CONTENT_DIR, 0, "no content folder: run site-builder in the "
                                                "project root, or pass --root DIR"))
        return
    for path in sorted(content.glob("*.md")):
        source = path.relative_to(root).as_posix()
        data = path.read_bytes()
        text, errs = decode_text(data, source)
        problems.extend(errs)
        if text is None:
            continue
        page, errs = parse_page(text, source)
        problems.extend(errs)
        if page is not None:
            yield page, data


def _check_pages(pages: list[Page], problems: list[Problem]) -> None:
    """Slugs are unique and there is a home page; sort *pages* into site order."""
    seen: dict[str, list[Page]] = {}
    for page in pages:
        seen.setdefault(page.slug, []).append(page)
    for slug, same in seen.items():
        for page in same if len(same) > 1 else ():
            others = ", ".join(p.source for p in same if p is not page)
            problems.append(Problem(page.source, page.slug_line,
                                    f"duplicate slug {slug!r}: {others} uses it too; "
                                    "give each page its own slug"))
    if pages and "index" not in seen:
        problems.append(Problem(CONTENT_DIR, 0, "no home page: add content/index.md with "
                                                "'slug: index'"))
    pages.sort(key=lambda p: (p.order, p.slug))


# A build keeps the first pages it verifies whole, up to this many bytes of their
# sources, so that rendering need not read and parse them again; the rest are read
# again to be rendered, so that a large site is never held in memory.
KEEP_PARSED = 1024 * 1024


def scan_site(root: Path, base_url: str | None = None,
              keep: int | None = None) -> tuple[Site, Checked]:
    """:func:`load_site` and :func:`verify_site` (without catalogs) for a build, one page
    at a time: each page is read, parsed and verified, then only its front matter is
    kept (see :attr:`Site.digests`), so that a large site is never held in memory; but
    pages up to *keep* bytes of sources in all (default :data:`KEEP_PARSED`) are kept
    whole (:attr:`Site.parsed`).
    """
    from site_builder.cache import digest
    from site_builder.examples import Verification, load_profiles
    from site_builder.po import text_keys
    from site_builder.render import rule_values

    problems: list[Problem] = []
    config = _load_config(root, problems, base_url)
    profiles, errs = load_profiles(root)
    verifier = Verifier(profiles) if not errs else None
    values = rule_values()
    pages: list[Page] = []
    digests: dict[str, str] = {}
    claims = 0
    verify_problems: list[Problem] = []
    page_keys: set[bytes] = set()
    parsed: dict[str, Page] = {}
    budget = KEEP_PARSED if keep is None else keep
    for page, data in read_pages(root, problems):
        pages.append(page.light())
        digests[page.source] = digest(data)
        if len(data) <= budget:
            parsed[page.source] = page
            budget -= len(data)
        page_keys.update(text_keys(s.text for s in page.segments()).values())
        if verifier is not None:
            verification = verifier.page(page)
            claims += len(verification.claims)
            verify_problems.extend(verification_problems(verification))
        verify_problems.extend(placeholder_problems(page, values))
    _check_pages(pages, problems)
    problems.extend(errs)
    site = Site(root, config, pages, profiles, [SOURCE_LANG, *discover_languages(root)],
                digests=digests, page_keys=page_keys, parsed=parsed)
    return site, Checked(Verification(), problems + verify_problems, claims)


def discover_languages(root: Path) -> list[str]:
    """Languages that have a catalog, sorted by code (as :func:`site_builder.i18n`'s)."""
    base = root / LOCALES_DIR
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir()
                  if (p / "LC_MESSAGES" / "messages.po").is_file())


def load_catalog(root: Path, lang: str) -> tuple[LoadedCatalog | None, list[Problem]]:
    """Read one catalog for rendering and checks.

    The fast reader (:mod:`site_builder.po`) reads a well-formed file; anything else goes
    to Babel, which also reports any error at its line. Both give the same messages.
    :func:`load_site` gives Babel catalogs, which the ``i18n`` commands write back.
    """
    from site_builder.i18n import LoadedCatalog, num_plurals, po_path
    from site_builder.i18n import load_catalog as babel_load_catalog
    from site_builder.po import parse_po

    rel = po_path(lang)
    try:
        with open(root / rel, "rb") as stream:
            catalog = parse_po(stream, num_plurals(lang))
    except ValueError:  # e.g. a language Babel does not know: let Babel say so
        catalog = None
    if catalog is None:
        return babel_load_catalog(root, lang)
    return LoadedCatalog(lang, rel, catalog), []  # type: ignore[arg-type]





@dataclass
class ReadCatalog:
    """A catalog read for rendering (see :func:`load_checked_catalog`)."""

    catalog: Any  # a CompactCatalog; None if it was not kept, or could not be read
    load_problems: list[Problem]
    checker: CatalogChecker | None  # its entries checked; None if they were not
    digest: str  # of the bytes read

    def problems(self, card_terms: Iterable[tuple[str, str]]) -> list[Problem]:
        """The problems of reading the catalog, or else those of its checks, with the
        card terms (:func:`site_builder.templates_i18n.card_terms`)."""
        if self.load_problems or self.checker is None:
            return self.load_problems
        return self.checker.finish(card_terms)


class _Hashing:
    """A binary file that hashes what is read from it (``hexdigest()``, as hashlib's)."""

    def __init__(self, stream: Any) -> None:
        import hashlib

        self.stream = stream
        self.hash = hashlib.blake2b(digest_size=16)

    def read(self, size: int = -1) -> bytes:
        data: bytes = self.stream.read(size)
        self.hash.update(data)
        return data

    def hexdigest(self) -> str:
        return self.hash.hexdigest()

    def __enter__(self) -> _Hashing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stream.close()


def load_checked_catalog(root: Path, lang: str, keep: bool = True,
                         check: bool = True, store: Any = None) -> ReadCatalog:
    """Read one catalog for rendering, one entry at a time, and check it (unless not
    *check*), keeping only what rendering needs (:class:`site_builder.po.CompactCatalog`)
    if *keep*.

    With a build cache *store*, the checks' outcome is kept by the file's hash (and the
    code's version): a catalog that has not changed since is not checked again.
    A file the fast reader does not read goes to Babel, as in :func:`load_catalog`.
    """
    import hashlib
    import io

    from site_builder.checks import CatalogChecker
    from site_builder.i18n import num_plurals, po_path
    from site_builder.po import CompactCatalog, Unreadable, iter_po

    rel = po_path(lang)
    try:
        checker = CatalogChecker(lang, rel)
        compact = CompactCatalog()
        checking = check
        key = None  # where to keep this check's outcome
        if check and store is not None and store.enabled:  # hashed first, to look it up
            from site_builder.cache import code_version, digest

            data = (root / rel).read_bytes()
            hashed: Any = hashlib.blake2b(data, digest_size=16)
            key = digest(code_version(), rel, hashed.digest())
            found = store.get(f"checks-{lang}", key)
            if isinstance(found, CatalogChecker):  # checked before, as it is now
                checker, checking, key = found, False, None
            raw: Any = io.BytesIO(data)
        else:  # hashed as it is read
            raw = hashed = _Hashing(open(root / rel, "rb"))  # noqa: SIM115 - closed below
        with raw:
            for message in iter_po(raw, num_plurals(lang)):
                if checking:
                    checker.add(message)
                if keep:
                    compact.add(message)
        if key is not None:
            store.put(f"checks-{lang}", key, checker)
            store.prune(f"checks-{lang}", [key])
        return ReadCatalog(compact if keep else None, [], checker if check else None,
                           hashed.hexdigest())
    except (Unreadable, ValueError):  # ValueError: e.g. a language Babel does not know
        pass
    read = hashlib.blake2b((root / rel).read_bytes(), digest_size=16).hexdigest()
    loaded, problems = load_catalog(root, lang)
    if loaded is None or problems:
        return ReadCatalog(None, problems, None, read)
    checker = CatalogChecker(lang, rel)
    if check:
        for entry in loaded.catalog:
            checker.add(entry)
    return ReadCatalog(CompactCatalog.of(loaded.catalog) if keep else None, [],
                       checker if check else None, read)


def _load_config(root: Path, problems: list[Problem], base_url: str | None) -> Config:
    """The settings, with *base_url* (if given) in place of the file's, ending in ``/``."""
    config = _read_config(root, problems)
    if base_url:
        config.base_url = base_url
    if not config.base_url.endswith("/"):
        config.base_url += "/"
    return config


def _read_config(root: Path, problems: list[Problem]) -> Config:
    path = root / SITE_FILE
    config = Config()
    if not path.exists():
        return config
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        problems.append(Problem(SITE_FILE, 1, f"cannot read settings: {exc}"))
        return config
    for key, value in data.items():
        if key == "base_url" and isinstance(value, str):
            config.base_url = value
        else:
            problems.append(Problem(SITE_FILE, 1, f"unknown setting {key!r}; known: base_url"))
    return config


# --- stage 2: verify ------------------------------------------------------------------------


@dataclass
class Checked:
    verification: Verification  # empty for a scanned site (see :func:`scan_site`)
    problems: list[Problem]
    claims: int = 0  # how many claims were verified


def verify_site(site: Site, catalogs: bool = True, examples: bool = True) -> Checked:
    """Replay every example, check every placeholder and every translation.

    With ``catalogs=False`` the catalogs are left to the caller (see :func:`check_catalogs`);
    with ``examples=False`` the examples are not replayed (when the rule profiles did
    not load, every example would fail with them).
    """
    from site_builder.examples import Verification
    from site_builder.render import rule_values

    verification = (verify_examples(site.pages, site.profiles) if examples
                    else Verification())
    problems = verification_problems(verification)
    values = rule_values()
    for page in site.pages:
        problems.extend(placeholder_problems(page, values))
    if catalogs:
        problems.extend(check_catalogs(site, site.catalogs.values()))
    return Checked(verification, problems, len(verification.claims))


def verification_problems(verification: Verification) -> list[Problem]:
    """The problems of *verification*, and one for each claim the engine disagrees with."""
    from site_builder.examples import describe

    problems = list(verification.problems)
    disagreements = verification.disagreements
    if disagreements:
        rows = {(c.source, c.line): vr for t in verification.tables.values() for vr in t.rows
                for c in vr.claims}
        for claim in disagreements:
            problems.append(Problem(claim.source, claim.line,
                                    describe(claim, rows.get((claim.source, claim.line)))))
    return problems


def placeholder_problems(page: Page, values: dict[str, int]) -> list[Problem]:
    """A problem for each ``{name}`` in *page* that is not a rule value."""
    problems = []
    for segment in page.segments():
        if "{" not in segment.text and "}" not in segment.text:
            continue
        for name in placeholders(segment.text):
            if name not in values:
                problems.append(Problem(page.source, segment.line,
                                        f"unknown rule placeholder {{{name}}}; known: "
                                        f"{', '.join(sorted(values))}"))
    return problems


def check_catalogs(site: Site, loaded: Any) -> list[Problem]:
    """The translation checks of each catalog in *loaded*."""
    from site_builder.checks import check_catalog
    from site_builder.templates_i18n import card_terms

    terms = card_terms(site.root)
    return [problem for catalog in loaded for problem in check_catalog(catalog, terms)]


def verify_examples(pages: Iterable[Page], profiles: dict[str, Profile]) -> Verification:
    """As :func:`site_builder.examples.verify_pages`, replaying each distinct block once
    (see :class:`Verifier`)."""
    from site_builder.examples import Verification

    out = Verification()
    verifier = Verifier(profiles)
    for page in pages:
        one = verifier.page(page)
        out.tables.update(one.tables)
        out.claims.extend(one.claims)
        out.problems.extend(one.problems)
    return out


class Verifier:
    """Verifies pages' example blocks, replaying each distinct block once.

    A block with the same text as one verified before (wherever it stands) gets that
    block's rows and claims, moved to its own file and lines. A block with any problem
    is verified on its own, so every problem keeps its own place. The last *keep*
    distinct blocks are remembered, so memory stays bounded on any site.
    """

    def __init__(self, profiles: dict[str, Profile], keep: int = 4096) -> None:
        from collections import OrderedDict

        self.profiles = profiles
        self.keep = keep
        self._done: OrderedDict[str, tuple[int, VerifiedTable]] = OrderedDict()

    def table(self, source: str, block: ExampleBlock, key: str | None = None
              ) -> tuple[VerifiedTable, Verification]:
        """The verified table of *block* on page *source*, and the verification it took
        (empty when the same block was verified before). *key* is the block's
        :func:`site_builder.render.example_key`, where the caller has it."""
        import dataclasses

        from site_builder.content import Page, Segment
        from site_builder.examples import Verification, VerifiedTable, verify_pages
        from site_builder.render import example_key

        key = example_key(block) if key is None else key
        first = self._done.get(key)
        if first is None:
            empty = Segment("", 0)
            one = verify_pages([Page(source, "", 0, empty, empty, (block,))], self.profiles)
            table = one.tables[(source, block.line)]
            if not one.problems and len(table.rows) == len(block.rows):
                self._done[key] = (block.line, table)
                if len(self._done) > self.keep:
                    self._done.popitem(last=False)
            return table, one
        self._done.move_to_end(key)
        line, table = first
        delta = block.line - line
        rows = []
        claims: list[Claim] = []
        for row, verified in zip(block.rows, table.rows, strict=True):
            moved = tuple(dataclasses.replace(c, source=source, line=c.line + delta)
                          for c in verified.claims)
            rows.append(dataclasses.replace(verified, row=row, claims=moved))
            claims.extend(moved)
        return VerifiedTable(block, tuple(rows)), Verification(claims=claims)

    def replay(self, source: str, block: ExampleBlock, key: str) -> VerifiedTable:
        """The verified table of *block* (whose :func:`site_builder.render.example_key`
        is *key*), for rendering: as :meth:`table`, but a block verified before gives
        that block's table as it is (its rows may stand on other lines, or in another
        file)."""
        first = self._done.get(key)
        if first is None:
            return self.table(source, block, key)[0]
        return first[1]

    def page(self, page: Page) -> Verification:
        """Every example block of *page*: tables, claims and problems."""
        from site_builder.examples import Verification

        out = Verification()
        for block in page.examples:
            table, one = self.table(page.source, block)
            out.problems.extend(one.problems)
            out.claims.extend(one.claims)
            out.tables[(page.source, block.line)] = table
        return out


# --- stage 4: write -------------------------------------------------------------------------


def _swap(new: Path, out: Path) -> None:
    """Replace *out* by *new*: an atomic exchange where the OS has one, else two renames."""
    if out.exists() and _exchange(new, out):
        shutil.rmtree(new, ignore_errors=True)  # *new* now holds the previous site
        return
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    if out.exists():
        os.rename(out, old)
    os.rename(new, out)
    shutil.rmtree(old, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return bool(result == 0)


# --- the whole build ------------------------------------------------------------------------

# Render a language's pages in parallel processes only when there are this many pages
# per process; below it, starting the processes costs more than it saves.
PARALLEL_MIN_PAGES = 50
# In parallel, the pages are rendered in runs of about this many per process (and at
# most RUN_PAGES pages), each process taking the next run when it is done with one.
RUNS_PER_PROCESS = 4
RUN_PAGES = 50
# Catalogs whose files take more bytes than this together are not all held at once
# (see :func:`language_groups`); a catalog held in memory takes about its file's size.
CATALOG_BUDGET = 40 << 20


@dataclass
class BuildResult:
    site: Site | None  # None when nothing had changed and nothing was read
    checked: Checked | None
    files: list[str]
    stats: dict[str, Any]
    claims: int = 0
    languages: list[str] = field(default_factory=list)
    rendered: list[str] = field(default_factory=list)  # languages rendered by this build


@dataclass
class Inputs:
    """Content hashes of everything a build reads (see :mod:`site_builder.cache`)."""

    shared: str  # code, templates, content (pages, profiles, settings), base URL, languages
    catalogs: dict[str, str]  # by language
    content: str  # what the content's scan depends on: all of shared but the templates

    def language_key(self, lang: str) -> str:
        from site_builder.cache import digest

        return digest(self.shared, lang, self.catalogs.get(lang, ""))

    @property
    def site_key(self) -> str:
        from site_builder.cache import digest

        return digest(self.shared, *(f"{k}={v}" for k, v in sorted(self.catalogs.items())))


def hash_inputs(root: Path, base_url: str | None) -> Inputs:
    from site_builder.cache import code_version, digest, file_digest, tree_digest

    languages = discover_languages(root)
    content = digest(code_version(), tree_digest(root / CONTENT_DIR), base_url or "",
                     ",".join(languages))
    shared = digest(content, tree_digest(root / TEMPLATES_DIR))
    catalogs = {lang: file_digest(root / LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po")
                for lang in languages}
    return Inputs(shared, catalogs, content)


def build(root: Path, out: Path | None = None, base_url: str | None = None,
          strict: bool = False, cache: bool = True, jobs: int | None = None) -> BuildResult:
    """Run every stage; raise :class:`UserError` with every problem, writing nothing.

    With *cache*, results are kept in ``ROOT/.cache/site-builder/``: when nothing has
    changed since the build that wrote *out*, nothing is done; when only some catalogs
    changed, only those languages are rendered again. The output is the same either way.
    *jobs* is the number of processes (default: one per CPU core).
    """
    if out is None:
        return _build_in_memory(root, base_url, strict)
    from site_builder.cache import Cache, digest

    store = Cache(root if cache else None)
    out = out.resolve()
    record_key = digest(str(out))
    record = store.get("out", record_key)
    # With no earlier build to compare with, the inputs are hashed (for the cache) once
    # the catalogs are being read.
    inputs = hash_inputs(root, base_url) if record is not None else None
    reusable: dict[str, Any] = {}  # language -> its manifest, where *out* holds its pages
    if record is not None and inputs is not None and _out_matches(out, record):
        same = [lang for lang, key in record["languages"].items()
                if key == inputs.language_key(lang)]
        if record["site"] == inputs.site_key and len(same) == len(record["languages"]):
            summary = record["summary"]  # nothing changed: nothing to read or render
            _check_strict(strict, summary["fallbacks"])
            return BuildResult(None, None, list(record["files"]), summary, summary["claims"],
                               list(record["languages"]), [])
        for lang in same:
            manifest = store.get("language", record["languages"][lang])
            if manifest is not None:
                reusable[lang] = manifest

    # The catalogs to render are read and checked in worker processes while this one
    # reads and verifies the content. When they are too large to hold at once, they are
    # only checked now, and read again a group at a time to be rendered.
    jobs = _jobs(root, jobs)
    reading = [lang for lang in discover_languages(root) if lang not in reusable]
    whole = len(language_groups(root, reading)) <= 1
    templates = TemplateWorker(root) if store.enabled and _compile_aside(root) else None
    catalogs = CatalogReader(root, reading, jobs, keep=whole, store=store)
    try:
        if store.enabled and inputs is None:
            inputs = hash_inputs(root, base_url)
        site, checked = _scan(root, base_url, store, inputs)
        if not catalogs.in_workers:  # read them here, while a worker compiles the templates
            catalogs.read_all()
        from site_builder.i18n import native_names

        names = native_names(site.languages)  # CLDR's data, loaded while it compiles
        if templates is not None:  # meanwhile, the workers read the catalogs
            templates.finish()
        bytecode = _bytecode(root, store.enabled)
        template_problems = _check_templates(root, bytecode, store)
        from site_builder.templates_i18n import template_keys

        template_keys(root, store)  # as the templates were compiled, or from the cache
        shared = None
        if not checked.problems and not template_problems:
            shared = _prepare(site, checked, bytecode, names)
        catalog_problems = catalogs.problems()
    finally:
        catalogs.close()
        if templates is not None:
            templates.close()
    problems = checked.problems + template_problems + catalog_problems
    if problems:  # every problem, then stop before rendering
        raise UserError(problems)
    reusable = {lang: m for lang, m in reusable.items() if lang in site.languages}
    todo = [lang for lang in site.languages if lang not in reusable]
    incremental = bool(reusable) and out.is_dir()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    try:
        assert shared is not None  # prepared when the content checked out
        results: dict[str, Any] = {}
        written: dict[str, tuple[int, int]] = {}
        for group in [todo] if whole else language_groups(root, todo):
            if whole:
                group_catalogs = catalogs.catalogs(group)
            else:
                group_catalogs = _read_again(root, group, catalogs.read, jobs)
            group_results, group_written = _render_languages(shared, group_catalogs, tmp, jobs)
            results.update(group_results)
            written.update(group_written)
            del group_catalogs
        del catalogs
        from site_builder.search import index as search_index

        written.update(search_index(tmp, todo))  # each language's search, before the swap
        for lang, manifest in reusable.items():
            results[lang] = manifest["result"]
            written.update(manifest["files"])
        from site_builder.site import render_globals, summary

        stats = summary({lang: results[lang] for lang in site.languages}, 0)
        _check_strict(strict, stats["fallbacks"])
        global_files: list[str] = []

        def emit(rel: str, data: bytes | Iterable[bytes]) -> None:
            global_files.append(rel)
            _write(tmp, rel, data)

        from site_builder.templating import template_errors

        with template_errors(root / TEMPLATES_DIR):
            render_globals(shared, results, emit)
        os.chmod(tmp, 0o755)
        if incremental:
            _update_in_place(tmp, out, todo, global_files)
        else:
            _swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    shutil.rmtree(tmp, ignore_errors=True)
    files = sorted({*written, *global_files})
    stats["pages"] = len(files)
    stats["claims"] = checked.claims
    if inputs is not None:
        for lang in todo:
            store.put("language", inputs.language_key(lang),
                      {"result": results[lang],
                       "files": {f: st for f, st in written.items() if f.startswith(f"{lang}/")}})
        store.put("out", record_key, {
            "site": inputs.site_key,
            "languages": {lang: inputs.language_key(lang) for lang in site.languages},
            "files": {**written, **_stat_files(out, global_files)},
            "summary": stats,
        })
        store.prune("language", [inputs.language_key(lang) for lang in site.languages])
    return BuildResult(site, checked, files, stats, stats["claims"], site.languages, todo)


def _build_in_memory(root: Path, base_url: str | None, strict: bool) -> BuildResult:
    from site_builder.site import render_site
    from site_builder.templating import template_errors

    site, problems = load_site(root, base_url)
    if problems:
        raise UserError(problems)
    checked = verify_site(site)
    bytecode = _bytecode(root, False)
    from site_builder.cache import Cache

    problems = checked.problems + _check_templates(root, bytecode, Cache(None))
    if problems:
        raise UserError(problems)
    with template_errors(root / TEMPLATES_DIR):
        files, stats = render_site(site, checked.verification, bytecode)
    _check_strict(strict, stats["fallbacks"])
    return BuildResult(site, checked, sorted(files), stats, checked.claims,
                       site.languages, list(site.languages))


def _check_strict(strict: bool, fallbacks: list[tuple[str, str, int, str]]) -> None:
    if strict and fallbacks:
        raise UserError([Problem(src, line, f"[{lang}] missing or fuzzy translation "
                                            f"(--strict): {text!r}")
                         for lang, src, line, text in fallbacks])


def _bytecode(root: Path, on_disk: bool) -> Any:
    from site_builder.cache import bytecode_cache

    return bytecode_cache(root if on_disk else None)


def _scan(root: Path, base_url: str | None, store: Any, inputs: Inputs | None
          ) -> tuple[Site, Checked]:
    """:func:`scan_site`, or its result kept in the cache by the hash of everything it
    depends on (code, content, profiles, settings, base URL, languages; not templates or
    catalogs): after a catalog or template edit, the content is not verified again. The
    pages are still read again to be rendered, and must be the bytes verified."""
    if inputs is not None:
        found = store.get("scan", inputs.content)
        if found is not None:
            site, checked = found
            site.root = root  # the project may have moved, with its cache
            return site, checked
    site, checked = scan_site(root, base_url)
    if inputs is not None and not checked.problems:
        import dataclasses

        # without the pages kept whole: the next build reads them where it renders them
        store.put("scan", inputs.content, (dataclasses.replace(site, parsed={}), checked))
        store.prune("scan", [inputs.content])
    return site, checked


def _read_again(root: Path, langs: list[str], checked: dict[str, ReadCatalog],
                jobs: int) -> dict[str, Any]:
    """The catalogs of *langs*, read again to be rendered, after *checked* (the reading
    that checked them); a catalog that changed in between stops the build."""
    reader = CatalogReader(root, [lang for lang in langs if lang != SOURCE_LANG], jobs,
                           check=False)
    problems = reader.problems()
    for lang, read in reader.read.items():
        if read.digest != checked[lang].digest:
            from site_builder.i18n import po_path

            problems.append(Problem(po_path(lang), 0, "the catalog changed while the site "
                                                      "was being built; build again"))
    if problems:
        raise UserError(problems)
    return reader.catalogs(langs)


def _jobs(root: Path, jobs: int | None) -> int:
    """How many processes to build with: *jobs* (default: one per CPU core), but one
    per :data:`PARALLEL_MIN_PAGES` pages at most."""
    content = root / CONTENT_DIR
    count = sum(1 for _ in content.glob("*.md")) if content.is_dir() else 0
    return max(1, min(jobs or os.cpu_count() or 1, count // PARALLEL_MIN_PAGES))


class CatalogReader:
    """Reads catalogs (:func:`load_checked_catalog`), in worker processes when *jobs* > 1,
    so that the caller can go on meanwhile."""

    def __init__(self, root: Path, langs: list[str], jobs: int, keep: bool = True,
                 check: bool = True, store: Any = None) -> None:
        self.root = root
        self.langs = langs
        self._args = (root, keep, check, store)
        self.read: dict[str, ReadCatalog] = {}
        self._pool: Any = None
        self._pending: Any = None
        self._problems: list[Problem] | None = None
        self._all_read = False
        if jobs > 1 and len(langs) > 1:
            import multiprocessing

            self._pool = multiprocessing.get_context("fork").Pool(min(jobs, len(langs)))
            self._pending = self._pool.map_async(
                _read_catalog, [(root, lang, keep, check, store) for lang in langs],
                chunksize=1)

    @property
    def in_workers(self) -> bool:
        """Whether worker processes read the catalogs (else :meth:`problems` does)."""
        return self._pending is not None

    def read_all(self) -> None:
        """Wait for every catalog to be read (or read them here)."""
        if not self._all_read:
            if self._pending is not None:
                done = self._pending.get()
            else:
                root, keep, check, store = self._args
                done = [_read_catalog((root, lang, keep, check, store)) for lang in self.langs]
            self.close()
            self.read = dict(zip(self.langs, done, strict=True))
            self._all_read = True

    def problems(self) -> list[Problem]:
        """Wait for every catalog (or read them); the problems of each, in language
        order: those of reading it, or else those of its checks (which need the card
        terms of the templates, :func:`site_builder.templates_i18n.card_terms`)."""
        if self._problems is None:
            self.read_all()
            from site_builder.templates_i18n import card_terms

            done = [self.read[lang] for lang in self.langs]
            terms = card_terms(self.root) if any(one.checker for one in done) else []
            self._problems = [p for one in done for p in one.problems(terms)]
        return self._problems

    def catalogs(self, langs: Iterable[str]) -> dict[str, Any]:
        """The catalogs read, by language; None for the source language."""
        return {lang: self.read[lang].catalog if lang in self.read else None for lang in langs}

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None


def _read_catalog(job: tuple[Path, str, bool, bool, Any]) -> ReadCatalog:
    return load_checked_catalog(*job)


def _compile_aside(root: Path) -> bool:
    """Whether a worker process should compile the templates while this process verifies
    the content and reads the catalogs (see :class:`TemplateWorker`): when they are not
    compiled yet, there is a core to spare, and this process runs no other thread
    (forking a process with threads is not safe, e.g. under ``serve``)."""
    from site_builder.cache import CACHE_DIR

    if not _can_fork():
        return False
    if not (root / CACHE_DIR / "jinja").is_dir():
        return True  # nothing compiled (a first build): known without importing Jinja2
    bytecode = _bytecode(root, True)
    try:
        return not bytecode.compiled(_template_env(root, bytecode))
    except Exception:  # noqa: BLE001 - e.g. an unreadable template: the build reports it
        return False


def _can_fork() -> bool:
    """Whether there is a second core, and this process may fork (it runs no thread)."""
    import threading

    return (hasattr(os, "fork") and (os.cpu_count() or 1) >= 2
            and threading.active_count() == 1)


def _fork(work: Callable[[], None]) -> int:
    """Do *work* in a process forked from this one, which ends when it is done (or fails)
    and never returns here: its pid, or 0 when no process could be forked (the caller
    does the work itself). Checked by :func:`_can_fork` first."""
    sys.stdout.flush()  # else the worker would print what this process has not yet
    sys.stderr.flush()
    try:
        pid = os.fork()
    except OSError:  # e.g. too many processes
        return 0
    if pid == 0:
        code = 1
        try:
            work()
            code = 0
        finally:
            os._exit(code)
    return pid


class TemplateWorker:
    """Compiles the templates into the on-disk bytecode cache, and keeps their messages'
    keys in the cache (:func:`_check_templates`), in a process forked from this one while
    this one verifies the content and reads the catalogs; :meth:`finish` has this process
    take its turns too, then waits for the worker.

    The two take turns through a pipe that holds one token per template, the largest
    template first, so that they finish close together: reading a token takes that
    template. Nothing depends on the worker succeeding: a template it did not compile
    (or one that does not compile) the build compiles (or reports) itself.
    """

    TOKEN = 4  # bytes a token: a template's number
    TOKENS = 4096  # bytes of tokens at most: what any pipe holds (else, no worker)

    def __init__(self, root: Path) -> None:
        base = root / TEMPLATES_DIR
        self.root = root
        self.names = sorted((p.relative_to(base).as_posix() for p in base.rglob("*.html")),
                            key=lambda name: (-(base / name).stat().st_size, name))
        self._pid = 0
        tokens = b"".join(number.to_bytes(self.TOKEN, "little")
                          for number in range(len(self.names)))
        if len(tokens) > self.TOKENS:
            return  # this process compiles them all (finish does nothing)
        self._tokens, write = os.pipe()
        try:
            os.write(write, tokens)
        finally:
            os.close(write)  # once the tokens are taken, a read finds the end of the pipe
        self._pid = _fork(self._take_turns)
        if not self._pid:  # this process compiles them all
            os.close(self._tokens)

    def _take_turns(self) -> None:
        from site_builder.cache import Cache

        def taken() -> Iterator[str]:
            while len(token := os.read(self._tokens, self.TOKEN)) == self.TOKEN:
                yield self.names[int.from_bytes(token, "little")]

        _check_templates(self.root, _bytecode(self.root, True), Cache(self.root), taken())

    def finish(self) -> None:
        """Take this process's turns until every template is taken, then wait for the
        worker to compile its last."""
        if self._pid:
            self._take_turns()
            self.close(stop=False)

    def close(self, stop: bool = True) -> None:
        """Wait for the worker to end (*stop* it first); nothing if it has."""
        if self._pid:
            if stop:
                import signal

                os.kill(self._pid, signal.SIGTERM)
            os.waitpid(self._pid, 0)
            os.close(self._tokens)
            self._pid = 0


def language_groups(root: Path, langs: list[str], budget: int | None = None) -> list[list[str]]:
    """*langs* in groups whose catalogs take about *budget* bytes at most together (at
    least one language a group; the source language goes with the first), so that a
    site with large catalogs never holds them all at once.
    """
    budget = CATALOG_BUDGET if budget is None else budget
    groups: list[list[str]] = []
    size = 0
    for lang in langs:
        po = root / LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po"
        this = po.stat().st_size if lang != SOURCE_LANG and po.is_file() else 0
        if groups and (size + this <= budget or not this or not size):
            groups[-1].append(lang)
            size += this
        else:
            groups.append([lang])
            size = this
    return groups


# What the worker processes render: set before they are forked, never pickled. They
# share it, and the catalogs in it, with this process instead of copying them.
_SHARED: Any = None


def _render_runs(_: Any = None) -> list[tuple[int, tuple[dict[str, Any],
                                                       dict[str, tuple[int, int]]]]]:
    """Render runs of pages, taking the next run not yet taken until none is left (the
    processes share the count): a process that is ahead takes more. Each run's number
    and :func:`_render_run`'s result."""
    runs, taken = _SHARED[3:]
    done: list[tuple[int, tuple[dict[str, Any], dict[str, tuple[int, int]]]]] = []
    while True:
        with taken.get_lock():
            number = taken.value
            taken.value += 1
        if number >= len(runs):
            return done
        done.append((number, _render_run(runs[number])))


def _render_run(run: tuple[int, int]) -> tuple[dict[str, Any], dict[str, tuple[int, int]]]:
    """Render the pages of one run (start, stop) in every language being rendered, into
    the temporary folder; in this process or in a worker process."""
    from site_builder.site import render_pages
    from site_builder.templating import template_errors

    shared, tmp, catalogs = _SHARED[:3]
    written: dict[str, tuple[int, int]] = {}

    def emit(rel: str, data: bytes | Iterable[bytes]) -> None:
        written[rel] = _write(tmp, rel, data)

    with template_errors(shared.site.root / TEMPLATES_DIR):
        return render_pages(shared, catalogs, emit, *run), written


def _prepare(site: Site, checked: Checked, bytecode: Any, names: dict[str, str]) -> Any:
    """What rendering needs (:func:`site_builder.site.prepare`), with the templates
    compiled in *bytecode* (see :func:`_check_templates`), once for every process."""
    from site_builder.site import prepare

    return prepare(site, checked.verification, bytecode, names)


def template_problems(root: Path) -> list[Problem]:
    """A problem for each template that does not compile (for ``check``)."""
    from site_builder.cache import Cache

    return _check_templates(root, _bytecode(root, False), Cache(None))


def _check_templates(root: Path, bytecode: Any, store: Any,
                     names: Iterable[str] | None = None) -> list[Problem]:
    """Compile every template (or those *names*) into *bytecode* (or load it from
    there): a problem for each that does not compile. The keys of the messages of each
    template compiled here are kept in this process and *store*, from the tree it was
    compiled from (:func:`site_builder.templates_i18n.remember_keys`)."""
    from site_builder.templates_i18n import remember_keys
    from site_builder.templating import check_templates

    def parsed(name: str, source: str, tree: Any) -> None:
        remember_keys(name, source, tree, store)

    return check_templates(_template_env(root, bytecode), root / TEMPLATES_DIR, names,
                           parsed)


def _template_env(root: Path, bytecode: Any) -> Any:
    """A Jinja2 environment of the project's templates, made as the languages' are (see
    :func:`site_builder.templating.make_environment`), to compile or check them with."""
    from site_builder.i18n import Translator
    from site_builder.templating import make_environment

    return make_environment(str(root / TEMPLATES_DIR), Translator(SOURCE_LANG), str, bytecode)


def _render_languages(shared: Any, catalogs: dict[str, Any], tmp: Path, jobs: int
                      ) -> tuple[dict[str, Any], dict[str, tuple[int, int]]]:
    """Render every language of *catalogs* (language -> catalog, None for the source
    language) into *tmp*.

    With more than one process (*jobs*), the pages are rendered in runs by this process
    and worker processes forked after the catalogs were read, which share them; each
    page is read once and rendered in every language. A site too small for that (*jobs*
    1) has its languages rendered in two processes when it can (:func:`_render_split`);
    with *jobs* 0, this process renders them all.
    """
    global _SHARED
    from site_builder.site import finish_language

    count = len(shared.site.pages)
    results: dict[str, Any] = {}
    written: dict[str, tuple[int, int]] = {}
    if not catalogs:
        return results, written
    if jobs == 1 and len(catalogs) > 1 and _can_fork():
        return _render_split(shared, catalogs, tmp)
    try:
        if jobs > 1:
            import gc
            import multiprocessing

            from site_builder.site import language_tools

            context = multiprocessing.get_context("fork")
            size = max(1, min(RUN_PAGES, -(-count // (jobs * RUNS_PER_PROCESS))))
            runs = [(start, min(start + size, count)) for start in range(0, count, size)]
            _SHARED = (shared, tmp, catalogs, runs, context.Value("i", 0))
            for lang, catalog in catalogs.items():  # once, for every worker
                language_tools(shared, lang, catalog, load=True)

            gc.freeze()  # keep what is read so far shared with the workers
            # This process renders runs too, one process fewer to hold memory.
            with context.Pool(jobs - 1) as pool:
                pending = pool.map_async(_render_runs, range(jobs - 1), chunksize=1)
                gc.unfreeze()
                done = _render_runs() + [run for more in pending.get() for run in more]
            parts = [part for _, part in sorted(done, key=lambda run: run[0])]
        else:
            _SHARED = (shared, tmp, catalogs)
            parts = [_render_run((0, count))]
    finally:
        _SHARED = None

    def emit(rel: str, data: bytes | Iterable[bytes]) -> None:
        written[rel] = _write(tmp, rel, data)

    for _, files in parts:
        written.update(files)
    from site_builder.templating import template_errors

    for lang, catalog in catalogs.items():
        with template_errors(shared.site.root / TEMPLATES_DIR):
            results[lang] = finish_language(shared, lang, catalog, emit,
                                            [by_lang[lang] for by_lang, _ in parts])
        shared.tools.pop(lang, None)  # it holds the catalog, which the caller lets go of
    return results, written


def _render_split(shared: Any, catalogs: dict[str, Any], tmp: Path
                  ) -> tuple[dict[str, Any], dict[str, tuple[int, int]]]:
    """:func:`_render_languages` in one process, for every other language of *catalogs*,
    in this process and in a worker forked from it, which sends back what its
    languages gave (their results, and the files it wrote) through a pipe.

    A problem the worker finds (a template error while rendering) is raised here, as
    if this process had found it.
    """
    import pickle
    import signal

    langs = list(catalogs)
    theirs = {lang: catalogs[lang] for lang in langs[1::2]}
    ours = {lang: catalogs[lang] for lang in langs[::2]}
    back, send = os.pipe()

    def worker() -> None:  # its languages, then what they gave
        os.close(back)
        try:
            data = pickle.dumps(("done", _render_languages(shared, theirs, tmp, 0)),
                                protocol=pickle.HIGHEST_PROTOCOL)
        except UserError as exc:
            data = pickle.dumps(("problems", exc), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # noqa: BLE001 - reported by this process
            data = pickle.dumps(("failed", f"{type(exc).__name__}: {exc}"))
        with os.fdopen(send, "wb") as out:
            out.write(data)

    pid = _fork(worker)
    os.close(send)
    if not pid:  # this process renders them all
        os.close(back)
        return _render_languages(shared, catalogs, tmp, 0)
    try:
        results, written = _render_languages(shared, ours, tmp, 0)
    except BaseException:
        os.kill(pid, signal.SIGTERM)
        raise
    finally:
        with os.fdopen(back, "rb") as fh:
            data = fh.read()
        os.waitpid(pid, 0)
    try:
        kind, value = pickle.loads(data)
    except Exception:  # noqa: BLE001 - e.g. nothing: the process ended before it was done
        kind, value = "failed", "it ended without a result"
    if kind == "problems":
        raise value
    if kind != "done":
        raise RuntimeError(f"a process rendering {', '.join(theirs)} failed: {value}")
    their_results, their_written = value
    results.update(their_results)
    written.update(their_written)
    return {lang: results[lang] for lang in langs}, written


def _write(base: Path, rel: str, data: bytes | Iterable[bytes]) -> tuple[int, int]:
    """Write one output file, given whole or in pieces; return its size and modification
    time, for the out record."""
    target = os.path.join(base, rel)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    try:
        fd = os.open(target, flags, 0o644)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        fd = os.open(target, flags, 0o644)
    try:
        for piece in (data,) if isinstance(data, bytes) else data:
            view = memoryview(piece)
            while view:
                view = view[os.write(fd, view):]
        st = os.fstat(fd)
    finally:
        os.close(fd)
    return st.st_size, st.st_mtime_ns


def _stat_files(out: Path, files: list[str]) -> dict[str, tuple[int, int]]:
    stats = {}
    for rel in files:
        st = os.stat(out / rel)
        stats[rel] = (st.st_size, st.st_mtime_ns)
    return stats


def _out_matches(out: Path, record: dict[str, Any]) -> bool:
    """Whether *out* still holds exactly the files the recorded build wrote (size, mtime)."""
    try:
        for rel, expected in record["files"].items():
            st = os.stat(out / rel)
            if (st.st_size, st.st_mtime_ns) != tuple(expected):
                return False
    except (OSError, KeyError, TypeError, ValueError):
        return False
    return True


def _update_in_place(new: Path, out: Path, langs: list[str], global_files: list[str]) -> None:
    """Move the languages rendered again and the site-wide files from *new* into *out*.

    Each language folder is exchanged in one step (the old one ends up in *new*, which
    the caller deletes); each site-wide file is replaced in one step, if it changed.
    """
    for lang in langs:
        if (out / lang).exists() and _exchange(new / lang, out / lang):
            continue
        if (out / lang).exists():
            os.rename(out / lang, new / f".old-{lang}")
        os.rename(new / lang, out / lang)
    moved = set(langs)
    for rel in global_files:
        if rel.split("/", 1)[0] in moved:
            continue  # already in its language's folder
        target = out / rel
        data = (new / rel).read_bytes()
        try:
            if target.read_bytes() == data:
                continue
        except OSError:
            target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(new / rel, target)
