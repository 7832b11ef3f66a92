"""The real site builds, in every language, exactly and reproducibly."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

from conftest import ROOT, SEEDS, SHARED_SEEDS, copy_project, keep_two_languages, run_cli
from e2e.e2e_site import SHEETS  # the sheets the suite expects, written down once

LANGS = ("en", "id", "ms", "pl", "vi")
# Every page in content/ (by its file name, which is its slug) and the status page.
SLUGS = ("index", *sorted(p.stem for p in (Path(__file__).parent.parent / "content").glob("*.md")
                          if p.stem != "index"), "translation-status")



def page_file(site: Path, lang: str, slug: str) -> Path:
    return site / lang / "index.html" if slug == "index" else site / lang / slug / "index.html"


class Links(HTMLParser):
    """Collects the tags a test needs: <html lang>, links, alternates."""

    def __init__(self) -> None:
        super().__init__()
        self.lang = ""
        self.hrefs: list[str] = []
        self.switcher: dict[str, str] = {}
        self.alternates: dict[str, str] = {}
        self.in_languages = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang") or ""
        if tag == "nav" and "languages" in (a.get("class") or ""):
            self.in_languages = True
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"] or "")
            if self.in_languages and a.get("hreflang"):
                self.switcher[a["hreflang"] or ""] = a["href"] or ""
        if tag == "link" and a.get("rel") == "alternate":
            self.alternates[a.get("hreflang") or ""] = a.get("href") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self.in_languages = False


def parse(path: Path) -> Links:
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_page_exists_in_every_language(built_site: Path) -> None:
    assert (built_site / "index.html").is_file()
    assert (built_site / "404.html").is_file()
    assert (built_site / "robots.txt").is_file()
    assert (built_site / "assets" / "site.css").is_file()
    for lang in LANGS:
        assert (built_site / lang / "404.html").is_file()
        for slug in SLUGS:
            page = parse(page_file(built_site, lang, slug))
            assert page.lang == lang


def test_switcher_lands_on_the_same_page(built_site: Path) -> None:
    for lang in LANGS:
        for slug in SLUGS:
            path = page_file(built_site, lang, slug)
            page = parse(path)
            assert set(page.switcher) == set(LANGS)
            for other, href in page.switcher.items():
                target = (path.parent / href).resolve()
                assert target == page_file(built_site, other, slug).resolve()
            assert set(page.alternates) == {*LANGS, "x-default"}


def test_switcher_of_the_sheets_and_404_pages_lands_on_the_right_page(built_site: Path) -> None:
    """A quick-reference sheet's switcher leads to the same sheet in each language; a
    language's 404 page (its links start at the site's root: it is served at any address)
    to each language's rules index. Each target is a page in that language."""
    for lang in LANGS:
        pages = {built_site / lang / sheet / "index.html": sheet for sheet in SHEETS}
        pages[built_site / lang / "404.html"] = "index"
        for path, slug in pages.items():
            page = parse(path)
            assert set(page.switcher) == set(LANGS), path
            for other, href in page.switcher.items():
                if href.startswith("/"):
                    target = (built_site / href.lstrip("/")).resolve()
                else:
                    target = (path.parent / href).resolve()
                expected = (built_site / other / slug / "index.html" if slug in SHEETS
                            else page_file(built_site, other, slug))
                assert target == expected.resolve(), (path, href)
                assert parse(target).lang == other


def test_links_are_relative_and_resolve(built_site: Path) -> None:
    """Links within the site are relative and lead to a file of it; the only absolute
    links are to other sites (the published rules that sources.md cites)."""
    site = urlsplit("https://rami-rules.example.org/").netloc  # content/site.toml
    for path in built_site.rglob("index.html"):
        for href in parse(path).hrefs:
            if href.startswith("#"):
                continue
            if href.startswith(("https:", "http:")):
                assert urlsplit(href).netloc not in ("", site), (path, href)
                continue
            assert not href.startswith("/"), (path, href)
            assert (path.parent / href.split("#")[0]).resolve().is_file(), (path, href)


def test_language_chooser_uses_native_names(built_site: Path) -> None:
    """Each language is named as CLDR names it for itself, except where the documented
    override table says why not: "Bahasa Melayu" beside "Bahasa Indonesia" (CLDR's
    "Melayu" and "Indonesia" are ambiguous there)."""
    from babel import Locale

    from site_builder.i18n.locales import NATIVE_NAMES

    assert NATIVE_NAMES == {"id": "Bahasa Indonesia", "ms": "Bahasa Melayu"}
    html = (built_site / "index.html").read_text(encoding="utf-8")
    for lang in LANGS:
        native = NATIVE_NAMES.get(lang) or Locale.parse(lang).get_display_name(lang)
        assert f">{native[:1].upper() + native[1:]}<" in html, lang
    assert ">Melayu<" not in html
    for page in built_site.rglob("*.html"):  # the switcher on every page, the root 404
        assert "(Melayu)" not in page.read_text(encoding="utf-8"), page


