// The reader's notation: the letters and card names of the page's language (its catalog,
// through the checker-text block), read into cards and written back (checker-core.js).
// The English letters, the faces and the joker's words are the engine's (lib/cards.js).

import { GLYPHS, JK, SUITS } from "./checker-core.js";
import { FACES, JOKER, JOKER_TOKENS, LABELS, LETTERS, PACK, RANKS, SIGNS } from "./lib/cards.js";
import { fold } from "./lib/text.js";

const EN = LETTERS;
const own = Object.hasOwn;
// the joker's word that is not its code ("joker"), as a reader types it
const JOKER_WORD = JOKER_TOKENS.filter(t => t !== JOKER)[0].toLowerCase();
function up(t) { return String(t).normalize("NFC").toUpperCase(); }
/* which letter means which rank or suit: the language's own (T.letters), then the English
   ones that mean nothing else in it; a letter with two meanings is refused ("blocked") */
export function notation(T) {
  var L = T.letters || EN, local = {rank: {}, suit: {}}, N = {rank: {}, suit: {}, blocked: {},
    names: Object.create(null), longest: 1, joker: up(T.joker || JOKER_WORD), T: T,
    jokerFolded: fold(T.joker || JOKER_WORD)};
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
  for (var o = 0; o < PACK; o++) {
    var r = o % RANKS + 1, suit = T.suits ? T.suits[SUITS[(o / RANKS) | 0]] : "";
    var forms = [T.ranks ? T.ranks[r] : ""].concat(letters(N, "rank", r), r > 1 && r < 11 ? [String(r)] : []);
    forms.forEach(f => {
      if (!f || !suit) return;
      var key = fold((T.card || "{rank} of {suit}").replace("{rank}", f).replace("{suit}", suit))
        .trim().split(/[\s,;]+/).join(" ");
      if (key.indexOf(" ") < 0) return;  // a name of one word could pass for a code
      seen[key] = own(seen, key) && seen[key] !== o ? -1 : o;
    });
  }
  // the joker's code is the joker, unless it is also a card (a jack of a suit "K")
  N.jk = !own(N.rank, JOKER[0]) || !own(N.suit, JOKER.slice(1));
  Object.keys(seen).forEach(k => {
    if (seen[k] < 0) return;
    N.names[k] = seen[k];
    N.longest = Math.max(N.longest, k.split(" ").length);
  });
  return N;
}
export function letters(N, role, m) { return Object.keys(N[role]).filter(l => N[role][l] === m); }
/* one token in the reader's notation: a card's ordinal, or -1 */
export function parseLocal(token, N) {
  var t = up(token).trim(), s, r, rank;
  if (/[\uFE0E\uFE0F]$/.test(t) && t.length > 1 &&
      (GLYPHS.indexOf(t.slice(-2, -1)) >= 0 || own(N.suit, t.slice(-2, -1)))) t = t.slice(0, -1);
  if (t === JOKER) return N.jk ? JK : -1;
  if (JOKER_TOKENS.includes(t) || t === N.joker || fold(t) === N.jokerFolded) return JK;
  s = GLYPHS.indexOf(t.slice(-1));
  if (s >= 0) s %= SUITS.length; else s = own(N.suit, t.slice(-1)) ? N.suit[t.slice(-1)] : -1;
  rank = t.slice(0, -1);
  r = /^[0-9]+$/.test(rank) && LABELS.includes(rank) ? +rank : own(N.rank, rank) ? N.rank[rank] : 0;
  return s < 0 || !r ? -1 : s * RANKS + r - 1;
}
/* a field's text: {cards, bad (the first token that is not a card), letter (a refused
   letter in it), over (more than max tokens: not read)} */
export function readField(text, N, max) {
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
        out.letter = t === JOKER ? JOKER.slice(1)
          : [t.slice(-1), t.slice(0, -1)].filter(l => own(N.blocked, l))[0] || null;
      }
    }
    out.cards.push(o);
    i += k;
  }
  return out;
}
/* how the checker writes a card in a field: its face as printed (the tables' chips), in
   letters that the reader's notation reads back */
export function show(o, N) {
  if (o === JK) {
    return N.jk && (JOKER_TOKENS.includes(N.joker) || /\s/.test(N.joker)) ? JOKER
      : /\s/.test(N.joker) ? JOKER_WORD : N.T.joker;
  }
  var r = o % RANKS + 1, face = FACES[r];
  return (face && N.rank[face] !== r ? letters(N, "rank", r)[0] || face : face || String(r)) + SIGNS[(o / RANKS) | 0];
}

