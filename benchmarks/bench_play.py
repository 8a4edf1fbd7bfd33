"""Live play figures on real clones under Xvfb (issue 4): per clone and size,
actions per second, median time to win, the win rate over many games, and
how long each reading of the board took in play (vision alone, median).

    .venv/bin/python benchmarks/bench_play.py                 # every clone, every size
    .venv/bin/python benchmarks/bench_play.py --clone xdemineur --beginner 50 --other 10
    .venv/bin/python benchmarks/bench_play.py --clone gnome-mines --size expert --other 100 \
        --strength fast --strength full --blocks 4

Each size runs in its own virtual display with a fresh clone; the bot is the
`msbot play --json` command line, exactly as a person would run it. Times are
those the bot reports per game: from its first click to the reading that
shows the game won or lost (restarts excluded). Actions per second is clicks
divided by that time, over all games of the size.

With several --strength values, the games of each size are played in
--blocks blocks, the strengths alternating block by block (fresh display and
clone each time), so that a machine busy at one moment slows both alike; one
summary line per strength follows the blocks: win rate with its Wilson 95 %
interval and the median 3BV/s of the won games.
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

from harness.clones import CLONES, SIZE_NAMES, launch_clone  # noqa: E402
from harness.xdisplay import VirtualDisplay  # noqa: E402
from live_play import median_of  # noqa: E402


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
    rates = [g["3bv_per_s"] for g in wins if g.get("3bv_per_s") is not None]
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
        "median_3bv_per_s_won": round(statistics.median(rates), 2) if rates else None,
        "3bv_per_s_won": rates,
        # Reads of frames whose geometry is known (`BoardReader.read` in play):
        # the median over games of each game's median, and the slowest game's.
        "read_ms": median_of([g.get("read_ms_median") for g in played]),
        # The checks made right before each click (`bot.play.click_check`), median of games.
        "check_ms": median_of([g.get("check_ms_median") for g in played]),
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


def _summary(
    clone: str, size: str, strength: str | None, rows: list[dict[str, Any]]
) -> dict[str, Any]:
    """One strength's blocks together: games, wins, Wilson interval, median 3BV/s of wins."""
    from bot.bench.runner import wilson_interval

    games = sum(r["games"] for r in rows)
    wins = sum(r["wins"] for r in rows)
    low, high = wilson_interval(wins, games)
    rates = [v for r in rows for v in r["3bv_per_s_won"]]
    return {
        "summary": f"{clone} {size} strength {strength or 'default'}",
        "blocks": len(rows),
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 4) if games else None,
        "interval": [round(low, 4), round(high, 4)],
        "median_3bv_per_s_won": round(statistics.median(rates), 2) if rates else None,
        "certain_losses": sum(r["certain_losses"] for r in rows),
        "stopped_blocks": sum(1 for r in rows if r["exit"] != 0),
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
    parser.add_argument(
        "--strength", action="append", choices=("fast", "full"), help="solver strength(s)"
    )
    parser.add_argument("--blocks", type=int, default=1, help="blocks per strength (alternating)")
    args = parser.parse_args()
    if not shutil.which("Xvfb"):
        raise SystemExit("bench: needs Xvfb (make system-deps)")
    rows = []
    strengths: list[str | None] = list(args.strength or [None])
    summaries = []
    for clone in args.clone or list(CLONES):
        for size in args.size or list(SIZE_NAMES):
            games = args.beginner if size == "beginner" else args.other
            blocks: dict[str | None, list[dict[str, Any]]] = {s: [] for s in strengths}
            for block in range(args.blocks):
                for strength in strengths if block % 2 == 0 else strengths[::-1]:
                    extra = ["--no-flags"] if args.no_flags else []
                    extra += ["--strength", strength] if strength else []
                    n = games // args.blocks + (block < games % args.blocks)
                    row = run_setup(clone, size, n, args.display, args.backend, args.record, extra)
                    rows.append(row)
                    blocks[strength].append(row)
                    print(json.dumps(row), flush=True)
            if len(strengths) > 1 or args.blocks > 1:
                for strength, done in blocks.items():
                    summaries.append(_summary(clone, size, strength, done))
                    print(json.dumps(summaries[-1]), flush=True)
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
