"""Classifying each distinct cell once gives exactly what classifying every cell gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.classify import CellScores, classify
from vision.distinct import classify_distinct
from vision.image_io import load_image
from vision.reader import BoardReader

RECORDINGS = Path(__file__).resolve().parent.parent / "recordings"
CASES = ["xdemineur-expert-1", "sgt-mines-intermediate-1", "minegauler-dense-1"]


def _equal(a: CellScores | None, b: CellScores | None) -> None:
    assert (a is None) == (b is None)
    if a is None or b is None:
        return
    for x, y in zip(
        (a.chars, a.best, a.margin, a.unsure), (b.chars, b.best, b.margin, b.unsure), strict=True
    ):
        assert np.array_equal(x, y)


@pytest.mark.parametrize("name", CASES)
def test_distinct_cells_read_as_every_cell(name: str) -> None:
    frames = sorted((RECORDINGS / name / "frames").glob("*.png"))
    reader = BoardReader()
    for path in frames:
        image = load_image(path)
        located = reader.locate(image)
        geo, bank = located.geometry, located.bank
        # The located grid, and grids a pixel or a half pixel off (the latter
        # are not whole-pixel grids: left to `classify` itself).
        for dx, dy in ((0, 0), (1, -1), (0.5, 0)):
            moved = geo.shifted(dx, dy)
            _equal(classify_distinct(image, moved, bank), classify(image, moved, bank))


def test_a_cell_one_pixel_off_its_twins_is_read_on_its_own() -> None:
    """Cells are grouped by all their pixels: a covered cell with one pixel
    painted differs from the other covered cells and gets its own reading."""
    image = load_image(RECORDINGS / "xdemineur-expert-1" / "frames" / "0000.png")
    reader = BoardReader()
    located = reader.locate(image)
    geo, bank = located.geometry, located.bank
    whole = classify(image, geo, bank)
    assert whole is not None
    row, col = map(int, np.argwhere(whole.chars == ".")[0])
    x, y = geo.cell_center(row, col)
    for value in (0, 255):
        painted = image.copy()
        painted[y - 3 : y + 3, x - 3 : x + 3] = value
        _equal(classify_distinct(painted, geo, bank), classify(painted, geo, bank))


def test_a_grid_off_the_picture_is_none() -> None:
    image = load_image(RECORDINGS / "xdemineur-expert-1" / "frames" / "0000.png")
    reader = BoardReader()
    located = reader.locate(image)
    off = located.geometry.shifted(image.shape[1], 0)
    assert classify_distinct(image, off, located.bank) is None
