"""minegauler 4.2 (PyQt 6.11) draws its counter in a bolder font than the recordings'.

Real frames of a fresh beginner board after 0 to 10 flags placed with right
clicks (`xdotool click 3`): the counter must read 10 down to 0 with the
built-in skin, every digit once at least.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.image_io import load_image
from vision.reader import BoardReader

FRAMES = sorted((Path(__file__).parent / "data" / "minegauler-4.2-counter").glob("*.png"))


@pytest.mark.parametrize("frame", FRAMES, ids=[f.stem for f in FRAMES])
def test_the_bold_counter_reads_mines_left(frame: Path) -> None:
    flags = int(frame.stem.split("-")[1])
    reading = BoardReader().read_fresh(load_image(frame))
    assert reading.skin == "minegauler"
    assert reading.board.count("F") == flags
    assert reading.mines_left == 10 - flags


def test_every_digit_is_shown() -> None:
    assert len(FRAMES) == 11
