/* The meld and first-meld checker: a port of site_builder/engine (cards.py, melds.py,
   opening.py) for the reader's browser, and the form that uses it. The rule numbers and the
   constant tables (card values, labels, suit signs, the joker's ordinal, the letters folded
   when reading) come from checker-rules.js, written by the build from the engine
   (site_builder/render/checker_rules.py); tests/test_checker_js.py proves this code equal
   to the engine on every field, and says when the engine files it mirrors change.
   A card is its ordinal: suit*13+rank-1 (suits in the engine's order), the joker after. */
(root => {
"use strict";
var JK, SUITS, GLYPHS, LABELS, RANKS, JOKERS, PV, SETV, PRE, FOLD, BLACK;
/* the engine's constant tables (checker_rules.constants) */
function init(C) {
  JK = C.joker; SUITS = C.suits; GLYPHS = C.glyphs; LABELS = C.labels; RANKS = C.rank_tokens;
  JOKERS = C.joker_tokens; PV = C.position_value; SETV = C.set_value; FOLD = C.fold;
  BLACK = GLYPHS.slice(0, 4);
  PRE = [0];
  for (var i = 1; i < PV.length; i++) PRE[i] = PRE[i - 1] + PV[i];
}
function own(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
/* a word as a phone keyboard may type it: lower case, without marks, ł as l, đ as d */
function fold(t) {
  return String(t).normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/./gu, c => (own(FOLD, c) ? FOLD[c] : c));
}

function code(o) { return o === JK ? "JK" : LABELS[o % 13 + 1] + SUITS[(o / 13) | 0]; }

/* cards.py _lookup: one token, or -1 */
function parseCard(token) {
  var t = String(token).trim().toUpperCase(), s, r, last;
  if (/[\uFE0E\uFE0F]$/.test(t) && (SUITS + GLYPHS).indexOf(t.slice(-2, -1)) >= 0 && t.length > 1)
    t = t.slice(0, -1);
  if (JOKERS.indexOf(t) >= 0) return JK;
  last = t.slice(-1);
  s = last ? SUITS.indexOf(last) : -1;
  if (s < 0 && last) { s = GLYPHS.indexOf(last); if (s >= 0) s %= 4; }
  r = own(RANKS, t.slice(0, -1)) ? RANKS[t.slice(0, -1)] : -1;
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

function meld(cards, R) {
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
function opening(melds, R) {
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


/* ---- the reader's notation: letters and names from the page's catalog (checker-text) ---- */
var EN = {ranks: {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}, suits: {C: "C", D: "D", H: "H", S: "S"}},
  FACES = {1: "A", 11: "J", 12: "Q", 13: "K"};
function up(t) { return String(t).normalize("NFC").toUpperCase(); }
/* which letter means which rank or suit: the language's own (T.letters), then the English
   ones that mean nothing else in it; a letter with two meanings is refused ("blocked") */
function notation(T) {
  var L = T.letters || EN, local = {rank: {}, suit: {}}, N = {rank: {}, suit: {}, blocked: {},
    names: Object.create(null), longest: 1, joker: up(T.joker || "joker"), T: T,
    jokerFolded: fold(T.joker || "joker")};
  function add(role, letters, meaning) {
    String(letters).split(/\s+/).forEach(l => {
      l = up(l);
      if (!/^\p{L}$/u.test(l)) return;
      (local[role][l] = local[role][l] || []).indexOf(meaning) < 0 && local[role][l].push(meaning);
    });
  }
  Object.keys(L.ranks || {}).forEach(r => { add("rank", L.ranks[r], +r); });
  Object.keys(L.suits || {}).forEach(s => { add("suit", L.suits[s], SUITS.indexOf(s)); });
  ["rank", "suit"].forEach(role => {
    var other = role === "rank" ? "suit" : "rank";
    Object.keys(local[role]).forEach(l => {
      if (local[role][l].length === 1) N[role][l] = local[role][l][0]; else N.blocked[l] = 1;
    });
    var en = EN[role + "s"];
    Object.keys(en).forEach(k => {
      var l = en[k], m = role === "rank" ? +k : SUITS.indexOf(k);
      if (own(local[role], l) ? N[role][l] !== m : own(local[other], l)) N.blocked[l] = 1;
      else N[role][l] = m;
    });
  });
  // names as the tables' labels give them ("dama kier"), also with a rank's letter or number
  var seen = Object.create(null);
  for (var o = 0; o < 52; o++) {
    var r = o % 13 + 1, suit = T.suits ? T.suits[SUITS[(o / 13) | 0]] : "";
    var forms = [T.ranks ? T.ranks[r] : ""].concat(letters(N, "rank", r), r > 1 && r < 11 ? [String(r)] : []);
    forms.forEach(f => {
      if (!f || !suit) return;
      var key = fold((T.card || "{rank} of {suit}").replace("{rank}", f).replace("{suit}", suit))
        .trim().split(/[\s,;]+/).join(" ");
      if (key.indexOf(" ") < 0) return;  // a name of one word could pass for a code
      seen[key] = own(seen, key) && seen[key] !== o ? -1 : o;
    });
  }
  N.jk = !own(N.rank, "J") || !own(N.suit, "K");  // "JK" is the joker, unless it is also a jack
  Object.keys(seen).forEach(k => {
    if (seen[k] < 0) return;
    N.names[k] = seen[k];
    N.longest = Math.max(N.longest, k.split(" ").length);
  });
  return N;
}
function letters(N, role, m) { return Object.keys(N[role]).filter(l => N[role][l] === m); }
/* one token in the reader's notation: a card's ordinal, or -1 */
function parseLocal(token, N) {
  var t = up(token).trim(), s, r, rank;
  if (/[\uFE0E\uFE0F]$/.test(t) && t.length > 1 &&
      (GLYPHS.indexOf(t.slice(-2, -1)) >= 0 || own(N.suit, t.slice(-2, -1)))) t = t.slice(0, -1);
  if (t === "JK") return N.jk ? JK : -1;
  if (t === "JOKER" || t === N.joker || fold(t) === N.jokerFolded) return JK;
  s = GLYPHS.indexOf(t.slice(-1));
  if (s >= 0) s %= 4; else s = own(N.suit, t.slice(-1)) ? N.suit[t.slice(-1)] : -1;
  rank = t.slice(0, -1);
  r = /^(10|[2-9])$/.test(rank) ? +rank : own(N.rank, rank) ? N.rank[rank] : 0;
  return s < 0 || !r ? -1 : s * 13 + r - 1;
}
/* a field's text: {cards, bad (the first token that is not a card), letter (a refused
   letter in it), over (more than max tokens: not read)} */
function readField(text, N, max) {
  var words = String(text).normalize("NFC").split(/[\s,;]+/).filter(Boolean),
    lower = words.map(fold), out = {cards: [], bad: null, letter: null, over: false};
  if (words.length > max) { out.over = true; return out; }
  for (var i = 0; i < words.length;) {
    var k = Math.min(N.longest, words.length - i), o = -1;
    for (; k > 1; k--) {
      var key = lower.slice(i, i + k).join(" ");
      if (own(N.names, key)) { o = N.names[key]; break; }
    }
    if (k < 2) {
      k = 1;
      o = parseLocal(words[i], N);
      if (o < 0 && out.bad === null) {
        var t = up(words[i]).replace(/[\uFE0E\uFE0F]$/, "");
        out.bad = words[i];
        out.letter = t === "JK" ? "K" : [t.slice(-1), t.slice(0, -1)].filter(l => own(N.blocked, l))[0] || null;
      }
    }
    out.cards.push(o);
    i += k;
  }
  return out;
}
/* how the checker writes a card in a field: its face as printed (the tables' chips), in
   letters that the reader's notation reads back */
function show(o, N) {
  if (o === JK) return N.jk && (N.joker === "JOKER" || /\s/.test(N.joker)) ? "JK" : /\s/.test(N.joker) ? "joker" : N.T.joker;
  var r = o % 13 + 1, face = FACES[r];
  return (face && N.rank[face] !== r ? letters(N, "rank", r)[0] || face : face || String(r)) + BLACK[(o / 13) | 0];
}

/* ---- the form (only in a browser) ---- */
function page(doc, sheet) {
  var form = doc.querySelector("form[data-checker]"), data = doc.getElementById("checker-text");
  if (!form || !data || !root.RamiRules) return;
  var T = JSON.parse(data.textContent), RULES = expand(root.RamiRules), N = notation(T),
    q = s => form.querySelector(s), box = q("[data-melds]"), results = q("[data-results]"),
    picker = q("[data-picker]"), damagedBox = q("[data-damaged]"), outBox = q("[data-out]"),
    addButton = q("[data-add]"), one = T.mode !== "opening", out = {}, active = 0, fields = [],
    MAXC = 0, MAXM, MAXLEN;
  Object.keys(RULES).forEach(g => { Object.keys(RULES[g]).forEach(p => {
    var R = RULES[g][p]; MAXC = Math.max(MAXC, R.decks * 52 + R.jokers); }); });
  MAXM = one ? 1 : Math.floor(MAXC / 3);  // as many melds as the packs allow
  MAXLEN = 12 * MAXC + 200;  // a link that long is refused before it is read
  ["total", "threshold", "verdict"].forEach(f => { out[f] = q('[data-field="' + f + '"]'); });
  function fmt(s, o) { return String(s).replace(/\{(\w+)\}/g, (m, k) => own(o, k) ? o[k] : m); }
  function el(tag, attrs, text) {
    var e = doc.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function name(o) {
    return o === JK ? T.joker : fmt(T.card, {rank: T.ranks[o % 13 + 1], suit: T.suits[SUITS[(o / 13) | 0]]});
  }
  function expand(t) {  // each profile's fields: the game's (key "") with the profile's changes
    var out = {};
    Object.keys(t).forEach(g => { out[g] = {}; Object.keys(t[g]).forEach(p => {
      if (p) out[g][p] = Object.assign({}, t[g][""], t[g][p]); }); });
    return out;
  }
  function rules() {
    var g = RULES[form.game.value] || RULES.rami51;
    return g[form.profile.value] || g[Object.keys(g)[0]];
  }
  function chips(cards) {  // as the tables show them (_cards.html): one image, named in full
    var span = el("span", {role: "img", "aria-label": cards.map(name).join(", ")});
    cards.forEach(o => {
      if (o === JK) span.append(el("b", {"class": "joker"}, T.joker));
      else span.append(el(o >= 13 && o < 39 ? "i" : "b", {}, (FACES[o % 13 + 1] || o % 13 + 1) + BLACK[(o / 13) | 0]));
    });
    return span;
  }
  function symbolButton(text, label, attrs) {  // a symbol shown, and its name for screen readers
    var b = el("button", Object.assign({type: "button"}, attrs || {}));
    b.append(el("span", {"aria-hidden": "true"}, text), el("span", {"class": "visually-hidden"}, label));
    return b;
  }
  function build(values, focus) {  // the meld fields, numbered 1.. (none empty but the last)
    box.textContent = "";
    fields = [];
    values.forEach((v, i) => {
      var n = i + 1, id = "ck-meld-" + n, row = el("div", {"class": "ck-meld", "data-meld": ""}),
        input = el("input", {id: id, type: "text", autocomplete: "off", spellcheck: "false",
          autocapitalize: "characters", "aria-describedby": id + "-e"}),
        err = el("span", {id: id + "-e", "class": "ck-error", "aria-live": "polite"}),
        cards = el("span", {"class": "ck-chips"});
      input.value = v;
      input.addEventListener("focus", () => { active = i; label(); });
      row.append(el("label", {"for": id}, fmt(T.meld, {n: n})), " ", input);
      if (!one) {
        var x = symbolButton("\u00d7", fmt(T.remove, {n: n}), {"class": "ck-remove", "data-remove": ""});
        x.addEventListener("click", () => { remove(i); });
        row.append(" ", x);
      }
      row.append(cards, err);
      box.append(row);
      fields.push({input: input, err: err, chips: cards, row: row});
    });
    if (addButton) addButton.disabled = fields.length >= MAXM;
    active = Math.min(active, fields.length - 1);
    label();
    update();
    if (focus !== undefined) fields[Math.min(focus, fields.length - 1)].input.focus();
  }
  function values() { return fields.map(f => f.input.value); }
  function remove(i) {
    var v = values();
    v.splice(i, 1);
    build(v.length ? v : [""], Math.max(0, i - 1));
    share();
  }
  function label() { picker.setAttribute("aria-label", fmt(T.picker, {n: active + 1})); }
  function setOut(f, value, text, cls) {
    if (!out[f]) return;
    out[f].setAttribute("data-value", value);
    out[f].textContent = "";
    out[f].append(cls ? el("strong", {"class": "verdict " + cls}, text) : text);
  }
  function read() {  // every field read: [[field index, cards]], and whether one cannot be
    var R = rules(), melds = [], counts = {}, broken = false, used = -1;
    fields.forEach((f, i) => { if (f.input.value.trim()) used = i; });  // an empty field before it is an error
    fields.forEach((f, i) => {
      var r = readField(f.input.value, N, MAXC), msg = "", cards = r.cards.filter(o => o >= 0);
      if (r.over) msg = T.reasons.too_long;
      else if (r.bad !== null) msg = r.letter ? fmt(T.ambiguous, {token: r.bad, letter: r.letter, suits: suitWords()})
        : fmt(T.bad, {token: r.bad});
      else if (!r.cards.length && i < used) msg = T.empty;
      if (!msg) cards.forEach(o => {
        counts[o] = (counts[o] || 0) + 1;
        if (counts[o] > (o === JK ? R.jokers : R.decks)) msg = msg || fmt(T.copies, {card: name(o)});
      });
      if (r.over || r.bad !== null || (!r.cards.length && i < used)) broken = true;
      else if (r.cards.length) melds.push([i, r.cards]);
      f.err.textContent = msg;
      f.input.setAttribute("aria-invalid", msg ? "true" : "false");
      f.row.setAttribute("data-cards", cards.map(code).join(" "));
      f.chips.textContent = "";
      if (cards.length) f.chips.append(chips(cards));
    });
    return {melds: melds, broken: broken, R: R};
  }
  function update() {  // each readable meld's verdict; the first meld's only if all are
    var s = read(), melds = s.melds;
    results.textContent = "";
    ["total", "threshold", "verdict"].forEach(f => { setOut(f, "", ""); });
    if (!melds.length) return;
    var r = opening(melds.map(m => m[1]), s.R);
    r.melds.forEach((m, j) => {
      var n = melds[j][1].length, li = el("li", {"data-field": "meld", "data-valid": String(m.valid),
        "data-kind": m.kind || "", "data-points": m.points, "data-reason": m.reason || ""}), parts = [];
      if (m.valid) {
        parts.push(T.kinds[m.kind === "set" && n === 4 ? "four" : m.kind], T.points + ": " + m.points);
        m.jokers.forEach(o => { parts.push(fmt(T.jokeras, {card: name(o)})); });
      } else parts.push(T.reasons[m.reason] || m.reason);
      li.append(fmt(T.meld, {n: melds[j][0] + 1}) + ": ",
        el("strong", {"class": "verdict " + (m.valid ? "ok" : "no")}, m.valid ? T.valid : T.invalid),
        ", " + parts.join(", "));
      results.append(li);
    });
    if (s.broken) return;  // no total or verdict while a meld cannot be read
    setOut("total", r.total, String(r.total));
    setOut("threshold", r.threshold === null ? "" : r.threshold,
      r.threshold === null ? T.none : fmt(T.threshold, {n: r.threshold}));
    setOut("verdict", r.accepted ? "accepted" : "rejected", (r.accepted ? T.accepted : T.rejected) +
      (r.reasons.length ? ": " + r.reasons.map(x => T.reasons[x] || x).join(", ") : ""), r.accepted ? "ok" : "no");
  }
  function share() {  // the address: the melds in card codes, or none while a field is wrong
    var s = read(), melds = s.melds.map(m => m[1].map(code).join("+")), url = location.pathname + location.search;
    if (!s.broken && melds.length) url += "#try=" + form.game.value + ":" + form.profile.value + ":" + melds.join("%7C");
    history.replaceState(null, "", url);
  }
  function hasOption(select, value) {
    return select.type === "hidden" ? select.value === value : [].some.call(select.options, o => o.value === value);
  }
  function damaged(on) {
    damagedBox.hidden = !on;
    damagedBox.textContent = on ? T.damaged : "";
  }
  /* a #try= fragment: game[:profile]:melds in card codes, each value checked, never put in a
     selector; anything else is a damaged link */
  function parseTry(raw) {
    if (raw.length > MAXLEN) return null;
    var value;
    try { value = decodeURIComponent(raw); } catch (e) { return null; }
    if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/.test(value)) return null;
    var parts = value.replace(/\+/g, " ").split(":"), total = 0, melds = [];
    if (parts.length < 2 || parts.length > 3 || !hasOption(form.game, parts[0])) return null;
    var profile = parts.length === 3 ? parts[1] : form.profile.options ? form.profile.options[0].value : form.profile.value;
    profile = own(T.alias, profile) ? T.alias[profile] : null;
    if (!profile || !hasOption(form.profile, profile)) return null;
    var list = parts[parts.length - 1].split("|");
    if (list.length > MAXM) return null;
    for (var i = 0; i < list.length; i++) {
      var tokens = list[i].split(" ").filter(Boolean), cards = tokens.map(parseCard);
      total += cards.length;
      if (!cards.length || total > MAXC || cards.indexOf(-1) >= 0) return null;
      melds.push(cards);
    }
    return {game: parts[0], profile: profile, melds: melds};
  }
  function fromHash(scroll) {
    var h = location.hash;
    if (h.indexOf("#try=") !== 0) return;
    var t = null;
    try { t = parseTry(h.slice(5)); } catch (e) { t = null; }
    damaged(!t);
    if (!t) {
      form.game.value = "rami51";
      if (form.profile.options) form.profile.selectedIndex = 0;
      build([""]);
      history.replaceState(null, "", location.pathname + location.search);
      if (scroll) damagedBox.scrollIntoView({block: "center"});
      return;
    }
    form.game.value = t.game;
    form.profile.value = t.profile;
    active = 0;
    build(t.melds.map(m => m.map(o => show(o, N)).join(" ")));
    if (scroll) reveal();
  }
  function reveal() {  // the melds and their verdict in view, on a phone too
    if (sheet && !sheet.ready) sheet.addEventListener("load", reveal, {once: true});  // again once laid out
    box.scrollIntoView({block: "start"});
    var bottom = outBox.getBoundingClientRect().bottom, top = box.getBoundingClientRect().top;
    if (bottom > innerHeight) scrollBy(0, Math.min(bottom - innerHeight + 8, top));
  }
  function suitWords() { return SUITS.split("").map(x => T.suits[x]).join(" / "); }
  function fillHint() {
    var ex = [parseCard("QH"), parseCard("KH"), parseCard("AH")].map(o => show(o, N)).join(" "), key = [];
    q("[data-hint]").textContent = fmt(T.hint, {example: ex}) + " " + fmt(T.suitwords, {suits: suitWords()});
    [11, 12, 13, 1].forEach(r => { key.push(letters(N, "rank", r).sort((a, b) => (b === FACES[r]) - (a === FACES[r])).join(" / ") + " = " + T.ranks[r]); });
    var suits = [0, 1, 2, 3].map(s => [BLACK[s]].concat(letters(N, "suit", s)).join(" / ") + " = " + T.suits[SUITS[s]]);
    q("[data-key]").textContent = T.key + " " + key.join(", ") + " · " + suits.join(", ") + " · " + (N.jk ? "JK = " : "") + T.joker;
  }
  // the picker: a card grid with one tab stop, moved with the arrow keys
  var buttons = [], line;
  for (var s = 0; s < 4; s++) {
    line = el("div");
    for (var r = 1; r < 14; r++) buttons.push(pick(line, s * 13 + r - 1, (FACES[r] || r) + GLYPHS[s], s === 1 || s === 2));
    picker.append(line);
  }
  line = el("div");  // the joker: its name, as in the tables (no "J" for a jack)
  buttons.push(pick(line, JK, T.joker));
  line.lastChild.className = "joker";
  var back = symbolButton("\u232B", T.back, {"data-back": ""});
  line.append(back);
  buttons.push(back);
  picker.append(line);
  buttons.forEach((b, i) => { b.tabIndex = i ? -1 : 0; });
  function pick(line, o, text, red) {
    var b = symbolButton(text, name(o), {"data-card": code(o)});
    if (red) b.className = "red";
    line.append(b);
    return b;
  }
  picker.addEventListener("click", e => {
    var b = e.target.closest("button");
    if (!b || !fields[active]) return;
    var input = fields[active].input, tokens = input.value.trim().split(/\s+/).filter(Boolean);
    if (b.hasAttribute("data-back")) tokens.pop(); else tokens.push(show(parseCard(b.getAttribute("data-card")), N));
    input.value = tokens.join(" ");
    damaged(false);
    update();
    share();
  });
  picker.addEventListener("keydown", e => {
    var i = buttons.indexOf(doc.activeElement), to = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -13, ArrowDown: 13,
      Home: -i, End: buttons.length - 1 - i}[e.key];
    if (i < 0 || to === undefined) return;
    e.preventDefault();
    var j = Math.max(0, Math.min(buttons.length - 1, i + to));
    buttons[i].tabIndex = -1;
    buttons[j].tabIndex = 0;
    buttons[j].focus();
  });
  form.addEventListener("input", () => { damaged(false); update(); });  // the address follows at "change"
  form.addEventListener("change", () => { update(); share(); });
  form.addEventListener("submit", e => { e.preventDefault(); });
  if (addButton) addButton.addEventListener("click", () => {
    if (fields.length < MAXM) build(values().concat([""]), fields.length);
  });
  q("[data-clear]").addEventListener("click", () => { damaged(false); build([""], 0); share(); });
  // a "Try it" link followed: the checker filled in, and the keyboard's focus taken there
  // (its heading's link, so that a phone opens no keyboard)
  var heading = form.parentNode.querySelector("h2 a");
  function tried() { fromHash(true); if (heading) heading.focus({preventScroll: true}); }
  window.addEventListener("hashchange", () => { if (location.hash.indexOf("#try=") === 0) tried(); });
  doc.addEventListener("click", e => {  // the same link again: no hashchange, fill it anyway
    var a = e.target.closest && e.target.closest("a.try");
    if (a && a.hash === location.hash) tried();
  });
  fillHint();
  build([""]);
  // every verified row of the page, recomputed here: its claim is "verdict kind-or-reason
  // points" (a meld) or "verdict total threshold" (a first meld)
  doc.querySelectorAll("tr[data-claim]").forEach(tr => {
    var same = false;
    try {
      var t = decodeURIComponent(tr.querySelector("a.try").hash.slice(5)).replace(/\+/g, " ").split(":"),
        R = RULES[t[0]][t[1]], melds = t[2].split("|").map(m => m.split(" ").map(parseCard)), got;
      if (/^(acc|rej)/.test(tr.getAttribute("data-claim"))) {
        var o = opening(melds, R);
        got = [o.accepted ? "accepted" : "rejected", o.total, o.threshold === null ? "-" : o.threshold];
      } else {
        var m = meld(melds[0], R);
        got = [m.valid ? "valid" : "invalid", m.kind || m.reason, m.points];
      }
      same = got.join(" ") === tr.getAttribute("data-claim");
    } catch (e) { same = false; }
    tr.setAttribute("data-recomputed", same ? "same" : "differs");
    // a row that differs says so; a table whose rows all agree says it once, below it
    if (!same) tr.querySelector("th").append(" ", el("span", {"class": "recomputed"}, "\u2717 " + T.differs));
  });
  doc.querySelectorAll("table.examples").forEach(table => {
    var rows = table.querySelectorAll("tr[data-claim]");
    if (rows.length && !table.querySelector("tr[data-recomputed=differs]"))
      table.after(el("p", {"class": "recomputed table-note"}, "\u2713 " + T.same));
  });
  form.hidden = false;
  var off = doc.querySelector(".checker-off");
  if (off) off.remove();
  fromHash(true);
}

var api = {init: init, code: code, parseCard: parseCard, meld: meld, opening: opening,
  notation: notation, parseLocal: parseLocal, readField: readField, show: show, fold: fold};
if (typeof module === "object" && module.exports) module.exports = api;
else if (root.RamiConstants) {
  init(root.RamiConstants);
  root.RamiChecker = api;
  var css = document.currentScript && document.currentScript.src.replace(/checker\.js[^/]*$/, "checker.css"),
    sheet = css && Object.assign(document.createElement("link"), {rel: "stylesheet", href: css});
  if (sheet) {
    sheet.addEventListener("load", () => { sheet.ready = true; }, {once: true});
    document.head.append(sheet);
  }
  page(document, sheet);
}
})(this);
