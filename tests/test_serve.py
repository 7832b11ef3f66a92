"""``site-builder serve``: serves the site, rebuilds on save, shows build errors, recovers."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import HANG

from site_builder.serve import AGAIN_JS

PO = "locales/pl/LC_MESSAGES/messages.po"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fetch(url: str, timeout: float = 60) -> tuple[int, str]:
    """The status and text of *url* (a local server: *timeout* only stops a hang)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


def wait_for(check: Callable[[], bool], what: str, timeout: float = HANG) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def server(project: Path) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "site_builder", "serve", "--root",
                             str(project), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once the first build is done
        assert line.startswith(f"serving {base}/"), (line, proc.stderr and proc.stderr.read())
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        if proc.stdout:
            proc.stdout.close()
        if proc.stderr:
            proc.stderr.close()


def set_translation(project: Path, msgid: str, translation: str) -> None:
    po = project / PO
    text = po.read_text(encoding="utf-8")
    start = text.index(f'msgid "{msgid}"\nmsgstr "')
    end = text.index("\n", text.index("msgstr", start))
    po.write_text(text[:start] + f'msgid "{msgid}"\nmsgstr "{translation}"' + text[end:],
                  encoding="utf-8")


def test_serve_rebuilds_reloads_and_shows_errors(project: Path, server: str) -> None:
    page = f"{server}/pl/first-meld/"
    status, html = fetch(page)
    assert status == 200 and '<html lang="pl"' in html
    # the live-reload script is added when serving, from the same origin (CSP script-src 'self')
    assert '<script src="/__livereload.js?v=' in html
    assert "__reload.js" in fetch(f"{server}/__livereload.js")[1]
    served = project / ".cache" / "site-builder" / "serve" / "pl" / "first-meld" / "index.html"
    assert "__livereload" not in served.read_text(encoding="utf-8")  # not in the built files
    assert fetch(f"{server}/assets/site.css")[0] == 200
    status, missing = fetch(f"{server}/pl/no-such-page/")
    assert status == 404 and '<html lang="pl"' in missing

    # 1. a saved catalog is served, and the open page is told to reload
    version = html.split('__livereload.js?v=', 1)[1].split('"', 1)[0]
    answer: list[str] = []

    def poll_as_the_page_does() -> None:
        """Ask again while the server says to ask again (no new build yet), as the page
        does: the test waits for the build however long it takes, up to a hang."""
        told = AGAIN_JS
        while told == AGAIN_JS:
            told = fetch(f"{server}/__reload.js?v={version}", timeout=HANG)[1]
        answer.append(told)

    poll = threading.Thread(target=poll_as_the_page_does, daemon=True)
    poll.start()
    time.sleep(0.2)
    set_translation(project, "Rules", "Zasady (zmienione w podglądzie)")
    poll.join(timeout=HANG)
    assert answer == ["location.reload();\n"]
    wait_for(lambda: "Zasady (zmienione w podglądzie)" in fetch(page)[1], "the edited catalog")

    # 2. a broken file: every page shows the problem with path:line; the server keeps running
    first_meld = project / "content" / "first-meld.md"
    good = first_meld.read_text(encoding="utf-8")
    first_meld.write_text(good.replace("total: 61", "total: 62", 1), encoding="utf-8")
    line = good[: good.index("total: 61")].count("\n") + 1
    wait_for(lambda: fetch(page)[0] == 500, "the error page")
    status, error = fetch(page)
    assert f"content/first-meld.md:{line}: " in error
    assert "stated total 62, the engine computes 61" in error
    assert '<script src="/__livereload.js?v=' in error  # it reloads by itself once fixed

    # a broken catalog line is shown with its path and line too
    first_meld.write_text(good, encoding="utf-8")
    po = project / PO
    po_text = po.read_text(encoding="utf-8")
    po.write_text(po_text.replace('msgid "Rules"', 'msgid "Rules', 1), encoding="utf-8")
    po_line = po_text[: po_text.index('msgid "Rules"')].count("\n") + 1
    wait_for(lambda: f"{PO}:{po_line}: " in fetch(page)[1], "the catalog error")

    # 3. fixed: the pages come back
    po.write_text(po_text, encoding="utf-8")
    wait_for(lambda: fetch(page)[0] == 200, "recovery")
    assert "Zasady (zmienione w podglądzie)" in fetch(page)[1]


def raw_get(base: str, host: str | None) -> int:
    """The status of GET / sent with *host* as the Host header (None: no Host header)."""
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        head = "GET / HTTP/1.1\r\n" + (f"Host: {host}\r\n" if host is not None else "")
        sock.sendall((head + "Connection: close\r\n\r\n").encode())
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    return int(reply.split(b" ", 2)[1])


