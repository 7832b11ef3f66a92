"""The translators' workflow: round trip, checks on every translation, coverage, new languages."""

from __future__ import annotations

import io
import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from conftest import ROOT, TWO_LANGUAGES, keep_two_languages, run_cli

from site_builder.render.markdown import MarkdownRenderer

LANGS = ("id", "ms", "pl", "vi")


def po(project: Path, lang: str) -> Path:
    return project / "locales" / lang / "LC_MESSAGES" / "messages.po"


def set_translation(project: Path, lang: str, msgid: str, text: str | tuple[str, ...],
                    context: str | None = None, fuzzy: bool = False) -> int:
    """Set one translation with Babel, as a PO editor would; return the entry's line."""
    path = po(project, lang)
    catalog = read_po(path.open("rb"), locale=lang)
    message = catalog.get(msgid, context)
    assert message is not None, msgid
    message.string = text
    message.previous_id = []
    if fuzzy:
        message.flags.add("fuzzy")
    else:
        message.flags.discard("fuzzy")
    buf = io.BytesIO()
    write_po(buf, catalog, width=76, include_previous=True, ignore_obsolete=True)
    path.write_bytes(buf.getvalue())
    written = read_po(path.open("rb"), locale=lang).get(msgid, context)
    assert written is not None
    return int(written.lineno)


def translation(project: Path, lang: str, msgid: str) -> str:
    catalog = read_po(po(project, lang).open("rb"), locale=lang)
    message = catalog.get(msgid)
    assert message is not None
    return str(message.string)


def errors_for(project: Path, lang: str) -> list[str]:
    result = run_cli("check", "--root", str(project))
    assert result.code == 2
    assert "Traceback" not in result.err
    rel = f"locales/{lang}/LC_MESSAGES/messages.po:"
    return [line for line in result.err.splitlines() if line.startswith(rel)]


# --- the round trip ---------------------------------------------------------------------------

OLD = "This is the only difference between the two games."
NEW = "This is the one and only difference between the two games."


