// What the site's scripts say, in the page's language: one file beside the language's
// manifest (<lang>/words.json, site_builder/render/context.py site_words), fetched once,
// when first needed, rather than carried by every page. A failed fetch is tried again at the
// next call.

import { SITE_WORDS } from "./facts.js";

let asked = null;

// A promise of the words ({} on a page outside the language folders).
export const siteWords = () => {
  if (!asked) {
    const manifest = document.querySelector('link[rel="manifest"]');
    asked = !manifest ? Promise.resolve({})
      : fetch(new URL(SITE_WORDS, manifest.href)).then((response) => {
        if (!response.ok) throw new Error(`${SITE_WORDS}: ${response.status}`);
        return response.json();
      });
    asked.catch(() => { asked = null; });
  }
  return asked;
};
