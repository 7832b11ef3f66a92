"""Jinja2's side of rendering: each language's environment, compiling the templates
(once, into a shared bytecode cache), and template errors as problems at their line.

It imports Jinja2 and little else, so that a worker that only compiles the templates
(:class:`site_builder.build.TemplateWorker`) starts at once.
"""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
from markupsafe import escape

from site_builder.errors import Problem, UserError

if TYPE_CHECKING:
    from site_builder.i18n import Translator


def make_environment(templates_dir: str, translator: Translator,
                     number: Callable[[Any], str],
                     bytecode_cache: jinja2.BytecodeCache | None = None) -> jinja2.Environment:
    """A Jinja2 environment for one language: autoescape, StrictUndefined, gettext installed.

    Pass the same *bytecode_cache* to every language's environment so that each
    template is compiled once (see :func:`site_builder.cache.bytecode_cache`).
    """
    env = jinja2.Environment(
        bytecode_cache=bytecode_cache,
        auto_reload=False,
        cache_size=-1,  # a site has a few templates: keep each, found in a plain dict
        loader=jinja2.FileSystemLoader(templates_dir),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )

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
    env.filters["number"] = number
    env.globals["escape"] = escape
    return env


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
        # reported at its line when the traceback passes through a template (issue 14)
        problem = template_problem(exc, templates)
        if problem.path == templates.name:  # raised outside any template: not a user error
            raise
        raise UserError([problem]) from None


def check_templates(env: jinja2.Environment, templates: Path,
                    names: Iterable[str] | None = None,
                    parsed: Callable[[str, str, jinja2.nodes.Template], None] | None = None
                    ) -> list[Problem]:
    """Load (compile) every template of *env* in name order (or those *names*): a
    problem for each that does not.

    With *parsed* and a bytecode cache, a template not in the cache is parsed here and
    *parsed* (name, source, tree) is called before the tree is compiled into the cache,
    so that what else needs the tree (the messages) does not parse it again.
    """
    from site_builder.inputs import not_regular

    problems = []
    if names is None:
        names = env.list_templates(extensions=["html"])
        problems = [p for p in (not_regular(path, f"{templates.name}/"
                                            f"{path.relative_to(templates).as_posix()}")
                                for path in sorted(templates.rglob("*.html"))) if p]
    for name in names:
        try:
            if parsed is not None and env.bytecode_cache is not None:
                _compile_into_cache(env, env.bytecode_cache, name, parsed)
            env.get_template(name)
        except jinja2.TemplateSyntaxError as exc:
            problems.append(template_problem(exc, templates))
        except jinja2.TemplateNotFound:
            pass  # not a regular file: reported above
        except UnicodeDecodeError as exc:
            data = (templates / name).read_bytes()
            problems.append(Problem(f"{templates.name}/{name}",
                                    data[: exc.start].count(b"\n") + 1,
                                    f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x}); "
                                    "save it as UTF-8"))
    return problems


def _compile_into_cache(env: jinja2.Environment, bytecode: jinja2.BytecodeCache, name: str,
                        parsed: Callable[[str, str, jinja2.nodes.Template], None]) -> None:
    """Compile template *name* into *bytecode* (as ``jinja2.BaseLoader.load`` does),
    unless it is there, parsing it once: *parsed* sees the tree before it is compiled."""
    assert env.loader is not None
    source, filename, _ = env.loader.get_source(env, name)
    bucket = bytecode.get_bucket(env, name, filename, source)
    if bucket.code is None:
        tree = env.parse(source, name, filename)
        parsed(name, source, tree)
        bucket.code = env.compile(tree, name, filename)
        bytecode.set_bucket(bucket)
