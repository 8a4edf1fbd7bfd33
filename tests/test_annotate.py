"""The annotated picture (`msbot replay --annotate`, `msbot play --dry-run --annotate`):
one drawing, checked on its pixels and on the pure helpers behind it."""

from __future__ import annotations

import numpy as np

from bot.board import parse_board
from vision.annotate import (
    FLAG,
    GUESS,
    OPEN,
    Mark,
    annotate,
    heat,
    interior_probability,
    marks_from_actions,
)
from vision.geometry import Geometry
from vision.reading import Reading

GEO = Geometry(100, 80, 20, 20, 3, 4)
READING = Reading("xdemineur", GEO, parse_board("1...\n1...\n11..\n"), 3, "playing")
PROBS: tuple[tuple[float | None, ...], ...] = (
    (None, 0.0, 0.5, 0.5),
    (None, 1.0, 0.5, 0.5),
    (None, None, 0.25, 0.5),
)


def grey_screen(width: int = 800, height: int = 600) -> np.ndarray:
    return np.full((height, width, 3), 180, np.uint8)


def cell_pixels(picture: np.ndarray, full: np.ndarray, row: int, col: int) -> np.ndarray:
    """The pixels of cell (row, col) in an annotated picture of `full`, found by
    the scale and crop the picture must have used (board at the bottom)."""
    scale = round(44 / 20)
    board_h = picture.shape[0]
    # The enlarged crop is the bottom part; its top-left is the crop's top-left.
    crop_top = GEO.top - 4 * GEO.cell_h
    crop_left = GEO.left - 2 * GEO.cell_w
    crop_h = (GEO.top + GEO.height + 2 * GEO.cell_h) - crop_top + 1
    top = board_h - round(crop_h * scale)
    y0 = top + round((GEO.top + row * GEO.cell_h - crop_top) * scale)
    x0 = round((GEO.left + col * GEO.cell_w - crop_left) * scale)
    size = round(GEO.cell_w * scale)
    cell: np.ndarray = picture[y0 : y0 + size, x0 : x0 + size]
    return cell


def has_colour(pixels: np.ndarray, colour: tuple[int, int, int], tol: int = 30) -> bool:
    return bool((np.abs(pixels.astype(int) - np.array(colour)).max(axis=2) <= tol).any())


def test_clicks_are_drawn_on_their_cells_and_a_guess_looks_different() -> None:
    full = grey_screen()
    marks = [Mark("open", 0, 1, True, 0.0), Mark("flag", 1, 1, True, 1.0)]
    marks.append(Mark("open", 2, 2, False, 0.25))
    picture = annotate(full, READING, PROBS, marks)
    opened, flagged, guessed = (
        cell_pixels(picture, full, r, c) for r, c in [(0, 1), (1, 1), (2, 2)]
    )
    assert has_colour(opened, OPEN) and not has_colour(opened, GUESS)
    assert has_colour(flagged, FLAG) and not has_colour(flagged, OPEN)
    assert has_colour(guessed, GUESS) and not has_colour(guessed, OPEN)
    # A cell without a click carries none of the click colours.
    quiet = cell_pixels(picture, full, 0, 3)
    assert not any(has_colour(quiet, c, 10) for c in (OPEN, FLAG, GUESS))


def test_the_picture_is_cropped_to_the_board_enlarged_with_a_legend_above() -> None:
    full = grey_screen(1600, 1000)
    picture = annotate(full, READING, PROBS)
    # Board 80x60 px, two cells around and four above, enlarged twice: far
    # smaller than the screen, but the legend is at least 720 px wide.
    assert picture.shape[1] == 720
    assert picture.shape[0] < 600
    # The legend panel is white above the board picture.
    assert (picture[:5, :, :] == 255).all()
    whole = annotate(full[:300, :400], READING, PROBS, crop=False)
    assert whole.shape[1] == max(720, 400 * 2)


def test_a_play_region_picture_is_drawn_where_the_screen_reading_says() -> None:
    """Dry run: the image is the window region at screen (left, top); the reading
    is in screen pixels. Drawn with the offset, the marks land on the same cells."""
    full = grey_screen()
    full[70:150, 90:190] = (40, 90, 140)  # something to see, around the board
    region = full[0:400, 40:500].copy()  # the window region: crop box included
    marks = [Mark("flag", 1, 1, True, 1.0)]
    screen = annotate(full, READING, PROBS, marks)
    windowed = annotate(region, READING, PROBS, marks, offset=(40, 0))
    assert np.array_equal(screen, windowed)


def test_replay_actions_become_marks_certain_unless_their_cell_is_undecided() -> None:
    actions = [
        {"action": "open", "row": 0, "col": 1, "x": 130, "y": 90},
        {"action": "open", "x": 150, "y": 130},  # no row/col: found from x/y
        {"action": "flag", "x": 5, "y": 5},  # off the board: dropped
    ]
    marks = marks_from_actions(actions, GEO, PROBS)
    assert marks == [Mark("open", 0, 1, True, 0.0), Mark("open", 2, 2, False, 0.25)]
    assert marks_from_actions([{**actions[1], "certain": True}], GEO, PROBS)[0].certain


def test_the_shared_interior_chance_is_named_once_not_written_everywhere() -> None:
    many = ((0.5,) * 8, (0.2, 0.0, 1.0, None, 0.5, 0.5, 0.5, 0.5))
    assert interior_probability(many) == 0.5
    assert interior_probability(PROBS) is None  # 0.5 only 5 times: every number is written
    assert interior_probability(None) is None


def test_heat_goes_from_green_to_red() -> None:
    assert heat(0.0) == (0, 255, 0) and heat(1.0) == (0, 0, 255)
    assert heat(0.5) == (0, 255, 255) and heat(2.0) == heat(1.0)
