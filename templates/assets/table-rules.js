// My table's rules: the game a table plays (Rami 40 or Rami 51) and its
// variation, chosen once in the page menu and kept on the device. The switch and its words
// come from the language folder's table-rules.json (site_builder/render/table_rules.py);
// without JavaScript, from disk, or before any choice, every page shows everything.
//
// What the choice changes on a page: the other game's example rows fold away behind a note
// that says so and can show them; the checker opens on the table's game and rule set; a
// quick-reference sheet marks the table's game; the score keeper and the practice table
// start with it (their selects carry data-table-game and data-table-profile, or
// data-table-rules for "game:profile").

const KEY = "rami-table-rules";
const manifest = document.querySelector('link[rel="manifest"]');
const nav = document.querySelector("nav#pages");

const stored = () => {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "null");
  } catch {
    return null;
  }
};

const store = (choice) => {
  try {
    if (choice.game) localStorage.setItem(KEY, JSON.stringify(choice));
    else localStorage.removeItem(KEY);
  } catch {
    // a device that keeps nothing: the choice holds for this page
  }
};

// The stored choice, if it is one the site offers now; else none.
const valid = (choice, data) => {
  if (!choice || typeof choice !== "object") return { game: "", profile: "" };
  const game = data.games.some((g) => g.key === choice.game) ? choice.game : "";
  const profile = data.profiles.some((p) => p.key === choice.profile) ? choice.profile : "";
  return { game, profile: game ? profile : "" };
};

const option = (value, words) => {
  const el = document.createElement("option");
  el.value = value;
  el.textContent = words;
  return el;
};

const select = (label, name, options) => {
  const wrap = document.createElement("label");
  const el = document.createElement("select");
  el.name = name;
  el.append(...options);
  wrap.append(label + " ", el);
  return wrap;
};

const buildForm = (data) => {
  const form = document.createElement("form");
  form.className = "table-rules";
  const set = document.createElement("fieldset");
  const legend = document.createElement("legend");
  legend.textContent = data.text.legend;
  set.append(legend,
    select(data.text.game, "table-game", [option("", data.text.both),
      ...data.games.map((g) => option(g.key, g.title))]),
    select(data.text.profile, "table-profile", data.profiles.map((p) => option(p.key, p.name))));
  form.append(set);
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
    const note = document.createElement("p");
    note.className = "other-game";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = data.text.show;
    button.setAttribute("aria-expanded", "false");
    button.addEventListener("click", () => {
      const open = button.getAttribute("aria-expanded") !== "true";
      for (const row of others) row.hidden = !open;
      button.setAttribute("aria-expanded", String(open));
      button.textContent = open ? data.text.hide : data.text.show;
    });
    note.append(data.text.hidden.replace("{game}", title(gameOf(others[0])))
      .replace("{mine}", title(choice.game)) + " ", button);
    box.after(note);
  }
};

// Set a select to *value* if it offers it, and tell its page (the checker listens).
const follow = (el, value) => {
  if (!el || !value || ![...el.options].some((o) => o.value === value)) return;
  el.value = value;
  el.dispatchEvent(new Event("change", { bubbles: true }));
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
  for (const el of document.querySelectorAll("select[data-table-game]")) follow(el, choice.game);
  for (const el of document.querySelectorAll("select[data-table-profile]")) {
    follow(el, choice.profile || data.profiles[0].key);
  }
  for (const el of document.querySelectorAll("select[data-table-rules]")) {
    follow(el, [...el.options].some((o) => o.value === rules) ? rules
      : `${choice.game}:${data.profiles[0].key}`);
  }
};

const start = async () => {
  const response = await fetch(new URL("table-rules.json", manifest.href));
  if (!response.ok) return;
  const data = await response.json();
  const form = buildForm(data);
  let choice = valid(stored(), data);
  form.elements["table-game"].value = choice.game;
  form.elements["table-profile"].value = choice.profile || data.profiles[0].key;
  form.elements["table-profile"].disabled = !choice.game;
  form.addEventListener("change", () => {
    const game = form.elements["table-game"].value;
    choice = valid({ game, profile: form.elements["table-profile"].value }, data);
    form.elements["table-profile"].disabled = !choice.game;
    store(choice);
    apply(choice, data);
  });
  nav.append(form);
  apply(choice, data);
};

if (manifest && nav && /^https?:$/.test(location.protocol)) start().catch(() => {});
