// The score keeper's page (<lang>/score/): set up a game, add each round (or correct one),
// see the running totals, who deals next, the points to the limit, who has passed it and
// the winners. Every word comes from the page's JSON block (the catalogs); every rule number
// from the build (score.py). Without JavaScript the page is a blank sheet to print.

import { el, named, pageData, say as sayIn } from "../lib/elements.js";
import { words } from "../lib/text.js";
import { checkRound, standing } from "./check.js";
import { cleanName, newSheet, readPoints, sheetStore } from "./sheet.js";

const data = pageData("score-data");
const text = data.text;
const root = document.querySelector("[data-score]");
const lang = document.documentElement.lang;
// *template* with its {fields} filled in: numbers in the page's language; lists of names
const { fill: say, list, number } = words(lang);
const store = sheetStore(lang, data.offered);
let sheet = null;
let editing = -1;  // the round being corrected (from 0), or -1: a new round

const rulesOf = (s) => data.offered[s.rules];
const nameOf = (i) => sheet.names[i] || say(text.player, { n: i + 1 });

// The reason a round cannot happen, in the page's language.
const reason = (found, rules) => {
  const fixed = rules.fixed !== null && (found.code === "hand_low" || found.code === "hand_high");
  const v = found.values;
  return say(text.problems[found.code + (fixed ? "_fixed" : "")], {
    ...v, fixed: rules.fixed, game: rules.title,
    player: v.seat ? nameOf(v.seat - 1) : v.player,
    // a list of names where the problem names seats; else the number of players it counts
    players: v.seats ? list(v.seats.map((s) => nameOf(s - 1))) : v.players,
  });
};

const message = (where, words) => sayIn(root.querySelector(where), words);

// A cell (or any element) holding *content* (none when it is "").
const cell = (tag, content, attrs = {}) => (content === "" ? el(tag, attrs) : el(tag, attrs, content));

// The table: a row a round (each with its correction button), blank rows up to a printed
// sheet's length, the totals (the winners and those past the limit marked in words for
// screen readers, by a sign for the eye) and the points left to the limit.
const drawTable = (result, rules) => {
  const table = document.querySelector(".score-table");
  const head = table.tHead.rows[0];
  head.replaceChildren(cell("th", text.round, { scope: "col" }),
    ...sheet.names.map((_, i) => cell("th", nameOf(i), { scope: "col" })));
  const body = table.tBodies[0];
  body.replaceChildren();
  const rows = Math.max(data.printed_rounds, sheet.rounds.length);
  for (let r = 0; r < rows; r++) {
    const round = sheet.rounds[r];
    const row = body.insertRow();
    if (!round) row.className = "blank";
    const th = cell("th", number(r + 1), { scope: "row" });
    if (round) {
      const fix = el("button", { type: "button", class: "score-fix", "data-fix": String(r),
                                 "aria-label": say(text.correct, { n: r + 1 }) }, "✎");
      th.append(" ", fix);
    }
    row.append(th, ...sheet.names.map((_, i) => cell("td", round ? number(round[i]) : "")));
  }
  const foot = table.tFoot;
  const totals = foot.rows[0];
  totals.replaceChildren(cell("th", text.total, { scope: "row" }),
    ...result.totals.map((t, i) => {
      const td = cell("td", sheet.rounds.length ? number(t) : "",
        result.winners.includes(i) ? { class: "winner" } : {});
      if (result.winners.includes(i)) td.append(named("span", { class: "mark" }, "★", text.winner_mark));
      else if (rules.lowest_wins && result.reached.includes(i)) {
        td.append(named("span", { class: "mark" }, "✕", text.past));
      }
      return td;
    }));
  while (foot.rows.length > 1) foot.deleteRow(1);
  const togo = foot.insertRow();
  togo.className = "togo";
  togo.append(cell("th", say(text.to_go, { n: rules.target }), { scope: "row" }),
    ...result.totals.map((t) => cell("td", t >= rules.target && rules.lowest_wins ? text.past
      : number(Math.max(0, rules.target - t)))));
};

const drawStatus = (result, rules) => {
  let words = say(rules.lowest_wins ? text.limit_low : text.limit_high, { n: rules.target });
  if (result.over) {
    const names = list(result.winners.map(nameOf));
    words = say(result.winners.length > 1 ? text.winners : text.winner,
      { players: names, total: result.totals[result.winners[0]] });
  } else {
    if (result.reached.length) {
      words += " " + say(text.reached, { players: list(result.reached.map(nameOf)) });
    }
    words += " " + say(text.next_deal, { player: nameOf(sheet.rounds.length % sheet.names.length) });
  }
  root.querySelector("[data-status]").textContent = words;
};

