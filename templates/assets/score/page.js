// The score keeper's page (<lang>/score/): set up a game, add each round, see the running
// totals, who has reached the limit and the winners. Every word comes from the page's
// JSON block (the catalogs); every rule number from the build (score.py). Without
// JavaScript the page is a blank sheet to print.

import { el, pageData, say as sayIn } from "../lib/elements.js";
import { words } from "../lib/text.js";
import { checkRound, standing } from "./check.js";
import { MAX_NAME, load, newSheet, readPoints, save } from "./sheet.js";

const data = pageData("score-data");
const text = data.text;
const root = document.querySelector("[data-score]");
// *template* with its {fields} filled in: numbers in the page's language; lists of names
const { fill: say, list, number } = words(document.documentElement.lang);
let sheet = null;

const rulesOf = (s) => data.offered[s.rules];
const nameOf = (i) => sheet.names[i] || say(text.player, { n: i + 1 });

// The reason a round cannot happen, in the page's language.
const reason = (found, rules) => {
  const fixed = rules.fixed !== null && (found.code === "hand_low" || found.code === "hand_high");
  const v = found.values;
  return say(text.problems[found.code + (fixed ? "_fixed" : "")], {
    ...v, fixed: rules.fixed, game: rules.title,
    player: v.seat ? nameOf(v.seat - 1) : undefined,
    players: v.seats ? list(v.seats.map((s) => nameOf(s - 1))) : undefined,
  });
};

const message = (where, words) => sayIn(root.querySelector(where), words);

// A cell (or any element) holding *content* (none when it is "").
const cell = (tag, content, attrs = {}) => (content === "" ? el(tag, attrs) : el(tag, attrs, content));

// The table: a row a round, blank rows up to a printed sheet's length, the totals.
const drawTable = (result) => {
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
    row.append(cell("th", number(r + 1), { scope: "row" }),
      ...sheet.names.map((_, i) => cell("td", round ? number(round[i]) : "")));
  }
  const foot = table.tFoot.rows[0];
  foot.replaceChildren(cell("th", text.total, { scope: "row" }),
    ...result.totals.map((t, i) => cell("td", sheet.rounds.length ? number(t) : "",
      result.winners.includes(i) ? { class: "winner" } : {})));
};

const drawStatus = (result, rules) => {
  let words = say(rules.lowest_wins ? text.limit_low : text.limit_high, { n: rules.target });
  if (result.over) {
    const names = list(result.winners.map(nameOf));
    words = say(result.winners.length > 1 ? text.winners : text.winner,
      { players: names, total: result.totals[result.winners[0]] });
  } else if (result.reached.length) {
    words += " " + say(text.reached, { players: list(result.reached.map(nameOf)) });
  }
  root.querySelector("[data-status]").textContent = words;
};

// The round form: a field a player, and "who went out" to fill in the winner's score.
const drawRoundForm = (result, rules) => {
  const form = root.querySelector("[data-round]");
  form.hidden = result.over;
  form.querySelector("legend").textContent = say(text.round_n, { n: sheet.rounds.length + 1 });
  form.querySelector("[data-help]").textContent = rules.lowest_wins ? text.help_low : text.help_high;
  const winners = form.querySelector("[data-winners]");
  winners.replaceChildren(radio(-1, text.nobody_marked, true),
    ...sheet.names.map((_, i) => radio(i, nameOf(i), false)));
  const fields = form.querySelector("[data-fields]");
  fields.replaceChildren(...sheet.names.map((_, i) => {
    const label = cell("label", nameOf(i) + " ");
    const input = cell("input", "", { type: "text", inputmode: "numeric", autocomplete: "off",
                                      name: `p${i}`, size: "5", maxlength: "6" });
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
  drawTable(result);
  drawStatus(result, rules);
  drawRoundForm(result, rules);
  root.querySelector("[data-undo]").disabled = sheet.rounds.length === 0;
};

// "Who went out": in Rami that player scores 0; in CardVerse they gain what the others
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
    if (points === null) {
      form.elements[`p${i}`].focus();
      return { error: say(raw.trim() ? text.not_a_number : text.missing,
        { value: raw.trim().slice(0, 12), player: nameOf(i) }) };
    }
    typed.push(points);
  }
  if (chosen < 0 || rules.lowest_wins) return { scores: typed };
  const gain = typed.reduce((sum, p) => sum + p, 0);
  return { scores: typed.map((_, i) => (i === chosen ? gain : 0)) };
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
  sheet.rounds.push(typed.scores);
  keep();
  draw();
  root.querySelector("[data-round] input[type=text]:not(:disabled)")?.focus();
};

const keep = () => message(".score-message", save(sheet) ? text.not_saved : "");

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
    .map((input) => input.value.trim().slice(0, MAX_NAME));
  sheet = newSheet(form.elements.rules.value, names);
  keep();
  draw();
  root.querySelector("[data-round] input[type=text]:not(:disabled)")?.focus();
};

const newGame = () => {
  if (sheet && sheet.rounds.length && !window.confirm(text.confirm_clear)) return;
  sheet = null;
  save(null);
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
  root.querySelector("[data-undo]").addEventListener("click", () => {
    sheet.rounds.pop();
    keep();
    draw();
  });
  root.querySelector("[data-clear]").addEventListener("click", newGame);
  root.querySelector("[data-print]").addEventListener("click", () => window.print());
};

const begin = () => {
  const found = load(data.offered);
  wire();
  root.hidden = false;
  document.querySelector("[data-score-nojs]")?.setAttribute("hidden", "");
  if (found.problem) message(".score-message", found.problem === "damaged" ? text.damaged : text.not_saved);
  sheet = found.value;
  if (sheet) return draw();
  root.querySelector("[data-setup]").hidden = false;
  setUp();
};

begin();
