// ESLint's flat config for the browser code (templates/assets/, templates/offline/), the
// tests' Node scripts and the build's one (site_builder/render/snapshot.mjs). Run it with
// `npx eslint` (tests/test_eslint.py does, in the fast tier; so does pre-commit). Each island of the browser code (the checker, the practice
// table, the score keeper, the site shell) imports only the shared modules of
// templates/assets/lib/ and its own files; lib/ imports only lib/.

import globals from "globals";

const RULES = {
  "no-undef": "error",
  "no-unused-vars": "error",
  eqeqeq: "error",
  "prefer-const": "error",
};

// An import outside the island's own files and lib/ (its specifier: a path relative to
// the importing file, as the browser resolves it).
const only = (allowed, island) => ["error", {
  patterns: [{
    regex: `^(?!${allowed}$)`,
    message: `${island} imports only templates/assets/lib/ and its own files.`,
  }],
}];
const OWN_FOLDER = "(?:\\./[a-z-]+|\\.\\./lib/[a-z-]+)\\.js";  // play/, score/

export default [
  { ignores: ["dist/**", "node_modules/**", ".venv/**", ".cache/**"] },
  {
    files: ["templates/**/*.js"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: globals.browser },
    rules: RULES,
  },
  {
    files: ["templates/assets/lib/*.js"],
    rules: { "no-restricted-imports": only("\\./[a-z-]+\\.js", "lib/") },
  },
  {
    files: ["templates/assets/checker-*.js"],
    rules: { "no-restricted-imports": only("\\./(?:checker-[a-z]+|lib/[a-z-]+)\\.js", "The checker") },
  },
  {
    files: ["templates/assets/play/*.js"],
    rules: { "no-restricted-imports": only(OWN_FOLDER, "The practice table") },
  },
  {
    files: ["templates/assets/score/*.js"],
    rules: { "no-restricted-imports": only(OWN_FOLDER, "The score keeper") },
  },
  {
    files: ["templates/assets/{site,here,menu,offline,search-results,table-rules,terms}.js"],
    rules: {
      "no-restricted-imports": only(
        "\\./(?:site|here|menu|offline|search-results|table-rules|terms|lib/[a-z-]+)\\.js",
        "The site shell"),
    },
  },
  {
    // the translator's preview's panel (site-builder serve --translate; never in a build)
    files: ["templates/translate/*.js"],
    rules: {
      "no-restricted-imports": only("(?:\\./[a-z-]+|\\.\\./assets/lib/[a-z-]+)\\.js",
        "The translator's preview"),
    },
  },
  {
    // classic scripts: the practice table's file:// notice, and the service worker (the
    // build writes VERSION and FILES above it)
    files: ["templates/assets/play/disk.js", "templates/offline/sw.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    files: ["templates/offline/sw.js"],
    languageOptions: {
      globals: { ...globals.serviceworker, VERSION: "readonly", FILES: "readonly" },
    },
  },
  {
    // the build's Node script that makes the practice table's start-up snapshot
    files: ["site_builder/**/*.mjs"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: globals.node },
    rules: RULES,
  },
  {
    files: ["tests/**/*.js"],
    languageOptions: { ecmaVersion: "latest", sourceType: "commonjs", globals: globals.node },
    rules: RULES,
  },
  {
    files: ["eslint.config.mjs"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module" },
    rules: RULES,
  },
];
