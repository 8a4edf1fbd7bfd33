"""Find regular grids of tiles in a screenshot without knowing the skin.

Every Minesweeper clone draws its cells as tiles whose inside is flat (one
colour: the face of a covered button, the background of an open cell) and
whose borders are lines, bevels or gaps of another colour. So the flat regions
of a screenshot that are roughly square and arranged at a constant pitch in
both directions are the cells of a board. This finds them with one
connected-components pass (a few ms for a full screen) and fits the grid with
least squares, so fractional and slightly uneven pitches (GNOME Mines scales
its cells with the window) come out right. No template is needed, which is
what lets the same code locate boards of any skin (and learn new ones).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.geometry import Geometry

#: Tile insides smaller than this (pixels) are not cells; nor are ones larger
#: than MAX_TILE unless the caller admits larger (`find_lattices`' max_tile:
#: the largest pitch a skin may be shown at, its desktop scale included).
MIN_TILE = 6
MAX_TILE = 160
#: Cells a one-row (or one-column) board needs to count as a grid.
MIN_LINE = 4
#: Colour step (per channel) that separates two flat regions.
FLAT_STEP = 6


@dataclass(frozen=True)
class Lattice:
    """A grid found in an image, and how many of its cells were seen as tiles."""

    geometry: Geometry
    found: int
    #: True when a partial tile continues the grid up to the image border.
    cut: bool
    #: The centres (x, y) of the tiles seen on it: where a board read on part of
    #: the grid would have more tiles beside it (`vision.locate`).
    centres: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)), compare=False, repr=False)


#: Rows or columns out from a side where `tiles_beside` looks for more tiles.
BESIDE = 3


#: How far from a cell's centre (a share of the pitch) a tile's centre may lie
#: to count as on the grid, for `tiles_beside`: loosely (a blended grid's tiles
#: found in pieces), or exactly (`ON_LATTICE`).
PHASE = 0.3
ON_LATTICE = 0.1


def tiles_beside(grid: Geometry, lattices: list[Lattice], phase: float = PHASE) -> list[str]:
    """The sides of `grid` (a board read on one of `lattices`) past which the
    same grid of tiles goes on: tiles of the same pitch (within 10 %), centred
    on the grid's own rows and columns, in the BESIDE rows or columns out from
    the side, as many as half the side's cells (two at least: a face or a
    square button beside a small board is no grid). Every lattice counts: a
    grid of blended cells (a screen scaled down) comes out of `find_lattices`
    in pieces, with some of its tiles not seen at all."""
    same = [
        lat.centres
        for lat in lattices
        if abs(lat.geometry.cell_w / grid.cell_w - 1) <= 0.1
        and abs(lat.geometry.cell_h / grid.cell_h - 1) <= 0.1
    ]
    if not same:
        return []
    centres = np.concatenate(same)
    # Position in cells from the grid's top-left corner; on the grid's phase
    # when the fraction is near a half (a cell's centre).
    u = (centres[:, 0] - grid.left) / grid.cell_w
    v = (centres[:, 1] - grid.top) / grid.cell_h
    on = (np.abs(u % 1 - 0.5) < phase) & (np.abs(v % 1 - 0.5) < phase)
    cols, rows = on & (u > 0) & (u < grid.cols), on & (v > 0) & (v < grid.rows)
    near = {
        "top": cols & (v < 0) & (v > -BESIDE),
        "bottom": cols & (v > grid.rows) & (v < grid.rows + BESIDE),
        "left": rows & (u < 0) & (u > -BESIDE),
        "right": rows & (u > grid.cols) & (u < grid.cols + BESIDE),
    }
    length = {"top": grid.cols, "bottom": grid.cols, "left": grid.rows, "right": grid.rows}
    return [side for side, at in near.items() if at.sum() >= max(2, length[side] / 2)]


def flat_mask(image: np.ndarray, step: int = FLAT_STEP) -> np.ndarray:
    """Pixels whose 4-neighbourhood spans at most `step` in every channel, as 0/1."""
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    spread = cv2.morphologyEx(image, cv2.MORPH_GRADIENT, cross)
    if spread.ndim == 3:
        spread = cv2.max(cv2.max(spread[:, :, 0], spread[:, :, 1]), spread[:, :, 2])
    return (spread <= step).view(np.uint8)


def components(image: np.ndarray, max_tile: float = MAX_TILE, step: int = FLAT_STEP) -> np.ndarray:
    """Flat regions (colour steps of at most `step`) of tile-like size (at most
    `max_tile` px), any shape: rows of (x, y, w, h, area)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(flat_mask(image, step), connectivity=4)
    s = stats[1:n]
    w, h = s[:, 2], s[:, 3]
    keep = (w <= max_tile) & (h <= max_tile) & (np.maximum(w, h) >= MIN_TILE)
    return np.asarray(s[keep], dtype=np.float64)


