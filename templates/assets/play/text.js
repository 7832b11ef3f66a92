// The practice table's words (templates/_play.html hands them over as JSON), in the page's
// language: the catalog's messages filled in, counted and the cards named (lib/).
// Nothing here reads the page's markup.
//
// A card's name is always given in its base form ("dama kier"), never declined: each
// sentence that names a card is worded by its translator so that the name stands where
// that form is right (at the start, after a colon, in brackets; docs/translating.md).

import { cardName } from "../lib/cards.js";
import { words } from "../lib/text.js";

export function makeText(T, lang) {
  const { fill, count } = words(lang);
  const name = (code) => cardName(code, T);
  // cards as the engine writes them ("5H 6H JK"; several melds with " | " between them)
  const cards = (value) => (Array.isArray(value) ? value.join(" ") : String(value))
    .split(" | ").map((meld) => meld.split(" ").filter(Boolean).map(name).join(", "))
    .join(T.meldsJoin);
  function seatName(seat, view) {
    if (seat === view.seat) return T.you;
    return fill(T.computer, {n: seat + 1, level: T.levels[view.levels[seat]] || ""});
  }
  // One move reason ({code, values}: site_builder/engine/reasons.py) as a sentence.
  function reason(r) {
    const template = r && Object.hasOwn(T.words.reasons, r.code) ? T.words.reasons[r.code] : null;
    if (!template) return "";
    const values = {};
    for (const [key, value] of Object.entries(r.values || {})) {
      values[key] = ["card", "cards", "next"].includes(key) ? cards(value) : value;
    }
    return fill(template, values);
  }
  // Several reasons as one sentence ("Why: …."), or "" when there are none.
  function reasons(list) {
    const said = (list || []).map(reason).filter(Boolean);
    return said.length ? fill(T.because, {reasons: said.join(T.reasonsJoin)}) : "";
  }
  // A move ({kind, cards, target}) in the imperative ("discard the queen of clubs").
  const move = (a) => fill(T.moves[a.kind] || "", {cards: cards(a.cards || []), n: a.target});
  // The hint (table.py's Table.hint: {action, reasons, plan}) in words: the move, why, and
  // the melds planned after it this turn, unless a reason already names them.
  function hint(answer) {
    const lines = [fill(T.hint, {move: move(answer.action)}), reasons(answer.reasons)];
    const named = (answer.reasons || []).some(r => r.values && Object.hasOwn(r.values, "next"));
    if (answer.plan && answer.plan.length && !named) {
      lines.push(fill(T.plan, {melds: answer.plan.map(cards).join(T.meldsJoin)}));
    }
    return lines.filter(Boolean).join(" ");
  }
  // A line of the log, in words only (log.js adds the cards' faces and points): the
  // reader's own move said to them ("You discard"), another seat's by its name.
  const logLine = (ev, view) => (ev.seat === view.seat ? fill(T.logYou[ev.kind], {n: ev.number})
    : seatName(ev.seat, view) + ": " + fill(T.log[ev.kind], {n: ev.number}));
  return {T, fmt: fill, count, cardName: name, cards, seatName, reason, reasons, move, hint,
          logLine, lang};
}