// The rules the sheet applies, as links to their sections; and what a printed sheet says.
const drawLinks = (result, rules) => {
  const links = [
    [rules.links.scoring, rules.lowest_wins ? text.link_scoring : text.link_scoring_high],
    [rules.links.limit, text.link_limit],
    ...(rules.links.variation ? [[rules.links.variation, rules.variation]] : []),
  ];
  const box = root.querySelector("[data-links]");
  box.replaceChildren(text.rules_links + " ");
  links.forEach(([href, words], i) => box.append(...(i ? [" · "] : []), el("a", { href }, words)));
  const today = new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(new Date());
  const status = root.querySelector("[data-status]").textContent;
  document.querySelector("[data-printed]").textContent =
    `${say(text.printed, { game: rules.label, n: rules.target, date: today })} · ${status}`;
};

// The round form: a field a player, and the round's winner to fill in the winner's score;
// a correction shows the round's scores.
const drawRoundForm = (result, rules) => {
  const form = root.querySelector("[data-round]");
  form.hidden = result.over && editing < 0;
  form.querySelector("legend").textContent = editing >= 0 ? say(text.correct, { n: editing + 1 })
    : say(text.round_n, { n: sheet.rounds.length + 1 });
  form.querySelector("[data-help]").textContent = rules.lowest_wins ? text.help_low : text.help_high;
  form.querySelector("[data-cancel]").hidden = editing < 0;
  const winners = form.querySelector("[data-winners]");
  winners.replaceChildren(radio(-1, text.nobody_marked, true),
    ...sheet.names.map((_, i) => radio(i, nameOf(i), false)));
  const fields = form.querySelector("[data-fields]");
  const shown = editing >= 0 ? sheet.rounds[editing] : null;
  fields.replaceChildren(...sheet.names.map((_, i) => {
    const label = cell("label", nameOf(i) + " ");
    const input = cell("input", "", { type: "text", inputmode: "numeric", autocomplete: "off",
                                      name: `p${i}`, size: "5", maxlength: "6" });
    if (shown) input.value = String(shown[i]);
    label.append(input);
    return label;
  }));
  markWinner();
};

const radio = (value, words, checked) => {
  const label = cell("label", "");
  const input = cell("input", "", { type: "radio", name: "winner", value: String(value) });
  input.checked = checked;
  label.append(input, " " + words);
  return label;
};

const draw = () => {
  const rules = rulesOf(sheet);
  const result = standing(sheet.rounds, sheet.names.length, rules);
  root.querySelector("[data-setup]").hidden = true;
  root.querySelector("[data-game]").hidden = false;
  root.querySelector("[data-title]").textContent = rules.label;
  drawTable(result, rules);
  drawStatus(result, rules);
  drawLinks(result, rules);
  drawRoundForm(result, rules);
  root.querySelector("[data-undo]").disabled = sheet.rounds.length === 0;
};

// The round's winner: in Rami that player scores 0; in CardVerse they gain what the others
// hold, and the others' fields take the points left in their hands.
const markWinner = () => {
  const form = root.querySelector("[data-round]");
  const chosen = Number(form.elements.winner.value);
  const rules = rulesOf(sheet);
  sheet.names.forEach((_, i) => {
    const input = form.elements[`p${i}`];
    input.disabled = i === chosen;
    if (i === chosen) input.value = rules.lowest_wins ? "0" : "";
    input.setAttribute("aria-label", say(i === chosen ? text.went_out
      : chosen >= 0 && !rules.lowest_wins ? text.in_hand : text.points, { player: nameOf(i) }));
  });
};

// The scores typed in the round form, or the words that say what is wrong.
const typedRound = (form, rules) => {
  const chosen = Number(form.elements.winner.value);
  const typed = [];
  for (let i = 0; i < sheet.names.length; i++) {
    if (i === chosen) { typed.push(0); continue; }
    const raw = form.elements[`p${i}`].value;
    const points = readPoints(raw);
    if (points === null || points < 0) {
      form.elements[`p${i}`].focus();
      if (points !== null) return { error: say(text.problems.negative, { player: nameOf(i), score: points }) };
      return { error: say(raw.trim() ? text.not_a_number : text.missing,
        { value: raw.trim().slice(0, 12), player: nameOf(i) }) };
    }
    typed.push(points);
  }
  if (chosen < 0 || rules.lowest_wins) return { scores: typed };
  const gain = typed.reduce((sum, p) => sum + p, 0);
  return { scores: typed.map((_, i) => (i === chosen ? gain : 0)) };
};

