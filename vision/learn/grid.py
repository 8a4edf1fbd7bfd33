"""Find the board grid of an unknown skin, and cut its cells into comparable patches.

The skin-free lattice finder (`vision.lattice`) already gives pitch, origin,
rows and columns from flat tile insides. Two things are added for learning:
the user may name the board rectangle when a screenshot holds other grids,
and fixed-size clones get an integer pitch and origin (their tiles are drawn
on whole pixels; a half-pixel fit would blur every template). Frames of one
clone are then aligned to each other to the pixel, so the same kind of cell
gives the same patch in every frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.errors import VisionError
from vision.classify import board_patches
from vision.geometry import Geometry
from vision.lattice import Lattice, find_lattices

#: A pitch this close to a whole number is a fixed-size clone drawn on whole pixels.
INTEGER_PITCH = 0.15


@dataclass(frozen=True)
class BoardRect:
    """The board rectangle a user gave with `--board L,T,W,H` (screen pixels)."""

    left: int
    top: int
    width: int
    height: int

    @staticmethod
    def parse(text: str) -> BoardRect:
        try:
            left, top, width, height = (int(v) for v in text.split(","))
        except ValueError as exc:
            raise VisionError(f"--board wants L,T,W,H in pixels, got {text!r}") from exc
        if width <= 0 or height <= 0 or left < 0 or top < 0:
            raise VisionError(f"--board {text}: width and height must be positive")
        return BoardRect(left, top, width, height)


def _edge_at(image: np.ndarray, geo: Geometry, axis: int) -> float:
    """Mean colour step across the cell boundaries of `geo` along `axis` (1: vertical lines)."""
    x0, y0 = round(geo.left), round(geo.top)
    x1, y1 = round(geo.left + geo.width), round(geo.top + geo.height)
    box = image[max(0, y0 - 1) : y1 + 1, max(0, x0 - 1) : x1 + 1].astype(np.float32)
    step = np.abs(np.diff(box, axis=axis)).sum(axis=2)
    pitch, count = (geo.cell_w, geo.cols) if axis == 1 else (geo.cell_h, geo.rows)
    lines = [round(i * pitch) for i in range(1, count)]
    lines = [v for v in lines if v < step.shape[axis]]
    if not lines:
        return 0.0
    return float(np.take(step, lines, axis=axis).mean())


def _snap(geo: Geometry, image: np.ndarray | None = None) -> Geometry:
    """Whole-pixel pitch and origin when the pitch is (nearly) a whole number.

    An origin fitted half way between two pixels (a bevelled tile's flat inside
    is off-centre) is put where the colour steps between tiles are strongest:
    a grid a pixel off cuts every cell with a strip of its neighbour.
    """
    pw, ph = round(geo.cell_w), round(geo.cell_h)
    if abs(geo.cell_w - pw) > INTEGER_PITCH or abs(geo.cell_h - ph) > INTEGER_PITCH:
        return geo
    left, top = float(round(geo.left)), float(round(geo.top))
    if image is not None:
        base = Geometry(left, top, pw, ph, geo.rows, geo.cols)
        if abs(geo.left % 1 - 0.5) < 0.15:
            pick = [base, base.shifted(-1, 0), base.shifted(1, 0)]
            left = max(pick, key=lambda g: _edge_at(image, g, 1)).left
        if abs(geo.top % 1 - 0.5) < 0.15:
            pick = [base, base.shifted(0, -1), base.shifted(0, 1)]
            top = max(pick, key=lambda g: _edge_at(image, g, 0)).top
    return Geometry(left, top, pw, ph, geo.rows, geo.cols)


def _where(geo: Geometry) -> str:
    return f"{geo.rows}x{geo.cols} at ({round(geo.left)}, {round(geo.top)})"


def _another_board(first: Lattice, other: Lattice) -> bool:
    """Whether `other` is a second board beside `first`: a grid of like pitch and a
    third of its tiles or more, a cell or more away from it (not a piece of it, not
    a row of counter digits). Learning from two boards at once mixes two games."""
    a, b = first.geometry, other.geometry
    if other.found < max(9, first.found / 3) or min(b.rows, b.cols) < 3:
        return False
    if abs(a.cell_w - b.cell_w) > 0.2 * a.cell_w or abs(a.cell_h - b.cell_h) > 0.2 * a.cell_h:
        return False
    apart_x = b.left >= a.left + a.width + a.cell_w or a.left >= b.left + b.width + a.cell_w
    apart_y = b.top >= a.top + a.height + a.cell_h or a.top >= b.top + b.height + a.cell_h
    return apart_x or apart_y


def find_grid(image: np.ndarray, board: BoardRect | None = None) -> Geometry:
    """The board's grid: the lattice with most tiles (inside `board` when given)."""
    if board is not None:
        height, width = image.shape[:2]
        if board.left + board.width > width or board.top + board.height > height:
            raise VisionError(
                f"--board {board.left},{board.top},{board.width},{board.height} "
                f"leaves the {width}x{height} screenshot"
            )
        crop = image[board.top : board.top + board.height, board.left : board.left + board.width]
        lattices = find_lattices(crop)
        if not lattices:
            raise VisionError("no grid of tiles inside the --board rectangle")
        geo = lattices[0].geometry.shifted(board.left, board.top)
    else:
        lattices = find_lattices(image)
        if not lattices:
            raise VisionError("no grid of tiles found in the screenshot (try --board L,T,W,H)")
        geo = lattices[0].geometry
        others = [lat.geometry for lat in lattices[1:] if _another_board(lattices[0], lat)]
        if others:
            where = "; ".join(_where(g) for g in [geo, *others])
            raise VisionError(
                f"{len(others) + 1} boards in the image ({where}): show only one "
                "(or pass --board L,T,W,H)"
            )
    return _snap(geo, image)


