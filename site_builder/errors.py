"""User-facing errors: each one names a file and a line, and says how to fix it."""

from __future__ import annotations

import re
from dataclasses import dataclass

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

    def __reduce__(self) -> tuple[type[UserError], tuple[list[Problem]]]:
        return UserError, (self.problems,)  # from a worker process, problems and all
