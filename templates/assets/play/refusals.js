// A refused move, explained: the refusal's code and values as a sentence in the reader's
// language, and a link to the rule's section. Every section, and the engine's codes with
// their translated templates, come with the page (T.engine, from
// site_builder/render/refusals.py); the table's own codes have the page's own words
// (T.refusals). A code the page does not know is explained as the table's "other", with
// the engine's English sentence. A refusal about the reader's own seat is said to the
// reader ("you must draw first", T.words.yours), not about a seat ("seat 1 must …").

import {REFUSALS} from "../lib/facts.js";
import {el} from "../lib/elements.js";

// What each kind of value becomes for the reader: cards by name, reasons in words.
const READABLE = {
  card: (value, text) => text.cardName(String(value)),
  cards: (value, text) => String(value).split(" ").filter(Boolean).map(text.cardName).join(", "),
  reasons: (value, text) => String(value).split(", ").map(r => text.T.reasons[r] || r).join(", "),
  game: (value, text) => text.T.games[value] || String(value),
};

function readable(values, text) {
  const out = {};
  for (const [key, value] of Object.entries(values || {})) {
    const kind = Object.hasOwn(REFUSALS.values, key) ? REFUSALS.values[key] : null;
    out[key] = Object.hasOwn(READABLE, kind) ? READABLE[kind](value, text) : value;
  }
  return out;
}

// The card taken from the discard pile, refused at the discard although it lies in this
// turn's first meld: the real cause is that first meld, which would not be accepted (its
// cards go back to the hand), so that is what the reader is told (*progress*: the view's).
// (the codes: T.words.owed, site_builder/render/play.py)
function owedPending(refusal, text, progress) {
  const T = text.T;
  if (!T.owedPending || !progress || progress.accepted || !progress.total
      || !T.words.owed.includes(refusal.code)) return null;
  const values = {total: progress.total, threshold: progress.threshold,
                  pure: progress.pure ? T.yes : T.no,
                  card: text.cardName(String(refusal.values.card))};
  const reason = text.fmt(progress.pure_needed ? T.owedPending.pure : T.owedPending.short, values);
  const rule = T.words.sections["opening-returns"];
  return {message: text.fmt(T.refused, {reason}),
          href: "../" + rule.page + "/index.html#" + rule.anchor};
}

// *seat*: the reader's seat, counted from 1 as the engine counts seats (none: a seat is
// named as the engine names it); *progress*: the reader's first meld this turn (the view's).
export function explain(refusal, text, seat, progress = null) {
  const T = text.T;
  const pending = refusal && refusal.values && refusal.values.seat === seat
    ? owedPending(refusal, text, progress) : null;
  if (pending) return pending;
  const code = refusal && typeof refusal.code === "string" ? refusal.code : REFUSALS.other;
  const known = Object.hasOwn(T.engine, code) ? T.engine[code] : null;
  const yours = T.words && Object.hasOwn(T.words.yours, code) && seat !== undefined
    && refusal.values && refusal.values.seat === seat ? T.words.yours[code] : null;
  let reason, rule;
  if (known && known.template) {
    reason = text.fmt(yours || known.template, readable(refusal.values, text));
    // a card owed this turn that names the meld it came from is a joker taken by an
    // exchange: its rule is the exchange's
    const taken = known.exchange && refusal.values && Object.hasOwn(refusal.values, "target");
    rule = taken ? known.exchange : known;
  } else {
    const own = Object.hasOwn(T.refusals, code) ? code : REFUSALS.other;
    reason = text.fmt(T.refusals[own], Object.assign({message: String(refusal.message || "")},
                                                     refusal.values || {}));
    rule = T.engine[own];
  }
  const href = "../" + rule.page + "/index.html#" + rule.anchor;
  return {message: text.fmt(T.refused, {reason}), href};
}

// *box* saying the refusal, placed right after *near* (the control used, or what holds
// it), scrolled into view where the eye is, and focused, so that a reader who tapped a
// button far down a phone's screen sees the answer next to it.
export function showRefusal(box, refusal, text, {seat, near = null, before = "", progress = null} = {}) {
  const {message, href} = explain(refusal, text, seat, progress);
  box.replaceChildren(el("p", {}, before + message + " ", el("a", {href}, text.T.readRule)));
  sayHere(box, near);
}

// *box* shown after *near*, in view and focused.
export function sayHere(box, near) {
  if (near) near.after(box);
  box.hidden = false;
  box.setAttribute("tabindex", "-1");
  box.focus({preventScroll: true});
  box.scrollIntoView({block: "nearest"});
}
