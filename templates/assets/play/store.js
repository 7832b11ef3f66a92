// The game in progress, kept on the device (lib/storage.js) so that it survives a reload:
// table.py's save (the game's settings and its moves) and the engine's file name. A save
// that cannot be read is dropped, and the page says so once; so is one the engine refuses.

import {stored} from "../lib/storage.js";

const saved = stored("rami-practice-table", {
  max: 200000,  // characters: a longer entry is damaged
  read: data => (data && typeof data === "object" && data.save && typeof data.save === "object"
    ? data : null),
});

// {value: {engine, save} or null, problem: null, "damaged" or "unavailable"}
export const loadSaved = () => saved.load();

// Keep *save* (null: forget it); a problem when the device would not keep it.
export const keep = (save, engine) => saved.save(save ? {engine, save} : null);

export const forget = () => { saved.save(null); };
