"""Issue 16's window-move figure: no click lands where the board was once the window moved.

Each run: a fresh xdemineur intermediate (16x16) window at (50, 40) on its own
Xvfb; `msbot play --games 500 --delay 30 --record DIR`; after the fourth reading
the window is moved by (+150, +80) (`xdotool windowmove`, waited for). Counted
from the recording: cell and control clicks made after the window was seen at
its new place (action times are CLOCK_MONOTONIC, one clock for every process),
and how long the bot took from then to stop (its exit).

    .venv/bin/python benchmarks/window_move.py [--runs 20]

One JSON line per run, then a summary line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.play.recorder import read_jsonl
from harness.clones import launch_clone
from harness.xdisplay import VirtualDisplay
from live_play import start_play


def one_run(work: Path) -> dict[str, object]:
    folder = work / "rec"
    with (
        VirtualDisplay(1600, 1000, first=320, tries=40) as vd,
        launch_clone("xdemineur", "intermediate", vd, position=(50, 40)) as clone,
    ):
        args = ["play", "--json", "--games", "500", "--delay", "30", "--record", str(folder)]
        proc = start_play(vd.display, args, folder, readings=4, poll=0.01)
        clone.move(200, 120)
        moved_at = time.monotonic()
        _, err = proc.communicate(timeout=60)
        stopped_s = time.monotonic() - moved_at
    clicks = [
        a
        for a in read_jsonl(folder / "actions.jsonl")
        if a["kind"] in ("open", "flag", "chord", "control")
    ]
    late = [a for a in clicks if a["time"] > moved_at]
    return {
        "exit": proc.returncode,
        "clicks": len(clicks),
        "clicks_after_move": len(late),
        "stop_seconds": round(stopped_s, 3),
        "error": err.strip()[:160],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    results = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="msbot-move-") as work:
            result = one_run(Path(work))
        results.append(result)
        print(json.dumps(result), flush=True)
    summary = {
        "runs": len(results),
        "runs_with_clicks_after_move": sum(bool(r["clicks_after_move"]) for r in results),
        "clicks_after_move": sum(int(str(r["clicks_after_move"])) for r in results),
        "median_stop_seconds": statistics.median(float(str(r["stop_seconds"])) for r in results),
        "exits": sorted({int(str(r["exit"])) for r in results}),
    }
    print(json.dumps({"summary": summary}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