def test_round_trip(project: Path) -> None:
    page = project / "content" / "first-meld.md"
    page.write_text(page.read_text(encoding="utf-8").replace(OLD, NEW), encoding="utf-8")
    old_msgid = next(line for line in page.read_text(encoding="utf-8").splitlines()
                     if line.startswith(NEW))

    # 1-2. extract and update: the translation becomes fuzzy, the previous msgid is kept
    assert run_cli("i18n", "extract", "--root", str(project)).code == 0
    result = run_cli("i18n", "update", "--root", str(project))
    assert result.code == 0, result.err
    text = po(project, "pl").read_text(encoding="utf-8")
    entry = text[text.index("#, fuzzy"):]
    entry = entry[: entry.index("\n\n")]
    assert entry.index("#| msgid") < entry.index("\nmsgid ")
    previous = " ".join(line[2:].strip().strip('"').removeprefix('msgid "')
                        for line in entry.splitlines() if line.startswith("#|"))
    assert "This is the only difference" in previous  # the previous English text
    assert "Dopóki gracz nie dokona" in entry  # the translation is kept, for review
    catalog = read_po(po(project, "pl").open("rb"), locale="pl")
    message = catalog.get(old_msgid)
    assert message is not None and message.fuzzy
    # the updated catalogs stay valid for GNU gettext (long previous msgids included)
    for lang in LANGS:
        proc = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po(project, lang))],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr

    # 3. the page shows the English paragraph, marked lang="en", and the localized notice
    out = project / "dist"
    result = run_cli("build", "--root", str(project))
    assert result.code == 0, result.err
    html = (out / "pl" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<p lang="en">This is the one and only difference', html)
    notice = translation(project, "pl", "This page is partly translated ({percent}%). Parts not "
                                          "yet translated are shown in English.")
    assert notice.split("{percent}")[0] in html
    assert re.search(r'class="notice"[^>]*>[^<]*\d+\s?%', html)
    stats = json.loads(run_cli("i18n", "stats", "--json", "--root", str(project)).out)
    assert stats["pl"]["fuzzy"] >= 1 and stats["pl"]["pages"]["first-meld"]["fuzzy"] == 1
    assert run_cli("build", "--root", str(project), "--strict").code == 2

    # 4. translate it
    for lang in LANGS:
        set_translation(project, lang, old_msgid, translation(project, lang, old_msgid))

    # 5. everything is clean again
    assert run_cli("check", "--root", str(project)).code == 0
    assert run_cli("build", "--root", str(project), "--strict").code == 0
    html = (out / "pl" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert 'lang="en"' not in html.split("<main", 1)[1].split("</main>")[0]
    assert 'class="notice"' not in html
    stats = json.loads(run_cli("i18n", "stats", "--json", "--root", str(project)).out)
    assert all(stats[lang]["percent"] == 100.0 for lang in LANGS)


def test_fuzzy_guess_is_not_checked_nor_published(project: Path) -> None:
    """A fuzzy entry waits for its translator: its guess may be wrong without failing."""
    msgid = "Ten, jack, queen, king: 10 points."
    set_translation(project, "pl", msgid, "Dziesiątka, walet, dama, król: 11 pkt.", fuzzy=True)
    result = run_cli("build", "--root", str(project))
    assert result.code == 0, result.err
    html = (project / "dist" / "pl" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert '<li lang="en">Ten, jack, queen, king: 10 points.</li>' in html
    assert "król: 11 pkt" not in html


def test_update_is_stable(project: Path) -> None:
    """Running update twice changes nothing the second time: diffs stay small."""
    assert run_cli("i18n", "update", "--root", str(project)).code == 0
    first = {lang: po(project, lang).read_bytes() for lang in LANGS}
    assert run_cli("i18n", "update", "--root", str(project)).code == 0
    assert {lang: po(project, lang).read_bytes() for lang in LANGS} == first


def test_shipped_catalogs_are_up_to_date_and_complete(project: Path) -> None:
    """The committed template and catalogs match the content: nothing to extract or update.

    Entry by entry: the files' layout (GNU gettext's) is test_catalog_format's."""
    from test_catalog_format import entries

    before = {p: entries(p.read_bytes()) for p in (project / "locales").rglob("*.po*")}
    assert run_cli("i18n", "extract", "--root", str(project)).code == 0
    assert run_cli("i18n", "update", "--root", str(project)).code == 0
    after = {p: entries(p.read_bytes()) for p in (project / "locales").rglob("*.po*")}
    assert after == before
    result = run_cli("i18n", "stats", "--fail-under", "100", "--root", str(project))
    assert result.code == 0, result.out + result.err


# --- checks on every translation --------------------------------------------------------------

def test_changed_number(project: Path) -> None:
    msgid = "Ten, jack, queen, king: 10 points."
    line = set_translation(project, "pl", msgid, "Dziesiątka, walet, dama, król: 11 pkt.")
    assert any(f":{line}: numbers differ" in e and "11" in e for e in errors_for(project, "pl"))


def test_dropped_placeholder(project: Path) -> None:
    line = set_translation(project, "vi", "threshold {n}", "ngưỡng")
    assert any(f":{line}: placeholders differ" in e and "{n}" in e
               for e in errors_for(project, "vi"))


def test_script_in_translation(project: Path) -> None:
    line = set_translation(project, "ms", "Goal", "Matlamat<script>alert(1)</script>")
    assert any(f":{line}: raw HTML is not allowed" in e for e in errors_for(project, "ms"))


def test_html_never_reaches_a_page_unescaped() -> None:
    html = MarkdownRenderer().inline('Text <script>alert(1)</script> <img src=x onerror="y">')
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;" in html


def test_broken_link(project: Path) -> None:
    page = project / "content" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee also [Pagat](https://www.pagat.com/"
                    "rummy/) for other rummy games.\n", encoding="utf-8")
    assert run_cli("i18n", "extract", "--root", str(project)).code == 0
    assert run_cli("i18n", "update", "--root", str(project)).code == 0
    msgid = "See also [Pagat](https://www.pagat.com/rummy/) for other rummy games."
    line = set_translation(project, "id", msgid,
                           "Lihat juga [Pagat](https://www.pagat.com/rumy/) untuk permainan lain.")
    assert any(f":{line}: link targets differ" in e for e in errors_for(project, "id"))


def test_broken_emphasis_and_code(project: Path) -> None:
    msgid = ("The winner of the round adds the points left in the opponents' hands to their "
             "score.")
    set_translation(project, "pl", msgid, translation(project, "pl", msgid) + " **ważne")
    assert any("emphasis markers differ" in e for e in errors_for(project, "pl"))


def test_wrong_plural_count(project: Path) -> None:
    line = set_translation(project, "pl", "{n} point", ("{n} punkt", "{n} punkty"))
    errors = errors_for(project, "pl")
    assert any(f":{line}: plural entry has 2 forms, but pl needs 3" in e for e in errors), errors


def test_game_term_missing(project: Path) -> None:
    msgid = "Queen, king, ace of hearts"
    text = translation(project, "vi", msgid)
    line = set_translation(project, "vi", msgid, text.replace("cơ", "rô"))
    assert any(f":{line}:" in e and "'hearts'" in e for e in errors_for(project, "vi"))


def test_rank_name_from_the_term_file(project: Path) -> None:
    """The terms are data: "królowa kier" where the Polish terms say dama is refused at
    the entry, and the same word is accepted once the term file says so."""
    msgid = "Queen, king, ace of hearts"
    line = set_translation(project, "pl", msgid, "Królowa, król, as kier")
    assert any(f":{line}:" in e and "'queen' must be translated with a word that begins 'dam'" in e
               and "locales/pl/terms.toml:" in e for e in errors_for(project, "pl"))
    terms = project / "locales" / "pl" / "terms.toml"
    text = terms.read_text(encoding="utf-8")
    terms.write_text(text.replace('queen = "dam"', 'queen = "królow"').replace(
        '"królowa" = "dama"\n', "").replace('"królową" = "damę"\n', ""), encoding="utf-8")
    assert not [e for e in errors_for(project, "pl") if f":{line}:" in e]


def test_check_names_each_fuzzy_missing_and_edited_entry(project: Path) -> None:
    """Plain check lists a fuzzy entry and an edited msgid at their catalog lines, and a
    new language's thousand missing entries as ten lines and how many more."""
    keep_two_languages(project)
    path = po(project, "pl")
    lines = path.read_text(encoding="utf-8").split("\n")
    goal = lines.index('msgid "Goal"')
    lines.insert(goal, "#, fuzzy")
    edited = next(i for i, x in enumerate(lines) if x == 'msgid "Queen, king, ace of hearts"')
    lines[edited] = 'msgid "Queen, king, ace of heart"'
    path.write_text("\n".join(lines), encoding="utf-8")
    assert run_cli("i18n", "init", "de", "--root", str(project)).code == 0
    assert (project / "locales" / "de" / "terms.toml").is_file()
    result = run_cli("check", "--root", str(project))
    assert result.code == 0, result.err
    err = result.err.splitlines()
    pl = "locales/pl/LC_MESSAGES/messages.po"
    assert f"{pl}:{goal + 2}: [pl] fuzzy translation, shown in English: 'Goal'" in err, err
    assert any(e.startswith(f"{pl}:{edited + 1}: [pl] this msgid is not in the template: did "
                            "you edit the English instead of the translation?") for e in err)
    de = [e for e in err if "[de]" in e]
    assert len(de) == 11 and re.fullmatch(r"\[de\] [\d,]+ more missing or fuzzy: .*", de[-1])
    strict = run_cli("check", "--strict", "--root", str(project))
    assert strict.code == 2 and f"{pl}:{edited + 1}: " in strict.err


def test_card_names_complete(project: Path) -> None:
    line = set_translation(project, "ms", "queen", "", context="rank")
    assert any("card term 'queen'" in e for e in errors_for(project, "ms"))
    assert line > 0


def test_polish_plurals_from_cldr(project: Path) -> None:
    """ngettext with CLDR rules: 1 punkt, 2 punkty, 5 punktów."""
    from site_builder.i18n.catalog import load_catalog
    from site_builder.i18n.translator import Translator

    loaded, problems = load_catalog(project, "pl")
    assert loaded is not None and not problems
    t = Translator("pl", loaded.catalog)
    forms = [t.ngettext("{n} point", "{n} points", n).format(n=n) for n in (1, 2, 5, 22, 25)]
    assert forms == ["1 punkt", "2 punkty", "5 punktów", "22 punkty", "25 punktów"]


# --- a new language -------------------------------------------------------------------------

def test_new_language_in_one_command(project: Path) -> None:
    keep_two_languages(project)  # and those added: what is tested holds for any number
    result = run_cli("i18n", "init", "de", "--root", str(project))
    assert result.code == 0, result.err
    assert po(project, "de").is_file()
    result = run_cli("build", "--root", str(project))
    assert result.code == 0, result.err
    html = (project / "dist" / "de" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="de"' in html and 'lang="en"' in html and 'class="notice"' in html
    chooser = (project / "dist" / "index.html").read_text(encoding="utf-8")
    assert "Deutsch" in chooser
    stats = json.loads(run_cli("i18n", "stats", "--json", "--root", str(project)).out)
    assert stats["de"]["percent"] == 0.0 and stats["de"]["translated"] == 0
    result = run_cli("i18n", "stats", "--fail-under", "50", "--root", str(project))
    assert result.code == 1
    assert run_cli("i18n", "init", "de", "--root", str(project)).code == 2
    bad = run_cli("i18n", "init", "xx-nope", "--root", str(project))
    assert bad.code == 2 and "unknown language code" in bad.err
    for same in ("DE", "De"):  # the same language: no second site
        assert run_cli("i18n", "init", same, "--root", str(project)).code == 2
    assert run_cli("i18n", "init", "EN", "--root", str(project)).code == 2
    assert run_cli("i18n", "init", "pt-br", "--root", str(project)).code == 0
    assert sorted(p.name for p in (project / "locales").iterdir() if p.is_dir()) == sorted(
        [*TWO_LANGUAGES[1:], "de", "pt_BR"])


def test_fail_under_counts_exactly(project: Path) -> None:
    """--fail-under 75 fails a language just under 75% translated: the percentage is
    rounded down, never up to the threshold."""
    keep_two_languages(project)  # one language's count: any number of languages
    path = po(project, "pl")
    text = path.read_text(encoding="utf-8")
    total = json.loads(run_cli("i18n", "stats", "--json", "--root", str(project)).out)["pl"]
    entries = total["translated"]
    fuzzy = entries - (math.ceil(entries * 0.75) - 1)  # the fewest that leave < 75%
    blocks = text.split("\n\n")
    marked = 0
    for i, block in enumerate(blocks[1:], 1):
        if marked == fuzzy:
            break
        if "\nmsgid " in "\n" + block and "#~" not in block and "#, fuzzy" not in block:
            blocks[i] = "#, fuzzy\n" + block if "#," not in block else block.replace(
                "#, ", "#, fuzzy, ", 1)
            marked += 1
    path.write_text("\n\n".join(blocks), encoding="utf-8")
    stats = json.loads(run_cli("i18n", "stats", "--json", "--root", str(project)).out)["pl"]
    assert stats["translated"] == entries - fuzzy
    assert 100 * stats["translated"] / entries < 75
    # rounded down to a tenth, never up to the threshold (Counts.percent's doctest has 452
    # of 603, 74.96 %, which rounding would show as 75.0)
    assert stats["percent"] == 1000 * stats["translated"] // entries / 10
    assert run_cli("i18n", "stats", "--fail-under", "75", "--root", str(project)).code == 1


def test_compile_writes_mo_files(project: Path) -> None:
    result = run_cli("i18n", "compile", "--root", str(project))
    assert result.code == 0, result.err
    for lang in LANGS:
        assert (project / "locales" / lang / "LC_MESSAGES" / "messages.mo").stat().st_size > 1000


# --- external checkers ------------------------------------------------------------------------

def test_msgfmt_check_passes() -> None:
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "GNU gettext is missing: run `bash scripts/setup`"
    for lang in LANGS:
        proc = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(po(ROOT, lang))],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("lang", LANGS)
def test_pofilter_finds_nothing(lang: str, tmp_path: Path) -> None:
    pofilter = Path(sys.executable).parent / "pofilter"  # the test tools' environment
    exe = str(pofilter) if pofilter.exists() else shutil.which("pofilter")
    assert exe, "translate-toolkit is required (bash scripts/setup installs it)"
    out = tmp_path / "out.po"
    proc = subprocess.run([exe, "-t", "numbers", "-t", "pythonbraceformat", "-t", "printf",
                           "-t", "xmltags", str(po(ROOT, lang)), str(out)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert not out.exists() or "msgid" not in out.read_text(encoding="utf-8").split(
        'msgstr ""', 1)[-1], out.read_text(encoding="utf-8")


TRICKY_TEMPLATE = """{# Translators: a comment, which the build does not need #}
<p>{{ _("Plain") }} {{ pgettext("suit", "hearts") }} {{ _(name) }} {{ gettext("") }}</p>
<p>{{ ngettext("{n} card", "{n} cards", count) }}
{{ npgettext("seat", "{n} seat", "{n} seats", 2) }}</p>
{% trans count=3 %}One deck{% pluralize %}{{ count }} decks{% endtrans %}
{% trans who="a" %}Dealt by {{ who }}{% endtrans %}
{{ _("With a value {n}", n=4) }}
"""


def test_the_builds_template_messages_are_babels(project: Path) -> None:
    """The build takes the templates' messages from the trees it compiles them from (each
    template is parsed once), not from Babel's extractor: the same messages, in the same
    order, at the same lines."""
    from site_builder.i18n.messages import template_messages
    from site_builder.sources.site import load
    from site_builder.verify import verify

    (project / "templates" / "tricky.html").write_text(TRICKY_TEMPLATE, encoding="utf-8")
    babel = [(m.source, m.line, m.context, m.msgid) for m in template_messages(project)]
    assert ("templates/tricky.html", 5, None, ("One deck", "%(count)s decks")) in babel
    assert ("templates/tricky.html", 4, "seat", ("{n} seat", "{n} seats")) in babel
    assert len(babel) > 100
    site, problems = load(project)
    built = verify(site, problems).templates
    assert [(m.source, m.line, m.context, m.msgid) for m in built] == babel
