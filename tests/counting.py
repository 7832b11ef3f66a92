"""Work counted, not timed: the lines of Python a block runs.

A count of lines does not depend on the machine, its load or the day, so a test may bound
it; the time the same work takes is measured by the scripts of ``benchmarks/``, side by
side. Used by ``tests/test_markdown_cost.py``, ``tests/engine/test_search_bounded.py``,
``benchmarks/markdown_cost.py`` and ``benchmarks/search_bound.py``.

>>> def loop(n: int) -> int:
...     total = 0
...     for i in range(n):
...         total += i
...     return total
>>> with Lines() as small:
...     _ = loop(10)
>>> with Lines() as large:
...     _ = loop(1000)
>>> small.count < large.count, large.count - small.count
(True, 1980)
>>> with Lines(limit=100):
...     _ = loop(1000)
Traceback (most recent call last):
...
counting.TooMuchWork: more than 100 lines of Python run
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any


class TooMuchWork(BaseException):
    """Raised in the counted block once it has run more lines than its limit, so that a
    runaway stops at once (a failure costs the limit, not the runaway). A
    ``BaseException``, so that the code under test cannot catch it as one of its own
    errors (``except Exception``)."""


class Lines:
    """Counts the lines of Python run in the ``with`` block (``count``), in the files under
    *folder* only if given (calls from there into other code are not counted: their
    lines are that code's), and raises :class:`TooMuchWork` past *limit*.

    Work in C (a regular expression, ``sorted``) is not counted: what it bounds is the
    Python that runs, where the costly loops of the engine and of Python-Markdown are.
    It traces the block (``sys.settrace``), which takes a few times longer than running
    it, so a test counts what it bounds and no more.
    """

    def __init__(self, folder: Path | str | None = None, limit: int | None = None) -> None:
        self.prefix = None if folder is None else str(Path(folder).resolve()) + "/"
        self.limit = limit
        self.count = 0
        self._previous: Any = None

    def _line(self, frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            self.count += 1
            if self.limit is not None and self.count > self.limit:
                where = "" if self.prefix is None else f" in {self.prefix}"
                raise TooMuchWork(f"more than {self.limit:,} lines of Python run{where}")
        return self._line

    def _call(self, frame: FrameType, event: str, arg: object) -> Any:
        if self.prefix is None or frame.f_code.co_filename.startswith(self.prefix):
            return self._line
        return None

    def __enter__(self) -> Lines:
        self._previous = sys.gettrace()
        sys.settrace(self._call)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        sys.settrace(self._previous)
