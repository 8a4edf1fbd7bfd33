"""Screenshots of zoo clones in play, for the zoo's README.

    cd benchmarks
    PYTHONPATH=.. ../.venv/bin/python -m zoo.gallery --out zoo/gallery [--lose] SEED...

Each seed's clone is started on a fresh Xvfb, given a few clicks through
xdotool (a first open, two flags on mines its truth names, a few safe
cells), and its window (with what is around it) saved as SEED.png; a
Markdown table of the pictures and each clone's description is printed.
With `--lose` the game is then played to its end: a mine its truth names is
opened, and the shot waits for the lost board and its end notice (a dialog,
an overlay or a status line, as the clone has it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

from harness.xdisplay import VirtualDisplay
from vision.capture import Region
from vision.capture.live import LiveScreen
from zoo.launch import RunningZoo, launch


def _click(running: RunningZoo, r: int, c: int, button: str) -> None:
    _, xs, ys = running.truth().boxes[-1]
    x, y = (xs[c][0] + xs[c][1]) // 2, (ys[r][0] + ys[r][1]) // 2
    env = dict(os.environ, DISPLAY=running.display)
    subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", button], env=env, check=True)
    time.sleep(0.25 + running.spec.anim_ms / 1000)


def play_a_little(running: RunningZoo) -> None:
    """A first open in the middle, then two flags and three safe opens."""
    spec = running.spec
    _click(running, spec.rows // 2, spec.cols // 2, "1")
    truth = running.truth()
    if not truth.games or not truth.games[-1].layout:
        return
    mines = sorted(truth.games[-1].layout)
    board = truth.spans[-1].board
    for r, c in mines[:2]:
        if board[r][c] == ".":
            _click(running, r, c, "3")
    board = running.truth().spans[-1].board
    safe = [
        (r, c)
        for r in range(len(board))
        for c in range(len(board[0]))
        if board[r][c] == "." and (r, c) not in mines
    ]
    for r, c in safe[:: max(1, len(safe) // 3)][:3]:
        _click(running, r, c, "1")
    _pointer_away(running)


def _pointer_away(running: RunningZoo) -> None:
    """The pointer away from the board (a hover look would show)."""
    env = dict(os.environ, DISPLAY=running.display)
    subprocess.run(["xdotool", "mousemove", "1599", "999"], env=env, check=True)
    time.sleep(0.3)


def play_to_a_loss(running: RunningZoo, timeout: float = 10.0) -> None:
    """Open a covered mine the truth names, then wait until the clone has logged
    the lost board and, when its end notice is a dialog, the dialog's window."""
    truth = running.truth()
    if truth.spans and truth.spans[-1].status == "playing" and truth.games:
        layout = truth.games[-1].layout
        board = truth.spans[-1].board
        covered = [(r, c) for r, c in sorted(layout) if board[r][c] == "."]
        if covered:
            # The one farthest from the middle: an overlay notice would hide it.
            mid_r, mid_c = (len(board) - 1) / 2, (len(board[0]) - 1) / 2
            r, c = max(covered, key=lambda m: abs(m[0] - mid_r) + abs(m[1] - mid_c))
            _click(running, r, c, "1")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        truth = running.truth()
        lost = bool(truth.spans) and truth.spans[-1].status == "lost"
        dialog = any(name == "dialog" and rect for _, name, rect in truth.windows)
        if lost and (dialog or running.spec.end_notice != "dialog"):
            break
        time.sleep(0.1)
    time.sleep(0.3 + running.spec.anim_ms / 1000)  # an end animation, the notice drawn
    _pointer_away(running)


def shoot(seed: int, out: Path, frontend: str | None = None, lose: bool = False) -> str:
    """SEED.png of the clone in play (lost, with `lose`); its description."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        VirtualDisplay(1600, 1000, first=400) as vd,
        launch(seed, vd.display, Path(tmp), frontend=frontend) as running,
    ):
        play_a_little(running)
        if lose:
            play_to_a_loss(running)
        rects = [rect for _, _, rect in running.truth().windows if rect]
        x0 = max(0, min(r[0] for r in rects) - 10)
        y0 = max(0, min(r[1] for r in rects) - 10)
        x1 = min(1600, max(r[0] + r[2] for r in rects) + 10)
        y1 = min(1000, max(r[1] + r[3] for r in rects) + 10)
        with LiveScreen(vd.display) as screen:
            picture = screen.grab(Region(x0, y0, x1 - x0, y1 - y0))
        cv2.imwrite(str(out / f"{seed}.png"), picture)
        return running.spec.describe()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", nargs="+", type=int)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--frontend", choices=("tk", "web"))
    parser.add_argument(
        "--lose", action="store_true", help="play on until the game is lost (a mine opened)"
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for seed in args.seeds:
        text = shoot(seed, args.out, args.frontend, args.lose)
        if args.lose:
            text += " (shown lost)"
        print(f"| ![seed {seed}](gallery/{seed}.png) | {text} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
