"""``content/site.toml``: the site's settings, each checked, each error at its line.

``base_url`` is the site's public address (also ``build --base-url``): an absolute
http(s) URL with a host, no query, fragment, user name or password, in ASCII (other
characters %-encoded), and no space, quote, angle bracket or control character (it is
written into every page's canonical link, the sitemap and robots.txt: a line break there
would add a line to robots.txt).

``[ready]`` lists the languages their translators have declared ready, each with its
gate: the share of its messages, in percent, that must be translated for the site to be
published (``i18n stats --gate``). Every other language is a draft: built and published
with the notice that it is partly translated, and never a reason not to publish. A new
language (``i18n init``) starts as a draft, so that adding one never blocks a deploy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from site_builder.errors import Problem
from site_builder.project import SITE_FILE
from site_builder.sources.files import read_toml, toml_line

KNOWN = ("base_url", "ready")
LANG_CODE = re.compile(r"[a-z]{2,3}(?:_[A-Za-z0-9]+)*")  # a catalog folder's name (en, pt_BR)


def base_url_problem(url: str) -> str | None:
    """Why *url* cannot be the site's base URL, or None.

    >>> base_url_problem("https://rami-rules.example.org/") is None
    True
    >>> base_url_problem("javascript:alert(1)")[:40]
    'base_url must be an absolute http(s) URL'
    """
    hint = "base_url must be an absolute http(s) URL such as https://example.org/rules/"
    if re.search(r"[\x00-\x20\x7f-\x9f\"'<>`\\{}|^]", url):
        return f"{hint}; {url!r} holds a space, a quote, a bracket or a control character"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a bad port raises
    except ValueError as exc:
        return f"{hint}; {url!r}: {exc}"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{hint}; {url!r} is not one"
    if parts.query or parts.fragment or url.endswith(("?", "#")):
        return f"{hint}, without a query or fragment; {url!r} has one"
    if "@" in parts.netloc:  # it would be published in every page
        return f"{hint}, without a user name or password; {url!r} has one"
    if not url.isascii():  # a sitemap's <loc> must be escaped (sitemaps.org protocol)
        return (f"{hint}, in ASCII; {url!r} holds other characters: write them %-encoded "
                "(a host in its xn-- form)")
    if re.search(r"%(?![0-9A-Fa-f]{2})", url):
        return f"{hint}; {url!r} has a % that is not followed by two hex digits"
    try:  # an xn-- label must be valid Punycode (RFC 3492), as browsers require
        parts.hostname.encode("ascii").decode("idna")
    except UnicodeError as exc:
        return f"{hint}; {url!r} has a host that is not a valid domain name ({exc})"
    return None


@dataclass(frozen=True)
class Gate:
    """A language declared ready: the share of its messages (percent) that must be
    translated, and the line of ``content/site.toml`` that declares it."""

    percent: float
    line: int


def read_ready(value: object, lines: list[str], line: int, problems: list[Problem]
               ) -> dict[str, Gate]:
    """The ``[ready]`` table: language code -> its gate, each problem at its line.

    >>> problems = []
    >>> text = "[ready]\\npl = 90\\nvi = 'x'\\nDE = 50\\nms = true"
    >>> table = {"pl": 90, "vi": "x", "DE": 50, "ms": True}
    >>> read_ready(table, text.split("\\n"), 1, problems)
    {'pl': Gate(percent=90.0, line=2)}
    >>> [p.line for p in problems]
    [3, 4, 5]
    """
    example = "for example\n[ready]\npl = 90"
    if not isinstance(value, dict):
        problems.append(Problem(SITE_FILE, line, "ready must be a table of languages, each "
                                                 f"with its gate in percent: {example}"))
        return {}
    gates: dict[str, Gate] = {}
    for lang, percent in value.items():
        at = toml_line(lines, line, lang)
        if not LANG_CODE.fullmatch(lang):
            problems.append(Problem(SITE_FILE, at, f"{lang!r} is not a language code as the "
                                                   "catalog folders name them (pl, pt_BR)"))
        elif isinstance(percent, bool) or not isinstance(percent, int | float) \
                or not 0 <= percent <= 100:
            problems.append(Problem(SITE_FILE, at, f"the gate of {lang} must be a number "
                                                   f"from 0 to 100 (percent), not {percent!r}"))
        else:
            gates[lang] = Gate(float(percent), at)
    return gates


def read_settings(root: Path) -> tuple[dict[str, object], list[Problem]]:
    """The settings of *root*'s ``content/site.toml`` (none if it is missing), with
    every problem at its line."""
    path = root / SITE_FILE
    if not path.exists() and not path.is_symlink():
        return {}, []
    table, text, problems = read_toml(path, SITE_FILE)
    if problems:
        return {}, problems
    lines = text.split("\n")
    settings: dict[str, object] = {}
    problems = []
    for key, value in table.items():
        line = toml_line(lines, 0, key)
        if key not in KNOWN:
            problems.append(Problem(SITE_FILE, line, f"unknown setting {key!r}; known: "
                                                     f"{', '.join(KNOWN)}"))
        elif key == "ready":
            settings[key] = read_ready(value, lines, line, problems)
        elif not isinstance(value, str):
            problems.append(Problem(SITE_FILE, line, f"{key} must be a string in quotes, "
                                                     "e.g. base_url = \"https://example.org/\""))
        else:
            why = base_url_problem(value)
            if why is not None:
                problems.append(Problem(SITE_FILE, line, why))
            else:
                settings[key] = value
    return settings, problems


@dataclass
class Config:
    base_url: str = "https://rami-rules.example.org/"
    ready: dict[str, Gate] = field(default_factory=dict)


def load_config(root: Path, problems: list[Problem], base_url: str | None = None) -> Config:
    """``content/site.toml``, with *base_url* (if given) in place of the file's, ending
    in ``/``; problems go to *problems*."""
    settings, errs = read_settings(root)  # each setting checked, each error at its line
    problems.extend(errs)
    config = Config()
    if isinstance(settings.get("base_url"), str):
        config.base_url = str(settings["base_url"])
    ready = settings.get("ready")
    if isinstance(ready, dict):
        config.ready = ready
    if base_url:
        config.base_url = base_url
    if not config.base_url.endswith("/"):
        config.base_url += "/"
    return config
