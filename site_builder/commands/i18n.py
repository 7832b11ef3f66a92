"""``site-builder i18n extract|update|init LANG|compile|stats``: the gettext workflow.

These wrap the extract → init/update → check → compile steps with the project's
settings: one ``messages`` domain, the POT at ``locales/messages.pot``. Babel extracts
the messages and makes new catalogs; the files are written as GNU gettext writes them
(``msgcat``), and ``update`` is ``msgmerge --previous`` (see :mod:`site_builder.i18n.gnu`).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

from site_builder.build import check
from site_builder.commands.check import add_format_option
from site_builder.errors import (
    Problem,
    UserError,
    print_github,  # a catalog it cannot read, annotated
)
from site_builder.i18n.catalog import load_catalog
from site_builder.i18n.coverage import coverage, coverage_state, shown, with_unknown
from site_builder.i18n.gnu import counts, merge, normalise, write_if_changed
from site_builder.i18n.locales import parse_locale
from site_builder.i18n.messages import (
    FIXED_DATE,
    PROJECT,
    card_terms,
    source_catalog,
    template_messages,
)
from site_builder.i18n.successors import dropped_fixes
from site_builder.i18n.terms import new_file as new_terms_file
from site_builder.i18n.terms import terms_path
from site_builder.i18n.translator import Translations, Translator
from site_builder.output import write_atomic
from site_builder.project import (
    POT_PATH,
    SITE_FILE,
    SOURCE_LANG,
    TEMPLATES_DIR,
    discover_languages,
    po_path,
)
from site_builder.sources.site import load
from site_builder.sources.templates import bytecode_cache, compile_templates, make_environment
from site_builder.verify import read_catalog


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("i18n", parents=[common], help="translation workflow",
                       description="Extract, update, add, compile and measure translations.")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True

    def action(name: str, help: str) -> argparse.ArgumentParser:
        a: argparse.ArgumentParser = actions.add_parser(name, parents=[common], help=help,
                                                        description=help)
        a.add_argument("--root", type=Path, default=Path("."), help="project folder")
        return a

    action("extract", "write locales/messages.pot from content and templates").set_defaults(
        func=run_extract)
    a = action("update", "merge the template into every catalog; changed text becomes fuzzy")
    a.add_argument("langs", nargs="*", help="languages to update (default: all)")
    a.set_defaults(func=run_update)
    a = action("init", "add a new language")
    a.add_argument("lang", help="a CLDR language code, e.g. de or pt_BR")
    a.set_defaults(func=run_init)
    action("compile", "check every catalog and write the .mo files").set_defaults(
        func=run_compile)
    a = action("stats", "translated, fuzzy and untranslated counts per language and page")

    add_format_option(a)
    a.add_argument("--fail-under", type=percent, default=None, metavar="PCT",
                   help="exit 1 if any language is below PCT percent translated (0-100)")
    a.add_argument("--gate", action="store_true",
                   help="exit 1 if a language declared ready ([ready] in content/site.toml) "
                        "is below its gate; the other languages are drafts")
    a.set_defaults(func=run_stats)


def percent(text: str) -> float:
    """A ``--fail-under`` threshold: a number from 0 to 100.

    >>> percent("87.5")
    87.5
    >>> percent("120")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 120 is not a percentage: give a number from 0 to 100
    """
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 <= value <= 100:  # NaN too
        raise argparse.ArgumentTypeError(
            f"{text} is not a percentage: give a number from 0 to 100")
    return value


def _site(root: Path) -> Any:
    site, problems = load(root)
    if problems:
        raise UserError(problems)
    return site


def _write_po(root: Path, catalog: Any, rel: str) -> bool:
    """Write *catalog* (a Babel ``Catalog``) to ROOT/REL as GNU gettext writes it (see
    :mod:`site_builder.i18n.gnu`); return True if the file changed."""
    return write_if_changed(writable(root, rel), normalise(_babel_bytes(catalog), rel), rel)


_KINDS = {".po": "PO catalog", ".pot": "PO template", ".mo": "compiled catalog (.mo)"}
_PO_HEAD = re.compile(rb'(?:[ \t]*(?:#[^\n]*)?\r?\n)*msgid ""[ \t]*\r?\nmsgstr[ \t]')
_MO_MAGIC = (b"\xde\x12\x04\x95", b"\x95\x04\x12\xde")


def writable(root: Path, rel: str) -> Path:
    """ROOT/REL, if an i18n command may write it: a path with no symlink on the way, or
    one that leads (through links, committed to a repository, say) to a file that
    already is a catalog of the kind written there (a ``.po`` catalog, the ``.pot``
    template, a ``.mo`` file: by its name and its first bytes). Anything else is a
    :class:`UserError` of *rel*, before anything is written or made: no command writes
    a user's file through a link, nor makes anything outside the project."""
    path = root / rel
    real = Path(os.path.realpath(path))
    if real == Path(os.path.realpath(root)) / rel:
        return path
    kind = Path(rel).suffix
    try:
        with open(real, "rb") as fh:
            head = fh.read(1 << 16) if real.is_file() else b""
    except OSError:
        head = b""
    if real.suffix == kind and (head[:4] in _MO_MAGIC if kind == ".mo"
                                else _PO_HEAD.match(head) is not None):
        return path
    raise UserError(Problem(rel, 0, f"it leads through a symlink to {real}, which is not "
                                    f"a {_KINDS.get(kind, 'catalog')} already; nothing was "
                                    "written: replace the link by the file itself"))


