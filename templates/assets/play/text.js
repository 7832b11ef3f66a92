// The practice table's words (templates/_play.html hands them over as JSON) and its cards,
// drawn as the tables draw them (templates/_cards.html): one image per group of cards,
// named in the page's language. Nothing here reads the page's markup.

const FACES = {1: "A", 11: "J", 12: "Q", 13: "K"};
const SYMBOLS = {C: "♣", D: "♦", H: "♥", S: "♠"};
const LETTERS = {A: 1, J: 11, Q: 12, K: 13};
export const SUIT_ORDER = "CDHS";

/** A card code of the engine ("10H", "QS", "JK") as {rank, suit}, or null. */
export function parseCode(code) {
  if (code === "JK") return {rank: 0, suit: ""};
  const m = /^(10|[2-9]|[AJQK])([CDHS])$/.exec(String(code));
  if (!m) return null;
  return {rank: LETTERS[m[1]] || Number(m[1]), suit: m[2]};
}

export function makeText(T, lang) {
  const plurals = new Intl.PluralRules(lang);
  const numbers = new Intl.NumberFormat(lang);
  function fmt(s, values) {
    return String(s).replace(/\{(\w+)\}/g, (m, k) => {
      if (!values || !Object.hasOwn(values, k)) return m;
      const v = values[k];
      return typeof v === "number" ? numbers.format(v) : String(v);
    });
  }
  function count(forms, n, values) {
    const form = forms[plurals.select(n)] ?? forms.other ?? Object.values(forms)[0];
    return fmt(form, Object.assign({n, count: n}, values || {}));
  }
  function cardName(code) {
    const c = parseCode(code);
    if (!c) return String(code);
    if (!c.rank) return T.joker;
    return fmt(T.card, {rank: T.ranks[c.rank], suit: T.suits[c.suit]});
  }
  function seatName(seat, view) {
    if (seat === view.seat) return T.you;
    return fmt(T.computer, {n: seat + 1, level: T.levels[view.levels[seat]] || ""});
  }
  return {T, fmt, count, cardName, seatName, lang};
}

/** One card's face: <i> for a red suit, <b> for a black one, the joker by its name. */
export function chip(doc, code, text) {
  const c = parseCode(code);
  if (!c || !c.rank) {
    const b = doc.createElement("b");
    b.className = "joker";
    b.textContent = text.T.joker;
    return b;
  }
  const e = doc.createElement(c.suit === "D" || c.suit === "H" ? "i" : "b");
  e.textContent = (FACES[c.rank] || String(c.rank)) + SYMBOLS[c.suit];
  return e;
}

/** A group of cards as one image, named card by card ("queen of hearts, joker"). */
export function chips(doc, codes, text) {
  const span = doc.createElement("span");
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", codes.map(text.cardName).join(", "));
  codes.forEach(code => span.append(chip(doc, code, text)));
  return span;
}

/** The cards' order in the hand: by suit (then rank) or by rank (then suit); jokers last. */
export function sortKey(code, by) {
  const c = parseCode(code) || {rank: 99, suit: ""};
  const rank = c.rank || 99, suit = c.suit ? SUIT_ORDER.indexOf(c.suit) : 9;
  return by === "rank" ? rank * 10 + suit : suit * 100 + rank;
}
