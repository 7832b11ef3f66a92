"""Write a synthetic project in this project's format, for benchmarks.

    .venv/bin/python benchmarks/make_corpus.py --pages 1000 --out /tmp/corpus-1000
    .venv/bin/site-builder build --root /tmp/corpus-1000

The project has N source pages and its own home page, which links the first five (a copy
of the real home page would link pages the corpus lacks). Each page has about 500 words: a
title and a description, two subheadings, five paragraphs, a list and two worked-example
tables. The tables are real example blocks taken from this project's content, so the engine
verifies every row. The prose is English-like text, distinct on every page, with some
emphasis, inline code, links, numbers and rule placeholders.

The messages are those ``site-builder i18n extract`` finds in the corpus. The catalogs for
ms, pl, vi and id are complete: a message the real catalogs translate (the templates, the
rule profiles, the example captions and notes) keeps its translation; the prose is
translated into deterministic pseudo-words that keep every placeholder, number, link
target, code span and emphasis marker, so that every translation check passes. Templates,
``babel.cfg``, ``content/profiles.toml`` and ``content/site.toml`` are copied from this
project. The output is the same for the same arguments; ``tests/test_benchmarks.py``
builds a 3-page corpus. ``--tiny``: pages of a title, a description and one sentence (a
site of many small pages).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from site_builder.i18n.terms import load_terms, terms_path  # noqa: E402

LANGS = ("ms", "pl", "vi", "id")
COPIED = ("templates", "babel.cfg", "content/profiles.toml", "content/site.toml")

WORDS = """
able about above across after again against along already also always among another
answer around away back before began begin behind being below between both bring
build call came carry change check clear close come common complete consider count
cover cross deal decide different does done down draw during each early easy either
else empty end enough even every example face fact fall far few final find first
follow form four free from front full game give good great group half hand happen
hard have head help here high hold home hour idea keep kind know large last later
lay lead learn leave left less light like line list little long look lose made make
many mark match may mean meet middle might more most move much must name near need
never new next note number often once only open order other over own pair part pass
pay person pick place plan play player point put quick rather reach read ready real
reason remain rest right round rule same score second seen seat show side simple
since small some soon stand start state still stock stop such table take than that
their then there these thing think third this those three through time together
top total toward turn under until upon usual value very wait want way well what
when where which while whole will win with within without word work would write
year yet young
""".split()

SYLLABLES = {
    "ms": "ka ma la pa sa ta ra na ba da ga ha ja ya ng ku mu lu su tu ri ni di si ah an"
          " ang lah kan nya per ber ter".split(),
    "pl": "prz sz cz ka ow ie ny ła ść mi wo do ro zy ta ko le ni po ra sk st dz rz ę ą"
          " ów ek".split(),
    "vi": "nguy ph ương tr ờ ch ng àn ộ ư ơ th kh gi qu ê ô ắ ấ ề ị ũ đ ả ạ ưở"
          " nh".split(),
    "id": "ka ma la pa sa ta ra na ba da ga ha ja ya ng ke me le pe se te ri ni ti si an"
          " ang kan nya per ber ter".split(),
}

TOKEN_RE = re.compile(r"\{[^{}]*\}|`[^`]*`|\]\([^)]*\)|\d+(?:[.,]\d+)*|[^\W\d_]+")


def _seed(*parts: str) -> int:
    return int.from_bytes(hashlib.blake2b("\0".join(parts).encode(), digest_size=8).digest(),
                          "little")


@functools.cache
def pseudo_word(word: str, lang: str) -> str:
    rnd = random.Random(_seed(lang, word.lower()))
    syllables = SYLLABLES[lang]
    out = "".join(rnd.choice(syllables) for _ in range(max(1, min(4, len(word) // 3 + 1))))
    return out[:1].upper() + out[1:] if word[:1].isupper() else out


@functools.cache
def game_terms(lang: str) -> dict[str, str]:
    """The game terms of *lang*'s term file (``locales/<lang>/terms.toml``, copied into the
    corpus): each English term and the word a translation must hold."""
    return {term.said.lower(): term.write for term in load_terms(ROOT, lang)[0].required}


def pseudo_translate(text: str, lang: str) -> str:
    """Words become pseudo-words; placeholders, numbers, link targets and code stay."""

    def one(m: re.Match[str]) -> str:
        token = m.group(0)
        if token[0] in "{`]" or token[0].isdigit():
            return token
        return pseudo_word(token, lang)

    out = TOKEN_RE.sub(one, text)
    for english, local in game_terms(lang).items():  # game terms in the locale's words
        if re.search(rf"\b{re.escape(english)}s?\b", text.lower()) and local not in out.lower():
            out += f" ({local})"
    return out


class Prose:
    """Deterministic English-like text, different on every page."""

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)

    def words(self, n: int) -> list[str]:
        return [self.rnd.choice(WORDS) for _ in range(n)]

    def sentence(self, lo: int = 8, hi: int = 16) -> str:
        words = self.words(self.rnd.randint(lo, hi))
        return " ".join(words).capitalize() + "."

    def title(self) -> str:
        return " ".join(self.words(self.rnd.randint(2, 4))).capitalize()

    def paragraph(self, page_no: int, pages: int) -> str:
        sentences = [self.sentence() for _ in range(self.rnd.randint(5, 7))]
        kind = self.rnd.randrange(6)
        i = self.rnd.randrange(len(sentences))
        words = sentences[i].rstrip(".").split()
        j = self.rnd.randrange(1, len(words))
        if kind == 0:
            words[j] = f"*{words[j]}*"
        elif kind == 1:
            words[j] = f"`{words[j]}`"
        elif kind == 2:
            other = self.rnd.randrange(pages)
            words[j] = f"[{words[j]}](../page-{other:05d}/)"
        elif kind == 3:
            words.insert(j, f"{self.rnd.randint(2, 12)}")
        elif kind == 4:
            words.insert(j, "{rami51_threshold}")
        sentences[i] = " ".join(words) + "."
        return " ".join(sentences)


def example_pool(root: Path) -> list[str]:
    """Every ```example block of this project's content, verbatim."""
    blocks = []
    for path in sorted((root / "content").glob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            if lines[i].strip() == "```example":
                j = i + 1
                while lines[j].strip() != "```":
                    j += 1
                blocks.append("\n".join(lines[i:j + 1]))
                i = j
            i += 1
    return blocks


