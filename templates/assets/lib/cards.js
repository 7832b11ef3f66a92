// Cards in the browser: the engine's card codes ("10H", "QS", "JK"), their ranks, suits and
// names in the page's language, and their faces drawn as the pages draw them
// (templates/_cards.html). Every fact comes from the engine, through facts.js.

import { CARDS } from "./facts.js";
import { el } from "./elements.js";
import { fill } from "./text.js";

export const SUITS = CARDS.suits;  // in the engine's order
export const RANKS = CARDS.labels.length - 1;  // ranks in a suit
export const PACK = CARDS.pack;  // cards in a pack
export const JOKER = CARDS.joker;  // the joker's code
export const JOKER_TOKENS = CARDS.joker_tokens;  // the words read as the joker
export const MAX_MELD = CARDS.max_meld;  // cards in the longest meld
export const LABELS = CARDS.labels;  // each rank's label, by rank (from 1)
export const GLYPHS = CARDS.glyphs;  // the suits' signs, the printed ones first
export const SIGNS = GLYPHS.slice(0, SUITS.length);  // the printed signs, by suit
export const LETTERS = CARDS.letters;  // the English letters read as ranks and suits
// the ranks printed as a letter (A, J, Q, K), by rank
export const FACES = Object.fromEntries(LABELS.map((label, rank) => [rank, label])
  .filter(([, label]) => /^\p{L}$/u.test(label)));

const RANK_OF = new Map(LABELS.map((label, rank) => [label, rank]).slice(1));
const CODES = [JOKER, ...LABELS.slice(1).flatMap((label) => [...SUITS].map((suit) => label + suit))];

// A card code as {rank, suit} (the joker: rank 0 and no suit), or null.
export const parseCode = (code) => {
  if (code === JOKER) return { rank: 0, suit: "" };
  const text = String(code), suit = text.slice(-1), rank = RANK_OF.get(text.slice(0, -1));
  return rank && suit.length === 1 && SUITS.includes(suit) ? { rank, suit } : null;
};

// The card codes that *text* runs together ("5C6C7C10DJK"), or null where it holds
// anything else.
export const splitCodes = (text) => {
  const codes = [];
  for (let rest = String(text); rest;) {
    const code = CODES.find((c) => rest.startsWith(c));
    if (!code) return null;
    codes.push(code);
    rest = rest.slice(code.length);
  }
  return codes;
};

export const isRed = (suit) => CARDS.red.includes(suit);

// A card's name in the page's language: T.card filled with T.ranks (by rank) and T.suits
// (by suit), or T.joker (the page's catalog words).
export const cardName = (code, T) => {
  const card = parseCode(code);
  if (!card) return String(code);
  if (!card.rank) return T.joker;
  return fill(T.card, { rank: T.ranks[card.rank], suit: T.suits[card.suit] });
};

// One card's chip: its rank's label and its suit's sign, <i> for a red suit and <b> for a
// black one; the joker by its name.
export const chip = (code, T) => {
  const card = parseCode(code);
  if (!card || !card.rank) return el("b", { class: "joker" }, T.joker);
  return el(isRed(card.suit) ? "i" : "b", {}, LABELS[card.rank] + SIGNS[SUITS.indexOf(card.suit)]);
};

// A group of cards as one image, named card by card ("queen of hearts, joker").
export const chips = (codes, T) => el("span",
  { role: "img", "aria-label": codes.map((code) => cardName(code, T)).join(", ") },
  ...codes.map((code) => chip(code, T)));

// The cards' order in a hand: by suit (then rank) or by rank (then suit); jokers last.
export const sortKey = (code, by) => {
  const card = parseCode(code) || { rank: 0, suit: "" };
  const rank = card.rank || RANKS + 1;
  const suit = card.suit ? SUITS.indexOf(card.suit) : SUITS.length;
  return by === "rank" ? rank * (SUITS.length + 1) + suit : suit * (RANKS + 2) + rank;
};
