"""Each language's game terms, as data its translators own: ``locales/<lang>/terms.toml``
beside its catalog, read here and enforced by ``check`` on every translated entry
(:func:`term_problems`).

A term file has two tables, both optional:

* ``[terms]``: an English game term (a suit, a rank, a meld, the first meld, the stock,
  ...) and the word the language uses for it. Where the English of an entry names the
  term (or its plural), its translation must hold the word: matched without case, as the
  start that all of the word's forms share ("trój" for trójka, trójkę, trójki; Polish
  declines, so a term file may give the stem).
* ``[avoid]``: a word the language does not use, and the term to write instead ("one
  term for one thing"). It is an error anywhere in a translation, except inside the term
  itself ("pembagian" within "pembagian kartu"). An entry that must keep it (the seed's
  own wording) is listed by its msgid, or the msgid's start and "...": ``"word" = {
  write = "term", keep = ["First meld", "New to the game?..."] }``.

A new language starts with a file that has empty tables and a note (:func:`new_file`):
no code names a language's terms.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from site_builder.errors import Problem
from site_builder.project import LOCALES_DIR
from site_builder.sources.files import decode_utf8

TERMS_FILE = "terms.toml"
TABLES = ("terms", "avoid")


def terms_path(lang: str) -> str:
    """The term file of *lang*, beside its catalog's folder."""
    return f"{LOCALES_DIR}/{lang}/{TERMS_FILE}"


@dataclass(frozen=True, slots=True)
class Term:
    """One line of a term file: the English term and the language's word (``[terms]``),
    or the word to avoid and the one to write (``[avoid]``), and its line."""

    said: str
    write: str
    line: int
    keep: tuple[str, ...] = ()  # ``[avoid]``: the msgids that keep the word (start...)


@dataclass(frozen=True, slots=True)
class Terms:
    """A language's term file, read."""

    path: str
    required: tuple[Term, ...] = ()
    avoid: tuple[Term, ...] = ()


def _fold(text: str) -> str:
    """Text as terms are matched: NFC (an editor may type Vietnamese with combining
    accents) and without case."""
    return unicodedata.normalize("NFC", text).casefold()


def _key_line(lines: list[str], table: str, key: str) -> int:
    """The line of *key* in *table* of a term file (its first line if not found)."""
    current = ""
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("[") and not stripped.startswith("[["):
            current = stripped.strip("[] ")
        elif current == table and stripped.split("=", 1)[0].strip().strip("\"'") == key:
            return number
    return 1


def read_terms(text: str, path: str) -> tuple[Terms, list[Problem]]:
    """The terms of a term file's *text* (at *path*), and its problems, each at its line.

    >>> terms, problems = read_terms('[terms]\\nhearts = "kier"\\n[avoid]\\n'
    ...                              '"królowa" = "dama"\\n', "locales/pl/terms.toml")
    >>> terms.required, problems
    ((Term(said='hearts', write='kier', line=2, keep=()),), [])
    >>> read_terms('[terms]\\nhearts = 3\\n', "t.toml")[1][0].line
    2
    >>> read_terms('[terms]\\nhearts = "kier\\n', "t.toml")[1][0].message[:30]
    'the term file is not valid TOM'
    """
    lines = text.splitlines()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        return Terms(path), [Problem(path, int(found.group(1)) if found else 1,
                                     f"the term file is not valid TOML: {exc}; write each "
                                     "term as english = \"word\" under [terms] or [avoid]")]
    problems = []
    tables: dict[str, list[Term]] = {table: [] for table in TABLES}
    for table, entries in data.items():
        if table not in TABLES or not isinstance(entries, dict):
            at = next((n for n, line in enumerate(lines, 1)
                       if line.strip().startswith(f"[{table}]")), _key_line(lines, "", table))
            problems.append(Problem(path, at, f"{table!r} is not a table of a term file; "
                                              "write the terms under [terms] or [avoid] only"))
            continue
        for key, value in entries.items():
            line = _key_line(lines, table, key)
            keep: list[str] = []
            if table == "avoid" and isinstance(value, dict):
                keep = value.get("keep", [])
                value = value.get("write")
                if not isinstance(keep, list) or not all(isinstance(k, str) and k
                                                         for k in keep):
                    problems.append(Problem(path, line, f"{key!r}: keep is a list of the "
                                                        "msgids (their start) that keep the "
                                                        "word, e.g. keep = [\"First meld\"]"))
                    continue
            if not isinstance(value, str) or not value.strip() or not key.strip():
                problems.append(Problem(path, line, f"{key!r}: write the word in quotes, "
                                                    f"e.g. {key} = \"...\" (not empty)"))
            elif table == "avoid" and _fold(key) == _fold(value):
                problems.append(Problem(path, line, f"{key!r} is avoided and written at once; "
                                                    "give the word to write instead"))
            else:
                tables[table].append(Term(key.strip(), value.strip(), line, tuple(keep)))
    return Terms(path, tuple(tables["terms"]), tuple(tables["avoid"])), problems


