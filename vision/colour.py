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

A skin may also declare spots (`Spot`): a mark that tells two kinds of one
colour and one ink apart by where it sits in the glyph. GNOME Mines draws
its '?' as its flag with a small question mark beside the foot of the pole;
scaled to 23-30 px cells that mark is a few pixels, less than the patch
distance between two window sizes' flags, and '?' was read as a sure flag.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import cv2
import numpy as np

from bot.errors import VisionError
from vision.geometry import Geometry

#: Whole-pixel (starts, ends) of the columns (or rows) of a grid's cells.
Bounds = tuple[np.ndarray, np.ndarray]

_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")


def parse_colour(text: str, where: str) -> tuple[int, int, int]:
    """'#rrggbb' as (b, g, r), the channel order of OpenCV images."""
    m = _HEX.match(str(text).strip())
    if m is None:
        raise VisionError(f"{where}: a colour is '#rrggbb', got {text!r}")
    value = int(m.group(1), 16)
    return (value & 0xFF, (value >> 8) & 0xFF, value >> 16)


@dataclass(frozen=True)
class Spot:
    """A mark some kinds show and others lack, placed relative to the cell's glyph.

    `box` is (x0, y0, x1, y1) in fractions of the bounding box of the cell's
    ink: the pixels darker than the cell's background (its median) by at
    least `contrast` grey levels. Placed on the glyph rather than on the
    cell, the box does not move with a grid fitted a pixel or two off, nor
    with the glyph's own rounding at each scale. The spot shows where at
    least SPOT_MIN_POINTS ink pixels fall in the box, and is absent where no
    pixel there is even half as dark; in between it is unclear, and then
    neither the kinds that need it (`shown`) nor those that lack it
    (`absent`) are read.
    """

    box: tuple[float, float, float, float]
    contrast: float
    shown: tuple[str, ...]
    absent: tuple[str, ...]
    #: Band of the cell left out on each side, in fractions of the cell.
    margin: float = 0.1
    about: str = ""


