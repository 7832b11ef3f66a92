// The practice table (templates/_play.html): wires the setup form, the runtime loader, the
// board, the hand, the log, the round's review and the saved game together. The rules are
// the engine's (site_builder/engine/play/table.py, run by the Python runtime in the
// browser).
//
// Feedback goes where the eye is: a refusal next to the control used (scrolled into view,
// focused), focus on the next useful control after Start, a draw and a discard. The table
// never waits for ever: a computer seat's step the engine refuses is said, and the table
// offers a new game.

import {GAMES, LEVELS, REFUSALS} from "../lib/facts.js";
import {addStylesheet, dropFragment, pageData, say} from "../lib/elements.js";
import {makeText} from "./text.js";
import {LoadError, loadTable} from "./loader.js";
import {drawBoard} from "./board.js";
import {makeHand} from "./hand.js";
import {makeLog} from "./log.js";
import {hideReview, showReview} from "./review.js";
import {loadSaved, keep, forget, watchSaved} from "./store.js";
import {readHash, dealHash} from "./hash.js";
import {explain, sayHere, showRefusal} from "./refusals.js";

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
  end: q("[data-end]"), review: q("[data-review]"), log: q("[data-log]"), pace: q("[data-pace]"),
  skip: q("[data-skip]"), dealLink: q("[data-deal-link]"), newGame: q("[data-new]"),
  sort: [...root.querySelectorAll("[data-sort]")], root,
};
const text = makeText(pageData("play-text"), doc.documentElement.lang);
const T = text.T;
const engine = script.dataset.engine;
let call = null;
let loading = null;  // the one load of the runtime and the engine (a promise)
let step = 1;  // how far the load has come (1 to 3)
let busy = false;
let view = null;
let deal = null;  // the seeded deal's settings, for its link
const log = makeLog(els, text);
const hand = makeHand(els, text, act);

const note = message => say(els.note, message);
const mySeat = () => (view ? view.seat + 1 : undefined);  // as the engine counts seats

// The game kept on the device, with its log and its deal's link; a device that would not
// keep it says so, once a visit.
let unkept = false;
// Another tab of this page went on with the game kept on the device (or began another):
// this one stops playing, so that it never writes over that game, and says how to go on.
let elsewhere = false;
const stopped = () => { if (elsewhere) note(T.otherTab); return elsewhere; };
function save(answer) {
  if (elsewhere) return;
  if (keep(answer.save, engine, log.events, deal) && !unkept) {
    unkept = true;
    note(T.notSaved);
  }
}

function showProgress() {
  const bar = els.loading.querySelector("progress");
  bar.value = step - 1;
  els.loading.querySelector("[data-loading-text]").textContent =
    T.loading[step - 1] + " " + text.fmt(T.step, {n: step, total: 3});
}

// Start loading the runtime and the engine, once; the reader may still be choosing.
function preload() {
  if (!loading) {
    // the engine's words (its refusals, the moves' reasons) come with it, not with the page
    const said = fetch(new URL(script.dataset.words, doc.baseURI)).then(response => {
      if (!response.ok) throw new LoadError("words " + response.status);
      return response.json();
    });
    said.catch(() => {});  // awaited below; a failure there is the one reported
    loading = loadTable(new URL(script.dataset.runtime, doc.baseURI).href,
                        new URL(engine, doc.baseURI).href,
                        script.dataset.snapshot && new URL(script.dataset.snapshot, doc.baseURI).href,
                        n => { step = n; if (!els.loading.hidden) showProgress(); })
      .then(async loaded => {
        try {
          Object.assign(T, await said);
        } catch (error) {
          throw error instanceof LoadError ? error : new LoadError(String(error));
        }
        loaded("variations", T.variations);  // the site's rule sets, by name
        call = loaded;
        return loaded;
      });
    loading.catch(() => { loading = null; });  // a later Start tries again
  }
  return loading;
}

async function table() {
  if (call) return call;
  els.loading.hidden = false;
  showProgress();
  try {
    return await preload();
  } finally {
    els.loading.hidden = true;
  }
}

