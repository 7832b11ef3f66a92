"""``site-builder serve --translate pl``: the translator's preview. A served instance (one
for the module: a build of the site is its cost) answers the guards, the checks at the
field and a stale edit; in Chromium (tests/e2e/test_translate_preview.py), a reader who
picks a sentence, edits it and sees it on the page while a text editor saves the same
catalog."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from conftest import HANG, ROOT, copy_project
from test_serve import fetch, free_port

from site_builder.translate.api import CONTEXT, WORDS
from site_builder.translate.marks import message_id

PO = "locales/pl/LC_MESSAGES/messages.po"
# a sentence of content/about.md's Polish page, and another entry a text editor changes
PICKED = "How the examples are checked"
EDITOR = "Melds"


@dataclass
class Preview:
    base: str
    root: Path
    token: str

    @property
    def catalog(self) -> Path:
        return self.root / PO


@pytest.fixture(scope="module")
def preview(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Preview]:
    root = copy_project(tmp_path_factory.mktemp("translate") / "project")
    # the committed catalogs, where there are: the shared working tree's may be mid-edit
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD", "locales"],
                             capture_output=True)
    if archive.returncode == 0:
        shutil.rmtree(root / "locales")
        subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "site_builder", "serve", "--root", str(root),
                             "--port", str(port), "--translate", "pl"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(f"serving {base}/"), line
        _, page = fetch(f"{base}/pl/about/")
        token = re.search(r'<meta name="site-builder-translate" content="([^"]+)"', page)
        assert token, "the page carries no token"
        yield Preview(base, root, token.group(1))
    finally:
        proc.terminate()
        proc.wait(timeout=HANG)


def request(preview: Preview, path: str, body: object = None, headers: dict[str, str] | None
            = None, method: str | None = None) -> tuple[int, dict[str, object]]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"{preview.base}{path}", data=data, method=method,
                                 headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=HANG) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        text = exc.read()
        return exc.code, json.loads(text) if text.startswith(b"{") else {}


def good(preview: Preview) -> dict[str, str]:
    return {"X-Site-Builder-Token": preview.token, "Origin": preview.base,
            "Content-Type": "application/json"}


def entry(preview: Preview, msgid: str) -> dict[str, object]:
    status, found = request(preview, f"/__translate/entry?id={message_id(msgid, None)}",
                            headers=good(preview))
    assert status == 200, found
    return found


def save_body(found: dict[str, object], strings: list[str], **changes: object
              ) -> dict[str, object]:
    return {"lang": "pl", "catalog": found["catalog"], "id": found["id"],
            "base": found["strings"], "strings": strings, **changes}


def test_a_picked_entry_says_where_it_is_and_what_state(preview: Preview) -> None:
    found = entry(preview, PICKED)
    text = preview.catalog.read_text(encoding="utf-8").split("\n")
    assert found["catalog"] == PO and text[int(found["line"]) - 1] == f'msgid "{PICKED}"'  # type: ignore[call-overload]
    assert found["state"] == "translated" and "/pl/about/" in found["pages"]  # type: ignore[operator]
    _, page = fetch(f"{preview.base}/pl/about/")
    assert f'data-sb-msg="{found["id"]}"' in page


def test_the_panel_speaks_the_translators_language(preview: Preview) -> None:
    """The panel's own words are catalog entries in their context, in Polish here."""
    status, words = request(preview, "/__translate/words", headers=good(preview))
    assert status == 200, words
    with preview.catalog.open("rb") as po:
        polish = read_po(po, locale="pl")
    for key, english in WORDS.items():
        found = polish.get(english, context=CONTEXT)
        assert found is not None and found.string and not found.fuzzy, english
        assert words[key] == found.string, (key, words[key])
    assert words["save"] == "Zapisz" and words["close"] == "Zamknij"


