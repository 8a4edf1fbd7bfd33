"""Vision speed: read a 30x16 frame with known geometry, and locate a board from scratch.

    .venv/bin/python benchmarks/bench_vision.py [FRAME] [--gap MS] [--threads N]

FRAME defaults to the xdemineur expert recording (a real 1600x1000 Xvfb
screenshot); the other frames of its recording folder are read too. Prints
medians (and the 90th percentile of wall time) of many runs; figures belong in
docs/benchmarks.md, not in timed tests.

Four reads, because the reader remembers its last read: it classifies again
only the cells whose pixels changed, and reuses a glyph search (counter, face,
status text) while that region's pixels are unchanged
(`BoardReader._classify`, `vision.glyphs.GlyphMemo`):
- "cold": `BoardReader.forget()` before every read: everything from scratch;
- "frames change": the recording's frames in turn (they differ in many
  cells, the counter and the status);
- "one move": the frame and a copy where one covered cell near the centre
  shows an open cell's pixels (what most clicks change) in turn; a change in
  the board's top rows also re-matches part of GNOME Mines' status band;
- "same frame": the same picture again (a wait in play with nothing changed).
Frames are read-only, as screens hand them out (`Screen.grab`): the reader
keeps such a snapshot rather than a copy of its board.
The cell classification alone is timed twice: every cell (`classify`, what
`locate` uses), and each distinct cell once (`vision.distinct`, what a
cold read uses).
CPU time is given per process (all threads: OpenCV's own thread pool counts)
and per calling thread; on a shared, loaded machine wall time mostly measures
the other processes.

--gap MS sleeps that long between runs (not timed), as the play loop waits
between clicks and reads: thread pools (OpenCV's, OpenBLAS's) then go idle
and cost more to wake, which back-to-back runs hide. --threads N calls
cv2.setNumThreads(N) first (default: OpenCV's own choice; msbot itself runs
with 1, bot/cli.py).
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# As `msbot` sets it (bot/cli.py), before numpy loads OpenBLAS; set it to
# another value in the environment to measure with more BLAS threads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.capture import freeze  # noqa: E402
from vision.classify import classify  # noqa: E402
from vision.distinct import classify_distinct  # noqa: E402
from vision.image_io import load_image  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.reading import Reading  # noqa: E402

DEFAULT = ROOT / "recordings" / "xdemineur-expert-1" / "frames" / "0001.png"


def timed(
    fn: Callable[[], object], runs: int, gap: float = 0.0
) -> tuple[float, float, float, float]:
    """(median wall, 90th percentile wall, median process CPU, median thread CPU), in ms."""
    fn()
    wall, proc, thread = [], [], []
    for _ in range(runs):
        if gap:
            time.sleep(gap)
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


def one_move(image: np.ndarray, reading: Reading) -> np.ndarray:
    """`image` with one covered cell showing what an open cell shows (a click that
    reveals a number): the covered cell nearest the board's centre, the open
    cell nearest it (or any other cell)."""
    geo, rows = reading.geometry, reading.board.rows
    cells = sorted(
        ((r, c) for r in range(geo.rows) for c in range(geo.cols)),
        key=lambda rc: (rc[0] - geo.rows / 2) ** 2 + (rc[1] - geo.cols / 2) ** 2,
    )
    covered = next((rc for rc in cells if rows[rc[0]][rc[1]] == "."), cells[0])
    other = next((rc for rc in cells if rows[rc[0]][rc[1]] not in ".F?"), cells[-1])
    out = image.copy()
    w, h = int(geo.cell_w), int(geo.cell_h)
    (ax, ay), (bx, by) = (
        (round(geo.left + c * geo.cell_w), round(geo.top + r * geo.cell_h))
        for r, c in (covered, other)
    )
    out[ay : ay + h, ax : ax + w] = image[by : by + h, bx : bx + w]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("frame", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--gap", type=float, default=0.0, help="ms to sleep between runs")
    parser.add_argument("--threads", type=int, default=None, help="cv2.setNumThreads first")
    args = parser.parse_args()
    if args.threads is not None:
        cv2.setNumThreads(args.threads)
    frame = args.frame
    # Read-only, as a screen hands its snapshots to the play loop (`Screen.grab`).
    image = freeze(load_image(frame))
    others = [freeze(load_image(p)) for p in sorted(frame.parent.glob("*.png")) if p != frame]
    reader = BoardReader()
    located = reader.locate(image)
    geo = located.geometry
    print(
        f"frame {frame} ({image.shape[1]}x{image.shape[0]}): {located.skin.name} "
        f"{geo.rows}x{geo.cols}, {len(reader.skins)} skins installed, "
        f"{len(others)} other frames in its folder"
    )
    frames = itertools.cycle([image, *others])
    moves = itertools.cycle([image, freeze(one_move(image, reader.read(image, located)))])
    # Older commits (for before/after figures) have no reader memory nor sampler.
    forget = getattr(reader, "forget", lambda: None)
    sampler_for = getattr(reader, "_sampler_for", lambda located: None)
    sampler = sampler_for(located)
    extra = () if sampler is None else (sampler,)

    def cold() -> object:
        forget()
        return reader.read(image, located)

    runs: list[tuple[str, Callable[[], object], int]] = [
        ("read, cold (reader.forget() before each)", cold, 300),
        (
            "read, frames change (recording's frames in turn)",
            lambda: reader.read(next(frames), located),
            300,
        ),
        ("read, one move (one cell changes)", lambda: reader.read(next(moves), located), 300),
        ("read, same frame again", lambda: reader.read(image, located), 300),
        (
            "classify all cells",
            lambda: classify(image, geo, located.bank, located.nudge, *extra),
            300,
        ),
        (
            "classify all cells, distinct ones once",
            lambda: classify_distinct(image, geo, located.bank, located.nudge, *extra),
            300,
        ),
        ("locate from scratch (all skins)", lambda: reader.locate(image), 30),
    ]
    for what, fn, count in runs:
        med, p90, proc, thread = timed(fn, count, args.gap / 1000)
        print(
            f"{what:50s} wall median {med:7.2f} ms  p90 {p90:7.2f} ms  "
            f"CPU median: process {proc:7.2f} ms, thread {thread:7.2f} ms"
        )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"load average {load:.1f} on {os.cpu_count()} CPUs; gap {args.gap:g} ms; "
        f"OpenCV threads {cv2.getNumThreads()}, "
        f"OPENBLAS_NUM_THREADS {os.environ.get('OPENBLAS_NUM_THREADS')}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
