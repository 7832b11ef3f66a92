"""The one ``localStorage`` wrapper (templates/assets/lib/storage.js), run in Node over a
storage of the test's own: damaged, outdated and oversized entries read as absent and said
once (and removed), a full or blocked storage answered, a value too long never written."""

from __future__ import annotations

from pathlib import Path

from browser_js import READ_INPUT, run_module

RUN = READ_INPUT + """
const items = new Map(), log = [];
let full = false, blocked = false;
globalThis.localStorage = {
  getItem: (k) => {
    if (blocked) throw new Error("blocked");
    return items.has(k) ? items.get(k) : null;
  },
  setItem: (k, v) => { if (full) throw new Error("QuotaExceededError"); items.set(k, String(v)); },
  removeItem: (k) => { items.delete(k); },
};
const { stored } = await import("./assets/lib/storage.js");
const store = stored("k", { max: 40, read: (d) => (d && d.v === 1 ? d : null) });
const step = (what, value) => log.push([what, value, items.has("k") ? items.get("k") : null]);
step("empty", store.load());
step("save", store.save({ v: 1, a: "x" }));
step("load", store.load());
const long = JSON.stringify({ v: 1, a: "y".repeat(50) });
for (const raw of ["{not json", JSON.stringify({ v: 0 }), long]) {
  items.set("k", raw);
  step("damaged", store.load());
  step("again", store.load());
}
step("too long", store.save({ v: 1, a: "z".repeat(50) }));
full = true;
step("full", store.save({ v: 1 }));
full = false;
step("clear", store.save(null));
blocked = true;
step("blocked", store.load());
process.stdout.write(JSON.stringify(log));
"""


def test_the_storage_wrapper_reads_with_care(tmp_path: Path) -> None:
    kept = '{"v":1,"a":"x"}'
    absent = {"value": None, "problem": None}
    damaged = {"value": None, "problem": "damaged"}
    assert run_module(tmp_path, RUN, None) == [
        ["empty", absent, None],
        ["save", None, kept],
        ["load", {"value": {"v": 1, "a": "x"}, "problem": None}, kept],
        ["damaged", damaged, None], ["again", absent, None],  # not JSON
        ["damaged", damaged, None], ["again", absent, None],  # an older version
        ["damaged", damaged, None], ["again", absent, None],  # longer than the bound
        ["too long", "unavailable", None],
        ["full", "unavailable", None],
        ["clear", None, None],
        ["blocked", {"value": None, "problem": "unavailable"}, None],
    ]
