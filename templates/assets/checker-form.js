// The checker's form on a page (templates/_checker.html): the meld fields and their chips,
// the card picker, the verdicts, the #try= links, and every verified row recomputed. The
// rules are checker-core.js's, the reader's notation checker-notation.js's; every word comes
// from the page's checker-text block (the catalogs). Without JavaScript the form stays
// hidden and the page says so.

import { JK, code, init, meld, opening, parseCard } from "./checker-core.js";
import { letters, notation, readField, show } from "./checker-notation.js";
import { LINKS } from "./lib/facts.js";
import { FACES, LABELS, RANKS, SIGNS, SUITS, cardName, chips, isRed } from "./lib/cards.js";
import { addStylesheet, dropFragment, el, named, offers, pageData, say } from "./lib/elements.js";
import { words } from "./lib/text.js";

const TRY = LINKS.try, TRIED = "#" + TRY.key + "=";  // the checker's links
const fmt = words(document.documentElement.lang).fill;

// each profile's fields: the game's (key "") with the profile's changes
function expand(t) {
  const out = {};
  Object.keys(t).forEach(g => {
    out[g] = {};
    Object.keys(t[g]).forEach(p => { if (p) out[g][p] = Object.assign({}, t[g][""], t[g][p]); });
  });
  return out;
}

// What the form works with: its elements, its words, its rules and its state.
function context(doc, sheet) {
  const form = doc.querySelector("form[data-checker]");
  if (!form || !doc.getElementById("checker-text") || !self.RamiRules) return null;
  const T = pageData("checker-text"), RULES = expand(self.RamiRules);
  const q = s => form.querySelector(s);
  const c = {doc, sheet, form, T, RULES, N: notation(T), q, box: q("[data-melds]"),
    game: [...form.game.options].find(o => o.defaultSelected)?.value ?? form.game.value,
    results: q("[data-results]"), picker: q("[data-picker]"), damagedBox: q("[data-damaged]"),
    outBox: q("[data-out]"), addButton: q("[data-add]"), one: T.mode !== "opening", out: {},
    active: 0, fields: [], MAXC: 0};
  Object.keys(RULES).forEach(g => {
    Object.keys(RULES[g]).forEach(p => {
      const R = RULES[g][p];
      c.MAXC = Math.max(c.MAXC, R.deck_cards);
    });
  });
  c.MAXM = c.one ? 1 : Math.floor(c.MAXC / 3);  // as many melds as the packs allow
  c.MAXLEN = 12 * c.MAXC + 200;  // a link that long is refused before it is read
  ["total", "threshold", "verdict"].forEach(f => { c.out[f] = q(`[data-field="${f}"]`); });
  return c;
}

const name = (c, o) => cardName(code(o), c.T);

function rules(c) {
  const g = c.RULES[c.form.game.value] || c.RULES[c.game];
  return g[c.form.profile.value] || g[Object.keys(g)[0]];
}

// a symbol shown, and its name for screen readers
const symbolButton = (c, text, label, attrs) => named("button", {type: "button", ...attrs}, text, label);

// one meld's field, numbered n, with its chips and its message
function field(c, value, i) {
  const n = i + 1, id = "ck-meld-" + n, row = el("div", {"class": "ck-meld", "data-meld": ""}),
    input = el("input", {id, type: "text", autocomplete: "off", spellcheck: "false",
      autocapitalize: "characters", "aria-describedby": id + "-e"}),
    err = el("span", {id: id + "-e", "class": "ck-error", "aria-live": "polite"}),
    cards = el("span", {"class": "ck-chips"});
  input.value = value;
  input.addEventListener("focus", () => { c.active = i; label(c); });
  row.append(el("label", {"for": id}, fmt(c.T.meld, {n})), " ", input);
  if (!c.one) {
    const x = symbolButton(c, "\u00d7", fmt(c.T.remove, {n}), {"class": "ck-remove", "data-remove": ""});
    x.addEventListener("click", () => { remove(c, i); });
    row.append(" ", x);
  }
  row.append(cards, err);
  return {input, err, chips: cards, row};
}

// the meld fields, numbered 1.. (none empty but the last)
function build(c, values, focus) {
  c.box.textContent = "";
  c.fields = values.map((v, i) => field(c, v, i));
  c.fields.forEach(f => c.box.append(f.row));
  if (c.addButton) c.addButton.disabled = c.fields.length >= c.MAXM;
  c.active = Math.min(c.active, c.fields.length - 1);
  label(c);
  update(c);
  if (focus !== undefined) c.fields[Math.min(focus, c.fields.length - 1)].input.focus();
}

const values = c => c.fields.map(f => f.input.value);

