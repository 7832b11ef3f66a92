// The checker's rules core: a port of site_builder/engine (cards.py parsing, melds.py,
// opening.py) for the reader's browser. Its constant tables (card values, labels, suit
// signs, the joker's ordinal) come from the engine through checker-rules.js
// (site_builder/render/checker_rules.py), handed to init(). The rule numbers
// are the RuleSet's fields, from the same file. tests/test_checker_js.py proves this code
// equal to the engine on every field, and fails when the engine files it mirrors change.
// A card is its ordinal: suit*13+rank-1 (suits in the engine's order), the joker after.

export var JK, JOKER, SUITS, GLYPHS, LABELS, RANKS, JOKERS, PV, SETV, PRE;
/* the engine's constant tables (checker_rules.constants) */
export function init(C) {
  JK = C.joker; JOKER = C.joker_code; SUITS = C.suits; GLYPHS = C.glyphs; LABELS = C.labels; RANKS = C.rank_tokens;
  JOKERS = C.joker_tokens; PV = C.position_value; SETV = C.set_value;
  PRE = [0];
  for (var i = 1; i < PV.length; i++) PRE[i] = PRE[i - 1] + PV[i];
}

export function code(o) { return o === JK ? JOKER : LABELS[o % 13 + 1] + SUITS[(o / 13) | 0]; }

/* cards.py _lookup: one token, or -1 */
export function parseCard(token) {
  var t = String(token).trim().toUpperCase(), s, r, last;
  if (/[\uFE0E\uFE0F]$/.test(t) && (SUITS + GLYPHS).indexOf(t.slice(-2, -1)) >= 0 && t.length > 1)
    t = t.slice(0, -1);
  if (JOKERS.indexOf(t) >= 0) return JK;
  last = t.slice(-1);
  s = last ? SUITS.indexOf(last) : -1;
  if (s < 0 && last) { s = GLYPHS.indexOf(last); if (s >= 0) s %= 4; }
  r = Object.hasOwn(RANKS, t.slice(0, -1)) ? RANKS[t.slice(0, -1)] : -1;
  return s < 0 || r < 1 ? -1 : s * 13 + r - 1;
}

/* tuple order of melds.py's candidates: [points, kind, keys, start, payload] */
function cmp(a, b) {
  for (var i = 0; i < 5; i++) {
    var x = a[i], y = b[i], c = 0;
    if (typeof x === "object") {
      for (var j = 0; !c && j < x.length && j < y.length; j++) c = x[j] - y[j];
      if (!c) c = x.length - y.length;
    } else c = x - y;
    if (c) return c;
  }
  return 0;
}
function better(c, best) { return c && (!best || cmp(c, best) < 0) ? c : best; }
function range(a, b) { var out = []; for (; a < b; a++) out.push(a); return out; }
function fail(reason) { return {valid: false, kind: null, points: 0, reason: reason,
  jokers: [], arrangement: [], card_points: []}; }

export function meld(cards, R) {
  var n = cards.length, jokers = 0, nat = [], i;
  if (n < 3) return fail("too_short");
  for (i = 0; i < n; i++) if (cards[i] === JK) jokers++; else nat.push(cards[i]);
  if (jokers) {
    if (!R.jokers) return fail("joker_not_allowed");
    if (jokers > R.max_jokers_per_meld) return fail("too_many_jokers");
    if (jokers === n && !R.all_joker_melds) return fail("all_jokers");
  }
  if (n > 13) return fail("too_long");
  var m = n - jokers, res;
  if (!m) res = allJokers(n, R);
  else {
    var suits = [], ranks = [];
    nat.forEach(o => {
      var s = (o / 13) | 0, r = o % 13 + 1;
      if (suits.indexOf(s) < 0) suits.push(s);
      if (ranks.indexOf(r) < 0) ranks.push(r);
    });
    ranks.sort((a, b) => a - b);
    if (ranks.length === 1) res = bestSet(suits, ranks, jokers, n, m, R);
    else if (suits.length > 1) return fail(ranks.length === m ? "mixed_suits" : mixed(nat));
    else if (ranks.length < m) return fail("duplicate_card");
    else {
      if (!jokers) {  // a natural sequence
        var lo = ranks[0], hi = ranks[m - 1], run = hi - lo + 1 === m, s0 = suits[0];
        if (lo === 1) {
          run = run && R.ace_low;
          if (!run && ranks[1] === 15 - m) { lo = ranks[1]; hi = 14; run = true; }
        }
        if (run) return result(cards, [PRE[hi] - PRE[lo - 1], 0, [], lo, [s0, lo, hi]], R);
      }
      res = bestSequence(suits[0], ranks, jokers, R);
    }
  }
  return res[0] ? result(cards, res[0], R) : fail(res[1]);
}

function count(list, x) { return list.filter(y => y === x).length; }
function mixed(nat) {
  var s = nat.map(o => (o / 13) | 0), r = nat.map(o => o % 13);
  var ms = Math.max.apply(null, s.map(x => count(s, x)));
  var mr = Math.max.apply(null, r.map(x => count(r, x)));
  return ms >= mr ? "mixed_suits" : "mixed_ranks";
}

function bestSet(suits, ranks, jokers, n, m, R) {
  var best = null, reason = "";
  if (n > 4) reason = "too_long";
  else if (suits.length < m) reason = "duplicate_suit";
  else best = setCandidate(ranks[0], suits, jokers, R.joker_value);
  if (m === 1) {
    var seq = bestSequence(suits[0], ranks, jokers, R);
    if (seq[0] && (!best || cmp(seq[0], best) < 0)) best = seq[0];
    else if (!best) reason = seq[1];
  }
  return [best, reason];
}