def parse_spots(raw: Any, kinds: Collection[str], where: str) -> tuple[Spot, ...]:
    """The manifest's `spots`: a list of {box, contrast, shown, absent}."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise VisionError(f"{where}: spots must be a list of {{box, contrast, shown, absent}}")
    spots = []
    for i, item in enumerate(raw):
        at = f"{where}: spots[{i}]"
        try:
            x0, y0, x1, y1 = (float(v) for v in item["box"])
            contrast = float(item.get("contrast", 50))
            margin = float(item.get("margin", 0.1))
            shown = tuple(str(k) for k in item.get("shown", []))
            absent = tuple(str(k) for k in item.get("absent", []))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise VisionError(f"{at}: needs box [x0, y0, x1, y1] (fractions of the glyph)") from exc
        if not (0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1) or contrast <= 0:
            raise VisionError(f"{at}: box must lie within [0, 1] and contrast be positive")
        if not 0 <= margin < 0.4:
            raise VisionError(f"{at}: margin is a fraction of the cell below 0.4")
        unknown = [k for k in shown + absent if k not in kinds]
        if unknown or not (shown or absent) or set(shown) & set(absent):
            raise VisionError(f"{at}: shown and absent must name distinct tile kinds")
        about = str(item.get("about", ""))
        spots.append(Spot((x0, y0, x1, y1), contrast, shown, absent, margin, about))
    return tuple(spots)


@dataclass(frozen=True)
class ColourTable:
    """The declared colours and inks of a skin's kinds, in the order of a tile bank's kinds."""

    #: (n_colours, 3) float32 BGR, and the kind index each colour belongs to.
    colours: np.ndarray
    kind_of: np.ndarray
    #: Per kind: whether it declares colours at all.
    declared: np.ndarray
    tolerance: float
    #: (n_inks, 3) float32 BGR ink colours and the kind index of each.
    inks: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), dtype=np.float32))
    ink_kind_of: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    #: Per kind: declares inks (needs one of them), or declares none (`[]`: needs no ink).
    inked: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    inkless: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    ink_tolerance: float = 40.0
    #: Where cell colours are sampled (`cell_colours`).
    probe: str = "middle"
    #: Declared spots, and per spot the kinds that need it / lack it, (n_spots, n_kinds).
    spots: tuple[Spot, ...] = ()
    spot_shown: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))
    spot_absent: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))

    @cached_property
    def colour_kinds(self) -> np.ndarray:
        """(n_colours, n_kinds) float32 one-hot: the kind each declared colour belongs to."""
        return _one_hot(self.kind_of, len(self.declared))

    @cached_property
    def spot_kinds(self) -> np.ndarray:
        """Per kind: whether some spot rules on it."""
        return np.asarray((self.spot_shown | self.spot_absent).any(axis=0))

    @classmethod
    def build(
        cls,
        kinds: Sequence[str],
        declared: Mapping[str, Sequence[tuple[int, int, int]]],
        tolerance: float,
        inks: Mapping[str, Sequence[tuple[int, int, int]]] | None = None,
        ink_tolerance: float = 40.0,
        probe: str = "middle",
        spots: Sequence[Spot] = (),
    ) -> ColourTable | None:
        """None when the skin declares neither colours, inks nor spots (nothing to check)."""
        inks = inks or {}
        pairs = [(kinds.index(k), c) for k, cs in declared.items() if k in kinds for c in cs]
        ink_pairs = [(kinds.index(k), c) for k, cs in inks.items() if k in kinds for c in cs]
        if not pairs and not inks and not spots:
            return None
        n = len(kinds)
        shown = np.array([[k in s.shown for k in kinds] for s in spots], dtype=bool)
        absent = np.array([[k in s.absent for k in kinds] for s in spots], dtype=bool)
        return cls(
            colours=np.array([c for _, c in pairs], dtype=np.float32).reshape(-1, 3),
            kind_of=np.array([k for k, _ in pairs], dtype=int),
            declared=np.isin(np.arange(n), [k for k, _ in pairs]),
            tolerance=float(tolerance),
            inks=np.array([c for _, c in ink_pairs], dtype=np.float32).reshape(-1, 3),
            ink_kind_of=np.array([k for k, _ in ink_pairs], dtype=int),
            inked=np.isin(np.arange(n), [k for k, _ in ink_pairs]),
            inkless=np.isin(np.arange(n), [kinds.index(k) for k, cs in inks.items() if not cs]),
            ink_tolerance=float(ink_tolerance),
            probe=probe,
            spots=tuple(spots),
            spot_shown=shown.reshape(len(spots), n),
            spot_absent=absent.reshape(len(spots), n),
        )


#: Where in a cell its colour is sampled, and how the samples make one colour:
#: "middle", the median of a 7 x 7 grid over the middle 60 % (GNOME Mines: a
#: thin glyph on a flat background), or "mode", the commonest exact colour of
#: a 13 x 13 grid over the middle 76 % (sgt-mines: bold glyphs that fill half
#: the middle of small cells, a flag that reaches the corners; the background
#: is still the largest area of one exact colour).
_SAMPLES = {
    "middle": np.linspace(0.2, 0.8, 7),
    "mode": np.linspace(0.12, 0.88, 13),
}
PROBES = tuple(_SAMPLES)


def _points(start: np.ndarray, end: np.ndarray, fractions: np.ndarray) -> np.ndarray:
    """(N, S) whole-pixel sample positions at `fractions` of each [start, end)."""
    return np.asarray((start[:, None] + fractions[None, :] * (end - start)[:, None]).astype(int))


def _cell_samples(
    image: np.ndarray,
    x0: np.ndarray,
    x1: np.ndarray,
    y0: np.ndarray,
    y1: np.ndarray,
    fractions: np.ndarray,
) -> np.ndarray:
    """(N, S*S, 3) screen pixels at `fractions` of N cells with whole-pixel bounds."""
    xs, ys = _points(x0, x1, fractions), _points(y0, y1, fractions)
    depth = image.shape[2]
    if not image.flags.c_contiguous:  # a view: flattening it would copy the whole image
        samples = image[ys[:, :, None], xs[:, None, :]]
        return np.ascontiguousarray(samples.reshape(len(x0), -1, depth))
    # One take of flat pixel indices: several times cheaper than indexing
    # the image with two broadcast index arrays.
    flat = (ys[:, :, None] * image.shape[1] + xs[:, None, :]).reshape(-1)
    return np.asarray(np.take(image.reshape(-1, depth), flat, axis=0)).reshape(len(x0), -1, depth)


def _grid_samples(
    image: np.ndarray, cols: Bounds, rows: Bounds, fractions: np.ndarray
) -> np.ndarray:
    """`_cell_samples` of every cell of a grid (row-major), from the columns' and
    rows' bounds: one take of the sample rows, one of the sample columns."""
    xs, ys = _points(*cols, fractions), _points(*rows, fractions)
    block = np.take(np.take(image, ys.reshape(-1), axis=0), xs.reshape(-1), axis=1)
    n_rows, n_cols, side = len(ys), len(xs), len(fractions)
    block = block.reshape(n_rows, side, n_cols, side, image.shape[2]).transpose(0, 2, 1, 3, 4)
    return np.ascontiguousarray(block.reshape(n_rows * n_cols, side * side, image.shape[2]))


