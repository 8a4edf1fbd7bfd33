"""`vision.tile_search` on a real fresh xbomb board (tests/data/flag-counter/xbomb,
all covered): its checkerboard tiles have no flat inside, so the lattice finder
sees no grid, and the covered tile itself finds it."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from vision.image_io import load_image
from vision.lattice import find_lattices
from vision.tile_search import covered_lattice

DATA = Path(__file__).resolve().parent / "data" / "flag-counter" / "xbomb"


def _skin(image: np.ndarray, geo: dict[str, Any]) -> Any:
    """What `covered_lattice` reads of a skin: its covered tile and pitch (here
    cut from the frame at one cell, as learning cuts it)."""
    x, y = int(geo["left"]) + 4 * geo["cell_w"], int(geo["top"]) + 3 * geo["cell_h"]
    tile = image[y : y + geo["cell_h"], x : x + geo["cell_w"]].copy()
    return SimpleNamespace(tiles={".": (tile,)}, pitch=(float(geo["cell_w"]), float(geo["cell_h"])))


def test_a_fresh_textured_board_is_found_by_its_covered_tile() -> None:
    image = load_image(DATA / "00-00flags.png")
    geo = json.loads((DATA / "board.json").read_text())["geometry"]
    # No flat tile: no lattice of the board's size.
    assert not any(lat.geometry.rows * lat.geometry.cols >= 64 for lat in find_lattices(image))
    found = covered_lattice(image, _skin(image, geo))
    assert found is not None
    g = found.geometry
    assert (g.rows, g.cols) == (geo["rows"], geo["cols"]) and found.found == 64
    assert abs(g.left - geo["left"]) <= 1 and abs(g.top - geo["top"]) <= 1


def test_no_grid_where_the_tile_is_not() -> None:
    image = load_image(DATA / "00-00flags.png")
    geo = json.loads((DATA / "board.json").read_text())["geometry"]
    skin = _skin(image, geo)
    blank = np.zeros_like(image)
    assert covered_lattice(blank, skin) is None
    # A few covered tiles alone (fewer than a row) are no grid either.
    few = blank.copy()
    few[29:129, 6:106] = image[29:129, 6:106]
    assert covered_lattice(few, skin) is None
