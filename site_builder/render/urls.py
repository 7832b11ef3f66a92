"""Where each output file lives, and the links between them: the one home of output
paths (:func:`site_builder.project.page_path`) and URLs."""

from __future__ import annotations

import posixpath
from urllib.parse import urlsplit


def page_url(base_url: str, lang: str, slug: str) -> str:
    """The public address of a page: ``https://host/pl/first-meld/``."""
    return base_url + (f"{lang}/" if slug == "index" else f"{lang}/{slug}/")


def relative(from_file: str, to_file: str) -> str:
    """A relative link from one output file to another (works from ``file://``).

    >>> relative("pl/first-meld/index.html", "ms/first-meld/index.html")
    '../../ms/first-meld/index.html'
    >>> relative("index.html", "assets/site.css")
    'assets/site.css'
    """
    return posixpath.relpath(to_file, posixpath.dirname(from_file) or ".")


def root_path(base_url: str) -> str:
    """The path of the site's root in *base_url*, which the 404 pages link from: a 404
    page is served at any address, so its links cannot be relative, and with the host left
    out they work on any host (a local preview, a mirror).

    >>> root_path("https://rami.example.org/"), root_path("https://example.org/rami/")
    ('/', '/rami/')
    """
    path = urlsplit(base_url).path or "/"
    return path if path.endswith("/") else path + "/"
