"""The meld checker in Chromium, in every language: #try= links, typing, picking, keyboard
only, bad input, the rows recomputed on load, no console errors, and pages without JavaScript.
Keyboard only and the random inputs run in two languages (TEMPLATE_LANGS): the script is the
same in every language, only its strings change, and those are checked on load.

Expected values come from the Python engine, never from the page itself.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, unquote

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Browser, Page

from site_builder.engine import evaluate_meld, evaluate_opening, get_rules, parse_cards
from site_builder.sources.profiles import load_profiles

from .e2e_site import AXE, LANGS, ROOT, TEMPLATE_LANGS
from .visit import DESKTOP, PHONE, Problems, run_axe
from .visit import describe_violations as _describe

pytestmark = pytest.mark.e2e

PROFILES = load_profiles(ROOT)[0]
TRIES = [
    "rami51:reference:QH KH AH|JK 7S 8S",
    "rami51:house:QH KH AH|JK 7S 8S",
    "rami51:reference:KH KS KD|QC QD QS",
    "rami40:reference:5C 6C 7C|KH KS KD",
    "rami51:JK 10D JD|AS 2S 3S 4S|JK 5H 6H",  # no profile: the first one, reference
    "cardverse:reference:AH 2H 3H|QC KC AC",
    "rami51:house:JK JD QD KD AD|9C 9H JK",
    "rami40:reference:AH AH AH|2C 3C 4C",
]

# What wait_for_function polls for. (Functions, not expressions: Playwright evaluates a
# function once, and re-evaluates an expression at each poll, by an eval that the pages'
# CSP refuses.)
SHOWN = "() => document.querySelector('form[data-checker]:not([hidden])')"
FILLED_IN = ("() => document.querySelector('form[data-checker] output[data-field=\"total\"]')"
             ".dataset.value")


def _expected(fragment: str) -> dict[str, object]:
    """The engine's answer for a #try= fragment."""
    parts = fragment.split(":")
    game, melds = parts[0], parts[-1]
    profile = parts[1] if len(parts) == 3 else "reference"
    rules = get_rules(game, **PROFILES[profile].overrides)
    result = evaluate_opening([parse_cards(m) for m in melds.split("|")], rules)
    return {
        "total": str(result.total),
        "threshold": "" if result.threshold is None else str(result.threshold),
        "verdict": "accepted" if result.accepted else "rejected",
        "melds": [[str(m.valid).lower(), m.kind or "", str(m.points), m.reason or ""]
                  for m in result.melds],
    }


def _shown(page: Page) -> dict[str, object]:
    return page.evaluate("""() => {
        const form = document.querySelector('form[data-checker]');
        const value = f => form.querySelector(`output[data-field="${f}"]`).dataset.value;
        return {total: value('total'), threshold: value('threshold'), verdict: value('verdict'),
                melds: [...form.querySelectorAll('[data-field="meld"]')].map(
                    m => [m.dataset.valid, m.dataset.kind, m.dataset.points, m.dataset.reason])};
    }""")


def _cards(page: Page, n: int) -> str:
    """What meld field *n* holds, as the checker read it (card codes)."""
    return page.locator("[data-meld]").nth(n - 1).get_attribute("data-cards") or ""


def _catalog(lang: str) -> Any:
    with (ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=lang)


def _translated(lang: str, msgid: str, context: str | None = None) -> str:
    """*msgid* in ``lang``, from the project's catalog (the source text in English)."""
    if lang == "en":
        return msgid
    message = _catalog(lang).get(msgid, context)
    assert message is not None and message.string, f"{lang}: {msgid!r} is not translated"
    return str(message.string)


def _card_name(lang: str, code: str) -> str:
    """A card's name in ``lang`` from the catalog, as the tables' accessible labels give it."""
    card = parse_cards(code)[0]
    if card.is_joker:
        return _translated(lang, "joker", "card")
    rank = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
            8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king"}[card.rank.value]
    suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[card.suit.value]
    return _translated(lang, "{rank} of {suit}", "card").format(
        rank=_translated(lang, rank, "rank"), suit=_translated(lang, suit, "suit"))


def _page_words(page: Page) -> dict[str, str]:
    """The page's own words for the verdicts, read from its verified tables."""
    return page.evaluate("""() => ({
        accepted: document.querySelector('tr[data-claim^=accepted] .verdict.ok').textContent,
        valid: document.querySelector('tr[data-claim^=valid] .verdict.ok').textContent})""")


