"""The package's layout: no module imports one that imports it back, directly
or through others, and the engine imports nothing from the rest of the package (nor
anything that reads files, the clock or the network). And no file of the project cites a
tracker's number: its reader has no tracker.

Every import counts, at the top of a module or inside a function: an import inside a
function that closes a circle is still a circle, only a later one. So does
``importlib.import_module``: a name built as ``f"site_builder.commands.{name}"`` stands for
every module whose name begins so.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "site_builder"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# A module imported by a name built at run time: every module whose name starts so.
ANY = "*"


def dynamic_import(node: ast.AST) -> str | None:
    """The module name, or its start followed by :data:`ANY`, of an
    ``importlib.import_module(...)`` call (``import_module(...)`` too); None for any other
    node.

    >>> dynamic_import(ast.parse('importlib.import_module(f"a.b.{name}")').body[0].value)
    'a.b.*'
    >>> dynamic_import(ast.parse('import_module("a.c")').body[0].value)
    'a.c'
    """
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if called != "import_module":
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr):
        start = ""
        for part in arg.values:
            if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
                break
            start += part.value
        return start + ANY
    return ANY  # a name from elsewhere: it could be any module


def imports(path: Path, name: str | None = None) -> set[str]:
    """Every module name *path* (the module *name*) imports (``from a import b`` counts
    ``a`` and ``a.b``; ``importlib.import_module`` counts too, :func:`dynamic_import`)."""
    name = name or module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        dynamic = dynamic_import(node)
        if dynamic is not None:
            found.add(dynamic)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def graph(modules: dict[str, Path] | None = None) -> dict[str, set[str]]:
    """Each module's imports among *modules* (by name; the package's by default)."""
    if modules is None:
        modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}

    def named(m: str) -> set[str]:
        if m.endswith(ANY):
            return {other for other in modules if other.startswith(m.removesuffix(ANY))}
        return {m} if m in modules else set()

    return {name: {target for m in imports(path, name) for target in named(m) if target != name}
            for name, path in modules.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other (Tarjan's strongly connected
    components with more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


# The build's stages, bottom up: a module imports only from its own floor and below.
FLOORS = [
    ("site_builder.engine",),  # and site_builder itself, the empty package
    ("site_builder.errors", "site_builder.project", "site_builder.output"),
    ("site_builder.sources", "site_builder.cache"),
    ("site_builder.i18n",),
    ("site_builder.translate",),  # the translator's preview: marks for render, saves for serve
    ("site_builder.examples",),  # the kinds of example table: verify and render read them
    ("site_builder.verify",),
    ("site_builder.render",),
    ("site_builder.session", "site_builder.build"),
    ("site_builder.serve",),
    ("site_builder.cli", "site_builder.commands", "site_builder.__main__"),
]


def floor(module: str) -> int:
    if module == "site_builder":
        return 0
    for number, prefixes in enumerate(FLOORS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return number
    raise AssertionError(f"{module} is on no floor: add it to FLOORS")


def test_the_graph_is_read() -> None:
    edges = graph()
    assert "site_builder.build" in edges and "site_builder.engine" in edges
    # the commands, which cli.py imports by name at run time, are arrows too
    commands = {m for m in edges if m.startswith("site_builder.commands.")}
    assert commands and commands <= edges["site_builder.cli"]


def test_an_importlib_circle_is_found(tmp_path: Path) -> None:
    """A module that imports its importer back through ``importlib`` closes a circle."""
    (tmp_path / "cli.py").write_text(
        'import importlib\nfor name in ("a",):\n'
        '    importlib.import_module(f"pkg.commands.{name}")\n', encoding="utf-8")
    (tmp_path / "a.py").write_text("from pkg.cli import helper\n", encoding="utf-8")
    edges = graph({"pkg.cli": tmp_path / "cli.py", "pkg.commands.a": tmp_path / "a.py"})
    assert edges == {"pkg.cli": {"pkg.commands.a"}, "pkg.commands.a": {"pkg.cli"}}
    assert circles(edges) == [["pkg.cli", "pkg.commands.a"]]


def test_the_import_reader_reads_every_form(tmp_path: Path) -> None:
    """The reader the layout tests stand on, on a module of known imports (not an edge of
    the package's, which a refactoring may rightly remove): plain, ``from``, relative at
    one and two levels, and names that are not modules."""
    source = tmp_path / "mod.py"
    source.write_text("import site_builder.engine\nfrom site_builder import errors\n"
                      "from . import output\nfrom ..engine import cards\n"
                      "from .render.urls import page_url\nimport json\n", encoding="utf-8")
    assert imports(source, "site_builder.sub.mod") == {
        "site_builder.engine", "site_builder", "site_builder.errors", "site_builder.sub",
        "site_builder.sub.output", "site_builder.engine.cards", "site_builder.sub.render.urls",
        "site_builder.sub.render.urls.page_url", "json"}
    package = ROOT / "site_builder" / "engine" / "__init__.py"
    assert imports(package, "site_builder.engine") >= {"site_builder.engine.cards"}
    assert set(graph()) == {module_name(p) for p in PACKAGE.rglob("*.py")}


def test_no_stage_imports_a_later_one() -> None:
    """The four stages in the order the build runs them: sources (load), verify, render,
    output (write); gettext (i18n) between the sources it reads and the checks."""
    edges = graph()
    up = sorted((a, b) for a, targets in edges.items() for b in targets
                if floor(b) > floor(a))
    assert not up, up


def test_no_module_imports_another_modules_private_names() -> None:
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("site_"):
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{path.relative_to(ROOT)} imports {private}"


def test_circles_are_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert circles(graph()) == []


def test_the_engine_imports_nothing_of_the_rest_of_the_package() -> None:
    for path in (PACKAGE / "engine").rglob("*.py"):
        outside = {m for m in imports(path) if m.startswith("site_builder.")
                   and not m.startswith("site_builder.engine")}
        assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"
        io = {m for m in imports(path) if m.split(".")[0] in
              {"os", "io", "pathlib", "subprocess", "socket", "urllib", "time", "shutil"}}
        assert not io, f"{path.relative_to(ROOT)} imports {sorted(io)}"


# Memoized functions of their arguments alone (no file, environment, clock or process
# read): what they keep cannot go stale. Anything else a rebuild reuses is a Session's
# (site_builder/session.py).
PURE_MEMOS = {
    "site_builder.render.pages": {"format_number", "_locale"},  # a number in a locale; CLDR
    "site_builder.render.context": {"og_locale", "printed_date"},  # CLDR data
    "site_builder.render.search": {"_folded_copy"},  # a word without its marks
    # a heading's id from its text; a source text's placeholders and markup
    "site_builder.sources.segment": {"slugify", "_source_markup"},
    "site_builder.i18n.locales": {"num_plurals", "single_count_forms"},
    "site_builder.i18n.translator": {"_plural_func"},
    "site_builder.i18n.checks": {"_source_marks"},  # the marks of a source text
    "site_builder.engine.cards": {"_lookup"},  # a card from its token
}
CACHES = ("cache", "lru_cache")


def memoizes(node: ast.expr) -> bool:
    """Whether *node* is ``functools.cache``, ``lru_cache(...)``, or a call of either."""
    while isinstance(node, ast.Call):
        node = node.func
    return getattr(node, "attr", getattr(node, "id", "")) in CACHES


def kept_state(path: Path, name: str) -> list[str]:
    """What the module *name* (at *path*) keeps between calls at module level: a
    ``global`` statement, an empty container bound at module level (a cache to fill), a
    memoized function not in :data:`PURE_MEMOS`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [f"global {', '.join(n.names)} (line {n.lineno})" for n in ast.walk(tree)
             if isinstance(n, ast.Global)]
    for node in tree.body:
        value = getattr(node, "value", None)
        targets = [t.id for t in getattr(node, "targets", [getattr(node, "target", None)])
                   if isinstance(t, ast.Name)]
        empty = (isinstance(value, ast.Dict | ast.List | ast.Set) and not getattr(
            value, "keys", getattr(value, "elts", None))) or (
            isinstance(value, ast.Call) and not value.args and not value.keywords
            and getattr(value.func, "id", getattr(value.func, "attr", "")) in
            ("dict", "list", "set", "OrderedDict", "defaultdict"))
        if empty and targets:
            found.append(f"{targets[0]} = an empty container (line {node.lineno})")
        memo = (any(memoizes(d) for d in getattr(node, "decorator_list", []))
                or (isinstance(value, ast.Call) and memoizes(value)))
        named = getattr(node, "name", targets[0] if targets else "")
        if memo and named not in PURE_MEMOS.get(name, set()):
            found.append(f"{named}, memoized (line {node.lineno})")
    return found


def test_kept_state_is_found(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("import functools\n_SEEN = {}\nLIMITS = {'a': 1}\n"
                      "@functools.cache\ndef f(x):\n    global _N\n    return x\n",
                      encoding="utf-8")
    assert kept_state(source, "m") == ["global _N (line 6)",
                                       "_SEEN = an empty container (line 2)",
                                       "f, memoized (line 5)"]


def test_no_module_keeps_state_between_builds() -> None:
    """Everything a rebuild reuses is a Session's: no module-level cache, no global."""
    kept = {name: found for path in PACKAGE.rglob("*.py")
            if (found := kept_state(path, name := module_name(path)))}
    assert kept == {}


# --- no tracker numbers ----------------------------------------------------------------------
# A comment or a docstring says its why itself: a reader of the code has no tracker. What
# counts as citing one: "issue" or "issues" and a number ("#" or "-" between them or not);
# "#" and a number after a space or "(" (not CSS's "#000;" nor the engine's "JK#2"); a
# review's item code, R and one or two digits.
TRACKER_RE = re.compile(r"(?i:\bissues?)[\s#-]*\d+|(?:^|(?<=[\s(]))#\d+\b(?![\w;])|\bR\d{1,2}\b",
                        re.M)
NOT_CODE = ("README.md", "docs/")  # prose for people, written by its own rules


def tracker_references(text: str) -> list[tuple[int, str]]:
    """Each tracker reference in *text*, with its line number.

    >>> [n for n, _ in tracker_references(f"a = 1\\n# kept (issue {33}, R{6})\\ncolor: #000;")]
    [2, 2]
    """
    return [(number, found.group()) for number, line in enumerate(text.splitlines(), 1)
            for found in TRACKER_RE.finditer(line)]


def test_the_tracker_pattern_finds_a_reference_and_nothing_else() -> None:
    """The pattern on seeded lines: each cites a tracker (written here as f-strings, so that
    this file cites none), and lines that look alike but do not."""
    cited = [f"# the cache is kept (issue {33})", f'"""Issues {17}, {26}: the checker.',
             f"<!-- Issue #{37}: offline -->", f"// fixed (#{37})", f"see #{37} and more",
             f"# the review's R{7}", f"{{#- Ways around the site (issue-{16}) -#}}"]
    for line in cited:
        assert tracker_references(line), line
    alike = ["a { color: #000; border: 1px solid #333; }", 'jokers = {"JK": "4H", "JK#2": "6H"}',
             "# an issue with the joker: 2 cards", "# CardVerse has no laid points (seed 004)",
             r'r"%(?:\([a-z]+\))?[-#0 +]*\d*"', 'RAMI51 = get_rules("rami51")  # R2D2',
             "# 51 points: issued 3 times"]
    for line in alike:
        assert not tracker_references(line), line


def test_no_file_cites_a_tracker_number() -> None:
    """Every file git keeps, as it stands in the work tree, but the README and docs/."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=True).stdout.decode("utf-8").split("\0")
    found = []
    for rel in listed:
        path = ROOT / rel
        if not rel or rel.startswith(NOT_CODE) or not path.is_file():  # removed, not committed
            continue
        data = path.read_bytes()
        if b"\0" not in data:  # text, not an image or a font
            text = data.decode("utf-8", "replace")
            found += [f"{rel}:{n}: {what}" for n, what in tracker_references(text)]
    assert not found, "say the why itself, not the tracker's number:\n" + "\n".join(found)
