"""GNOME Mines' "Congratulations!" window over won boards: capture it, find its title.

    .venv/bin/python benchmarks/gnome_won_window.py capture OUT_DIR
    .venv/bin/python benchmarks/gnome_won_window.py measure DIR

After a win that makes its top ten, GNOME Mines opens a high-score window
centred on its game window, over the board. The skin looks for the window's
title in a region relative to the board (`templates/gnome-mines/skin.json`,
`status_texts`), and the reading of such a frame shows no board.

`capture` starts a real GNOME Mines (harness/clones.py: its high scores start
empty, so a win opens the window) under Xvfb for each case below, saves the
fresh board (`NAME-fresh.png`), lets `msbot play` win a game (another game
after a loss) and saves the screen two seconds later (`NAME-window.png`).

`measure` locates the board on each fresh frame, finds the title anywhere on
the screen under the window, and prints where its centre lies against the
board's centre, and how the reader reads the frame (status, unsure cells).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from harness.clones import launch_clone  # noqa: E402
from harness.xdisplay import VirtualDisplay  # noqa: E402
from vision.capture.live import LiveScreen  # noqa: E402
from vision.classify import classify  # noqa: E402
from vision.glyphs import best_hit  # noqa: E402
from vision.image_io import load_image  # noqa: E402
from vision.reader import BoardReader  # noqa: E402

#: name: (preset, screen size, window position, window size or None for the default).
CASES: dict[str, tuple[str, tuple[int, int], tuple[int, int], tuple[int, int] | None]] = {
    "beginner": ("beginner", (1600, 1000), (100, 80), None),
    "intermediate": ("intermediate", (1600, 1000), (300, 150), None),
    "expert": ("expert", (1600, 1000), (40, 30), None),
    "beginner-149px": ("beginner", (1920, 1440), (20, 0), (1400, 1420)),
}


def _grab(display: str) -> np.ndarray:
    with LiveScreen(display) as screen:
        return screen.grab()


def capture(out: Path, tries: int = 15) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, (preset, screen, position, window) in CASES.items():
        with VirtualDisplay(*screen) as display:
            for _ in range(tries):
                with launch_clone("gnome-mines", preset, display, position, window_size=window):
                    time.sleep(1)
                    fresh = _grab(display.display)
                    play = ["play", "--games", "1", "--json", "--display", display.display]
                    run = subprocess.run(
                        [
                            sys.executable,
                            "-m",
                            "bot",
                            *play,
                            "--backend",
                            "xtest",
                            "--delay",
                            "100",
                        ],
                        capture_output=True,
                        text=True,
                        timeout=600,
                        cwd=ROOT,
                    )
                    games = [json.loads(line) for line in run.stdout.splitlines()]
                    if any(game.get("outcome") == "won" for game in games):
                        time.sleep(2.0)
                        cv2.imwrite(str(out / f"{name}-fresh.png"), fresh)
                        cv2.imwrite(str(out / f"{name}-window.png"), _grab(display.display))
                        print(f"{name}: saved", flush=True)
                        break
            else:
                print(f"{name}: no win in {tries} games", flush=True)


def measure(folder: Path) -> None:
    reader = BoardReader()
    for fresh_path in sorted(folder.glob("*-fresh.png")):
        name = fresh_path.name.removesuffix("-fresh.png")
        located = reader.locate(load_image(fresh_path))
        geo, texts = located.geometry, located.skin.status_texts
        assert texts is not None
        image = load_image(folder / f"{name}-window.png")
        height, width = image.shape[:2]
        anywhere = ((0, -geo.left), (0, -geo.top), (0, width - geo.left), (0, height - geo.top))
        hit = best_hit(image, replace(texts, region=anywhere), geo)
        cx, cy = geo.left + geo.width / 2, geo.top + geo.height / 2
        where = "not found" if hit is None else f"{hit.x - cx:+.0f}, {hit.y - cy:+.0f}"
        reader.forget()
        reading = reader.read(image, located)
        scores = classify(image, geo, located.bank, located.nudge)
        unsure = "?" if scores is None else int(scores.unsure.sum())
        print(
            f"{name:16s} cell {geo.cell_w:5.1f} px  board {geo.cols}x{geo.rows}  "
            f"title centre from board centre: {where:>10s}  reading: {reading.status}, "
            f"unsure cells {unsure} of {geo.rows * geo.cols}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("capture").add_argument("out", type=Path)
    sub.add_parser("measure").add_argument("folder", type=Path)
    args = parser.parse_args()
    if args.command == "capture":
        capture(args.out)
    else:
        measure(args.folder)


if __name__ == "__main__":
    main()