def cell_colours(
    image: np.ndarray,
    x0: np.ndarray,
    x1: np.ndarray,
    y0: np.ndarray,
    y1: np.ndarray,
    probe: str = "middle",
) -> np.ndarray:
    """(N, 3) background colour of N cells with whole-pixel bounds, sampled by `probe`.

    Sampled on the screen's own pixels, not on the shrunk patch: shrinking
    smears a digit's strokes over most of a small patch, while at full
    resolution they are a fifth of the middle, so the median is exactly the
    background. Bounds must lie inside the image.
    """
    return _colour_of(_cell_samples(image, x0, x1, y0, y1, _SAMPLES[probe]), probe)


def grid_colours(
    image: np.ndarray, cols: Bounds, rows: Bounds, probe: str = "middle"
) -> np.ndarray:
    """`cell_colours` of every cell of a grid, row-major: cols = (x0, x1) per
    column, rows = (y0, y1) per row."""
    return _colour_of(_grid_samples(image, cols, rows, _SAMPLES[probe]), probe)


def _colour_of(samples: np.ndarray, probe: str) -> np.ndarray:
    if probe == "middle":
        return _median(samples, np.float64)
    return _mode(samples)


def _median(samples: np.ndarray, dtype: type[np.floating[Any]]) -> np.ndarray:
    """`np.median(samples, axis=1)` of whole numbers (uint8 samples), as `dtype`:
    `np.median` of uint8 gives float64, of their float32 copy float32; the
    value is the middle sample, or the mean of the two middle ones, either
    way exact. One partition of the bytes, without `np.median`'s checks and
    float copy."""
    size = samples.shape[1]
    half = size // 2
    if size % 2:
        return np.asarray(np.partition(samples, half, axis=1)[:, half], dtype=dtype)
    part = np.partition(samples, (half - 1, half), axis=1)
    return np.asarray((part[:, half - 1].astype(dtype) + part[:, half]) / 2, dtype=dtype)


def _mode(samples: np.ndarray) -> np.ndarray:
    """(N, 3) commonest exact colour of each row of (N, S, 3) samples (vectorised:
    sort the packed colours, the longest run of equal values wins)."""
    s = samples.astype(np.int32)
    packed = np.sort((s[:, :, 0] << 16) | (s[:, :, 1] << 8) | s[:, :, 2], axis=1)
    idx = np.arange(packed.shape[1])
    change = np.ones(packed.shape, dtype=bool)
    change[:, 1:] = packed[:, 1:] != packed[:, :-1]
    start = np.maximum.accumulate(np.where(change, idx[None, :], 0), axis=1)
    value = packed[np.arange(len(packed)), (idx[None, :] - start).argmax(axis=1)]
    return np.stack([value >> 16, (value >> 8) & 0xFF, value & 0xFF], axis=1).astype(np.float64)


