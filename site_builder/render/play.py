"""The practice table's files: the Python runtime for the browser (npm
``pyodide``, copied from ``node_modules``, never fetched from a CDN) and the rules engine
packed as a zip named by its content hash, so that the table plays the very rules that
verified the pages.

Only a site with a practice page (front matter ``play: true``) needs them. The runtime
is found in the site's own ``node_modules/pyodide`` (``npm ci``; ``scripts/setup`` and
the GitHub workflow run it), and nowhere else.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from babel import Locale

from site_builder.engine.reasons import reason_messages
from site_builder.errors import Problem, UserError
from site_builder.i18n.translator import pgettext  # a marker: page_words looks them up
from site_builder.output import write_atomic
from site_builder.render.minify import compact_json
from site_builder.sources.parsing import parse

PACKAGE_DIR = Path(__file__).resolve().parent.parent
ENGINE_DIR = PACKAGE_DIR / "engine"
#: The runtime's files the page loads (``loadPyodide({indexURL})`` fetches the last four).
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
PLAY_DIR = "assets/play"
# The practice page's Content-Security-Policy is that of every page in a language folder
# (render/context.py, SEARCH_CSP), which already has what the runtime needs: script-src 'self'
# 'wasm-unsafe-eval' to compile the Python interpreter (WebAssembly; it allows no JavaScript
# eval or new Function) and connect-src 'self' to fetch the interpreter, its standard library
# and the engine. Pagefind's search needs the same two, so the table loosens nothing.
# A fixed date for every member of the engine's zip: the same sources, the same bytes.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def runtime_dir(root: Path) -> Path | None:
    """Where the npm ``pyodide`` package is: in *root*'s own ``node_modules``, as
    ``npm ci`` puts it there; None if it is missing or incomplete. Never elsewhere: a
    build reads only the project it builds, so that what passes on a developer's machine
    passes on a fresh checkout too."""
    found = root / "node_modules" / "pyodide"
    if all((found / name).is_file() for name in RUNTIME_FILES):
        return found
    return None


def runtime_version(found: Path) -> str:
    """The runtime's version, from its ``package.json`` (it names the output folder)."""
    rel = "node_modules/pyodide/package.json"
    try:
        data, problem = parse(json.loads, (found / "package.json").read_text("utf-8"), rel,
                              "json")
    except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError included
        problem = Problem(rel, 0, f"cannot read the runtime's version: {exc}; run 'npm ci' "
                                  "again")
    if problem is not None:
        raise UserError([problem])
    version = data.get("version", "") if isinstance(data, dict) else ""
    return "".join(ch for ch in str(version) if ch.isalnum() or ch in ".-") or "0"


def missing_runtime() -> UserError:
    """The one-line error when a site has a practice page and the runtime is not installed."""
    return UserError([Problem("node_modules/pyodide", 0,
                              "the practice page needs the Python runtime for the browser "
                              "(npm pyodide, in package.json): run 'npm ci' (or bash "
                              "scripts/setup)")])


def engine_archive() -> tuple[str, bytes]:
    """The rules engine as a zip (``site_builder/engine`` and an empty package
    ``site_builder``), deterministic: members sorted, one fixed date and mode. Its file
    name carries the first 16 hex digits of its SHA-256.

    >>> name, data = engine_archive()
    >>> name.startswith("engine-") and name.endswith(".zip"), engine_archive()[1] == data
    (True, True)
    >>> "site_builder/engine/play/table.py" in zipfile.ZipFile(io.BytesIO(data)).namelist()
    True
    """
    members = {"site_builder/__init__.py": b'"""The rules engine of site_builder."""\n'}
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        rel = path.relative_to(PACKAGE_DIR.parent).as_posix()
        members[rel] = path.read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, members[name], compresslevel=9)
    data = buffer.getvalue()
    return f"engine-{hashlib.sha256(data).hexdigest()[:16]}.zip", data


