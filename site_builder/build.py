"""The build, as four stages: load → verify → render → write.

Nothing is written until every input has been read and checked. Output goes to a
temporary folder next to the destination, which then replaces it in one step.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from site_builder.content import Page, parse_page, placeholders, read_text
from site_builder.errors import Problem, UserError
from site_builder.examples import Profile, Verification, describe, load_profiles, verify_pages
from site_builder.i18n import (
    SOURCE_LANG,
    LoadedCatalog,
    discover_languages,
    load_catalog,
)

CONTENT_DIR = "content"
TEMPLATES_DIR = "templates"
SITE_FILE = "content/site.toml"


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


# --- stage 1: load --------------------------------------------------------------------------


def load_site(root: Path, base_url: str | None = None) -> tuple[Site, list[Problem]]:
    """Read content, profiles, settings and catalogs; report every problem found."""
    problems: list[Problem] = []
    config = _load_config(root, problems)
    if base_url:
        config.base_url = base_url
    if not config.base_url.endswith("/"):
        config.base_url += "/"
    content = root / CONTENT_DIR
    pages: list[Page] = []
    if not content.is_dir():
        problems.append(Problem(CONTENT_DIR, 0, "no content folder: run site-builder in the "
                                                "project root, or pass --root DIR"))
    else:
        for path in sorted(content.glob("*.md")):
            source = path.relative_to(root).as_posix()
            text, errs = read_text(path, source)
            problems.extend(errs)
            if text is None:
                continue
            page, errs = parse_page(text, source)
            problems.extend(errs)
            if page is not None:
                pages.append(page)
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
    profiles, errs = load_profiles(root)
    problems.extend(errs)
    catalogs: dict[str, LoadedCatalog] = {}
    for lang in discover_languages(root):
        loaded, errs = load_catalog(root, lang)
        problems.extend(errs)
        if loaded is not None:
            catalogs[lang] = loaded
    languages = [SOURCE_LANG, *discover_languages(root)]
    return Site(root, config, pages, profiles, languages, catalogs), problems


def _load_config(root: Path, problems: list[Problem]) -> Config:
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
    verification: Verification
    problems: list[Problem]


def verify_site(site: Site) -> Checked:
    """Replay every example, check every placeholder and every translation."""
    from site_builder.checks import check_catalog
    from site_builder.render import rule_values
    from site_builder.templates_i18n import card_terms

    verification = verify_pages(site.pages, site.profiles)
    problems = list(verification.problems)
    rows = {(c.source, c.line): vr for t in verification.tables.values() for vr in t.rows
            for c in vr.claims}
    for claim in verification.disagreements:
        problems.append(Problem(claim.source, claim.line,
                                describe(claim, rows.get((claim.source, claim.line)))))
    values = rule_values()
    for page in site.pages:
        for segment in page.segments():
            for name in placeholders(segment.text):
                if name not in values:
                    problems.append(Problem(page.source, segment.line,
                                            f"unknown rule placeholder {{{name}}}; known: "
                                            f"{', '.join(sorted(values))}"))
    terms = card_terms(site.root)
    for loaded in site.catalogs.values():
        problems.extend(check_catalog(loaded, terms))
    return Checked(verification, problems)


# --- stage 4: write -------------------------------------------------------------------------


def write_site(files: dict[str, bytes], out: Path) -> None:
    """Write *files* to a temporary folder beside *out*, then swap it in for *out*."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    try:
        for rel, data in sorted(files.items()):
            target = tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        os.chmod(tmp, 0o755)
        _swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


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


@dataclass
class BuildResult:
    site: Site
    checked: Checked
    files: dict[str, bytes]
    stats: dict[str, Any]


def build(root: Path, out: Path | None = None, base_url: str | None = None,
          strict: bool = False) -> BuildResult:
    """Run every stage; raise :class:`UserError` with every problem, writing nothing."""
    from site_builder.cache import bytecode_cache
    from site_builder.site import render_site

    site, problems = load_site(root, base_url)
    if problems:
        raise UserError(problems)
    checked = verify_site(site)
    if checked.problems:
        raise UserError(checked.problems)
    files, stats = render_site(site, checked.verification, bytecode_cache(root))
    if strict and stats["fallbacks"]:
        raise UserError([Problem(src, line, f"[{lang}] missing or fuzzy translation "
                                            f"(--strict): {text!r}")
                         for lang, src, line, text in stats["fallbacks"]])
    if out is not None:
        write_site(files, out)
    return BuildResult(site, checked, files, stats)
