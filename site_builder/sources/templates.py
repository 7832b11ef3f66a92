"""Jinja2's side of rendering: each language's environment (with Jinja2's own bytecode
cache, its entries checksummed), card chips rendered once per language, and template
errors as problems at their line."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import traceback
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import jinja2
from markupsafe import escape

from site_builder import engine
from site_builder.errors import Problem, UserError
from site_builder.output import write_atomic
from site_builder.project import TEMPLATES_DIR
from site_builder.sources.files import decode_utf8, not_regular
from site_builder.sources.parsing import parse


class CheckedBytecodeCache(jinja2.FileSystemBytecodeCache):
    """``jinja2.FileSystemBytecodeCache`` whose files start with a hash of the rest: a
    damaged file is ignored (the template is compiled again), never loaded."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            with open(self._get_cache_filename(bucket), "rb") as fh:
                data = fh.read()
        except OSError:
            return
        if hashlib.blake2b(data[32:], digest_size=32).digest() == data[:32]:
            bucket.bytecode_from_string(data[32:])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = bucket.bytecode_to_string()
        try:
            write_atomic(Path(self._get_cache_filename(bucket)),
                         hashlib.blake2b(data, digest_size=32).digest() + data)
        except OSError:
            pass  # a cache that cannot be written is only slower


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept in memory, for a build without a cache folder: each
    template is compiled once, not once per language."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


def bytecode_cache(directory: Path | None, version: str) -> jinja2.BytecodeCache:
    """The compiled templates, kept in *directory* by *version* of the code (None: in
    memory, for this build only)."""
    if directory is None:
        return MemoryBytecodeCache()
    try:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except FileExistsError:  # a file in its place: the cache's to replace
            directory.unlink()
            directory.mkdir()
    except OSError:  # a cache that cannot be written is only slower
        return MemoryBytecodeCache()
    return CheckedBytecodeCache(str(directory), f"%s-{version}.cache")


class Translations(Protocol):
    """What the templates' gettext calls need of a language's translations (as
    :class:`site_builder.i18n.translator.Translator` gives them)."""

    def gettext(self, text: str, context: str | None = None) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, context: str | None = None
                 ) -> str: ...


def make_environment(templates_dir: Path, translator: Translations, number: Callable[[Any], str],
                     bytecode: jinja2.BytecodeCache | None = None) -> jinja2.Environment:
    """A Jinja2 environment for one language: autoescape, StrictUndefined, gettext
    installed."""
    env = jinja2.Environment(
        bytecode_cache=bytecode,
        auto_reload=False,
        cache_size=-1,  # a site has a few templates: keep each, found in a plain dict
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    # The scripts' data blocks (|tojson) without the spaces after , and : that every page
    # would pay for (a page stays under 30 KB); keys sorted, as Jinja2's default.
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "separators": (",", ":"),
                                         "ensure_ascii": False}  # UTF-8, as the page

    def fmt(text: str, variables: dict[str, Any]) -> str:
        return text.format(**{k: number(v) if isinstance(v, int) else v
                              for k, v in variables.items()}) if variables else text

    # The templates ask for the same few strings on every page: look each up once.
    found: dict[tuple[str, str | None], str] = {}

    def lookup(message: str, context: str | None = None) -> str:
        key = (message, context)
        text = found.get(key)
        if text is None:
            text = found[key] = translator.gettext(message, context)
        return text

    def gettext(message: str, **variables: Any) -> str:
        return fmt(lookup(message), variables)

    def ngettext(singular: str, plural: str, n: int, **variables: Any) -> str:
        variables.setdefault("n", n)
        return fmt(translator.ngettext(singular, plural, n), variables)

    def pgettext(context: str, message: str, **variables: Any) -> str:
        return fmt(lookup(message, context), variables)

    def npgettext(context: str, singular: str, plural: str, n: int, **variables: Any) -> str:
        variables.setdefault("n", n)
        return fmt(translator.ngettext(singular, plural, n, context), variables)

    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext, ngettext, newstyle=False, pgettext=pgettext, npgettext=npgettext)
    # _() is gettext itself, not Jinja2's alias that looks gettext up and calls it on each
    # call (34 a page): the same text, a third of the cost of a lookup
    env.globals["_"] = gettext
    env.filters["number"] = number
    env.globals["escape"] = escape
    return env


