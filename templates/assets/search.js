// Search in the page's language with Pagefind (site_builder/search.py builds one index per
// language folder). Without JavaScript, or where the index cannot load, the box stays hidden.
const box = document.querySelector(".search[data-bundle]");
if (box) {
  const input = box.querySelector("input");
  const list = box.querySelector("ol");
  const bundle = new URL(box.dataset.bundle, location.href);
  let pagefind = null;
  const load = async () => {
    if (!pagefind) {
      pagefind = await import(bundle.href);
      // result URLs are relative to the language folder, which holds the bundle
      await pagefind.options({ baseUrl: new URL("..", new URL(".", bundle)).pathname });
    }
    return pagefind;
  };
  const item = (href, title, excerpt) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = href;
    a.textContent = title;
    li.append(a);
    if (excerpt) {
      const p = document.createElement("p");
      // Pagefind's excerpt is the page's text with <mark> around the matches
      // (entities decoded by a <textarea>, which keeps the spaces around the marks)
      const decode = document.createElement("textarea");
      excerpt.split(/<\/?mark>/).forEach((text, i) => {
        decode.innerHTML = text;
        const node = document.createTextNode(decode.value);
        if (i % 2) { const m = document.createElement("mark"); m.append(node); p.append(m); }
        else p.append(node);
      });
      li.append(p);
    }
    return li;
  };
  input.addEventListener("input", async () => {
    const query = input.value.trim();
    if (!query) { list.replaceChildren(); return; }
    let pf;
    try { pf = await load(); } catch { box.hidden = true; return; } // no index here (file://)
    const found = await pf.debouncedSearch(query, {}, 200);
    if (found === null) return; // a later keystroke superseded this search
    const pages = await Promise.all(found.results.slice(0, 20).map(r => r.data()));
    const none = document.createElement("li");
    none.textContent = box.dataset.none;
    list.replaceChildren(...(pages.length
      ? pages.map(d => item(d.url, d.meta.title, d.excerpt)) : [none]));
  });
  box.hidden = false;
}