def test_a_regional_or_right_to_left_language_gets_valid_html_codes(project: Path) -> None:
    """A catalog folder is named as gettext names locales (``pt_BR``); the pages say
    ``lang="pt-BR"`` and ``hreflang="pt-BR"``, as BCP 47 wants, and a language CLDR writes
    right to left gets ``dir="rtl"``. A folder named ``pt-BR`` is refused with the fix."""
    from babel import Locale

    keep_two_languages(project)  # and the two added: what is tested holds for any number
    for lang in ("pt_BR", "ar"):
        assert run_cli("i18n", "init", lang, "--root", str(project)).code == 0
    assert run_cli("build", "--root", str(project)).code == 0
    out = project / "dist"
    for lang, code in (("pt_BR", "pt-BR"), ("ar", "ar"), ("pl", "pl")):
        direction = "rtl" if Locale.parse(lang).character_order == "right-to-left" else "ltr"
        page = (out / lang / "melds/index.html").read_text(encoding="utf-8")
        assert f'<html lang="{code}" dir="{direction}">' in page
        assert f'hreflang="{code}"' in (out / "en/melds/index.html").read_text(encoding="utf-8")
        assert f'hreflang="{code}"' in (out / "sitemap.xml").read_text(encoding="utf-8")
        assert f'lang="{code}"' in (out / "index.html").read_text(encoding="utf-8")
    assert "dir=\"rtl\"" in (out / "ar/index.html").read_text(encoding="utf-8")
    assert "_" not in "".join(re.findall(r'(?:hreflang|lang)="([^"]*)"', "".join(
        p.read_text(encoding="utf-8") for p in out.rglob("*.html"))))
    (project / "locales/pt_BR").rename(project / "locales/pt-BR")
    result = run_cli("build", "--root", str(project))
    assert result.code == 2
    assert "locales/pt-BR/LC_MESSAGES/messages.po: " in result.err
    assert "rename locales/pt-BR/ to locales/pt_BR/" in result.err


