"""Background colours as a second, independent witness of a cell's kind.

Patch distances compare the whole tile, glyph included. At a cell size the
skin's tiles were not cut at, a scaled clone renders its digits with other
hinting, and the glyph error can outweigh everything else: GNOME Mines at
26 px read a 2 as a sure 1 (after `rescue` had tried a pixel or two of
shift). Some clones, GNOME Mines among them, paint each number on its own
flat background colour, which does not change with the scale. A skin may
declare those colours (`colours` in skin.json); then a kind whose declared
colour the cell does not show is ruled out, whatever its glyph distance.

The colour of a cell is the per-channel median of 7 x 7 screen pixels over
the middle of the cell: the background, as long as the glyph covers less
than half of them. Kinds
with no declared colour (mines, whose glyph fills the tile) are never ruled
out by colour; a cell whose colour matches no declared colour at all may
still be one of those, but never a kind with a declared colour.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from bot.errors import VisionError
from vision.geometry import Geometry

_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")


def parse_colour(text: str, where: str) -> tuple[int, int, int]:
    """'#rrggbb' as (b, g, r), the channel order of OpenCV images."""
    m = _HEX.match(str(text).strip())
    if m is None:
        raise VisionError(f"{where}: a colour is '#rrggbb', got {text!r}")
    value = int(m.group(1), 16)
    return (value & 0xFF, (value >> 8) & 0xFF, value >> 16)


@dataclass(frozen=True)
class ColourTable:
    """The declared colours of a skin's kinds, in the order of a tile bank's kinds."""

    #: (n_colours, 3) float32 BGR, and the kind index each colour belongs to.
    colours: np.ndarray
    kind_of: np.ndarray
    #: Per kind: whether it declares colours at all.
    declared: np.ndarray
    tolerance: float

    @classmethod
    def build(
        cls,
        kinds: Sequence[str],
        declared: Mapping[str, Sequence[tuple[int, int, int]]],
        tolerance: float,
    ) -> ColourTable | None:
        """None when the skin declares no colours (nothing to check)."""
        pairs = [(kinds.index(k), c) for k, cs in declared.items() if k in kinds for c in cs]
        if not pairs:
            return None
        return cls(
            colours=np.array([c for _, c in pairs], dtype=np.float32),
            kind_of=np.array([k for k, _ in pairs], dtype=int),
            declared=np.isin(np.arange(len(kinds)), [k for k, _ in pairs]),
            tolerance=float(tolerance),
        )


#: Where in a cell its colour is sampled: a 7 x 7 grid over the middle 60 %.
_SAMPLES = np.linspace(0.2, 0.8, 7)


def cell_colours(
    image: np.ndarray, x0: np.ndarray, x1: np.ndarray, y0: np.ndarray, y1: np.ndarray
) -> np.ndarray:
    """(N, 3) median colour of the middle of N cells with whole-pixel bounds.

    Sampled on the screen's own pixels, not on the shrunk patch: shrinking
    smears a digit's strokes over most of a small patch, while at full
    resolution they are a fifth of the middle, so the median is exactly the
    background. Bounds must lie inside the image.
    """
    xs = (x0[:, None] + _SAMPLES[None, :] * (x1 - x0)[:, None]).astype(int)
    ys = (y0[:, None] + _SAMPLES[None, :] * (y1 - y0)[:, None]).astype(int)
    samples = image[ys[:, :, None], xs[:, None, :]]
    return np.asarray(np.median(samples.reshape(len(x0), -1, 3), axis=1))


def allowed_kinds(
    seen: np.ndarray, table: ColourTable, n_kinds: int
) -> tuple[np.ndarray, np.ndarray]:
    """((N, n_kinds) kinds each cell's colour allows, (N,) cells matching no colour).

    `seen` is `cell_colours`. A kind with declared colours is allowed when
    the cell's colour is within the tolerance (per channel) of one of them;
    kinds without colours always are. A cell that matches no declared colour
    keeps every kind allowed and is reported, so that the caller can refuse
    a declared kind for it.
    """
    near = np.abs(seen[:, None, :] - table.colours[None, :, :]).max(axis=2) <= table.tolerance
    allowed = np.zeros((len(seen), n_kinds), dtype=bool)
    for j in range(len(table.colours)):
        allowed[:, table.kind_of[j]] |= near[:, j]
    matched = near.any(axis=1)
    allowed |= ~table.declared[None, :]
    allowed[~matched] = True
    return allowed, ~matched


def tiles_beyond(image: np.ndarray, geo: Geometry, table: ColourTable) -> list[str]:
    """The sides ("left", "right", "top", "bottom") past which tiles go on.

    A skin with declared colours (GNOME Mines) draws its tiles on the window's
    background with no frame, so outside a whole board there is background.
    When the window is too small the clone cuts the board off, and the lattice
    holds only the whole cells: the next row or column then shows one flat
    tile colour from a sixth to a quarter of a pitch past the edge, in most
    rows (columns). Reading such a sub-board as the board would invent edges
    the solver trusts.
    """
    height, width = image.shape[:2]
    band = np.array([0.15, 0.2, 0.25])  # past the gap between tiles, inside the next tile
    rows = geo.top + (np.arange(geo.rows) + 0.5) * geo.cell_h
    cols = geo.left + (np.arange(geo.cols) + 0.5) * geo.cell_w
    right, bottom = geo.left + geo.width, geo.top + geo.height
    probes = {
        "left": (geo.left - band[None, :] * geo.cell_w, rows[:, None]),
        "right": (right + band[None, :] * geo.cell_w, rows[:, None]),
        "top": (cols[:, None], geo.top - band[None, :] * geo.cell_h),
        "bottom": (cols[:, None], bottom + band[None, :] * geo.cell_h),
    }
    sides = []
    for side, (x, y) in probes.items():
        xs, ys = np.broadcast_arrays(np.rint(x).astype(int), np.rint(y).astype(int))
        if xs.min() < 0 or ys.min() < 0 or xs.max() >= width or ys.max() >= height:
            continue  # the screen's edge: `vision.locate` says so itself
        seen = image[ys, xs].astype(np.float32)  # (lines, 3 probes, 3 channels)
        near = np.abs(seen[:, :, None, :] - table.colours[None, None, :, :]).max(axis=3)
        tiled = (near <= table.tolerance).any(axis=2).all(axis=1)  # flat, as a tile is
        if tiled.mean() >= 0.5:
            sides.append(side)
    return sides
