"""Test helper: run `msbot play` in a child process, as a person would.

Shared by the end-to-end tests so that each states only what it checks:
the games and summary come back parsed, and `assert_played_to_the_end`
is the common verdict (every game won or lost on a guess, none stopped,
none lost on a move the solver called certain).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Run:
    code: int
    games: list[dict[str, Any]]
    summary: dict[str, Any]
    stderr: str
    stdout: str = ""


def msbot_play(display: str, *args: str, timeout: float = 50) -> subprocess.CompletedProcess[str]:
    """`msbot play ...` on X display `display`, its output as text."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "play", *args],
        env=dict(os.environ, DISPLAY=display),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def play(display: str, *args: str, timeout: float = 50) -> Run:
    """`msbot play --json ...` on X display `display`; its games and summary."""
    out = msbot_play(display, "--json", *args, timeout=timeout)
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    games = [line for line in lines if "outcome" in line]
    summary = next((line["summary"] for line in lines if "summary" in line), {})
    return Run(out.returncode, games, summary, out.stderr, out.stdout)


def assert_played_to_the_end(run: Run, games: int) -> None:
    """Exit 0, `games` games each won or lost on a guess, no certain loss."""
    assert run.code == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert [g["outcome"] in ("won", "lost") for g in run.games] == [True] * games, run.games
    assert not any(g["certain_loss"] for g in run.games), run.games
    # Every game read the board (at least the reading that showed its end), timed.
    assert all(g["reads"] >= 1 and g["read_ms_median"] > 0 for g in run.games), run.games
