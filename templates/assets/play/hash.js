// Reads the page's fragment: a seeded deal (#deal=rami51:4217, optionally with the rule
// set and the computer players: #deal=rami51+house:4217:normal,hard) or a worked round's
// position (#from=<JSON>, from a "Play from here" link). Every value is checked and
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

function readFrom(value) {
  if (value.length > MAX_FROM) return {bad: "position"};
  try {
    const data = JSON.parse(decodeURIComponent(value));
    if (!data || typeof data !== "object" || Array.isArray(data)) return {bad: "position"};
    return {position: data};
  } catch (e) {
    return {bad: "position"};
  }
}

export function dealHash(config) {
  const variation = config.variation ? "+" + config.variation : "";
  return "#deal=" + config.game + variation + ":" + config.seed + ":" + config.levels.join(",");
}
