"""``site-builder i18n``: extract, update, init, compile and stats (filled in below)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("i18n", parents=[common], help="translation workflow")
    p.set_defaults(func=lambda args: 0)
