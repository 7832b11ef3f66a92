"""The in-browser checker (templates/assets/checker-core.js, -notation.js) against the engine.

Both judge the same inputs: 100,000 random melds (3-13 cards, 0-3 jokers; near-runs,
near-sets and junk), 20,000 random first melds, every meld and first meld of the site's
example tables, hand-picked edge cases and card tokens, under every game and every
profile of content/profiles.toml (and rule sets made up to reach every path), with the
rule data the build writes (:mod:`site_builder.render.checker_rules`). Every field must agree.
The JavaScript runs in one node process (JSON in, JSON out); a disagreement is shrunk to
a smallest input that still disagrees, and printed with both answers.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_js import browser_assets

from site_builder.engine import (
    JOKER,
    PRESETS,
    Card,
    CardError,
    Rank,
    Suit,
    evaluate_meld,
    evaluate_opening,
    get_rules,
    parse_card,
    parse_cards,
)
from site_builder.engine.cards import JOKER_ORDINAL
from site_builder.render.checker_rules import compact_table, constants, rules_table
from site_builder.render.search import fold
from site_builder.sources.page import parse_page
from site_builder.sources.profiles import load_profiles

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "checker" / "run_checker.js"
NODE = shutil.which("node")
SEED = 17
RANDOM_MELDS = 100_000
RANDOM_OPENINGS = 20_000

NATURALS = [Card(rank, suit) for suit in Suit for rank in Rank]
PROFILES, _problems, _ = load_profiles(ROOT)


class _Extra:
    def __init__(self, **overrides: Any) -> None:
        self.overrides = overrides


# Beyond the site's profiles, rule sets that reach the engine's other paths: more jokers
# per meld, jokers side by side, all-joker melds, no low ace, a fixed joker value.
EXTRA = {
    "test-wide": _Extra(max_jokers_per_meld=4, adjacent_jokers=True, all_joker_melds=True),
    "test-wide-15": _Extra(max_jokers_per_meld=3, adjacent_jokers=True, all_joker_melds=True,
                           joker_value=15, ace_low=False),
    "test-three": _Extra(max_jokers_per_meld=3),
    "test-strict": _Extra(max_jokers_per_meld=1, ace_low=False, decks=1, jokers=2,
                          max_players=3, deal_sizes=((2, 14), (3, 14))),
}
ALL_PROFILES = {**PROFILES, **EXTRA}
COMBOS = [(game, profile) for game in PRESETS for profile in ALL_PROFILES]
RULES = {combo: get_rules(combo[0], **ALL_PROFILES[combo[1]].overrides) for combo in COMBOS}

# Melds = (game, profile, [ordinals]); openings = (game, profile, [[ordinals], ...]).
Meld = tuple[str, str, list[int]]
Opening = tuple[str, str, list[list[int]]]


def _card(position: int, suit: Suit) -> Card:
    """A card by sequence position (1 and 14 are the ace)."""
    return Card(Rank(1 if position == 14 else position), suit)


def random_meld(rng: random.Random) -> list[Card]:
    """3-13 cards with 0-3 jokers: a near-run, a near-set, or junk."""
    size = rng.randint(3, 13) if rng.random() < 0.5 else rng.randint(3, 6)
    jokers = min(size, rng.choice((0, 0, 0, 1, 1, 2, 2, 3)))
    if rng.random() < 0.01:
        jokers = size  # jokers only
    naturals = size - jokers
    shape = rng.random()
    if shape < 0.5:  # a run of one suit, part of it or across the corner
        suit = rng.choice(list(Suit))
        length = rng.randint(max(naturals, 1), 14)
        start = rng.randint(1, 15 - length) if rng.random() < 0.8 else rng.randint(10, 14)
        run = [_card((p - 1) % 14 + 1 if p > 14 else p, suit)
               for p in range(start, start + length)]
        cards = rng.sample(run, min(naturals, len(run)))
        cards += rng.sample(NATURALS, naturals - len(cards))
    elif shape < 0.8:  # a set of one rank, sometimes with a suit twice
        rank = rng.choice(list(Rank))
        suits = [rng.choice(list(Suit)) for _ in range(naturals)] if rng.random() < 0.3 \
            else rng.sample(list(Suit), min(4, naturals))
        cards = [Card(rank, suit) for suit in suits]
        cards += rng.sample(NATURALS, naturals - len(cards))
    else:  # anything
        cards = [rng.choice(NATURALS) for _ in range(naturals)]
    for _ in range(rng.choice((0, 0, 1, 2))):  # one or two cards off
        if cards:
            cards[rng.randrange(len(cards))] = rng.choice(NATURALS)
    if cards and rng.random() < 0.05:
        cards[rng.randrange(len(cards))] = rng.choice(cards)  # a card twice
    cards += [JOKER] * jokers
    rng.shuffle(cards)
    return cards


def random_opening(rng: random.Random) -> list[list[Card]]:
    """0-4 melds; sometimes with more copies of a card than the packs hold."""
    melds = []
    for _ in range(rng.choice((0, 1, 1, 2, 2, 2, 3, 3, 4))):
        meld = random_meld(rng)
        melds.append(meld[: rng.randint(3, 7)] if rng.random() < 0.7 else meld)
    if melds and rng.random() < 0.1:
        melds.append(list(rng.choice(melds)))
    return melds


EDGE_MELDS = [
    "QH KH AH", "AH 2H 3H", "AH 2H 3H 4H", "KH AH 2H", "QH KH AH 2H", "JD QD KD AD",
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
    "JK 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK",
    "JK 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS JK",
    "AH AS AD", "AH AS AD AC", "AH AS AD AC AH", "7H 7H 7S", "7H 7S 7D 7C 7H", "7H 7H 8H",
    "JK 7S 8S", "7S 8S JK", "JK 7S JK", "JK JK 7S", "JK JK 7S 8S", "JK 7S JK 9S", "JK JK JK",
    "JK JK JK 5D", "JK 5D JK 7D JK", "JK AH 2H", "AH JK", "AH JK JK", "JK AH JK", "QH JK AH",
    "KH JK 2H", "JK KH AH", "JK QH KH", "JK 2H 3H", "AH 2H JK", "JK JK AH", "JK JK KH",
    "5C 5D JK", "5C 5D JK JK", "5C 5D 5H JK", "5C 5D 5H 5S JK", "AC JK JK", "KS JK JK",
    "2C 3D 4H", "2C 2D 3C", "9H 10H JH QH KH AH", "10H JH QH KH AH JK", "3C 5C 7C JK JK",
    "3C 5C JK", "3C 6C JK", "3C 6C JK JK", "AD 3D JK", "AD QD JK", "AD KD JK", "2D KD JK",
    "", "QH", "QH KH", "JK", "JK JK", "AC AC AC AC AC AC AC AC AC AC AC AC AC AC",
]
EDGE_OPENINGS = [
    "QH KH AH | JK 7S 8S", "KH KS KD | QC QD QS", "5C 6C 7C | KH KS KD",
    "5C 6C 7C | 4D 4S 4C | AH 2H 3H 4H", "", "QH KH AH | QH KH AH | QH KH AH",
    "JK 7S 8S | JK 7H 8H | JK 2D 3D", "JK 7S 8S | JK 7H 8H | JK 2D 3D | JK 4C 5C",
    "10C JC QC KC AC | 10D JD QD KD AD", "AH 2H | 5C 6C 7C", "AH AH AH", "JK 2H 3H",
]
TOKENS = [
    "QH", "qh", "Qh", "10S", "10s", "TS", "ts", "T♠", "t♤", "A♥", "a♡", "J♦", "j♢", "K♣", "k♧",
    "Q\u2665\ufe0f", "Q\u2665\ufe0f\ufe0f", "QH\ufe0f", "\ufe0f", "Q\u2665\ufe0e", "QH\ufe0e",
    "Q\u2665\ufe0e\ufe0f", "\ufe0e", "JK", "jk", "Joker", "JOKER",
    "jk\ufe0f", "1H", "11H", "0S", "10", "H", "", "♥", "QX", "Q♥♥", "ZZ", "JOKERS", "A",
    " QH ", "1OS", "10S\u2665", "QC\u2663",
]


def _examples() -> tuple[list[tuple[str, str, str]], list[tuple[str, str, list[str]]]]:
    """Every meld (melds, layoffs) and first meld (openings) of the site's example tables."""
    melds, openings = [], []
    for path in sorted((ROOT / "content").glob("*.md")):
        page, problems = parse_page(path.read_text(encoding="utf-8"), path.name)
        assert page is not None, problems
        for block in page.examples:
            for row in block.rows:
                def get(key: str, row: Any = row, block: Any = block) -> str | None:
                    found = row.get(key, block.defaults)
                    return found.value if found else None
                game, profile = get("game"), get("profile") or "reference"
                if block.table == "melds":
                    melds.append((game, profile, get("cards")))
                elif block.table == "layoffs":
                    melds.append((game, profile, f"{get('meld')} {get('add')}"))
                elif block.table == "openings":
                    openings.append((game, profile, (get("melds") or "").split("|")))
    return melds, openings