function remove(c, i) {
  const v = values(c);
  v.splice(i, 1);
  build(c, v.length ? v : [""], Math.max(0, i - 1));
  share(c);
}

function label(c) { c.picker.setAttribute("aria-label", fmt(c.T.picker, {n: c.active + 1})); }

function setOut(c, f, value, text, cls) {
  if (!c.out[f]) return;
  c.out[f].setAttribute("data-value", value);
  c.out[f].textContent = "";
  c.out[f].append(cls ? el("strong", {"class": "verdict " + cls}, text) : text);
}

const suitWords = c => [...SUITS].map(x => c.T.suits[x]).join(" / ");

// one field's message: what cannot be read, or a card used more often than the packs hold
function message(c, r, i, used, counts, R) {
  const T = c.T;
  if (r.over) return T.reasons.too_long;
  if (r.bad !== null) {
    return r.letter ? fmt(T.ambiguous, {token: r.bad, letter: r.letter, suits: suitWords(c)})
      : fmt(T.bad, {token: r.bad});
  }
  if (!r.cards.length && i < used) return T.empty;
  let msg = "";
  r.cards.forEach(o => {
    counts[o] = (counts[o] || 0) + 1;
    if (counts[o] > (o === JK ? R.jokers : R.decks)) msg = msg || fmt(T.copies, {card: name(c, o)});
  });
  return msg;
}

// every field read: {melds: [[field index, cards]], broken: whether one cannot be, R}
function read(c) {
  const R = rules(c), melds = [], counts = {};
  let broken = false, used = -1;
  c.fields.forEach((f, i) => { if (f.input.value.trim()) used = i; });  // an empty one before is wrong
  c.fields.forEach((f, i) => {
    const r = readField(f.input.value, c.N, c.MAXC), cards = r.cards.filter(o => o >= 0);
    const msg = message(c, r, i, used, counts, R);
    if (r.over || r.bad !== null || (!r.cards.length && i < used)) broken = true;
    else if (r.cards.length) melds.push([i, r.cards]);
    f.err.textContent = msg;
    f.input.setAttribute("aria-invalid", msg ? "true" : "false");
    f.row.setAttribute("data-cards", cards.map(code).join(" "));
    f.chips.textContent = "";
    if (cards.length) f.chips.append(chips(cards.map(code), c.T));
  });
  return {melds, broken, R};
}

// one meld's verdict, as a list item
function verdictItem(c, m, n, cards) {
  const T = c.T, parts = [], li = el("li", {"data-field": "meld", "data-valid": String(m.valid),
    "data-kind": m.kind || "", "data-points": m.points, "data-reason": m.reason || ""});
  if (m.valid) {
    parts.push(T.kinds[m.kind === "set" && cards.length === 4 ? "four" : m.kind], T.points + ": " + m.points);
    m.jokers.forEach(o => { parts.push(fmt(T.jokeras, {card: name(c, o)})); });
  } else parts.push(T.reasons[m.reason] || m.reason);
  li.append(fmt(T.meld, {n}) + ": ",
    el("strong", {"class": "verdict " + (m.valid ? "ok" : "no")}, m.valid ? T.valid : T.invalid),
    ", " + parts.join(", "));
  return li;
}

// each readable meld's verdict; the first meld's total and verdict only if all are readable
function update(c) {
  const s = read(c), melds = s.melds, T = c.T;
  c.results.textContent = "";
  ["total", "threshold", "verdict"].forEach(f => { setOut(c, f, "", ""); });
  if (!melds.length) return;
  const r = opening(melds.map(m => m[1]), s.R);
  r.melds.forEach((m, j) => { c.results.append(verdictItem(c, m, melds[j][0] + 1, melds[j][1])); });
  if (s.broken) return;
  setOut(c, "total", r.total, String(r.total));
  setOut(c, "threshold", r.threshold === null ? "" : r.threshold,
    r.threshold === null ? T.none : fmt(T.threshold, {n: r.threshold}));
  setOut(c, "verdict", r.accepted ? "accepted" : "rejected", (r.accepted ? T.accepted : T.rejected) +
    (r.reasons.length ? ": " + r.reasons.map(x => T.reasons[x] || x).join(", ") : ""),
    r.accepted ? "ok" : "no");
}

// the address: the melds in card codes, or none while a field is wrong
function share(c) {
  const s = read(c), melds = s.melds.map(m => m[1].map(code).join(TRY.cards));
  let url = location.pathname + location.search;
  if (!s.broken && melds.length) {
    url += TRIED + [c.form.game.value, c.form.profile.value,
      melds.join(encodeURIComponent(TRY.melds))].join(TRY.fields);
  }
  history.replaceState(null, "", url);
}