// Change the sheet as it is stored now (another tab may have added rounds since this page
// read it): *change* gets that sheet (this page's, when the device keeps nothing or holds
// another game) and changes it in place. A round another tab added is kept, and said.
const change = (how) => {
  let other = false;
  const done = store.update((now) => {
    const base = now && now.id === sheet.id ? now : sheet;
    other = base !== sheet && (base.rev !== sheet.rev || base.rounds.length !== sheet.rounds.length);
    const next = { ...base, rounds: base.rounds.map((r) => [...r]) };
    delete next.lost;
    how(next);
    return next;
  });
  sheet = done.value;
  message(".score-message", done.problem ? text.not_saved : other ? text.changed : "");
};

const addRound = (event) => {
  event.preventDefault();
  const form = event.target;
  const rules = rulesOf(sheet);
  const typed = typedRound(form, rules);
  if (typed.error) return message(".score-error", typed.error);
  const found = checkRound(typed.scores, rules);
  if (found) return message(".score-error", reason(found, rules));
  message(".score-error", "");
  const at = editing;
  change((s) => {
    if (at >= 0 && at < s.rounds.length) s.rounds[at] = typed.scores;
    else s.rounds.push(typed.scores);
  });
  editing = -1;
  draw();
  root.querySelector("[data-round] input[type=text]:not(:disabled)")?.focus();
};

const setUp = () => {
  const form = root.querySelector("[data-setup]");
  const players = Number(form.elements.players.value);
  form.querySelectorAll("[data-name]").forEach((label, i) => { label.hidden = i >= players; });
};

const start = (event) => {
  event.preventDefault();
  const form = event.target;
  const players = Number(form.elements.players.value);
  const names = [...form.querySelectorAll("[data-name] input")].slice(0, players)
    .map((input) => cleanName(input.value));
  sheet = newSheet(form.elements.rules.value, names);
  editing = -1;
  const done = store.update(() => sheet);
  sheet = done.value;
  message(".score-message", done.problem ? text.not_saved : "");
  draw();
  root.querySelector("[data-round] input[type=text]:not(:disabled)")?.focus();
};

// A new game: the sheet it replaces is named (its game, players and rounds) before it goes.
const newGame = () => {
  if (sheet && sheet.rounds.length && !window.confirm(say(text.confirm_clear, {
    game: rulesOf(sheet).label, players: list(sheet.names.map((_, i) => nameOf(i))),
    n: sheet.rounds.length }))) return;
  sheet = null;
  editing = -1;
  message(".score-error", "");
  message(".score-message", "");
  root.querySelector("[data-game]").hidden = true;
  root.querySelector("[data-setup]").hidden = false;
  setUp();
  root.querySelector("[data-setup] select").focus();
};

const wire = () => {
  const setup = root.querySelector("[data-setup]");
  setup.addEventListener("submit", start);
  setup.elements.players.addEventListener("change", setUp);
  const round = root.querySelector("[data-round]");
  round.addEventListener("submit", addRound);
  round.addEventListener("change", (e) => { if (e.target.name === "winner") markWinner(); });
  round.querySelector("[data-cancel]").addEventListener("click", () => {
    editing = -1;
    message(".score-error", "");
    draw();
  });
  document.querySelector(".score-table").addEventListener("click", (e) => {
    const fix = e.target.closest("[data-fix]");
    if (!fix || !sheet) return;
    editing = Number(fix.dataset.fix);
    message(".score-error", "");
    draw();
    round.scrollIntoView({ block: "start" });
    round.querySelector("input[type=text]:not(:disabled)")?.focus();
  });
  root.querySelector("[data-undo]").addEventListener("click", () => {
    const last = sheet.rounds.length;
    change((s) => { if (s.rounds.length === last) s.rounds.pop(); });
    editing = -1;
    draw();
  });
  root.querySelector("[data-clear]").addEventListener("click", newGame);
  root.querySelector("[data-print]").addEventListener("click", () => window.print());
  // another tab changed the sheet: show what it holds now, and say so
  store.watch((found) => {
    if (!found.value) return;
    if (sheet && found.value.id === sheet.id && found.value.rev === sheet.rev) return;
    sheet = found.value;
    if (editing >= sheet.rounds.length) editing = -1;
    message(".score-message", text.changed);
    draw();
  });
};

const begin = () => {
  const found = store.load();
  wire();
  root.hidden = false;
  document.querySelector("[data-where]").hidden = false;
  document.querySelector("[data-score-nojs]")?.setAttribute("hidden", "");
  if (found.problem) {
    message(".score-message", found.problem === "damaged" ? text.damaged_kept : text.not_saved);
  } else if (found.value && found.value.lost) message(".score-message", text.partly);
  sheet = found.value;
  if (sheet) return draw();
  root.querySelector("[data-setup]").hidden = false;
  setUp();
};

begin();
