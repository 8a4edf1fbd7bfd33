"""Vision speed: read a 30x16 frame with known geometry, and locate a board from scratch.

    .venv/bin/python benchmarks/bench_vision.py [FRAME]

FRAME defaults to the xdemineur expert recording (a real 1600x1000 Xvfb
screenshot). Prints the median (and 90th percentile) of many runs; figures
belong in the README, not in timed tests.
"""

from __future__ import annotations

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


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """(median, 90th percentile) wall time of `fn` in milliseconds."""
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.9)]


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
    med, p90 = timed(lambda: reader.read(image, located), 300)
    print(f"read (geometry known, cells+counter+status): median {med:.2f} ms, p90 {p90:.2f} ms")
    from vision.classify import classify

    med, p90 = timed(lambda: classify(image, geo, located.bank), 300)
    print(f"classify cells only:                           median {med:.2f} ms, p90 {p90:.2f} ms")
    med, p90 = timed(lambda: reader.locate(image), 30)
    print(f"locate from scratch (all skins):               median {med:.2f} ms, p90 {p90:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
