// Draws the table from the engine's view (table.py's Table.view): the seats, the stock and
// the discard pile, the melds (numbered as in the worked rounds; each joker drawn as a
// joker, its stand-in beside it), whose turn it is, the first meld's progress, and the end
// of a round. Only this file writes the board's markup.
// A meld is drawn as the worked rounds draw it: in its arrangement (a sequence in rank
// order), each joker in the place of the card it stands for.

import {JOKER, chips} from "../lib/cards.js";
import {el, say} from "../lib/elements.js";

/** The cards a meld's jokers stand for: its arrangement less its natural cards. */
export function standIns(meld) {
  const left = [...meld.arrangement];
  meld.cards.filter(c => c !== JOKER).forEach(c => {
    const i = left.indexOf(c);
    if (i >= 0) left.splice(i, 1);
  });
  return left;
}

/** A meld's cards in the order drawn: its arrangement, each stand-in drawn as the joker. */
export function inPlace(meld) {
  const natural = meld.cards.filter(c => c !== JOKER);
  const order = (meld.arrangement || []).map(c => {
    const i = natural.indexOf(c);
    if (i < 0) return JOKER;
    natural.splice(i, 1);
    return c;
  });
  // an arrangement that does not hold every card (never from the engine): as laid
  return order.length === meld.cards.length && !natural.length ? order : meld.cards;
}

function seats(box, view, text) {
  box.textContent = "";
  view.hand_sizes.forEach((size, seat) => {
    const li = el("li", seat === view.turn && !view.ending ? {"aria-current": "step"} : {});
    const total = view.totals[seat];
    li.append(el("strong", {}, text.seatName(seat, view)), ": ",
              text.count(text.T.cards, size), " · ", text.fmt(text.T.total), " ",
              text.count(text.T.points, total));
    box.append(li);
  });
}

function melds(box, view, text, mine) {
  box.textContent = "";
  if (!view.table.length) box.append(el("li", {"class": "none"}, text.T.noMelds));
  view.table.forEach(meld => {
    const li = el("li", {"data-number": String(meld.number)});
    li.append(el("span", {"class": "play-label"}, text.fmt(text.T.meld, {n: meld.number})), " ",
              chips(inPlace(meld), text.T));
    standIns(meld).forEach(card => li.append(el("span", {"class": "sub"},
      text.fmt(text.T.standsFor, {card: text.cardName(card)}))));
    li.append(" ", el("span", {"class": "sub"}, text.count(text.T.points, meld.points)));
    if (mine) {
      const actions = el("span", {"class": "play-meld-actions"});
      actions.append(actionButton(view, "lay_off", meld.number,
                                  text.fmt(text.T.layOffOn, {n: meld.number})));
      if (meld.cards.includes(JOKER)) {
        actions.append(actionButton(view, "swap", meld.number,
                                    text.fmt(text.T.swapOn, {n: meld.number})));
      }
      li.append(actions);
    }
    box.append(li);
  });
}

function actionButton(view, kind, target, label) {
  const attrs = {type: "button", "data-act": kind, "data-target": String(target)};
  if (view.legal.includes(kind)) attrs["class"] = "offered";
  return el("button", attrs, label);
}

function turnLine(view, text) {
  if (view.ending) return "";
  if (view.turn !== view.seat) return text.fmt(text.T.theirTurn, {n: view.turn + 1});
  return view.phase === "draw" ? text.T.yourTurnDraw : text.T.yourTurnPlay;
}

function progressLine(view, text) {
  const p = view.progress;
  if (!p || !p.threshold || view.phase !== "play") return "";
  const values = {total: p.total, threshold: p.threshold, pure: p.pure ? text.T.yes : text.T.no};
  return text.fmt(p.pure_needed ? text.T.progress : text.T.progressNoPure, values);
}

/** Draw everything but the hand and the log. */
export function drawBoard(els, view, text) {
  const mine = !view.ending && view.turn === view.seat && view.phase === "play";
  seats(els.seats, view, text);
  els.stock.textContent = text.count(text.T.stock, view.stock);
  els.discard.textContent = "";
  els.discard.append(view.discard ? chips([view.discard], text.T) : text.T.empty);
  melds(els.melds, view, text, mine);
  els.turn.textContent = turnLine(view, text);
  say(els.progress, progressLine(view, text));
  els.actions.querySelectorAll("[data-act]").forEach(b => {
    const draw = b.dataset.act.startsWith("draw");
    b.hidden = view.ending !== null || view.turn !== view.seat || draw !== (view.phase === "draw");
    b.classList.toggle("offered", view.legal.includes(b.dataset.act));
  });
  els.actions.querySelector("[data-hint]").hidden = view.ending !== null || view.turn !== view.seat;
  drawEnd(els.end, view, text);
}

function endTable(view, text) {
  const table = el("table", {"class": "play-scores"});
  const head = el("tr");
  const labels = [text.T.hand, view.penalty ? text.T.penalty : text.T.gained, text.T.total];
  [text.T.seatHead, ...labels].forEach(h => head.append(el("th", {scope: "col"}, h)));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  view.ending.hands.forEach((hand, seat) => {
    const tr = el("tr");
    // each cell names its column (data-label): on a phone the rows stack (play.css)
    tr.append(el("th", {scope: "row"}, text.seatName(seat, view)),
              el("td", {"data-label": labels[0]}, hand.length ? chips(hand, text.T) : "–"),
              el("td", {"data-label": labels[1]},
                 text.count(text.T.points, view.ending.scores[seat])),
              el("td", {"data-label": labels[2]},
                 text.count(text.T.points, view.totals[seat])));
    body.append(tr);
  });
  table.append(body);
  return table;
}

function drawEnd(box, view, text) {
  box.textContent = "";
  box.hidden = !view.ending;
  if (!view.ending) { delete box.dataset.history; return; }
  const e = view.ending;
  box.dataset.history = e.history;  // the round in the engine's notation
  box.append(el("h3", {tabindex: "-1"}, text.fmt(text.T.roundOver, {n: view.round})));
  const out = e.winner === view.seat ? text.T.youWentOut
    : text.fmt(text.T.wentOut, {who: text.seatName(e.winner, view)});
  box.append(el("p", {}, e.reason === "out" ? out : text.T.stockOut));
  box.append(endTable(view, text));
  if (view.game_over && view.winners.length) {
    const who = view.winners.map(s => text.seatName(s, view)).join(", ");
    const line = view.winners.length === 1 && view.winners[0] === view.seat ? text.T.youWin
      : text.fmt(text.T.gameOver, {who});
    box.append(el("p", {"class": "play-winner"}, line));
  } else if (view.seeded) {
    box.append(el("p", {}, text.fmt(text.T.gameTarget, {n: view.target})));
    box.append(el("button", {type: "button", "data-next": ""}, text.T.nextRound));
  }
}