def _ordinals(cards: list[Card] | tuple[Card, ...]) -> list[int]:
    return [card.ordinal for card in cards]


def _cards(ordinals: list[int]) -> list[Card]:
    return [JOKER if o == JOKER_ORDINAL else NATURALS[o] for o in ordinals]


def _codes(cards: list[int]) -> str:
    return " ".join(card.code for card in _cards(cards))


def py_meld(case: Meld) -> dict[str, Any]:
    r = evaluate_meld(_cards(case[2]), RULES[case[0], case[1]])
    return {"valid": r.valid, "kind": r.kind, "points": r.points, "reason": r.reason,
            "jokers": [c.code for c in r.jokers], "arrangement": [c.code for c in r.arrangement],
            "card_points": list(r.card_points)}


def py_opening(case: Opening) -> dict[str, Any]:
    rules = RULES[case[0], case[1]]
    r = evaluate_opening([_cards(m) for m in case[2]], rules)
    return {"total": r.total, "threshold": r.threshold, "accepted": r.accepted,
            "pure_sequence": r.pure_sequence, "reasons": list(r.reasons),
            "melds": [py_meld((case[0], case[1], m)) for m in case[2]]}


def py_token(token: str) -> str | None:
    try:
        return parse_card(token).code
    except CardError:
        return None


