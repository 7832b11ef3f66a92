// Making elements, saying a message in a box, reading the page's own data and address:
// one helper each, for every island.

// A new <tag> with *attrs* (attributes by name) and *children* (nodes or text), in order.
export const el = (tag, attrs = {}, ...children) => {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  element.append(...children);
  return element;
};

// A <tag> that shows *shown* (a symbol, a card's face) and gives *name* to screen readers.
export const named = (tag, attrs, shown, name) => el(tag, attrs,
  el("span", { "aria-hidden": "true" }, shown), el("span", { class: "visually-hidden" }, name));

// *box* saying *words*, or hidden when there are none.
export const say = (box, words) => {
  box.textContent = words || "";
  box.hidden = !words;
};

// Whether *id* is one this site writes (a heading's id), and so safe to put in an address.
export const isSafeId = (id) => /^[A-Za-z][\w-]{0,100}$/.test(id);

// Whether *select* (a <select>, or a hidden <input>) offers *value*.
export const offers = (select, value) => (select.options
  ? [...select.options].some((option) => option.value === value) : select.value === value);

// The JSON data block of the page with this id (the catalogs' words and the build's data).
export const pageData = (id) => JSON.parse(document.getElementById(id).textContent);

// The address without its fragment, in place (a link read once is not read again).
export const dropFragment = () => history.replaceState(null, "", location.pathname + location.search);

// The stylesheet at *href*, added to the page.
export const addStylesheet = (href) => {
  const link = el("link", { rel: "stylesheet", href });
  document.head.append(link);
  return link;
};
