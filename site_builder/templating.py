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


def template_problem(exc: jinja2.TemplateError, templates: Path) -> Problem:
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
    else:
        what = f"template error while rendering: {exc.message or type(exc).__name__}"
    return Problem(f"{templates.name}/{name}" if name else templates.name, line, what)


@contextlib.contextmanager
def template_errors(templates: Path) -> Iterator[None]:
    """Report a template's error (any ``jinja2.TemplateError``) raised inside as a
    :class:`UserError` at the template's line (see :func:`template_problem`)."""
    try:
        yield
    except jinja2.TemplateError as exc:
        raise UserError([template_problem(exc, templates)]) from None


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
    problems = []
    if names is None:
        names = env.list_templates(extensions=["html"])
    for name in names:
        try:
            if parsed is not None and env.bytecode_cache is not None:
                _compile_into_cache(env, env.bytecode_cache, name, parsed)
            env.get_template(name)
        except jinja2.TemplateSyntaxError as exc:
            problems.append(template_problem(exc, templates))
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
