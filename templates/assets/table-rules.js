// My table's rules: the game a table plays (Rami 40 or Rami 51) and its
// variation, chosen once in the page menu and kept on the device. The switch and its words
// come from the language folder's table-rules.json (site_builder/render/table_rules.py);
// without JavaScript, from disk, or before any choice, every page shows everything.
//
// What the choice changes on a page: a mark under the header says it and undoes it in one
// tap; the example rows whose result differs in the other game (the build marks them with
// that game, data-game; a row that holds in both games stays) fold away behind a note
// that says so and can show them; the checker opens on the table's game and rule set; a
// quick-reference sheet marks the table's game; the score keeper and the practice table
// start with it (their selects carry data-table-game and data-table-profile, or
// data-table-rules for "game:profile").

import { el, offers, say } from "./lib/elements.js";
import { stored } from "./lib/storage.js";
import { fill } from "./lib/text.js";

const manifest = document.querySelector('link[rel="manifest"]');
const nav = document.querySelector("nav#pages");

// The choice kept on the device (lib/storage.js): one the site no longer offers, or
// anything else, is read as none (and removed); a device that keeps nothing says so, and
// the choice holds for this page.
const kept = (data) => stored("rami-table-rules", {
  max: 1000,
  read: (choice) => {
    const found = valid(choice, data);
    return found.game ? found : null;
  },
});

// The stored choice, if it is one the site offers now; else none.
const valid = (choice, data) => {
  if (!choice || typeof choice !== "object") return { game: "", profile: "" };
  const game = data.games.some((g) => g.key === choice.game) ? choice.game : "";
  const profile = data.profiles.some((p) => p.key === choice.profile) ? choice.profile : "";
  return { game, profile: game ? profile : "" };
};

const option = (value, words) => el("option", { value }, words);

const menu = (label, name, options) => el("label", {}, label + " ", el("select", { name }, ...options));

const buildForm = (data) => {
  const form = el("form", { class: "table-rules" }, el("fieldset", {},
    el("legend", {}, data.text.legend),
    menu(data.text.game, "table-game", [option("", data.text.both),
      ...data.games.map((g) => option(g.key, g.title))]),
    menu(data.text.profile, "table-profile", data.profiles.map((p) => option(p.key, p.name)))),
  el("p", { class: "table-rules-note", role: "status", hidden: "" }));
  form.addEventListener("submit", (event) => event.preventDefault());
  return form;
};

// Fold the other game's rows of each example table behind a note that can show them. A
// table whose rows share one game says it once (its box's data-game), else each row does.
const foldRows = (choice, data) => {
  for (const note of document.querySelectorAll(".other-game")) note.remove();
  for (const row of document.querySelectorAll("main .example tbody tr")) row.hidden = false;
  if (!choice.game) return;
  const title = (key) => data.games.find((g) => g.key === key).title;
  const known = (key) => data.games.some((g) => g.key === key);
  for (const box of document.querySelectorAll("main .example")) {
    const gameOf = (row) => box.dataset.game || row.dataset.game;
    const others = [...box.querySelectorAll("tbody tr")].filter((row) =>
      gameOf(row) && gameOf(row) !== choice.game && known(gameOf(row)));
    if (!others.length) continue;
    for (const row of others) row.hidden = true;
    const button = el("button", { type: "button", "aria-expanded": "false" }, data.text.show);
    button.addEventListener("click", () => {
      const open = button.getAttribute("aria-expanded") !== "true";
      for (const row of others) row.hidden = !open;
      button.setAttribute("aria-expanded", String(open));
      button.textContent = open ? data.text.hide : data.text.show;
    });
    box.after(el("p", { class: "other-game" }, fill(data.text.hidden,
      { game: title(gameOf(others[0])), mine: title(choice.game) }) + " ", button));
  }
};

// Set a select to *value* if it offers it, and tell its page (the checker listens).
const follow = (select, value) => {
  if (!select || !value || !offers(select, value)) return;
  select.value = value;
  select.dispatchEvent(new Event("change", { bubbles: true }));
};

// The compact mark under the header of every page while a choice is on ("Your table: Rami 40
// · higher joker penalty"), with the one tap that undoes it.
const drawMark = (choice, data, undo) => {
  document.querySelector(".table-mark")?.remove();
  if (!choice.game) return;
  const game = data.games.find((g) => g.key === choice.game).title;
  const profile = data.profiles.find((p) => p.key === choice.profile);
  const rules = profile && profile.key !== data.profiles[0].key ? `${game} · ${profile.name}` : game;
  const button = el("button", { type: "button" }, data.text.undo);
  button.addEventListener("click", undo);
  document.querySelector(".site-header")?.after(
    el("p", { class: "table-mark", role: "status" }, fill(data.text.mark, { rules }) + " ", button));
};

const apply = (choice, data) => {
  foldRows(choice, data);
  document.documentElement.dataset.tableGame = choice.game;
  for (const li of document.querySelectorAll(".quickref [data-game]")) {
    li.classList.toggle("mine", li.dataset.game === choice.game);
  }
  if (!choice.game) return;
  const rules = `${choice.game}:${choice.profile || data.profiles[0].key}`;
  follow(document.querySelector("form[data-checker] select[name=game]"), choice.game);
  follow(document.querySelector("form[data-checker] select[name=profile]"), choice.profile);
  for (const select of document.querySelectorAll("select[data-table-game]")) follow(select, choice.game);
  for (const select of document.querySelectorAll("select[data-table-profile]")) {
    follow(select, choice.profile || data.profiles[0].key);
  }
  for (const select of document.querySelectorAll("select[data-table-rules]")) {
    follow(select, offers(select, rules) ? rules
      : `${choice.game}:${data.profiles[0].key}`);
  }
};

const start = async () => {
  const response = await fetch(new URL("table-rules.json", manifest.href));
  if (!response.ok) return;
  const data = await response.json();
  const form = buildForm(data);
  const store = kept(data);
  const found = store.load();
  let choice = found.value || valid(null, data);
  const show = () => {
    form.elements["table-game"].value = choice.game;
    form.elements["table-profile"].value = choice.profile || data.profiles[0].key;
    form.elements["table-profile"].disabled = !choice.game;
    apply(choice, data);
    drawMark(choice, data, () => choose(""));
  };
  const choose = (game) => {
    choice = valid({ game, profile: form.elements["table-profile"].value }, data);
    say(form.querySelector(".table-rules-note"),
      store.save(choice.game ? choice : null) ? data.text.not_saved : "");
    show();
  };
  form.addEventListener("change", () => choose(form.elements["table-game"].value));
  // a choice made in another tab holds here too, at once
  store.watch((now) => {
    choice = now.value || valid(null, data);
    show();
  });
  // near the top of the menu: after the tools for the table (the score sheet), before the pages
  const tools = nav.querySelector(".at-table");
  if (tools) tools.after(form);
  else nav.prepend(form);
  if (found.problem === "damaged") say(form.querySelector(".table-rules-note"), data.text.damaged);
  show();
};

if (manifest && nav && /^https?:$/.test(location.protocol)) start().catch(() => {});
