// Picking a text from the catalog on the page: a click, a long press (half a second), or
// Tab to it and Enter or Space. Each marked text (<span data-sb-msg>) becomes a target.

const HOLD_MS = 500;

export const marked = () => [...document.querySelectorAll("[data-sb-msg]")];

// The marked texts of entry *id*, highlighted (and the first scrolled to), the others not.
export const highlight = (id) => {
  for (const span of marked()) span.classList.toggle("sb-picked", span.dataset.sbMsg === id);
  const first = document.querySelector(`[data-sb-msg="${CSS.escape(id)}"]`);
  if (first) first.scrollIntoView({ block: "center" });
  return first;
};

// Make every marked text pickable; *onPick(id, span)* is called for each pick, while
// *active()* says picking is on (off: links and buttons work as usual).
export const enablePicking = (onPick, active) => {
  for (const span of marked()) {
    span.tabIndex = 0;
    span.classList.add("sb-marked");
  }
  const target = (event) => (active() ? event.target.closest("[data-sb-msg]") : null);
  document.addEventListener("click", (event) => {
    const span = target(event);
    if (!span) return;
    event.preventDefault();
    event.stopPropagation();
    onPick(span.dataset.sbMsg, span);
  }, true);
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const span = target(event);
    if (!span || event.target !== span) return;
    event.preventDefault();
    onPick(span.dataset.sbMsg, span);
  }, true);
  let timer = null;
  document.addEventListener("pointerdown", (event) => {
    const span = target(event);
    if (!span) return;
    timer = setTimeout(() => onPick(span.dataset.sbMsg, span), HOLD_MS);
  });
  for (const name of ["pointerup", "pointercancel", "pointermove"]) {
    document.addEventListener(name, () => clearTimeout(timer));
  }
};
