// What the search box does with Pagefind's answers, apart from asking (site.js):
//
// - Each section gives the index, out of sight, the folded copies of its words ("dokladanie"
//   for "dokładanie", "doi" for "đổi") and the words players type for it ("gửi bài"), between
//   ⁅ and ⁆ (site_builder/render/search.py). An excerpt shows the page's own text only: that
//   text is cut out, and the words found in it still count as found.
// - A page's sections are offered best first (by the weight of what they matched), not in
//   the page's order.
// - A question's own words ("when", "can") need not match (the language's list, from its
//   catalog: render/search.py QUESTION_WORDS); when fewer than three sections hold every
//   other word, the sections that hold most of them follow.
// - Rule pages come before reference pages.
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
    const ref = reference(page);
    if (!subs.length) {
      out.push([{ url: page.url, title: page.meta.title, excerpt: page.excerpt, sub: false,
        reference: ref }, weight(page), rank]);
    }
    for (const [s, w] of subs) {
      out.push([{ url: s.url, title: `${s.title} · ${page.meta.title}`, excerpt: s.excerpt,
        sub: true, reference: ref }, w, rank]);
    }
  });
  return out.sort((a, b) => Number(a[0].reference) - Number(b[0].reference)
    || b[1] - a[1] || a[2] - b[2]).map(([r]) => r);
};

// A reference page (Sources, Variations, About: front matter "search: reference", meta
// "reference") comes after every rule page, whatever it matched: a rules question is
// answered by the rules.
const reference = (page) => Boolean(page.meta && page.meta.reference);

// The words of *query* that an answer must hold: without the question and filler words of
// the language (*ignore*, folded by *fold*), unless nothing else is left.
export const queryWords = (query, ignore, fold) => {
  const all = query.split(/\s+/).filter(Boolean);
  const skip = new Set(ignore.split(/\s+/).filter(Boolean).map(fold));
  const kept = all.filter((w) => !skip.has(fold(w)));
  return kept.length ? kept : all;
};

// The results of the fallback, after those that hold every word: for each word of the
// query its own results (*each*, ranked lists, one a word), merged: rule pages before
// reference pages, the sections that matched most of the words first, then those whose
// words fewer sections hold, then by what they matched. *seen*: the urls already listed.
export const mostWords = (each, seen) => {
  const found = new Map();
  each.forEach((list) => list.forEach((r, at) => {
    if (seen.has(r.url)) return;
    const hit = found.get(r.url) || { r, words: 0, rare: 0, at: 0 };
    hit.words += 1;
    hit.rare += 1 / Math.log2(2 + list.length);  // a word few sections hold says more
    hit.at += at;
    found.set(r.url, hit);
  }));
  return [...found.values()].sort((a, b) => Number(a.r.reference) - Number(b.r.reference)
    || b.words - a.words || b.rare - a.rare || a.at - b.at).map((h) => h.r);
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