def make_page(no: int, pages: int, pool: list[str]) -> str:
    prose = Prose(_seed("page", str(no)))
    rnd = random.Random(_seed("examples", str(no)))
    first, second = rnd.sample(pool, 2)
    items = "\n".join(f"- {prose.sentence(6, 11)}" for _ in range(4))
    return "\n".join([
        "---",
        f"title: {prose.title()} {no}",
        f"slug: page-{no:05d}",
        f"order: {100 + no}",
        f"description: {prose.sentence(12, 18)}",
        "---",
        "",
        f"## {prose.title()}",
        "",
        prose.paragraph(no, pages),
        "",
        prose.paragraph(no, pages),
        "",
        items,
        "",
        first,
        "",
        prose.paragraph(no, pages),
        "",
        f"## {prose.title()}",
        "",
        prose.paragraph(no, pages),
        "",
        second,
        "",
        prose.paragraph(no, pages),
        "",
    ])


def make_tiny_page(no: int) -> str:
    """A page of a title, a description and one sentence (``--tiny``)."""
    prose = Prose(_seed("page", str(no)))
    return "\n".join([
        "---",
        f"title: {prose.title()} {no}",
        f"slug: page-{no:05d}",
        f"order: {100 + no}",
        f"description: {prose.sentence(6, 10)}",
        "---",
        "",
        prose.sentence(),
        "",
    ])


def make_index(pages: int) -> str:
    """The corpus's own home page: its links lead to the corpus's pages, never to a page of
    the real site (whose home page links pages the corpus does not have)."""
    prose = Prose(_seed("index"))
    links = ", ".join(f"[{prose.title().lower()}](page-{no:05d}/)" for no in range(min(5, pages)))
    return "\n".join([
        "---",
        "title: Rami rules",
        "slug: index",
        "order: 0",
        f"description: {prose.sentence(12, 18)}",
        "---",
        "",
        f"Rami is a rummy game for {{rami51_min_players}} to {{rami51_max_players}} players. "
        f"{prose.sentence()}",
        "",
        f"{prose.sentence()} Start with {links}." if links else prose.sentence(),
        "",
    ])


def po_path(lang: str) -> str:
    return f"locales/{lang}/LC_MESSAGES/messages.po"


def real_catalogs(root: Path) -> dict[str, Catalog]:
    out = {}
    for lang in LANGS:
        with (root / po_path(lang)).open("rb") as fh:
            out[lang] = read_po(fh, locale=lang)
    return out


def translated(catalog: Catalog, msgid: object, context: str | None) -> object | None:
    key = msgid[0] if isinstance(msgid, tuple) else msgid
    found = catalog.get(key, context)
    if found is None or found.fuzzy:
        return None
    strings = found.string if isinstance(found.string, tuple) else (found.string,)
    return found.string if all(strings) else None