def _babel_bytes(catalog: Any) -> bytes:
    """*catalog* as Babel writes it; ``msgcat`` then lays it out as GNU gettext does."""

    buf = io.BytesIO()
    write_po(buf, catalog, width=76, ignore_obsolete=False)
    return buf.getvalue()


def template(root: Path) -> Any:
    """The template catalog (every English message), or a :class:`UserError` naming each
    template that does not parse: its messages cannot be extracted, and a template
    without them would make ``update`` turn their translations obsolete."""
    site = _site(root)
    env = make_environment(root / TEMPLATES_DIR, Translator(SOURCE_LANG), str,
                           bytecode_cache(None, ""))
    problems, _ = compile_templates(env, root / TEMPLATES_DIR)
    if problems:
        raise UserError(problems)
    return source_catalog(site.pages, site.profiles, template_messages(site.root))


def run_extract(args: argparse.Namespace) -> int:
    catalog = template(args.root)
    changed = _write_po(args.root, catalog, POT_PATH)
    print(f"{POT_PATH}: {len(catalog)} messages{'' if changed else ' (unchanged)'}")
    return 0


def run_update(args: argparse.Namespace) -> int:
    """Merge the template into each catalog with ``msgmerge --previous``: changed text
    becomes fuzzy with its previous msgid (``#|``), and an entry the template no longer
    has is kept as obsolete (``#~``), its translation with it, never dropped. An entry made
    obsolete here whose successor (the entry ``msgmerge`` matches to its msgid) already
    holds a different translation is named on stderr (see
    :mod:`site_builder.i18n.successors`): a correction a merge would otherwise lose."""
    pot = normalise(_babel_bytes(template(args.root)), POT_PATH)
    langs = args.langs or discover_languages(args.root)
    problems = []
    for lang in langs:
        rel = po_path(lang)
        if not (args.root / rel).exists():
            problems.append(Problem(rel, 0, "no such catalog; add the language with "
                                            f"'site-builder i18n init {lang}'"))
            continue
        read = (args.root / rel).read_bytes()  # the bytes merged, checked before writing
        loaded, errs = load_catalog(args.root, lang, data=read)
        if loaded is None:
            problems.extend(errs)
            continue
        merged = merge(read, pot, rel)
        try:
            changed = write_if_changed(writable(args.root, rel), merged, rel, read)
        except UserError as exc:  # saved meanwhile: that catalog is left alone
            problems.extend(exc.problems)
            continue
        fuzzy, obsolete = counts(merged)
        print(f"{rel}: {'updated' if changed else 'unchanged'}, {fuzzy} fuzzy"
              + (f", {obsolete} obsolete (kept as #~)" if obsolete else ""))
        if changed:  # a correction made where a merge then made it obsolete: said, not kept
            for problem in dropped_fixes(read, merged, rel):
                print(problem, file=sys.stderr)
    if problems:
        raise UserError(problems)
    return 0