#: Where in a cell inks are looked for: a 13 x 13 grid over the middle 60 %
#: (a point every pixel or two up to 48 px cells: a digit's stroke is hit).
_INK_SAMPLES = np.linspace(0.2, 0.8, 13)
#: Sample points of one ink a cell needs for the ink to count as shown, and
#: its least share of the cell's commonest ink: anti-aliased edges between a
#: glyph's two inks (a flag's red and black) blend into a few points of a
#: third (maroon, grey), a stroke's core shows its own ink at many.
INK_MIN_POINTS = 2
INK_MIN_SHARE = 0.25


def cell_inks(
    image: np.ndarray,
    x0: np.ndarray,
    x1: np.ndarray,
    y0: np.ndarray,
    y1: np.ndarray,
    table: ColourTable,
) -> np.ndarray:
    """(N, n_inks) whether each declared ink shows in the middle of N cells.

    On screen pixels, like `cell_colours`: an ink shows when at least
    INK_MIN_POINTS sample points, and INK_MIN_SHARE of the points of the
    commonest ink, are within the ink tolerance of it (per channel). Bounds
    must lie inside the image.
    """
    if len(table.inks) == 0:
        return np.zeros((len(x0), 0), dtype=bool)
    return _inks_of(_cell_samples(image, x0, x1, y0, y1, _INK_SAMPLES), table)


def grid_inks(image: np.ndarray, cols: Bounds, rows: Bounds, table: ColourTable) -> np.ndarray:
    """`cell_inks` of every cell of a grid, row-major (see `grid_colours`)."""
    if len(table.inks) == 0:
        return np.zeros((len(cols[0]) * len(rows[0]), 0), dtype=bool)
    return _inks_of(_grid_samples(image, cols, rows, _INK_SAMPLES), table)


def probe_points(start: np.ndarray, end: np.ndarray, table: ColourTable) -> np.ndarray:
    """(N, S) every whole-pixel position along one axis that `grid_colours` and
    `grid_inks` read in each of N cells spanning [start, end): what a cell's
    colour and inks depend on (`vision.distinct`)."""
    return np.concatenate(
        [_points(start, end, _SAMPLES[table.probe]), _points(start, end, _INK_SAMPLES)], axis=1
    )


def _inks_of(samples: np.ndarray, table: ColourTable) -> np.ndarray:
    # One row of samples per cell: an image cv2.inRange tests at SIMD speed.
    tol = table.ink_tolerance
    lows = np.clip(table.inks - tol, 0, 255).tolist()
    highs = np.clip(table.inks + tol, 0, 255).tolist()
    counts = np.empty((len(samples), len(table.inks)), dtype=np.int32)
    for j in range(len(table.inks)):
        inside = cv2.inRange(samples, np.array(lows[j]), np.array(highs[j]))
        counts[:, j] = np.count_nonzero(inside, axis=1)
    most = counts.max(axis=1, keepdims=True)
    shown = (counts >= INK_MIN_POINTS) & (counts >= INK_MIN_SHARE * most)
    return np.asarray(shown & ~_blends(samples, table, counts, shown))