def load_terms(root: Path, lang: str, data: bytes | None = None
               ) -> tuple[Terms, list[Problem]]:
    """The term file of *lang* (*data*: its bytes, if read already); no terms if it has
    none."""
    path = terms_path(lang)
    if data is None:
        file = root / path
        if not file.is_file():
            return Terms(path), []
        data = file.read_bytes()
    text, problem = decode_utf8(data, path)
    if text is None:
        return Terms(path), [problem] if problem else []
    return read_terms(text, path)


def term_problems(source: str, translated: str, terms: Terms) -> list[str]:
    """What the translation *translated* of the English *source* does against *terms*.

    >>> terms = read_terms('[terms]\\nqueen = "dam"\\n[avoid]\\n"pembagian" = '
    ...                    '"pembagian kartu"\\n', "t.toml")[0]
    >>> term_problems("Queen of hearts", "królowa kier", terms)
    ["game term 'queen' must be translated with a word that begins 'dam' (t.toml:2)"]
    >>> term_problems("Queens", "Damy", terms), term_problems("the deal", "pembagian kartu",
    ...                                                        terms)
    ([], [])
    >>> term_problems("the deal", "Tautan pembagian ini", terms)
    ["'pembagian' is not this language's term: write 'pembagian kartu' (t.toml:4)"]
    >>> kept = read_terms('[avoid]\\n"a b" = { write = "c", keep = ["Seed..."] }\\n', "t")[0]
    >>> term_problems("Seed text", "a b", kept), term_problems("Other", "a b", kept)[0][:9]
    ([], "'a b' is ")
    """
    problems = []
    english = source.lower()
    target = _fold(translated)
    advised = set()  # the words an avoided one is to be replaced with: said once
    for term in terms.avoid:
        if any(source == k or k.endswith("...") and source.startswith(k[:-3])
               for k in term.keep):
            continue  # an entry that keeps the word (the seed's own)
        avoided, written = _fold(term.said), _fold(term.write)
        rest = target.replace(written, " ") if avoided in written else target
        if avoided in rest and re.search(rf"(?<!\w){re.escape(avoided)}(?!\w)", rest):
            advised.add(written)
            problems.append(f"{term.said!r} is not this language's term: write "
                            f"{term.write!r} ({terms.path}:{term.line})")
    for term in terms.required:  # (a word not in the text at all is not searched for)
        said = term.said.lower()
        if said in english and re.search(rf"\b{re.escape(said)}s?\b", english) and \
                _fold(term.write) not in target and _fold(term.write) not in advised:
            problems.insert(0, f"game term {term.said!r} must be translated with a word "
                               f"that begins {term.write!r} ({terms.path}:{term.line})")
    return problems


def new_file(lang: str) -> str:
    """The term file a new language starts with: empty tables and a note.

    >>> read_terms(new_file("de"), "t.toml")
    (Terms(path='t.toml', required=(), avoid=()), [])
    """
    return (f"# The game terms of this language ({lang}), owned by its translators.\n"
            "# check makes every translation use them; no code to edit.\n"
            "#\n"
            "# [terms]: where the English names a game term (or its plural), the translation\n"
            "# must hold this word, without case; give the start all its forms share if the\n"
            "# language inflects it. One line a term, for example:\n"
            "#   hearts = \"...\"\n"
            "#   queen = \"...\"\n"
            "#   sequence = \"...\"\n"
            "#   \"set of three\" = \"...\"\n"
            "#   \"first meld\" = \"...\"\n"
            "# [avoid]: a word this language does not use for a term, and the one to write\n"
            "# instead (one term for one thing), for example:\n"
            "#   \"...\" = \"...\"\n"
            "\n[terms]\n\n[avoid]\n")
