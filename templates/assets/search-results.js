// What the search box does with Pagefind's answers, apart from asking (site.js):
//
// - Each section gives the index, out of sight, the folded copies of its words ("dokladanie"
//   for "dokładanie", "doi" for "đổi") and the words players type for it ("gửi bài"), between
//   ⁅ and ⁆ (site_builder/render/search.py). An excerpt shows the page's own text only: that
//   text is cut out, and the words found in it still count as found.
// - A page's sections are offered best first (by the weight of what they matched), not in
//   the page's order.
// - A query of several words is asked word by word, and a section scores by the words it
//   holds, a rare word more than a common one, a heading or players' words more than text
//   (byWords); a question's own words ("when", "can": the language's list, from its
//   catalog, render/search.py QUESTION_WORDS) count for little, so that they never sink a
//   match, yet still help a players' phrase that starts with one ("berapa kad").
// - A reference page comes after the rule pages for one word; for several, it counts what
//   it holds at less than a rule page does (REFERENCE_SHARE), unless the query names it by
//   a word of its title (NAMED_MOST).
// - ↑ and ↓ move through the results, from the search field and back to it; Enter opens one
//   (a link's own behaviour).

import { SEARCH } from "./lib/facts.js";
import { fold } from "./lib/text.js";

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

// A reference page (front matter "search: reference", meta "reference"): after every rule
// page for a query of one word, and weighed down for a query of several (byWords).
const reference = (page) => Boolean(page.meta && page.meta.reference);

// A question or filler word of the language ("when", "can", "berapa") counts for this share
// of a word that names the matter: it may be part of a players' phrase ("berapa kad"), so it
// is asked too, but it never outweighs the word the reader looked for.
export const QUESTION_SHARE = 0.3;

// A reference page (Variations, CardVerse compared, Sources, About: front matter "search:
// reference") counts a word it names in a heading or its players' words at this share, and a
// word of its text at REFERENCE_TEXT: a rules question goes to the rule that answers it, and
// a question about a variation ("rami sec", "a joker penalty of 25") still finds the
// variation, where it once fell below every rule page that held any of its words. Measured
// side by side on the benchmark's questions (benchmarks/search_questions-results.md).
export const REFERENCE_SHARE = 0.8;
export const REFERENCE_TEXT = 0.3;

// A word of the matter that names a page in its title ("cardverse", "wariant"), when it names
// at most NAMED_MOST pages and is not on nearly every page ("kartu"), says which page the
// reader asks about: that page counts in full, reference or not ("czym sie rozni cardverse
// od rami 51" finds CardVerse compared, not Rami 40 or Rami 51 at a glance). A section
// without a naming word of NAMING_LENGTH letters or more counts at UNNAMED (shorter words,
// folded, name a page by chance: Vietnamese "doi", of "đối thủ", would name "Đổi joker").
// Measured side by side on the benchmark's questions (benchmarks/search_questions-results.md).
export const NAMED_MOST = 3;
export const UNNAMED = 0.5;
const NAMING_LENGTH = 5;

// The pages named by a word of *words* (byWords' words, each with its pages), and the words
// (their indexes) that name them.
const namedPages = (words) => {
  const titled = (page, word) => fold(page.meta.title).split(/[^\p{L}\p{N}]+/u)
    .some(t => t.length > 2 && t.startsWith(fold(word)));
  const pages = new Set(words.flatMap(({ pages }) => pages.map(p => p.url))).size;
  const naming = new Set();
  const named = new Set(words.flatMap((w, i) => {
    if (w.share !== 1 || w.word.length <= 2 || w.pages.length >= pages * 0.8) return [];
    const them = w.pages.filter(p => titled(p, w.word)).map(p => p.url);
    if (!them.length || them.length > NAMED_MOST) return [];
    if (w.word.length >= NAMING_LENGTH) naming.add(i);
    return them;
  }));
  return { named, naming };
};