def _blends(
    samples: np.ndarray, table: ColourTable, counts: np.ndarray, shown: np.ndarray
) -> np.ndarray:
    """(N, n_inks) where an ink that shows is only the blend of the cell's
    background with a darker stroke: more points lie beyond the ink, on the
    line from the background through it, than at it.

    A grey ink (sgt-mines' and minegauler's 8, #808080) lies half way between
    the open cells' grey and black, so the anti-aliased edge of any darker
    glyph shows a few points of it: a black 7 does, and on a greyscale screen
    every number does (the 1's blue becomes a dark grey). Its ink alone then
    "named" each of them an 8, sure (16 of 16 numbers of a greyscale
    sgt-mines board). A stroke of the ink itself has no such points beyond it.
    """
    out = np.zeros_like(shown)
    cells, inks = np.nonzero(shown)
    if not len(cells):
        return out
    points = samples[cells].astype(np.float32)  # (K, S, 3)
    background = np.median(points, axis=1)  # the flat tile: most of a cell's middle
    way = table.inks[inks] - background  # (K, 3): background -> ink
    length = np.sqrt((way**2).sum(axis=1))
    tol = float(table.ink_tolerance)
    off = points - background[:, None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        t = (off * way[:, None, :]).sum(axis=2) / (length**2)[:, None]
        aside = np.sqrt(((off - t[:, :, None] * way[:, None, :]) ** 2).sum(axis=2))
        beyond = (t > 1.0 + 2.0 * tol / length[:, None]) & (aside <= 2.0 * tol)
    many = beyond.sum(axis=1)
    # An ink near the background (under three tolerances away) says nothing either way.
    blend = (length > 3.0 * tol) & (many >= INK_MIN_POINTS) & (many > counts[cells, inks])
    out[cells[blend], inks[blend]] = True
    return out


#: Ink pixels a spot needs in its box to show (a 23 px GNOME '?' puts 2-3 there).
SPOT_MIN_POINTS = 2
#: Sample points per side of a cell looked at for spots: every pixel up to
#: this size, one every pitch/SPOT_SAMPLES pixels above it (a 100 px cell's
#: question mark has strokes ~8 px wide).
SPOT_SAMPLES = 40


def cell_spots(
    image: np.ndarray,
    x0: np.ndarray,
    x1: np.ndarray,
    y0: np.ndarray,
    y1: np.ndarray,
    table: ColourTable,
) -> np.ndarray:
    """(N, n_spots) int8 per cell and spot: 1 shows, 0 absent, -1 unclear (see `Spot`).

    On screen pixels of the cell less its `margin` band, every pixel up to
    SPOT_SAMPLES a side: the band holds the gap between tiles and, on a grid
    fitted a pixel or two off, a strip of the next tile (a lost board's dark
    mine beside a flag made the flag's glyph box reach the cell's edge). The
    background is the median grey of what is looked at: a tile's flat colour,
    lighter under the pointer, whatever the scale. A cell with no ink at all
    has no glyph to place the box on: unclear. Bounds must lie inside the
    image.
    """
    n = len(x0)
    out = np.full((n, len(table.spots)), -1, dtype=np.int8)
    if n == 0:
        return out
    longest = max(int((x1 - x0).max()), int((y1 - y0).max()), 1)
    for j, spot in enumerate(table.spots):
        inner = 1.0 - 2.0 * spot.margin
        side = int(min(SPOT_SAMPLES, max(round(longest * inner), 1)))
        centre = spot.margin + (np.arange(side) + 0.5) / side * inner
        samples = _cell_samples(image, x0, x1, y0, y1, centre)
        code = cv2.COLOR_BGRA2GRAY if samples.shape[2] == 4 else cv2.COLOR_BGR2GRAY
        grey8 = cv2.cvtColor(np.ascontiguousarray(samples), code)
        # The median of the float32 grey levels, from the bytes (`_median`).
        dark = _median(grey8, np.float32)[:, None] - grey8.astype(np.float32)
        dark = dark.reshape(n, side, side)
        ink = np.asarray(dark >= spot.contrast)
        faint = np.asarray(dark >= spot.contrast / 2)
        step = inner / side / 2
        inside = _spot_box(ink, centre, spot.box, step)
        shows = (ink.reshape(n, -1) & inside).sum(axis=1) >= SPOT_MIN_POINTS
        # Absent only where neither the glyph's box nor that of its faint
        # pixels holds a pixel half as dark: a translucent box over part of
        # the cell pales part of the glyph, and the box of what stayed dark
        # then puts the spot beside a pale mark (GNOME Mines' '?' cut by a
        # white box's edge read as a sure flag).
        seen = (faint.reshape(n, -1) & inside).any(axis=1)
        seen |= (faint.reshape(n, -1) & _spot_box(faint, centre, spot.box, step)).any(axis=1)
        verdict = np.where(shows, 1, np.where(seen, -1, 0))
        found = np.asarray(ink.any(axis=(1, 2)))
        out[:, j] = np.where(found, verdict, -1)
    return out


def _spot_box(
    ink: np.ndarray, centre: np.ndarray, box: tuple[float, float, float, float], step: float
) -> np.ndarray:
    """(N, side * side) bool: the sample points inside `box`, in fractions of
    the bounding box of each cell's `ink` (N, side, side) from the first to
    the last ink sample, both whole (`step`: half a sample)."""
    n, side = ink.shape[0], ink.shape[1]
    rows, cols = np.asarray(ink.any(axis=2)), np.asarray(ink.any(axis=1))
    top, bottom = _first(rows), side - 1 - _first(rows[:, ::-1])
    left, right = _first(cols), side - 1 - _first(cols[:, ::-1])
    gx0, gx1 = centre[left] - step, centre[right] + step
    gy0, gy1 = centre[top] - step, centre[bottom] + step
    bx0, by0, bx1, by1 = box
    in_x = (centre[None, :] >= (gx0 + bx0 * (gx1 - gx0))[:, None]) & (
        centre[None, :] <= (gx0 + bx1 * (gx1 - gx0))[:, None]
    )
    in_y = (centre[None, :] >= (gy0 + by0 * (gy1 - gy0))[:, None]) & (
        centre[None, :] <= (gy0 + by1 * (gy1 - gy0))[:, None]
    )
    return np.asarray((in_y[:, :, None] & in_x[:, None, :]).reshape(n, -1))


def _first(flags: np.ndarray) -> np.ndarray:
    """Index of the first True of each row (0 for a row with none)."""
    return np.asarray(flags.argmax(axis=1))


def spots_allow(spots: np.ndarray, table: ColourTable, n_kinds: int) -> np.ndarray:
    """(N, n_kinds) kinds the spots (`cell_spots`) allow: a kind that needs a spot
    only where it shows, a kind that lacks it only where it is absent."""
    if spots.shape[1] == 0:
        return np.ones((len(spots), n_kinds), dtype=bool)
    not_shown = (spots != 1).astype(np.float32)
    not_absent = (spots != 0).astype(np.float32)
    ruled_out = (not_shown @ table.spot_shown.astype(np.float32)) + (
        not_absent @ table.spot_absent.astype(np.float32)
    )
    return np.asarray(ruled_out == 0)


def _one_hot(kind_of: np.ndarray, n_kinds: int) -> np.ndarray:
    """(len(kind_of), n_kinds) float32: row j has a 1 at kind_of[j] (colour -> kind)."""
    out = np.zeros((len(kind_of), n_kinds), dtype=np.float32)
    out[np.arange(len(kind_of)), kind_of] = 1.0
    return out


def _channel_distance(seen: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """(N, M) largest per-channel |difference| between N seen colours and M colours
    (rows of channels): one channel at a time, as a reduction over an axis of
    3 costs ten times more."""
    out: np.ndarray | None = None
    for ch in range(seen.shape[1]):
        step = np.abs(seen[:, ch, None] - colours[None, :, ch])
        out = step if out is None else np.maximum(out, step)
    assert out is not None
    return out


def allowed_kinds(
    seen: np.ndarray, table: ColourTable, n_kinds: int, inks: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """((N, n_kinds) kinds each cell's colour and inks allow, (N,) cells matching no colour).

    `seen` is `cell_colours`, `inks` is `cell_inks` (needed when the table
    declares inks). A kind with declared colours is allowed when the cell's
    colour is within the tolerance (per channel) of one of them; kinds
    without colours always are. A cell that matches no declared colour
    keeps every kind allowed by colour and is reported, so that the caller
    can refuse a declared kind for it. Then a kind with inks needs one of
    them to show, and a kind declared with none needs every ink absent.
    """
    near = np.asarray(_channel_distance(seen, table.colours) <= table.tolerance)
    own = table.colour_kinds if n_kinds == len(table.declared) else None
    if own is None:
        own = _one_hot(table.kind_of, n_kinds)
    allowed = (near.astype(np.float32) @ own) > 0
    matched = np.asarray(near.any(axis=1))
    allowed |= ~table.declared[None, :]
    allowed[~matched] = True
    # (No declared ink at all: no kind needs one, and none shows to rule a kind out.)
    if inks is not None and len(table.inked) and len(table.inks):
        shows = (inks.astype(np.float32) @ _one_hot(table.ink_kind_of, n_kinds)) > 0
        allowed &= shows | ~table.inked[None, :]
        any_ink = np.asarray(inks.any(axis=1))
        allowed &= ~(any_ink[:, None] & table.inkless[None, :])
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
    band = np.array([0.15, 0.2, 0.25])  # past the gap between tiles, inside the next tile
    sides = []
    for side, seen in _past(image, geo, band).items():  # (lines, 3 probes, 3 channels)
        near = np.abs(seen[:, :, None, :] - table.colours[None, None, :, :]).max(axis=3)
        tiled = (near <= table.tolerance).any(axis=2).all(axis=1)  # flat, as a tile is
        if tiled.mean() >= 0.5:
            sides.append(side)
    return sides


#: How far past a side (pitches) the surroundings stay one flat colour when
#: they are no cut tile (`flat_beyond`): a cut tile ends within a pitch.
FLAT_PAST = 1.25


def flat_beyond(image: np.ndarray, geo: Geometry, tolerance: float) -> list[str]:
    """The sides past which the picture is one flat colour from a sixth of a
    pitch out to FLAT_PAST pitches, in most rows (columns): the surroundings
    of a whole board, not the next tiles of a board its window cuts off (a
    cut tile ends within the pitch: the window's edge, or the gap to the next
    tile, comes before it). A clone whose window is of a skin's tile colours
    shows such sides, where `tiles_beyond` sees tiles. `tolerance`: the
    spread (a channel's) one flat colour shows."""
    sides = []
    for side, seen in _past(image, geo, np.linspace(0.15, FLAT_PAST, 12)).items():
        spread = (seen.max(axis=1) - seen.min(axis=1)).max(axis=1)
        if (spread <= tolerance).mean() >= 0.5:
            sides.append(side)
    return sides


def _past(image: np.ndarray, geo: Geometry, steps: np.ndarray) -> dict[str, np.ndarray]:
    """Per side, the pixels `steps` pitches past it on each row (column) of
    cells through their middles: (lines, steps, 3) float32. A side whose
    pixels leave the picture is left out (the screen's edge: `vision.locate`
    says so itself)."""
    height, width = image.shape[:2]
    rows = geo.top + (np.arange(geo.rows) + 0.5) * geo.cell_h
    cols = geo.left + (np.arange(geo.cols) + 0.5) * geo.cell_w
    right, bottom = geo.left + geo.width, geo.top + geo.height
    probes = {
        "left": (geo.left - steps[None, :] * geo.cell_w, rows[:, None]),
        "right": (right + steps[None, :] * geo.cell_w, rows[:, None]),
        "top": (cols[:, None], geo.top - steps[None, :] * geo.cell_h),
        "bottom": (cols[:, None], bottom + steps[None, :] * geo.cell_h),
    }
    out = {}
    for side, (x, y) in probes.items():
        xs, ys = np.broadcast_arrays(np.rint(x).astype(int), np.rint(y).astype(int))
        if xs.min() < 0 or ys.min() < 0 or xs.max() >= width or ys.max() >= height:
            continue
        out[side] = image[ys, xs].astype(np.float32)
    return out