@pytest.fixture
def problems(page: Page) -> Iterator[Problems]:
    found = Problems(page)
    yield found
    assert found.errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_try_fragment_gives_the_engines_result(page: Page, problems: Problems, lang: str) -> None:
    for fragment in TRIES:
        page.goto(f"{lang}/first-meld/#try={quote(fragment)}")
        page.wait_for_function(SHOWN)
        page.reload()  # a fragment alone does not reload the page: load it with the fragment
        page.wait_for_function(SHOWN)
        assert _shown(page) == _expected(fragment), fragment
    # following a row's link fills the checker from that row, in the page's language
    page.goto(f"{lang}/first-meld/")
    link = page.locator("tr[data-claim^=accepted] a.try").first
    link.click()
    fragment = unquote((link.get_attribute("href") or "")[len("#try="):]).replace("+", " ")
    # the checker fills in on the hashchange event, which fires after the click returns
    page.wait_for_function(FILLED_IN)
    assert _shown(page) == _expected(fragment)
    verdict = page.locator('output[data-field="verdict"]').inner_text()
    assert verdict.startswith(_page_words(page)["accepted"])


@pytest.mark.parametrize("lang", LANGS)
def test_every_verified_row_is_recomputed_on_load(page: Page, problems: Problems,
                                                  lang: str) -> None:
    page.goto(f"{lang}/first-meld/")
    rows = page.locator("tr[data-claim]")
    assert rows.count() == page.locator("tr:has(a.try)").count() >= 9
    assert {rows.nth(i).get_attribute("data-recomputed") for i in range(rows.count())} == {"same"}
    # said once per table, not on every row
    tables = page.locator("table.examples:has(tr[data-claim])")
    assert page.locator("table.examples + p.recomputed").count() == tables.count() >= 1
    assert rows.locator(".recomputed").count() == 0


@pytest.mark.parametrize("lang", LANGS)
def test_typing_and_picking(page: Page, problems: Problems, lang: str) -> None:
    page.goto(f"{lang}/first-meld/")
    form = page.locator("form[data-checker]")
    form.locator("#ck-meld-1").fill("q♥ K♥️ ah")  # glyphs, the emoji form, any case
    shown = _shown(page)
    assert shown["melds"] == [["true", "sequence", "31", ""]]
    assert shown["verdict"] == "rejected"
    form.locator("[data-add]").click()
    assert page.evaluate("document.activeElement.id") == "ck-meld-2"
    for card in ("JK", "7S", "8S"):
        form.locator(f'[data-card="{card}"]').click()
    assert _cards(page, 2) == "JK 7S 8S"
    assert _shown(page) == _expected("rami51:reference:QH KH AH|JK 7S 8S")
    form.locator("[data-back]").click()
    assert _cards(page, 2) == "JK 7S"
    form.locator('[data-card="8S"]').click()
    form.locator("select[name=profile]").select_option("house")
    assert _shown(page) == _expected("rami51:house:QH KH AH|JK 7S 8S")
    # the joker's stand-in is named in the page's language, as in the table
    stand_in = page.locator("td .stand-in").first.inner_text()
    assert stand_in in form.locator('[data-field="meld"]').nth(1).inner_text()
    # the address is shareable: it reloads the same first meld
    page.reload()
    assert _shown(page) == _expected("rami51:house:QH KH AH|JK 7S 8S")


