"""The site's stylesheet and scripts as served: without what only their sources' readers
need (comments, blank lines, indentation), which every reader would pay for. The sources
keep them.
"""

from __future__ import annotations

import json
import re
from typing import Any


def stylesheet(css: bytes) -> bytes:
    r"""The stylesheet as served: without its comments, and without the spaces around
    ``{ } ;`` and after ``,``, the start of lines and blank lines, which every page pays for
    (a page and the stylesheet stay under 30 KB). Strings in the stylesheet hold none of
    these characters (``content: " #"`` is kept as it is).

    >>> stylesheet(b"/* note */\na, b { color: red; }\n\n  p::after { content: \" #\"; }\n")
    b'a,b{color: red}\np::after{content: " #"}\n'
    """
    text = re.sub(rb"/\*.*?\*/", b"", css, flags=re.S)
    text = re.sub(rb"\s*([{};])\s*", rb"\1", text)
    text = re.sub(rb",\s+", b",", text).replace(b";}", b"}")
    lines = text.replace(b"}", b"}\n").splitlines()
    return b"".join(line.strip() + b"\n" for line in lines if line.strip())


def script(js: bytes) -> bytes:
    r"""A script as served: without the lines that are only a ``//`` comment, blank lines
    and indentation, which every reader pays for (the sources keep them). No script of the
    site has a string or template literal that spans lines, so no line's meaning changes.

    >>> script(b"// note\n\n  const a = 1;  // kept\n    // gone\n  f();\n")
    b'const a = 1;  // kept\nf();\n'
    """
    lines = (line.strip() for line in js.splitlines())
    return b"".join(line + b"\n" for line in lines if line and not line.startswith(b"//"))


def compact_json(value: Any) -> str:
    """*value* as the browser code reads it: JSON without spaces, keys sorted (the same
    input, the same bytes), characters as they are rather than escaped.

    >>> compact_json({"b": "ż", "a": [1, 2]})
    '{"a":[1,2],"b":"ż"}'
    """
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
