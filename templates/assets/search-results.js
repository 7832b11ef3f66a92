// What the search box does with Pagefind's answers, apart from asking (site.js):
//
// - Each section gives the index, out of sight, the folded copies of its words ("dokladanie"
//   for "dokładanie", "doi" for "đổi") and the words players type for it ("gửi bài"), between
//   ⁅ and ⁆ (site_builder/render/search.py). An excerpt shows the page's own text only: that
//   text is cut out, and the words found in it still count as found.
// - A page's sections are offered best first (by the weight of what they matched), not in
//   the page's order.
// - ↑ and ↓ move through the results, from the search field and back to it; Enter opens one
//   (a link's own behaviour).

import { SEARCH } from "./lib/facts.js";

const { open: OPEN, close: CLOSE } = SEARCH;  // around the index's own text

// The words marked in a piece of an excerpt (without its markup).
const markedWords = (html) => [...html.matchAll(/<mark>(.*?)<\/mark>/gs)].map(m => m[1]);

// *excerpt* without the index's own text, and the words marked inside that text. An excerpt
// may begin or end inside it.
export const pageText = (excerpt) => {
  let text = excerpt;
  const found = [];
  const close = text.indexOf(CLOSE);
  const open = text.indexOf(OPEN);
  if (close >= 0 && (open < 0 || close < open)) {  // begins inside
    found.push(...markedWords(text.slice(0, close)));
    text = text.slice(close + 1).replace(/^\.\s*/, "");
  }
  text = text.replace(new RegExp(`${OPEN}[^${CLOSE}]*(?:${CLOSE}\\.?|$)`, "gu"), (piece) => {
    found.push(...markedWords(piece));
    return "";
  });
  return [text.replace(/\s{2,}/g, " ").trim(), found];
};

// What a sub-result matched, weighted (Pagefind gives each location its weight and score).
const weight = (sub) => (sub.weighted_locations || [])
  .reduce((sum, l) => sum + (l.balanced_score || l.weight || 0), 0);

// The results to list for Pagefind's *pages* (their data, best first): the two best
// sections of each page (those with a heading of their own), else the page, all in the order
// of what they matched, so that a page's defining section comes before another page's
// passing mention. Each: {url, title, excerpt, sub}.
export const ranked = (pages) => {
  const out = [];
  pages.forEach((page, rank) => {
    const subs = (page.sub_results || []).filter(s => s.url.includes("#"))
      .map((s, i) => [s, weight(s), i])
      .sort((a, b) => b[1] - a[1] || a[2] - b[2])
      .slice(0, 2);
    if (!subs.length) {
      out.push([{ url: page.url, title: page.meta.title, excerpt: page.excerpt, sub: false },
        weight(page), rank]);
    }
    for (const [s, w] of subs) {
      out.push([{ url: s.url, title: `${s.title} · ${page.meta.title}`, excerpt: s.excerpt,
        sub: true }, w, rank]);
    }
  });
  return out.sort((a, b) => b[1] - a[1] || a[2] - b[2]).map(([r]) => r);
};

// ↑/↓ between the field and the result links of *list*.
export const resultKeys = (input, list) => {
  const links = () => [...list.querySelectorAll("a[href]")];
  const move = (event, step) => {
    const all = links();
    if (!all.length) return;
    const at = all.indexOf(document.activeElement);
    const next = at + step;
    event.preventDefault();
    if (next < 0) input.focus();
    else all[Math.min(next, all.length - 1)].focus();
  };
  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowDown") move(event, 1);
    else if (event.key === "ArrowUp") move(event, -1);
  };
  input.addEventListener("keydown", onKey);
  list.addEventListener("keydown", onKey);
};