def run_init(args: argparse.Namespace) -> int:

    try:
        locale = parse_locale(args.lang)
    except ValueError as exc:
        raise UserError(Problem("site-builder i18n init", 0, str(exc))) from None
    lang = str(locale)  # as gettext and CLDR write it: pt-br and PT_BR are pt_BR
    path = args.root / po_path(lang)
    if lang == SOURCE_LANG:
        raise UserError(f"{lang} is the source language: it needs no catalog")
    folders = args.root / "locales"
    same = [f.name for f in folders.iterdir() if f.name.lower() == lang.lower()
            and (args.root / po_path(f.name)).exists()] if folders.is_dir() else []
    if path.exists() or same:
        raise UserError(Problem(po_path(same[0] if same else lang), 0,
                                "this language already exists; run 'site-builder i18n "
                                "update' to refresh it"))
    pot = template(args.root)
    catalog = Catalog(locale=locale, domain="messages", project=PROJECT, version="1.0",
                      creation_date=FIXED_DATE, revision_date=FIXED_DATE,
                      last_translator="Rami rules translators", language_team=f"{lang}",
                      fuzzy=False)
    for message in pot:
        if message.id:
            empty = "" if isinstance(message.id, str) else ("",) * catalog.num_plurals
            catalog.add(message.id, empty,
                        locations=message.locations, flags=message.flags,
                        auto_comments=message.auto_comments, context=message.context)
    _write_po(args.root, catalog, po_path(lang))
    words = args.root / terms_path(lang)
    if not words.exists():  # its game terms, as data its translators fill in
        words.write_text(new_terms_file(lang), encoding="utf-8")
        print(f"{terms_path(lang)}: created, empty: write the language's game terms there "
              "(its note says how)")
    print(f"{po_path(lang)}: created with {len(catalog)} messages to translate "
          f"({locale.get_display_name(lang)}). The site now builds it as a draft, in "
          "English where it is not translated yet; when its translators say it is ready, "
          f"declare it in {SITE_FILE} under [ready] (for example {lang} = 90).")
    return 0


def run_compile(args: argparse.Namespace) -> int:

    site = _site(args.root)
    terms = card_terms(template_messages(args.root))
    catalogs = {lang: read_catalog(args.root, lang, terms) for lang in site.languages[1:]}
    problems = [p for _, found in catalogs.values() for p in found]
    if problems:
        raise UserError(problems)
    targets = {lang: writable(args.root, po_path(lang).replace(".po", ".mo"))
               for lang in sorted(catalogs)}  # every link checked before anything is written
    for lang, (catalog, _) in sorted(catalogs.items()):
        assert catalog is not None  # a catalog that did not load has problems
        mo = targets[lang]
        buf = io.BytesIO()
        write_mo(buf, catalog, use_fuzzy=False)
        # never a cut .mo; a symlinked one is written through its link, which writable()
        # has checked leads to a .mo file
        write_atomic(Path(os.path.realpath(mo)), buf.getvalue())
        print(f"{mo.relative_to(args.root).as_posix()}: compiled")
    return 0


