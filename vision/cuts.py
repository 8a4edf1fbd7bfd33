"""Where each cell of a board really lies on a picture, to the pixel.

A fitted grid says where cells lie at a fractional pitch; a clone draws them
on whole pixels, its own way (GTK gives the spare pixels to the first cells).
The cuts found here are where a learned skin's tiles were cut, and where the
reader cuts the cells of a board read with such a skin (`edges_nudge`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.geometry import Geometry


def whole_pixel(geo: Geometry) -> bool:
    """Whether the grid's pitch is a whole number of pixels (a fixed-size clone)."""
    return float(geo.cell_w).is_integer() and float(geo.cell_h).is_integer()


@dataclass(frozen=True)
class Cuts:
    """Whole-pixel cell boundaries: cell (r, c) is `image[ys[r]:ys[r + 1], xs[c]:xs[c + 1]]`."""

    xs: np.ndarray
    ys: np.ndarray


#: A line of board pixels whose colour varies less than this (std per channel
#: value) along the board is a gap between tiles.
GAP_STD = 3.0


def _starts(image: np.ndarray, geo: Geometry, axis: int) -> np.ndarray:
    """The whole-pixel starts of the cells along `axis` (1: columns, 0: rows), plus the end.

    A scaled clone draws every tile on whole pixels, so at a pitch of 36.26 px
    its cells are 36 or 37 px apart, and not as `round(left + i * pitch)`
    says: GTK gives the spare pixels to the first cells, which puts the tiles
    up to 3-4 px off any single fitted grid. Cutting on the fitted grid then
    shows one kind at many phases (a kind splits into many clusters). Here
    the starts are fitted to the picture instead: a path of steps of
    floor(pitch) or ceil(pitch) through the strongest colour steps, where a
    step that follows a gap (a line of the board's pixels with one colour all
    along it) counts more, so every cut starts at a tile and not at its gap.
    """
    if axis == 1:
        pitch, count, origin = geo.cell_w, geo.cols, geo.left
        across = (round(geo.top), round(geo.top + geo.height))
        size = image.shape[1]
    else:
        pitch, count, origin = geo.cell_h, geo.rows, geo.top
        across = (round(geo.left), round(geo.left + geo.width))
        size = image.shape[0]
    reach = math.ceil(pitch / 4) + 2
    a = max(1, math.floor(origin) - reach)
    b = min(size, math.ceil(origin + count * pitch) + reach + 1)
    if axis == 1:
        strip = image[across[0] : across[1], a - 1 : b].astype(np.float32)
    else:
        strip = image[a - 1 : b, across[0] : across[1]].astype(np.float32).transpose(1, 0, 2)
    # Index j of these is position a + j (the step between a + j - 1 and a + j).
    step = np.abs(np.diff(strip, axis=1)).sum(axis=2).mean(axis=0)
    gap = strip.std(axis=0).mean(axis=1) < GAP_STD
    score = step / max(float(step.max()), 1e-6) + (gap[:-1] & ~gap[1:])
    n = len(score)
    steps = sorted({math.floor(pitch), math.ceil(pitch)})
    best = np.full(n, -np.inf)
    first = round(origin) - a
    lo, hi = max(0, first - reach), max(0, min(n, first + reach + 1))
    best[lo:hi] = score[lo:hi]
    back = np.zeros((count + 1, n), dtype=np.int64)
    for i in range(1, count + 1):
        new = np.full(n, -np.inf)
        for s in steps:
            if s <= 0 or s >= n:
                continue
            moved = np.full(n, -np.inf)
            moved[s:] = best[:-s]
            take = moved > new
            new[take] = moved[take]
            back[i][take] = s
        # The end of the last cell is no start: it scores nothing.
        best = new + score if i < count else new
    if not np.isfinite(best).any():
        edges = np.rint(origin + np.arange(count + 1) * pitch)
        return np.asarray(edges, dtype=np.int64)
    pos = [int(np.argmax(best))]
    for i in range(count, 0, -1):
        pos.append(pos[-1] - int(back[i][pos[-1]]))
    return np.asarray(pos[::-1], dtype=np.int64) + a


def find_cuts(image: np.ndarray, geo: Geometry) -> Cuts:
    """Where each cell of `geo` really lies on `image` (see `_starts`); a whole-pixel
    grid is cut where it says."""
    if whole_pixel(geo):
        xs = np.rint(geo.left + np.arange(geo.cols + 1) * geo.cell_w).astype(np.int64)
        ys = np.rint(geo.top + np.arange(geo.rows + 1) * geo.cell_h).astype(np.int64)
        return Cuts(xs, ys)
    return Cuts(_starts(image, geo, 1), _starts(image, geo, 0))


def edges_nudge(image: np.ndarray, geo: Geometry) -> tuple[np.ndarray, np.ndarray] | None:
    """The `vision.sampling.Nudge` that makes the reader cut every cell of `geo`
    where `find_cuts` finds it on `image`, as a learned skin's tiles were cut
    (None: a whole-pixel grid, cut where it says).

    A clone drawn at a fractional pitch (GNOME Mines at 16x16: 36.96 px,
    cells 37 or 36 px apart) is up to a few pixels off the grid's rounded
    edges; a tile cut on the real edges and a cell cut a pixel or two off
    them are hundreds apart where the gap between tiles moves into the cell,
    and every cell of a learned skin read unsure."""
    if whole_pixel(geo):
        return None
    cuts = find_cuts(image, geo)
    moves = []
    for found, start, pitch in ((cuts.xs, geo.left, geo.cell_w), (cuts.ys, geo.top, geo.cell_h)):
        rounded = np.rint(start + np.arange(len(found)) * pitch).astype(np.int64)
        moves.append(np.stack([found[:-1] - rounded[:-1], found[1:] - rounded[1:]], axis=1))
    return moves[0], moves[1]