// The words of *query* to ask one by one (at most *most*, the matter's words first), each
// with its share: 1, or QUESTION_SHARE for the question and filler words of the language
// (*ignore*, folded by *fold*), and its place in the query (*at*). A word typed twice is
// asked once.
export const queryWords = (query, ignore, fold, most = 8) => {
  const skip = new Set(ignore.split(/\s+/).filter(Boolean).map(fold));
  const words = new Map();
  query.split(/\s+/).filter(Boolean).forEach((word, at) => {
    const key = fold(word);
    if (!words.has(key)) words.set(key, { word, at, share: skip.has(key) ? QUESTION_SHARE : 1 });
  });
  return [...words.values()].map((w, i) => [w, i])
    .sort((a, b) => b[0].share - a[0].share || a[1] - b[1]).slice(0, most).map(([w]) => w);
};

// The sections of Pagefind's *pages* (one word's results, their data) that hold the word,
// each with the highest weight it has there (a heading or players' words 5 to 7, text 1,
// a reference page's text less), Pagefind's score of all its places there, and those
// places (word numbers on the page); a page without sections of its own stands for itself.
const holding = (pages) => pages.flatMap((page) => {
  const most = (locations) => Math.max(0, ...(locations || []).map(l => l.weight || 0));
  const at = (item) => [most(item.weighted_locations) || 1, weight(item),
    new Set(item.locations || [])];
  const ref = reference(page);
  const subs = (page.sub_results || []).filter(s => s.url.includes("#"));
  if (!subs.length) {
    return [[{ url: page.url, title: page.meta.title, excerpt: page.excerpt, sub: false,
      reference: ref, page: page.url }, ...at(page)]];
  }
  return subs.map(s => [{ url: s.url, title: `${s.title} · ${page.meta.title}`,
    excerpt: s.excerpt, sub: true, reference: ref, page: page.url }, ...at(s)]);
});

// The sections that answer a query of several words, best first, from each word's own
// results (*words*: {word, share, at, pages}, one a word, Pagefind's data of every page found): a
// section scores, for each word it holds, the word's share times its rarity over the
// sections (inverse frequency: ln(1 + sections / sections holding it), so that "kad", in
// nearly every section, says little beside "tangan") times how strongly it holds it
// ((1 + weight) / 2: 1 in the text, 3 in a heading or the players' words), a reference
// page's at REFERENCE_SHARE or REFERENCE_TEXT of that. By the score; then Pagefind's own
// score of the words' places (a section with the word all through it before one that names
// it once), weighed the same way; then a rule page before a reference page. A page the
// query names counts in full, and a section without the naming word at UNNAMED.
// Two words typed one after the other that stand one after the other in a section (a
// players' phrase: "berapa kad", "bo ba") count again: a phrase says more than its words.
export const byWords = (words) => {
  const each = words.map(w => ({ ...w }));
  const lists = each.map(({ pages }) => holding(pages));
  const sections = new Set(lists.flatMap(list => list.map(([r]) => r.url))).size;
  const found = new Map();
  let order = 0;
  const { named, naming } = namedPages(each);
  lists.forEach((list, i) => {
    const rarity = Math.log(1 + sections / Math.max(1, list.length));
    each[i].rarity = rarity;
    for (const [r, most, score, places] of list) {
      const hit = found.get(r.url)
        || { r, score: 0, places: 0, best: 0, order: order++, words: new Map() };
      const part = each[i].share * rarity * (1 + most) / 2
        * (r.reference && !named.has(r.page) ? (most > 1 ? REFERENCE_SHARE : REFERENCE_TEXT) : 1);
      hit.score += part;
      hit.words.set(i, places);
      hit.places += each[i].share * rarity * score;
      if (part > hit.best) {  // the excerpt of the word that says most about it
        hit.best = part;
        hit.r = r;
      }
      found.set(r.url, hit);
    }
  });
  for (const hit of found.values()) {
    for (const [i, places] of hit.words) {
      const next = each.findIndex(w => w.at === each[i].at + 1);
      const after = hit.words.get(next);
      if (after && [...places].some(p => after.has(p + 1))) {
        hit.score += each[i].share * each[i].rarity + each[next].share * each[next].rarity;
      }
    }
  }
  for (const hit of found.values()) {
    if ([...naming].some(i => !hit.words.has(i))) hit.score *= UNNAMED;
  }
  return [...found.values()].sort((a, b) => b.score - a.score || b.places - a.places
    || Number(a.r.reference) - Number(b.r.reference) || a.order - b.order).map((h) => h.r);
};

// ↑/↓ between the field and the result links of *list*.
export const resultKeys = (input, list) => {
  const links = () => [...list.querySelectorAll("a[href], button")];
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
