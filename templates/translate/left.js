// What is left of the language: its missing, fuzzy and obsolete entries, page by page,
// each linking to where the page shows it (highlighted there).

import { el } from "../assets/lib/elements.js";

const item = (entry, page, W) => el("li", { class: `sb-${entry.state}` },
  el("span", { class: "sb-state" }, W[entry.state] || entry.state), " ",
  page ? el("a", { href: `${page}#sb-msg=${entry.id}`, lang: "en" }, entry.msgid)
    : el("span", { lang: "en" }, entry.msgid),
  ...(entry.line ? [" ", el("code", {}, `:${entry.line}`)] : []));

// The list of *left* (GET /__translate/left), of every page or of *only* (an address).
export const leftList = (left, W, only = null) => {
  const pages = left.pages.filter((group) => only === null || group.page === only);
  const groups = pages.map((group) => el("section", { class: "sb-left-page" },
    el("h3", {}, group.page || W.nowhere),
    el("ul", {}, ...group.entries.map((entry) => item(entry, group.page, W)))));
  if (only === null && left.obsolete.length) {
    groups.push(el("section", { class: "sb-left-page" }, el("h3", {}, W.obsolete),
      el("ul", {}, ...left.obsolete.map((entry) => item(entry, null, W)))));
  }
  return el("div", { class: "sb-left" }, el("h2", {}, W.left),
    ...(groups.length ? groups : [el("p", {}, W.nothing_left)]));
};
