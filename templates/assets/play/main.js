// The practice table (templates/_play.html): wires the setup form, the runtime loader, the
// board, the hand, the log and the saved game together. The rules are the engine's
// (site_builder/engine/play/table.py, run by the Python runtime in the browser).

import {GAMES, LEVELS} from "../lib/facts.js";
import {addStylesheet, dropFragment, pageData, say} from "../lib/elements.js";
import {makeText} from "./text.js";
import {loadTable} from "./loader.js";
import {drawBoard} from "./board.js";
import {makeHand} from "./hand.js";
import {makeLog} from "./log.js";
import {loadSaved, keep, forget} from "./store.js";
import {readHash, dealHash} from "./hash.js";
import {showRefusal} from "./refusals.js";

const doc = document;
const script = doc.querySelector("script[data-engine]");
const root = doc.querySelector("[data-play]");
const q = s => root.querySelector(s);
const els = {
  setup: q("[data-setup]"), note: q("[data-note]"), loading: q("[data-loading]"),
  board: q("[data-board]"), seats: q("[data-seats]"), stock: q("[data-stock]"),
  discard: q("[data-discard]"), melds: q("[data-melds]"), turn: q("[data-turn]"),
  progress: q("[data-progress]"), hand: q("[data-hand]"), selected: q("[data-selected]"),
  actions: q("[data-actions]"), refusal: q("[data-refusal]"), hintText: q("[data-hint-text]"),
  end: q("[data-end]"), log: q("[data-log]"), pace: q("[data-pace]"), skip: q("[data-skip]"),
  dealLink: q("[data-deal-link]"), sort: [...root.querySelectorAll("[data-sort]")], root,
};
const text = makeText(pageData("play-text"), doc.documentElement.lang);
const engine = script.dataset.engine;
let call = null;
let busy = false;
let view = null;
const log = makeLog(els, text);
const hand = makeHand(els, text, act);

const note = message => say(els.note, message);

// The game kept on the device; a device that would not keep it says so, once a visit.
let unkept = false;
function save(answer) {
  if (keep(answer.save, engine) && !unkept) {
    unkept = true;
    note(text.T.notSaved);
  }
}

async function table() {
  if (call) return call;
  const bar = els.loading.querySelector("progress");
  const label = els.loading.querySelector("[data-loading-text]");
  els.loading.hidden = false;
  const progress = n => {
    bar.value = n - 1;
    label.textContent = text.T.loading[n - 1] + " " + text.fmt(text.T.step, {n, total: 3});
  };
  try {
    const loaded = await loadTable(new URL(script.dataset.runtime, doc.baseURI).href,
                                   new URL(engine, doc.baseURI).href, progress);
    loaded("variations", text.T.variations);  // the site's rule sets, by name
    call = loaded;
  } finally {
    els.loading.hidden = true;
  }
  return call;
}

async function begin(name, payload, badMessage) {
  els.setup.hidden = true;
  let answer;
  try {
    answer = (await table())(name, payload);
  } catch {
    els.setup.hidden = false;
    note(text.T.failed);
    return;
  }
  if (answer.refusal) {
    els.setup.hidden = false;
    forget();
    note(badMessage);
    return;
  }
  log.clear();
  els.board.hidden = false;
  showDealLink(name === "new" ? payload : null);
  await show(answer);
}

function showDealLink(config) {
  els.dealLink.hidden = !config;
  if (config) els.dealLink.href = dealHash(config);
}

async function show(answer) {
  view = answer.view;
  save(answer);
  drawBoard(els, view, text);
  hand.set(view.hand);
  if (view.ending) {
    const heading = els.end.querySelector("h3");
    if (heading) heading.focus();
  }
  if (!view.ending && view.turn !== view.seat) await computers();
}

