// A refused move, explained: the engine's reason code and values as a sentence in the
// reader's language, and a link to the rule's section. The engine's codes come with their
// translated templates and sections (T.engine, from site_builder/render/refusals.py); the
// table's own codes (T.refusals) link to the turn. A code the page does not know keeps
// the engine's own English sentence, linked to the turn's rules.

const OWN_SECTIONS = {
  not_your_turn: ["turn", "your-turn-step-by-step"],
  your_turn: ["turn", "your-turn-step-by-step"],
  bad_cards: ["melds", "sets-and-sequences"],
  bad_target: ["turn", "laying-off"],
  bad_action: ["turn", "your-turn-step-by-step"],
  search_limit: ["turn", "your-turn-step-by-step"],
  other: ["turn", "your-turn-step-by-step"],
};
// Values that hold card codes (one card, or several separated by spaces).
const CARD_VALUES = ["card", "stands", "other", "third"];
const CARDS_VALUES = ["cards", "meld"];

/** The refusal's values as the reader reads them: cards by name, reasons in words. */
function readable(values, text) {
  const T = text.T, out = {};
  for (const [key, value] of Object.entries(values || {})) {
    if (CARD_VALUES.includes(key)) out[key] = text.cardName(String(value));
    else if (CARDS_VALUES.includes(key)) {
      out[key] = String(value).split(" ").filter(Boolean).map(text.cardName).join(", ");
    } else if (key === "reason" || key === "reasons") {
      out[key] = String(value).split(", ").map(r => T.reasons[r] || r).join(", ");
    } else if (key === "game") out[key] = T.games[value] || String(value);
    else out[key] = value;
  }
  return out;
}

export function explain(refusal, text) {
  const T = text.T;
  const code = refusal && typeof refusal.code === "string" ? refusal.code : "other";
  const engine = T.engine && Object.hasOwn(T.engine, code) ? T.engine[code] : null;
  let reason, page, section;
  if (engine) {
    reason = text.fmt(engine.template, readable(refusal.values, text));
    [page, section] = [engine.page, engine.anchor];
  } else {
    const known = Object.hasOwn(T.refusals, code) ? code : "other";
    reason = text.fmt(T.refusals[known], Object.assign({message: String(refusal.message || "")},
                                                       refusal.values || {}));
    [page, section] = OWN_SECTIONS[known];
  }
  const href = "../" + page + "/index.html#" + section;
  return {message: text.fmt(T.refused, {reason}), href};
}

export function showRefusal(doc, box, refusal, text) {
  const {message, href} = explain(refusal, text);
  box.textContent = "";
  const p = doc.createElement("p");
  p.textContent = message + " ";
  const a = doc.createElement("a");
  a.href = href;
  a.textContent = text.T.readRule;
  p.append(a);
  box.append(p);
  box.hidden = false;
}