#: Width to height (and height to width) a tile's inside may have at most: the
#: clones msbot has skins for draw square cells; learning and learned skins
#: allow cells up to ASPECT_ANY times wider than tall or taller than wide
#: (clones built of toolkit buttons: 66x48, 34x31 px; tall cells of 24x44 whose
#: inside, lines off, is twice as tall as wide).
ASPECT = 1.25
ASPECT_ANY = 2.2


def squarish(boxes: np.ndarray, aspect: float = ASPECT) -> np.ndarray:
    """The components that can be the inside of a whole tile (no more than
    `aspect` times wider than tall, nor taller than wide)."""
    w, h, area = boxes[:, 2], boxes[:, 3], boxes[:, 4]
    keep = (
        (w >= MIN_TILE)
        & (h >= MIN_TILE)
        & (w <= h * aspect)
        & (h <= w * aspect)
        & (area * 4 >= w * h)
    )
    return np.asarray(boxes[keep])


def tile_boxes(image: np.ndarray) -> np.ndarray:
    """Squarish flat regions of tile size: rows of (x, y, w, h, area)."""
    return squarish(components(image))


#: How many times larger (per axis) a tile's neighbour may be than the tile, or
#: smaller (`_neighbours`, `find_lattices`' link_sizes).
LINK_SIZES = 2.0


def _neighbours(
    centres: np.ndarray, sizes: np.ndarray, axis: int, link_sizes: float | None = LINK_SIZES
) -> np.ndarray:
    """For each tile, the index of the nearest tile after it along `axis`, or -1.

    "Nearest" is within one to 2.6 tile sizes (the inside of a tile is at least
    about half its pitch in every clone) and roughly on the same row/column,
    among the tiles at most `link_sizes` times larger or smaller on both axes
    (None: any size).

    A glyph can split a cell into flat pieces at a pitch of their own:
    minegauler's mine, its spikes a cross, shows four flat quarters, each
    under half as wide as the open cell's inside, from 24 px cells on (GNOME
    Mines' large digits leave flat pieces beside their strokes likewise). Linked to the
    cells, the pieces of a lost board's mines (17 of 81 cells) outvoted
    them: the pitch came out half the cells' on one axis (12 px for 24,
    15 for 32), or pulled a pixel off by the pieces' centres (39.25 for 40),
    and no board was found. Unlinked, they make a lattice of their own that
    no skin reads. Covered and open insides differ less (minegauler's raised
    buttons: about 1.5 times smaller than its open cells), and when they do
    not link, `_merge` joins their groups.
    """
    other = 1 - axis
    da = centres[None, :, axis] - centres[:, None, axis]
    db = np.abs(centres[None, :, other] - centres[:, None, other])
    size = sizes[:, axis][:, None]
    ok = (da > size * 0.9) & (da < size * 2.6) & (db < sizes[:, other][:, None] * 0.3)
    if link_sizes is not None:
        ratio = sizes[None, :, :] / sizes[:, None, :]
        ok &= ((ratio <= link_sizes) & (ratio >= 1 / link_sizes)).all(axis=2)
    da = np.where(ok, da, np.inf)
    best = da.argmin(axis=1)
    return np.where(np.isfinite(da[np.arange(len(da)), best]), best, -1)


def _union_groups(n: int, edges: list[tuple[int, int]]) -> list[list[int]]:
    """Connected groups of tiles given neighbour links (union-find)."""
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in edges:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _mode_pitch(steps: np.ndarray) -> float | None:
    """The most common step (1 px bins), averaged over the steps near it."""
    if len(steps) == 0:
        return None
    mode = int(np.bincount(np.round(steps).astype(int)).argmax())
    near = steps[np.abs(steps - mode) <= max(1.5, mode * 0.06)]
    return float(near.mean())


