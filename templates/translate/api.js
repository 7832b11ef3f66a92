// The translator's preview's requests: each carries the token the page was given
// (<meta name="site-builder-translate">), and answers {status, data}.

const meta = document.querySelector('meta[name="site-builder-translate"]');

export const token = meta ? meta.content : "";
export const lang = meta ? meta.dataset.lang : "";

const ask = async (path, options = {}) => {
  const response = await fetch(`/__translate/${path}`, {
    ...options,
    headers: { "X-Site-Builder-Token": token, ...(options.headers || {}) },
  });
  return { status: response.status, data: await response.json() };
};

// GET /__translate/<path>
export const get = (path) => ask(path);

// POST /__translate/save: {lang, catalog, id, base (what was edited), strings (the new)}.
export const saveEntry = (entry, strings) => ask("save", {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ lang, catalog: entry.catalog, id: entry.id, base: entry.strings, strings }),
});