def pseudo_message(msgid: object, lang: str) -> object:
    if isinstance(msgid, tuple):
        plurals = Catalog(locale=lang).num_plurals
        forms = [pseudo_translate(msgid[min(i, 1)], lang) for i in range(plurals)]
        return tuple(forms)
    return pseudo_translate(str(msgid), lang)


def po_string(keyword: str, text: str) -> str:
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
               .replace("\t", "\\t").replace("\r", "\\r"))
    return f'{keyword} "{escaped}"\n'


def po_header(lang: str) -> str:
    plural = Catalog(locale=lang).plural_forms
    fields = ["Project-Id-Version: Rami rules 1.0", "Report-Msgid-Bugs-To: EMAIL@ADDRESS",
              "POT-Creation-Date: 2026-01-01 00:00+0000",
              "PO-Revision-Date: 2026-01-01 00:00+0000",
              "Last-Translator: Rami rules translators", f"Language: {lang}",
              f"Language-Team: {lang}", f"Plural-Forms: {plural}", "MIME-Version: 1.0",
              "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit"]
    return ("# Synthetic translations for a benchmark corpus.\n"
            'msgid ""\nmsgstr ""\n' + "".join(f'"{f}\\n"\n' for f in fields))


def po_entry(msgid: object, string: object, context: str | None,
             locations: list[tuple[str, int | None]], comments: list[str]) -> str:
    out = [f"#. {c}\n" for c in comments]
    refs = [f"{path}:{line}" if line else path for path, line in locations]
    line = "#:"
    for ref in refs:  # wrapped as Babel does, at 76 columns
        if len(line) + 1 + len(ref) > 76 and line != "#:":
            out.append(line + "\n")
            line = "#:"
        line += " " + ref
    out.append(line + "\n")
    if context is not None:
        out.append(po_string("msgctxt", context))
    if isinstance(msgid, tuple):
        out.append(po_string("msgid", msgid[0]))
        out.append(po_string("msgid_plural", msgid[1]))
        forms = string if isinstance(string, tuple | list) else (string,)
        out.extend(po_string(f"msgstr[{i}]", str(f)) for i, f in enumerate(forms))
    else:
        out.append(po_string("msgid", str(msgid)))
        out.append(po_string("msgstr", str(string)))
    return "".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, required=True, help="number of source pages")
    parser.add_argument("--out", type=Path, required=True, help="project folder to write")
    parser.add_argument("--tiny", action="store_true",
                        help="pages of a title, a description and one sentence")
    args = parser.parse_args(argv)
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    (out / "content").mkdir(parents=True)
    for part in COPIED:
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, out / part)
        else:
            shutil.copy2(src, out / part)
    for lang in LANGS:  # each language's game terms, which check holds its catalog to
        if (ROOT / terms_path(lang)).is_file():
            (out / terms_path(lang)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / terms_path(lang), out / terms_path(lang))
    # the practice table's runtime, as npm ci gives a checkout (a build reads it there only)
    (out / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)

    pool = example_pool(ROOT)
    sources = {"content/index.md": make_index(args.pages)}
    for no in range(args.pages):
        sources[f"content/page-{no:05d}.md"] = (make_tiny_page(no) if args.tiny
                                                 else make_page(no, args.pages, pool))
    for rel, text in sources.items():
        (out / rel).write_text(text, encoding="utf-8")

    # The messages, as `site-builder i18n extract` finds them in the corpus: its pages, the
    # rule profiles, the templates and the package's own strings, in the command's order.
    subprocess.run([sys.executable, "-m", "site_builder", "i18n", "extract", "--root", str(out)],
                   check=True, capture_output=True)
    with (out / "locales" / "messages.pot").open("rb") as fh:
        template = read_po(fh)
    messages = [(m.id, m.context, list(m.locations), list(m.auto_comments))
                for m in template if m.id]

    real = real_catalogs(ROOT)
    for lang in LANGS:
        path = out / po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        entries = [po_header(lang)]
        for msgid, context, locations, comments in messages:
            string = translated(real[lang], msgid, context) or pseudo_message(msgid, lang)
            entries.append(po_entry(msgid, string, context, locations, comments))
        path.write_text("\n".join(entries), encoding="utf-8")
    words = sum(len(t.split()) for t in sources.values()) // max(1, len(sources))
    print(f"wrote {args.pages} pages (+ index), about {words} words each, and catalogs for "
          f"{', '.join(LANGS)} ({len(messages)} messages) -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