def run_js(melds: list[Meld], openings: list[Opening], tokens: list[str],
           **extra: Any) -> dict[str, Any]:
    data = {"constants": constants(), "rules": rules_table(ALL_PROFILES), "melds": melds,
            "openings": openings,
            "tokens": tokens, **extra}
    assert NODE, "node is missing: run `bash scripts/setup`"
    with tempfile.TemporaryDirectory() as folder:
        assets = browser_assets(Path(folder))
        proc = subprocess.run([NODE, str(RUNNER), str(assets)], input=json.dumps(data),
                              capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def _smaller(case: Any) -> list[Any]:
    """Inputs one step smaller than *case*: a meld or a card left out."""
    game, profile, body = case
    if body and isinstance(body[0], list):  # an opening
        out = [(game, profile, body[:i] + body[i + 1:]) for i in range(len(body))]
        return out + [(game, profile, body[:i] + [m[:j] + m[j + 1:]] + body[i + 1:])
                      for i, m in enumerate(body) for j in range(len(m))]
    return [(game, profile, body[:i] + body[i + 1:]) for i in range(len(body))]


def _shrink(case: Any, kind: str, python: Callable[[Any], dict[str, Any]]) -> Any:
    """A smallest input that still disagrees (each round is one node run)."""
    while True:
        smaller = _smaller(case)
        if not smaller:
            return case
        answers = run_js(smaller if kind == "melds" else [],
                         smaller if kind == "openings" else [], [])[kind]
        worse = [c for c, js in zip(smaller, answers, strict=True) if python(c) != js]
        if not worse:
            return case
        case = worse[0]


def _describe(case: Any, kind: str, python: Callable[[Any], dict[str, Any]]) -> str:
    small = _shrink(case, kind, python)
    js = run_js([small] if kind == "melds" else [], [small] if kind == "openings" else [],
                [])[kind][0]
    body = small[2]
    text = " | ".join(_codes(m) for m in body) if kind == "openings" else _codes(body)
    return (f"{kind[:-1]} {small[0]}:{small[1]}: {text!r}\n"
            f"  engine:  {json.dumps(python(small), sort_keys=True)}\n"
            f"  checker: {json.dumps(js, sort_keys=True)}")


def _cases() -> tuple[list[Meld], list[Opening]]:
    rng = random.Random(SEED)
    melds: list[Meld] = [(*rng.choice(COMBOS), _ordinals(random_meld(rng)))
                         for _ in range(RANDOM_MELDS)]
    openings: list[Opening] = [(*rng.choice(COMBOS), [_ordinals(m) for m in random_opening(rng)])
                               for _ in range(RANDOM_OPENINGS)]
    site_melds, site_openings = _examples()
    for game, profile in COMBOS:
        melds += [(game, profile, _ordinals(parse_cards(text))) for text in EDGE_MELDS]
        openings += [(game, profile, [_ordinals(parse_cards(m)) for m in text.split("|")
                                      if text]) for text in EDGE_OPENINGS]
        # each site example under its own rules, and under every other game and profile
        melds += [(game, profile, _ordinals(parse_cards(text))) for _, _, text in site_melds]
        openings += [(game, profile, [_ordinals(parse_cards(m)) for m in ms])
                     for _, _, ms in site_openings]
    return melds, openings


@pytest.mark.slow  # the checker run in Node, compared with the engine: in the full run
def test_checker_agrees_with_the_engine_on_every_field() -> None:
    assert set(PROFILES) >= {"reference", "house"} and not _problems
    melds, openings = _cases()
    tokens = TOKENS + [t.lower() for t in TOKENS] + [c.code + s for c in NATURALS[:13]
                                                     for s in ("", "\ufe0f", "\ufe0e")]
    js = run_js(melds, openings, tokens)
    wrong = []
    for kind, cases, python in (("melds", melds, py_meld), ("openings", openings, py_opening)):
        for case, answer in zip(cases, js[kind], strict=True):
            if python(case) != answer:
                wrong.append(_describe(case, kind, python))
                break
    for token, answer in zip(tokens, js["tokens"], strict=True):
        if py_token(token) != answer:
            wrong.append(f"token {token!r}: engine {py_token(token)!r}, checker {answer!r}")
    assert not wrong, "the checker and the engine disagree:\n" + "\n".join(wrong)
    compared = len(melds) + len(openings) + len(tokens)
    assert len(melds) >= RANDOM_MELDS and len(openings) >= RANDOM_OPENINGS, compared
    # every game and profile was asked, and the random melds reach every verdict
    assert {(g, p) for g, p, _ in melds} == set(COMBOS)
    reasons = {answer["reason"] for answer in js["melds"]}
    assert reasons >= {"too_long", "joker_not_allowed", "too_many_jokers", "all_jokers",
                       "mixed_suits", "mixed_ranks", "duplicate_suit", "duplicate_card", "gap",
                       "wrap", "ace_low_not_allowed", "adjacent_jokers", "too_short", None}
    verdicts = {tuple(a["reasons"]) for a in js["openings"]}
    assert () in verdicts and ("below_threshold",) in verdicts
    assert any("too_many_copies" in v for v in verdicts)
    assert any("no_pure_sequence" in v for v in verdicts)


def test_a_disagreement_is_shrunk_and_shown_with_both_answers(monkeypatch: Any) -> None:
    """Break the Python side on purpose (points + 1 for melds with a joker): the report
    names a smallest such meld and gives both answers."""
    def off(case: Meld) -> dict[str, Any]:
        answer = py_meld(case)
        return {**answer, "points": answer["points"] + 1} if JOKER_ORDINAL in case[2] else answer
    case: Meld = ("rami51", "reference", _ordinals(parse_cards("JK 4S 5S 6S 7S 8S")))
    report = _describe(case, "melds", off)
    assert report.startswith("meld rami51:reference: 'JK")
    assert "engine:" in report and "checker:" in report
    assert len(report.split("\n")[0].split("'")[1].split()) <= 3


def test_the_build_writes_the_same_rule_data(built_site: Path) -> None:
    """The rule data and constant tables the differential test used are what the build wrote
    next to the script (the built file, read back; not the function that writes it)."""
    asset = (built_site / "assets" / "checker-rules.js").read_text(encoding="utf-8")
    rules, fixed = asset.splitlines()
    assert rules.startswith("self.RamiRules=") and rules.endswith(";")
    assert json.loads(rules[len("self.RamiRules="):-1]) == compact_table(rules_table(PROFILES))
    assert fixed.startswith("self.RamiConstants=") and fixed.endswith(";")
    assert json.loads(fixed[len("self.RamiConstants="):-1]) == constants()


# The engine files whose rules the checker's core (templates/assets/checker-core.js: parseCard,
# meld, opening) is a port of, by their SHA-256. An engine change fails here first, even
# where no random case reaches it: review the checker's core against it, then record the
# file's new digest.
ENGINE = ROOT / "site_builder" / "engine"
MIRRORED = {
    "cards.py": "ee29f94e7b790b4cae996fece9d1fd1343309a30ea8b3208e5dc68844122ec2c",
    "melds.py": "973cf61a22d4c8ba6ab32d7aeaf67e6f5f6e2d89327f1fe4f6692d0aaea8c879",
    "opening.py": "16e0d4ffe46ccf0bd60c203d6d8b3a41c327335665e3c43bccda003fad8c11e2",
}


def test_the_engine_files_the_checker_mirrors_are_those_it_was_reviewed_against() -> None:
    changed = [path for path, digest in MIRRORED.items()
               if hashlib.sha256((ENGINE / path).read_bytes()).hexdigest() != digest]
    assert not changed, (f"{', '.join(changed)} changed: review the checker's core "
                         "(templates/assets/checker-core.js) against it, then update MIRRORED")


# --- the reader's notation ----------------------------------------------------------------
# Each language's letters come from its catalog (msgctxt "card letter: ..."), and its card
# names are the tables' accessible names; the page hands both to the script in its
# checker-text block, which these tests read from the built pages.

LANGS = ("en", "id", "ms", "pl", "vi")
EN_LETTERS = {"rank": {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13},
              "suit": {"C": 0, "D": 1, "H": 2, "S": 3}}
GLYPHS = ("♣♦♥♠", "♧♢♡♤")
TYPED_PER_LANGUAGE = 4_000


def _texts(site: Path) -> dict[str, dict[str, Any]]:
    """Each language's checker-text block, as the built Melds and First meld pages hold it."""
    out = {}
    for lang in LANGS:
        blocks = []
        for slug in ("first-meld", "melds"):
            html = (site / lang / slug / "index.html").read_text(encoding="utf-8")
            found = re.search(r'<script type="application/json" id="checker-text">(.*?)</script>',
                              html, re.S)
            assert found, f"{lang}/{slug}: no checker"
            blocks.append(json.loads(found[1]))
        assert blocks[0]["mode"] == "opening" and blocks[1]["mode"] == "meld"
        assert blocks[0]["letters"] == blocks[1]["letters"]
        out[lang] = blocks[0]
    return out


def _letters(text: dict[str, Any]) -> tuple[dict[str, dict[str, int]], dict[str, set[str]]]:
    """The letters a reader may type, by rank and by suit, by the rule the hint states: the
    language's own (a letter given twice with two meanings is refused), and each English
    letter that means nothing else in it; and the letters refused, by rank and by suit."""
    local: dict[str, dict[str, set[int]]] = {"rank": {}, "suit": {}}
    for role, table, meaning in (("rank", text["letters"]["ranks"], int),
                                 ("suit", text["letters"]["suits"], "CDHS".index)):
        for key, letters in table.items():
            for letter in letters.split():
                if len(letter) == 1 and letter.isalpha():
                    local[role].setdefault(letter.upper(), set()).add(meaning(key))
    read: dict[str, dict[str, int]] = {"rank": {}, "suit": {}}
    for role, other in (("rank", "suit"), ("suit", "rank")):
        for letter, meanings in local[role].items():
            if len(meanings) == 1:
                read[role][letter] = next(iter(meanings))
        for letter, meaning in EN_LETTERS[role].items():
            if letter not in local[role] and letter not in local[other]:
                read[role][letter] = meaning
            elif local[role].get(letter, {meaning}) != {meaning}:
                read[role].pop(letter, None)
    refused = {role: (set(local[role]) | set(EN_LETTERS[role])) - set(read[role])
               for role in read}
    return read, refused


def _name(text: dict[str, Any], card: Card) -> str:
    """A card's name as the tables' accessible labels give it (_cards.html)."""
    if card.is_joker:
        return str(text["joker"])
    return str(text["card"]).replace("{rank}", text["ranks"][str(card.rank.value)]) \
        .replace("{suit}", text["suits"][card.suit.value])


def _forms(text: dict[str, Any], card: Card) -> list[str]:
    """Ways a reader may type *card*: its name, and rank and suit in letters, numbers or
    symbols (any case, with or without the emoji selector)."""
    read, _ = _letters(text)
    jack_of_k = read["rank"].get("J") == 11 and "K" in read["suit"]  # then "JK" is neither
    if card.is_joker:
        return ["joker", "Joker", "JOKER", _name(text, card), fold(_name(text, card))] + \
            ([] if jack_of_k else ["JK", "jk"])
    ranks = [str(card.rank.value)] if 2 <= card.rank.value <= 10 else []
    ranks += [k for k, v in read["rank"].items() if v == card.rank.value]
    s = "CDHS".index(card.suit.value)
    suits = [GLYPHS[0][s], GLYPHS[1][s], GLYPHS[0][s] + "\ufe0f"]
    suits += [k for k, v in read["suit"].items() if v == s]
    forms = [r + x for r in ranks for x in suits if (r + x).upper() != "JK"]
    name = _name(text, card)  # also as a phone keyboard types it: "krol kier", "3 ro"
    return forms + [f.lower() for f in forms] + [name, name.upper(), fold(name)]


def test_each_language_reads_its_own_letters_and_names(built_site: Path) -> None:
    texts = _texts(built_site)
    cards = [*NATURALS, JOKER]
    local, expected, names = [], [], []
    for lang, text in texts.items():
        read, refused = _letters(text)
        for card in cards:
            for form in _forms(text, card):
                if " " in form:  # a name of several words: the field reads it, not a token
                    names.append(((lang, form), card.code))
                else:
                    local.append((lang, form))
                    expected.append(card.code)
        # a refused letter reads as nothing where it is refused (Polish D: dama, never karo)
        for token in [r + GLYPHS[0][0] for r in refused["rank"]] + \
                [r + s for s in refused["suit"] for r in ("10", "7", *read["rank"])
                 if r + s != "JK"]:  # the joker's code, where K is no suit
            local.append((lang, token))
            expected.append(None)
        if read["rank"].get("J") == 11 and "K" in read["suit"]:
            local.append((lang, "JK"))
            expected.append(None)
    # English: the engine's reading of every token
    tokens = TOKENS + [t.lower() for t in TOKENS] + [c.code for c in cards]
    local += [("en", t) for t in tokens]
    expected += [py_token(t) for t in tokens]
    shows = [(lang, card.ordinal) for lang in texts for card in cards]
    js = run_js([], [], [], texts=texts, local=local, shows=shows, fields=[n for n, _ in names])
    assert [r["cards"] for r in js["fields"]] == [[code] for _, code in names]
    wrong = [f"{lang} {token!r}: expected {want}, read {got}"
             for (lang, token), want, got in zip(local, expected, js["local"], strict=True)
             if want != got]
    assert not wrong, "\n".join(wrong[:20])
    # what the checker writes in a field (the picker, a #try= link) reads back as that card
    back = run_js([], [], [], texts=texts, local=list(zip([s[0] for s in shows], js["shows"],
                                                       strict=True)))["local"]
    assert back == [c.code for _ in texts for c in cards]
    # the brief's example, from the catalogs: where the queen's letter is also the English
    # letter of a suit, that letter reads as the queen and never as the suit
    for lang, text in texts.items():
        read, refused = _letters(text)
        for letter in text["letters"]["ranks"]["12"].split():
            if letter in EN_LETTERS["suit"]:
                assert letter in refused["suit"] and read["rank"][letter] == 12, lang


@pytest.mark.slow  # the checker run in Node, compared with the engine: in the full run
def test_melds_typed_in_each_language_get_the_engines_verdict(built_site: Path) -> None:
    """First melds typed in each language's notation (names, letters, symbols, mixed):
    the page reads them, and its verdict equals the engine's on every field."""
    texts = _texts(built_site)
    rng = random.Random(SEED + 1)
    typed: list[tuple[str, str, str, list[str]]] = []
    cases: list[Opening] = []
    for lang, text in texts.items():
        for _ in range(TYPED_PER_LANGUAGE):
            game, profile = rng.choice(COMBOS)
            melds = [m for m in random_opening(rng) if m] or [random_meld(rng)]
            fields = [rng.choice((" ", "  ", ", ", ",")).join(
                rng.choice(_forms(text, card)) for card in meld) for meld in melds]
            typed.append((lang, game, profile, fields))
            cases.append((game, profile, [_ordinals(m) for m in melds]))
    js = run_js([], [], [], texts=texts, typed=typed)["typed"]
    for case, fields, answer in zip(cases, typed, js, strict=True):
        assert answer == py_opening(case), f"{fields}: engine {py_opening(case)}, page {answer}"
