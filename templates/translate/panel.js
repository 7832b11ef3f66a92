// The panel: a picked entry's msgid and context, catalog file and line, the pages that
// show it and its state, and the edit box that saves its translation.

import { el, say } from "../assets/lib/elements.js";
import { saveEntry } from "./api.js";

const fact = (label, ...value) => el("div", { class: "sb-fact" },
  el("dt", {}, label), el("dd", {}, ...value));

// Draw *entry* (GET /__translate/entry) into *box*, with the words *W*; *saved(entry)* is
// called once its translation is in the catalog.
export const showEntry = (box, entry, W, saved) => {
  const facts = el("dl", { class: "sb-facts" },
    fact(W.source, ...entry.msgid.map((text) => el("p", { lang: "en", class: "sb-msgid" }, text))),
    ...(entry.context ? [fact(W.context, el("code", {}, entry.context))] : []),
    fact(W.catalog, el("code", {}, `${entry.catalog}:${entry.line}`)),
    fact(W.state, el("span", { class: `sb-state sb-${entry.state}` }, W[entry.state] || entry.state)),
    fact(W.pages, el("ul", {}, ...entry.pages.map((page) => el("li", {},
      el("a", { href: `${page}#sb-msg=${entry.id}` }, page))))));
  const fields = entry.strings.map((text, n) => el("textarea", {
    rows: "3", lang: document.documentElement.lang,
    "aria-label": entry.strings.length > 1 ? W.form.replace("{n}", String(n)) : W.edit,
  }, text));
  const message = el("p", { class: "sb-message", role: "status", "aria-live": "polite" });
  message.hidden = true;
  const button = el("button", { type: "submit" }, W.save);
  const form = el("form", { class: "sb-edit" },
    el("label", {}, W.edit), ...fields, button, message);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    const { status, data } = await saveEntry(entry, fields.map((field) => field.value));
    button.disabled = false;
    if (status === 200) {
      say(message, W.saved);
      saved({ ...entry, ...data });
    } else if (status === 409) {
      say(message, [W.changed, ...(data.strings || []), ...(data.reasons || [])].join(" "));
    } else {
      say(message, [W.refused, ...(data.reasons || [data.error])].join(" "));
    }
    message.dataset.status = String(status);
  });
  box.replaceChildren(facts, form);
  fields[0].focus();
};
