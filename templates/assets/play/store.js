// The game in progress, kept on the device (lib/storage.js) so that it survives a reload:
// table.py's save (the game's settings and its moves), the engine's file name, the log's
// events and the seeded deal (its link). A save that cannot be read is dropped, and the
// page says so once; so is one the engine refuses. A save nested deeper than any the
// engine writes, or longer than any game's, is damaged like any other.

import {stored} from "../lib/storage.js";

const DEPTH = 8;  // the engine's save nests 4 deep, a log event 4

// Whether *data* nests no deeper than *depth* (arrays and objects).
function shallow(data, depth) {
  if (data === null || typeof data !== "object") return true;
  if (depth <= 0) return false;
  return Object.values(data).every(value => shallow(value, depth - 1));
}

const saved = stored("rami-practice-table", {
  max: 200000,  // characters: a longer entry is damaged
  read: data => (data && typeof data === "object" && !Array.isArray(data)
    && data.save && typeof data.save === "object" && !Array.isArray(data.save)
    && shallow(data, DEPTH) ? data : null),
});

// {value: {engine, save, log, deal} or null, problem: null, "damaged" or "unavailable"}
export const loadSaved = () => saved.load();

// Keep *save* (null: forget it) with the log's *events* and the seeded *deal*; a problem
// when the device would not keep it.
export const keep = (save, engine, events = [], deal = null) =>
  saved.save(save ? {engine, save, log: events, deal} : null);

export const forget = () => { saved.save(null); };

// *then*() when another tab of this page changes or forgets the kept game.
export const watchSaved = then => { saved.watch(then); };