def test_sitemap_lists_every_page_with_alternates(built_site: Path) -> None:
    tree = ET.parse(built_site / "sitemap.xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    urls = tree.getroot().findall("s:url", ns)
    assert len(urls) == len(LANGS) * len(SLUGS)
    for url in urls:
        langs = {link.get("hreflang") for link in url.findall("x:link", ns)}
        assert langs == {*LANGS, "x-default"}





def test_the_service_workers_ship_none_of_their_templates_comments(built_site: Path) -> None:
    """Each ``<lang>/sw.js`` is templates/offline/sw.js after its VERSION and FILES, served
    as the other scripts are: the template's comments, which are for its readers, do not
    ship (the worker has no ``//`` at all: no comment of a line's own, none after code)."""
    template = (ROOT / "templates" / "offline" / "sw.js").read_text(encoding="utf-8")
    code = [line.strip() for line in template.splitlines() if line.strip()]
    assert any(line.startswith("//") for line in code)  # there is something to leave out
    kept = "".join(line + "\n" for line in code if not line.startswith("//"))
    for lang in LANGS:
        worker = (built_site / lang / "sw.js").read_text(encoding="utf-8")
        assert worker.startswith("const VERSION = ") and worker.endswith("\n" + kept), lang
        assert "//" not in worker and "/*" not in worker, lang


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert run_cli("build", "--out", str(a)).code == 0
    assert run_cli("build", "--out", str(b)).code == 0
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    assert files_a == files_b
    for rel in files_a:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def test_a_byte_order_mark_or_cr_line_ends_change_nothing(project: Path) -> None:
    """Some editors on Windows start a UTF-8 file with a byte order mark: pages, catalogs
    and both TOML files saved so build the same site, byte for byte, as does a catalog
    with CR line ends; and ``i18n update`` reads such catalogs too."""
    before = project / "before"
    assert run_cli("build", "--root", str(project), "--out", str(before)).code == 0
    inputs = [*sorted((project / "content").glob("*.md")), project / "content/site.toml",
              project / "content/profiles.toml",
              *sorted((project / "locales").glob("*/LC_MESSAGES/messages.po"))]
    originals = {path: path.read_bytes() for path in inputs}
    for path in inputs:
        path.write_bytes(b"\xef\xbb\xbf" + originals[path])
    pl = project / "locales/pl/LC_MESSAGES/messages.po"  # and CR line ends (classic Mac OS)
    pl.write_bytes(pl.read_bytes().replace(b"\n", b"\r"))
    after = project / "after"
    result = run_cli("build", "--root", str(project), "--out", str(after))
    assert result.code == 0, result.err
    files = sorted(p.relative_to(before) for p in before.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(after) for p in after.rglob("*") if p.is_file())
    for rel in files:
        assert (before / rel).read_bytes() == (after / rel).read_bytes(), rel
    result = run_cli("i18n", "update", "--root", str(project))  # GNU gettext's msgmerge
    assert result.code == 0, result.err
    for path in inputs:
        if path.suffix == ".po":  # as GNU gettext writes it: the mark dropped, nothing else
            assert path.read_bytes() == originals[path], path


def test_failed_build_leaves_previous_site_untouched(project: Path) -> None:
    keep_two_languages(project)  # what is tested holds for any number of languages
    out = project / "dist"
    assert run_cli("build", "--root", str(project)).code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    page = project / "content" / "first-meld.md"
    page.write_text(page.read_text(encoding="utf-8").replace("total: 52", "total: 53"),
                    encoding="utf-8")
    result = run_cli("build", "--root", str(project))
    assert result.code == 2
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert not [p for p in project.iterdir() if p.name.startswith(".dist")]


def test_build_reports_every_disagreement_in_one_run(project: Path) -> None:
    page = project / "content" / "first-meld.md"
    text = page.read_text(encoding="utf-8")
    text = text.replace("total: 60", "total: 61").replace("points: 31", "points: 30")
    page.write_text(text, encoding="utf-8")
    result = run_cli("build", "--root", str(project))
    assert result.code == 2
    assert "Traceback" not in result.err
    lines = text.splitlines()
    total_line = lines.index("total: 61") + 1
    points_line = lines.index("points: 30") + 1
    assert (f"content/first-meld.md:{total_line}: example 'Two sets of three, enough points, "
            "no pure sequence': stated total 61, the engine computes 60 (Rami 51, reference "
            "rules)") in result.err
    assert f"content/first-meld.md:{points_line}: " in result.err


def test_a_problem_in_a_pages_text_hides_none_of_its_other_problems(project: Path) -> None:
    """Raw HTML in a paragraph, a misspelt placeholder in it and a wrong total in an
    example below: all three in one run."""
    page = project / "content" / "first-meld.md"
    text = page.read_text(encoding="utf-8").replace("total: 52", "total: 53", 1).replace(
        "## Verified first melds", "See <b>this</b> and {rami51_treshold}.\n\n"
        "## Verified first melds", 1)
    page.write_text(text, encoding="utf-8")
    result = run_cli("check", "--root", str(project))
    assert result.code == 2
    lines = text.splitlines()
    prose = lines.index("See <b>this</b> and {rami51_treshold}.") + 1
    assert f"content/first-meld.md:{prose}: raw HTML" in result.err
    assert f"content/first-meld.md:{prose}: unknown rule placeholder {{rami51_treshold}}" \
        in result.err
    assert f"content/first-meld.md:{lines.index('total: 53') + 1}: " in result.err


def test_a_quoted_front_matter_value_is_read_without_its_quotes(project: Path) -> None:
    """As YAML front matter is often written: title: "First meld"."""
    page = project / "content" / "first-meld.md"
    page.write_text(page.read_text(encoding="utf-8").replace(
        "title: First meld\n", 'title: "First meld"\n', 1).replace(
        "order: 10\n", "order: '10'\n", 1), encoding="utf-8")
    assert run_cli("build", "--root", str(project)).code == 0
    html = (project / "dist/en/first-meld/index.html").read_text(encoding="utf-8")
    assert "<h1>First meld</h1>" in html and "<title>First meld ·" in html
    assert "&#34;First meld&#34;" not in html


def test_a_broken_profile_hides_no_other_example(project: Path) -> None:
    """A profile that does not load leaves out only the examples under it: a wrong claim
    under the reference rules is still reported in the same run."""
    profiles = project / "content" / "profiles.toml"
    profiles.write_text(profiles.read_text(encoding="utf-8").replace(
        "joker_value = 15", "joker_value = 500"), encoding="utf-8")
    page = project / "content" / "melds.md"
    text = page.read_text(encoding="utf-8").replace("points: 24\n", "points: 924\n", 1)
    page.write_text(text, encoding="utf-8")
    result = run_cli("check", "--root", str(project))
    assert result.code == 2
    lines = text.splitlines()
    assert f"content/melds.md:{lines.index('points: 924') + 1}: " in result.err
    assert "content/profiles.toml:" in result.err and "joker_value = 500" in result.err
    assert "house" not in result.err.replace("profile 'house'", "")  # no example under it


# --- the seeds' numbers and verdict words -----------------------------------------------------

SEED_FILES = {"ms": "000_6598e75c6791d318.txt", "pl": "001_9d9e7771766e21b8.txt",
              "vi": "003_ae46da1a07872dd7.txt"}


class Tables(HTMLParser):
    """Rows of the example tables: each cell's visible text plus the cards' accessible names.

    A card chip counts as its accessible name (e.g. "ratu hati"), as in the seed's cells.
    """

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.table_of_row: list[int] = []
        self.tables = 0
        self.cell: list[str] | None = None
        self.depth = 0
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            self.tables += 1
        if tag == "tr":
            self.rows.append([])
            self.table_of_row.append(self.tables)
        if tag in ("td", "th") and self.rows:
            self.cell = []
        if self.cell is not None and {"stand-in", "try"} & set((a.get("class") or "").split()):
            self.skip += 1  # the joker's stand-in, a checker's "Try it": beyond the seed's cells
        elif self.cell is not None and a.get("role") == "img":
            # a group of chips is one image named "ratu hati, raja hati, As hati"
            self.cell.append((a.get("aria-label") or "").replace(", ", ""))
            self.skip += 1
        elif self.skip:
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            self.skip -= 1
            return
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None and not self.skip:
            self.cell.append(data)


def _translation(lang: str, msgid: str) -> str:
    from babel.messages.pofile import read_po

    path = ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        message = read_po(f).get(msgid)
    return str(message.string) if message is not None else ""


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def seed_rows(lang: str) -> list[list[str]]:
    rows = []
    for line in (SEEDS / SEED_FILES[lang]).read_text(encoding="utf-8").splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def test_first_meld_pages_show_the_seeds_cards_numbers_and_verdicts(built_site: Path) -> None:
    for lang in SEED_FILES:
        seed = [r for r in seed_rows(lang)]
        seed_body = [r for r in seed if any(ch.isdigit() for ch in r[-1])]
        parser = Tables()
        parser.feed(page_file(built_site, lang, "first-meld").read_text(encoding="utf-8"))
        # the seed's two tables are the page's first two: melds, then first melds
        page_body = [r for r, t in zip(parser.rows, parser.table_of_row, strict=True)
                     if t in (1, 2) and r and not r[0].strip() == ""
                     and any(ch.isdigit() for ch in r[-1] + r[-2])]
        assert len(page_body) == len(seed_body) == 9, lang
        # the seed names the rule set under every figure, and so does the page:
        # the first table names the reference rules, the second mixes them with house rules
        reference = squash(_translation(lang, "reference rules"))
        house = squash(_translation(lang, "house rules"))
        assert reference and house
        mixed = {t for r, t in zip(parser.rows, parser.table_of_row, strict=True)
                 if any(house in squash(cell) for cell in r)}
        assert mixed == {2}, lang
        for seed_row, page_row in zip(seed_body, page_body, strict=True):
            # cards, verdict and points/total columns, cell by cell, in the seed's order
            for column in (1, 2, 3):
                assert squash(page_row[column]) == squash(seed_row[column]), (lang, seed_row[0])
            # the caption and note, as the seed runs them together
            assert squash(page_row[0]) == squash(seed_row[0]), (lang, seed_row[0])


def test_seed_numbers_in_order(built_site: Path) -> None:
    expected = ["31", "6", "21", "52", "60", "48", "48", "40", "61"]
    for lang in ("en", "id", *SEED_FILES):
        parser = Tables()
        parser.feed(page_file(built_site, lang, "first-meld").read_text(encoding="utf-8"))
        numbers = []
        for row, table in zip(parser.rows, parser.table_of_row, strict=True):
            stated = any(ch.isdigit() for ch in row[2] + row[3])
            if table in (1, 2) and len(row) == 4 and row[0] and stated:
                cell = row[3] if re.match(r"\s*\d", row[3]) else row[2]
                numbers.append(re.match(r"\s*(\d+)", cell).group(1))  # type: ignore[union-attr]
        assert numbers == expected, lang


def test_build_root_writes_its_dist_and_counts_the_claims_check_counts(tmp_path: Path) -> None:
    """``build --root P``, run from elsewhere, writes ``P/dist``; it and ``check`` report the
    same number of claims verified."""
    project = copy_project(tmp_path / "p")
    result = run_cli("build", "--root", str(project))
    assert result.code == 0, result.err
    built = re.search(r"(\d+) claims verified", result.err)
    assert built is not None and int(built[1]) > 0, result.err
    assert (project / "dist" / "pl" / "first-meld" / "index.html").is_file()
    check = run_cli("check", "--root", str(project))
    assert check.code == 0, check.err
    assert f"ok: {built[1]} claims verified" in check.out, (result.err, check.out)


def test_seed_copy_is_current() -> None:
    if not SHARED_SEEDS.is_dir():
        return  # outside the workplace: the committed copy is all there is
    for path in SHARED_SEEDS.iterdir():
        assert (SEEDS / path.name).read_bytes() == path.read_bytes(), path.name


def test_content_and_catalog_errors_are_reported_in_one_run(project: Path) -> None:
    """The catalogs are read while the content is verified: a build with a wrong example
    and a broken translation names both, and writes nothing."""
    page = project / "content" / "first-meld.md"
    page.write_text(page.read_text(encoding="utf-8").replace("total: 52", "total: 53"),
                    encoding="utf-8")
    po = project / "locales" / "vi" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8")
    start = text.index('msgid "Rules"\nmsgstr "') + len('msgid "Rules"\nmsgstr "')
    po.write_text(text[:start] + "{n} " + text[start:], encoding="utf-8")
    line = text[:start].count("\n")  # the msgid line, where the entry is reported
    result = run_cli("build", "--root", str(project))
    assert result.code == 2
    assert "Traceback" not in result.err
    assert re.search(r"content/first-meld\.md:\d+: example .*stated total 53", result.err)
    assert f"locales/vi/LC_MESSAGES/messages.po:{line}: placeholders differ" in result.err
    assert not (project / "dist").exists()


def test_heading_ids_are_unique_and_lists_keep_their_start(project: Path) -> None:
    """Two headings of the same text, a heading that slugifies to a template's id
    ("main", "checker") and headings of symbols alone each get an id of their own, the
    same in every language; an ordered list that starts at 3 says so."""
    page = project / "content" / "first-meld.md"
    page.write_text(page.read_text(encoding="utf-8").replace(
        "## The threshold\n", "## In short\n\n## Main\n\n## Checker\n\n## ♥ ♦\n\n## ♣\n\n"
        "Before the list.\n\n3. Discard one card.\n4. Pass.\n\n## The threshold\n", 1),
        encoding="utf-8")
    assert run_cli("build", "--root", str(project)).code == 0
    ids = {}
    for lang in LANGS:
        html = page_file(project / "dist", lang, "first-meld").read_text(encoding="utf-8")
        ids[lang] = re.findall(r' id="([^"]*)"', html)
        assert len(ids[lang]) == len(set(ids[lang])), (lang, ids[lang])
        assert {"in-short", "in-short-2", "main", "main-2", "checker", "checker-2", "section",
                "section-2"} <= set(ids[lang])
        assert '<ol start="3">\n<li' in html
    assert all(found == ids["en"] for found in ids.values())


def test_headings_never_take_an_id_the_templates_give() -> None:
    from site_builder.sources.page import TEMPLATE_IDS

    given = {found for path in (ROOT / "templates").glob("*.html")
             for found in re.findall(r'\bid="([^"{]*)"', path.read_text(encoding="utf-8"))}
    assert given == TEMPLATE_IDS


def test_the_status_page_names_each_page_with_something_left(tmp_path: Path) -> None:
    """A fuzzy entry of the melds page: every status page lists that page for Polish, by its
    Polish title, linked to it, with the count; the other pages are not listed."""
    project = keep_two_languages(copy_project(tmp_path / "project"))
    po = project / "locales" / "pl" / "LC_MESSAGES" / "messages.po"
    text = po.read_text(encoding="utf-8")
    entry = text.rindex("#: content/melds.md:")  # a paragraph, not the title
    msgid = text.index("\nmsgid ", entry)
    po.write_text(text[:msgid] + "\n#, fuzzy" + text[msgid:], encoding="utf-8")
    out = tmp_path / "dist"
    result = run_cli("build", "--root", str(project), "--out", str(out))
    assert result.code == 0, result.err
    title = re.search(r"<h1[^>]*>(.*?)</h1>", (out / "pl" / "melds" / "index.html")
                      .read_text(encoding="utf-8"), re.S)
    assert title
    status = (out / "en" / "translation-status" / "index.html").read_text(encoding="utf-8")
    left = re.findall(r'<ul class="status-left">(.*?)</ul>', status, re.S)
    assert left == [f'\n<li><a href="../../pl/melds/index.html">{title.group(1).strip()}</a>: '
                    "1 fuzzy entry</li>\n"], left
