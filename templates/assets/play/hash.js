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
  try { decoded = decodeURIComponent(value); } catch (e) { return {bad: "deal"}; }
  const m = DEAL.exec(decoded);
  if (!m) return {bad: "deal"};
  const seed = Number(m[3]);
  if (!Number.isSafeInteger(seed)) return {bad: "deal"};
  const levels = m[4] ? m[4].split(",") : ["normal"];
  return {deal: {game: m[1], variation: m[2] || null, seed, levels}};
}

// A position: game[+rule set];hands;stock;discard;steps, as the worked rounds' "Play from
// here" links write it (templates/_examples.html): cards by ".", hands by "/", steps by "~"
// with "_" for spaces ("1:draw_stock_9H~1:discard_KS").
const GAME = /^(rami40|rami51|cardverse)(?:\+([a-z0-9_]{1,30}))?$/;
const CARDS = /^(?:(?:10|[2-9AJQK])[CDHS]|JK)(?:\.(?:(?:10|[2-9AJQK])[CDHS]|JK)){0,107}$/;
const STEP = /^[1-4]:[a-z]{4,7}(?:_[0-9A-Za-z]{1,7}){0,10}$/;

function cards(text) {
  if (text === "") return [];
  if (!CARDS.test(text)) throw new Error("cards");
  return text.split(".");
}

function readFrom(value) {
  if (value.length > MAX_FROM) return {bad: "position"};
  try {
    const parts = decodeURIComponent(value).split(";");
    const game = GAME.exec(parts[0]);
    if (parts.length !== 5 || !game) return {bad: "position"};
    const hands = parts[1].split("/").map(cards);
    const steps = parts[4] === "" ? [] : parts[4].split("~");
    if (hands.length < 2 || hands.length > 4 || steps.length > 500
        || !steps.every(s => STEP.test(s))) return {bad: "position"};
    return {position: {game: game[1], variation: game[2] || null, hands,
                       stock: cards(parts[2]), discard: cards(parts[3]),
                       steps: steps.map(s => s.replace(/_/g, " ").replace(":", ": "))}};
  } catch (e) {
    return {bad: "position"};
  }
}

export function dealHash(config) {
  const variation = config.variation ? "+" + config.variation : "";
  return "#deal=" + config.game + variation + ":" + config.seed + ":" + config.levels.join(",");
}
