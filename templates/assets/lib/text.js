// Words in the page's language: a catalog message's {placeholders} filled, numbers and
// lists as the language writes them, the plural form a number takes (CLDR, as the catalogs
// hold each form), and the folding that compares what a reader types with the site's text.

import { FOLD } from "./facts.js";

// *template* with each {name} that *values* holds filled in (through *format*); any other
// {name} is left as it is.
export const fill = (template, values, format = String) =>
  String(template).replace(/\{(\w+)\}/g, (all, name) => {
    const value = values && Object.hasOwn(values, name) ? values[name] : undefined;
    return value === undefined ? all : format(value);
  });

// The words of a page in *lang* (its <html lang>): fill (numbers in the language's digits
// and separators), count (the plural form of *forms*, by CLDR category, for n), list
// ("A, B and C") and number.
export const words = (lang) => {
  const numbers = new Intl.NumberFormat(lang);
  const plurals = new Intl.PluralRules(lang);
  const lists = new Intl.ListFormat(lang, { type: "conjunction" });
  const format = (value) => (typeof value === "number" ? numbers.format(value) : String(value));
  const say = (template, values) => fill(template, values, format);
  const count = (forms, n, values) =>
    say(forms[plurals.select(n)] ?? forms.other ?? Object.values(forms)[0], { n, count: n, ...values });
  return { fill: say, count, list: (items) => lists.format(items), number: (n) => numbers.format(n) };
};

// A word without case or marks, and with the letters that have no decomposition folded as a
// keyboard without them types them ("Dokładać" -> "dokladac"): the search index's folding
// (site_builder/render/search.py: fold), which tests/test_browser_facts.py compares.
export const fold = (word) => String(word).normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
  .replace(/./gu, (c) => (Object.hasOwn(FOLD, c) ? FOLD[c] : c));
