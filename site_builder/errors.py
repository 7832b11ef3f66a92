"""User-facing errors: each one names a file and a line, and says how to fix it; printed
for people (``path:line: message``) or for CI as GitHub workflow commands.

``--format github`` prints one workflow command per problem, which GitHub Actions turns
into an annotation on that line of the pull request::

    ::error file=content/first-meld.md,line=33,title=site-builder check::stated points 32 ...

The escaping is GitHub's, as its toolkit does it (``@actions/core``, ``command.ts``):
in the message ``%``, CR and LF are percent-encoded; in a property value ``:`` and ``,``
too, since they separate the properties.
"""

from __future__ import annotations

import errno
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

# Control characters (a newline, an escape sequence that recolours or clears the terminal)
# and the Unicode line separators, in a file name or a quoted value: shown escaped, so
# that every problem stays one line and nothing reaches the terminal as a command.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: str) -> str:
    r"""*text* with its control characters escaped as Python writes them.

    >>> printable("content/bad\nname\x1b[31m.md")
    'content/bad\\nname\\x1b[31m.md'
    """
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


@dataclass(frozen=True, slots=True)
class Problem:
    """One user error, printed as ``path:line: message``."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        path, message = printable(self.path), printable(self.message)
        if self.line:
            return f"{path}:{self.line}: {message}"
        return f"{path}: {message}"


class UserError(Exception):
    """Raised with every problem found; the CLI prints them all and exits 2."""

    def __init__(self, problems: list[Problem] | Problem | str) -> None:
        if isinstance(problems, str):
            problems = [Problem("site-builder", 0, problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


# --- problems printed for CI ---------------------------------------------------------------

FORMATS = ("text", "json", "github")


def escape_data(text: str) -> str:
    """A workflow command's message, escaped as GitHub's toolkit does.

    >>> escape_data("50% of\\r\\nthe cards")
    '50%25 of%0D%0Athe cards'
    """
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value (``file=``, ``title=``), escaped.

    >>> escape_property("a,b: 100%")
    'a%2Cb%3A 100%25'
    """
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(kind: str, problem: Problem, title: str) -> str:
    """One ``::error`` or ``::warning`` line for *problem* (no ``line=`` when it has none).

    >>> workflow_command("error", Problem("content/a,b.md", 3, "50% off"), "check: x")
    '::error file=content/a%2Cb.md,line=3,title=check%3A x::50%25 off'
    >>> workflow_command("warning", Problem("locales/pl/x.po", 0, "fuzzy"), "t")
    '::warning file=locales/pl/x.po,title=t::fuzzy'
    """
    props = [f"file={escape_property(problem.path)}"]
    if problem.line:
        props.append(f"line={problem.line}")
    props.append(f"title={escape_property(title)}")
    return f"::{kind} {','.join(props)}::{escape_data(problem.message)}"


def print_github(errors: Iterable[Problem], warnings: Iterable[Problem], title: str,
                 stream: TextIO | None = None) -> None:
    """Print every error, then every warning, as workflow commands on *stream* (stdout)."""
    out = sys.stdout if stream is None else stream
    for problem in errors:
        print(workflow_command("error", problem, title), file=out)
    for problem in warnings:
        print(workflow_command("warning", problem, title), file=out)


DISK_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)  # EFBIG: a file size limit (ulimit -f)


def disk_full(exc: OSError) -> str:
    """What a full disk (or quota, or a file size limit) means for the user, on one line."""
    if exc.errno == errno.EFBIG:
        return (f"a file is larger than this process may write ({exc.strerror or exc}: a file "
                "size limit, ulimit -f); raise the limit and run the command again (the files "
                "it would have replaced are kept as they were)")
    return (f"the disk is full ({exc.strerror or exc}); free some space and run the "
            "command again (the files it would have replaced are kept as they were)")
