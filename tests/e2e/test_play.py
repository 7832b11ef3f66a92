"""The practice table in Chromium, one visit per scenario: the rules engine runs
in the page under Pyodide, and what the page does is compared with the same engine run
here in Python.

The runtime takes seconds to start on a loaded machine: each scenario waits up to
``LOAD_MS`` for the first hand (the benchmark, ``benchmarks/play.py``, measures it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from typing import Any
from urllib.parse import unquote

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Page

from site_builder.engine import notation, parse_cards, parse_steps
from site_builder.engine.notation import format_history
from site_builder.engine.play.table import Table
from site_builder.i18n.translator import Translator
from site_builder.render.play import page_words
from site_builder.render.refusals import RULE_SECTIONS, refusal_table

from .e2e_site import NODE_MODULES, ROOT, ServedSite
from .visit import NARROW_PHONE, PHONE, describe_violations, run_axe, serve_axe

LOAD_MS = 120_000
STEP_MS = 30_000
VNU = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
HAND = "[data-hand] button"


def start(page: Page, path: str) -> None:
    """Open *path* and wait for the first dealt hand."""
    page.set_default_timeout(STEP_MS)
    page.goto(path)
    page.wait_for_selector(HAND, timeout=LOAD_MS)


def hand_codes(page: Page) -> list[list[Any]]:
    """The reader's hand: each card's place in the engine's order and its name."""
    found: list[list[Any]] = page.eval_on_selector_all(
        HAND, "bs => bs.map(b => [Number(b.dataset.index), b.textContent])")
    return found


def wait_for_turn_or_end(page: Page) -> str:
    page.wait_for_selector("[data-act=draw_stock]:visible, [data-end]:visible")
    return "end" if page.is_visible("[data-end]") else "turn"


CARD = re.compile(r"10[CDHS]|[2-9AJQK][CDHS]|JK")
WORDS = {"s": "draw stock", "d": "draw discard", "m": "meld", "l": "layoff", "x": "swap",
         "t": "discard"}


def read_step(text: str) -> str:
    """A step of a 'Play from here' link (templates/_examples.html) in round notation."""
    seat, kind, rest = text[0], text[1], text[2:]
    target, _, cards = rest.rpartition("-")
    words = " ".join(CARD.findall(cards))
    if kind == "l":
        return f"{seat}: layoff {words} on {target}"
    if kind == "x":
        return f"{seat}: swap {words} for JK on {target}"
    return f"{seat}: {WORDS[kind]} {words}".rstrip()


def position_link(position: dict[str, Any]) -> str:
    """A 'Play from here' link's fragment for *position*, by the links' one writer."""
    return "#" + notation.position_link(
        position["game"], [parse_cards(" ".join(hand)) for hand in position["hands"]],
        parse_cards(" ".join(position["stock"])), parse_cards(" ".join(position["discard"])),
        parse_steps(position["steps"]), position.get("variation"))


def test_the_browser_and_python_play_the_same_round(page: Page) -> None:
    """A round against the easy player, seed 4217, the reader drawing from the stock and
    discarding their oldest card each turn: the page's history and scores are those of
    the engine run here with the same seed and choices (the round ends on the empty stock),
    Python in the page started from the build's snapshot."""
    config = {"game": "rami51", "levels": ["easy"], "seed": 4217}
    table = Table.new(config)
    while not table.state.is_over:
        if table.state.turn == 0:
            table.act({"kind": "draw_stock"})
            table.act({"kind": "discard", "cards": [table.state.hands[0][0].code]})
        else:
            table.step()
    ending = table.state.ending
    assert ending is not None and ending.reason == "stock_out"
    fetched: list[str] = []
    page.on("response", lambda response: fetched.append(response.url) if response.ok else None)
    start(page, "pl/play/#deal=rami51:4217:easy")
    # Python started from the build's snapshot of its memory (render/play.py: start_snapshot)
    assert [url.rpartition("/")[2].split("-")[0] for url in fetched
            if "/assets/pyodide/" in url and url.endswith(".gz")] == ["snapshot"]
    page.select_option("[data-pace]", "250")
    while wait_for_turn_or_end(page) == "turn":
        page.click("[data-act=draw_stock]")
        page.click(f'{HAND}[data-index="0"]')
        page.click("[data-act=discard]")
        page.click("[data-skip]")
    end = page.locator("[data-end]")
    assert end.get_attribute("data-history") == format_history(table.state.history)
    assert "Talia jest pusta: wygrywa najmniejsza liczba punktów." in end.inner_text()
    rows = end.locator("tbody tr")
    for seat, score in enumerate(ending.scores):
        assert str(score) in rows.nth(seat).locator("td").nth(1).inner_text()