MEMO_TABLES = 256
MEMO_CHIPS = 1024
MEMO_NAV = 4096  # a language's pages' links from two depths, at 2,000 pages a language


def _table_key(block: Any, *args: Any) -> str | None:
    return None if args else getattr(block, "key", None)


def _card_key(card: Any, *args: Any) -> engine.Card | None:
    return card if not args and isinstance(card, engine.Card) else None


def _cards_key(cards: Any, *args: Any) -> tuple[engine.Card, ...] | None:
    if args or not isinstance(cards, list | tuple):
        return None
    key = tuple(cards)
    return key if all(isinstance(card, engine.Card) for card in key) else None


def _nav_key(item: Any, *args: Any) -> tuple[str, bool, str, str] | None:
    """A sidebar link (render.context.nav_items): what the macro draws of it."""
    try:
        return (None if args else
                (item.href, item.current, str(item.title.html), str(item.title.lang_attr)))
    except AttributeError:
        return None


# The macros rendered once per environment (language) and distinct arguments: template,
# macro, the key of its arguments (None: not memoized), how many results to keep.
MEMOIZED_MACROS = (
    ("_examples.html", "table", _table_key, MEMO_TABLES),  # a block, by its text
    ("_cards.html", "card_name", _card_key, MEMO_CHIPS),
    ("_cards.html", "chips", _cards_key, MEMO_CHIPS),
    ("_nav.html", "sidebar_item", _nav_key, MEMO_NAV),  # a link, from one folder's depth
)


def memoize_macros(env: jinja2.Environment) -> None:
    """Render each card name, group of card chips and example table once per environment
    (language) and distinct arguments: the chips took a third of the render time.

    These macros are imported without context (``_blocks.html`` imports
    ``_examples.html``, which imports ``_cards.html``), so what they give depends on
    their arguments and the language alone. Each is replaced in its module by a wrapper
    that keeps the most recently used results; a call with arguments it has no key for
    goes to the macro.
    """
    for template, name, key_of, size in MEMOIZED_MACROS:
        try:
            module = env.get_template(template).module
        except jinja2.TemplateNotFound:
            continue
        macro = getattr(module, name, None)
        if isinstance(macro, jinja2.runtime.Macro):
            setattr(module, name, _memoized(macro, key_of, size))


def _memoized(macro: Callable[..., Any], key_of: Callable[..., Any], size: int
              ) -> Callable[..., Any]:
    memo: OrderedDict[Any, Any] = OrderedDict()  # the most recently used, at most *size*

    def call(*args: Any, **kwargs: Any) -> Any:
        key = None if kwargs or not args else key_of(*args)
        if key is None:
            return macro(*args, **kwargs)
        found = memo.get(key)
        if found is None:
            found = memo[key] = macro(*args)
            if len(memo) > size:
                memo.popitem(last=False)
        else:
            memo.move_to_end(key)
        return found

    return call


def template_problem(exc: Exception, templates: Path) -> Problem:
    """A template's error as a problem at its line, *templates* being the templates'
    folder. A syntax error knows its line; for an error while rendering, the innermost
    frame of a template in the traceback tells (Jinja2 gives those frames the
    template's file and line)."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return Problem(f"{templates.name}/{exc.name or exc.filename}", exc.lineno,
                       f"template syntax error: {exc.message}")
    name, line = "", 0
    base = templates.resolve()
    for frame in traceback.extract_tb(exc.__traceback__):
        try:
            name = Path(frame.filename).resolve().relative_to(base).as_posix()
        except ValueError:
            continue
        line = frame.lineno or 0
    if isinstance(exc, jinja2.TemplateNotFound):
        what = f"template not found: {exc.name!r}; is it in {templates.name}/?"
    elif isinstance(exc, jinja2.TemplateError):
        what = f"template error while rendering: {exc.message or type(exc).__name__}"
    elif isinstance(exc, RecursionError):
        what = "template error while rendering: endless recursion (a macro or an include " \
               "that calls itself)"
    else:
        what = f"template error while rendering: {type(exc).__name__}: {exc}"
    return Problem(f"{templates.name}/{name}" if name else templates.name, line, what)


@contextlib.contextmanager
def template_errors(templates: Path) -> Iterator[None]:
    """Report a template's error (any ``jinja2.TemplateError``) raised inside as a
    :class:`UserError` at the template's line (see :func:`template_problem`)."""
    try:
        yield
    except jinja2.TemplateError as exc:
        raise UserError([template_problem(exc, templates)]) from None
    except (ArithmeticError, LookupError, RecursionError, TypeError, ValueError) as exc:
        # e.g. {{ 1 // 0 }}, a macro calling itself: an error of the template's own code,
        # reported at its line when the traceback passes through a template
        problem = template_problem(exc, templates)
        if problem.path == templates.name:  # raised outside any template: not a user error
            raise
        raise UserError([problem]) from None


