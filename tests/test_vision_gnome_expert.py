"""GNOME Mines expert (30x16 at a fractional 36.26 px pitch): a 6 once read as a
sure 5 there, and the bot lost on a move it called certain.

The frames are real (`msbot play --record` on GNOME Mines under Xvfb, window
region only). As in play, the grid is located on the game's first frame and
kept for the later one. The expected cells were checked by eye on zoomed crops.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.image_io import load_image
from vision.reader import BoardReader

DATA = Path(__file__).parent / "data" / "gnome-expert"

CASES = [
    # (recording, top-left cell of the window, rows of the window as seen by eye)
    ("a", (8, 22), ["134.1", "2FF.2", "3F6.2", "F3.21"]),
    ("b", (1, 19), ["33211", "...33", "..6FF", "4FF43", "F532F"]),
]


@pytest.mark.parametrize(("name", "corner", "expected"), CASES, ids=[c[0] for c in CASES])
def test_late_frame_read_with_the_first_frames_grid(
    name: str, corner: tuple[int, int], expected: list[str]
) -> None:
    reader = BoardReader.for_skin("gnome-mines")
    located = reader.locate(load_image(DATA / f"{name}-first.png"))
    reading = reader.read(load_image(DATA / f"{name}-late.png"), located)
    assert (reading.geometry.rows, reading.geometry.cols) == (16, 30)
    assert reading.certain, reading.unknown
    r0, c0 = corner
    seen = [row[c0 : c0 + len(expected[0])] for row in reading.board.rows[r0 : r0 + len(expected)]]
    assert seen == expected