async function computers() {
  if (busy) return;
  busy = true;
  log.start();
  try {
    while (view && !view.ending && view.turn !== view.seat) {
      await log.pause();
      const answer = call("step");
      if (answer.refusal) break;
      log.add(answer.events, answer.view);
      view = answer.view;
      save(answer);
      drawBoard(els, view, text);
      hand.set(view.hand);
    }
  } finally {
    busy = false;
  }
  const heading = view && view.ending && els.end.querySelector("h3");
  if (heading) heading.focus();
  // the reader's turn again: a keyboard whose button was hidden resumes at the draw
  else if (view && doc.activeElement === doc.body) q("[data-act=draw_stock]").focus();
}

async function act(request) {
  if (busy || !call || !view) return;
  els.hintText.hidden = true;
  const answer = call("act", request);
  if (answer.refusal) {
    showRefusal(els.refusal, answer.refusal, text);
    return;
  }
  els.refusal.hidden = true;
  log.add(answer.events, answer.view);
  await show(answer);
}

function hint() {
  if (busy || !call) return;
  const answer = call("hint");
  if (answer.refusal) { showRefusal(els.refusal, answer.refusal, text); return; }
  const a = answer.action, T = text.T;
  const move = text.fmt(T.moves[a.kind], {cards: a.cards.map(text.cardName).join(", "),
                                          n: a.target});
  const why = text.fmt(T.why[answer.why.code] || "", Object.assign({n: answer.why.number},
                                                                     answer.why));
  els.hintText.textContent = text.fmt(T.hint, {move, why});
  els.hintText.hidden = false;
}

function formConfig() {
  const f = els.setup;
  const levels = [...f.querySelectorAll("select[name^=seat]")].map(s => s.value)
    .filter(level => LEVELS.includes(level));
  const game = f.elements.game.value;
  const variation = GAMES[game].variations ? f.elements.variation.value || null : null;
  const random = new Uint32Array(1);
  crypto.getRandomValues(random);
  return {game, variation, levels, seed: random[0] % 1000000};
}

function wire() {
  els.setup.addEventListener("submit", event => {
    event.preventDefault();
    note("");
    begin("new", formConfig(), text.T.badDeal);
  });
  els.setup.elements.game.addEventListener("change", () => {
    els.setup.elements.variation.disabled = !GAMES[els.setup.elements.game.value].variations;
  });
  q("[data-hint]").addEventListener("click", hint);
  els.end.addEventListener("click", async event => {
    if (!event.target.closest("[data-next]") || busy) return;
    const answer = call("next_round");
    if (answer.refusal) return;
    log.add([answer.event], answer.view);
    await show(answer);
  });
  q("[data-new]").addEventListener("click", () => {
    forget();
    view = null;
    els.board.hidden = true;
    els.setup.hidden = false;
    if (location.hash) dropFragment();
    els.setup.elements.game.focus();
  });
}

function start() {
  addStylesheet(script.dataset.css);
  doc.querySelector(".play-off").hidden = true;
  root.hidden = false;
  if (typeof WebAssembly !== "object") { els.setup.hidden = true; note(text.T.noWasm); return; }
  wire();
  // a deal or position link followed on this page starts it, as on arriving
  window.addEventListener("hashchange", () => { if (readHash(location.hash)) location.reload(); });
  const fromHash = readHash(location.hash);
  // read once: a reload then resumes the game (the deal keeps its own link, data-deal-link)
  if (location.hash) dropFragment();
  if (fromHash && fromHash.deal) return begin("new", fromHash.deal, text.T.badDeal);
  if (fromHash && fromHash.position) return begin("position", fromHash.position, text.T.badPosition);
  if (fromHash && fromHash.bad) note(fromHash.bad === "deal" ? text.T.badDeal : text.T.badPosition);
  const {value: saved, problem} = loadSaved();
  if (problem === "damaged") { note(text.T.badSave); return; }
  if (saved) return begin("restore", saved.save, text.T.badSave).then(() => {
    if (!els.board.hidden) note(text.T.resumed);
  });
}

start();
