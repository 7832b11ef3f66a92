// Glossary terms explained in place: a term link (class "term", built by
// site_builder/render/terms.py) shows the glossary's definition, the text of the element its
// aria-describedby names, on hover, on focus, or on a first tap; a second tap, a click or
// Enter follows the link to the definition. Escape hides it. A screen reader reads the
// definition with the link through aria-describedby, with or without this script; the
// box shown here repeats it for the eye only.

import { el } from "./lib/elements.js";

const SAFE_ID = /^def-[a-z0-9-]{1,100}$/;

const makeTip = () => {
  const tip = el("div", { class: "term-tip", hidden: "", "aria-hidden": "true" });
  document.body.append(tip);
  return tip;
};

// *tip* under *link* (above it if there is no room below), inside the window.
const place = (tip, link) => {
  const r = link.getBoundingClientRect();
  tip.style.left = "0px";
  tip.style.top = "0px";
  const width = tip.offsetWidth;
  const height = tip.offsetHeight;
  const left = Math.max(8, Math.min(r.left, innerWidth - width - 8));
  const below = r.bottom + 6;
  const top = below + height > innerHeight && r.top - height - 6 > 0 ? r.top - height - 6 : below;
  tip.style.left = `${left + scrollX}px`;
  tip.style.top = `${top + scrollY}px`;
};

export const explainTerms = () => {
  const links = [...document.querySelectorAll("main a.term[aria-describedby]")]
    .filter(a => SAFE_ID.test(a.getAttribute("aria-describedby")));
  if (!links.length) return;
  const tip = makeTip();
  let shown = null;
  let touched = null;  // the link a finger went down on, and whether it showed then
  const show = (link) => {
    const def = document.getElementById(link.getAttribute("aria-describedby"));
    if (!def) return;
    tip.textContent = def.textContent;
    tip.hidden = false;
    place(tip, link);
    shown = link;
  };
  const hide = () => { tip.hidden = true; shown = null; };
  for (const link of links) {
    link.addEventListener("mouseenter", () => show(link));
    link.addEventListener("mouseleave", () => { if (shown === link) hide(); });
    link.addEventListener("focus", () => show(link));
    link.addEventListener("blur", () => { if (shown === link) hide(); });
    link.addEventListener("pointerdown", (e) => {
      touched = e.pointerType === "touch" ? [link, shown === link] : null;
    });
    link.addEventListener("click", (event) => {
      if (touched && touched[0] === link && !touched[1]) { event.preventDefault(); show(link); }
      touched = null;
    });
  }
  document.addEventListener("keydown", (event) => { if (event.key === "Escape" && shown) hide(); });
  document.addEventListener("pointerdown", (event) => {
    if (shown && !event.target.closest("a.term")) hide();
  });
  addEventListener("resize", () => { if (shown) place(tip, shown); });
};
