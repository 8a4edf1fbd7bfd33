"""A board is closed by its border on every side, or it is no board (`vision.border`).

Synthetic pictures: a grid of grey cells in a dark frame on a light window.
"""

from __future__ import annotations

import numpy as np

from vision.border import learn_border, open_sides
from vision.geometry import Geometry

GEO = Geometry(left=40, top=30, cell_w=16, cell_h=16, rows=6, cols=8)


def picture(frame: tuple[int, int, int] = (60, 60, 60)) -> np.ndarray:
    image = np.full((200, 240, 3), 230, np.uint8)
    x0, y0 = int(GEO.left), int(GEO.top)
    x1, y1 = x0 + int(GEO.width), y0 + int(GEO.height)
    image[y0 - 6 : y1 + 6, x0 - 6 : x1 + 6] = frame
    image[y0:y1, x0:x1] = 190
    image[y0:y1:16, x0:x1] = 120  # grid lines
    image[y0:y1, x0:x1:16] = 120
    return image


def test_a_whole_board_is_closed_and_a_covered_edge_is_named() -> None:
    border = learn_border(picture(), GEO)
    assert border is not None
    assert open_sides(picture(), GEO, border) == []
    hidden = picture()
    hidden[int(GEO.top) + 60 :, :] = 255  # a white box over the last rows and the frame
    assert open_sides(hidden, GEO, border) == ["bottom", "left", "right"]


def test_a_grid_one_row_short_is_not_closed() -> None:
    border = learn_border(picture(), GEO)
    assert border is not None
    short = Geometry(GEO.left, GEO.top, GEO.cell_w, GEO.cell_h, GEO.rows - 1, GEO.cols)
    assert "bottom" in open_sides(picture(), short, border)


def test_a_frame_seen_around_the_finished_board_becomes_a_variant() -> None:
    border = learn_border(picture(), GEO)
    green = learn_border(picture((40, 160, 40)), GEO)
    assert border is not None and green is not None
    assert set(open_sides(picture((40, 160, 40)), GEO, border)) == {
        "top",
        "bottom",
        "left",
        "right",
    }
    both = border.with_variant(green)
    assert open_sides(picture((40, 160, 40)), GEO, both) == []
    assert open_sides(picture(), GEO, both) == []
    # The same bands again add nothing.
    assert both.with_variant(green) is both
