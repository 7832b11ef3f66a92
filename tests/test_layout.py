"""The package's layout (issue 13): no module imports one that imports it back, directly
or through others, and the engine imports nothing from the rest of the package (nor
anything that reads files, the clock or the network).

Every import counts, at the top of a module or inside a function: an import inside a
function that closes a circle is still a circle, only a later one.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "site_builder"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, name: str | None = None) -> set[str]:
    """Every module name *path* imports (``from a import b`` counts ``a`` and ``a.b``);
    *name* is the module's name (default: from its place under ``ROOT``)."""
    name = name or module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in imports(path) if m in modules and m != name}
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
    ("site_builder.verify",),
    ("site_builder.render",),
    ("site_builder.build",),
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
                if floor(b) > floor(a) and not (a.startswith("site_builder.cli")
                                               and b.startswith("site_builder.commands")))
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
