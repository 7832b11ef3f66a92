// Reads the page's fragment: a seeded deal (#deal=rami51:4217, optionally with the rule
// set and the computer players: #deal=rami51+house:4217:normal,hard) or a worked round's
// position (#from=..., from a "Play from here" link). Every value is checked and
// bounded here, and again by the engine; nothing from the fragment reaches the markup.

const DEAL = /^(rami40|rami51|cardverse)(?:\+([a-z0-9_]{1,30}))?:(\d{1,16})(?::((?:easy|normal|hard)(?:,(?:easy|normal|hard)){0,2}))?$/;
const MAX_FROM = 20000;

export function readHash(hash) {
  const text = String(hash || "").replace(/^#/, "");
  if (text.startsWith("deal=")) return readDeal(text.slice(5));
  if (text.startsWith("from=")) return readFrom(text.slice(5));
  return null;
}

function readDeal(value) {
  let decoded;
  try { decoded = decodeURIComponent(value); } catch { return {bad: "deal"}; }
  const m = DEAL.exec(decoded);
  if (!m) return {bad: "deal"};
  const seed = Number(m[3]);
  if (!Number.isSafeInteger(seed)) return {bad: "deal"};
  const levels = m[4] ? m[4].split(",") : ["normal"];
  return {deal: {game: m[1], variation: m[2] || null, seed, levels}};
}

// A position: game[+rule set];hands;stock;discard;steps, as the worked rounds' "Play from
// here" links write it (templates/_examples.html): card codes run together (each is
// self-delimiting), hands by "/", steps by "~", each its seat and s (draw stock), d (draw
// discard), m cards (meld), l n-cards (lay off on meld n), x n-card (joker exchange),
// t card (discard): "1s~1m5C6C7C~1t2D".
const GAME = /^(rami40|rami51|cardverse)(?:\+([a-z0-9_]{1,30}))?$/;
const CARD = "(?:10|[2-9AJQK])[CDHS]|JK";
const CARDS = new RegExp(`^(?:${CARD}){0,108}$`);
const STEP = new RegExp(`^([1-4])(?:(s|d)|m((?:${CARD}){1,13})|l([0-9]{1,3})-((?:${CARD}){1,4})` +
                        `|x([0-9]{1,3})-(${CARD})|t(${CARD}))$`);

function cards(text) {
  if (!CARDS.test(text)) throw new Error("cards");
  return text.match(new RegExp(CARD, "g")) || [];
}

/** One step of a link in the engine's round notation ("1: meld 5C 6C 7C"), or null. */
function step(text) {
  const m = STEP.exec(text);
  if (!m) return null;
  const seat = m[1] + ": ";
  if (m[2]) return seat + (m[2] === "s" ? "draw stock" : "draw discard");
  if (m[3]) return seat + "meld " + cards(m[3]).join(" ");
  if (m[4]) return seat + "layoff " + cards(m[5]).join(" ") + " on " + m[4];
  if (m[6]) return seat + "swap " + m[7] + " for JK on " + m[6];
  return seat + "discard " + m[8];
}

function readFrom(value) {
  if (value.length > MAX_FROM) return {bad: "position"};
  try {
    const parts = decodeURIComponent(value).split(";");
    const game = GAME.exec(parts[0]);
    if (parts.length !== 5 || !game) return {bad: "position"};
    const hands = parts[1].split("/").map(cards);
    const steps = parts[4] === "" ? [] : parts[4].split("~").slice(0, 501).map(step);
    if (hands.length < 2 || hands.length > 4 || steps.length > 500 || steps.includes(null)) {
      return {bad: "position"};
    }
    return {position: {game: game[1], variation: game[2] || null, hands,
                       stock: cards(parts[2]), discard: cards(parts[3]), steps}};
  } catch {
    return {bad: "position"};
  }
}

export function dealHash(config) {
  const variation = config.variation ? "+" + config.variation : "";
  return "#deal=" + config.game + variation + ":" + config.seed + ":" + config.levels.join(",");
}
