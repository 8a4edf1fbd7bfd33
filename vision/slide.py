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
MAX_REACH = 16
#: The share of the earlier picture's edge pixels that must line up again at
#: the offset found, and by how much more than where the board was.
LEAST_FIT, LEAST_GAIN = 0.75, 0.2
#: Most edge pixels compared at each offset.
MAX_POINTS = 4000
#: Edge pixels in the ring around the board (its frame, a cell wide) that let
#: it be looked for up to a cell away: they line up at the offset found too.
RING_POINTS = 40
#: Offsets whose share lining up is within this of the best are aliases the
#: ring chooses between.
ALIASES = 0.05


def slid(
    before: np.ndarray, now: np.ndarray, geo: Geometry, reach: int | None = None
) -> tuple[int, int] | None:
    """The offset (dx, dy) by which the board `geo` (in both pictures' pixels)
    and a cell's width around it slid from `before` to `now`, or None when it
    did not slide (or the pictures do not say). At most half a cell, and
    `MAX_REACH` pixels (or `reach`), either way; up to a cell less a pixel
    where the ring around the board has edges of its own (`RING_POINTS`).

    Only the pixels on an edge in `before` are compared (a plain background
    matches at any offset and says nothing): at the right offset most of
    them line up again (`LEAST_FIT`), many more than where the board was
    (`LEAST_GAIN`): a click changes a few cells, never the edges of all.
    Cells alike repeat at every cell's width, a dithered pattern at every
    few pixels: the edges in the ring around the board (its frame), which
    no such offset lines up, must line up too (zoo seed 943047310's board
    moved 10 px, its 15 px dithered cells lined up at -5)."""
    if before.shape != now.shape:
        return None
    cell = int(min(geo.cell_w, geo.cell_h))
    wide = int(min(MAX_REACH if reach is None else reach, cell - 1))
    if wide < 1:
        return None
    height, width = before.shape[:2]
    x0 = max(wide, int(geo.left - geo.cell_w))
    y0 = max(wide, int(geo.top - geo.cell_h))
    x1 = min(width - wide, int(geo.left + geo.width + geo.cell_w))
    y1 = min(height - wide, int(geo.top + geo.height + geo.cell_h))
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
    ring = ~(
        (xs + x0 >= geo.left)
        & (xs + x0 < geo.left + geo.width)
        & (ys + y0 >= geo.top)
        & (ys + y0 < geo.top + geo.height)
    )
    framed = int(ring.sum()) >= RING_POINTS
    reach = wide if framed else min(wide, cell // 2)
    if reach < 1:
        return None
    then = was[ys, xs]
    fit, ring_fit = {}, {}
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            there = now[ys + y0 + dy, xs + x0 + dx].astype(np.int16)
            alike = np.abs(there - then).max(axis=1) <= ALIKE
            fit[(dx, dy)] = float(alike.mean())
            ring_fit[(dx, dy)] = float(alike[ring].mean()) if framed else 0.0
    top = max(fit.values())
    # Offsets that line up about as well as the best (aliases of one another):
    # the ring's edges choose (a label beside the board, in the ring, may have
    # changed: they need not all line up).
    alike_best = [offset for offset, value in fit.items() if value >= top - ALIASES]
    best = max(alike_best, key=lambda offset: (ring_fit[offset], fit[offset]))
    if best == (0, 0) or fit[best] < LEAST_FIT or fit[best] - fit[(0, 0)] < LEAST_GAIN:
        return None
    return best