const damaged = (c, on) => say(c.damagedBox, on ? c.T.damaged : "");

// a #try= fragment: game[:profile]:melds in card codes, each value checked, never put in a
// selector; anything else is a damaged link (null)
function parseTry(c, raw) {
  if (raw.length > c.MAXLEN) return null;
  let value;
  try { value = decodeURIComponent(raw); } catch { return null; }
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/.test(value)) return null;
  const form = c.form, parts = value.split(TRY.cards).join(" ").split(TRY.fields), melds = [];
  if (parts.length < 2 || parts.length > 3 || !offers(form.game, parts[0])) return null;
  let profile = parts.length === 3 ? parts[1]
    : form.profile.options ? form.profile.options[0].value : form.profile.value;
  profile = Object.hasOwn(c.T.alias, profile) ? c.T.alias[profile] : null;
  if (!profile || !offers(form.profile, profile)) return null;
  const list = parts[parts.length - 1].split(TRY.melds);
  if (list.length > c.MAXM) return null;
  let total = 0;
  for (const text of list) {
    const cards = text.split(" ").filter(Boolean).map(parseCard);
    total += cards.length;
    if (!cards.length || total > c.MAXC || cards.indexOf(-1) >= 0) return null;
    melds.push(cards);
  }
  return {game: parts[0], profile, melds};
}

function fromHash(c, scroll) {
  const h = location.hash;
  if (!h.startsWith(TRIED)) return;
  let t = null;
  try { t = parseTry(c, h.slice(TRIED.length)); } catch { t = null; }
  damaged(c, !t);
  if (!t) {
    c.form.game.value = c.game;
    if (c.form.profile.options) c.form.profile.selectedIndex = 0;
    build(c, [""]);
    dropFragment();
    if (scroll) c.damagedBox.scrollIntoView({block: "center"});
    return;
  }
  c.form.game.value = t.game;
  c.form.profile.value = t.profile;
  c.active = 0;
  build(c, t.melds.map(m => m.map(o => show(o, c.N)).join(" ")));
  if (scroll) reveal(c);
}

// the melds and their verdict in view, on a phone too
function reveal(c) {
  if (c.sheet && !c.sheet.ready) c.sheet.addEventListener("load", () => reveal(c), {once: true});
  c.box.scrollIntoView({block: "start"});
  const bottom = c.outBox.getBoundingClientRect().bottom, top = c.box.getBoundingClientRect().top;
  if (bottom > innerHeight) scrollBy(0, Math.min(bottom - innerHeight + 8, top));
}

// the hint (an example, and the suits' written form) and the key of letters
function fillHint(c) {
  const T = c.T, N = c.N, key = [];
  const ex = ["QH", "KH", "AH"].map(t => show(parseCard(t), N)).join(" ");
  c.q("[data-hint]").textContent = fmt(T.hint, {example: ex}) + " " + fmt(T.suitwords, {suits: suitWords(c)});
  const faces = Object.keys(FACES).map(Number);  // the aces after the court cards
  faces.push(faces.shift());
  faces.forEach(r => {
    key.push(letters(N, "rank", r).sort((a, b) => (b === FACES[r]) - (a === FACES[r])).join(" / ")
      + " = " + T.ranks[r]);
  });
  const suits = [...SUITS].map((x, s) => [SIGNS[s]].concat(letters(N, "suit", s)).join(" / ")
    + " = " + T.suits[SUITS[s]]);
  c.q("[data-key]").textContent = T.key + " " + key.join(", ") + " · " + suits.join(", ") + " · "
    + (N.jk ? "JK = " : "") + T.joker;
}

// the picker: a card grid with one tab stop, moved with the arrow keys
function picker(c) {
  const buttons = [];
  const pick = (line, o, text, red) => {
    const b = symbolButton(c, text, name(c, o), {"data-card": code(o)});
    if (red) b.className = "red";
    line.append(b);
    return b;
  };
  [...SUITS].forEach((suit, s) => {
    const line = el("div");
    for (let r = 1; r <= RANKS; r++) buttons.push(pick(line, s * RANKS + r - 1, LABELS[r] + SIGNS[s], isRed(suit)));
    c.picker.append(line);
  });
  const line = el("div");  // the joker: its name, as in the tables (no "J" for a jack)
  buttons.push(pick(line, JK, c.T.joker));
  line.lastChild.className = "joker";
  const back = symbolButton(c, "\u232B", c.T.back, {"data-back": ""});
  line.append(back);
  buttons.push(back);
  c.picker.append(line);
  buttons.forEach((b, i) => { b.tabIndex = i ? -1 : 0; });
  c.picker.addEventListener("click", e => picked(c, e.target.closest("button")));
  c.picker.addEventListener("keydown", e => {
    const i = buttons.indexOf(c.doc.activeElement), to = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -RANKS,
      ArrowDown: RANKS, Home: -i, End: buttons.length - 1 - i}[e.key];
    if (i < 0 || to === undefined) return;
    e.preventDefault();
    const j = Math.max(0, Math.min(buttons.length - 1, i + to));
    buttons[i].tabIndex = -1;
    buttons[j].tabIndex = 0;
    buttons[j].focus();
  });
}

