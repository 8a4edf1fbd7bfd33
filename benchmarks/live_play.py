"""What the live benchmarks share: `msbot play` started on a virtual display
as a person would run it, watched through its recording, and medians of
figures some games do not have.

Imported by `click_faults.py`, `window_move.py` and `bench_play.py` (run from
the checkout: the scripts' folder is on the path).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bot.play.recorder import read_jsonl

ROOT = Path(__file__).resolve().parent.parent


def start_play(
    display: str, args: list[str], folder: Path, readings: int, poll: float = 0.002
) -> subprocess.Popen[str]:
    """`msbot ARGS...` (a `play ... --record FOLDER`) started on `display`;
    returned once `readings` readings are on disk in `folder`, or msbot
    ended, or 30 s passed: the moment a benchmark makes its fault."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        env=dict(os.environ, DISPLAY=display),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while len(read_jsonl(folder / "readings.jsonl")) < readings and time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        time.sleep(poll)
    return proc


def median_of(values: list[float | None]) -> float | None:
    """The median of the values known (to 3 decimals), None when none is."""
    known = [v for v in values if v is not None]
    return round(statistics.median(known), 3) if known else None