// The one line that says why a game could not begin: an impossible position names its
// problem, anything else is *badMessage*.
function notBegun(refusal, badMessage) {
  const values = refusal.values || {};
  if (refusal.code === REFUSALS.named.position && Object.hasOwn(T.problems, values.problem)) {
    return text.fmt(T.problems[values.problem], values);
  }
  return badMessage;
}

function offerNewGame(message) {
  els.board.hidden = true;
  els.setup.hidden = false;
  forget();
  view = null;
  note(message);
  els.setup.querySelector("[data-start]").focus();
}

async function begin(name, payload, badMessage, kept = null) {
  els.setup.hidden = true;
  let loaded, answer;
  try {
    loaded = await table();
  } catch {
    els.setup.hidden = false;
    note(T.failed);  // the runtime or the engine did not load: the connection, or the browser
    return false;
  }
  try {
    answer = loaded(name, payload);
  } catch {
    answer = {refusal: {code: REFUSALS.named.request, values: {}}};  // the engine could not read it
  }
  if (answer.refusal) {
    offerNewGame(notBegun(answer.refusal, badMessage));
    return false;
  }
  elsewhere = false;  // the game on this page is now the one kept
  deal = name === "new" ? payload : kept && kept.deal && typeof kept.deal === "object" ? kept.deal : null;
  showDealLink(deal);
  els.board.hidden = false;
  if (kept) log.restore(kept.log, answer.view);
  else log.clear();
  await show(answer, true, null, name !== "restore");
  return true;
}

function showDealLink(config) {
  els.dealLink.hidden = !config;
  if (!config) return;
  try {
    els.dealLink.href = dealHash(config);
  } catch {
    els.dealLink.hidden = true;
  }
}

// Focus where the reader goes next: the end of the round, the draw, their hand, or the
// Skip button while the computers play. *force*: move it even from a control still shown.
function focusNext(force, drawn = null) {
  const active = doc.activeElement;
  const lost = !active || active === doc.body || !active.isConnected || active.closest("[hidden]");
  if (!force && !lost) return;
  if (!view) return;
  if (view.ending) { const h = els.end.querySelector("h3"); if (h) h.focus(); return; }
  if (view.turn !== view.seat) { els.skip.focus(); return; }
  if (view.phase === "draw") { q("[data-act=draw_stock]").focus(); return; }
  hand.focus(drawn);
}

function drawAll() {
  els.actions.after(els.refusal);  // back at its place, under the actions
  els.refusal.hidden = true;
  drawBoard(els, view, text);
  hand.set(view.hand);
  els.selected.hidden = Boolean(view.ending);
  if (!view.ending) hideReview(els.review);
}

// *kept*: the game as shown is kept on the device (a resumed game already is: another tab
// showing it is not told that it changed)
async function show(answer, fresh = false, drawn = null, kept = true) {
  view = answer.view;
  if (kept) save(answer);
  drawAll();
  if (view.ending) { roundOver(); return; }
  focusNext(fresh || drawn !== null, drawn);
  if (view.turn !== view.seat) await computers();
}

function roundOver() {
  const heading = els.end.querySelector("h3");
  if (heading) heading.focus();
  showReview(els.review, () => call("review"), text, () => {
    const next = els.end.querySelector("[data-next]") || heading;
    if (next) next.focus();
  });
}

// The computer seats play, one step at a time, at the reader's pace. A step the engine
// refuses (or cannot answer) is said, and the table offers a new game.
async function computers() {
  if (busy) return;
  busy = true;
  log.start();
  let stuck = null;
  try {
    while (view && !view.ending && view.turn !== view.seat && !elsewhere) {
      await log.pause();
      let answer;
      try {
        answer = call("step", {reasons: false});
      } catch {
        answer = {refusal: {code: REFUSALS.other, values: {}, message: ""}};
      }
      if (answer.refusal) { stuck = answer.refusal; break; }
      log.add(answer.events, answer.view);
      view = answer.view;
      drawAll();
      // the move is on the table; its reasons follow (the engine confirms each one, which is
      // most of a move's time), then the game and its log are kept
      await drawn();
      const move = answer.events[0];  // the log's own copy of answer.event (JSON: not the same)
      try {
        log.explained(move, call("reasons").reasons || [], answer.view);
      } catch {
        log.explained(move, [], answer.view);
      }
      save(answer);
    }
  } finally {
    busy = false;
  }
  if (stuck) {
    const {message} = explain(stuck, text, mySeat());
    els.refusal.replaceChildren(doc.createTextNode(text.fmt(T.stuck, {reason: message})));
    sayHere(els.refusal, null);
    els.newGame.focus();
    return;
  }
  if (view && view.ending) roundOver();
  else focusNext(doc.activeElement === els.skip);
}