def test_writes_without_the_token_origin_or_host_or_outside_locales_are_403(
        preview: Preview) -> None:
    before = preview.catalog.read_bytes()
    found = entry(preview, PICKED)
    body = save_body(found, ["Zmienione"])
    no_token = {k: v for k, v in good(preview).items() if k != "X-Site-Builder-Token"}
    wrong_token = {**good(preview), "X-Site-Builder-Token": "x" * 43}
    other_origin = {**good(preview), "Origin": "http://evil.test"}
    no_origin = {k: v for k, v in good(preview).items() if k != "Origin"}
    cross_site = {**good(preview), "Sec-Fetch-Site": "cross-site"}
    form = {**good(preview), "Content-Type": "application/x-www-form-urlencoded"}
    other_host = {**good(preview), "Host": "evil.test"}
    for headers in (no_token, wrong_token, other_origin, no_origin, cross_site, form,
                    other_host):
        status, _ = request(preview, "/__translate/save", body, headers)
        assert status == 403, headers
    outside = ROOT / "content" / "about.md"
    link = preview.root / "locales" / "pl" / "LC_MESSAGES" / "linked.po"
    os.symlink(outside, link)
    try:
        for catalog in ("content/about.md", "locales/../content/about.md",
                        "locales/pl/LC_MESSAGES/linked.po", "/etc/passwd", "locales/ms/"
                        "LC_MESSAGES/messages.po"):
            status, _ = request(preview, "/__translate/save",
                                save_body(found, ["Zmienione"], catalog=catalog), good(preview))
            assert status == 403, catalog
        status, _ = request(preview, "/__translate/save", save_body(found, ["x"], lang="ms"),
                            good(preview))
        assert status == 403
    finally:
        link.unlink()
    assert preview.catalog.read_bytes() == before
    assert (preview.root / "content" / "about.md").read_bytes() == outside.read_bytes()
    status, _ = request(preview, f"/__translate/entry?id={found['id']}")  # a read, no token
    assert status == 403


def test_a_translation_that_fails_a_check_is_not_saved(preview: Preview) -> None:
    before = preview.catalog.read_bytes()
    found = entry(preview, PICKED)
    for bad, why in (("Jak sprawdzane są przykłady 12", "numbers differ"),
                     ("Jak <b>sprawdzane</b> są przykłady", "raw HTML"),
                     ("Jak sprawdzane są {przyklady}", "placeholders differ"),
                     ("Jak sprawdzana jest królowa kier", "")):
        status, answer = request(preview, "/__translate/save", save_body(found, [bad]),
                                 good(preview))
        assert status == 422 and answer["status"] == "refused", (bad, answer)
        assert why in " ".join(answer["reasons"]), (bad, answer)  # type: ignore[arg-type]
    assert preview.catalog.read_bytes() == before


def test_a_save_of_an_entry_changed_meanwhile_is_told_and_writes_nothing(
        preview: Preview) -> None:
    found = entry(preview, PICKED)
    first = save_body(found, ["Jak sprawdzamy przykłady"])
    second = save_body(found, ["Sposób sprawdzania przykładów"])
    status, answer = request(preview, "/__translate/save", first, good(preview))
    assert status == 200 and answer["strings"] == ["Jak sprawdzamy przykłady"], answer
    after_first = preview.catalog.read_bytes()
    status, answer = request(preview, "/__translate/save", second, good(preview))
    assert status == 409 and answer["strings"] == ["Jak sprawdzamy przykłady"], answer
    assert preview.catalog.read_bytes() == after_first
    # put back: the next test starts from the catalog's sentence
    status, _ = request(preview, "/__translate/save",
                        save_body(entry(preview, PICKED), found["strings"]), good(preview))  # type: ignore[arg-type]
    assert status == 200


def test_what_is_left_names_an_entry_the_catalog_lacks(preview: Preview) -> None:
    """An entry deleted from the catalog (or one the catalog was never updated with) is
    still left: listed as missing under the page that shows it, with no catalog line."""
    before = preview.catalog.read_bytes()
    text = before.decode("utf-8")
    start = text.index(f'msgid "{PICKED}"')
    start = text.rindex("\n\n", 0, start) + 2  # the entry's comments and references too
    end = text.index("\n\n", start) + 2
    preview.catalog.write_text(text[:start] + text[end:], encoding="utf-8")
    try:
        status, left = request(preview, "/__translate/left", headers=good(preview))
    finally:
        preview.catalog.write_bytes(before)
    assert status == 200, left
    found = [(group["page"], e) for group in left["pages"]  # type: ignore[attr-defined]
             for e in group["entries"] if e["msgid"] == PICKED]
    assert found and all(e["state"] == "missing" and e["line"] is None for _, e in found)
    assert "/pl/about/" in {page for page, _ in found}, found
