// The translator's preview (site-builder serve --translate LANG): pick a text of the
// page to see its catalog entry and edit it; the status page lists what is left.

import { el } from "../assets/lib/elements.js";
import { stored } from "../assets/lib/storage.js";
import { get, lang } from "./api.js";
import { leftList } from "./left.js";
import { showEntry } from "./panel.js";
import { enablePicking, highlight } from "./pick.js";

const W = (await get("words")).data;
const pending = stored("site-builder-translate-picked", { read: (id) => (typeof id === "string" ? id : null) });
let picking = true;

const body = el("div", { class: "sb-body" }, el("p", {}, W.pick));
const toggle = el("button", { type: "button", "aria-pressed": "true", class: "sb-toggle" }, W.panel);
const close = el("button", { type: "button", class: "sb-close" }, W.close);
const panel = el("aside", { class: "sb-panel", "aria-label": W.panel, lang }, toggle, close, body);
document.body.append(panel);

toggle.addEventListener("click", () => {
  picking = !picking;
  toggle.setAttribute("aria-pressed", String(picking));
  body.hidden = !picking;
});
close.addEventListener("click", () => { body.replaceChildren(el("p", {}, W.pick)); highlight(""); });

const open = async (id) => {
  highlight(id);
  const { status, data } = await get(`entry?id=${encodeURIComponent(id)}`);
  if (status !== 200) {
    body.replaceChildren(el("p", { role: "alert" }, data.error));
    return;
  }
  showEntry(body, data, W, (entry) => pending.save(entry.id));
};

enablePicking(open, () => picking);

const here = location.pathname;
const { data: left } = await get("left");
if (here.endsWith("/translation-status/")) {
  document.querySelector("main").append(leftList(left, W));
} else {
  body.append(leftList(left, W, here));
}

const fromLink = /^#sb-msg=([0-9a-f]{12})$/.exec(location.hash);
const again = pending.load().value;
if (fromLink) open(fromLink[1]);
else if (again) {
  pending.save(null);
  open(again);
}