def stats_data(root: Path) -> dict[str, Any]:
    """Each language's coverage, overall and by page: every message of the template, and
    every message the site looks up while rendering (in memory, as ``check`` renders it)
    that the template lacks, counted as untranslated."""
    site = _site(root)
    source = source_catalog(site.pages, site.profiles, template_messages(site.root))
    loaded = {}
    for lang in site.languages[1:]:
        loaded[lang], problems = load_catalog(root, lang)
        if problems:
            raise UserError(problems)
    verified = check(root)
    if verified.lookups is None:  # it does not render: what it looks up is not known
        print(f"site-builder i18n stats: the site does not check out ({len(verified.problems)} "
              "problems; run site-builder check), so the messages it looks up while "
              "rendering that locales/messages.pot lacks are not counted", file=sys.stderr)
    data: dict[str, Any] = {}
    messages = shown(source)  # the same for every language
    for lang, catalog in loaded.items():
        overall, pages = with_unknown(
            *coverage(messages, Translations(catalog.catalog) if catalog else None),
            (verified.lookups or {}).get(lang, {}).values())
        data[lang] = {**overall.as_json(), "pages": {k: v.as_json() for k, v in pages.items()}}
    return data


def first_untranslated_line(root: Path, lang: str) -> int:
    """The line of the first entry of *lang*'s catalog that readers see in English (empty
    or fuzzy), where a translator would start; 1 if every entry there is translated (what
    is missing is not in the catalog yet: run i18n update)."""
    loaded, _ = load_catalog(root, lang)
    if loaded is None:
        return 1
    lines = [m.lineno or 1 for m in loaded.catalog
             if m.id and coverage_state(m) != "translated"]
    return min(lines, default=1)


def gate_problems(root: Path, data: dict[str, Any]) -> list[Problem]:
    """A problem for each language declared ready that is below its gate, at the
    catalog's first untranslated entry, or that is no language of the site."""
    problems = []
    for lang, gate in _site(root).config.ready.items():
        if lang == SOURCE_LANG:
            problems.append(Problem(SITE_FILE, gate.line, f"{lang} is the source language, "
                                    "complete by definition: remove it from [ready]"))
        elif lang not in data:
            problems.append(Problem(SITE_FILE, gate.line, f"{lang} is declared ready but has "
                                    f"no catalog ({po_path(lang)}): add it with 'site-builder "
                                    f"i18n init {lang}', or remove the line"))
        elif data[lang]["percent"] < gate.percent:
            problems.append(Problem(
                po_path(lang), first_untranslated_line(root, lang),
                f"{lang} is {data[lang]['percent']}% translated, under the {gate.percent:g}% "
                f"its translators declared ready ({SITE_FILE}:{gate.line}): translate the "
                f"rest (site-builder i18n stats lists it page by page), or remove {lang} from "
                "[ready] to publish it as a draft"))
    return problems


def run_stats(args: argparse.Namespace) -> int:
    try:
        data = stats_data(args.root)
        gated = gate_problems(args.root, data) if args.gate else []
    except UserError as exc:
        if args.format != "github":
            raise

        print_github(exc.problems, [], "translation coverage")
        print(f"site-builder i18n stats: {len(exc.problems)} errors", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(data, indent=2, ensure_ascii=False))
    elif args.format == "text":
        width = max([len(p) for d in data.values() for p in d["pages"]] + [8])
        for lang, d in data.items():
            print(f"{lang}: {d['percent']:5.1f}%  translated {d['translated']}, "
                  f"fuzzy {d['fuzzy']}, untranslated {d['untranslated']}")
            for page, c in d["pages"].items():
                print(f"    {page:<{width}} {c['percent']:5.1f}%  ({c['translated']}/"
                      f"{c['translated'] + c['fuzzy'] + c['untranslated']}, {c['fuzzy']} fuzzy)")
    if args.fail_under is not None:
        low = [lang for lang, d in data.items() if d["percent"] < args.fail_under]
        if args.format == "github":
            print_github([Problem(po_path(lang), 0,
                                  f"{lang} is {data[lang]['percent']}% translated, under the "
                                  f"{args.fail_under:g}% required (--fail-under)")
                          for lang in low], [], "translation coverage")
        if low:
            print(f"below {args.fail_under:g}%: {', '.join(low)}", file=sys.stderr)
            return 1
    if gated:
        if args.format == "github":
            print_github(gated, [], "translation coverage")
        for problem in gated:
            print(problem, file=sys.stderr)
        return 1
    return 0
