"""Vision speed: read a 30x16 frame with known geometry, and locate a board from scratch.

    .venv/bin/python benchmarks/bench_vision.py [FRAME]

FRAME defaults to the xdemineur expert recording (a real 1600x1000 Xvfb
screenshot). Prints the median (and 90th percentile) of many runs; figures
belong in the README, not in timed tests.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.image_io import load_image  # noqa: E402
from vision.reader import BoardReader  # noqa: E402

DEFAULT = ROOT / "recordings" / "xdemineur-expert-1" / "frames" / "0001.png"


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float, float]:
    """(median wall, 90th percentile wall, median CPU) time of `fn` in milliseconds.

    CPU time (this thread's) is printed too because on a shared, loaded
    machine wall time mostly measures the other processes.
    """
    fn()
    times = []
    cpu = []
    for _ in range(runs):
        start = time.perf_counter()
        start_cpu = time.thread_time()
        fn()
        cpu.append((time.thread_time() - start_cpu) * 1000)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.9)], statistics.median(cpu)


def main() -> int:
    frame = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    image = load_image(frame)
    reader = BoardReader()
    located = reader.locate(image)
    geo = located.geometry
    print(
        f"frame {frame} ({image.shape[1]}x{image.shape[0]}): {located.skin.name} "
        f"{geo.rows}x{geo.cols}, {len(reader.skins)} skins installed"
    )
    from vision.classify import classify

    for what, fn, runs in (
        ("read (geometry known, cells+counter+status)", lambda: reader.read(image, located), 300),
        ("classify cells only", lambda: classify(image, geo, located.bank), 300),
        ("locate from scratch (all skins)", lambda: reader.locate(image), 30),
    ):
        med, p90, cpu = timed(fn, runs)
        print(f"{what:45s} median {med:7.2f} ms  p90 {p90:7.2f} ms  (CPU median {cpu:.2f} ms)")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