def _joker_name(lang: str) -> str:
    """The joker's name in ``lang``, from the project's catalog (the source text in English)."""
    if lang == "en":
        return "joker"
    with (ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        message = read_po(po, locale=lang).get("joker", "card")
    assert message is not None and message.string, f"{lang}: the joker is not translated"
    return str(message.string)


@pytest.mark.parametrize("lang", LANGS)
def test_the_pickers_joker_is_named_and_not_a_jack(page: Page, problems: Problems,
                                                   lang: str) -> None:
    """The joker is its name, on a dark chip: "J★" was read as a jack."""
    page.goto(f"{lang}/first-meld/")
    joker = page.locator('[data-picker] [data-card="JK"]')
    # the accessible name as Chromium computes it for screen readers (CSS text-transform included)
    cdp = page.context.new_cdp_session(page)
    handle = cdp.send("Runtime.evaluate", {
        "expression": "document.querySelector('[data-picker] [data-card=\"JK\"]')"})
    node = cdp.send("Accessibility.getPartialAXTree", {
        "objectId": handle["result"]["objectId"], "fetchRelatives": False})["nodes"][0]
    assert node["role"]["value"] == "button"
    assert node["name"]["value"] == _joker_name(lang)
    shown = joker.locator("[aria-hidden=true]").inner_text()
    assert shown.casefold() == _joker_name(lang).casefold(), "the name itself is shown"
    assert "\u2605" not in joker.inner_text() and shown.strip().upper() not in ("J", "JK")
    # the chip of the page's tables (dark), not the jack's button (light)
    colors = page.evaluate("""() => ['[data-picker] [data-card="JK"]', '[role=img] > .joker',
        '[data-picker] [data-card="JC"]'].map(s => getComputedStyle(
        document.querySelector(s)).backgroundColor)""")
    assert colors[0] == colors[1] != colors[2]
    # picking it still adds the joker
    joker.click()
    assert _cards(page, 1) == "JK"


def _tab_to(page: Page, selector: str, limit: int = 300) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("lang", TEMPLATE_LANGS)
def test_keyboard_only(page: Page, problems: Problems, lang: str) -> None:
    page.goto(f"{lang}/first-meld/")
    _tab_to(page, "select[name=game]")
    page.keyboard.press("ArrowUp")  # Rami 51 -> Rami 40
    assert page.locator("select[name=game]").input_value() == "rami40"
    _tab_to(page, "#ck-meld-1")
    page.keyboard.type("5♣ 6♣ 7♣")  # symbols: every language reads them (vi: C is cơ or chuồn)
    _tab_to(page, "[data-add]")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "ck-meld-2"
    _tab_to(page, "[data-picker] button")  # the picker is one tab stop
    assert page.evaluate("document.activeElement.dataset.card") == "AC"
    for key in ("ArrowDown", "ArrowDown", "End", "Home", "ArrowDown", "ArrowDown", "ArrowDown"):
        page.keyboard.press(key)  # AD, AH, back, AC, AD, AH, AS
    for _ in range(12):
        page.keyboard.press("ArrowRight")  # KS
    assert page.evaluate("document.activeElement.dataset.card") == "KS"
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Space")  # KH
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")  # KD
    assert _cards(page, 2) == "KS KH KD"
    assert _shown(page) == _expected("rami40:reference:5C 6C 7C|KS KH KD")
    focused = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth); }""")
    assert focused >= 2, "visible focus indicator in the picker"
    # the next Tab leaves the picker
    page.keyboard.press("Tab")
    assert not page.evaluate("!!document.activeElement.closest('[data-picker]')")


@pytest.mark.parametrize("lang", LANGS)
def test_bad_input_is_named_next_to_its_field(page: Page, problems: Problems, lang: str) -> None:
    page.goto(f"{lang}/first-meld/")
    for n, text in enumerate(("QH KH XX", "QH QH QH", "", "JK 7S 8S"), start=1):
        if n > 1:
            page.locator("[data-add]").click()
        page.locator(f"#ck-meld-{n}").fill(text)
    errors = [page.locator(f"#ck-meld-{n}-e").inner_text() for n in (1, 2, 3, 4)]
    assert "XX" in errors[0] and errors[2] and not errors[3]
    # the card named as the tables name it, in the reader's language, not by its code
    assert _card_name(lang, "QH") in errors[1] and "QH" not in errors[1]
    assert page.locator("#ck-meld-1").get_attribute("aria-invalid") == "true"
    assert page.locator("#ck-meld-1").get_attribute("aria-describedby") == "ck-meld-1-e"
    assert _shown(page)["verdict"] == ""  # no verdict while a card cannot be read
    page.locator("#ck-meld-1").fill("QH KH AH")
    assert page.locator("#ck-meld-1-e").inner_text() == ""
    assert _shown(page)["verdict"] == ""  # nor while meld 3 is empty
    page.locator("#ck-meld-3").fill("2♣ 3♣ 4♣")
    # QH three times more: more than the two packs hold, and the engine rejects it
    assert _shown(page)["verdict"] == "rejected"
    # each message is read out as it appears, not only when its field gets the focus
    assert page.locator("#ck-meld-1-e").get_attribute("aria-live") == "polite"


@pytest.mark.parametrize("lang", LANGS)
def test_a_try_link_followed_by_keyboard_takes_the_focus_to_the_checker(
        page: Page, problems: Problems, lang: str) -> None:
    page.goto(f"{lang}/first-meld/")
    link = page.locator("tr[data-claim] a.try").nth(1)
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(FILLED_IN)
    assert page.evaluate("document.activeElement.matches('#checker a')")
    page.keyboard.press("Tab")  # on into the filled-in form, not back to the table
    assert page.evaluate("!!document.activeElement.closest('form[data-checker]')")


def test_a_long_token_wraps_on_a_phone(page: Page, problems: Problems) -> None:
    page.set_viewport_size(PHONE)
    page.goto("en/first-meld/")
    page.locator("#ck-meld-1").fill("AH2H3H4H5H6H7H8H9H10HJHQHKH" * 3)  # cards without spaces
    assert page.locator("#ck-meld-1-e").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("lang", TEMPLATE_LANGS)
def test_no_console_error_on_200_random_inputs(page: Page, problems: Problems, lang: str) -> None:
    rng = random.Random(lang)
    pieces = ["QH", "10s", "T♠", "JK", "joker", "a♥", "K♥️", "1H", "ZZ", "|", ",", "  ", ":",
              "#", "%", "\\", "<b>", "'", '"', "é", "🂡", "7", "H", "♦", "\ufe0f", "\u0000",
              "JK JK JK", "2C 3C 4C", "AS KS QS"]
    field = page.locator("#ck-meld-1")
    page.goto(f"{lang}/first-meld/")
    for i in range(200):
        text = "".join(rng.choice(pieces) + rng.choice(("", " "))
                       for _ in range(rng.randint(0, 12)))
        if i % 20 == 0:
            field.fill("")
            field.type(text[:30])  # key by key, now and then
        else:
            field.fill(text)
        if i % 50 == 0:
            page.locator("select[name=game]").select_option(rng.choice(["rami40", "cardverse"]))
    page.goto(f"{lang}/first-meld/#try=%E0%A4%A|::x:|%")  # a broken fragment
    page.wait_for_timeout(100)


@pytest.mark.parametrize("lang", LANGS)
def test_without_javascript_the_page_says_so(browser: Browser, base_url: str, lang: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{lang}/first-meld/#try=rami51:reference:QH+KH+AH")
        assert page.locator("form[data-checker]").is_hidden()
        assert page.locator(".checker-off").is_visible()
        assert page.locator("table.examples").first.is_visible()
        # no "Try it" link that would do nothing
        assert page.locator("a.try").count() > 0
        assert page.locator("a.try:visible").count() == 0
    finally:
        context.close()


# Melds typed on a phone keyboard, without diacritics: each is read as the
# card names it means, and judged as the engine judges those cards.
FOLDED = {"pl": ("10 karo walet karo dama karo", "krol kier krol pik krol karo"),
          "vi": ("3 ro 4 ro 5 ro", "dam co dam bich dam ro")}


@pytest.mark.parametrize("lang", sorted(FOLDED))
def test_names_typed_without_diacritics_and_one_bad_meld(page: Page, problems: Problems,
                                                         lang: str) -> None:
    page.goto(f"{lang}/first-meld/")
    page.wait_for_function(SHOWN)
    suits = [_translated(lang, name, "suit") for name in ("clubs", "diamonds", "hearts",
                                                           "spades")]
    hint = page.locator("[data-hint]").inner_text()
    assert all(suit in hint for suit in suits), hint  # "or write the suit: ... karo ..."
    first, second = FOLDED[lang]
    page.locator("#ck-meld-1").fill(first)
    page.locator("[data-add]").click()
    page.locator("#ck-meld-2").fill(second)
    page.locator("[data-add]").click()
    page.locator("#ck-meld-3").fill("XYZ 7♠")
    assert page.locator("#ck-meld-1-e").inner_text() == ""
    assert page.locator("#ck-meld-2-e").inner_text() == ""
    assert "XYZ" in page.locator("#ck-meld-3-e").inner_text()  # the token the reader typed
    shown = _shown(page)
    # the two readable melds keep their verdicts; no total or verdict under the error
    assert [m[0] for m in shown["melds"]] == ["true", "true"], shown  # type: ignore[index]
    assert shown["verdict"] == "" and shown["total"] == ""
    page.locator("#ck-meld-3").fill("")
    page.locator("[data-remove]").nth(2).click()
    assert _shown(page)["verdict"] in ("accepted", "rejected")
    assert not problems.errors


def test_an_ambiguous_letter_names_the_suits_written_form(page: Page, problems: Problems) -> None:
    page.goto("pl/first-meld/")
    page.wait_for_function(SHOWN)
    page.locator("#ck-meld-1").fill("AK 2K 3K")
    error = page.locator("#ck-meld-1-e").inner_text()
    assert "AK" in error and _translated("pl", "diamonds", "suit") in error, error
    page.locator("#ck-meld-1").fill("A karo 2 karo 3 karo")
    assert page.locator("#ck-meld-1-e").inner_text() == ""
    assert _shown(page)["melds"] == [["true", "sequence", "6", ""]]


def test_axe_with_the_checker_filled_in(browser: Browser, base_url: str) -> None:
    for lang in LANGS:
        context = browser.new_context(base_url=base_url, bypass_csp=True, viewport=DESKTOP)
        try:
            page = context.new_page()
            page.goto(f"{lang}/first-meld/#try=rami51:reference:QH+KH+AH|JK+7S+8S|JK+7S+8S")
            page.locator("#ck-meld-2").fill("JK 7S XX")  # a message beside its field
            page.locator("[data-picker] button").first.focus()
            page.add_script_tag(path=str(AXE))
            result = run_axe(page)
            assert result["violations"] == [], _describe(result["violations"])
        finally:
            context.close()


def test_a_filled_in_checker_fits_a_phone_and_a_desktop(browser: Browser, base_url: str) -> None:
    """Three melds, one with a joker, on a phone (at twice its pixel density) and a desktop:
    no horizontal scroll."""
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(base_url=base_url, viewport=viewport,
                                      device_scale_factor=2 if name == "phone" else 1)
        try:
            page = context.new_page()
            page.goto("en/first-meld/#try=rami51:house:QH+KH+AH|JK+7S+8S|AC+AD+JK")
            assert page.locator("section.checker").is_visible()
            page.wait_for_function(FILLED_IN)
            width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert width[0] <= width[1], f"{name}: horizontal scroll"
        finally:
            context.close()


# --- where players need it, and links that cannot break it ---

RESULT = "() => document.querySelector('form[data-checker] [data-results] li')"
DAMAGED = ("This link is damaged: the checker cannot read it. "
           "You can enter the cards yourself below.")


def _fragment(href: str | None) -> str:
    return unquote((href or "")[len("#try="):]).replace("+", " ")


def _in_view(page: Page, selector: str) -> bool:
    return bool(page.evaluate("""s => { const r = document.querySelector(s).getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }""", selector))


def _colour(page: Page, selector: str) -> str:
    return str(page.evaluate("s => getComputedStyle(document.querySelector(s)).color", selector))


def _damage(page: Page, fragment: str) -> None:
    """Follow a damaged link in the open page: the message, in the reader's language, and a
    checker still usable."""
    page.evaluate("f => { location.hash = f; }", fragment)
    page.wait_for_function("() => !document.querySelector('[data-damaged]').hidden")
    assert page.locator("[data-meld]").count() == 1 and _cards(page, 1) == ""
    assert "#try=" not in page.evaluate("location.hash")


@pytest.mark.parametrize("lang", LANGS)
def test_melds_checks_one_meld_on_a_phone(page: Page, problems: Problems, lang: str) -> None:
    """Melds: one meld, valid or not, and its points, beside it on a phone after "Try it";
    the tables' names typed back; removal; damaged links refused, the page still usable."""
    page.set_viewport_size(PHONE)
    page.goto(f"{lang}/melds/")
    page.wait_for_function(SHOWN)
    assert page.locator("[data-add]").count() == 0  # one meld, no first-meld verdict
    # the hint explains the notation: each face card's letters from the catalog, and its name
    key = page.locator("[data-key]").inner_text()
    for rank in ("ace", "jack", "queen", "king"):
        letters = _translated(lang, rank[0].upper(), f"card letter: {rank}")
        name = _translated(lang, rank, "rank")
        assert all(f"{letter} = {name}" in key or f"{letter} / " in key
                   for letter in letters.split()), (rank, key)
        assert f"= {name}" in key
    assert page.locator('output[data-field="verdict"]').count() == 0
    for row in (page.locator("tr[data-claim^=valid]").first,
                page.locator("tr[data-claim^=invalid]").first):
        link = row.locator("a.try")
        game, profile, cards = _fragment(link.get_attribute("href")).split(":")
        expected = evaluate_meld(parse_cards(cards), get_rules(game, **PROFILES[profile].overrides))
        link.click()
        # the second link replaces the first one's result: wait for its cards, not any result
        codes = " ".join(c.code for c in parse_cards(cards))
        page.wait_for_function("""codes => document.querySelector('[data-meld]')
            .getAttribute('data-cards') === codes
            && document.querySelector('form[data-checker] [data-results] li')""", arg=codes)
        item = page.locator("[data-results] li")
        assert item.count() == 1
        assert [item.get_attribute(a) for a in ("data-valid", "data-kind", "data-points")] == \
            [str(expected.valid).lower(), expected.kind or "", str(expected.points)]
        assert _cards(page, 1) == " ".join(c.code for c in parse_cards(cards))
        # beside the meld, in view, in the tables' colours
        assert _in_view(page, "[data-results] li") and _in_view(page, "[data-meld] input")
        cls = "ok" if expected.valid else "no"
        assert _colour(page, f"[data-results] .verdict.{cls}") == \
            _colour(page, f"table .verdict.{cls}")
        # the meld as chips, named as the table names it
        label = row.locator("td [role=img]").first.get_attribute("aria-label")
        assert page.locator("[data-meld] [role=img]").get_attribute("aria-label") == label
        # the table's own names, typed: read as the same cards
        page.locator("#ck-meld-1").fill(label or "")
        assert _cards(page, 1) == " ".join(c.code for c in parse_cards(cards))
    page.locator("[data-clear]").click()
    assert _cards(page, 1) == "" and page.locator("[data-results] li").count() == 0
    # damaged links: a newline in the game or profile, two melds here, 20,001 meld fields
    for fragment in ("#try=rami51%0A:reference:QH+KH+AH", "#try=rami51:reference%0A:QH+KH+AH",
                     "#try=rami51:reference:QH+KH+AH|2C+3C+4C",
                     "#try=rami51:reference:" + "|" * 20_000):
        _damage(page, fragment)
        assert page.locator("[data-damaged]").inner_text() == _translated(lang, DAMAGED)
    page.locator("#ck-meld-1").fill("7H 8H 9H")  # still usable, and the message goes
    page.wait_for_function(RESULT)
    assert page.locator("[data-damaged]").is_hidden()


