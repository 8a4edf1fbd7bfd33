"""A board is closed by its border on every side, or it is no board (`vision.border`).

Synthetic pictures: a grid of grey cells in a dark frame on a light window
(a learned border), or in a bevel that scales with the cells (a drawn one,
as a built-in skin describes it); and the recordings' real frames.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.border import DrawnBorder, drawn_border, learn_border
from vision.geometry import Geometry
from vision.image_io import load_image
from vision.reader import BoardReader

RECORDINGS = Path(__file__).resolve().parents[1] / "recordings"

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
    assert border.open_sides(picture(), GEO) == []
    hidden = picture()
    hidden[int(GEO.top) + 60 :, :] = 255  # a white box over the last rows and the frame
    assert border.open_sides(hidden, GEO) == ["bottom", "left", "right"]


def test_a_grid_one_row_short_is_not_closed() -> None:
    border = learn_border(picture(), GEO)
    assert border is not None
    short = Geometry(GEO.left, GEO.top, GEO.cell_w, GEO.cell_h, GEO.rows - 1, GEO.cols)
    assert "bottom" in border.open_sides(picture(), short)


def test_a_frame_seen_around_the_finished_board_becomes_a_variant() -> None:
    border = learn_border(picture(), GEO)
    green = learn_border(picture((40, 160, 40)), GEO)
    assert border is not None and green is not None
    assert set(border.open_sides(picture((40, 160, 40)), GEO)) == {
        "top",
        "bottom",
        "left",
        "right",
    }
    both = border.with_variant(green)
    assert both.open_sides(picture((40, 160, 40)), GEO) == []
    assert both.open_sides(picture(), GEO) == []
    # The same bands again add nothing.
    assert both.with_variant(green) is both


# --- A built-in skin's border, drawn by hand (`DrawnBorder`) -------------------


def framed(cell: int, bevel: int, rows: int = 6, cols: int = 8) -> tuple[np.ndarray, Geometry]:
    """A grid of `cell` px cells in a bevel `bevel` px wide (dark above and left,
    white below and right) on a light grey window, as sgt-mines draws it."""
    geo = Geometry(left=3 * cell, top=3 * cell, cell_w=cell, cell_h=cell, rows=rows, cols=cols)
    x0, y0 = 3 * cell, 3 * cell
    x1, y1 = x0 + cols * cell, y0 + rows * cell
    image = np.full((y1 + 3 * cell, x1 + 3 * cell, 3), 230, np.uint8)
    image[y0 - bevel : y1 + bevel, x0 - bevel : x1 + bevel] = 255
    image[y0 - bevel : y0, x0 - bevel : x1] = 153
    image[y0:y1, x0 - bevel : x0] = 153
    image[y0:y1, x0:x1] = 190
    image[y0:y1:cell, x0:x1] = 120
    image[y0:y1, x0:x1:cell] = 120
    return image, geo


def sgt_like(slack: object = 1) -> DrawnBorder:
    def side(colour: str) -> list[list[dict[str, object]]]:
        return [
            [
                {"from": [0, 0], "to": [0, 0.15], "colour": colour},
                {"from": [1, 0.15], "to": [0, 0.5], "colour": "#e6e6e6"},
            ]
        ]

    return drawn_border(
        {
            "sides": {
                "top": side("#999999"),
                "left": side("#999999"),
                "bottom": side("#ffffff"),
                "right": side("#ffffff"),
            },
            "slack": slack,
        },
        "test",
    )


@pytest.mark.parametrize("cell", [11, 20, 36, 58])
def test_a_border_in_pitches_closes_boards_of_every_tile_size(cell: int) -> None:
    image, geo = framed(cell, int(cell * 0.15))
    assert sgt_like().open_sides(image, geo) == []


@pytest.mark.parametrize("colour", [(255, 255, 255), (0, 0, 0), (230, 230, 230), (153, 153, 153)])
@pytest.mark.parametrize("side", ["top", "bottom", "left", "right"])
def test_a_box_over_an_edge_opens_that_side(side: str, colour: tuple[int, int, int]) -> None:
    image, geo = framed(20, 3)
    x0, y0 = int(geo.left), int(geo.top)
    x1, y1 = int(geo.left + geo.width), int(geo.top + geo.height)
    # The box over the outer row (or column) and everything past it: the grid
    # now found is one row short, the box where its border should be.
    if side == "bottom":
        image[y1 - 20 :, :] = colour
        short = Geometry(geo.left, geo.top, 20, 20, geo.rows - 1, geo.cols)
    elif side == "top":
        image[: y0 + 20, :] = colour
        short = Geometry(geo.left, geo.top + 20, 20, 20, geo.rows - 1, geo.cols)
    elif side == "right":
        image[:, x1 - 20 :] = colour
        short = Geometry(geo.left, geo.top, 20, 20, geo.rows, geo.cols - 1)
    else:
        image[:, : x0 + 20] = colour
        short = Geometry(geo.left + 20, geo.top, 20, 20, geo.rows, geo.cols - 1)
    assert sgt_like().open_sides(image, short) == [side]


def test_a_grid_one_row_short_of_its_border_is_open() -> None:
    image, geo = framed(20, 3)
    short = Geometry(geo.left, geo.top, 20, 20, geo.rows - 1, geo.cols)
    assert sgt_like().open_sides(image, short) == ["bottom"]


def test_the_slack_takes_a_grid_fitted_a_pixel_off_and_no_more() -> None:
    image, geo = framed(20, 3)
    off = Geometry(geo.left + 1, geo.top - 1, 20, 20, geo.rows, geo.cols)
    assert sgt_like(1).open_sides(image, off) == []
    assert sgt_like(0).open_sides(image, off) != []
    far = Geometry(geo.left + 3, geo.top, 20, 20, geo.rows, geo.cols)
    assert "left" in sgt_like(1).open_sides(image, far)


def test_a_picture_cropped_inside_the_border_is_judged_on_what_it_shows() -> None:
    image, geo = framed(20, 3)
    pad = 6  # the bevel and three lines of the window: enough to tell
    x0, y0 = int(geo.left) - pad, int(geo.top) - pad
    x1, y1 = int(geo.left + geo.width) + pad, int(geo.top + geo.height) + pad
    crop = image[y0:y1, x0:x1]
    inside = Geometry(pad, pad, 20, 20, geo.rows, geo.cols)
    assert sgt_like().open_sides(crop, inside) == []
    # Two lines are not enough to tell a border from cells; none at all is a cut.
    tight = image[y0 + 4 : y1 - 4, x0 + 4 : x1 - 4]
    assert set(sgt_like().open_sides(tight, Geometry(2, 2, 20, 20, geo.rows, geo.cols))) == set(
        ("top", "bottom", "left", "right")
    )


def test_a_manifest_border_that_says_too_little_is_refused() -> None:
    with pytest.raises(ValueError, match="exactly top, bottom, left, right"):
        drawn_border({"sides": {"top": []}}, "skin.json")
    span = {"from": 0, "to": 3, "colour": "grey"}
    sides = {s: [[span]] for s in ("top", "bottom", "left", "right")}
    with pytest.raises(ValueError, match="#rrggbb"):
        drawn_border({"sides": sides}, "skin.json")


READER = BoardReader()


@pytest.mark.parametrize("skin", ["xdemineur", "gnome-mines", "sgt-mines", "minegauler"])
def test_every_built_in_skin_closes_its_recorded_boards(skin: str) -> None:
    """A frame of every recording: each located board is closed by its skin's
    border (a border that refused whole boards would stop real games; the fuzz
    benchmark and `test_recordings.py` read every frame)."""
    folders = sorted(RECORDINGS.glob(f"{skin}-*/frames"))
    assert folders
    for folder in folders:
        for frame in sorted(folder.glob("*.png"))[-1:]:  # the last: the most cells open
            image = load_image(frame)
            located = READER.locate(image)
            border = located.skin.border
            assert isinstance(border, DrawnBorder), skin
            assert border.open_sides(image, located.geometry, located.skin.scale) == [], frame
