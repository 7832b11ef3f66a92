"""The translator's preview over HTTP: its guards, its answers, and the page's additions.

``serve --translate LANG`` writes catalogs, so every request to ``/__translate/`` must
pass :func:`refusal` (else 403, and nothing is read or written):

* the server listens on 127.0.0.1 only, and answers only to a loopback ``Host``
  (:func:`site_builder.serve.host_allowed`: no DNS rebinding);
* the token made at start, which only the preview's own pages carry (a page of another
  site cannot read them), in the ``X-Site-Builder-Token`` header;
* an ``Origin`` (a write must have one) of the preview itself, and no
  ``Sec-Fetch-Site: cross-site``: no form or script of another site;
* a write is JSON (a cross-site form cannot send it) and names the language's catalog,
  inside ``locales/`` (:func:`site_builder.translate.save.catalog_file`).
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from site_builder.errors import UserError
from site_builder.i18n.translator import is_translated, pgettext
from site_builder.project import TEMPLATES_DIR
from site_builder.translate import entries
from site_builder.translate.marks import ID_RE
from site_builder.translate.save import Forbidden, save

PREFIX = "/__translate/"
SCRIPTS = "/__translate-ui/"  # templates/translate/ (never in a build): ../assets/lib/ resolves
SCRIPTS_DIR = "translate"
TOKEN_HEADER = "X-Site-Builder-Token"
MAX_BODY = 64 * 1024
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")

# The words of the translator's panel, by key: looked up in the language's catalog in their
# own context, as any text of the site (English where it has none), so that a translator
# works in their own language from the first page they pick.
CONTEXT = "translator's preview"  # each call below names it: the extractor reads literals
WORDS = {
    # Translators: the title of the translator's preview panel (site-builder serve --translate),
    # the box that opens beside a page when a translator picks a text on it.
    "panel": pgettext("translator's preview", "Translation"),
    # Translators: in the translator's panel, the label of the English text (the msgid).
    "source": pgettext("translator's preview", "English"),
    # Translators: in the translator's panel, the label of the entry's message context
    # (msgctxt), which tells apart two uses of the same English words.
    "context": pgettext("translator's preview", "Context"),
    # Translators: in the translator's panel, the label of the catalog file and line of the
    # entry (locales/pl/LC_MESSAGES/messages.po:120).
    "catalog": pgettext("translator's preview", "Catalog"),
    # Translators: in the translator's panel, the label of the list of pages where the text
    # appears.
    "pages": pgettext("translator's preview", "Shown on"),
    # Translators: in the translator's panel, the label of the entry's state (translated,
    # fuzzy, missing or obsolete, the four entries below).
    "state": pgettext("translator's preview", "State"),
    # Translators: an entry's state in the translator's panel: it has a translation.
    "translated": pgettext("translator's preview", "translated"),
    # Translators: an entry's state in the translator's panel: its translation is marked
    # "fuzzy" (to be checked), and the site shows the English until it is confirmed.
    "fuzzy": pgettext("translator's preview", "fuzzy"),
    # Translators: an entry's state in the translator's panel: it has no translation yet.
    "missing": pgettext("translator's preview", "missing"),
    # Translators: an entry's state in the translator's panel: the site no longer uses it.
    "obsolete": pgettext("translator's preview", "obsolete"),
    # Translators: in the translator's panel, the label of the box where the translation is
    # edited.
    "edit": pgettext("translator's preview", "Your translation"),
    # Translators: the button that writes the edited translation into the catalog file.
    "save": pgettext("translator's preview", "Save"),
    # Translators: the button that closes the translator's panel.
    "close": pgettext("translator's preview", "Close"),
    # Translators: shown in the translator's panel after a save; the preview then rebuilds.
    "saved": pgettext("translator's preview", "Saved. The page shows it once it is built again."),
    # Translators: shown before the reason why a translation was not saved (a check failed:
    # a placeholder, a number or a term); the reason follows after the colon.
    "refused": pgettext("translator's preview", "Not saved:"),
    # Translators: shown when someone else (a text editor) changed the same entry while it
    # was being edited; the entry's current text follows after the colon.
    "changed": pgettext("translator's preview",
                        "Not saved: this entry was changed meanwhile. It now reads:"),
    # Translators: the heading of the translator's list of entries still to translate or check.
    "left": pgettext("translator's preview", "What is left"),
    # Translators: shown in the translator's list when every entry is translated.
    "nothing_left": pgettext("translator's preview", "Nothing is left to translate."),
    # Translators: in the translator's list, the group of entries that no page shows as text
    # (a script's words or an attribute, such as a button's label for screen readers).
    "nowhere": pgettext("translator's preview",
                        "Not on a page (a script's or an attribute's text)"),
    # Translators: the hint at the top of the translator's preview: how to pick a text on the
    # page to see and edit its catalog entry.
    "pick": pgettext("translator's preview", "Pick a text: click it, press and hold it, or Tab "
                                             "to it and press Enter."),
    # Translators: in the translator's list, the group of entries shown on the page open now.
    "on_page": pgettext("translator's preview", "On this page"),
    # Translators: a plural form's label in the translator's panel: {n} is the form's number
    # as the catalog numbers them, from 0 (msgstr[0], msgstr[1], msgstr[2]).
    "form": pgettext("translator's preview", "Form {n}"),
}


@dataclass
class TranslatorMode:
    """The preview's translator mode for one language: its token, and the pages' marks
    (read again after each build)."""

    root: Path
    lang: str
    out: Path
    port: int = 0
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    rebuilt: Callable[[], None] = lambda: None  # a save's rebuild (serve's)
    _index: tuple[int, dict[str, list[str]]] = (-1, {})
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def head(self) -> bytes:
        """What a preview page gets before ``</head>``: the token, the panel's style and
        script."""
        return (f'<meta name="site-builder-translate" content="{self.token}" '
                f'data-lang="{self.lang}">'
                f'<link rel="stylesheet" href="{SCRIPTS}translate.css">'
                f'<script type="module" src="{SCRIPTS}main.js"></script>').encode()

    def index(self, version: int) -> dict[str, list[str]]:
        with self._lock:
            if self._index[0] != version:
                self._index = (version, entries.page_index(self.out, self.lang))
            return self._index[1]

    def refusal(self, method: str, headers: Any) -> str | None:
        """Why a request to the translator's preview is refused (None: it is not)."""
        token = headers.get(TOKEN_HEADER) or ""
        if not hmac.compare_digest(token.encode(), self.token.encode()):
            return "the request has no valid token"
        origin = headers.get("Origin")
        if method != "GET" and origin is None:
            return "a write must say its Origin"
        if origin is not None and origin not in self.origins():
            return f"the origin {origin!r} is not this preview"
        if (headers.get("Sec-Fetch-Site") or "same-origin") not in ("same-origin", "none"):
            return "a request from another site"
        if method != "GET" and (headers.get("Content-Type") or "").split(";")[0].strip() \
                != "application/json":
            return "a write is JSON"
        return None

    def origins(self) -> list[str]:
        return [f"http://{host}:{self.port}" for host in LOOPBACK]

    def words(self) -> dict[str, str]:
        try:
            catalog = entries.read_catalog(self.root, self.lang)
        except UserError:
            return dict(WORDS)
        out = {}
        for key, english in WORDS.items():
            message = catalog.get(english, context=CONTEXT)
            out[key] = str(message.string) if message is not None and \
                is_translated(message) else english
        return out

    def get(self, path: str, query: dict[str, str], version: int) -> tuple[int, Any]:
        """The answer to ``GET /__translate/<path>``: (status, JSON)."""
        if path == "words":
            return 200, self.words()
        if path == "left":
            return 200, entries.left(self.root, self.lang, self.index(version))
        if path == "entry":
            wanted = query.get("id", "")
            if not ID_RE.match(wanted):
                return 404, {"error": "no such entry"}
            try:
                catalog = entries.read_catalog(self.root, self.lang)
            except UserError as exc:
                return 409, {"error": "; ".join(str(p) for p in exc.problems)}
            message = entries.find(catalog, wanted)
            if message is None:
                return 404, {"error": "this text is not in the catalog: run "
                                      "site-builder i18n update"}
            return 200, entries.describe(self.root, self.lang, message,
                                         self.index(version).get(wanted, []))
        return 404, {"error": "no such request"}

    def post(self, path: str, body: bytes) -> tuple[int, Any]:
        """The answer to ``POST /__translate/<path>``: (status, JSON)."""
        if path != "save":
            return 404, {"error": "no such request"}
        try:
            asked = json.loads(body)
            lang, catalog, wanted = asked["lang"], asked["catalog"], asked["id"]
            base, new = asked["base"], asked["strings"]
            if not (isinstance(base, list) and isinstance(new, list)
                    and all(isinstance(s, str) for s in [*base, *new])
                    and isinstance(catalog, str) and isinstance(wanted, str)):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            return 400, {"error": "a save is {lang, catalog, id, base, strings}"}
        if lang != self.lang:
            return 403, {"error": f"this preview translates {self.lang}, not {lang!r}"}
        try:
            outcome = save(self.root, self.lang, catalog, wanted, base, new)
        except Forbidden as exc:
            return 403, {"error": str(exc)}
        if outcome.status == "saved":
            self.rebuilt()
        status = {"saved": 200, "refused": 422, "changed": 409}[outcome.status]
        return status, {"status": outcome.status, "reasons": outcome.reasons, **outcome.entry}

    def script(self, name: str) -> tuple[bytes, str] | None:
        """A file of the panel (``templates/translate/``): its bytes and type, or None."""
        if "/" in name or not name.replace("-", "").replace(".", "").isalnum():
            return None
        kinds = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
        kind = kinds.get(Path(name).suffix)
        file = self.root / TEMPLATES_DIR / SCRIPTS_DIR / name
        if kind is None or not file.is_file() or file.is_symlink():
            return None
        return file.read_bytes(), kind