def test_serve_answers_only_to_loopback_names(project: Path, server: str) -> None:
    """DNS rebinding: another site resolving its name to 127.0.0.1 sends
    its own name as Host: refused, whatever the port; the loopback names are served."""
    port = server.rsplit(":", 1)[1]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost", f"[::1]:{port}",
                 f"LOCALHOST:{port}"):
        assert raw_get(server, host) == 200, host
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.evil.example:{port}",
                 f"localhost.:{port}", "127.0.0.2", f"localhost:{port}x", "", None,
                 f"[::1]x:{port}"):
        assert raw_get(server, host) in (400, 421), host


def test_serve_a_nul_in_the_path_is_not_found(project: Path, server: str) -> None:
    """A NUL in a request's path (``/%00``) made ``open()`` raise: the browser got no answer
    and the console a traceback. It is a missing file, for GET and HEAD alike."""
    port = int(server.rsplit(":", 1)[1])
    for method in ("GET", "HEAD"):
        for path in ("/%00", "/en/%00.html", "/assets/site.css%00"):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             "Connection: close\r\n\r\n".encode())
                reply = b""
                while chunk := sock.recv(65536):
                    reply += chunk
            assert reply.split(b" ", 2)[1] == b"404", (method, path, reply[:200])
    assert fetch(server + "/")[0] == 200  # and the server still answers


def test_serve_port_in_use_is_one_line(project: Path) -> None:
    """A port already taken gives one line and exit 2."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "site_builder", "serve", "--root",
                                 str(project), "--port", str(port)],
                                capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"127.0.0.1:{port}" in lines[0] and "--port" in lines[0], lines
    assert not (project / ".cache" / "site-builder" / "serve").exists()  # nothing built


def test_serve_internal_error_shows_no_traceback_in_the_browser(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An internal error in a rebuild is one line in the browser (the
    traceback goes to the terminal)."""
    from site_builder import serve as serve_module

    state = serve_module.State()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(serve_module, "build", broken)
    serve_module.rebuild(Path("."), Path("."), state)
    assert len(state.problems) == 1
    assert "Traceback" not in state.problems[0] and "\n" not in state.problems[0]
    assert "RuntimeError('boom')" in state.problems[0]


def test_serve_follows_no_symlink_in_its_folder(project: Path, server: str) -> None:
    """A symlink planted in the preview's folder (to a file, to a folder, as a folder's
    index.html), a FIFO and a hard link are not served: only
    regular files inside it, with no other name, are."""
    import os

    secret = project / "SECRET.txt"
    secret.write_text("the secret")
    (project / "outside").mkdir()
    (project / "outside" / "index.html").write_text("the secret page")
    served = project / ".cache" / "site-builder" / "serve"
    os.symlink(secret, served / "en" / "leak.txt")
    os.symlink(secret, served / "en" / "leak.html")
    os.symlink(project / "outside", served / "en" / "linked")
    (served / "en" / "folder").mkdir()
    os.symlink(project / "outside" / "index.html", served / "en" / "folder" / "index.html")
    os.mkfifo(served / "en" / "pipe.txt")
    os.link(secret, served / "en" / "hard.txt")  # a hard link is refused too
    os.link(secret, served / "en" / "hard.html")
    for path in ("/en/leak.txt", "/en/leak.html", "/en/linked/", "/en/linked/index.html",
                 "/en/folder/", "/en/folder/index.html", "/en/pipe.txt", "/en/hard.txt",
                 "/en/hard.html"):
        status, body = fetch(server + path)
        assert status == 404 and "secret" not in body, (path, status, body[:200])
    assert fetch(server + "/en/")[0] == 200


def test_serve_waits_for_a_preview_being_swapped_in(tmp_path: Path) -> None:
    """Where the file system cannot exchange two folders in one step: the
    preview is missing between a rebuild's two renames; a request then waits for it and
    gets the page, never "File not found"."""
    import os

    from site_builder.serve import PreviewServer, State, make_handler

    out = tmp_path / "serve"
    (out / "en").mkdir(parents=True)
    (out / "en" / "index.html").write_text("<html><body>page</body></html>")
    server = PreviewServer(("127.0.0.1", 0), make_handler(out, State()))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        os.rename(out, tmp_path / "old")  # the first of the two renames
        timer = threading.Timer(0.3, os.rename, (tmp_path / "old", out))
        timer.start()
        status, body = fetch(f"http://127.0.0.1:{server.server_address[1]}/en/")
        timer.join()
        assert status == 200 and "page" in body, (status, body[:200])
    finally:
        server.shutdown()
        server.server_close()
