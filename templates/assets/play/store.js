// The game in progress, kept in the browser (localStorage) so that it survives a reload.
// What is kept is table.py's save (the game's settings and its moves) and the engine's
// file name; a save that cannot be read is dropped by the caller, with a message.

const KEY = "rami-practice-table";
const MAX = 200000;  // characters: a longer entry is damaged

export function loadSaved() {
  let raw = null;
  try { raw = window.localStorage.getItem(KEY); } catch { return null; }
  if (raw === null) return null;
  if (raw.length > MAX) return {damaged: true};
  try {
    const data = JSON.parse(raw);
    if (!data || typeof data !== "object" || !data.save || typeof data.save !== "object") {
      return {damaged: true};
    }
    return data;
  } catch {
    return {damaged: true};
  }
}

export function keep(save, engine) {
  try {
    if (save) window.localStorage.setItem(KEY, JSON.stringify({engine, save}));
    else window.localStorage.removeItem(KEY);
  } catch { /* private mode or full: the game goes on without resume */ }
}

export function forget() { keep(null, null); }
