"""`msbot bench` (scaffolding: being written in this session)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    parser = sub.add_parser("bench", help="(not yet available)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    print("msbot bench: not yet available")
    return 3
