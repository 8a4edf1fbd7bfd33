"""Cut every cell of a scaled board into a patch with one `cv2.remap`.

A scaled skin (GNOME Mines) draws its cells on whole pixels at a pitch that
is not an integer (36.25 px: cells 36 or 37 px wide), and each cell must be
compared on its own whole-pixel edges (see `vision.classify.board_patches`).
Shrinking every column and then every row of cells with its own
`cv2.resize` does that exactly (area averaging), but costs ~5 ms for a 30x16
board, once per read and a dozen times while locating.

Here the inside of each cell (the skin's inset left out) is sampled on a
regular grid of `factor` x `factor` points per patch pixel, each point
interpolated between the four nearest pixels, and each patch pixel is the mean
of its points: one remap and one integer-factor area resize for the whole
board (~1.5 ms). With `factor` >= the source pixels per patch pixel this is
within a fraction of a grey level of the exact area average (recorded GNOME
expert frames: mean difference 0.06, largest 9), so the templates, which are
shrunk by area, still fit. The maps depend only on the grid, so they are
built once per located board and kept by the caller.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.geometry import Geometry

#: Whole-pixel moves of the cells off the grid's rounded edges: per column
#: (x) and per row (y), either one move for both edges of a cell (shape
#: (count,): `vision.classify.fit_nudge`) or a move for each edge (shape
#: (count, 2), low and high: cells cut where the picture shows them,
#: `vision.cuts.edges_nudge`).
Nudge = tuple[np.ndarray, np.ndarray]


def _edges(start: float, pitch: float, count: int, nudge: np.ndarray | None) -> np.ndarray:
    """(count, 2) whole-pixel [low, high) edges of each cell along one axis, moved
    by that axis of a `Nudge`."""
    edges = np.asarray(np.rint(start + np.arange(count + 1) * pitch), dtype=int)
    low, high = edges[:-1], edges[1:]
    if nudge is not None:
        moves = np.asarray(nudge)
        if moves.ndim == 2:
            low, high = low + moves[:, 0], high + moves[:, 1]
        else:
            low, high = low + moves, high + moves
    return np.stack([low, high], axis=1)


def cell_edges(geo: Geometry, nudge: Nudge | None) -> tuple[np.ndarray, np.ndarray]:
    """(cols, 2) and (rows, 2) whole-pixel [low, high) edges of every column and row of cells."""
    return (
        _edges(geo.left, geo.cell_w, geo.cols, None if nudge is None else nudge[0]),
        _edges(geo.top, geo.cell_h, geo.rows, None if nudge is None else nudge[1]),
    )


def _bounds(cols: np.ndarray, rows: np.ndarray) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1): the smallest and largest edges of all cells."""
    return (
        int(cols[:, 0].min()),
        int(rows[:, 0].min()),
        int(cols[:, 1].max()),
        int(rows[:, 1].max()),
    )


def _nudge_key(nudge: Nudge | None) -> bytes:
    if nudge is None:
        return b""
    dx, dy = (np.asarray(n, dtype=np.int64).tobytes() for n in nudge)
    return dx + b"|" + dy


def part_grid(
    geo: Geometry, nudge: Nudge | None, box: tuple[int, int, int, int]
) -> tuple[Geometry, Nudge | None]:
    """The grid and nudge of the cells rows r0:r1 x columns c0:c1 (`box`) of `geo`."""
    r0, r1, c0, c1 = box
    part = geo.part(r0, r1, c0, c1)
    return part, None if nudge is None else (nudge[0][c0:c1], nudge[1][r0:r1])


def is_scaled(geo: Geometry, nudge: Nudge | None) -> bool:
    """Whether cells must be cut on their own edges (a fractional pitch, or nudged),
    rather than by one resize of the whole board."""
    whole = float(geo.cell_w).is_integer() and float(geo.cell_h).is_integer()
    return nudge is not None or not whole


@dataclass(frozen=True)
class CellSampler:
    """The remap maps that put every cell's inside on a regular patch grid."""

    geometry: Geometry
    nudge_key: bytes
    inset: int
    patch: int
    #: Sample points per patch pixel along each axis.
    factor: int
    #: Smallest and largest whole-pixel edges of all cells: (x0, y0, x1, y1).
    bounds: tuple[int, int, int, int]
    #: False when some cell is empty (a degenerate grid): nothing to sample.
    valid: bool
    map1: np.ndarray
    map2: np.ndarray
    #: The float sample positions the maps were converted from, along x (all
    #: columns of cells) and y (all rows), so that the maps of a few cells can
    #: be converted again (`sample_cells`): the conversion is per point.
    xs: np.ndarray
    ys: np.ndarray
    #: What other modules derive from these maps alone (`vision.distinct`), by name.
    derived: dict[str, object] = field(default_factory=dict, init=False, compare=False, repr=False)

    def part(self, geo: Geometry, nudge: Nudge | None, rows: slice, cols: slice) -> CellSampler:
        """The sampler of the cells `rows` x `cols` of this grid (`geo`, `nudge`: theirs).

        Its maps are a slice of these, so it samples exactly the points this
        one does for those cells.
        """
        side = self.patch * self.factor
        ys = slice(rows.start * side, rows.stop * side)
        xs = slice(cols.start * side, cols.stop * side)
        col_edges, row_edges = cell_edges(geo, nudge)
        return replace(
            self,
            geometry=geo,
            nudge_key=_nudge_key(nudge),
            bounds=_bounds(col_edges, row_edges),
            map1=np.ascontiguousarray(self.map1[ys, xs]),
            map2=np.ascontiguousarray(self.map2[ys, xs]),
            xs=self.xs[xs],
            ys=self.ys[ys],
        )

    def fits(self, geo: Geometry, nudge: Nudge | None, inset: int, patch: int) -> bool:
        """Whether these maps were built for this grid (the caller's cache check)."""
        return (
            self.geometry == geo
            and self.nudge_key == _nudge_key(nudge)
            and self.inset == inset
            and self.patch == patch
        )


