"""GNOME Mines question marks and flags at many window sizes: how are they read?

    .venv/bin/python benchmarks/gnome_qmarks.py capture OUT [--display-first N] [--sizes ...]
    .venv/bin/python benchmarks/gnome_qmarks.py sweep OUT

GNOME Mines draws its '?' as its flag with a small question mark beside the
pole, and scales both with the window. QA's F12: at common window sizes a
'?' was read as a sure flag (a mine total 6 too high, a game played on a
wrong board). This script measures that on real frames:

`capture` starts a real GNOME Mines (question marks on, harness/clones.py) under
Xvfb at each window size, marks cells with xdotool right clicks (one row of
'?', one of flags, one alternating both), parks the pointer off the board
and takes a frame, then takes frames with the pointer over a '?' and over a
flag (GNOME draws the hovered tile lighter). Each frame is saved as a crop of
the window with its expected board in `labels.jsonl` (the board is fresh, so
every other cell is covered).

`sweep` reads every saved frame with a fresh reader (all skins, as
`msbot replay` does) and counts, per cell pitch, how the marked cells were
read: '?' as '?' / F / unsure / other, flags as F / '?' / unsure / other,
and every other cell read wrong. A '?' read as F (or a flag as '?') is a
confident misread; unsure is safe (the bot stops).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bot.errors import MsbotError  # noqa: E402
from harness.clones import launch_clone  # noqa: E402
from harness.xdisplay import VirtualDisplay  # noqa: E402
from vision.geometry import Geometry  # noqa: E402
from vision.image_io import load_image  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.reading import Reading  # noqa: E402

#: (preset, window width, height): cell pitches from ~17 to ~100 px.
SIZES = [
    ("intermediate", 460, 440),
    ("intermediate", 520, 500),
    ("intermediate", 600, 560),
    ("expert", 1000, 560),
    ("expert", 1100, 560),
    ("intermediate", 700, 640),
    ("expert", 1300, 720),
    ("intermediate", 800, 700),
    ("expert", 1500, 900),
    ("intermediate", 1000, 900),
    ("beginner", 600, 400),
    ("beginner", 800, 560),
    ("beginner", 1000, 760),
    ("beginner", 1300, 1000),
]


def _grab(display: str, box: tuple[int, int, int, int]) -> np.ndarray:
    """The window's pixels (BGR), grabbed by a short-lived process (one mss per process)."""
    code = (
        "import sys, mss, numpy as np, cv2\n"
        "x, y, w, h = map(int, sys.argv[2:6])\n"
        "with mss.MSS(display=sys.argv[1]) as m:\n"
        "    shot = m.grab({'left': x, 'top': y, 'width': w, 'height': h})\n"
        "cv2.imwrite(sys.argv[6], np.asarray(shot)[:, :, :3])\n"
    )
    out = Path("/tmp") / f"msbot-qmarks-{display.strip(':')}.png"
    subprocess.run(
        [sys.executable, "-c", code, display, *map(str, box), str(out)], check=True, timeout=30
    )
    return load_image(out)


def _xdotool(display: str, *args: str) -> None:
    subprocess.run(["xdotool", *args], env={"DISPLAY": display}, check=True, timeout=60)


def _marks(rows: int, cols: int, mines: int) -> dict[tuple[int, int], str]:
    """Cells to mark: a row of '?', a row of flags, a row of both alternating."""
    marks: dict[tuple[int, int], str] = {}
    a, b, c = rows // 3, rows // 2, (2 * rows) // 3
    for col in range(cols):
        if col % 2 == 0:
            marks[(a, col)] = "?"
        else:
            marks[(c, col)] = "F"
        marks[(b, col)] = "?" if col % 2 else "F"
    flags = [cell for cell, ch in marks.items() if ch == "F"]
    for cell in flags[mines:]:  # never more flags than mines
        del marks[cell]
    return marks


def _centre(box: tuple[int, int, int, int], geo: Geometry, cell: tuple[int, int]) -> list[str]:
    """Screen point (xdotool arguments) of a cell's middle."""
    x = box[0] + geo.left + (cell[1] + 0.5) * geo.cell_w
    y = box[1] + geo.top + (cell[0] + 0.5) * geo.cell_h
    return [str(int(x)), str(int(y))]


