// A refused move, explained: the engine's reason code and values as a sentence in the
// reader's language, and a link to the rule's section. Codes the page does not know keep
// the engine's own English sentence, linked to the turn's rules.

const SECTIONS = {
  not_your_turn: ["turn", "your-turn-step-by-step"],
  your_turn: ["turn", "your-turn-step-by-step"],
  bad_cards: ["melds", "sets-and-sequences"],
  bad_target: ["turn", "laying-off"],
  bad_action: ["turn", "your-turn-step-by-step"],
  search_limit: ["turn", "your-turn-step-by-step"],
  other: ["turn", "your-turn-step-by-step"],
};

export function explain(refusal, text) {
  const T = text.T;
  const code = refusal && typeof refusal.code === "string" ? refusal.code : "other";
  const known = Object.hasOwn(T.refusals, code) ? code : "other";
  const values = Object.assign({message: String(refusal.message || "")},
                               refusal.values || {});
  const reason = text.fmt(T.refusals[known], values);
  const [page, section] = SECTIONS[known] || SECTIONS.other;
  const href = (T.rules[page] || "../turn/index.html") + "#" + section;
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