function picked(c, b) {
  if (!b || !c.fields[c.active]) return;
  const input = c.fields[c.active].input, tokens = input.value.trim().split(/\s+/).filter(Boolean);
  if (b.hasAttribute("data-back")) tokens.pop();
  else tokens.push(show(parseCard(b.getAttribute("data-card")), c.N));
  input.value = tokens.join(" ");
  damaged(c, false);
  update(c);
  share(c);
}

function listen(c) {
  const form = c.form;
  form.addEventListener("input", () => { damaged(c, false); update(c); });  // the address at "change"
  form.addEventListener("change", () => { update(c); share(c); });
  form.addEventListener("submit", e => { e.preventDefault(); });
  if (c.addButton) c.addButton.addEventListener("click", () => {
    if (c.fields.length < c.MAXM) build(c, values(c).concat([""]), c.fields.length);
  });
  c.q("[data-clear]").addEventListener("click", () => { damaged(c, false); build(c, [""], 0); share(c); });
  // a "Try it" link followed: the checker filled in, and the keyboard's focus taken there
  // (its heading's link, so that a phone opens no keyboard)
  const heading = form.parentNode.querySelector("h2 a");
  const tried = () => { fromHash(c, true); if (heading) heading.focus({preventScroll: true}); };
  addEventListener("hashchange", () => { if (location.hash.startsWith(TRIED)) tried(); });
  c.doc.addEventListener("click", e => {  // the same link again: no hashchange, fill it anyway
    const a = e.target.closest && e.target.closest("a.try");
    if (a && a.hash === location.hash) tried();
  });
}

// a verified row's claim, recomputed: "verdict kind-or-reason points" (a meld) or
// "verdict total threshold" (a first meld)
function recomputed(c, tr) {
  const t = decodeURIComponent(tr.querySelector("a.try").hash.slice(TRIED.length))
      .split(TRY.cards).join(" ").split(TRY.fields),
    R = c.RULES[t[0]][t[1]], melds = t[2].split(TRY.melds).map(m => m.split(" ").map(parseCard));
  let got;
  if (/^(acc|rej)/.test(tr.getAttribute("data-claim"))) {
    const o = opening(melds, R);
    got = [o.accepted ? "accepted" : "rejected", o.total, o.threshold === null ? "-" : o.threshold];
  } else {
    const m = meld(melds[0], R);
    got = [m.valid ? "valid" : "invalid", m.kind || m.reason, m.points];
  }
  return got.join(" ") === tr.getAttribute("data-claim");
}

// every verified row of the page, recomputed here: a row that differs says so; a table whose
// rows all agree says it once, below it
function recompute(c) {
  c.doc.querySelectorAll("tr[data-claim]").forEach(tr => {
    let same = false;
    try { same = recomputed(c, tr); } catch { same = false; }
    tr.setAttribute("data-recomputed", same ? "same" : "differs");
    if (!same) tr.querySelector("th").append(" ", el("span", {"class": "recomputed"}, "\u2717 " + c.T.differs));
  });
  c.doc.querySelectorAll("table.examples").forEach(table => {
    const rows = table.querySelectorAll("tr[data-claim]");
    if (rows.length && !table.querySelector("tr[data-recomputed=differs]")) {
      table.after(el("p", {"class": "recomputed table-note"}, "\u2713 " + c.T.same));
    }
  });
}

function page(doc, sheet) {
  const c = context(doc, sheet);
  if (!c) return;
  picker(c);
  listen(c);
  fillHint(c);
  build(c, [""]);
  recompute(c);
  c.form.hidden = false;
  const off = doc.querySelector(".checker-off");
  if (off) off.remove();
  fromHash(c, true);
}

// the checker's stylesheet, which shows the "Try it" links; then the form
if (self.RamiConstants) {
  init(self.RamiConstants);
  const sheet = addStylesheet(new URL("checker.css", import.meta.url).href);
  sheet.addEventListener("load", () => { sheet.ready = true; }, {once: true});
  page(document, sheet);
}