def make_sampler(geo: Geometry, nudge: Nudge | None, inset: int, patch: int) -> CellSampler:
    """The sampler for `geo` with per-column/row whole-pixel moves `nudge`."""
    full = patch + 2 * inset
    factor = max(1, math.ceil(max(geo.cell_w, geo.cell_h) / full))
    cols, rows = cell_edges(geo, nudge)
    # Sample u of a patch row lies (inset + (u + 0.5) / factor) patch pixels into
    # its cell; remap addresses pixel centres, hence the - 0.5.
    steps = inset + (np.arange(patch * factor) + 0.5) / factor

    def points(edges: np.ndarray) -> np.ndarray:
        width = (edges[:, 1] - edges[:, 0]).astype(np.float64)
        pos = edges[:, :1] + steps[None, :] * (width[:, None] / full) - 0.5
        return np.asarray(pos.reshape(-1), dtype=np.float32)

    xs, ys = points(cols), points(rows)
    map_x = np.ascontiguousarray(np.broadcast_to(xs[None, :], (len(ys), len(xs))))
    map_y = np.ascontiguousarray(np.broadcast_to(ys[:, None], (len(ys), len(xs))))
    map1, map2 = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
    bounds = _bounds(cols, rows)
    valid = bool((cols[:, 1] > cols[:, 0]).all() and (rows[:, 1] > rows[:, 0]).all())
    return CellSampler(
        geo, _nudge_key(nudge), inset, patch, factor, bounds, valid, map1, map2, xs, ys
    )


def sample_patches(image: np.ndarray, sampler: CellSampler) -> np.ndarray | None:
    """(rows*cols, patch*patch*3) float32 patches, or None if the grid leaves the image."""
    geo, patch = sampler.geometry, sampler.patch
    x0, y0, x1, y1 = sampler.bounds
    height, width = image.shape[:2]
    if not sampler.valid or x0 < 0 or y0 < 0 or x1 > width or y1 > height:
        return None
    points = cv2.remap(image, sampler.map1, sampler.map2, cv2.INTER_LINEAR)
    if sampler.factor > 1:
        size = (geo.cols * patch, geo.rows * patch)
        points = cv2.resize(points, size, interpolation=cv2.INTER_AREA)
    cells = points.reshape(geo.rows, patch, geo.cols, patch, -1).transpose(0, 2, 1, 3, 4)
    return np.asarray(cells.reshape(geo.rows * geo.cols, -1), dtype=np.float32)


def sample_cells(image: np.ndarray, sampler: CellSampler, cells: np.ndarray) -> np.ndarray:
    """(len(cells), patch*patch*3) float32: the rows of `sample_patches` for the flat
    (row-major) cell indices `cells` only, each exactly as `sample_patches` makes it.

    The cells' maps are converted from the same float positions (the
    conversion is per point), laid side by side in one row, and remapped and
    shrunk alone: each output pixel of a remap depends only on its own map
    entry, and each patch pixel of an integer-factor area resize only on its
    own factor x factor points. The caller checks that the grid is on the image.
    """
    geo, patch, factor = sampler.geometry, sampler.patch, sampler.factor
    side = patch * factor
    n = len(cells)
    rows, cols = np.divmod(np.asarray(cells, dtype=np.intp), geo.cols)
    steps = np.arange(side)
    map_x = np.empty((side, n, side), dtype=np.float32)
    map_y = np.empty((side, n, side), dtype=np.float32)
    map_x[:] = sampler.xs[cols[:, None] * side + steps[None, :]][None, :, :]
    map_y[:] = sampler.ys[rows[None, :] * side + steps[:, None]][:, :, None]
    map1, map2 = cv2.convertMaps(
        map_x.reshape(side, n * side), map_y.reshape(side, n * side), cv2.CV_16SC2
    )
    points = cv2.remap(image, map1, map2, cv2.INTER_LINEAR)
    if factor > 1:
        points = cv2.resize(points, (n * patch, patch), interpolation=cv2.INTER_AREA)
    cells_out = points.reshape(patch, n, patch, -1).transpose(1, 0, 2, 3)
    return np.asarray(cells_out.reshape(n, -1), dtype=np.float32)
