// Reads the page's fragment: a seeded deal (#deal=rami51:4217, optionally with the rule
// set and the computer players: #deal=rami51+house:4217:normal,hard) or a worked round's
// position (#from=..., a "Play from here" link, whose one writer is the engine's:
// site_builder/engine/notation.py, position_link). The formats, the games, levels and
// bounds are the engine's (lib/facts.js). Every value is checked and bounded here, and
// again by the engine; nothing from the fragment reaches the markup.

import {ACTIONS, GAMES, LEVELS, LINKS} from "../lib/facts.js";
import {MAX_MELD, splitCodes} from "../lib/cards.js";
import {fill} from "../lib/text.js";

const DEAL = LINKS.deal, POSITION = LINKS.position;
const NAME = new RegExp(`^(?:${LINKS.name})$`);  // a rule set's name
const games = Object.values(GAMES);
const MIN_SEATS = Math.min(...games.map(g => g.min_players));
const MAX_SEATS = Math.max(...games.map(g => g.max_players));
const MAX_CARDS = Math.max(...games.map(g => g.cards));
const KIND_OF = new Map(Object.entries(POSITION.letters).map(([kind, letter]) => [letter, kind]));

export function readHash(hash) {
  const text = String(hash || "").replace(/^#/, "");
  if (text.startsWith(DEAL.key + "=")) return readDeal(text.slice(DEAL.key.length + 1));
  if (text.startsWith(POSITION.key + "=")) return readFrom(text.slice(POSITION.key.length + 1));
  return null;
}

// game[+rule set], or null
function gameOf(text, separator) {
  const [game, variation, ...more] = text.split(separator);
  if (more.length || !Object.hasOwn(GAMES, game)) return null;
  if (variation !== undefined && !NAME.test(variation)) return null;
  return {game, variation: variation || null};
}

function readDeal(value) {
  let decoded;
  try { decoded = decodeURIComponent(value); } catch { return {bad: "deal"}; }
  const [head, seedText, levelText, ...more] = decoded.split(DEAL.fields);
  const game = gameOf(head, DEAL.variation);
  const digits = String(DEAL.max_seed).length;
  if (!game || more.length || !new RegExp(`^[0-9]{1,${digits}}$`).test(seedText || "")) {
    return {bad: "deal"};
  }
  const seed = Number(seedText);
  const levels = levelText === undefined ? [DEAL.level] : levelText.split(DEAL.levels);
  if (seed > DEAL.max_seed || levels.length >= MAX_SEATS || !levels.every(l => LEVELS.includes(l))) {
    return {bad: "deal"};
  }
  return {deal: {...game, seed, levels}};
}

// A hand, the stock or the discard pile: card codes run together.
function cards(text) {
  const codes = splitCodes(text);
  if (!codes || codes.length > MAX_CARDS) throw new Error("cards");
  return codes;
}

// One step of a link in the engine's round notation ("1: meld 5C 6C 7C"), or null.
function step(text) {
  const seat = Number(text[0]), kind = KIND_OF.get(text[1]);
  if (!/^[1-9]$/.test(text[0] || "") || seat > MAX_SEATS || !kind) return null;
  const action = ACTIONS[kind];
  let rest = text.slice(2), target = "";
  if (action.target) {
    const end = rest.indexOf(POSITION.target);
    target = rest.slice(0, end);
    if (end < 1 || end > POSITION.max_target_digits || !/^[0-9]+$/.test(target)) return null;
    rest = rest.slice(end + POSITION.target.length);
  }
  const codes = rest ? splitCodes(rest) : [];
  const most = !action.notation.includes("{cards}") ? 0 : action.one ? 1 : MAX_MELD;
  if (!codes || codes.length > most || (most && !codes.length)) return null;
  return fill(action.notation, {seat, cards: codes.join(" "), target});
}

function readFrom(value) {
  if (value.length > POSITION.max_length) return {bad: "position"};
  try {
    const parts = decodeURIComponent(value).split(POSITION.fields);
    const game = gameOf(parts[0], POSITION.variation);
    if (parts.length !== 5 || !game) return {bad: "position"};
    const hands = parts[1].split(POSITION.hands).map(cards);
    const steps = parts[4] === "" ? []
      : parts[4].split(POSITION.steps).slice(0, POSITION.max_steps + 1).map(step);
    if (hands.length < MIN_SEATS || hands.length > MAX_SEATS || steps.length > POSITION.max_steps
        || steps.includes(null)) {
      return {bad: "position"};
    }
    return {position: {...game, hands, stock: cards(parts[2]), discard: cards(parts[3]), steps}};
  } catch {
    return {bad: "position"};
  }
}

export function dealHash(config) {
  const game = config.variation ? config.game + DEAL.variation + config.variation : config.game;
  return "#" + DEAL.key + "=" + [game, config.seed, config.levels.join(DEAL.levels)].join(DEAL.fields);
}
