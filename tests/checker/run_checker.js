// Runs the in-browser checker's rules core under node for tests/test_checker_js.py:
// JSON on stdin ({rules, melds, openings, tokens}), JSON on stdout (one answer per input).
"use strict";
const path = require("path");
const core = require(path.join(__dirname, "..", "..", "templates", "assets", "checker.js"));
const codes = (list) => list.map(core.code);
const meld = (r) => ({valid: r.valid, kind: r.kind, points: r.points, reason: r.reason,
  jokers: codes(r.jokers), arrangement: codes(r.arrangement), card_points: r.card_points});
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const data = JSON.parse(input), rules = data.rules;
  const out = {
    melds: data.melds.map(([game, profile, cards]) => meld(core.meld(cards, rules[game][profile]))),
    openings: data.openings.map(([game, profile, melds]) => {
      const r = core.opening(melds, rules[game][profile]);
      return {total: r.total, threshold: r.threshold, accepted: r.accepted,
        pure_sequence: r.pure_sequence, reasons: r.reasons, melds: r.melds.map(meld)};
    }),
    tokens: data.tokens.map((t) => { const o = core.parseCard(t); return o < 0 ? null : core.code(o); }),
  };
  process.stdout.write(JSON.stringify(out));
});