def capture_size(
    out: Path, display: str, reader: BoardReader, size: tuple[str, int, int]
) -> list[dict[str, Any]]:
    """One window size: mark cells, save the frames, return their labels."""
    preset, win_w, win_h = size
    name = f"{preset}-{win_w}x{win_h}"
    cl = launch_clone("gnome-mines", preset, display, (0, 0), window_size=(win_w, win_h))
    with cl:
        box = cl.geometry()
        try:
            geo = reader.read_fresh(_grab(display, box)).geometry
        except MsbotError as exc:
            print(f"{name}: fresh board not read: {exc}", flush=True)
            return []
        # The clone's own board size: a reading that takes GNOME's side
        # panel for more columns must not put marks (or labels) there.
        rows, cols = cl.size.rows, cl.size.cols
        if (geo.rows, geo.cols) != (rows, cols):
            print(f"{name}: fresh board read as {geo.cols}x{geo.rows}", flush=True)
        marks = _marks(rows, cols, cl.size.mines)
        args: list[str] = []
        for cell, ch in marks.items():
            args += ["mousemove", *_centre(box, geo, cell)]
            for _ in range(1 if ch == "F" else 2):
                args += ["click", "3", "sleep", "0.04"]
        _xdotool(display, *args, "mousemove", "2", "2")
        _xdotool(display, "windowfocus", cl.window)
        time.sleep(0.6)
        board = [["."] * cols for _ in range(rows)]
        for (r, c), ch in marks.items():
            board[r][c] = ch
        qs = [cell for cell, ch in marks.items() if ch == "?"]
        fs = [cell for cell, ch in marks.items() if ch == "F"]
        shots: list[tuple[str, tuple[int, int] | None]] = [
            ("parked", None),
            ("hover-q", qs[len(qs) // 2]),
            ("hover-f", fs[len(fs) // 2]),
            ("hover-q2", qs[-1]),
            ("hover-f2", fs[0]),
        ]
        labels = []
        for tag, hover in shots:
            if hover is not None:
                _xdotool(display, "mousemove", *_centre(box, geo, hover))
                _xdotool(display, "windowfocus", cl.window)
                time.sleep(0.5)
            file = f"{name}-{tag}.png"
            cv2.imwrite(str(out / file), _grab(display, box))
            labels.append(
                {
                    "file": file,
                    "preset": preset,
                    "window": [win_w, win_h],
                    "pitch": round(geo.cell_w, 2),
                    "hover": list(hover) if hover else None,
                    "board": ["".join(r) for r in board],
                }
            )
        print(f"{name}: pitch {geo.cell_w:.2f}, {len(marks)} marks", flush=True)
        return labels


def capture(out: Path, sizes: list[tuple[str, int, int]], first: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with VirtualDisplay(1920, 1200, first=first, tries=10) as xd:
        reader = BoardReader()
        for size in sizes:
            labels = capture_size(out, xd.display, reader, size)
            with (out / "labels.jsonl").open("a") as f:
                f.writelines(json.dumps(label) + "\n" for label in labels)


KEYS = ("?->?", "?->F", "?->un", "?->x", "F->F", "F->?", "F->un", "F->x")


def _count(label: dict[str, Any], reading: Reading) -> Counter[str]:
    """How the frame's marked cells (and the others) were read."""
    unsure = {(u.row, u.col) for u in reading.unknown}
    seen, geo = reading.board.rows, reading.geometry
    counts: Counter[str] = Counter()
    for r, row in enumerate(label["board"]):
        for c, want in enumerate(row):
            if r >= geo.rows or c >= geo.cols:
                continue  # cells compared where both have them (top-left corners agree)
            got = "un" if (r, c) in unsure else seen[r][c]
            if want in "?F":
                counts[f"{want}->{got}" if got in ("?", "F", "un") else f"{want}->x"] += 1
            elif got != want:
                counts["other wrong"] += 1
    return counts


def sweep(folder: Path) -> int:
    """Print per-frame and total counts; exit 1 when any cell was read confidently wrong."""
    total: Counter[str] = Counter()
    print("pitch  frame" + " " * 35 + "  ".join(f"{k:>5}" for k in KEYS) + "  other wrong")
    for line in (folder / "labels.jsonl").read_text().splitlines():
        label = json.loads(line)
        try:
            reading = BoardReader().read_fresh(load_image(folder / label["file"]))
        except MsbotError as exc:
            print(f"{label['pitch']:5.1f}  {label['file']:<40} not read: {exc}")
            total["frame not read"] += 1
            continue
        geo = reading.geometry
        if (geo.rows, geo.cols) != (len(label["board"]), len(label["board"][0])):
            print(f"       {label['file']}: board read as {geo.cols}x{geo.rows}")
            total["board size wrong"] += 1
        counts = _count(label, reading)
        total.update(counts)
        row_text = "  ".join(f"{counts[k]:5d}" for k in KEYS)
        print(f"{label['pitch']:5.1f}  {label['file']:<40}{row_text}  {counts['other wrong']:5d}")
    print("total:", dict(sorted(total.items())))
    bad = sum(total[k] for k in ("?->F", "F->?", "?->x", "F->x", "other wrong"))
    print(f"confident misreads: {bad}")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    cap = sub.add_parser("capture")
    cap.add_argument("out", type=Path)
    cap.add_argument("--display-first", type=int, default=280)
    cap.add_argument("--sizes", nargs="*", help="PRESET:WxH, e.g. expert:1300x720")
    sw = sub.add_parser("sweep")
    sw.add_argument("out", type=Path)
    args = parser.parse_args()
    if args.command == "capture":
        sizes = SIZES
        if args.sizes:
            sizes = []
            for text in args.sizes:
                preset, dims = text.split(":")
                w, h = dims.split("x")
                sizes.append((preset, int(w), int(h)))
        capture(args.out, sizes, args.display_first)
        return 0
    return sweep(args.out)


if __name__ == "__main__":
    sys.exit(main())
