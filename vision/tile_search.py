"""A fresh board whose covered tiles are not flat: found by its covered tile itself.

`vision.lattice` finds a board from its tiles' flat insides. Some clones draw
their covered cells textured (xbomb: a one-pixel checkerboard), so a fresh
board, all covered, shows no flat tile at all and no lattice. A skin that
knows its covered tile and its border (a learned one) can still find it: the
covered tile is matched over the whole picture (one `cv2.matchTemplate`), the
places where it matches almost exactly and that sit on one grid of the
skin's pitch make a lattice. `vision.locate` then reads and checks it as any
other: the border must close it, the tiles must read as the skin's.
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.board import COVERED
from vision.geometry import Geometry
from vision.lattice import Lattice
from vision.skin import Skin

#: TM_SQDIFF_NORMED below which a place shows the covered tile itself.
MATCH = 0.02
#: Covered tiles a grid needs (a row of a fresh beginner board has 8 or 9).
MIN_TILES = 8


def covered_lattice(image: np.ndarray, skin: Skin) -> Lattice | None:
    """The grid of the skin's covered tiles in `image`, or None if fewer than
    MIN_TILES match on one grid."""
    tiles = skin.tiles.get(COVERED, ())
    if not tiles:
        return None
    tile = tiles[0]
    th, tw = tile.shape[:2]
    if image.shape[0] < th or image.shape[1] < tw:
        return None
    scores = cv2.matchTemplate(image, tile, cv2.TM_SQDIFF_NORMED)
    ys, xs = np.nonzero(scores < MATCH)
    if len(xs) < MIN_TILES:
        return None
    pw, ph = skin.pitch
    # The grid: every match a whole number of pitches from the best one (within
    # a fifth of a cell: a pitch measured in fractions of a pixel drifts).
    best = int(np.argmin(scores[ys, xs]))
    u, v = (xs - xs[best]) / pw, (ys - ys[best]) / ph
    on = (np.abs(u - np.round(u)) < 0.2) & (np.abs(v - np.round(v)) < 0.2)
    # One match per cell: the best of the places that round to it.
    cells: dict[tuple[int, int], tuple[float, int]] = {}
    for i in np.flatnonzero(on):
        key = (round(float(u[i])), round(float(v[i])))
        score = float(scores[ys[i], xs[i]])
        if key not in cells or score < cells[key][0]:
            cells[key] = (score, int(i))
    keep = np.array([i for _, i in cells.values()], dtype=int)
    xs, ys = xs[keep], ys[keep]
    if len(xs) < MIN_TILES:
        return None
    left, top = float(xs.min()), float(ys.min())
    cols = round(float(xs.max() - xs.min()) / pw) + 1
    rows = round(float(ys.max() - ys.min()) / ph) + 1
    geometry = Geometry(left, top, float(pw), float(ph), rows, cols)
    centres = np.column_stack([xs + tw / 2, ys + th / 2]).astype(np.float64)
    return Lattice(geometry, len(xs), False, centres)