@pytest.mark.parametrize("lang", LANGS)
def test_first_meld_on_a_phone_verdict_in_view_and_melds_removed(
        page: Page, problems: Problems, lang: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{lang}/first-meld/")
    page.wait_for_function(SHOWN)
    row = page.locator("tr[data-claim^=accepted]").first
    link = row.locator("a.try")
    fragment = _fragment(link.get_attribute("href"))
    link.click()
    page.wait_for_function(FILLED_IN)
    assert _shown(page) == _expected(fragment)
    assert _in_view(page, 'output[data-field="verdict"]') and _in_view(page, "#ck-meld-1")
    assert _colour(page, 'output[data-field="verdict"] .verdict.ok') == \
        _colour(page, "table .verdict.ok")
    # each meld as the table's chips, with the table's names
    assert page.locator("[data-meld] [role=img]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))") == row.locator(
        "td [role=img]").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    # remove meld 1 from the keyboard: the others move up, and the verdict follows
    game, profile, melds = fragment.split(":")
    rest = melds.split("|")[1:]
    assert rest, fragment
    button = page.locator("[data-meld]").first.locator("[data-remove]")
    assert button.inner_text().strip() and _translated(lang, "Remove meld {n}").format(n=1) in \
        button.evaluate("b => b.textContent")
    button.focus()
    page.keyboard.press("Enter")
    assert page.locator("[data-meld]").count() == len(rest)
    assert page.evaluate("document.activeElement.id") == "ck-meld-1"
    assert _shown(page) == _expected(f"{game}:{profile}:{'|'.join(rest)}")
    page.locator("[data-clear]").click()
    assert page.locator("[data-meld]").count() == 1 and _cards(page, 1) == ""
    assert _shown(page)["verdict"] == ""
    # a newline in the link, and 20,001 meld fields: refused, the rows still recomputed
    _damage(page, "#try=rami51:two_jokers%0A:QH+KH+AH")
    _damage(page, "#try=rami51:reference:" + "|" * 20_000)
    rows = page.locator("tr[data-claim]").count()
    assert page.locator("tr[data-recomputed=same]").count() == rows
