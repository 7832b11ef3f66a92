// The score sheet kept on the device (lib/storage.js), one for each language (the pages in
// a language keep their own game), and read back with care:
// - a sheet whose rounds are partly damaged keeps every round that can be read, and says so;
// - a sheet that cannot be read at all is kept aside, untouched (never wiped unasked);
// - a device whose storage is full or blocked keeps the sheet for as long as the page is open;
// - two tabs on one sheet lose no round: each change is made on the sheet as stored now
//   (read before write), and a tab is told when another one changed it.

import { stored } from "../lib/storage.js";
import { checkRound } from "./check.js";

// The sheet of one language; before there was one a language, one sheet for the device
// (OLD_KEY), which the first language opened takes over.
const KEY = "rami-score-sheet";
const OLD_KEY = KEY;
const VERSION = 2;
export const MAX_NAME = 30;
const MAX_POINTS = 9999;
const MAX_ROUNDS = 500;

const isCount = (n) => Number.isInteger(n) && n >= 0 && n <= MAX_POINTS;

// A name as typed, shown as text: control and format characters (a line break, a
// right-to-left override) dropped, at most MAX_NAME characters.
export const cleanName = (name) => String(name).replace(/[\p{Cc}\p{Cf}]/gu, "").trim()
  .slice(0, MAX_NAME);

// The sheet that *data* holds under *offered* ({"game:profile": rules}), with every round
// that can be read (and "lost": how many could not), or null when nothing can be.
export const validSheet = (data, offered) => {
  if (!data || typeof data !== "object" || (data.v !== 1 && data.v !== VERSION)) return null;
  const rules = typeof data.rules === "string" && Object.hasOwn(offered, data.rules)
    ? offered[data.rules] : null;
  const names = data.names;
  if (!rules || !Array.isArray(names) || names.length < rules.min || names.length > rules.max) {
    return null;
  }
  if (!names.every((n) => typeof n === "string")) return null;
  const rounds = Array.isArray(data.rounds) ? data.rounds.slice(0, MAX_ROUNDS) : [];
  const kept = rounds.filter((round) => Array.isArray(round) && round.length === names.length
    && round.every(isCount) && !checkRound(round, rules));
  const lost = (Array.isArray(data.rounds) ? data.rounds.length : 1) - kept.length;
  return { v: VERSION, id: typeof data.id === "string" ? data.id.slice(0, 40) : newId(),
           rev: Number.isInteger(data.rev) ? data.rev : 0, rules: data.rules,
           names: names.map(cleanName), rounds: kept.map((r) => [...r]),
           ...(lost > 0 ? { lost } : {}) };
};

const newId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

// The language's sheet: {load, update, watch} (lib/storage.js), with the device's one
// shared sheet of earlier versions taken over by the first language that opens.
export const sheetStore = (lang, offered) => {
  const read = (data) => validSheet(data, offered);
  const key = `${KEY}:${lang}`;
  const store = stored(key, { read, aside: `${key}:damaged` });
  const load = () => {
    const found = store.load();
    if (found.value || found.problem) return found;
    const old = stored(OLD_KEY, { read, aside: `${OLD_KEY}:damaged` });
    const taken = old.load();
    if (!taken.value) return taken.problem === "damaged" ? taken : found;
    if (!store.save(taken.value)) old.save(null);
    return taken;
  };
  return { load, update: store.update, watch: store.watch };
};

export const newSheet = (rules, names) => ({ v: VERSION, id: newId(), rev: 0, rules, names, rounds: [] });

// A typed number of points: a whole number from 0, as typed on any keyboard (spaces
// around it allowed), or null; a negative whole number as itself (the check says why not).
export const readPoints = (text) => {
  const trimmed = String(text).trim().replace(/^[\u2212\u2013]/, "-");
  if (!/^-?[0-9]{1,4}$/.test(trimmed)) return null;
  return Number(trimmed);
};
