// "You are here": which section of a rule page the reader is in, looked at again after any
// scroll (a wheel, the End key, a jump to an anchor, a search result's section), from the
// page's section headings (those its contents list).
//
// - Where the contents stand beside the text (from 84rem), the current section's entry is
//   marked (aria-current="location").
// - Below that, once the reader is past the first section's heading, a slim bar under the
//   header says "On this page ▸ current section" and opens the contents' list.
// - The language links lead to the section being read (the heading ids are the same in
//   every language), with or without a # in the address.
//
// Without JavaScript none of this exists and the page is as before: the folded contents
// above the text, and the language links to the top of the other language's page.

import { el, isSafeId } from "./lib/elements.js";  // only an id this site writes is used

// The page's contents (a <details class="toc">) and the headings its links lead to.
const sections = (toc) => [...toc.querySelectorAll("a[href^='#']")]
  .map(a => a.getAttribute("href").slice(1))
  .filter(isSafeId)
  .map(id => [id, document.getElementById(id)])
  .filter(([, h]) => h && /^H[2-6]$/.test(h.tagName));

// The bar and its drop-down list (a copy of the contents' list), added to the header.
const makeBar = (toc, header) => {
  const now = el("span", { class: "here-now" });
  const button = el("button", { type: "button", "aria-expanded": "false", "aria-controls": "here-list" },
    el("span", { class: "here-label" }, toc.querySelector("summary").textContent), " ", now);
  const bar = el("div", { class: "here", hidden: "" });
  const list = toc.querySelector("ol").cloneNode(true);
  list.id = "here-list";
  list.hidden = true;
  bar.append(button, list);
  header.append(bar);
  const open = (yes) => {
    list.hidden = !yes;
    button.setAttribute("aria-expanded", String(yes));
  };
  button.addEventListener("click", () => open(list.hidden));
  list.addEventListener("click", (event) => { if (event.target.closest("a")) open(false); });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !list.hidden) { open(false); button.focus(); }
  });
  return { bar, now, list, open };
};

// The section being read: the last heading above a line a third down the screen. At the
// foot of the page, where the last sections cannot rise to that line, the last heading in
// view; and a section jumped to (*aimed*: the address's #id) that stands in view, below the
// line because the page ends, is the one the reader asked for.
const current = (heads, aimed) => {
  const line = innerHeight / 3;
  const top = (h) => h.getBoundingClientRect().top;
  const inView = (h) => top(h) >= 0 && top(h) < innerHeight;
  let found = null;
  for (const [id, h] of heads) if (top(h) <= line) found = id;
  const foot = scrollY + innerHeight >= document.documentElement.scrollHeight - 2;
  if (foot) for (const [id, h] of heads) if (top(h) < innerHeight) found = id;
  const jumped = heads.find(([id]) => id === aimed);
  if (jumped && inView(jumped[1]) && top(jumped[1]) > line) found = aimed;
  return found;
};

// The section the address names (#id), if it is one of *heads*.
const addressed = (heads) => {
  let id;
  try { id = decodeURIComponent(location.hash.slice(1)); } catch { return null; }  // "#%E0"
  return heads.some(([h]) => h === id) ? id : null;
};

export const youAreHere = () => {
  const toc = document.querySelector("main details.toc");
  const header = document.querySelector(".site-header");
  if (!toc || !header || !("IntersectionObserver" in window)) return () => null;
  const heads = sections(toc);
  if (!heads.length) return () => null;
  const { bar, now, list, open } = makeBar(toc, header);
  const links = new Map([...toc.querySelectorAll("a[href^='#']"), ...list.querySelectorAll("a")]
    .map(a => [a, a.getAttribute("href").slice(1)]));
  let here = null;
  // a jump's section, until it leaves the screen (once it was on it: the browser may jump
  // to the address's #id after this first looks)
  let aimed = addressed(heads);
  let landed = false;
  const update = () => {
    const target = aimed && document.getElementById(aimed);
    const away = target && (target.getBoundingClientRect().bottom < 0
      || target.getBoundingClientRect().top > innerHeight);
    if (away && landed) aimed = null;
    else if (target && !away) landed = true;
    const id = current(heads, aimed);
    if (id === here) { show(id && document.getElementById(id)); return; }
    here = id;
    for (const [a, target] of links) {
      if (target === id) a.setAttribute("aria-current", "location");
      else a.removeAttribute("aria-current");
    }
    const heading = id && document.getElementById(id);
    now.textContent = heading ? heading.textContent.trim() : "";
    show(heading);
  };
  // the bar once the contents above the text are out of sight (and not over the first screen)
  const show = (heading) => {
    const past = Boolean(heading) && toc.getBoundingClientRect().bottom < header.getBoundingClientRect().bottom + 1;
    const appears = past && bar.hidden;
    bar.hidden = !past;
    document.documentElement.classList.toggle("with-here", past);
    if (!past) open(false);
    // a jump (an address's #id, a search result) placed the heading under the header alone:
    // the bar that now appears would cover it, so the heading goes under the bar
    const target = appears && aimed && document.getElementById(aimed);
    if (target && target.getBoundingClientRect().top < bar.getBoundingClientRect().bottom) {
      target.scrollIntoView();
    }
  };
  // each heading crossing the reading line (or the screen's edges) is a moment to look again
  const observer = new IntersectionObserver(update, {
    rootMargin: "0px 0px -66% 0px", threshold: [0, 1],
  });
  for (const [, h] of heads) observer.observe(h);
  observer.observe(toc);
  addEventListener("resize", update, { passive: true });
  // any scroll, however far (the End key, a jump): once a frame
  let asked = false;
  addEventListener("scroll", () => {
    if (asked) return;
    asked = true;
    requestAnimationFrame(() => { asked = false; update(); });
  }, { passive: true });
  addEventListener("hashchange", () => { aimed = addressed(heads); landed = false; update(); });
  update();
  return () => here;
};
