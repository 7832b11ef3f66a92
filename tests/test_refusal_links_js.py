"""The practice table's refusal links (templates/assets/play/refusals.js), run in Node with
the page's own data (site_builder/render/refusals.py): a card owed this turn links to the
rule of taking the discard, and a joker owed after an exchange (the refusal names the meld
it came from) to the rule of the exchange."""

from __future__ import annotations

from pathlib import Path

from browser_js import READ_INPUT, run_module

from site_builder.engine import Refusal
from site_builder.i18n.translator import Translator
from site_builder.render.refusals import refusal_table

RUN = READ_INPUT + """
const { explain } = await import("./assets/play/refusals.js");
const text = {
  T: input.T,
  fmt: (template, values) => template.replace(/\\{(\\w+)\\}/g, (_, key) => String(values[key])),
  cardName: (code) => code,
};
process.stdout.write(JSON.stringify(input.refusals.map((refusal) => explain(refusal, text))));
"""


def test_an_owed_joker_links_to_the_exchange(tmp_path: Path) -> None:
    refusals = [Refusal("owed-fits-no-meld", seat=1, cards="JK", target=1),  # an exchange
                Refusal("owed-fits-no-meld", seat=1, cards="8H"),  # the discard taken
                Refusal("owed-no-final-discard", seat=1, cards="JK", target=2)]
    T = {"engine": refusal_table(Translator("en")), "refusals": {}, "reasons": {}, "games": {},
         "refused": "Not allowed: {reason}", "readRule": "Read the rule"}
    data = {"T": T, "refusals": [{"code": r.code, "values": dict(r.values), "message": str(r)}
                                 for r in refusals]}
    assert run_module(tmp_path, RUN, data) == [
        {"message": f"Not allowed: {refusals[0]}",
         "href": "../joker-exchange/index.html#when-and-with-which-card"},
        {"message": f"Not allowed: {refusals[1]}",
         "href": "../turn/index.html#taking-the-discard"},
        {"message": f"Not allowed: {refusals[2]}",
         "href": "../joker-exchange/index.html#when-and-with-which-card"},
    ]
