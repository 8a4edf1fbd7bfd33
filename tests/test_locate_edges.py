"""A board's outer line with one unreadable cell is still part of the board.

The lattice finder sees cells by their flat insides, so a line of numbers and
flags at the board's edge is added by the skin's templates (`locate._grow`).
When one of its cells could not be read (a tooltip over it, a kind at a size
no tile was cut at), the board used to end one line early: the bot would have
played a board with an edge that is not there, where the solver's
"certain" moves are not certain. The whole board must be found, the cell
reported unsure.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.image_io import load_image
from vision.reader import BoardReader

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("cell", [(0, 9), (0, 10), (1, 11), (8, 0), (4, 0), (4, 11)])
def test_a_damaged_cell_on_an_outer_line_keeps_the_whole_board(cell: tuple[int, int]) -> None:
    image = load_image(DATA / "xdemineur_won.png")
    reader = BoardReader()
    whole = reader.locate(image).geometry
    assert (whole.rows, whole.cols) == (9, 12)
    r, c = cell
    x = int(whole.left + (c + 0.5) * whole.cell_w)
    y = int(whole.top + (r + 0.5) * whole.cell_h)
    damaged = image.copy()
    damaged[y - 5 : y + 5, x - 5 : x + 5] = (255, 0, 255)  # a colour of no tile
    located = reader.locate(damaged)
    g = located.geometry
    assert (g.rows, g.cols, g.left, g.top) == (whole.rows, whole.cols, whole.left, whole.top)
    reading = reader.read(damaged, located)
    assert [(u.row, u.col) for u in reading.unknown] == [cell]
    # Every other cell reads as before.
    before = np.array([list(row) for row in reader.read(image, reader.locate(image)).board.rows])
    after = np.array([list(row) for row in reading.board.rows])
    assert int((before != after).sum()) <= 1
