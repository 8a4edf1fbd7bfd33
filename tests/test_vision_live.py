"""Vision against live clones under Xvfb: launch, screenshot, read.

The screenshot is taken in a child process (no mss instance in the test
process, see clones.md) by a few lines of mss of its own, not by msbot's
capture code.
"""

from __future__ import annotations

import os
import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision.reader import BoardReader

pytestmark = pytest.mark.clone


def screenshot(display: str) -> np.ndarray:
    grab = (
        "import sys, mss, mss.tools\n"
        "with mss.MSS() as s:\n"
        "    shot = s.grab(s.monitors[1])\n"
        "    sys.stdout.buffer.write(mss.tools.to_png(shot.rgb, shot.size))\n"
    )
    png = subprocess.run(
        [sys.executable, "-c", grab],
        env=dict(os.environ, DISPLAY=display),
        capture_output=True,
        check=True,
        timeout=30,
    ).stdout
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    return image


@pytest.mark.parametrize(
    ("name", "position", "window_size"),
    [
        ("xdemineur", (333, 217), None),
        ("sgt-mines", (901, 45), None),
        ("minegauler", (57, 480), None),
        ("gnome-mines", (250, 120), None),
        ("gnome-mines", (40, 30), (1010, 816)),
    ],
)
def test_fresh_board_of_each_clone(clone, name: str, position, window_size) -> None:  # type: ignore[no-untyped-def]
    # launch_clone returns once the window is drawn and still (`wait_drawn`).
    running = clone(name, "beginner", position=position, window_size=window_size)
    reading = BoardReader().read_fresh(screenshot(running.display))
    size = running.size
    assert reading.skin == running.spec.skin
    assert (reading.geometry.rows, reading.geometry.cols) == (size.rows, size.cols)
    assert reading.certain
    assert reading.status == "playing"
    assert reading.mines_left == size.mines
    # The board is where the window was put (left/top of the grid inside it).
    assert position[0] <= reading.geometry.left <= position[0] + 120
    assert position[1] <= reading.geometry.top <= position[1] + 260
    if name != "xdemineur":  # xdemineur opens an area by itself
        assert reading.board.count(".") == size.rows * size.cols
