"""Live play figures on real clones under Xvfb (issue 4): per clone and size,
actions per second, median time to win, the win rate over many games, and
how long each reading of the board took in play (vision alone, median).

    .venv/bin/python benchmarks/bench_play.py                 # every clone, every size
    .venv/bin/python benchmarks/bench_play.py --clone xdemineur --beginner 50 --other 10

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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.clones import CLONES, SIZE_NAMES, launch_clone  # noqa: E402
from bot.xdisplay import VirtualDisplay  # noqa: E402


def _median_of(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(statistics.median(known), 3) if known else None


def run_setup(
    clone: str,
    size: str,
    games: int,
    first_display: int,
    backend: str,
    keep: str | None,
    extra: list[str],
) -> dict[str, Any]:
    with (
        VirtualDisplay(1600, 1000, first=first_display, tries=10) as xd,
        launch_clone(clone, size, xd, position=(40, 30)),
    ):
        started = time.monotonic()
        command = [sys.executable, "-m", "bot", "play", "--json", "--games", str(games)]
        command += ["--backend", backend, *extra]
        record = ""
        if keep is not None:
            record = str(Path(keep) / f"{clone}-{size}-{time.strftime('%H%M%S')}")
            command += ["--record", record]
        out = subprocess.run(
            command,
            env=dict(os.environ, DISPLAY=xd.display),
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        wall = time.monotonic() - started
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    played = [g for g in lines if g.get("outcome") in ("won", "lost")]
    wins = [g for g in played if g["outcome"] == "won"]
    seconds = sum(g["seconds"] for g in played)
    clicks = sum(g["clicks"] for g in played)
    return {
        "clone": clone,
        "size": size,
        "backend": backend + (" " + " ".join(extra) if extra else ""),
        "games": len(played),
        "wins": len(wins),
        "win_rate": round(len(wins) / len(played), 3) if played else None,
        "median_win_s": round(statistics.median(g["seconds"] for g in wins), 3) if wins else None,
        "max_win_s": round(max(g["seconds"] for g in wins), 3) if wins else None,
        "actions_per_s": round(clicks / seconds, 1) if seconds else None,
        # Reads of frames whose geometry is known (`BoardReader.read` in play):
        # the median over games of each game's median, and the slowest game's.
        "read_ms": _median_of([g.get("read_ms_median") for g in played]),
        "read_ms_worst_game": max(
            (g["read_ms_median"] for g in played if g.get("read_ms_median") is not None),
            default=None,
        ),
        "reads": sum(g.get("reads", 0) for g in played),
        "guesses": sum(g["guesses"] for g in played),
        "certain_losses": sum(g["certain_loss"] for g in played),
        "wall_s": round(wall, 1),
        "exit": out.returncode,
        "stopped": out.stderr.strip().splitlines()[-1] if out.returncode else "",
        "record": record,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clone", action="append", help="only these clones")
    parser.add_argument("--size", action="append", help="only these sizes")
    parser.add_argument("--beginner", type=int, default=50, help="beginner games per clone")
    parser.add_argument("--other", type=int, default=10, help="games per other size")
    parser.add_argument("--display", type=int, default=70, help="first display number to try")
    parser.add_argument("--backend", choices=("pyautogui", "xtest"), default="pyautogui")
    parser.add_argument("--record", metavar="DIR", help="keep a recording per run in DIR")
    parser.add_argument("--no-flags", action="store_true", help="play without flagging")
    args = parser.parse_args()
    if not shutil.which("Xvfb"):
        raise SystemExit("bench: needs Xvfb (make system-deps)")
    rows = []
    for clone in args.clone or list(CLONES):
        for size in args.size or list(SIZE_NAMES):
            games = args.beginner if size == "beginner" else args.other
            extra = ["--no-flags"] if args.no_flags else []
            row = run_setup(clone, size, games, args.display, args.backend, args.record, extra)
            rows.append(row)
            print(json.dumps(row), flush=True)
    print()
    header = "clone        size          games  wins  win%   median win s  max win s  actions/s"
    header += "  read ms  stopped"
    print(header)
    for r in rows:
        rate = f"{100 * r['win_rate']:.0f}" if r["win_rate"] is not None else "-"
        print(
            f"{r['clone']:<12} {r['size']:<13} {r['games']:>5} {r['wins']:>5} {rate:>5}"
            f"   {r['median_win_s']!s:>12} {r['max_win_s']!s:>10} {r['actions_per_s']!s:>10}"
            f"  {r['read_ms']!s:>7}  {r['stopped'][:60]}"
        )
    return 0 if all(r["exit"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
