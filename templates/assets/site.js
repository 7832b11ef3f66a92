// The header's behaviour on every page of a language folder. Without JavaScript the menus
// still open (they are <details>) and the language links lead to the same page; only search
// needs this script.
//
// - The language links keep the section you are reading (here.js, or the address's #id):
//   the heading ids are the same in every language.
// - One menu open at a time; Escape closes a menu or the search and returns the focus.
// - Search in the page's language with Pagefind (site_builder/render/search.py builds one
//   index per language folder), opened by its button or the "/" key (Ctrl+K, Cmd+K too).
//   A result leads to the matching section (Pagefind's sub-results), and the words found
//   are marked there (?highlight=).
// - Printing opens every folded step-by-step round, and folds it again afterwards.

import "./offline.js";  // the language folder's service worker: the rules offline
import "./table-rules.js";  // my table's rules: the game and variation a table plays
import "./menu.js";  // a language of many pages: the whole page list, from one file

import { el, isSafeId } from "./lib/elements.js";
import { fold } from "./lib/text.js";
import { siteWords } from "./lib/words.js";
import { youAreHere } from "./here.js";
import { byWords, pageText, queryWords, ranked, resultKeys } from "./search-results.js";
import { explainTerms } from "./terms.js";

const menus = [...document.querySelectorAll("details.menu")];
const pages = document.querySelector(".menu-toggle");  // the page menu's checkbox
for (const menu of menus) {
  menu.addEventListener("toggle", () => {
    if (!menu.open) return;
    for (const other of menus) if (other !== menu) other.open = false;
    if (pages) pages.checked = false;
  });
}
if (pages) pages.addEventListener("change", () => {
  if (pages.checked) for (const menu of menus) menu.open = false;
});
let unfolded = [];
addEventListener("beforeprint", () => {
  unfolded = [...document.querySelectorAll("details.trace:not([open])")];
  for (const trace of unfolded) trace.open = true;
});
addEventListener("afterprint", () => {
  for (const trace of unfolded) trace.open = false;
  unfolded = [];
});
explainTerms();  // the glossary's definitions on the term links (terms.js)
const readingNow = youAreHere();  // the section being read (here.js), or null
for (const link of document.querySelectorAll(".languages a[hreflang]")) {
  link.addEventListener("click", () => {
    const now = readingNow();
    const section = now ? `#${now}` : location.hash;
    if (section.startsWith("#") && isSafeId(section.slice(1))) link.hash = section;
  });
}

const box = document.querySelector(".search[data-bundle]");
const button = document.querySelector(".search-open");
const input = box && box.querySelector("input");

const openSearch = () => {
  for (const menu of menus) menu.open = false;
  if (pages) pages.checked = false;
  box.hidden = false;
  button.setAttribute("aria-expanded", "true");
  input.focus();
};
const closeSearch = () => {
  box.hidden = true;
  button.setAttribute("aria-expanded", "false");
  button.focus();
};

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") {
    const menu = menus.find(m => m.open);
    if (menu) { menu.open = false; menu.querySelector("summary").focus(); return; }
    if (pages && pages.checked) { pages.checked = false; pages.focus(); return; }
    if (box && !box.hidden) closeSearch();
    return;
  }
  if (!box) return;
  const typing = event.target.closest("input, textarea, select, [contenteditable]");
  const slash = event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey;
  const k = (event.key === "k" || event.key === "K") && (event.ctrlKey || event.metaKey);
  if (slash || k) { event.preventDefault(); openSearch(); }
});

// Words are compared folded (lib/text.js: the index's own folding): what Pagefind marked
// with what the reader typed.
// A word: letters with their combining marks, and digits. A mark does not end a word
// (sảnh typed decomposed, a Hindi or Thai vowel sign); text is compared in NFC.
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const wordsOf = (text) => text.normalize("NFC").match(WORD) || [];

// A word Pagefind marked is kept only if it holds the first letters of a word of the query
// (four, or the whole query word), anywhere in it ("berurutan" for "urutan"): a short word
// that merely starts the query ("do" for "dokladac") is not what the reader looked for.
const wanted = (query) => {
  const stems = query.split(/\s+/).map(fold).filter(Boolean).map(t => t.slice(0, 4));
  return (word) => {
    const w = fold(word);
    return stems.some(stem => w.includes(stem));
  };
};

// Pagefind's excerpt is the page's text with <mark> around the matches; entities are
// decoded by a <textarea>, which keeps the spaces around the marks.
const excerptNodes = (excerpt, keep) => {
  const p = el("p");
  const decode = el("textarea");
  const marked = [];
  excerpt.split(/<\/?mark>/).forEach((text, i) => {
    decode.innerHTML = text;
    const node = document.createTextNode(decode.value);
    if (i % 2 && keep(decode.value)) {
      p.append(el("mark", {}, node));
      marked.push(...wordsOf(decode.value));  // without punctuation
    } else p.append(node);
  });
  return [p, marked];
};

// How many results a search lists at first; a button lists the others.
const FIRST_RESULTS = 12;

// Pagefind's answer for *word* (*asked*: that answer, if it was asked already); for a word
// the site never writes as typed ("skonczyla"), for its stem, one letter less at a time,
// down to four letters: the endings of Polish, Malay and Indonesian words.
const stem = async (pf, word, asked = null) => {
  let found = asked || await pf.search(word);
  for (let cut = word.length - 1; !found.results.length && cut >= 4; cut--) {
    found = await pf.search(word.slice(0, cut));
  }
  return found;
};

