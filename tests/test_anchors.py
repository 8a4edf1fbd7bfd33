"""`bot.play.anchors`: the corners around a board, checked before each click (a fake
screen of one picture: the check itself is what is tested; the live window
move is in tests/test_play_e2e.py)."""

from __future__ import annotations

import numpy as np

from bot.play.anchors import SIZE, Anchors
from vision.capture import Image, Region, Screen
from vision.geometry import Geometry


class PictureScreen(Screen):
    """A screen that shows one picture (screen coordinates = picture pixels)."""

    def __init__(self, picture: Image) -> None:
        self.picture = picture

    @property
    def size(self) -> tuple[int, int]:
        return self.picture.shape[1], self.picture.shape[0]

    def grab(self, region: Region | None = None) -> Image:
        if region is None:
            return self.picture
        r = region.clipped(*self.size)
        return self.picture[r.top : r.bottom, r.left : r.right]


def desktop_with_board(left: int, top: int) -> Image:
    """A noisy desktop with a grey-framed 9x9 board of 16 px cells at (left, top)."""
    rng = np.random.default_rng(1)
    image = rng.integers(0, 255, (400, 500, 3), dtype=np.uint8)
    image[top - 12 : top + 144 + 12, left - 12 : left + 144 + 12] = (192, 192, 192)
    image[top : top + 144, left : left + 144] = (128, 128, 128)
    return image


GRID = Geometry(100, 80, 16, 16, 9, 9)


def test_the_board_where_it_was_passes_and_a_moved_one_does_not() -> None:
    here = desktop_with_board(100, 80)
    anchors = Anchors.around(here[50:300, 60:300], (60, 50), GRID)  # a grab of a region
    assert len(anchors.patches) == 4
    assert anchors.moved(PictureScreen(here)) is None
    # Cells may change under play: the corners lie outside them.
    played = here.copy()
    played[80:224, 100:244] = (255, 255, 255)
    assert anchors.moved(PictureScreen(played)) is None
    moved = desktop_with_board(250, 150)
    changed = anchors.moved(PictureScreen(moved))
    assert changed is not None and changed.width == SIZE


def test_corners_off_the_grab_are_left_out() -> None:
    here = desktop_with_board(100, 80)
    # A grab that starts at the grid's own corner holds no top-left patch.
    anchors = Anchors.around(here[80:400, 100:500], (100, 80), GRID)
    assert len(anchors.patches) == 1  # only the bottom-right corner is inside it
    assert anchors.moved(PictureScreen(here)) is None
