// The reader's hand and their moves: each card a toggle button (tap, mouse or keyboard),
// sorted by suit or by rank; the action buttons turn the selection into a request for the
// engine ({kind, cards, target}). Whether the move is allowed is the engine's to say.

import {chip, sortKey} from "../lib/cards.js";
import {named} from "../lib/elements.js";

export function makeHand(els, text, onAction) {
  const state = {hand: [], selected: new Set(), by: "suit"};

  function selection() {
    return [...state.selected].sort((a, b) => a - b).map(i => state.hand[i]);
  }
  function showSelection() {
    const cards = selection();
    els.selected.textContent = cards.length
      ? text.fmt(text.T.selected, {cards: cards.map(text.cardName).join(", ")})
      : text.T.noneSelected;
  }
  function draw(focusIndex) {
    els.hand.textContent = "";
    const order = state.hand.map((code, i) => i)
      .sort((a, b) => sortKey(state.hand[a], state.by) - sortKey(state.hand[b], state.by) || a - b);
    order.forEach(i => {
      // the face shown, and the card's name for screen readers (as the checker's picker)
      const b = named("button", {type: "button", "data-index": String(i), "data-code": state.hand[i],
                                 "aria-pressed": state.selected.has(i) ? "true" : "false"},
                      chip(state.hand[i], text.T), text.cardName(state.hand[i]));
      els.hand.append(b);
      if (i === focusIndex) b.focus();
    });
    showSelection();
  }
  els.hand.addEventListener("click", event => {
    const b = event.target.closest("button[data-index]");
    if (!b) return;
    const i = Number(b.dataset.index);
    if (state.selected.has(i)) state.selected.delete(i); else state.selected.add(i);
    b.setAttribute("aria-pressed", state.selected.has(i) ? "true" : "false");
    showSelection();
  });
  els.sort.forEach(b => b.addEventListener("click", () => {
    state.by = b.dataset.sort;
    els.sort.forEach(o => o.setAttribute("aria-pressed", o === b ? "true" : "false"));
    draw();
  }));
  els.root.addEventListener("click", event => {
    const b = event.target.closest("button[data-act]");
    if (!b) return;
    const target = b.dataset.target ? Number(b.dataset.target) : null;
    onAction({kind: b.dataset.act, cards: selection(), target}, b);
  });
  return {
    set(hand) {
      const same = hand.length === state.hand.length && hand.every((c, i) => c === state.hand[i]);
      state.hand = hand.slice();
      if (!same) state.selected.clear();
      draw();
    },
    clear() { state.selected.clear(); draw(); },
    // focus the card *code* (one just drawn), else the first card of the hand
    focus(code = null) {
      const cards = [...els.hand.querySelectorAll("button")];
      const found = code === null ? null : cards.find(b => b.dataset.code === code);
      if (found || cards[0]) (found || cards[0]).focus();
    },
    selection,
  };
}
