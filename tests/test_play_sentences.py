"""Every sentence of the practice table, rendered by the page's own code (templates/assets/
play/text.js and refusals.js, in Node) with the page's own words (the built page's JSON
block) and sample cards, in every language: each hint (one per move reason, and a plan),
each refusal (the engine's, said to the reader where it is about the reader's seat, and the
table's own) and each line of the log.

Card names are never declined: each sentence is worded so that a name stands where its base
form is right (docs/translating.md). In Polish that is checked for every name in every
sentence, and a fixture list (the Polish review's sentences, reworded as it proposes) is
asserted word for word."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_js import READ_INPUT, run_module

from site_builder.engine.reasons import MOVE_REASONS
from site_builder.engine.refusals import REFUSALS, VALUES
from site_builder.render.play import WORDS_FILE, YOUR_REFUSALS

LANGS = ("en", "id", "ms", "pl", "vi")
CODE = re.compile(r"(?<![\w♥♦♣♠])(?:10|[2-9AJQK])[CDHS](?!\w)|\bJK\b")

# sample values, by the kind of value (engine/refusals.py VALUES) or the reason's name
SAMPLE_KIND = {"card": "QC", "cards": "8H 9H 10H", "number": 2, "text": "fly",
               "game": "rami51"}
SAMPLE_VALUE = {"stands": "5H", "other": "5D", "third": "5S", "meld": "4H JK 6H",
                "seat": 1, "turn": 2, "count": 2, "total": 38, "threshold": 51}
REASON_VALUES = {"card": "QC", "cards": "5H 6H JK", "next": "9C 10C JC", "target": 2,
                 "points": 10, "total": 38, "threshold": 51}
# a move each reason may come with
MOVE_OF = {"take": {"kind": "draw_discard", "cards": [], "target": None},
           "stock": {"kind": "draw_stock", "cards": [], "target": None},
           "meld": {"kind": "meld", "cards": ["8H", "9H", "10H"], "target": None},
           "lay": {"kind": "lay_off", "cards": ["JK"], "target": 2},
           "swap": {"kind": "swap", "cards": ["5H"], "target": 3},
           "goes": {"kind": "discard", "cards": ["QC"], "target": None},
           "discard": {"kind": "discard", "cards": ["QC"], "target": None},
           "keep": {"kind": "discard", "cards": ["QC"], "target": None},
           "opening": {"kind": "discard", "cards": ["QC"], "target": None}}

RUN = READ_INPUT + """
const { makeText } = await import("./assets/play/text.js");
const { explain } = await import("./assets/play/refusals.js");
const out = {};
for (const [lang, T] of Object.entries(input.pages)) {
  const text = makeText(T, lang);
  const view = {seat: 0, levels: ["", "hard"]};
  out[lang] = {
    hints: input.hints.map((h) => text.hint(h)),
    refusals: input.refusals.map((r) => explain(r, text, r.reader).message),
    log: input.events.map((ev) => text.logLine(ev, view)),
    names: Object.fromEntries(input.cards.map((c) => [c, text.cardName(c)])),
  };
}
process.stdout.write(JSON.stringify(out));
"""


def page_text(site: Path, lang: str) -> dict[str, Any]:
    html = (site / lang / "play" / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="play-text">(.*?)</script>', html,
                      re.S)
    assert found, lang
    text: dict[str, Any] = json.loads(found[1])
    # the engine's words, which the page fetches with the engine (render/play.py WORDS_FILE)
    text.update(json.loads((site / lang / WORDS_FILE).read_text(encoding="utf-8")))
    return text


def samples(T: dict[str, Any]) -> dict[str, Any]:
    hints = [{"action": MOVE_OF[code.split("-")[0]], "plan": [],
              "reasons": [{"code": code, "values": {
                  name: REASON_VALUES[name] for name in re.findall(r"\{(\w+)\}", template)}}]}
             for code, template in MOVE_REASONS.items()]
    hints.append({"action": MOVE_OF["meld"], "plan": [["QD", "KD", "JK"]],
                  "reasons": [{"code": "meld-opens", "values": {"total": 57, "threshold": 51}}]})
    refusals = []
    for code, template in REFUSALS.items():
        values = {name: SAMPLE_VALUE.get(name, SAMPLE_KIND.get(VALUES[name]))
                  for name in re.findall(r"\{(\w+)\}", template)}
        if "reason" in values or "reasons" in values:
            values.update(reason="gap", reasons="no_pure_sequence")
        refusals.append({"code": code, "values": values, "message": "", "reader": 1})
        if code in YOUR_REFUSALS:  # the same, about another seat (no "you")
            refusals.append({"code": code, "values": {**values, "seat": 2}, "message": "",
                             "reader": 1})
    refusals += [{"code": code, "values": {}, "message": "m", "reader": 1}
                 for code in T["refusals"]]
    events = [{"seat": seat, "kind": kind, "number": 2}
              for kind in T["log"] if kind not in ("deal", "accepted", "rejected", "went_out")
              for seat in (0, 1)]
    return {"hints": hints, "refusals": refusals, "events": events,
            "cards": ["QC", "10S", "8D", "KD", "QH", "JK", "5H", "7C"]}


@pytest.fixture(scope="module")
def rendered(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    pages = {lang: page_text(built_site, lang) for lang in LANGS}
    data = {"pages": pages, **samples(pages["en"])}
    out: dict[str, Any] = run_module(tmp_path_factory.mktemp("sentences"), RUN, data)
    out["samples"] = data
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_sentence_is_whole_and_names_cards_in_words(rendered: dict[str, Any],
                                                          lang: str) -> None:
    """Each sentence filled (no placeholder left), cards by name (no card code), and in a
    language other than English each differs from the English one."""
    mine, english = rendered[lang], rendered["en"]
    for part in ("hints", "refusals", "log"):
        for i, sentence in enumerate(mine[part]):
            assert sentence and "{" not in sentence, (lang, part, sentence)
            assert not CODE.search(sentence), (lang, part, sentence)
            if lang != "en":
                assert sentence != english[part][i], (lang, part, sentence)
    names = mine["names"]
    assert names["QC"] in mine["hints"][0] or names["QC"] in " ".join(mine["hints"])
    # the reader is "you": no sentence said to the reader names seat 1
    seat_one = re.compile(r"\b1\b")
    for refusal, sentence in zip(rendered["samples"]["refusals"], mine["refusals"],
                                 strict=True):
        if refusal["values"].get("seat") == 1 and refusal["code"] in YOUR_REFUSALS:
            assert not seat_one.search(sentence), (lang, sentence)


def test_polish_names_stand_where_their_base_form_is_right(rendered: dict[str, Any]) -> None:
    """In every Polish sentence a card's name (always its base form: "dama trefl") stands
    at the start, after a colon or a dash, in brackets, in a list of names, after "×" or
    "jako", or as the subject of a clause ("więc król karo musi"); never as the object of
    a verb ("odrzuć dama trefl")."""
    polish = rendered["pl"]
    names = sorted(set(polish["names"].values()), key=len, reverse=True)
    pattern = re.compile("(?:" + "|".join(re.escape(n) for n in names) + r")(?!\w)")
    allowed = (": ", "– ", "(", ", ", "× ", "jako ", "; ", "+ ", "więc ")
    for sentence in polish["hints"] + polish["refusals"] + polish["log"]:
        for found in pattern.finditer(sentence):
            before = sentence[:found.start()]
            assert before == "" or before.endswith(allowed), (sentence, found[0])


#: The Polish review's sentences (translation-pl-2026-12-07.md, pl-A), as the page now says
#: them: each hint with its move and reason, each refusal with the name in its base form.
POLISH = {
    ("hint", json.dumps({"action": {"kind": "discard", "cards": ["10S"], "target": None},
                         "reasons": [{"code": "discard-highest-loose",
                                      "values": {"card": "10S", "points": 10}}]})):
        "Podpowiedź – odrzuć kartę: dziesiątka pik. Powód – dziesiątka pik to najwyższa karta, "
        "która do niczego nie pasuje (10 pkt).",
    ("hint", json.dumps({"action": {"kind": "lay_off", "cards": ["JK"], "target": 2},
                         "reasons": [{"code": "lay-off-fits",
                                      "values": {"cards": "JK", "target": 2, "points": 25}}]})):
        "Podpowiedź – dołóż do układu 2: dżoker. Powód – dżoker pasuje do układu 2: na ręce "
        "zostaje o 25 pkt mniej.",
    ("hint", json.dumps({"action": {"kind": "meld", "cards": ["8H", "9H", "10H"]},
                         "plan": [["JC", "QC", "KC"]],
                         "reasons": [{"code": "meld-opens-next", "values": {
                             "next": "JC QC KC", "total": 57, "threshold": 51}}]})):
        "Podpowiedź – wyłóż układ: ósemka kier, dziewiątka kier, dziesiątka kier. Powód – "
        "potem: walet trefl, dama trefl, król trefl; pierwsze wyłożenie osiąga wtedy 57 z 51 "
        "pkt.",
    ("hint", json.dumps({"action": {"kind": "draw_discard", "cards": []},
                         "reasons": [{"code": "take-completes",
                                      "values": {"card": "7H", "cards": "5H 6H JK"}}]})):
        "Podpowiedź – weź wierzchnią kartę ze stosu kart odrzuconych. Powód – siódemka kier "
        "uzupełnia układ: piątka kier, szóstka kier, dżoker.",
    ("hint", json.dumps({"action": {"kind": "meld", "cards": ["2C", "2D", "2H"]}, "plan": [],
                         "reasons": [{"code": "keep-building-no-pure",
                                      "values": {"total": 38, "threshold": 51}}]})):
        "Podpowiedź – wyłóż układ: dwójka trefl, dwójka karo, dwójka kier. Powód – buduj "
        "dalej: układy na ręce dają 38 z 51 pkt, a czystego sekwensu jeszcze nie ma.",
    ("refusal", json.dumps({"code": "discard-take-needs-lay",
                            "values": {"seat": 2, "card": "8D"}})):
        "Niedozwolone: gracz na miejscu 2 może wziąć kartę ze stosu kart odrzuconych (ósemka "
        "karo) tylko po to, by wyłożyć ją w tej turze, a nie może tego zrobić: karta nie "
        "pasuje do żadnego układu.",
    ("refusal", json.dumps({"code": "discard-take-needs-lay",
                            "values": {"seat": 1, "card": "8D"}})):
        "Niedozwolone: możesz wziąć kartę ze stosu kart odrzuconych (ósemka karo) tylko po to, "
        "by wyłożyć ją w tej turze, a nie da się tego zrobić: karta nie pasuje do żadnego "
        "układu.",
    ("refusal", json.dumps({"code": "discard-owes-card", "values": {"seat": 2, "card": "KD"}})):
        "Niedozwolone: gracz na miejscu 2 wziął kartę ze stosu kart odrzuconych (król karo), "
        "więc król karo musi w tej turze trafić na stół.",
    ("refusal", json.dumps({"code": "discard-owes-card", "values": {"seat": 1, "card": "KD"}})):
        "Niedozwolone: masz kartę wziętą ze stosu kart odrzuconych (król karo), więc król karo "
        "musi w tej turze trafić na stół.",
    ("refusal", json.dumps({"code": "swap-wrong-card", "values": {
        "card": "6H", "target": 2, "meld": "4H JK 6H", "stands": "5H"}})):
        "Niedozwolone: szóstka kier nie może zastąpić dżokera w układzie 2 (czwórka kier, "
        "dżoker, szóstka kier): dżoker występuje tu jako piątka kier.",
    ("refusal", json.dumps({"code": "swap-wrong-card-2", "values": {
        "card": "6H", "target": 1, "meld": "2C JK", "stands": "2D", "other": "2H"}})):
        "Niedozwolone: szóstka kier nie może zastąpić dżokera w układzie 1 (dwójka trefl, "
        "dżoker): dżoker występuje tu jako dwójka karo lub dwójka kier.",
    ("refusal", json.dumps({"code": "not-held", "values": {"seat": 1, "card": "QH"}})):
        "Niedozwolone: nie masz na ręce tej karty: dama kier.",
    ("refusal", json.dumps({"code": "lay-off-misfit", "values": {
        "cards": "7C 8C", "target": 2, "meld": "4H 5H 6H", "reason": "mixed_suits"}})):
        "Niedozwolone: siódemka trefl, ósemka trefl – to nie pasuje do układu 2 (czwórka kier, "
        "piątka kier, szóstka kier): nie wszystkie karty są w tym samym kolorze.",
    ("refusal", json.dumps({"code": "lay-off-not-opened", "values": {"seat": 1}})):
        "Niedozwolone: przed swoim pierwszym wyłożeniem nie możesz dokładać kart.",
    ("refusal", json.dumps({"code": "draw-first", "values": {"seat": 1}})):
        "Niedozwolone: najpierw musisz dobrać kartę.",
    # the real cause: the taken card lies in a first meld that would not be accepted
    ("pending", json.dumps({"refusal": {"code": "discard-owes-card",
                                        "values": {"seat": 1, "card": "AH"}},
                            "progress": {"total": 57, "threshold": 51, "pure": False,
                                         "pure_needed": True, "accepted": False}})):
        "Niedozwolone: twoje pierwsze wyłożenie nie zostałoby zaakceptowane (57 z 51 pkt; "
        "czysty sekwens: nie): jego karty wróciłyby do ręki, a karta wzięta ze stosu kart "
        "odrzuconych (as kier) musi w tej turze trafić na stół.",
    ("log", json.dumps({"seat": 0, "kind": "discard"})): "Odrzucasz",
    ("log", json.dumps({"seat": 0, "kind": "draw_stock"})): "Dobierasz z talii",
    ("log", json.dumps({"seat": 1, "kind": "discard"})): "Gracz 2, komputer (trudny): odrzuca",
    ("log", json.dumps({"seat": 1, "kind": "lay_off", "number": 3})):
        "Gracz 2, komputer (trudny): dokłada do układu 3",
}

POLISH_RUN = READ_INPUT + """
const { makeText } = await import("./assets/play/text.js");
const { explain } = await import("./assets/play/refusals.js");
const text = makeText(input.T, "pl");
const view = {seat: 0, levels: ["", "hard"]};
process.stdout.write(JSON.stringify(input.items.map(([part, item]) => part === "hint"
  ? text.hint(item) : part === "refusal" ? explain(item, text, 1).message
  : part === "pending" ? explain(item.refusal, text, 1, item.progress).message
  : text.logLine(item, view))));
"""


def test_the_polish_fixtures_word_for_word(built_site: Path, tmp_path: Path) -> None:
    items = [[part, json.loads(item)] for part, item in POLISH]
    said = run_module(tmp_path, POLISH_RUN, {"T": page_text(built_site, "pl"), "items": items})
    assert dict(zip(POLISH, said, strict=True)) == POLISH
