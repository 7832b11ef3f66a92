// Runs the in-browser checker's rules core under node for tests/test_checker_js.py:
// JSON on stdin ({constants, rules, melds, openings, tokens, texts?, typed?, shows?}), JSON on stdout
// (one answer per input). `texts` are the pages' checker-text blocks by language: the
// reader's notation (letters and card names) comes from them, as on the page.
"use strict";
const path = require("path");
// the assets folder (argument 1): the scripts as the build serves them, with lib/facts.js
// (tests/browser_js.py: browser_assets)
const assets = process.argv[2];
// the ES modules, as node (20.19 and later) requires them; their exports are live bindings
const core = {...require(path.join(assets, "checker-core.js")),
  ...require(path.join(assets, "checker-notation.js"))};
const codes = (list) => list.map(core.code);
const meld = (r) => ({valid: r.valid, kind: r.kind, points: r.points, reason: r.reason,
  jokers: codes(r.jokers), arrangement: codes(r.arrangement), card_points: r.card_points});
const opening = (melds, rules) => {
  const r = core.opening(melds, rules);
  return {total: r.total, threshold: r.threshold, accepted: r.accepted,
    pure_sequence: r.pure_sequence, reasons: r.reasons, melds: r.melds.map(meld)};
};
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const data = JSON.parse(input), rules = data.rules, notations = {};
  core.init(data.constants);  // the engine's constant tables, as checker-rules.js gives them
  Object.entries(data.texts || {}).forEach(([lang, text]) => { notations[lang] = core.notation(text); });
  const read = (lang, text) => {
    const r = core.readField(text, notations[lang], 200);
    return {cards: r.cards.map((o) => (o < 0 ? null : core.code(o))), bad: r.bad, letter: r.letter};
  };
  const out = {
    melds: data.melds.map(([game, profile, cards]) => meld(core.meld(cards, rules[game][profile]))),
    openings: data.openings.map(([game, profile, melds]) => opening(melds, rules[game][profile])),
    tokens: data.tokens.map((t) => { const o = core.parseCard(t); return o < 0 ? null : core.code(o); }),
    // a token in each language's notation
    local: (data.local || []).map(([lang, t]) => {
      const o = core.parseLocal(t, notations[lang]); return o < 0 ? null : core.code(o);
    }),
    fields: (data.fields || []).map(([lang, text]) => read(lang, text)),
    // first melds typed in the reader's notation: read as the page reads them, then judged
    typed: (data.typed || []).map(([lang, game, profile, texts]) => {
      const melds = texts.map((t) => core.readField(t, notations[lang], 200).cards);
      return melds.some((m) => m.indexOf(-1) >= 0) ? null : opening(melds, rules[game][profile]);
    }),
    shows: (data.shows || []).map(([lang, o]) => core.show(o, notations[lang])),
  };
  process.stdout.write(JSON.stringify(out));
});