def _on_phase(values: np.ndarray, pitch: float) -> np.ndarray:
    """Which values lie on the lattice phase most of them share (within a quarter pitch)."""
    phase = (values / pitch) % 1.0
    bins = np.bincount((phase * 8).astype(int) % 8, minlength=8)
    best = (int(bins.argmax()) + 0.5) / 8
    off = (phase - best + 0.5) % 1.0 - 0.5
    centre = best + float(np.median(off[np.abs(off) < 0.2])) if (np.abs(off) < 0.2).any() else best
    dist = np.abs((phase - centre + 0.5) % 1.0 - 0.5)
    return np.asarray(dist < 0.25)


#: Pixels a tile centre may lie off the fitted lattice before the fit is made
#: again without the tiles that far off (see `_fit`).
OFF_LATTICE = 1.5


def _fit(values: np.ndarray, pitch: float, robust: bool = False) -> tuple[float, float, int]:
    """Least-squares start and pitch of centres `values` on an integer lattice.

    `robust`: when some centres lie more than OFF_LATTICE px off the fit (a toolbar of
    cell-like buttons above the board, drawn a pixel or two out of step with
    its cells), the fit is made again on the centres near the median offset:
    the lattice of the most tiles, the board's, not a blend of both."""
    idx = np.round((values - values.min()) / pitch)
    if np.ptp(idx) >= 1:
        slope, intercept = np.polyfit(idx, values, 1)
        off = values - (slope * idx + intercept)
        if robust and np.ptp(off) > OFF_LATTICE:
            near = np.abs(off - np.median(off)) <= OFF_LATTICE / 2
            if near.sum() >= 2 and np.ptp(idx[near]) >= 1:
                slope, intercept = np.polyfit(idx[near], values[near], 1)
    else:
        slope, intercept = pitch, float(values.mean())
    start = intercept - slope / 2
    return float(start), float(slope), int(idx.max()) + 1


def find_lattices(
    image: np.ndarray,
    min_cells: int = 4,
    max_tile: float = MAX_TILE,
    aspect: float = ASPECT,
    robust: bool = False,
    step: int = FLAT_STEP,
    link_sizes: float | None = LINK_SIZES,
) -> list[Lattice]:
    """Every tile grid in `image`, the one with most tiles first (see module docstring).

    `max_tile`: the largest tile inside looked for. A board on a desktop
    scaled for a HiDPI screen has cells that many times larger (GNOME Mines'
    90 px beginner cells at 200 % have 170 px insides, which a fixed limit of
    160 px left out: no board found), so `vision.locate` passes the largest
    pitch its skins may be shown at. `aspect` and `robust`: see `squarish`
    and `_fit` (the live learner's looser and steadier reading); `step`: the
    colour step within a tile's inside (a gradient's steps are larger);
    `link_sizes`: see `_neighbours`.
    """
    parts = components(image, max_tile, step)
    boxes = squarish(parts, aspect)
    if len(boxes) < min_cells:
        return []
    centres = boxes[:, 0:2] + (boxes[:, 2:4] - 1) / 2
    sizes = boxes[:, 2:4]
    right = _neighbours(centres, sizes, 0, link_sizes)
    below = _neighbours(centres, sizes, 1, link_sizes)
    edges = [(i, int(j)) for i, j in enumerate(right) if j >= 0]
    edges += [(i, int(j)) for i, j in enumerate(below) if j >= 0]
    fits: list[np.ndarray] = []
    for group in _union_groups(len(boxes), edges):
        if len(group) < 2:
            continue
        g = np.asarray(group)
        r, b = right[g], below[g]
        pw = _mode_pitch(centres[r[r >= 0], 0] - centres[g[r >= 0], 0])
        ph = _mode_pitch(centres[b[b >= 0], 1] - centres[g[b >= 0], 1])
        # A board one cell high (or wide) shows no pitch across: cells are square.
        pw, ph = (pw if pw is not None else ph), (ph if ph is not None else pw)
        if pw is None or ph is None:
            continue
        c = centres[g]
        # Keep only tiles that sit on the lattice (drop stray flat regions).
        on = _on_phase(c[:, 0], pw) & _on_phase(c[:, 1], ph)
        fits.append(np.column_stack([c[on], np.full(on.sum(), pw), np.full(on.sum(), ph)]))
    found: list[Lattice] = []
    for part in _merge(fits):
        if len(part) < min_cells:
            continue
        pw, ph = float(np.median(part[:, 2])), float(np.median(part[:, 3]))
        left, cw, cols = _fit(part[:, 0], pw, robust)
        top, ch, rows = _fit(part[:, 1], ph, robust)
        if min(rows, cols) < 1 or max(rows, cols) < MIN_LINE or rows * cols < min_cells:
            continue
        geo = Geometry(left, top, cw, ch, rows, cols)
        cut = _is_cut(parts, geo, image.shape)
        found.append(Lattice(geo, len(part), cut, np.asarray(part[:, 0:2], np.float64)))
    found.sort(key=lambda lat: -lat.found)
    return found


