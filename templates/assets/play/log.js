// The log of moves, in words ("Seat 2, computer (hard): lays meld 3 K♣ K♦ K♠ · 30 points"),
// and the pace of the computer players: one move at a time, with a pause the reader can
// set, or skip.

import {chips} from "../lib/cards.js";
import {el} from "../lib/elements.js";

const KEEP = 300;  // entries kept in the log

export function makeLog(els, text) {
  let skipping = false;
  let wake = null;

  function line(ev, view) {
    const T = text.T, L = T.log;
    if (ev.kind === "deal") return el("li", {}, text.fmt(L.deal, {n: ev.round}));
    if (ev.kind === "end") return null;
    const li = el("li", {}, el("strong", {}, text.seatName(ev.seat, view) + ": "),
                  text.fmt(L[ev.kind], {n: ev.number}));
    const cards = ev.cards || (ev.card ? [ev.card] : []);
    if (cards.length) li.append(" ", chips(cards, text.T));
    if (ev.kind === "meld" || ev.kind === "lay_off") {
      li.append(" · " + text.count(T.points, ev.points));
    }
    if (ev.opening) {
      li.append(" · " + text.fmt(ev.opening.accepted ? L.accepted : L.rejected,
                                  {total: ev.opening.total}));
    }
    if (ev.went_out) li.append(" · " + L.went_out);
    return li;
  }
  function add(events, view) {
    events.forEach(ev => {
      const li = line(ev, view);
      if (!li) return;
      els.log.prepend(li);
      while (els.log.children.length > KEEP) els.log.lastChild.remove();
    });
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
    clear() { els.log.textContent = ""; },
    start() { skipping = false; },
    get skipping() { return skipping; },
  };
}
