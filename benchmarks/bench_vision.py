"""Vision speed: read a 30x16 frame with known geometry, and locate a board from scratch.

    .venv/bin/python benchmarks/bench_vision.py [FRAME]

FRAME defaults to the xdemineur expert recording (a real 1600x1000 Xvfb
screenshot); the other frames of its recording folder are read too. Prints
medians (and the 90th percentile of wall time) of many runs; figures belong in
the README, not in timed tests.

Three reads, because the reader keeps the last answer of each glyph search
(counter, face, status text) and reuses it while that region's pixels are
unchanged (`vision.glyphs.GlyphMemo`):
- "cold": that memory is emptied before every read: every search runs;
- "frames change": the recording's frames in turn (they differ in cells,
  counter and status, as after moves in play); the memory is kept;
- "same frame": the same picture again (a wait in play with nothing changed).
CPU time is given per process (all threads: OpenCV's own thread pool counts)
and per calling thread; on a shared, loaded machine wall time mostly measures
the other processes.
"""

from __future__ import annotations

import itertools
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.classify import classify  # noqa: E402
from vision.glyphs import GlyphMemo  # noqa: E402
from vision.image_io import load_image  # noqa: E402
from vision.reader import BoardReader  # noqa: E402

DEFAULT = ROOT / "recordings" / "xdemineur-expert-1" / "frames" / "0001.png"


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float, float, float]:
    """(median wall, 90th percentile wall, median process CPU, median thread CPU), in ms."""
    fn()
    wall, proc, thread = [], [], []
    for _ in range(runs):
        start, start_proc, start_thread = (
            time.perf_counter(),
            time.process_time(),
            time.thread_time(),
        )
        fn()
        thread.append((time.thread_time() - start_thread) * 1000)
        proc.append((time.process_time() - start_proc) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    wall.sort()
    return (
        statistics.median(wall),
        wall[int(len(wall) * 0.9)],
        statistics.median(proc),
        statistics.median(thread),
    )


def main() -> int:
    frame = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    image = load_image(frame)
    others = [load_image(p) for p in sorted(frame.parent.glob("*.png")) if p != frame]
    reader = BoardReader()
    located = reader.locate(image)
    geo = located.geometry
    print(
        f"frame {frame} ({image.shape[1]}x{image.shape[0]}): {located.skin.name} "
        f"{geo.rows}x{geo.cols}, {len(reader.skins)} skins installed, "
        f"{len(others)} other frames in its folder"
    )
    frames = itertools.cycle([image, *others])

    def cold() -> object:
        reader.memo = GlyphMemo()
        return reader.read(image, located)

    runs: list[tuple[str, Callable[[], object], int]] = [
        ("read, cold (glyph memory emptied each time)", cold, 300),
        (
            "read, frames change (recording's frames in turn)",
            lambda: reader.read(next(frames), located),
            300,
        ),
        ("read, same frame again", lambda: reader.read(image, located), 300),
        ("classify cells only", lambda: classify(image, geo, located.bank, located.nudge), 300),
        ("locate from scratch (all skins)", lambda: reader.locate(image), 30),
    ]
    for what, fn, count in runs:
        med, p90, proc, thread = timed(fn, count)
        print(
            f"{what:50s} wall median {med:7.2f} ms  p90 {p90:7.2f} ms  "
            f"CPU median: process {proc:7.2f} ms, thread {thread:7.2f} ms"
        )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
