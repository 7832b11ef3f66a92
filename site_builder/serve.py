"""``site-builder serve``: a preview on 127.0.0.1 that rebuilds on save and reloads the page.

* The site is built into ``ROOT/.cache/site-builder/serve/`` (``dist/`` is left alone)
  with the build cache, so that saving one catalog renders only that language again.
* ``content/``, ``locales/`` and ``templates/`` are watched with watchfiles.
* Every HTML page is served with ``<script src="/__livereload.js">`` added before
  ``</body>`` (only here: the built files do not have it). The site's Content Security
  Policy allows scripts from its own origin only (and no fetch or EventSource), so the
  script is a file, not inline, and it long-polls with script elements: ``/__reload.js``
  answers ``location.reload()`` as soon as a build finishes.
* When a build fails, every page shows the problems, each as ``path:line: message``, and
  the server keeps running; the next good build brings the pages back.
* ``--translate LANG``: the translator's preview (:mod:`site_builder.translate`). The
  language's texts from its catalog are marked on its pages, which get the panel (the
  token, a stylesheet and a module from ``templates/translate/``); a picked text shows its
  entry, and a translation saved goes to the catalog through ``/__translate/save``, guarded
  (:mod:`site_builder.translate.api`). It builds into its own folder
  (``.cache/site-builder/serve-translate-LANG/``): the marks never reach another preview or
  a build.
"""

from __future__ import annotations

import html
import http.server
import json
import os
import stat
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from watchfiles import watch as watch_files

from site_builder.build import build
from site_builder.errors import UserError
from site_builder.output import MARKER
from site_builder.project import CACHE_DIR, not_found_path
from site_builder.render.offline import PREVIEW_WORKER, WORKER
from site_builder.session import Session
from site_builder.translate.api import MAX_BODY, PREFIX, SCRIPTS, TranslatorMode

WATCHED = ("content", "locales", "templates")
RELOAD_PATH = "/__reload.js"
SCRIPT_PATH = "/__livereload.js"

LIVERELOAD_JS = """\
// site-builder serve: reload this page when the site has been built again.
// The site's Content Security Policy allows scripts from this origin but no fetch or
// EventSource, so this asks with script elements: /__reload.js answers when a build
// finishes (location.reload()) or after a while (ask again).
(function () {
  var script = document.currentScript;
  var version = script ? new URL(script.src).searchParams.get("v") : "0";
  function poll() {
    var ask = document.createElement("script");
    ask.src = "/__reload.js?v=" + version + "&t=" + Date.now();
    ask.onload = function () { ask.remove(); };
    ask.onerror = function () { ask.remove(); setTimeout(poll, 500); };
    document.head.appendChild(ask);
  }
  window.__siteBuilderPoll = poll;
  // start once the page has loaded: a pending script would hold up its load event
  if (document.readyState === "complete") { poll(); }
  else { window.addEventListener("load", function () { setTimeout(poll, 0); }); }
})();
"""
RELOAD_JS = "location.reload();\n"
AGAIN_JS = "window.__siteBuilderPoll && window.__siteBuilderPoll();\n"
POLL_SECONDS = 25
SWAP_WAIT = 2.0  # seconds a request waits for a preview folder being swapped in

