// The score sheet kept on the device (lib/storage.js), and read back with care: a saved
// sheet that is damaged, from an older version of the page, or under a rule set the site no
// longer offers is dropped, and the page says so; a device whose storage is full or
// blocked keeps the sheet for as long as the page is open.

import { stored } from "../lib/storage.js";
import { checkRound } from "./check.js";

const KEY = "rami-score-sheet";
const VERSION = 1;
export const MAX_NAME = 30;
const MAX_POINTS = 9999;

const isCount = (n) => Number.isInteger(n) && n >= 0 && n <= MAX_POINTS;

// The sheet, if *data* is a whole one that the page can show under *offered*
// ({"game:profile": rules}); else null.
export const validSheet = (data, offered) => {
  if (!data || typeof data !== "object" || data.v !== VERSION) return null;
  const rules = typeof data.rules === "string" && Object.hasOwn(offered, data.rules)
    ? offered[data.rules] : null;
  const names = data.names;
  if (!rules || !Array.isArray(names) || names.length < rules.min || names.length > rules.max) {
    return null;
  }
  if (!names.every((n) => typeof n === "string" && n.length <= MAX_NAME)) return null;
  if (!Array.isArray(data.rounds) || data.rounds.length > 500) return null;
  for (const round of data.rounds) {
    if (!Array.isArray(round) || round.length !== names.length || !round.every(isCount)) {
      return null;
    }
    if (checkRound(round, rules)) return null;
  }
  return { v: VERSION, rules: data.rules, names: [...names], rounds: data.rounds.map((r) => [...r]) };
};

// What the device holds under *offered*: {value: the sheet or null, problem: null,
// "damaged" (there was something that is not a sheet: it has been removed) or "unavailable"}.
export const load = (offered) => stored(KEY, { read: (data) => validSheet(data, offered) }).load();

// Keep *sheet* (null: clear it); a problem when the device would not keep it.
export const save = (sheet) => stored(KEY).save(sheet);

export const newSheet = (rules, names) => ({ v: VERSION, rules, names, rounds: [] });

// A typed number of points: a whole number from 0, as typed on any keyboard (spaces
// around it allowed), or null.
export const readPoints = (text) => {
  const trimmed = String(text).trim();
  if (!/^[0-9]{1,4}$/.test(trimmed)) return null;
  return Number(trimmed);
};