if (box && button) {
  const list = box.querySelector("ol");
  const bundle = new URL(box.dataset.bundle, location.href);
  let pagefind = null;
  // the search box's words in the page's language (lib/words.js): its question words,
  // "no page matches", "more results"; fetched with the index
  let said = { ignore: "", none: "", more: "" };
  const load = async () => {
    if (!pagefind) {
      const words = siteWords();
      const found = await import(bundle.href);
      // result URLs are relative to the language folder, which holds the bundle
      await found.options({ baseUrl: new URL("..", new URL(".", bundle)).pathname });
      said = await words;
      pagefind = found;
    }
    return pagefind;
  };
  // a result (an <li>) and whether its excerpt holds a word the reader looked for
  const item = (url, title, excerpt, keep, sub) => {
    const a = el("a", {}, title);
    const li = el("li", {}, a);
    let words = [];
    if (excerpt) {
      const [text, found] = pageText(excerpt);  // without the index's own words
      const [p, marked] = excerptNodes(text, keep);
      words = [...marked, ...found.filter(keep)];
      if (text) li.append(p);
    }
    const target = new URL(url, location.href);
    if (words.length) target.searchParams.set("highlight", [...new Set(words)].join(" "));
    a.href = target.href;
    if (sub) li.className = "sub-result";
    return [li, words.length > 0];
  };
  const show = async () => {
    const query = input.value.trim();
    if (!query) { list.replaceChildren(); return; }
    let pf;
    try { pf = await load(); } catch { list.replaceChildren(); button.hidden = true; box.hidden = true; return; }
    let found = await pf.debouncedSearch(query, {}, 200);
    if (found === null) return; // a later keystroke superseded this search
    if (!/\s/.test(query)) found = await stem(pf, query, found);
    let results = ranked(await Promise.all(found.results.slice(0, 20).map(r => r.data())));
    // several words: each asked on its own, and the sections ranked by the words they hold;
    // one after the other: Pagefind's searches run at once, before the index is loaded, give
    // some words the places of another (a reader's first search went wrong)
    const words = queryWords(query, said.ignore, fold);
    if (words.length > 1) {
      const each = [];
      for (const { word, share, at } of words) {
        const one = share === 1 ? await stem(pf, word) : await pf.search(word);
        each.push({ word, share, at, pages: await Promise.all(one.results.map(r => r.data())) });
      }
      const whole = new Map(results.map(r => [r.url, r]));
      const best = byWords(each).map(r => (whole.has(r.url) ? whole.get(r.url) : r));
      const seen = new Set(best.map(r => r.url));
      results = [...best, ...results.filter(r => !seen.has(r.url))];
    }
    if (input.value.trim() !== query) return;  // the reader typed on meanwhile
    // one word: a reference page never before a rule page (the sort keeps each one's order);
    // several: byWords weighed them
    if (words.length <= 1) results = results.map((r, i) => [r, i]).sort((a, b) =>
      Number(a[0].reference) - Number(b[0].reference) || a[1] - b[1]).map(([r]) => r);
    const keep = wanted(query);
    let items = [];
    for (const r of results) items.push(item(r.url, r.title, r.excerpt, keep, r.sub));
    // results that matched only a short word the query starts with go, unless none is left
    if (items.some(([, good]) => good)) items = items.filter(([, good]) => good);
    const shown = items.map(([li]) => li);
    if (!shown.length) {
      list.replaceChildren(el("li", {}, said.none));
      return;
    }
    // the best FIRST_RESULTS, and the rest one press away (the focus stays in the list)
    list.replaceChildren(...shown.slice(0, FIRST_RESULTS));
    if (shown.length > FIRST_RESULTS) {
      const more = el("button", { type: "button", class: "search-more" }, said.more);
      const li = el("li", {}, more);
      more.addEventListener("click", () => {
        li.replaceWith(...shown.slice(FIRST_RESULTS));
        const next = shown[FIRST_RESULTS].querySelector("a");
        if (next) next.focus();
      });
      list.append(li);
    }
  };
  input.addEventListener("input", show);
  resultKeys(input, list);
  button.addEventListener("click", () => (box.hidden ? openSearch() : closeSearch()));
  button.hidden = false;
}

// On the page a result opened: mark the words found, in the page's text.
const highlight = new URLSearchParams(location.search).get("highlight");
const main = document.querySelector("main");
if (highlight && main) {
  const words = new Set(wordsOf(highlight).filter(w => w.length > 1).slice(0, 10).map(fold));
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  const hits = [];
  for (let n = walker.nextNode(); n && hits.length < 200; n = walker.nextNode()) {
    if (n.parentElement.closest("mark, script, style, .toc, .breadcrumbs")) continue;
    for (const m of n.data.matchAll(WORD)) {  // the text's own offsets: marked as written
      if (words.has(fold(m[0].normalize("NFC")))) hits.push([n, m.index, m[0].length]);
    }
  }
  // from the last hit back, so that earlier offsets in the same text stay right
  for (const [node, start, length] of hits.reverse()) {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, start + length);
    range.surroundContents(el("mark"));
  }
}