def polish() -> Translator:
    with (ROOT / "locales" / "pl" / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return Translator("pl", read_po(po, locale="pl"))


def test_a_round_ends_when_the_reader_goes_out(page: Page) -> None:
    """From a position (a 'Play from here' link): the reader lays a meld and goes out with
    the last discard; the meld is drawn in rank order whatever the hand's order; the end
    shows the engine's scores, and the round's review, which can be skipped."""
    position = {"game": "cardverse", "hands": [["7H", "5H", "6H"], ["9C", "JD", "4S"]],
                "stock": ["2C", "3D", "8S"], "discard": ["9D"], "steps": []}
    start(page, "vi/play/" + position_link(position))
    page.click("[data-act=draw_stock]")
    for code in ("7H", "5H", "6H"):
        page.click(f'{HAND}[data-code="{code}"]')
    page.click("[data-act=meld]")
    faces = page.eval_on_selector_all("[data-melds] li[data-number='1'] [role=img] > *",
                                      "cs => cs.map(c => c.textContent)")
    assert faces == ["5♥", "6♥", "7♥"]
    page.click(f"{HAND} >> nth=0")
    page.click("[data-act=discard]")
    end = page.locator("[data-end]")
    end.wait_for()
    table = Table.from_position(position)
    table.act({"kind": "draw_stock"})
    table.act({"kind": "meld", "cards": ["7H", "5H", "6H"]})  # as the page sends them
    table.act({"kind": "discard", "cards": ["2C"]})
    assert table.state.ending is not None
    assert end.get_attribute("data-history") == \
        table.view()["ending"]["history"]
    assert str(table.state.ending.scores[0]) in end.locator("tbody tr").nth(0).inner_text()
    review = page.locator("[data-review]")
    review.locator("h3", has_text="Những nước đi tốn kém nhất của bạn").wait_for()
    review.locator("ol, p", has_text=re.compile("bạn")).first.wait_for()
    page.click("[data-skip-review]")
    assert review.is_hidden()
    assert page.evaluate("document.activeElement.closest('[data-end]') !== null")


OPENED_SEAT_2 = {  # seat 2 has opened (61 points with a pure sequence); seat 1 has not
    "game": "rami51", "hands": [["10S", "4D", "7C", "8H", "2S"],
                                ["QH", "KH", "AH", "JS", "QS", "JK", "9D", "5C"]],
    "stock": ["3C", "6D", "JC", "4H", "9H"], "discard": ["2D"],
    "steps": ["1: draw stock", "1: discard 4D", "2: draw stock", "2: meld QH KH AH",
              "2: meld JS QS JK", "2: discard 9D", "1: draw stock"]}
REFUSALS: dict[str, tuple[Any, list[str], Any]] = {
    # a scenario: where it starts, what the reader does (clicks), the same request here
    "take": ("#deal=rami51:4217:easy", ["[data-act=draw_discard]"],
             {"kind": "draw_discard"}),
    "meld": ("#deal=rami51:4217:easy", ["[data-act=draw_stock]", f'{HAND}[data-index="0"]',
                                        f'{HAND}[data-index="1"]', "[data-act=meld]"], None),
    "lay_off": (OPENED_SEAT_2, ['[data-code="10S"]', "[data-act=lay_off][data-target='2']"],
                {"kind": "lay_off", "cards": ["10S"], "target": 2}),
    "swap": (OPENED_SEAT_2, ['[data-code="10S"]', "[data-act=swap][data-target='2']"],
             {"kind": "swap", "cards": ["10S"], "target": 2}),
}


@pytest.mark.parametrize("scenario", REFUSALS)
def test_each_kind_of_refused_move_is_explained_in_the_language_and_linked(
        page: Page, served_site: ServedSite, scenario: str) -> None:
    """The engine's reason in Polish (its catalog's template, not the English sentence),
    and a link to the rule's section, which exists on that page."""
    start_at, clicks, request = REFUSALS[scenario]
    if isinstance(start_at, dict):
        table = Table.from_position(start_at)
        link = position_link(start_at)
    else:
        table = Table.new({"game": "rami51", "levels": ["easy"], "seed": 4217})
        link = str(start_at)
    if request is None:  # the same two cards the page selects, after the same draw
        table.act({"kind": "draw_stock"})
        request = {"kind": "meld", "cards": [c.code for c in table.state.hands[0][:2]]}
    refusal = table.act(request)["refusal"]
    page_slug, anchor = RULE_SECTIONS[refusal["code"]]
    page.set_viewport_size({"width": 360, "height": 800})
    start(page, "pl/play/" + link)
    for selector in clicks:
        page.click(selector if selector.startswith("[data-act") or HAND in selector
                   else f"{HAND}{selector}")
    box = page.locator("[data-refusal]")
    text = box.inner_text()
    assert text.startswith("Niedozwolone: ") and refusal["message"] not in text, text
    yours = page_words(polish())["yours"]
    template = yours.get(refusal["code"]) or \
        refusal_table(polish())[refusal["code"]]["template"]
    assert template.split("{")[0].strip() in text
    assert "miejscu 1" not in text  # the reader is "you", never "seat 1"
    # where the eye is: the whole box in the phone's screen, and focused
    box_top, box_bottom = page.evaluate(
        "(() => { const r = document.querySelector('[data-refusal]').getBoundingClientRect();"
        " return [r.top, r.bottom]; })()")
    assert 0 <= box_top and box_bottom <= 800, (box_top, box_bottom)
    assert page.evaluate("document.activeElement.matches('[data-refusal]')")
    href = box.locator("a").get_attribute("href") or ""
    assert href == f"../{page_slug}/index.html#{anchor}"
    target = (served_site.dir / "pl" / page_slug / "index.html").read_text(encoding="utf-8")
    assert f'id="{anchor}"' in target


def test_a_game_resumes_after_a_reload(page: Page) -> None:
    """The hand, the log (each computer move opening to its reason, in Polish) and the
    deal's link are all there again after a reload."""
    start(page, "pl/play/#deal=rami51:77:hard")
    page.click("[data-hint]")
    hint = page.inner_text("[data-hint-text]")
    assert hint.startswith("Podpowiedź – ") and "Powód – " in hint, hint
    assert not CARD.search(hint), hint  # cards by name, never by code
    page.select_option("[data-pace]", "250")
    page.click("[data-act=draw_stock]")
    page.click(f'{HAND}[data-index="0"]')
    page.click("[data-act=discard]")
    page.click("[data-skip]")
    page.wait_for_selector("[data-act=draw_stock]:visible")
    page.click("[data-act=draw_stock]")
    before = hand_codes(page)
    log_before = page.inner_text("[data-log]")
    assert "Dobierasz z talii" in log_before and "Odrzucasz" in log_before
    page.reload()
    page.wait_for_selector(HAND, timeout=LOAD_MS)
    assert hand_codes(page) == before
    assert page.is_visible("[data-act=discard]")  # still the reader's turn, after the draw
    assert page.locator("[data-note]").inner_text() == "Twoja rozpoczęta gra została wznowiona."
    assert page.inner_text("[data-log]") == log_before
    assert page.get_attribute("[data-deal-link]", "href") == "#deal=rami51:77:hard"
    assert page.is_visible("[data-deal-link]")
    # the computer's moves open to their reasons, in the hint's words
    reason = page.locator("[data-log] details").first
    reason.locator("summary").click()
    assert reason.locator("p").inner_text().startswith("Powód – ")


def test_two_tabs_on_one_game_never_write_over_each_other(page: Page) -> None:
    """A second tab resumes the game kept on the device; once the first tab plays on, the
    second stops, says how to go on, and writes nothing over the first tab's game; a
    reload there continues that game."""
    start(page, "pl/play/#deal=rami51:4217:easy")
    other = page.context.new_page()
    start(other, "pl/play/")  # resumes the kept game
    assert hand_codes(other) == hand_codes(page)
    page.click("[data-act=draw_stock]")
    drawn = hand_codes(page)
    said = polish().gettext("This game went on in another tab. Reload the page to continue "
                            "it here.")
    other.wait_for_function("t => document.querySelector('[data-note]').textContent === t",
                            arg=said)
    kept = page.evaluate("localStorage.getItem('rami-practice-table')")
    other.click("[data-act=draw_stock]")  # stopped: the kept game is the first tab's
    other.click("[data-hint]")
    assert other.evaluate("localStorage.getItem('rami-practice-table')") == kept
    assert other.inner_text("[data-note]") == said
    other.reload()
    other.wait_for_selector(HAND, timeout=LOAD_MS)
    assert hand_codes(other) == drawn
    other.close()


def test_a_damaged_save_and_a_hostile_link_get_a_message(page: Page) -> None:
    page.goto("pl/play/")
    page.evaluate("localStorage.setItem('rami-practice-table', '{\"save\": {\"v\": 1, "
                  "\"config\": {\"game\": \"<img src=x>\"}}}')")
    page.reload()
    note = page.locator("[data-note]")
    note.wait_for(timeout=LOAD_MS)
    assert "zapisanej gry" in note.inner_text()
    assert page.is_visible("[data-start]")  # the rest of the page stays usable
    page.goto("pl/play/#deal=rami51:1:easy%3Cscript%3E")  # followed on the page: it reloads
    page.locator("[data-note]", has_text="Nie udało się odczytać tego linku").wait_for()
    assert page.locator("img[src=x], script:not([src]):not([type])").count() == 0
    # a save nested deeper than any game's is damaged like any other
    page.evaluate("localStorage.setItem('rami-practice-table', JSON.stringify({save: "
                  "{v: 1, config: {a: {b: {c: {d: {e: {f: {g: {h: {}}}}}}}}}}}))")
    page.reload()
    page.locator("[data-note]", has_text="zapisanej gry").wait_for()
    # a position no deal could give (a computer seat with 30 cards) is refused in one line,
    # and the table offers a new game
    big = {"game": "rami51", "hands": [["5H", "6H", "7H"], ["2C"] * 2 + ["3C"] * 2 + ["4D"] * 26],
           "stock": ["8S"], "discard": ["9D"], "steps": []}
    page.goto("pl/play/" + position_link(big))
    note = page.locator("[data-note]", has_text="Tej sytuacji nie da się rozegrać")
    note.wait_for(timeout=LOAD_MS)
    assert "30" in note.inner_text()
    assert page.is_visible("[data-start]") and page.is_hidden("[data-board]")


def test_the_table_is_accessible_and_fits_a_narrow_phone(page: Page, served_site: ServedSite
                                                         ) -> None:
    """axe 0 in light and dark with the board dealt, the Nu Html Checker 0 on the board's
    markup, and no sideways scrolling at 320 px."""
    serve_axe(page.context)
    page.set_viewport_size(NARROW_PHONE)
    start(page, "vi/play/#deal=rami51:4217:easy")
    page.click("[data-act=draw_stock]")
    page.click(f"{HAND} >> nth=0")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        result = run_axe(page)
        assert result["violations"] == [], describe_violations(result["violations"])
    width = page.evaluate("[document.documentElement.scrollWidth, "
                          "document.documentElement.clientWidth]")
    assert width[0] <= width[1], width
    java = shutil.which("java")
    assert java and VNU.is_file(), "run `bash scripts/setup`"
    html = page.content()
    checked = subprocess.run([java, "-jar", str(VNU), "--errors-only", "--format", "text", "-"],
                             input=html, capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stderr[:3000]


def test_a_turn_is_playable_by_keyboard_alone(page: Page) -> None:
    page.set_viewport_size(PHONE)
    start(page, "pl/play/#deal=rami51:4217:easy")

    def tab_to(selector: str) -> None:
        for _ in range(300):
            page.keyboard.press("Tab")
            if page.evaluate("s => document.activeElement.matches(s)", selector):
                return
        pytest.fail(f"Tab never reaches {selector}")

    # after Start the focus is on the draw (the reader's turn) or on Skip (the computers')
    assert page.evaluate("document.activeElement.matches('[data-act=draw_stock], [data-skip]')")
    tab_to("[data-act=draw_stock]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-act=discard]:visible")
    # after a draw, the focus is on the card drawn, in the hand
    assert page.evaluate("document.activeElement.matches('[data-hand] button')")
    page.keyboard.press("Space")
    assert page.locator(f"{HAND}[aria-pressed=true]").count() == 1
    tab_to("[data-act=discard]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-log] li >> text=Odrzucasz")
    # after the discard: Skip while the computers play, then the draw again
    page.wait_for_selector("[data-act=draw_stock]:visible")
    assert page.evaluate("document.activeElement.matches('[data-act=draw_stock], [data-skip]')")


def test_play_from_here_opens_the_worked_round_at_its_position(page: Page) -> None:
    """The whole round's 'Play from here' link: the deal is the worked round's (as written
    in content/whole-round.md), and the table shows the position the engine reaches."""
    source = (ROOT / "content" / "whole-round.md").read_text(encoding="utf-8")
    setup = {key: re.search(rf"^{key}: (.+)$", source.split("```example")[2], re.M)[1]  # type: ignore[index]
             for key in ("hands", "stock", "discard")}
    page.goto("pl/whole-round/")
    href = page.get_attribute("a[href*='#from=']", "href") or ""
    game, hands, stock, discard, steps = unquote(href.split("#from=", 1)[1]).split(";")
    assert game == "rami51"
    assert " | ".join(" ".join(CARD.findall(h)) for h in hands.split("/")) == setup["hands"]
    assert (" ".join(CARD.findall(stock)), " ".join(CARD.findall(discard))) == (
        setup["stock"], setup["discard"])
    position = {"game": game, "hands": [CARD.findall(h) for h in hands.split("/")],
                "stock": CARD.findall(stock), "discard": CARD.findall(discard),
                "steps": [read_step(s) for s in steps.split("~")]}
    expected = Table.from_position(position).view()
    page.click("a[href*='#from=']")
    page.set_default_timeout(STEP_MS)
    page.wait_for_selector(HAND, timeout=LOAD_MS)
    codes = page.eval_on_selector_all(HAND, "bs => bs.map(b => b.dataset.code)")
    assert sorted(codes) == sorted(expected["hand"])
    melds = page.eval_on_selector_all("[data-melds] li[data-number]",
                                      "ls => ls.map(l => l.dataset.number)")
    assert melds == [str(m["number"]) for m in expected["table"]]
    assert page.inner_text("[data-stock]") == f"Talia: {expected['stock']} karty"


def test_opened_from_disk_or_without_javascript_the_page_says_what_the_table_needs(
        page: Page, served_site: ServedSite) -> None:
    page.goto((served_site.dir / "pl" / "play" / "index.html").as_uri())
    page.wait_for_load_state("load")
    assert page.inner_text(".play-off").startswith("Stół do ćwiczeń wymaga strony "
                                                   "udostępnionej przez serwer WWW")
    html = (served_site.dir / "pl" / "play" / "index.html").read_text(encoding="utf-8")
    assert '<p class="play-off">Stół do ćwiczeń wymaga JavaScriptu.</p>' in html
    assert '<div data-play hidden>' in html
