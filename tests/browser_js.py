"""Running the browser's modules in Node, as the build serves them: the scripts of
``templates/assets`` and the facts the build writes beside them (``assets/lib/facts.js``,
:mod:`site_builder.render.facts`), in a folder of their own."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from site_builder.render.facts import ASSET, facts_asset

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "templates" / "assets"
NODE = shutil.which("node")


def browser_assets(dest: Path) -> Path:
    """The scripts of ``templates/assets`` copied under *dest*, with ``lib/facts.js`` as the
    build writes it; returns the folder that holds them (``assets/``, as in the output)."""
    out = dest / "assets"
    for path in ASSETS.rglob("*.js"):
        target = out / path.relative_to(ASSETS)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    (dest / ASSET).write_bytes(facts_asset())
    return out


def run_module(dest: Path, source: str, data: Any) -> Any:
    """Run the ES module *source* (which may import ``./assets/...``) in Node, beside the
    scripts of :func:`browser_assets` under *dest*, with *data* as JSON on its stdin; what
    it writes on stdout, read as JSON."""
    assert NODE, "node is missing: run `bash scripts/setup`"
    if not (dest / "assets").is_dir():
        browser_assets(dest)
    script = dest / "run.mjs"
    script.write_text(source, encoding="utf-8")
    proc = subprocess.run([NODE, str(script)], input=json.dumps(data), capture_output=True,
                          text=True, timeout=300, cwd=dest)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


#: The start of a module run by :func:`run_module`: its input, read from stdin.
READ_INPUT = """
const input = JSON.parse(await new Promise((resolve) => {
  let text = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => { text += chunk; });
  process.stdin.on("end", () => resolve(text));
}));
"""
