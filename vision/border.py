"""What a clone draws around its board: a board is found whole or not at all.

A grid of cells says nothing about where the board ends: a row hidden by
another window, or drawn in a look the skin has not learned, leaves a grid
one row short that reads as a whole, smaller board, and the solver then
proves "certain" cells of a board that is not there. So a skin may describe
its board's surroundings: on each side, the band of pixels just outside the
outer cells (a frame, a margin, the window's background), as the clone drew
it on a fresh board. A located grid is a whole board only when the band
outside it on every side is that band: one row short, the band outside the
grid is a row of cells; cut by the screen edge, there is no band at all.

Bands are compared resampled along the side (boards of other sizes have
longer sides) as the mean squared difference per colour value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import Geometry

SIDES = ("top", "bottom", "left", "right")
#: Points a band is resampled to along its side.
ALONG = 32
#: A band this close to the skin's is the same surroundings; the bands of one
#: clone's fresh boards differ by a few units, a band of cells by thousands.
LIMIT = 300.0


@dataclass(frozen=True)
class Border:
    """The bands around a board, one per side: (ALONG, thickness, 3) float32."""

    thickness: int
    bands: Mapping[str, np.ndarray]
    limit: float = LIMIT
    #: Other bands a side may show, each seen around the same board in play: a
    #: clone that frames its finished board otherwise (xbomb draws it in green).
    more: tuple[Mapping[str, np.ndarray], ...] = ()

    def with_variant(self, other: Border) -> Border:
        """This border plus the sides of `other` that differ from every known band
        (`other` must come from the same board, seen whole)."""
        new = {
            side: b
            for side, b in other.bands.items()
            if not any(_close(b, known, self.limit) for known in self.choices(side))
        }
        if not new or other.thickness != self.thickness:
            return self
        return Border(self.thickness, self.bands, self.limit, (*self.more, new))

    def choices(self, side: str) -> list[np.ndarray]:
        """Every band known for `side`."""
        return [self.bands[side], *(m[side] for m in self.more if side in m)]


def _close(a: np.ndarray, b: np.ndarray, limit: float) -> bool:
    return a.shape == b.shape and float(((a - b) ** 2).mean()) <= limit


def thickness_for(geo: Geometry) -> int:
    """Band thickness for a board of these cells: a sixth of a cell, 2 px at least."""
    return int(max(2, round(min(geo.cell_w, geo.cell_h) / 6)))


def band(image: np.ndarray, geo: Geometry, side: str, thickness: int) -> np.ndarray | None:
    """The band of `side` (None when it leaves the image: a board cut off)."""
    height, width = image.shape[:2]
    x0, y0 = round(geo.left), round(geo.top)
    x1, y1 = round(geo.left + geo.width), round(geo.top + geo.height)
    t = thickness
    boxes = {
        "top": (x0, y0 - t, x1, y0),
        "bottom": (x0, y1, x1, y1 + t),
        "left": (x0 - t, y0, x0, y1),
        "right": (x1, y0, x1 + t, y1),
    }
    bx0, by0, bx1, by1 = boxes[side]
    if bx0 < 0 or by0 < 0 or bx1 > width or by1 > height or bx1 <= bx0 or by1 <= by0:
        return None
    crop = np.asarray(image[by0:by1, bx0:bx1], np.float32)
    if side in ("left", "right"):
        crop = crop.transpose(1, 0, 2)  # along the side first
    # The band is `thickness` rows deep and runs along the side: resample along it.
    return np.asarray(cv2.resize(crop, (ALONG, t), interpolation=cv2.INTER_AREA))


def learn_border(image: np.ndarray, geo: Geometry) -> Border | None:
    """The bands around the board on `image` (a fresh board); None if one leaves it."""
    t = thickness_for(geo)
    bands = {side: band(image, geo, side, t) for side in SIDES}
    if any(b is None for b in bands.values()):
        return None
    return Border(t, {side: b for side, b in bands.items() if b is not None})


def open_sides(image: np.ndarray, geo: Geometry, border: Border) -> list[str]:
    """The sides of `geo` whose band is not the border's (the board goes on, or
    something covers its edge, or the screen cuts it)."""
    out = []
    for side in SIDES:
        now = band(image, geo, side, border.thickness)
        choices = border.choices(side)
        if now is None or not any(_close(now, want, border.limit) for want in choices):
            out.append(side)
    return out
