"""User-facing errors: each one names a file and a line, and says how to fix it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One user error, printed as ``path:line: message``."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}: {self.message}"
        return f"{self.path}: {self.message}"


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
