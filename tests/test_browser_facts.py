"""What the browser knows of the engine is the engine's: the facts the build writes
(:mod:`site_builder.render.facts`, ``assets/lib/facts.js``) and nothing typed again.

- No browser file states a fact as a literal: a game's key, a level, a refusal code, a
  card's suit letters, signs, faces or the joker's code, a folded letter, a link's key,
  the search index's brackets or a pack's size. The literals are
  read by ESLint's own parser (espree), the facts from the engine.
- The browser folds every letter of the five languages' catalogs as the search index does.
- A "Play from here" link reads, in the browser's reader (``play/hash.js``, run in Node),
  as the engine's writer (``engine/notation.py: position_link``) wrote it, and the table
  starts from what it read; so does every link of the built site.
- The build writes the facts module the tests run.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from browser_js import READ_INPUT, ROOT, browser_assets, run_module

from site_builder.engine import PRESETS, deal, get_rules
from site_builder.engine.notation import format_history, position_link
from site_builder.engine.play import make_player, play_round
from site_builder.engine.play.table import CODES, Table, check_variations, refusal
from site_builder.engine.round import RoundEnding, RoundState
from site_builder.render.facts import ASSET, facts, facts_asset
from site_builder.render.search import fold
from site_builder.sources.profiles import load_profiles

#: The browser's code: every script the build serves, and the service worker.
BROWSER = sorted([*(ROOT / "templates" / "assets").rglob("*.js"),
                  *(ROOT / "templates" / "offline").rglob("*.js")])

# --- the literals of the browser's code -----------------------------------------------------

LITERALS = """
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
const require = createRequire(input.eslint);
const espree = require(require.resolve("espree", { paths: [input.eslint] }));
const out = {};
for (const file of input.files) {
  const code = readFileSync(file, "utf8");
  let tree;
  try {
    tree = espree.parse(code, { ecmaVersion: "latest", sourceType: "module", loc: true });
  } catch {
    tree = espree.parse(code, { ecmaVersion: "latest", sourceType: "script", loc: true });
  }
  const found = [];
  const walk = (node, parent) => {
    if (!node || typeof node.type !== "string") return;
    const line = node.loc.start.line;
    const property = parent && ((parent.type === "Property" && parent.key === node)
      || (parent.type === "MemberExpression" && parent.property === node && !parent.computed));
    if (node.type === "Literal" && node.regex) found.push(["regex", node.regex.pattern, line]);
    else if (node.type === "Literal" && typeof node.value === "string") {
      found.push(["string", node.value, line]);
    } else if (node.type === "Literal" && typeof node.value === "number") {
      found.push(["number", node.value, line]);
    } else if (node.type === "TemplateElement") {
      found.push(["string", node.value.cooked ?? "", line]);
    } else if (node.type === "Identifier" && property) found.push(["name", node.name, line]);
    if (node.type === "ObjectExpression") {
      const keys = node.properties.filter((p) => p.type === "Property")
        .map((p) => (p.key.type === "Identifier" ? p.key.name : String(p.key.value)));
      const values = node.properties.filter((p) => p.type === "Property")
        .map((p) => (p.value.type === "Literal" ? String(p.value.value) : null));
      found.push(["object", [keys, values], line]);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "loc" || key === "parent") continue;
      if (Array.isArray(value)) value.forEach((child) => walk(child, node));
      else if (value && typeof value === "object") walk(value, node);
    }
  };
  walk(tree, null);
  out[file] = found;
}
process.stdout.write(JSON.stringify(out));
"""


def literals(files: list[Path], tmp: Path) -> dict[str, list[tuple[str, Any, int]]]:
    """Every literal of *files* (strings, template parts, regexes, numbers, property names,
    object literals' keys and values), with its line, as ESLint's parser reads them."""
    eslint = ROOT / "node_modules" / "eslint" / "package.json"
    assert eslint.is_file(), "ESLint is missing: run `bash scripts/setup`"
    found = run_module(tmp, READ_INPUT + LITERALS,
                       {"eslint": str(eslint), "files": [str(f) for f in files]})
    return {Path(file).relative_to(ROOT).as_posix() if Path(file).is_relative_to(ROOT)
            else file: [tuple(item) for item in items] for file, items in found.items()}


def _words(*names: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, names)) + r")(?![\w-])")


def fact_finders(f: dict[str, Any], table_codes: tuple[str, ...] = CODES
                 ) -> list[tuple[str, Any]]:
    """What states a fact of *f* (:func:`facts`): (the fact, a test of one literal)."""
    cards = f["CARDS"]
    suits, faces = cards["suits"], [label for label in cards["labels"] if label.isalpha()]
    rank_of = {label: str(rank) for rank, label in enumerate(cards["labels"]) if label}
    games = _words(*f["GAMES"])
    levels = _words(*f["LEVELS"])
    codes = {*f["REFUSALS"]["engine"], *table_codes}
    # a code as a name: snake_case, as the table once spelled its own
    code_names = {code.replace("-", "_") for code in codes if "-" in code}
    folded = {c for letter in f["FOLD"] for c in (letter, letter.upper())
              if len(c) == 1 and not c.isascii()}
    links = [f"{link['key']}=" for link in f["LINKS"].values() if isinstance(link, dict)]
    # a pack's size (a first meld's threshold, 40 or 51, is left out: as often an
    # unrelated bound, an id's length; the checker has it from the rule data)
    numbers = {cards["pack"], *(g["cards"] for g in f["GAMES"].values()),
               *(r.deck_cards for r in PRESETS.values())}
    textual = ("string", "regex")

    def a_class_of(letters: list[str] | str) -> re.Pattern[str]:  # [CDHS], [2-9AJQK]
        return re.compile(r"\[[^\]]*" + "".join(f"(?=[^\\]]*{re.escape(x)})" for x in letters))

    suit_class, face_class = a_class_of(suits), a_class_of(faces)

    def table_of_cards(value: Any) -> bool:  # {C: "♣", D: ...} or {1: "A", 11: "J", ...}
        keys, values = value
        pairs = set(zip(keys, values, strict=True))
        return set(suits) <= set(keys) or sum((r, x) in pairs or (x, r) in pairs
                                              for x, r in rank_of.items() if x in faces) >= 3

    return [
        ("a game's key", lambda kind, v: kind in (*textual, "name") and bool(games.search(v))),
        ("a computer player's level", lambda kind, v: kind in textual and bool(levels.search(v))),
        ("a refusal code", lambda kind, v: (kind == "string" and v in codes)
         or (kind == "name" and v in code_names)),
        ("the suits' letters", lambda kind, v: kind in textual and (
            v == suits or bool(suit_class.search(v)))),
        ("the ranks' faces", lambda kind, v: kind in textual and bool(face_class.search(v))),
        ("a table of suits or faces", lambda kind, v: kind == "object" and table_of_cards(v)),
        ("a suit's sign", lambda kind, v: kind in textual and any(g in v for g in cards["glyphs"])),
        ("the joker's code or word", lambda kind, v: kind == "string"
         and v in cards["joker_tokens"]),
        ("a letter the search folds", lambda kind, v: kind in textual and bool(folded & set(v))),
        ("a link's key", lambda kind, v: kind in textual and any(k in v for k in links)),
        ("the index's brackets", lambda kind, v: kind in textual
         and any(b in v for b in f["SEARCH"].values())),
        ("a pack's size", lambda kind, v: (kind == "number" and v in numbers) or (
            kind == "regex" and any(re.search(rf"\{{\d*,?{n}\}}", v) for n in numbers))),
    ]


def stated_facts(found: dict[str, list[tuple[str, Any, int]]],
                 finders: list[tuple[str, Any]]) -> list[str]:
    """Each literal of *found* that states a fact: ``file:line: the fact: literal``."""
    return [f"{file}:{line}: {fact}: {value!r}"
            for file, items in found.items() for kind, value, line in items
            for fact, test in finders if test(kind, value)]


def test_no_browser_file_states_an_engine_fact(tmp_path: Path) -> None:
    stated = stated_facts(literals(BROWSER, tmp_path), fact_finders(facts()))
    assert stated == [], "\n".join(stated)


def test_a_fact_stated_again_is_found(tmp_path: Path) -> None:
    """Each kind of fact, stated in a scratch script, is found (the scan is no empty net)."""
    seeded = tmp_path / "seeded.js"
    seeded.write_text("""
const GAME = "rami51", a = {b: 1}.cardverse, LEVEL = /^(easy|hard)$/, CODE = "not-your-turn";
const OWN = {bad_x: 1, "your-turn": 2}, SUITS = "CDHS", CARD = /(10|[2-9AJQK])[CDHS]/;
const FACES = {1: "A", 11: "J", 12: "Q", 13: "K"}, SIGN = "\\u2665", JK = "JK";
const FOLDED = /[łŁ]/, LINK = `#from=${GAME}`, OPEN = "\\u2045", PACK = 52, MAX = /x{0,108}/;
""", encoding="utf-8")
    found = literals([seeded], tmp_path / "run")
    kinds = {line.split(": ")[1] for line in stated_facts(found, fact_finders(facts()))}
    assert kinds == {fact for fact, _ in fact_finders(facts())}


# --- folding ------------------------------------------------------------------------------

def catalog_text() -> Iterator[str]:
    """Every message and translation of the five languages' catalogs."""
    paths = [ROOT / "locales" / "messages.pot",
             *sorted((ROOT / "locales").glob("*/LC_MESSAGES/messages.po"))]
    assert len(paths) == 5
    for path in paths:
        with path.open("rb") as fh:
            for message in read_po(fh):
                for text in (message.id, message.string):
                    yield from ([text] if isinstance(text, str) else text or [])


FOLDS = READ_INPUT + """
import { fold } from "./assets/lib/text.js";
process.stdout.write(JSON.stringify(input.map(fold)));
"""


def test_the_browser_folds_every_letter_of_the_catalogs_as_the_index(tmp_path: Path) -> None:
    text = list(catalog_text())
    letters = sorted({case for t in text for c in t if unicodedata.category(c)[0] == "L"
                      for case in (c, c.lower(), c.upper())})
    words = sorted({w for t in text for w in re.findall(r"[^\W_]+", t)})
    assert len(letters) > 100 and "ł" in letters and "đ" in letters
    wanted = [fold(x) for x in [*letters, *words]]
    got = run_module(tmp_path, FOLDS, [*letters, *words])
    differ = [(x, w, g) for x, w, g in zip([*letters, *words], wanted, got, strict=True)
              if w != g]
    assert differ == [], differ[:20]


# --- the "Play from here" link -------------------------------------------------------------

READ_LINKS = READ_INPUT + """
import { readHash } from "./assets/play/hash.js";
process.stdout.write(JSON.stringify(input.map((link) => readHash(link))));
"""


def positions() -> Iterator[tuple[str, str | None, dict[str, Any], list[Any]]]:
    """Rounds played by the engine's computer players in every game, 2 to 4 seats: the
    deal, and the steps to a few points of each round (every kind of step among them)."""
    rng = random.Random(46)
    for game in PRESETS:
        rules = get_rules(game)
        for players in range(rules.min_players, rules.max_players + 1):
            for seed in (1, 2):
                dealt = deal(rules, players, seed=seed)
                state = RoundState.from_deal(rules, dealt)
                play_round(state, [make_player(rng.choice(("easy", "normal", "hard")))
                                   for _ in range(players)])
                ops = [op for op in state.history if not isinstance(op, RoundEnding)]
                variation = "house_rules" if seed == 2 and game != "cardverse" else None
                start = {"hands": [list(h) for h in dealt.hands], "stock": list(dealt.stock),
                         "discard": list(dealt.discard)}
                for cut in sorted({0, 1, len(ops) // 2, len(ops) - 1, rng.randrange(len(ops))}):
                    yield game, variation, start, ops[:cut]


def test_a_play_from_here_link_reads_as_the_engine_wrote_it(tmp_path: Path) -> None:
    cases = list(positions())
    kinds = {type(op).__name__ for *_, ops in cases for op in ops}
    assert kinds == {"Drawing", "Melding", "LayingOff", "Swapping", "Discarding"}, kinds
    links = ["#" + position_link(game, start["hands"], start["stock"], start["discard"], ops,
                                 variation)
             for game, variation, start, ops in cases]
    read = run_module(tmp_path, READ_LINKS, links)
    for (game, variation, start, ops), link, got in zip(cases, links, read, strict=True):
        assert got == {"position": {
            "game": game, "variation": variation,
            "hands": [[c.code for c in hand] for hand in start["hands"]],
            "stock": [c.code for c in start["stock"]],
            "discard": [c.code for c in start["discard"]],
            "steps": format_history(ops, cards=False).split("; ") if ops else []}}, link


def test_every_link_of_the_built_site_starts_the_table(built_site: Path, tmp_path: Path
                                                       ) -> None:
    """The worked rounds' links (the engine's writer, called by the round partial) read in
    the browser, and the table starts from what was read, at the seat to move."""
    links = sorted({m for page in built_site.glob("*/**/*.html")
                    for m in re.findall(r'href="[^"#]*(#from=[^"]+)"',
                                        page.read_text(encoding="utf-8"))})
    assert links
    profiles, _, _ = load_profiles(ROOT)  # the variations the page hands the table
    variations = check_variations({key: dict(p.overrides) for key, p in profiles.items()})
    for link, got in zip(links, run_module(tmp_path, READ_LINKS, links), strict=True):
        assert "position" in got, link
        table = Table.from_position(got["position"], variations)  # raises if refused
        assert not table.state.is_over and table.human == table.state.turn


# --- the facts as the build writes them ----------------------------------------------------

def test_the_build_writes_the_facts_the_tests_run(built_site: Path, tmp_path: Path) -> None:
    assert (built_site / ASSET).read_bytes() == facts_asset()
    assert (browser_assets(tmp_path) / "lib" / "facts.js").read_bytes() == facts_asset()


def test_the_tables_fallback_code_is_the_one_the_browser_knows() -> None:
    f = facts()
    assert f["REFUSALS"]["other"] in CODES
    assert refusal(ValueError("no code"))["code"] == f["REFUSALS"]["other"]
    assert f["REFUSALS"]["table"] == list(CODES)
    assert set(f["REFUSALS"]["named"].values()) <= set(CODES)
