// The round's review, under the round's end: at most three of the reader's moves that cost
// the most (table.py's Table.review: seeded rollouts, so the same game gives the same
// review). For each: the move made, what the normal player would have done, why (the
// hint's words) with a link to the rule where one is involved, and the points it cost.
// It can be skipped. Only this file writes the review's markup.

import {el} from "../lib/elements.js";

function section(reasons, T) {
  const found = (reasons || []).find(r => Object.hasOwn(T.words.sections, r.code));
  return found ? T.words.sections[found.code] : null;
}

function entry(m, text) {
  const T = text.T, R = T.review;
  const li = el("li", {}, el("h4", {}, text.fmt(R.turn, {n: m.turn})));
  const list = el("dl", {},
    el("dt", {}, R.made), el("dd", {}, text.move(m.made)),
    el("dt", {}, R.better), el("dd", {}, text.move(m.better)));
  li.append(list);
  const why = text.reasons(m.reasons);
  const p = el("p", {}, why ? why + " " : "",
               text.fmt(R.cost, {points: text.count(T.points, m.cost)}));
  const rule = section(m.reasons, T);
  if (rule) p.append(" ", el("a", {href: "../" + rule.page + "/index.html#" + rule.anchor}, T.readRule));
  li.append(p);
  return li;
}

// Fill *box* with the review that *ask* gives (Table.review's answer), once the round's
// end is drawn; *skipped*: where the reader goes when they skip it.
export function showReview(box, ask, text, skipped) {
  const R = text.T.review;
  const skip = el("button", {type: "button", "data-skip-review": ""}, R.skip);
  skip.addEventListener("click", () => {
    box.hidden = true;
    skipped();
  });
  const body = el("div", {"aria-live": "polite"}, el("p", {}, R.wait));
  box.replaceChildren(el("h3", {}, R.head), body, el("p", {}, skip));
  box.hidden = false;
  // after the end has been drawn: the review takes a moment
  setTimeout(() => {
    if (box.hidden) return;
    let answer;
    try {
      answer = ask();
    } catch {
      answer = {refusal: {}};
    }
    if (answer.refusal || !Array.isArray(answer.review)) {
      body.replaceChildren(el("p", {}, R.failed));
      return;
    }
    body.replaceChildren(answer.review.length
      ? el("ol", {"class": "play-review-list"}, ...answer.review.map(m => entry(m, text)))
      : el("p", {}, R.none));
  }, 50);
}

// The review hidden (a new round, a new game).
export function hideReview(box) {
  box.hidden = true;
  box.replaceChildren();
}
