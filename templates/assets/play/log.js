// The log of moves, in words ("Seat 2, computer (hard): lays meld 3 K♣ K♦ K♠ · 30 points";
// the reader's own: "You discard 7♥"), newest first and numbered from the first; each
// computer move opens to its reason, in the hint's words ("Why: …"). The pace of the
// computer players: one move at a time, with a pause the reader can set, or skip.
// The log's events are kept with the saved game (store.js), so a reload shows it again.

import {chips} from "../lib/cards.js";
import {el} from "../lib/elements.js";

const KEEP = 300;  // entries kept in the log

export function makeLog(els, text) {
  let skipping = false;
  let wake = null;
  let kept = [];  // the events shown, oldest first, as the engine gave them
  const shown = new WeakMap();  // each event's line

  function line(ev, view) {
    const T = text.T, L = T.log;
    if (ev.kind === "deal") return el("li", {}, text.fmt(L.deal, {n: ev.round}));
    if (ev.kind === "end" || !Object.hasOwn(L, ev.kind)) return null;
    const mine = ev.seat === view.seat;
    const what = el("span", {"class": "play-move"}, text.logLine(ev, view));
    const cards = ev.cards || (ev.card ? [ev.card] : []);
    if (cards.length) what.append(" ", chips(cards, text.T));
    if (ev.kind === "meld" || ev.kind === "lay_off") {
      what.append(" · " + text.count(T.points, ev.points));
    }
    if (ev.opening) {
      what.append(" · " + text.fmt(ev.opening.accepted ? L.accepted : L.rejected,
                                    {total: ev.opening.total}));
    }
    if (ev.went_out) what.append(" · " + (mine ? T.logYou.went_out : L.went_out));
    const why = mine ? "" : text.reasons(ev.reasons);
    if (!why) return el("li", {}, what);
    // a computer's move opens to its reason
    return el("li", {}, el("details", {}, el("summary", {}, what), el("p", {}, why)));
  }
  function show(ev, view) {
    const li = line(ev, view);
    if (!li) return;
    shown.set(ev, li);
    els.log.prepend(li);
    while (els.log.children.length > KEEP) els.log.lastChild.remove();
  }
  function add(events, view) {
    events.forEach(ev => {
      kept.push(ev);
      show(ev, view);
    });
    if (kept.length > KEEP) kept = kept.slice(-KEEP);
  }
  function pause() {
    if (skipping) return Promise.resolve();
    const ms = Math.max(0, Math.min(5000, Number(els.pace.value) || 0));
    return new Promise(resolve => {
      wake = resolve;
      setTimeout(resolve, ms);
    });
  }
  els.skip.addEventListener("click", () => {
    skipping = true;
    if (wake) wake();
  });
  return {
    add,
    pause,
    clear() { els.log.textContent = ""; kept = []; },
    // a computer move's reasons, given once the move is shown: its line opens to them
    explained(ev, reasons, view) {
      ev.reasons = reasons;
      const old = shown.get(ev), li = line(ev, view);
      if (old && old.isConnected && li) {
        old.replaceWith(li);
        shown.set(ev, li);
      }
    },
    // the log's events to keep with the game, and shown again from them
    get events() { return kept; },
    restore(events, view) {
      this.clear();
      if (Array.isArray(events)) add(events.filter(ev => ev && typeof ev === "object"), view);
    },
    start() { skipping = false; },
    get skipping() { return skipping; },
  };
}
