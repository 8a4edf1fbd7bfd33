"""How far a board slid as a whole between two grabs of its region.

A label beside a board that grows by a digit ("9 left" to "10 left") can move
the board a pixel or two within its window. A skin still being learned cannot
locate the board afresh (it reads too few of its pictures), and read where it
was, every cell then differs from its last picture: a learner that takes
each changed cell for one its click opened names the whole board open (zoo
seed 1583660616: 48 covered cells named open, the next click on a mine).
The picture itself says how far it slid: the board's edges (its cells'
outlines, its lines) line up again at one offset, whatever the click opened.
"""

from __future__ import annotations

import numpy as np

from vision.geometry import Geometry

#: Colour difference (per channel, 0-255) below which two pixels are alike.
ALIKE = 12
#: Most pixels a board is looked for away from where it was.
MAX_REACH = 8
#: The share of the earlier picture's edge pixels that must line up again at
#: the offset found, and by how much more than where the board was.
LEAST_FIT, LEAST_GAIN = 0.75, 0.2
#: Most edge pixels compared at each offset.
MAX_POINTS = 4000


def slid(
    before: np.ndarray, now: np.ndarray, geo: Geometry, reach: int | None = None
) -> tuple[int, int] | None:
    """The offset (dx, dy) by which the board `geo` (in both pictures' pixels)
    and a cell's width around it slid from `before` to `now`, or None when it
    did not slide (or the pictures do not say). At most half a cell, and
    `MAX_REACH` pixels (or `reach`), either way.

    Only the pixels on an edge in `before` are compared (a plain background
    matches at any offset and says nothing): at the right offset most of
    them line up again (`LEAST_FIT`), many more than where the board was
    (`LEAST_GAIN`): a click changes a few cells, never the edges of all."""
    reach = int(min(MAX_REACH if reach is None else reach, geo.cell_w // 2, geo.cell_h // 2))
    if reach < 1 or before.shape != now.shape:
        return None
    height, width = before.shape[:2]
    x0 = max(reach, int(geo.left - geo.cell_w))
    y0 = max(reach, int(geo.top - geo.cell_h))
    x1 = min(width - reach, int(geo.left + geo.width + geo.cell_w))
    y1 = min(height - reach, int(geo.top + geo.height + geo.cell_h))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    was = before[y0:y1, x0:x1].astype(np.int16)
    edges = np.zeros(was.shape[:2], dtype=bool)
    edges[:, 1:] |= np.abs(np.diff(was, axis=1)).max(axis=2) > ALIKE
    edges[1:, :] |= np.abs(np.diff(was, axis=0)).max(axis=2) > ALIKE
    ys, xs = np.nonzero(edges)
    if len(ys) == 0:
        return None
    step = -(-len(ys) // MAX_POINTS)  # every step-th edge pixel: a sample spread over all
    ys, xs = ys[::step], xs[::step]
    then = was[ys, xs]
    fit = {}
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            there = now[ys + y0 + dy, xs + x0 + dx].astype(np.int16)
            fit[(dx, dy)] = float((np.abs(there - then).max(axis=1) <= ALIKE).mean())
    best = max(fit, key=lambda offset: fit[offset])
    if best == (0, 0) or fit[best] < LEAST_FIT or fit[best] - fit[(0, 0)] < LEAST_GAIN:
        return None
    return best
