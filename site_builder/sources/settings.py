"""``content/site.toml``: the site's settings, each checked, each error at its line.

The one setting is ``base_url``, the site's public address (also ``build --base-url``):
an absolute http(s) URL with a host, no query, fragment, user name or password, in
ASCII (other characters %-encoded), and no space, quote, angle bracket or control
character (it is written into every page's canonical link, the sitemap and robots.txt:
a line break there would add a line to robots.txt).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from site_builder.errors import Problem
from site_builder.project import SITE_FILE
from site_builder.sources.files import read_toml, toml_line

KNOWN = ("base_url",)


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


def read_settings(root: Path) -> tuple[dict[str, str], list[Problem]]:
    """The settings of *root*'s ``content/site.toml`` (none if it is missing), with
    every problem at its line."""
    path = root / SITE_FILE
    if not path.exists() and not path.is_symlink():
        return {}, []
    table, text, problems = read_toml(path, SITE_FILE)
    if problems:
        return {}, problems
    lines = text.split("\n")
    settings: dict[str, str] = {}
    problems = []
    for key, value in table.items():
        line = toml_line(lines, 0, key)
        if key not in KNOWN:
            problems.append(Problem(SITE_FILE, line, f"unknown setting {key!r}; known: "
                                                     f"{', '.join(KNOWN)}"))
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


def load_config(root: Path, problems: list[Problem], base_url: str | None = None) -> Config:
    """``content/site.toml``, with *base_url* (if given) in place of the file's, ending
    in ``/``; problems go to *problems*."""
    settings, errs = read_settings(root)  # each setting checked, each error at its line
    problems.extend(errs)
    config = Config()
    if "base_url" in settings:
        config.base_url = settings["base_url"]
    if base_url:
        config.base_url = base_url
    if not config.base_url.endswith("/"):
        config.base_url += "/"
    return config
