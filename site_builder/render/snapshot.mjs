// The practice table's start-up snapshot, made by the build (site_builder/render/play.py).
//
//   node snapshot.mjs <node_modules/pyodide/pyodide.mjs> <engine zip> <snapshot out>
//
// Starting Python in the browser is slow where the reader feels it: on a phone-speed CPU
// (Chromium at 4x throttle), loadPyodide takes about 19 s before the first deal, nearly all
// of it Python's own bootstrap (importing the runtime's packages). This script runs that
// bootstrap once, here, imports the rules engine from the zip the page loads, and writes
// the interpreter's memory (pyodide's makeMemorySnapshot); the page then starts from that
// memory (loadPyodide's _loadSnapshot) in about 2 s. The snapshot is tied to the very
// runtime files and engine it was made from, and the build names it by its content.
//
// The same inputs give the same bytes: the clock, the random source and the script's own
// path are fixed while the runtime starts, so no time, seed or path of this machine is
// kept in the memory. (The table's deals are seeded by the page, never by Python's own
// random state, so every reader starting from the same memory loses nothing.)

import crypto from "node:crypto";
import {readFileSync, writeFileSync} from "node:fs";
import {resolve} from "node:path";
import {pathToFileURL} from "node:url";

const [runtime, engineZip, out] = process.argv.slice(2);
if (!out) {
  process.stderr.write("usage: node snapshot.mjs <pyodide.mjs> <engine zip> <out>\n");
  process.exit(2);
}

// A fixed clock (the files' times in the runtime's file system) and a fixed random source
// (the hash secret, the random module's seed), while the snapshot is made.
const FIXED_TIME = 315532800000;  // 1980-01-01, the engine zip's own date
Date.now = () => FIXED_TIME;
let state = 0x9e3779b9;
crypto.randomFillSync = view => {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    bytes[i] = state >>> 24;
  }
  return view;
};
globalThis.crypto.getRandomValues = crypto.randomFillSync;
let tick = 0;
performance.now = () => ++tick;  // a clock that advances, the same on every run
process.argv[1] = "/snapshot";  // the interpreter's sys.executable/argv, not this path

const {loadPyodide} = await import(pathToFileURL(resolve(runtime)).href);
const py = await loadPyodide({_makeSnapshot: true, stdout: () => {}, stderr: () => {}});
py.unpackArchive(new Uint8Array(readFileSync(engineZip)), "zip");
py.runPython("import site_builder.engine.play.table");
writeFileSync(out, py.makeMemorySnapshot());
