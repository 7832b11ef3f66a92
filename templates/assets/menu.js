// The page menu of a language of many pages. Each page's menu lists its own section of the
// reading order (the pages around it) under a link to the home page's list of every page
// (site_builder/render/context.py: sidebar); the whole list is one file a language
// (<lang>/menu.html, its <li> items), which this module puts in the section's place the
// first time the menu shows: when a phone's menu button opens it, or at once where the
// sidebar stands beside the text. So any page is two taps away on a phone (the menu, the
// page), and a page carries a few links, not one for every page. Without JavaScript, or if
// the file cannot be read (file://), the section and the link to every page remain.

const holder = document.querySelector(".site-nav [data-menu]");
const toggle = document.querySelector(".menu-toggle");  // the page menu's checkbox

let asked = false;

const load = async () => {
  if (asked) return;
  asked = true;
  const address = new URL(holder.dataset.menu, location.href);
  let text;
  try {
    const response = await fetch(address);
    if (!response.ok) throw new Error(response.statusText);
    text = await response.text();
  } catch {
    asked = false;  // the section stays; the next opening asks again
    return;
  }
  const list = new DOMParser().parseFromString(`<ul>${text}</ul>`, "text/html").body.firstChild;
  const here = holder.querySelector("a[aria-current]");
  for (const link of list.querySelectorAll("a[href]")) {
    link.href = new URL(link.getAttribute("href"), address).href;  // the file's links: from it
    if (here && link.href === here.href) link.setAttribute("aria-current", "page");
  }
  holder.querySelector("ul").replaceWith(document.adoptNode(list));
  const current = list.querySelector("a[aria-current]");
  const panel = holder.closest("nav");
  if (current && panel) {  // the reader's page in sight in the list, which scrolls
    panel.scrollTop = Math.max(0, current.offsetTop - panel.clientHeight / 2);
  }
};

if (holder) {
  if (toggle) toggle.addEventListener("change", () => { if (toggle.checked) load(); });
  const sidebar = holder.closest("nav");
  if (sidebar && getComputedStyle(sidebar).display !== "none") load();
}