def _merge(parts: list[np.ndarray]) -> list[np.ndarray]:
    """Join tile groups that are pieces of one grid (same pitch, same phase, touching).

    Covered and open tiles have insides of different sizes, so a board can come
    out of the neighbour linking as several groups; they belong together when
    one lattice explains them all. Each group's medians and extent are computed
    once per version of the group (`_Extent`): the pairs are compared over and
    over as groups merge, and recomputing them there took a third of the time
    of locating a board.
    """
    parts = [p for p in parts if len(p)]
    extents = [_Extent.of(p) for p in parts]
    merged = True
    while merged:
        merged = False
        for i in range(len(parts)):
            for j in range(i + 1, len(parts)):
                if extents[i].same_grid(extents[j]):
                    parts[i] = np.vstack([parts[i], parts[j]])
                    extents[i] = _Extent.of(parts[i])
                    del parts[j], extents[j]
                    merged = True
                    break
            if merged:
                break
    return parts


@dataclass(frozen=True)
class _Extent:
    """What `_merge` compares of a tile group: median pitch, median centre and
    the span of centres, per axis (x, y)."""

    pitch: tuple[float, float]
    centre: tuple[float, float]
    low: tuple[float, float]
    high: tuple[float, float]

    @staticmethod
    def of(part: np.ndarray) -> _Extent:
        med = np.median(part, axis=0)
        low, high = part[:, 0:2].min(axis=0), part[:, 0:2].max(axis=0)
        return _Extent(
            (float(med[2]), float(med[3])),
            (float(med[0]), float(med[1])),
            (float(low[0]), float(low[1])),
            (float(high[0]), float(high[1])),
        )

    def same_grid(self, other: _Extent) -> bool:
        """Same pitch (within 4 %), same phase (within a quarter of a cell) and
        at most about three cells apart, on both axes."""
        for axis in (0, 1):
            pitch = self.pitch[axis]
            if abs(pitch - other.pitch[axis]) > 0.04 * pitch:
                return False
        for axis in (0, 1):
            pitch = self.pitch[axis]
            off = (other.centre[axis] - self.centre[axis]) / pitch
            if abs(off - round(off)) > 0.25:
                return False
            gap = max(self.low[axis] - other.high[axis], other.low[axis] - self.high[axis])
            if gap > pitch * 3.2:
                return False
        return True


def _is_cut(parts: np.ndarray, geo: Geometry, shape: tuple[int, ...]) -> bool:
    """True when the grid reaches the image border or a partial tile continues it there.

    A partial tile is a flat region touching the border, next to the grid, as
    long as a tile along the border and shorter (but not much) across it.
    """
    height, width = shape[:2]
    right = geo.left + geo.width
    bottom = geo.top + geo.height
    if geo.left < 1 or geo.top < 1 or right > width - 1 or bottom > height - 1:
        return True
    x, y, w, h = parts[:, 0], parts[:, 1], parts[:, 2], parts[:, 3]
    cx, cy = x + w / 2, y + h / 2
    pw, ph = geo.cell_w, geo.cell_h
    in_rows = (cy > geo.top) & (cy < bottom) & (h >= 0.4 * ph) & (h <= 1.05 * ph)
    in_cols = (cx > geo.left) & (cx < right) & (w >= 0.4 * pw) & (w <= 1.05 * pw)
    left_cut = (x <= 0) & in_rows & (geo.left < 1.5 * pw) & (w < pw)
    right_cut = (x + w >= width) & in_rows & (width - right < 1.5 * pw) & (w < pw)
    top_cut = (y <= 0) & in_cols & (geo.top < 1.5 * ph) & (h < ph)
    bottom_cut = (y + h >= height) & in_cols & (height - bottom < 1.5 * ph) & (h < ph)
    return bool((left_cut | right_cut | top_cut | bottom_cut).any())