// Once the page has drawn what changed (a frame), or soon if no frame comes (a hidden tab).
function drawn() {
  return new Promise(resolve => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
}

const NEEDS_CARDS = ["meld", "lay_off", "swap", "discard"];

async function act(request, control) {
  if (busy || !call || !view || stopped()) return;
  els.hintText.hidden = true;
  // the control's place: a meld's buttons answer under the meld, the others under them
  const near = control && control.closest("li") ? control.closest("li") : els.actions;
  if (NEEDS_CARDS.includes(request.kind) && !request.cards.length) {
    showRefusal(els.refusal, {code: REFUSALS.named.cards, values: {}}, text, {seat: mySeat(), near});
    return;
  }
  const answer = call("act", request);
  if (answer.refusal) {
    showRefusal(els.refusal, answer.refusal, text, {seat: mySeat(), near, progress: view.progress});
    return;
  }
  log.add(answer.events, answer.view);
  const drawn = request.kind.startsWith("draw") ? answer.event.card : null;
  await show(answer, false, drawn);
}

function hint() {
  if (busy || !call || stopped()) return;
  const answer = call("hint");
  if (answer.refusal) {
    showRefusal(els.refusal, answer.refusal, text, {seat: mySeat(), near: els.actions});
    return;
  }
  els.hintText.textContent = text.hint(answer);
  els.actions.after(els.hintText);
  els.hintText.hidden = false;
  els.hintText.scrollIntoView({block: "nearest"});
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
    begin("new", formConfig(), T.badDeal);
  });
  // the reader is choosing the game: the runtime loads meanwhile. Not before: a reader who
  // only reads the page does not pay for the runtime (about 10 MB) on a phone's data.
  for (const type of ["pointerdown", "focusin", "change"]) {
    els.setup.addEventListener(type, () => { preload().catch(() => {}); }, {once: true});
  }
  els.setup.elements.game.addEventListener("change", () => {
    els.setup.elements.variation.disabled = !GAMES[els.setup.elements.game.value].variations;
  });
  q("[data-hint]").addEventListener("click", hint);
  els.end.addEventListener("click", async event => {
    if (!event.target.closest("[data-next]") || busy || stopped()) return;
    const answer = call("next_round");
    if (answer.refusal) return;
    log.add([answer.event], answer.view);
    await show(answer, true);
  });
  watchSaved(() => {
    if (view && !elsewhere) { elsewhere = true; note(T.otherTab); }
  });
  els.newGame.addEventListener("click", () => {
    forget();
    view = null;
    deal = null;
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
  if (typeof WebAssembly !== "object") { els.setup.hidden = true; note(T.noWasm); return; }
  wire();
  // a deal or position link followed on this page starts it, as on arriving
  window.addEventListener("hashchange", () => { if (readHash(location.hash)) location.reload(); });
  const fromHash = readHash(location.hash);
  // read once: a reload then resumes the game (the deal keeps its own link, data-deal-link)
  if (location.hash) dropFragment();
  if (fromHash && fromHash.deal) return begin("new", fromHash.deal, T.badDeal);
  if (fromHash && fromHash.position) return begin("position", fromHash.position, T.badPosition);
  if (fromHash && fromHash.bad) note(fromHash.bad === "deal" ? T.badDeal : T.badPosition);
  const {value: saved, problem} = loadSaved();
  if (problem === "damaged") { note(T.badSave); return; }
  if (saved) return begin("restore", saved.save, T.badSave, saved).then(begun => {
    if (begun) note(T.resumed);
  });
}

start();
