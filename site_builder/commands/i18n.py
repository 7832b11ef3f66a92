"""``site-builder i18n extract|update|init LANG|compile|stats``: the gettext workflow.

These wrap Babel's extract → init/update → check → compile steps with the project's
settings: one ``messages`` domain, the POT at ``locales/messages.pot``, lines wrapped
at 76 columns, previous msgids (``#|``) kept on fuzzy entries.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("i18n", parents=[common], help="translation workflow",
                       description="Extract, update, add, compile and measure translations.")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True

    def action(name: str, help: str) -> argparse.ArgumentParser:
        a = actions.add_parser(name, parents=[common], help=help, description=help)
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
    a.add_argument("--json", action="store_true", help="print JSON")
    a.add_argument("--fail-under", type=float, default=None, metavar="PCT",
                   help="exit 1 if any language is below PCT percent translated")
    a.set_defaults(func=run_stats)


def _site(root: Path) -> Any:
    from site_builder.errors import UserError
    from site_builder.load import load

    site, problems = load(root)
    if problems:
        raise UserError(problems)
    return site


def _write_po(path: Path, catalog: Any, previous: bool = True) -> bool:
    """Write *catalog* the same way every time; return True if the file changed."""
    import io

    from babel.messages.pofile import write_po

    buf = io.BytesIO()
    write_po(buf, catalog, width=76, include_previous=False, ignore_obsolete=True)
    data = buf.getvalue()
    if previous:
        data = _with_previous(data.decode("utf-8"), catalog).encode("utf-8")
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def _with_previous(text: str, catalog: Any) -> str:
    """Add each fuzzy entry's previous msgid as ``#|`` lines.

    Babel's own ``include_previous`` re-wraps the quoted previous msgid like prose,
    which splits strings across comment lines that GNU gettext then rejects; here
    every line of the properly quoted string is prefixed instead.
    """
    from babel.messages.pofile import normalize

    blocks = text.split("\n\n")
    messages = [m for m in catalog if m.id]
    if len(blocks) - 1 < len(messages):
        return text
    for index, message in enumerate(messages, 1):
        if not message.previous_id:
            continue
        lines = blocks[index].split("\n")
        at = next(i for i, line in enumerate(lines) if line.startswith(("msgctxt", "msgid")))
        previous = []
        for keyword, value in zip(("msgid", "msgid_plural"), message.previous_id, strict=False):
            quoted = normalize(value, width=76).split("\n")
            previous.append(f"#| {keyword} {quoted[0]}")
            previous.extend(f"#| {line}" for line in quoted[1:])
        blocks[index] = "\n".join(lines[:at] + previous + lines[at:])
    return "\n\n".join(blocks)


def template(root: Path) -> Any:
    from site_builder.messages import source_catalog

    site = _site(root)
    return source_catalog(site.root, site.pages, site.profiles)


def run_extract(args: argparse.Namespace) -> int:
    from site_builder.i18n import POT_PATH

    catalog = template(args.root)
    changed = _write_po(args.root / POT_PATH, catalog, previous=False)
    print(f"{POT_PATH}: {len(catalog)} messages{'' if changed else ' (unchanged)'}")
    return 0


def run_update(args: argparse.Namespace) -> int:
    from site_builder.errors import UserError
    from site_builder.i18n import discover_languages, load_catalog, po_path

    pot = template(args.root)
    langs = args.langs or discover_languages(args.root)
    problems = []
    for lang in langs:
        if not (args.root / po_path(lang)).exists():
            problems.append(f"{po_path(lang)}: no such catalog; add the language with "
                            f"'site-builder i18n init {lang}'")
            continue
        loaded, errs = load_catalog(args.root, lang)
        if loaded is None:
            raise UserError(errs)
        catalog = loaded.catalog
        catalog.update(pot, no_fuzzy_matching=False, update_header_comment=False,
                       keep_user_comments=True, update_creation_date=False)
        changed = _write_po(args.root / po_path(lang), catalog)
        fuzzy = sum(1 for m in catalog if m.id and m.fuzzy)
        print(f"{po_path(lang)}: {'updated' if changed else 'unchanged'}, {fuzzy} fuzzy")
    if problems:
        raise UserError(problems[0])
    return 0


def run_init(args: argparse.Namespace) -> int:
    from babel.messages.catalog import Catalog

    from site_builder.errors import Problem, UserError
    from site_builder.i18n import SOURCE_LANG, parse_locale, po_path
    from site_builder.messages import FIXED_DATE, PROJECT

    lang = args.lang.replace("-", "_")
    try:
        locale = parse_locale(lang)
    except ValueError as exc:
        raise UserError(Problem("site-builder i18n init", 0, str(exc))) from None
    path = args.root / po_path(lang)
    if lang == SOURCE_LANG:
        raise UserError(f"{lang} is the source language: it needs no catalog")
    if path.exists():
        raise UserError(Problem(po_path(lang), 0, "this language already exists; run "
                                                  "'site-builder i18n update' to refresh it"))
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
    _write_po(path, catalog)
    print(f"{po_path(lang)}: created with {len(catalog)} messages to translate "
          f"({locale.get_display_name(lang)}). The site now builds it with English fallback.")
    return 0


def run_compile(args: argparse.Namespace) -> int:
    from babel.messages.mofile import write_mo

    from site_builder.errors import UserError
    from site_builder.i18n import po_path
    from site_builder.load import read_catalog
    from site_builder.messages import card_terms, template_messages

    site = _site(args.root)
    terms = card_terms(template_messages(args.root))
    catalogs = {lang: read_catalog(args.root, lang, terms) for lang in site.languages[1:]}
    problems = [p for _, found in catalogs.values() for p in found]
    if problems:
        raise UserError(problems)
    for lang, (catalog, _) in sorted(catalogs.items()):
        mo = args.root / po_path(lang).replace(".po", ".mo")
        with mo.open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=False)
        print(f"{mo.relative_to(args.root).as_posix()}: compiled")
    return 0


def stats_data(root: Path) -> dict[str, Any]:
    from site_builder.i18n import coverage, load_catalog
    from site_builder.messages import source_catalog

    site = _site(root)
    source = source_catalog(site.root, site.pages, site.profiles)
    data: dict[str, Any] = {}
    for lang in site.languages[1:]:
        loaded, problems = load_catalog(root, lang)
        if problems:
            from site_builder.errors import UserError

            raise UserError(problems)
        overall, pages = coverage(source, loaded.catalog if loaded else None)
        data[lang] = {**overall.as_json(), "pages": {k: v.as_json() for k, v in pages.items()}}
    return data


def run_stats(args: argparse.Namespace) -> int:
    data = stats_data(args.root)
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        width = max([len(p) for d in data.values() for p in d["pages"]] + [8])
        for lang, d in data.items():
            print(f"{lang}: {d['percent']:5.1f}%  translated {d['translated']}, "
                  f"fuzzy {d['fuzzy']}, untranslated {d['untranslated']}")
            for page, c in d["pages"].items():
                print(f"    {page:<{width}} {c['percent']:5.1f}%  ({c['translated']}/"
                      f"{c['translated'] + c['fuzzy'] + c['untranslated']}, {c['fuzzy']} fuzzy)")
    if args.fail_under is not None:
        low = [lang for lang, d in data.items() if d["percent"] < args.fail_under]
        if low:
            print(f"below {args.fail_under}%: {', '.join(low)}", file=sys.stderr)
            return 1
    return 0
