// The practice table's words (templates/_play.html hands them over as JSON), in the page's
// language: the catalog's messages filled in, counted and the cards named (lib/).
// Nothing here reads the page's markup.

import { cardName } from "../lib/cards.js";
import { words } from "../lib/text.js";

export function makeText(T, lang) {
  const { fill, count } = words(lang);
  function seatName(seat, view) {
    if (seat === view.seat) return T.you;
    return fill(T.computer, {n: seat + 1, level: T.levels[view.levels[seat]] || ""});
  }
  return {T, fmt: fill, count, cardName: (code) => cardName(code, T), seatName, lang};
}