#: What makes the start-up snapshot (run by Node.js, which ``npm ci`` needs anyway).
SNAPSHOT_SCRIPT = Path(__file__).with_name("snapshot.mjs")
#: Where a snapshot is kept between builds: beside the runtime it was made from, under
#: ``node_modules/.cache`` (the usual home of a tool's cache there), so that ``npm ci``, which
#: replaces the runtime, clears it too. Named by a hash of everything it is made from.
SNAPSHOT_CACHE = ".cache/site-builder"
# Making one takes about 7 s on a quiet machine; many times that is a hang.
SNAPSHOT_TIMEOUT = 600


def _snapshot_problem(text: str) -> UserError:
    return UserError([Problem("node_modules/pyodide", 0, "cannot prepare the practice table's "
                              f"start-up (node {SNAPSHOT_SCRIPT.name}): {text}")])


def make_snapshot(found: Path, engine: bytes) -> bytes:
    """The interpreter's memory once Python has started and imported the engine
    (``snapshot.mjs``, run by Node.js), gzip-compressed: the page starts from it in about
    2 s, where starting Python takes about 19 s on a phone-speed CPU (Chromium at 4x
    throttle; ``benchmarks/play.py``). The same runtime and *engine* give the same bytes."""
    node = shutil.which("node")
    if node is None:
        raise _snapshot_problem("Node.js is not installed; install it (bash scripts/setup "
                                "does), as 'npm ci' needs it too")
    with tempfile.TemporaryDirectory(prefix="site-builder-snapshot-") as tmp:
        zip_path, out = Path(tmp) / "engine.zip", Path(tmp) / "snapshot"
        zip_path.write_bytes(engine)
        try:
            run = subprocess.run([node, str(SNAPSHOT_SCRIPT), str(found.resolve() / "pyodide.mjs"),
                                  str(zip_path), str(out)], cwd=tmp, capture_output=True,
                                 text=True, timeout=SNAPSHOT_TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            raise _snapshot_problem(f"no answer after {SNAPSHOT_TIMEOUT} s") from None
        if run.returncode != 0 or not out.is_file():
            # Node's report of an uncaught error: its "...Error: what" line, not the stack
            lines = [line.strip() for line in (run.stderr or run.stdout).splitlines()
                     if "Error" in line and ":" in line and not line.startswith(" ")]
            raise _snapshot_problem((lines[0] if lines else f"exit code {run.returncode}")
                                    + "; run 'npm ci' again")
        return gzip.compress(out.read_bytes(), 6, mtime=0)


def start_snapshot(root: Path, archive: tuple[str, bytes]) -> tuple[str, bytes]:
    """The practice table's start-up snapshot for *archive* (:func:`engine_archive`'s) and
    *root*'s runtime: its file name, which carries the first 16 hex digits of its SHA-256,
    and its bytes (gzip). Made once for these inputs and kept in the runtime's
    ``node_modules/.cache`` (the last one only); a kept one whose bytes do not match the
    hash in its name is made again."""
    found = runtime_dir(root)
    if found is None:
        raise missing_runtime()
    key = hashlib.sha256()
    for part in (SNAPSHOT_SCRIPT.read_bytes(), archive[1],
                 *((found / name).read_bytes() for name in RUNTIME_FILES)):
        key.update(len(part).to_bytes(8, "little") + part)
    # kept as snapshot-<inputs>-<its own SHA-256>.gz: the hash that names the output file
    # also tells a damaged copy, which is never published
    folder = found.parent / SNAPSHOT_CACHE
    for kept in sorted(folder.glob(f"snapshot-{key.hexdigest()[:32]}-*.gz")):
        try:
            data = kept.read_bytes()
        except OSError:
            continue
        digest = hashlib.sha256(data).hexdigest()[:16]
        if kept.name.endswith(f"-{digest}.gz"):
            return f"snapshot-{digest}.gz", data
    data = make_snapshot(found, archive[1])
    digest = hashlib.sha256(data).hexdigest()[:16]
    kept = folder / f"snapshot-{key.hexdigest()[:32]}-{digest}.gz"
    try:
        write_atomic(kept, data)
        for old in folder.glob("snapshot-*.gz"):  # one kept: an engine edited often
            if old != kept:                       # would fill the disk 6 MB a time
                old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only node_modules: the next build makes it again
    return f"snapshot-{digest}.gz", data


def runtime_path(root: Path) -> str:
    """The runtime's folder in the output (``assets/pyodide/<version>``)."""
    found = runtime_dir(root)
    if found is None:
        raise missing_runtime()
    return f"assets/pyodide/{runtime_version(found)}"


def files(root: Path, archive: tuple[str, bytes], snapshot: tuple[str, bytes]
          ) -> list[tuple[str, bytes]]:
    """The output files the practice page loads: the runtime, its start-up *snapshot*
    (:func:`start_snapshot`'s, in the runtime's folder, cached with it when a reader starts
    the table) and the packed engine (*archive*: :func:`engine_archive`'s, made once a
    build)."""
    found = runtime_dir(root)
    if found is None:
        raise missing_runtime()
    folder = runtime_path(root)
    out = [(f"{folder}/{name}", (found / name).read_bytes()) for name in RUNTIME_FILES]
    out.append((f"{folder}/{snapshot[0]}", snapshot[1]))
    name, data = archive
    out.append((f"{PLAY_DIR}/{name}", data))
    return out


def plural_samples(lang: str) -> dict[str, int]:
    """For each CLDR plural category of *lang*, the smallest whole number in it: the page
    renders each plural message once per category (``ngettext`` with that number), and the
    script picks the form by ``Intl.PluralRules``, which follows the same CLDR rules.

    >>> plural_samples("en"), plural_samples("pl"), plural_samples("ms")
    ({'other': 0, 'one': 1}, {'many': 0, 'one': 1, 'few': 2}, {'other': 0})
    """
    rule = Locale.parse(lang).plural_form
    out: dict[str, int] = {}
    for n in range(0, 200):
        out.setdefault(rule(n), n)
    return out



#: The context of the refusals the practice table says to the reader ("you"), in place of
#: the engine's own sentence about a seat ("seat 1 must draw first").
YOURS_CONTEXT = "refusal to you"

#: The engine's refusals that name the reader's own seat, said to the reader: the same
#: code and values (``{seat}`` is not used), in the second person. A translator words
#: them as the engine's (``docs/translating.md``: a card's name where its base form is
#: right).
YOUR_REFUSALS: dict[str, str] = {
    # Translators: said to the reader (you) on the practice table; {turn} is the number of the seat
    # whose turn it is. Follows "Not allowed:"; lower case.
    "not-your-turn": pgettext("refusal to you", "it is seat {turn}'s turn, not yours"),
    # Translators: said to the reader (you) who tries to draw a second card in one turn. Follows
    # "Not allowed:"; lower case.
    "already-drawn": pgettext("refusal to you", "you have already drawn this turn"),
    # Translators: said to the reader (you) who tries to lay or discard before drawing a card.
    # Follows "Not allowed:"; lower case.
    "draw-first": pgettext("refusal to you", "you must draw first"),
    # Translators: said to the reader (you): this game forbids taking the top card of the discard
    # pile in the first round. Follows "Not allowed:"; lower case.
    "discard-first-round": pgettext(
        "refusal to you", "you may not take the discard in the first round; draw from the stock"),
    # Translators: said to the reader (you) holding one card, who may not take the top card of the
    # discard pile. Follows "Not allowed:"; lower case.
    "discard-at-one-card": pgettext(
        "refusal to you", "you hold one card and may not take the discard; draw from the stock"),
    # Translators: said to the reader (you); {card} is the top card of the discard pile, a card name
    # in base form (not declined). Follows "Not allowed:"; lower case.
    "discard-take-needs-lay": pgettext(
        "refusal to you", "you may take {card} from the discard pile only to lay it this turn, "
                       "and cannot: it fits no meld"),
    # Translators: to the reader (you); {card}: top of the discard pile, a card name in base form
    # (not declined); "first meld": ms bentangan pertama. Follows "Not allowed:"; lower case.
    "discard-take-needs-opening": pgettext(
        "refusal to you", "you may take {card} from the discard pile only to lay it this turn, "
                       "and cannot: no first meld that uses it is accepted"),
    # Translators: to the reader (you); {card} is the top card of the discard pile, a card name in
    # base form (not declined); a turn ends with a discard. Follows "Not allowed:"; lower case.
    "discard-take-needs-final-discard": pgettext(
        "refusal to you", "you may take {card} from the discard pile only to lay it this turn, "
                       "and cannot: no card would be left to discard"),
    # Translators: said to the reader (you) about a card not in their hand; {card} is a card name in
    # base form (not declined), e.g. "dama kier". Follows "Not allowed:"; lower case.
    "not-held": pgettext("refusal to you", "you do not hold {card}"),
    # Translators: to the reader (you); {count} is how many copies of {card} they hold (two packs);
    # {card}: a card name in base form (not declined). Follows "Not allowed:"; lower case.
    "held-too-few": pgettext("refusal to you", "you hold only {count} of {card}"),
    # Translators: said to the reader (you): a turn ends with a discard, so one card must stay in
    # the hand. Follows "Not allowed:"; lower case.
    "keep-final-discard": pgettext("refusal to you", "you must keep a card for the final discard"),
    # Translators: to the reader (you); {total}: the first meld's points, {threshold}: the points
    # needed, {reasons}: what is wrong. Follows "Not allowed:"; lower case.
    "out-opening-short": pgettext(
        "refusal to you", "you cannot go out with a first meld that falls short ({total} points, "
                       "threshold {threshold}: {reasons})"),
    # Translators: to the reader (you): adding cards to a meld on the table needs one's own first
    # meld laid before. Follows "Not allowed:"; lower case.
    "lay-off-not-opened": pgettext(
        "refusal to you", "you have not laid your first meld yet and may not lay off"),
    # Translators: to the reader (you): exchanging a joker on the table needs one's own first meld
    # laid before. Follows "Not allowed:"; lower case.
    "swap-not-opened": pgettext(
        "refusal to you", "you have not laid your first meld yet and may not exchange a joker"),
    # Translators: to the reader (you); {cards}: the card(s) taken this turn (discard pile, or a
    # joker from a meld), base form. Follows "Not allowed:"; lower case.
    "owed-fits-no-meld": pgettext(
        "refusal to you", "you must lay {cards} this turn and could not after that (it fits no "
                       "meld)"),
    # Translators: to the reader (you); {cards}: the cards taken this turn, names in base form (not
    # declined), comma-separated. Follows "Not allowed:"; lower case.
    "owed-not-all": pgettext(
        "refusal to you", "you must lay {cards} this turn and could not after that (they cannot "
                       "all be laid)"),
    # Translators: to the reader (you); {cards}: the card(s) taken this turn, names in base form
    # (not declined). Follows "Not allowed:"; lower case.
    "owed-no-opening": pgettext(
        "refusal to you", "you must lay {cards} this turn and could not after that (no first meld "
                       "that uses it is accepted)"),
    # Translators: to the reader (you); {cards}: the card(s) taken this turn, base form; a turn ends
    # with a discard. Follows "Not allowed:"; lower case.
    "owed-no-final-discard": pgettext(
        "refusal to you", "you must lay {cards} this turn and could not after that (no card would "
                       "be left to discard)"),
    # Translators: to the reader (you) who discards too early; {card} (twice) is the card taken from
    # the discard pile, a card name in base form (not declined). Follows "Not allowed:"; lower case.
    "discard-owes-card": pgettext(
        "refusal to you", "you took {card} from the discard pile and must lay {card} this turn"),
    # Translators: to the reader (you) who discards too early; {card} is the joker taken from the
    # discard pile, base form. Follows "Not allowed:"; lower case.
    "discard-owes-taken-joker": pgettext(
        "refusal to you", "you took {card} from the discard pile and must lay it this turn"),
    # Translators: to the reader (you) who discards too early; {target} is the number of the meld
    # whose joker they exchanged. Follows "Not allowed:"; lower case.
    "discard-owes-joker": pgettext(
        "refusal to you", "you took a joker from meld {target} and must lay it this turn"),
}

#: The rule section (page slug, heading id) a move reason is about, where a rule is
#: involved: the round review links it.
REASON_SECTIONS: dict[str, tuple[str, str]] = {
    "take-completes": ("turn", "taking-the-discard"),
    "take-opens": ("turn", "taking-the-discard"),
    "take-lays-off": ("turn", "taking-the-discard"),
    "take-swaps": ("joker-exchange", "taking-the-discard-for-an-exchange"),
    "stock-top-no-opening": ("turn", "taking-the-discard"),
    "stock-top-no-final-discard": ("scoring", "going-out"),
    "stock-first-round": ("variations-discard", "no-discard-taken-in-the-first-round"),
    "stock-one-card": ("variations-discard", "no-discard-taken-with-one-card-left"),
    "meld-opens": ("first-meld", "the-threshold"),
    "meld-opens-next": ("first-meld", "the-threshold"),
    "lay-off-fits": ("turn", "laying-off"),
    "swap-joker": ("joker-exchange", "when-and-with-which-card"),
    "goes-out": ("scoring", "going-out"),
    "keep-building": ("first-meld", "the-threshold"),
    "keep-building-no-pure": ("first-meld", "the-pure-sequence-in-rami-51"),
    "opening-returns": ("first-meld", "if-the-threshold-is-not-reached"),
}


#: The engine's refusals of a discard while the card taken from the discard pile is owed:
#: when that card lies in this turn's first meld, which would not be accepted, the page
#: names that first meld as the cause (its cards go back to the hand).
OWED_AT_DISCARD = ("discard-owes-card", "discard-owes-taken-joker")


#: The practice table's words that the engine's code holds, in one language (``<lang>/`` +
#: this): the engine's refusals and :func:`page_words`. The table needs them only once the
#: engine has loaded, so they travel beside it (``assets/play/main.js`` fetches them with the
#: engine) rather than in the page, which stays within a phone's page budget.
WORDS_FILE = "play-words.json"


def words_file(lang: str, refusals: dict[str, Any], translations: Any) -> tuple[str, bytes]:
    """*lang*'s :data:`WORDS_FILE` and its bytes: ``{"engine": refusals, "words":
    page_words(translations)}`` (*refusals*: render/refusals.py's table, by code)."""
    data = {"engine": refusals, "words": page_words(translations)}
    return f"{lang}/{WORDS_FILE}", compact_json(data).encode("utf-8")


def page_words(translations: Any) -> dict[str, Any]:
    """The practice table's words that the engine's code holds, in one language: each
    move reason's template (``reasons``, by code), the refusals said to the reader
    (``yours``, by code), each reason's rule section (``sections``) and the refusals
    that a pending first meld explains (``owed``). *translations*: the language's
    translator (``gettext(text, context)``)."""
    return {"reasons": reason_messages(translations.gettext),
            "yours": {code: translations.gettext(text, YOURS_CONTEXT)
                      for code, text in YOUR_REFUSALS.items()},
            "sections": {code: {"page": page, "anchor": anchor}
                         for code, (page, anchor) in REASON_SECTIONS.items()},
            "owed": list(OWED_AT_DISCARD)}
