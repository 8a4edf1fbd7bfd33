"""Live play figures on real clones under Xvfb (issue 4): per clone and size,
actions per second, median time to win, and the win rate over many games.

    .venv/bin/python benchmarks/bench_play.py                      # xdemineur, all sizes
    .venv/bin/python benchmarks/bench_play.py --beginner 50 --other 10 --clone xdemineur

Each size runs in its own virtual display with a fresh clone; the bot is the
`msbot play --json` command line, exactly as a person would run it. Times are
those the bot reports per game: from its first click to the reading that
shows the game won or lost (restarts excluded). Actions per second is clicks
divided by that time, over all games of the size.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.xdisplay import VirtualDisplay  # noqa: E402


@dataclass(frozen=True)
class Setup:
    clone: str
    size: str
    argv: tuple[str, ...]
    classname: str
    env: tuple[tuple[str, str], ...] = ()


def xdemineur(cols: int, rows: int, mines: int) -> tuple[str, ...]:
    return ("/usr/games/xdemineur", "-geometry", f"{cols}x{rows}", "-m", str(mines))


SETUPS = [
    Setup("xdemineur", "beginner", xdemineur(12, 9, 10), "xdemineur"),
    Setup("xdemineur", "intermediate", xdemineur(16, 16, 40), "xdemineur"),
    Setup("xdemineur", "expert", xdemineur(30, 16, 99), "xdemineur"),
]


def wait_window(env: dict[str, str], classname: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        out = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--classname", classname],
            env=env,
            capture_output=True,
            text=True,
        )
        if out.stdout.strip():
            time.sleep(0.5)
            return
        time.sleep(0.1)
    raise SystemExit(f"bench: no {classname} window")


def run_setup(setup: Setup, games: int, first_display: int) -> dict[str, Any]:
    with VirtualDisplay(1600, 1000, first=first_display, tries=10) as xd:
        env = dict(xd.env, **dict(setup.env))
        clone = subprocess.Popen(
            list(setup.argv), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            wait_window(env, setup.classname)
            started = time.monotonic()
            out = subprocess.run(
                [sys.executable, "-m", "bot", "play", "--json", "--games", str(games)],
                env=dict(os.environ, DISPLAY=xd.display),
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            wall = time.monotonic() - started
        finally:
            clone.terminate()
            clone.wait(timeout=10)
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    played = [g for g in lines if g.get("outcome") in ("won", "lost")]
    wins = [g for g in played if g["outcome"] == "won"]
    seconds = sum(g["seconds"] for g in played)
    clicks = sum(g["clicks"] for g in played)
    return {
        "clone": setup.clone,
        "size": setup.size,
        "games": len(played),
        "wins": len(wins),
        "win_rate": round(len(wins) / len(played), 3) if played else None,
        "median_win_s": round(statistics.median(g["seconds"] for g in wins), 3) if wins else None,
        "max_win_s": round(max(g["seconds"] for g in wins), 3) if wins else None,
        "actions_per_s": round(clicks / seconds, 1) if seconds else None,
        "guesses": sum(g["guesses"] for g in played),
        "certain_losses": sum(g["certain_loss"] for g in played),
        "wall_s": round(wall, 1),
        "exit": out.returncode,
        "stopped": out.stderr.strip().splitlines()[-1] if out.returncode else "",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clone", action="append", help="only these clones")
    parser.add_argument("--size", action="append", help="only these sizes")
    parser.add_argument("--beginner", type=int, default=50, help="beginner games per clone")
    parser.add_argument("--other", type=int, default=10, help="games per other size")
    parser.add_argument("--display", type=int, default=70, help="first display number to try")
    args = parser.parse_args()
    if not shutil.which("Xvfb"):
        raise SystemExit("bench: needs Xvfb (make system-deps)")
    rows = []
    for setup in SETUPS:
        if args.clone and setup.clone not in args.clone:
            continue
        if args.size and setup.size not in args.size:
            continue
        games = args.beginner if setup.size == "beginner" else args.other
        row = run_setup(setup, games, args.display)
        rows.append(row)
        print(json.dumps(row), flush=True)
    print()
    header = "clone        size          games  wins  win%   median win s  max win s  actions/s"
    print(header)
    for r in rows:
        rate = f"{100 * r['win_rate']:.0f}" if r["win_rate"] is not None else "-"
        print(
            f"{r['clone']:<12} {r['size']:<13} {r['games']:>5} {r['wins']:>5} {rate:>5}"
            f"   {r['median_win_s']!s:>12} {r['max_win_s']!s:>10} {r['actions_per_s']!s:>10}"
        )
    return 0 if all(r["exit"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