def patches(image: np.ndarray, geo: Geometry) -> np.ndarray:
    """(rows*cols, PATCH*PATCH*3) float32 cell patches, as `vision.classify` compares them."""
    found = board_patches(image, geo)
    if found is None:
        raise VisionError("the board grid leaves the screenshot")
    return found


def align(image: np.ndarray, geo: Geometry, reference: np.ndarray) -> Geometry:
    """`geo` moved by up to a pixel so its cells best match the `reference` patches.

    The lattice fit of two screenshots of one clone can differ by a pixel (the
    fit mixes covered and open tiles); templates cut from both must agree.
    Score: mean distance of each cell to its nearest reference cell.
    """
    reference = np.unique(reference, axis=0)
    ref_norm = (reference**2).sum(axis=1)
    best: tuple[float, Geometry] | None = None
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            moved = geo.shifted(dx, dy)
            cells = board_patches(image, moved)
            if cells is None:
                continue
            dist = (cells**2).sum(axis=1)[:, None] - 2.0 * cells @ reference.T + ref_norm[None, :]
            score = float(np.maximum(dist, 0.0).min(axis=1).mean())
            if best is None or score < best[0]:
                best = (score, moved)
    return geo if best is None else best[1]


def cell_image(image: np.ndarray, geo: Geometry, row: int, col: int) -> np.ndarray:
    """One cell cut at the (rounded) pitch: what a skin's tile PNG holds."""
    x0 = round(geo.left + col * geo.cell_w)
    y0 = round(geo.top + row * geo.cell_h)
    return image[y0 : y0 + round(geo.cell_h), x0 : x0 + round(geo.cell_w)].copy()


def _ring(image: np.ndarray, geo: Geometry, width: int = 3) -> np.ndarray | None:
    """The pixels in a thin band just outside the board (None: off the image)."""
    x0, y0 = round(geo.left) - width, round(geo.top) - width
    x1, y1 = round(geo.left + geo.width) + width, round(geo.top + geo.height) + width
    height, img_w = image.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > img_w or y1 > height:
        return None
    box = image[y0:y1, x0:x1]
    return np.concatenate(
        [
            box[:width].reshape(-1),
            box[-width:].reshape(-1),
            box[:, :width].reshape(-1),
            box[:, -width:].reshape(-1),
        ]
    )


def _union(a: Geometry, b: Geometry) -> Geometry | None:
    """The grid covering both `a` and `b` when they are pieces of one lattice, else None."""
    if abs(a.cell_w - b.cell_w) > 0.1 or abs(a.cell_h - b.cell_h) > 0.1:
        return None
    cols_off = (b.left - a.left) / a.cell_w
    rows_off = (b.top - a.top) / a.cell_h
    if abs(cols_off - round(cols_off)) > 0.1 or abs(rows_off - round(rows_off)) > 0.1:
        return None
    c0 = min(0, round(cols_off))
    r0 = min(0, round(rows_off))
    c1 = max(a.cols, round(cols_off) + b.cols)
    r1 = max(a.rows, round(rows_off) + b.rows)
    if c1 - c0 > a.cols + b.cols or r1 - r0 > a.rows + b.rows:
        return None  # apart, not overlapping
    return Geometry(
        a.left + c0 * a.cell_w, a.top + r0 * a.cell_h, a.cell_w, a.cell_h, r1 - r0, c1 - c0
    )


def complete(images: list[np.ndarray], geos: list[Geometry]) -> list[Geometry]:
    """Grids of one board grown to the largest extent any frame shows of it.

    The lattice finder sees cells by their flat insides, so a frame where whole
    columns hold numbers can come out a few columns short. Two frames show the
    same board when their grids are pieces of one lattice and the screen just
    outside the joined grid is identical in both (the same window frame).
    """
    geos = list(geos)
    changed = True
    while changed:
        changed = False
        for i in range(len(geos)):
            for j in range(len(geos)):
                if i == j or geos[i] == geos[j]:
                    continue
                joined = _union(geos[i], geos[j])
                if joined is None or joined == geos[i]:
                    continue
                ring_i, ring_j = _ring(images[i], joined), _ring(images[j], joined)
                if ring_i is not None and ring_j is not None and np.array_equal(ring_i, ring_j):
                    geos[i] = joined
                    changed = True
    return geos


def find_grids(images: list[np.ndarray], board: BoardRect | None = None) -> list[Geometry]:
    """`find_grid` for each image, reusing an earlier frame's grid when the board's
    surroundings are pixel-identical (frames of one game: the window did not move)."""
    found: list[tuple[np.ndarray, Geometry]] = []
    out: list[Geometry] = []
    for image in images:
        for old_ring, old_geo in found:
            here = _ring(image, old_geo)
            if here is not None and here.shape == old_ring.shape and np.array_equal(here, old_ring):
                out.append(old_geo)
                break
        else:
            geo = find_grid(image, board)
            ring = _ring(image, geo)
            if ring is not None:
                found.append((ring, geo))
            out.append(geo)
    return complete(images, out)