function setCandidate(rank, suits, jokers, jv) {
  var v = SETV[rank];
  if (!jokers) return [v * suits.length, 1, [], rank, [rank]];
  var stand = range(0, 4).filter(s => suits.indexOf(s) < 0).slice(0, jokers);
  return [v * suits.length + (jv === null ? v : jv) * jokers, 1,
    stand.map(s => rank * 4 + s), rank, [rank].concat(stand)];
}

function bestSequence(suit, pos, jokers, R) {
  var low = R.ace_low, opts, last = pos[pos.length - 1];
  if (pos[0] === 1) {
    opts = [[pos.slice(1).concat([14]), 2, 14]];
    if (low) opts.push([pos, 1, 13]);
  } else opts = [[pos, low ? 1 : 2, 14]];
  var best = scan(suit, opts, jokers, R, R.adjacent_jokers);
  if (best) return [best, ""];
  if (!R.adjacent_jokers && scan(suit, opts, jokers, R, true)) return [null, "adjacent_jokers"];
  if (!low && pos[0] === 1 && last - pos.length <= jokers) return [null, "ace_low_not_allowed"];
  var widest = pos[0] + 13 - last;
  for (var i = 1; i < pos.length; i++) widest = Math.max(widest, pos[i] - pos[i - 1]);
  return [null, 14 - widest <= pos.length + jokers ? "wrap" : "gap"];
}

function scan(suit, opts, jokers, R, adjacentOk) {
  var jv = R.joker_value, best = null;
  opts.forEach(opt => {
    var pos = opt[0], lo = pos[0], hi = pos[pos.length - 1],
      spare = jokers - (hi - lo + 1 - pos.length);
    if (spare < 0) return;
    if (!jokers) { best = better([PRE[hi] - PRE[lo - 1], 0, [], lo, [suit, lo, hi]], best); return; }
    var inner = spare < jokers ? range(lo + 1, hi).filter(p => pos.indexOf(p) < 0) : [];
    for (var below = 0; below <= spare; below++) {
      var start = lo - below, end = hi + spare - below;
      if (start < opt[1] || end > opt[2]) continue;
      var jp = range(start, lo).concat(inner, range(hi + 1, end + 1)), k, adjacent = false;
      if (!adjacentOk && jokers > 1)
        for (k = 1; k < jp.length; k++) if (jp[k] - jp[k - 1] === 1) adjacent = true;
      if (adjacent) continue;
      var points = PRE[end] - PRE[start - 1];
      if (jv !== null) jp.forEach(p => { points += jv - PV[p]; });
      var keys = jp.map(p => (p === 14 ? 1 : p) * 4 + suit);
      if (end === 14 && jokers > 1) keys.sort((a, b) => a - b);
      best = better([points, 0, keys, start, [suit, start, end].concat(jp)], best);
    }
  });
  return best;
}

function allJokers(n, R) {
  var jv = R.joker_value, best = null, rank, suit, start;
  if (n <= 4) for (rank = 1; rank < 14; rank++) best = better(setCandidate(rank, [], n, jv), best);
  if (R.adjacent_jokers)
    for (suit = 0; suit < 4; suit++)
      for (start = R.ace_low ? 1 : 2; start < 16 - n; start++) {
        var end = start + n - 1, ps = range(start, end + 1);
        best = better([jv === null ? PRE[end] - PRE[start - 1] : jv * n, 0,
          ps.map(p => (p === 14 ? 1 : p) * 4 + suit)
            .sort((a, b) => a - b), start, [suit, start, end].concat(ps)], best);
      }
  return best ? [best, ""] : [null, "adjacent_jokers"];
}

function result(cards, best, R) {
  var jv = R.joker_value, pay = best[4], arr, pts, out;
  if (best[1] === 0) {
    var s = pay[0], start = pay[1], jp = pay.slice(3);
    arr = range(start, pay[2] + 1).map(p => s * 13 + (p === 14 ? 0 : p - 1));
    pts = arr.map((o, i) => {
      return jv !== null && jp.indexOf(start + i) >= 0 ? jv : PV[start + i];
    });
  } else {
    var rank = pay[0], v = SETV[rank], nat = [];
    cards.forEach(o => { if (o !== JK && nat.indexOf((o / 13) | 0) < 0) nat.push((o / 13) | 0); });
    var laid = nat.concat(pay.slice(1)).sort();
    arr = laid.map(s => s * 13 + rank - 1);
    pts = laid.map(s => jv === null || nat.indexOf(s) >= 0 ? v : jv);
  }
  out = {valid: true, kind: best[1] ? "set" : "sequence", points: best[0], reason: null,
    jokers: best[2].map(k => (k & 3) * 13 + (k >> 2) - 1),
    arrangement: arr, card_points: pts};
  return out;
}

/* opening.py evaluate_opening */
export function opening(melds, R) {
  var results = melds.map(cards => meld(cards, R)), total = 0, reasons = [],
    pure = false, counts = {}, copies = false;
  results.forEach((r, i) => {
    total += r.points;
    if (r.valid && r.kind === "sequence" && melds[i].length >= 3 && !r.jokers.length) pure = true;
    melds[i].forEach(o => {
      counts[o] = (counts[o] || 0) + 1;
      if (counts[o] > (o === JK ? R.jokers : R.decks)) copies = true;
    });
  });
  if (!results.length) reasons.push("no_melds");
  if (results.some(r => !r.valid)) reasons.push("invalid_meld");
  if (copies) reasons.push("too_many_copies");
  var threshold = R.opening_threshold;
  if (threshold !== null && total < threshold) reasons.push("below_threshold");
  if (R.pure_sequence_required && !pure) reasons.push("no_pure_sequence");
  return {total: total, threshold: threshold, accepted: !reasons.length, pure_sequence: pure,
    reasons: reasons, melds: results};
}