ERROR_PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Build failed · site-builder serve</title>
<style>body{{font:16px/1.5 system-ui,sans-serif;margin:2rem;max-width:60rem}}
pre{{white-space:pre-wrap;background:#fff4f4;border-left:4px solid #b3152b;padding:1rem}}</style>
</head>
<body>
<h1>The site did not build</h1>
<p>Fix the problem{plural} below and save: this page reloads by itself.</p>
<pre>{problems}</pre>
{script}
</body>
</html>
"""


@dataclass
class State:
    """The outcome of the last build, shared by the watcher and the request threads."""

    version: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    changed: threading.Condition = field(default_factory=threading.Condition)
    stopping: bool = False
    session: Session = field(default_factory=Session)  # what a rebuild reuses
    translate: TranslatorMode | None = None  # serve --translate LANG
    building: threading.Lock = field(default_factory=threading.Lock)  # one build at a time

    def update(self, problems: list[str], seconds: float) -> None:
        with self.changed:
            self.version += 1
            self.problems = problems
            self.seconds = seconds
            self.changed.notify_all()


def rebuild(root: Path, out: Path, state: State) -> None:
    """Build into *out* with the cache and *state*'s session (the languages whose inputs did
    not change are used again); record the problems (if any) in *state*."""
    with state.building:
        _rebuild(root, out, state)


def _rebuild(root: Path, out: Path, state: State) -> None:
    start = time.perf_counter()
    try:
        result = build(root, out, session=state.session,
                       marked=state.translate.lang if state.translate else None)
        problems: list[str] = []
        for warning in result.unknown:  # warnings: the preview is built all the same
            print(f"  {warning}", file=sys.stderr, flush=True)
        done = ", ".join(result.rendered) or "nothing changed"
        message = f"built ({done})"
    except UserError as exc:
        problems = [str(p) for p in exc.problems]
        message = f"build failed: {len(problems)} problem(s)"
    except Exception as exc:  # noqa: BLE001 - the server keeps running whatever happens
        # the traceback goes to the terminal only: the browser gets one line
        traceback.print_exc(file=sys.stderr)
        problems = [f"site-builder: internal error: {exc!r} (the traceback is in the "
                    "terminal running site-builder serve)"]
        message = "build failed: internal error"
    seconds = time.perf_counter() - start
    state.update(problems, seconds)
    print(f"{message} in {seconds:.2f} s", file=sys.stderr, flush=True)
    for problem in problems:
        print(f"  {problem}", file=sys.stderr, flush=True)


# The names the preview answers to. A page of another site that makes the browser resolve
# its own name to 127.0.0.1 (DNS rebinding) sends its own name as Host: refused.
ALLOWED_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def host_allowed(header: str | None) -> bool:
    """Whether a request's ``Host`` header names this machine's loopback address.

    >>> [host_allowed(h) for h in ("127.0.0.1:8000", "localhost", "[::1]:80", "evil.test:8000")]
    [True, True, True, False]
    """
    if not header:
        return False
    host = header.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        name, rest = host[: end + 1], host[end + 1:]
    else:
        name, _, port = host.partition(":")
        rest = f":{port}" if port else ""
    if rest and not (rest.startswith(":") and rest[1:].isdigit() and rest[1:].isascii()):
        return False
    return name in ALLOWED_HOSTS


class PreviewServer(http.server.ThreadingHTTPServer):
    """The preview's server: a listen backlog for a browser's bursts of requests (the
    standard library's is 5, and a burst of more waits seconds for a retry)."""

    request_queue_size = 128
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One line on the console for a request that failed, not the standard library's
        traceback (the reader's browser gets no answer for it either way)."""
        exc = sys.exc_info()[1]
        if isinstance(exc, (BrokenPipeError, ConnectionResetError)):
            return  # the browser went away
        print(f"site-builder serve: internal error answering a request: {exc!r}",
              file=sys.stderr)


def inside(out: Path, path: str) -> bool:
    """Whether *path* is *out* or under it, each folder on the way a folder and no
    symlink, and it is a regular file with no other name (a hard link planted in the
    preview may be any file of the machine; the build writes every file
    new) or a folder (or missing: a request for no file).

    >>> import tempfile; out = Path(tempfile.mkdtemp()); (out / "a").mkdir()
    >>> _ = (out / "a" / "b.html").write_text("b"); os.symlink("/etc/hostname", out / "c")
    >>> os.link(out / "a" / "b.html", out / "d.html")
    >>> [inside(out, str(out / p)) for p in ("a/b.html", "a", "c", "a/none", "../x", "d.html")]
    [False, True, False, True, False, False]
    """
    rel = os.path.relpath(path, out)
    if rel == ".":
        return True
    if rel.startswith(".."):
        return False
    here = str(out)
    parts = rel.split(os.sep)
    for number, part in enumerate(parts, 1):
        here = os.path.join(here, part)
        try:
            st = os.lstat(here)
        except OSError:
            return True  # no such file: answered 404
        if stat.S_ISDIR(st.st_mode):
            continue
        return number == len(parts) and stat.S_ISREG(st.st_mode) and st.st_nlink == 1
    return True


def make_handler(out: Path, state: State) -> type[http.server.SimpleHTTPRequestHandler]:
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(out), **kwargs)

        def parse_request(self) -> bool:
            if not super().parse_request():
                return False
            if not host_allowed(self.headers.get("Host")):
                if self.command == "POST":  # a write from another name: forbidden
                    self.send_error(403, "Forbidden", "a write comes from 127.0.0.1 only")
                    return False
                self.send_error(421, "Misdirected Request",
                                "site-builder serve answers only to 127.0.0.1, localhost "
                                "and [::1]")
                return False
            return True

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass  # quiet: the build messages are what matters

        def end_headers(self) -> None:
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def do_GET(self) -> None:  # noqa: N802 (http.server API)
            path = unquote(urlsplit(self.path).path)
            if "\x00" in path:  # no file has a NUL in its name (open() would raise)
                return self.send_error(404)
            if state.translate is not None and path.startswith((PREFIX, SCRIPTS)):
                return self._translate_get(state.translate, path)
            if path == RELOAD_PATH:
                return self._wait_for_build()
            if path == SCRIPT_PATH:
                return self._send(200, "text/javascript; charset=utf-8",
                                  LIVERELOAD_JS.encode())
            if path.endswith(f"/{WORKER}"):  # a preview caches nothing (render/offline.py)
                return self._send(200, "text/javascript; charset=utf-8", PREVIEW_WORKER.encode())
            wants_page = path.endswith("/") or path.endswith(".html")
            if state.problems and wants_page:
                return self._error_page()
            if wants_page:
                return self._page(path)
            return super().do_GET()

        def translate_path(self, path: str) -> str:
            """The file for *path*, if it is a regular file or a folder inside the output
            reached through no symlink (nor its index.html one); else a path that is
            no file: a symlink planted in the preview folder is not followed.
            Where the file system cannot exchange two folders in one step, the preview is
            missing between a rebuild's two renames: the request waits for it, rather
            than being told "File not found"."""
            deadline = time.monotonic() + SWAP_WAIT
            while not os.path.isdir(out) and time.monotonic() < deadline:
                time.sleep(0.005)
            found = super().translate_path(path)
            if os.path.isdir(found) and os.path.lexists(os.path.join(found, "index.html")):
                ok = inside(out, os.path.join(found, "index.html"))
            else:
                ok = inside(out, found)
            return found if ok else os.path.join(out, MARKER, "none")

        def send_head(self) -> Any:
            try:
                return super().send_head()
            except ValueError:  # a NUL in the path (GET's is answered before): no such file
                self.send_error(404)
                return None

        def do_POST(self) -> None:  # noqa: N802 (http.server API)
            """Only the translator's preview takes a write (a translation saved)."""
            path = unquote(urlsplit(self.path).path)
            mode = state.translate
            if mode is None or not path.startswith(PREFIX):
                return self._json(403, {"error": "this preview writes nothing"})
            refused = mode.refusal("POST", self.headers)
            if refused is not None:
                return self._json(403, {"error": refused})
            try:
                length = int(self.headers.get("Content-Length") or "")
            except ValueError:
                length = -1
            if not 0 <= length <= MAX_BODY:
                return self._json(400, {"error": "a save is a small JSON body"})
            self._json(*mode.post(path[len(PREFIX):], self.rfile.read(length)))

        def _translate_get(self, mode: TranslatorMode, path: str) -> None:
            if path.startswith(SCRIPTS):  # the panel's files: no secret, no token
                found = mode.script(path[len(SCRIPTS):])
                if found is None:
                    return self.send_error(404)
                return self._send(200, found[1], found[0])
            refused = mode.refusal("GET", self.headers)
            if refused is not None:
                return self._json(403, {"error": refused})
            query = dict(p.partition("=")[::2] for p in urlsplit(self.path).query.split("&"))
            self._json(*mode.get(path[len(PREFIX):], query, state.version))

        def _json(self, status: int, data: object) -> None:
            self._send(status, "application/json; charset=utf-8",
                       json.dumps(data, ensure_ascii=False).encode("utf-8"))

        def _script_tag(self) -> bytes:
            return f'<script src="{SCRIPT_PATH}?v={state.version}"></script>'.encode()

        def _page(self, path: str) -> None:
            target = Path(self.translate_path(path))
            if target.is_dir():
                if not path.endswith("/"):
                    return super().do_GET()  # the usual redirect to the folder
                target = target / "index.html"
            status = 200
            if not target.is_file():  # the language's own 404 page, else the root one
                first = path.strip("/").split("/", 1)[0]
                lang_404 = out / not_found_path(first)
                target = lang_404 if first.replace("-", "").isalnum() and "/" in path.strip("/") \
                    and inside(out, str(lang_404)) else out / not_found_path()
                if not inside(out, str(target)):
                    return self.send_error(404)
                status = 404
            try:
                data = target.read_bytes()
            except OSError:
                return self.send_error(404)
            at = data.rfind(b"</body>")
            if at != -1:
                data = data[:at] + self._script_tag() + data[at:]
            at = data.find(b"</head>")
            if state.translate is not None and at != -1:
                data = data[:at] + state.translate.head() + data[at:]
            self._send(status, "text/html; charset=utf-8", data)

        def _error_page(self) -> None:
            problems = state.problems
            page = ERROR_PAGE.format(
                plural="" if len(problems) == 1 else "s",
                problems="\n".join(html.escape(p) for p in problems),
                script=self._script_tag().decode())
            self._send(500, "text/html; charset=utf-8", page.encode("utf-8"))

        def _send(self, status: int, content_type: str, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _wait_for_build(self) -> None:
            """Answer when the build version differs from the page's, or after a while."""
            query = urlsplit(self.path).query
            seen = dict(p.partition("=")[::2] for p in query.split("&")).get("v", "")
            deadline = time.monotonic() + POLL_SECONDS
            with state.changed:
                while str(state.version) == seen and not state.stopping:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    state.changed.wait(timeout=left)
                changed = str(state.version) != seen
            try:
                self._send(200, "text/javascript; charset=utf-8",
                           (RELOAD_JS if changed else AGAIN_JS).encode())
            except (BrokenPipeError, ConnectionResetError):
                pass

    return Handler


def watch(root: Path, out: Path, state: State, stop: threading.Event) -> None:
    """Rebuild whenever a watched file changes (changes saved together count as one)."""
    paths = [root / name for name in WATCHED if (root / name).is_dir()]
    for _changes in watch_files(*paths, stop_event=stop, step=20, debounce=1600,
                                raise_interrupt=False):
        rebuild(root, out, state)


def serve(root: Path, port: int = 8000, host: str = "127.0.0.1",
          translate: str | None = None) -> int:
    """Build, then serve *root*'s site on *host*:*port* until interrupted; *translate*: the
    language of the translator's preview (its own folder, its texts marked, saves taken)."""
    out = (root / CACHE_DIR / ("serve" if translate is None else f"serve-translate-{translate}")
           ).resolve()
    state = State()
    if translate is not None:
        state.translate = TranslatorMode(root.resolve(), translate, out)
    try:  # the port first: one in use is a one-line error before anything is built
        server = PreviewServer((host, port), make_handler(out, state))
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}; "
                        "pass --port N with another port (or stop what uses it)") from None
    if state.translate is not None:
        state.translate.port = server.server_address[1]
        state.translate.rebuilt = lambda: threading.Thread(
            target=rebuild, args=(root, out, state), daemon=True).start()
    rebuild(root, out, state)
    out.mkdir(parents=True, exist_ok=True)
    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(root, out, state, stop), daemon=True)
    watcher.start()
    address = f"http://{host}:{server.server_address[1]}/"
    print(f"serving {address} (Ctrl-C to stop); watching {', '.join(WATCHED)}",
          flush=True)
    if translate is not None:
        print(f"translator's preview: open {address}{translate}/ and pick a text (click, "
              f"hold, or Tab and Enter); what is left: {address}{translate}/"
              "translation-status/", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        with state.changed:
            state.stopping = True
            state.changed.notify_all()
        server.server_close()
    return 0
