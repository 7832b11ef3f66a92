// What a page keeps on the device (localStorage), read back with care: one wrapper for the
// practice table, the score keeper and the table's rules.
//
// - An entry longer than *max* characters, one that is not JSON, and one that *read* does
//   not take (damaged, or from an older version of the page) is read as absent: it is
//   removed, and load says "damaged" this once.
// - A device whose storage is full or blocked, or a value longer than *max* (which would
//   read as damaged): save says "unavailable", and the page goes on with what it holds.

// - *aside*: a damaged entry is not removed but moved to the entry *aside* (one copy, the
//   latest), so that nothing a reader kept is wiped without asking.
// - update(change): read before write. The entry as it is now (another tab may have
//   written it since this page read it) is read and handed to *change*, whose answer is
//   saved: {value, problem}. Each save of a value that is an object counts its "rev", so a
//   page can tell that the entry changed under it.
// - watch(then): *then*(load()) when another tab changes the entry (the storage event).

// The entry *key*: load() -> {value, problem} (problem: null, "damaged" or "unavailable");
// save(value) -> problem (null: kept; a null value removes the entry).
export const stored = (key, { max = 100000, read = (data) => data, aside = null } = {}) => {
  const remove = () => {
    try {
      const raw = aside === null ? null : localStorage.getItem(key);
      if (raw !== null) localStorage.setItem(aside, raw.slice(0, max));
      localStorage.removeItem(key);
    } catch { /* nothing more to do */ }
  };
  const load = () => {
    let raw;
    try { raw = localStorage.getItem(key); } catch { return { value: null, problem: "unavailable" }; }
    if (raw === null) return { value: null, problem: null };
    let value = null;
    try { value = raw.length > max ? null : read(JSON.parse(raw)); } catch { value = null; }
    if (value !== null && value !== undefined) return { value, problem: null };
    remove();
    return { value: null, problem: "damaged" };
  };
  const save = (value) => {
    const text = value === null ? null : JSON.stringify(value);
    try {
      if (text === null || text.length > max) localStorage.removeItem(key);
      else localStorage.setItem(key, text);
    } catch {
      return "unavailable";
    }
    return text !== null && text.length > max ? "unavailable" : null;
  };
  const update = (change) => {
    const now = load();
    const value = change(now.value);
    if (value && typeof value === "object" && !Array.isArray(value)) {
      value.rev = (now.value && Number.isInteger(now.value.rev) ? now.value.rev : 0) + 1;
    }
    return { value, problem: save(value) || (now.problem === "unavailable" ? "unavailable" : null) };
  };
  const watch = (then) => window.addEventListener("storage", (event) => {
    if (event.key === key || event.key === null) then(load());
  });
  return { load, save, update, watch };
};