def macro(env: jinja2.Environment, template: str, name: str) -> Callable[..., str]:
    """The macro *name* of *template*, which the build calls from Python (the sidebar's
    links); a template without it is the template's error, not the build's."""
    found = getattr(env.get_template(template).module, name, None)
    if not callable(found):
        raise UserError([Problem(f"{TEMPLATES_DIR}/{template}", 1,
                                 f"no macro '{name}': the build draws with it; put it back "
                                 "(see the project's own templates)")])
    return found  # type: ignore[no-any-return]


def _compiled(env: jinja2.Environment, name: str, filename: str | None, compile: bool,
              source: str) -> tuple[jinja2.nodes.Template, Any]:
    """Template *name*'s syntax tree, and its code if *compile*."""
    tree = env.parse(source, name, filename)
    return tree, env.compile(tree, name, filename) if compile else None


def compile_templates(env: jinja2.Environment, templates: Path,
                      parsed: dict[str, tuple[str, jinja2.nodes.Template]] | None = None
                      ) -> tuple[list[Problem], dict[str, jinja2.nodes.Template]]:
    """Parse every template of *env* once, and compile it into the bytecode cache unless
    it is there: a problem for each that does not compile (or is not a regular UTF-8
    file), and each template's syntax tree by name (for its messages,
    :func:`site_builder.i18n.messages.tree_messages`). *parsed*: each template's last
    syntax tree with its source, kept by a process that builds again (``serve``), which
    then parses only the templates that changed; updated."""
    if parsed is None:
        parsed = {}
    assert env.loader is not None and env.bytecode_cache is not None
    problems = [p for p in (not_regular(path, f"{templates.name}/"
                                        f"{path.relative_to(templates).as_posix()}")
                            for path in sorted(templates.rglob("*.html"))) if p]
    trees = {}
    for name in env.list_templates(extensions=["html"]):
        try:
            source, filename, _ = env.loader.get_source(env, name)
            bucket = env.bytecode_cache.get_bucket(env, name, filename, source)
            before = parsed.get(name)
            if before is not None and before[0] == source and bucket.code is not None:
                trees[name] = before[1]  # compiled already, and its tree read before
                continue
            # its nesting bounded first, a RecursionError in Jinja2's parser a problem
            # parsed and compiled with its nesting bounded first, and a RecursionError
            # of Jinja2's parser or compiler a problem at the template's line
            found, problem = parse(functools.partial(_compiled, env, name, filename,
                                                     bucket.code is None),
                                   source, f"{templates.name}/{name}", "template")
            if found is None:
                problems.extend([problem] if problem else [])
                continue
            trees[name] = tree = found[0]
            parsed[name] = (source, tree)
            if found[1] is not None:
                bucket.code = found[1]
                env.bytecode_cache.set_bucket(bucket)
        except jinja2.TemplateSyntaxError as exc:
            problems.append(template_problem(exc, templates))
        except jinja2.TemplateNotFound:
            pass  # not a regular file: reported above
        except UnicodeDecodeError as exc:
            rel = f"{templates.name}/{name}"
            problems.append(decode_utf8((templates / name).read_bytes(), rel)[1]
                            or Problem(rel, 0, str(exc)))
    return problems, trees
