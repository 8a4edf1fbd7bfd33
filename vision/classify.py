"""Classify every cell of a board at once by distance to the skin's tile images.

Each cell (and each template) is shrunk to a K x K colour patch with area
averaging, then all cells are compared with all templates in one matrix
product: mean squared difference per colour value. Squared differences, not
normalised correlation, because correlation is undefined on flat tiles
(covered, 0), which are most of a board. A whole-pixel grid is shrunk in
one `cv2.resize` of the board (~1 ms for 30x16); a scaled skin's cells, on
whole pixels at a fractional pitch, are each cut on their own edges, in one
`cv2.remap` (`vision.sampling`); templates cut at any size are shrunk to the
same K x K.

A cell whose best distance is too large, or whose best kind is too close to
the best *other* kind, or that lacks the shape of its best kind (`_shaped`:
a translucent box blends one kind's picture towards another's colours, never
its shape), is returned as unknown rather than guessed. Before
that, `rescue` looks again at such cells a pixel or two off the fitted grid:
a scaled skin's cells sit on whole pixels, so a pitch that is not an integer
(GNOME Mines: ~36.25 px, cells 32 or 33 px wide) leaves some cells up to a
pixel or two off any single fitted grid, and those compare misaligned.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from bot.board import NUMBERS, OPEN_UNKNOWN
from vision.colour import (
    ColourTable,
    allowed_kinds,
    cell_colours,
    cell_inks,
    cell_spots,
    grid_colours,
    grid_inks,
    parse_spots,
    spots_allow,
)
from vision.cuts import edges_nudge
from vision.geometry import Geometry
from vision.sampling import CellSampler, cell_edges, is_scaled, make_sampler, sample_patches
from vision.skin import Skin

#: Side of the patch every cell is shrunk to.
PATCH = 14
#: Kinds of open cells: a number, or '-' (open, value unknown: learned skins).
OPEN_KINDS = NUMBERS + OPEN_UNKNOWN


@dataclass(frozen=True)
class TileBank:
    """A skin's templates as one matrix, ready for `classify`."""

    skin: Skin
    chars: tuple[str, ...]
    #: (templates, PATCH*PATCH*3) float32 and the squared norms of its rows.
    matrix: np.ndarray
    norms: np.ndarray
    #: For each template, the index of its character in `kinds`.
    kind_of: np.ndarray
    kinds: tuple[str, ...]
    #: The skin's declared background colours, if any (`vision.colour`).
    colours: ColourTable | None = None

    @cached_property
    def kind_names(self) -> np.ndarray:
        """`kinds` as an array, to index by kind."""
        return np.asarray(self.kinds)

    @cached_property
    def kind_starts(self) -> np.ndarray | None:
        """The first template of each kind when every kind's templates are
        consecutive and in the order of `kinds`, as `make_bank` lays them out
        (then each kind's distances are one slice of a row), else None."""
        steps = np.diff(self.kind_of)
        if len(self.kind_of) == 0 or (steps < 0).any() or (steps > 1).any() or self.kind_of[0]:
            return None
        if int(self.kind_of[-1]) != len(self.kinds) - 1:
            return None
        return np.concatenate([[0], np.flatnonzero(steps) + 1])

    @cached_property
    def shapes(self) -> tuple[np.ndarray, np.ndarray]:
        """Each template's shape (`_shape`: its own mean colour taken away), as
        unit rows, and how much shape it has (mean squared deviation)."""
        shape = _shape(self.matrix)
        energy = (shape**2).mean(axis=1)
        norm = np.sqrt((shape**2).sum(axis=1))
        return shape / np.maximum(norm, 1e-6)[:, None], energy


def shrink(tile: np.ndarray, inset: int = 0, patch: int = PATCH) -> np.ndarray:
    """One tile image as a flat float32 PATCH x PATCH x 3 vector.

    With `inset` > 0 the tile is shrunk to PATCH + 2 * inset and its border
    dropped: skins whose gaps between tiles do not scale with the tiles (GNOME
    Mines) then compare only the insides, whatever the window size.
    """
    side = patch + 2 * inset
    small = cv2.resize(tile, (side, side), interpolation=cv2.INTER_AREA)
    small = small[inset : inset + patch, inset : inset + patch]
    return np.ascontiguousarray(small).reshape(-1).astype(np.float32)


def make_bank(skin: Skin) -> TileBank:
    chars: list[str] = []
    rows: list[np.ndarray] = []
    for ch, images in skin.tiles.items():
        for img in images:
            chars.append(ch)
            rows.append(shrink(img, skin.inset, skin.patch))
    matrix = np.stack(rows)
    kinds = tuple(dict.fromkeys(chars))
    kind_of = np.array([kinds.index(c) for c in chars])
    colours = ColourTable.build(
        kinds,
        skin.colours,
        skin.colour_tolerance,
        skin.inks,
        skin.ink_tolerance,
        skin.colour_probe,
        parse_spots(skin.manifest.get("spots"), kinds, f"{skin.folder / 'skin.json'}"),
    )
    return TileBank(skin, tuple(chars), matrix, (matrix**2).sum(axis=1), kind_of, kinds, colours)


@dataclass(frozen=True)
class CellScores:
    """Per-cell result of `classify`, arrays of shape (rows, cols)."""

    chars: np.ndarray
    best: np.ndarray
    margin: np.ndarray
    unsure: np.ndarray

    @property
    def mean_best(self) -> float:
        return float(self.best.mean())


def _edges(start: float, pitch: float, count: int) -> np.ndarray:
    """The whole-pixel boundaries of `count` cells: count + 1 increasing ints."""
    return np.asarray(np.rint(start + np.arange(count + 1) * pitch), dtype=int)


def _cell_bounds(
    geo: Geometry, nudge: tuple[np.ndarray, np.ndarray] | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Whole-pixel (left, right) per column and (top, bottom) per row, moved by `nudge`."""
    cols, rows = cell_edges(geo, nudge)
    return cols[:, 0], cols[:, 1], rows[:, 0], rows[:, 1]


def _shrink_cells(
    region: np.ndarray,
    xs: tuple[np.ndarray, np.ndarray],
    ys: tuple[np.ndarray, np.ndarray],
    side: int,
) -> np.ndarray:
    """Every cell between pixel bounds `xs` x `ys` ((starts, ends), relative to `region`)
    shrunk to side x side.

    Area averaging is separable, so each column of cells is shrunk across,
    then each row of cells down: cols + rows small resizes, each cell cut on
    its own whole-pixel edges.
    """
    rows, cols = len(ys[0]), len(xs[0])
    across = np.empty((region.shape[0], cols * side, 3), dtype=region.dtype)
    for c in range(cols):
        across[:, c * side : (c + 1) * side] = cv2.resize(
            region[:, xs[0][c] : xs[1][c]], (side, region.shape[0]), interpolation=cv2.INTER_AREA
        )
    small = np.empty((rows * side, cols * side, 3), dtype=region.dtype)
    for r in range(rows):
        small[r * side : (r + 1) * side] = cv2.resize(
            across[ys[0][r] : ys[1][r]], (cols * side, side), interpolation=cv2.INTER_AREA
        )
    return small


def board_patches(
    image: np.ndarray,
    geo: Geometry,
    inset: int = 0,
    patch: int = PATCH,
    nudge: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray | None:
    """(rows*cols, PATCH*PATCH*3) float32 patches, or None if the grid leaves the image.

    With a whole-pixel grid (fixed-size skins) the board is shrunk in one
    resize. With a fractional pitch (scaled skins: GNOME Mines) the clone
    still draws each cell on whole pixels, 32 or 33 px wide at a 36.25 px
    pitch; one resize of the board would cut every cell at a fractional
    offset, a different one per column, and blur cells of one kind apart
    (a 6 read as a 5). So each cell is cut on its own rounded edges instead,
    moved by `nudge` (whole pixels per column, per row: see `fit_nudge`).
    """
    xs = _edges(geo.left, geo.cell_w, geo.cols)
    ys = _edges(geo.top, geo.cell_h, geo.rows)
    lo_x, hi_x, lo_y, hi_y = _cell_bounds(geo, nudge)
    x0, x1, y0, y1 = int(lo_x.min()), int(hi_x.max()), int(lo_y.min()), int(hi_y.max())
    height, width = image.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height or x1 <= x0 or y1 <= y0:
        return None
    if (np.diff(xs) <= 0).any() or (np.diff(ys) <= 0).any():
        return None
    region = image[y0:y1, x0:x1]
    side = patch + 2 * inset
    whole = float(geo.cell_w).is_integer() and float(geo.cell_h).is_integer()
    # One resize of a board whose cells shrink one way and grow the other (18x13
    # px cells to 14x14) is no resize of each cell: OpenCV's area resize then
    # interpolates, at a phase that drifts from one column of cells to the next,
    # and identical covered cells of a zoo clone came out 163 apart (every cell
    # past the third column read unsure). Each cell is then cut on its own.
    mixed = (geo.cell_w - side) * (geo.cell_h - side) < 0
    if whole and nudge is None and not mixed:
        small = cv2.resize(region, (geo.cols * side, geo.rows * side), interpolation=cv2.INTER_AREA)
    else:
        small = _shrink_cells(region, (lo_x - x0, hi_x - x0), (lo_y - y0, hi_y - y0), side)
    cells = small.reshape(geo.rows, side, geo.cols, side, 3).transpose(0, 2, 1, 3, 4)
    if inset:
        cells = cells[:, :, inset : inset + patch, inset : inset + patch]
    return cells.reshape(geo.rows * geo.cols, -1).astype(np.float32)


def _scores(
    patches: np.ndarray,
    bank: TileBank,
    colours: np.ndarray | None = None,
    inks: np.ndarray | None = None,
    spots: np.ndarray | None = None,
    native: bool = False,
) -> tuple[np.ndarray, ...]:
    """(chars, best, margin, unsure) flat arrays for flat patches.

    `colours` and `inks` (`vision.colour.cell_colours` and `cell_inks` of the
    same cells) are needed when the skin declares colours or inks; kinds
    they rule out never win. `spots` (`cell_spots`) rule on the kinds the
    skin's spots name; a cell that looks most like one of those and that the
    spots turn to a kind they do not name (an unclear spot: '?' and F both
    ruled out) is unsure, never the next kind's look-alike. A patch without
    its kind's shape (`_shaped`) is unsure.
    """
    rule = _colour_rule(bank, colours, inks)
    top, best, margin, unsure = _judge(_per_kind(patches, bank), bank, rule, spots, native)
    shaped = _shaped(patches, bank, native)[np.arange(len(patches)), top]
    return bank.kind_names[top], best, margin, unsure | ~shaped


#: `cv2.gemm` (OpenCV 5.0) multiplies fewer rows than this one row at a time:
#: ~10 times slower per row than its blocked product from this many rows on
#: (99 rows: 2.7 ms, 100 rows: 0.11 ms, against GNOME Mines' 110 templates),
#: and with sums that differ from the blocked product's in the last bits. So
#: every product has at least this many rows (zero rows pad it): a cell's
#: distances are then the same bits however many cells are classified with
#: it (a whole board, its distinct cells, a changed part of it).
GEMM_ROWS = 100


def _per_kind(patches: np.ndarray, bank: TileBank) -> np.ndarray:
    """(cells, kinds) float32: each patch's distance to the nearest template of each kind."""
    count, dim = patches.shape
    rows = patches
    if count < GEMM_ROWS:
        rows = np.zeros((GEMM_ROWS, dim), dtype=patches.dtype)
        rows[:count] = patches
    # cv2.gemm rather than numpy's matmul: OpenBLAS wakes its thread pool for
    # every call, which costs ~7 ms on a loaded 2-core machine; this is ~0.2 ms.
    cross = np.asarray(cv2.gemm(rows, bank.matrix, 1.0, None, 0.0, flags=cv2.GEMM_2_T))  # type: ignore[call-overload]
    cross = cross[:count]
    dist = (patches**2).sum(axis=1)[:, None] - 2.0 * cross + bank.norms[None, :]
    dist = np.maximum(dist, 0.0) / dim
    return _by_kind(dist, bank, np.minimum)  # the best distance per kind


def _by_kind(values: np.ndarray, bank: TileBank, ufunc: np.ufunc) -> np.ndarray:
    """(cells, kinds): `ufunc` over each kind's templates of (cells, templates)
    `values`, one reduction over each kind's slice when they lie in order
    (`TileBank.kind_starts`)."""
    starts = bank.kind_starts
    if starts is not None:
        return np.asarray(ufunc.reduceat(values, starts, axis=1))
    kinds = [ufunc.reduce(values[:, bank.kind_of == k], axis=1) for k in range(len(bank.kinds))]
    return np.stack(kinds, axis=1)


def _colour_rule(
    bank: TileBank, colours: np.ndarray | None, inks: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray] | None:
    """`allowed_kinds` of the cells' colours and inks (None: the skin declares none)."""
    if bank.colours is None or colours is None:
        return None
    return allowed_kinds(colours, bank.colours, len(bank.kinds), inks)


def _judge(
    per_kind: np.ndarray,
    bank: TileBank,
    rule: tuple[np.ndarray, np.ndarray] | None,
    spots: np.ndarray | None = None,
    native: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`_scores` with the best kind's index for its character and the colour rule
    (`_colour_rule`) already made: a row's answer depends on that row alone.

    `native`: the cells are drawn at the size of the skin's tiles, unscaled
    (`_native`), so a tile is the very picture of its kind, and a kind the
    tiles clearly prefer that the colours rule out is a disagreement
    (`_overruled`): sgt-mines' blue 1 saved as a JPEG (quality 90) came out
    navy, the 4's colour, and read as a sure 4 with the 1's tile nearest. At
    other sizes the tiles are resized and the colours rightly overrule them
    (GNOME Mines' 2 at 23 px, sgt-mines' flag at 11 px)."""
    n_kinds = len(bank.kinds)
    idx = np.arange(len(per_kind))
    overruled = None
    if rule is not None:
        allowed, unmatched = rule
        if (bank.skin.scale != 1.0 or native) and n_kinds > 1:
            overruled = _overruled(per_kind, bank.skin, allowed, idx)
        per_kind = np.where(allowed, per_kind, np.inf)
    spot_lost = None
    if bank.colours is not None and spots is not None:
        ruled = bank.colours.spot_kinds
        looked = per_kind.argmin(axis=1)
        per_kind = np.where(spots_allow(spots, bank.colours, n_kinds), per_kind, np.inf)
        spot_lost = ruled[looked] & ~ruled[per_kind.argmin(axis=1)]
    order = np.argsort(per_kind, axis=1)
    top = order[:, 0]
    best = per_kind[idx, top]
    second = per_kind[idx, order[:, 1]] if n_kinds > 1 else np.full_like(best, np.inf)
    with np.errstate(invalid="ignore"):  # inf - inf: no kind allowed at all
        margin = np.where(np.isfinite(best), second - best, 0.0)
    skin = bank.skin
    ceiling: float | np.ndarray = skin.max_distance
    if rule is not None:
        assert bank.colours is not None
        declared = bank.colours.declared
        # No declared colour: never a kind that declares one. When the colour
        # (and the inks) leave only one kind that declares a colour, they name
        # the cell whatever its glyph's hinting at this scale; the glyph then
        # only has to be roughly alike.
        top_declared = declared[top]
        unsure_colour = unmatched & top_declared
        # (`allowed` before the spots: a spot that rules out the flag leaves
        # the covered tile, which must not then pass as named by colour.)
        named = ~unmatched & ((allowed & declared[None, :]).sum(axis=1) == 1)
        ceiling = np.where(named & top_declared, skin.colour_max_distance, ceiling)
    unsure = ~np.isfinite(best) | (best > ceiling) | (margin < skin.min_margin)
    if OPEN_UNKNOWN in bank.kinds and n_kinds > 1:
        top, unsure = _open_either_way(bank, top, order[:, 1], best <= ceiling, unsure)
    if rule is not None:
        unsure |= unsure_colour
    if spot_lost is not None:
        unsure |= spot_lost
    if overruled is not None:
        unsure |= overruled
    return top, best, margin, unsure


def _native(skin: Skin, geo: Geometry) -> bool:
    """Whether the grid's cells are whole pixels of a size every kind of the
    skin has a tile of (the size the skin was cut at: sgt-mines' 20 px, not
    the 11 px of its one extra 7)."""
    size = (geo.cell_w, geo.cell_h)
    if skin.scale != 1.0 or not all(float(v).is_integer() for v in size):
        return False
    return all(any(img.shape[1::-1] == size for img in imgs) for imgs in skin.tiles.values())


def _open_either_way(
    bank: TileBank, top: np.ndarray, second: np.ndarray, near: np.ndarray, unsure: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """A learned skin's cell torn between an open cell of unknown value ('-') and a
    number (one digit drawn as several looks, not all named yet: KMines' tiles
    let a gradient through) is an open cell either way: read as '-', which says
    no more than that."""
    opens = np.isin(bank.kind_names, list(OPEN_KINDS))
    dash = bank.kinds.index(OPEN_UNKNOWN)
    torn = unsure & near & opens[top] & opens[second] & ((top == dash) | (second == dash))
    return np.where(torn, dash, top), unsure & ~torn


def _overruled(
    per_kind: np.ndarray, skin: Skin, allowed: np.ndarray, idx: np.ndarray
) -> np.ndarray:
    """Cells whose tiles alone clearly prefer a kind the colours and inks rule out.

    At a desktop scale a linear blend turns a one-pixel stroke into other
    colours, one of which can be another kind's ink: sgt-mines' black 7 at
    11 px, 200 %, showed no black but the 8's grey, and the 8, the one kind
    left, passed under the colour-named limit (2090 < 2400) with the 7's
    tile 217 away; at 300 % the 7 was 448 away and the 8 read after a shift;
    a teal 6 at 225 % showed no ink and read as a 0. Where the nearest tile
    is within the widest limit and every other kind's at least min_margin
    farther, while colours and inks allow none of it, tiles and colours
    disagree: the cell is unsure rather than read as either (11 px cells at
    125 % nearest, whose inks were right, then read 12 cells unsure).
    """
    two = np.partition(per_kind, 1, axis=1)
    top = per_kind.argmin(axis=1)
    near = two[:, 0] <= max(skin.max_distance, skin.colour_max_distance)
    sure = near & (two[:, 1] - two[:, 0] >= skin.min_margin)
    return np.asarray(sure & ~allowed[idx, top])


#: A template whose shape (`_shape`) is fainter than this (mean squared
#: deviation from its own mean colour) is a flat tile: a cell of its kind must
#: be about as flat (`FLAT_SLACK`), there is no shape to compare.
FLAT_SHAPE = 300.0
#: The least share of a template's shape energy a cell of its kind shows,
#: and the least likeness of the two shapes (correlation). A translucent box
#: scales what lies under it towards its colour: a 50 % box leaves a quarter
#: of the energy, and GNOME Mines' covered cell under a dark box, a flat
#: tile, was nearest to its mine tile without a trace of the mine's shape;
#: sgt-mines' open 0 under a white box was nearest to its covered tile with
#: a quarter of the covered bevels' energy. Real cells drawn at the tiles'
#: size show all of it; scaled and anti-aliased (GNOME Mines' numbers, 23 to
#: 149 px) a likeness of 0.73 and more.
LEAST_SHARE = 0.35
LEAST_LIKENESS = 0.5
#: How much more shape than a flat tile's a cell of its kind may show: this
#: many times the tile's, and this much besides (noise, a scaled cell's
#: edge). GNOME Mines' mine under a white box at 70 % kept a tenth of its
#: shape (76) and was nearest to its open 0 (0); real 0s show 6 at most,
#: sgt-mines' (169) 271 at most scaled.
FLAT_SLACK, FLAT_NOISE = 4.0, 30.0


def _shape(rows: np.ndarray) -> np.ndarray:
    """Flat patches with each one's mean colour (per channel) taken away: what
    is left is its shape, which a blend towards one colour (a translucent
    box) only scales."""
    v = rows.reshape(len(rows), -1, 3)
    return np.asarray((v - v.mean(axis=1, keepdims=True)).reshape(len(rows), -1))


def _likeness(patches: np.ndarray, bank: TileBank) -> tuple[np.ndarray, np.ndarray]:
    """(cells, templates) correlation of each patch's shape (`_shape`) with each
    template's, and (cells,) each patch's own shape energy."""
    unit = bank.shapes[0]
    count = len(patches)
    shape = _shape(patches)
    rows = shape
    if count < GEMM_ROWS:  # see GEMM_ROWS: a cell's answer never depends on the others
        rows = np.zeros((GEMM_ROWS, shape.shape[1]), dtype=np.float32)
        rows[:count] = shape
    cross = np.asarray(cv2.gemm(rows, unit, 1.0, None, 0.0, flags=cv2.GEMM_2_T))[:count]  # type: ignore[call-overload]
    own = (shape**2).mean(axis=1)
    norm = np.sqrt((shape**2).sum(axis=1))
    return cross / np.maximum(norm, 1e-6)[:, None], own


def _shaped(patches: np.ndarray, bank: TileBank, native: bool) -> np.ndarray:
    """(cells, kinds) bool: whether each patch shows the shape of some template
    of each kind, or is about as flat as one of its flat tiles.

    The distances compare colours: a picture a translucent box blended can be
    nearest to another kind's tile (a flat dark tile to a mine on a dark
    tile). The shape tells: a kind's glyph or bevels are in its cells, faint
    or not, and a cell without them is not of that kind (`LEAST_LIKENESS`).
    Where the cells are drawn at the size of the skin's tiles (`native`), a
    tile is the very picture of its kind, and a cell shows all of its shape
    (`LEAST_SHARE`); at other sizes a thin line may fall between two pixels
    and lose most of its energy (minegauler's open 0 at 125 %: a fifth)."""
    energy = bank.shapes[1]
    likeness, own = _likeness(patches, bank)
    flat = energy < FLAT_SHAPE
    fits = likeness >= LEAST_LIKENESS
    if native:
        fits &= own[:, None] >= LEAST_SHARE * energy[None, :]
    fits |= flat[None, :] & (own[:, None] <= FLAT_SLACK * energy[None, :] + FLAT_NOISE)
    return _by_kind(fits, bank, np.logical_or)


def _spot_bounds(
    geo: Geometry, nudge: tuple[np.ndarray, np.ndarray] | None, cells: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Whole-pixel (x0, x1, y0, y1) of flat cell indices `cells` (row-major)."""
    x0, x1, y0, y1 = _cell_bounds(geo, nudge)
    row, col = np.divmod(cells, geo.cols)
    return x0[col], x1[col], y0[row], y1[row]


def _on_image(image: np.ndarray, geo: Geometry) -> bool:
    height, width = image.shape[:2]
    return (
        geo.left >= 0
        and geo.top >= 0
        and geo.left + geo.width <= width
        and geo.top + geo.height <= height
    )


def classify(
    image: np.ndarray,
    geo: Geometry,
    bank: TileBank,
    nudge: tuple[np.ndarray, np.ndarray] | None = None,
    sampler: CellSampler | None = None,
) -> CellScores | None:
    """Every cell's best character with its distance and margin (None: grid off-image).

    A scaled grid (fractional pitch, or nudged) is cut by `vision.sampling`
    (one remap, several times cheaper than `board_patches`' per-column and
    per-row resizes); `sampler` is reused when it was built for this grid.
    """
    inset, patch = bank.skin.inset, bank.skin.patch
    if nudge is None and bank.skin.cut_on_edges and _on_image(image, geo):
        nudge = edges_nudge(image, geo)  # a learned skin: cells cut as its tiles were
    if not is_scaled(geo, nudge):
        patches = board_patches(image, geo, inset, patch)
    else:
        if sampler is None or not sampler.fits(geo, nudge, inset, patch):
            sampler = make_sampler(geo, nudge, inset, patch)
        patches = sample_patches(image, sampler)
    if patches is None:
        return None
    colours, inks = grid_features(image, geo, bank, nudge)
    return cell_scores(image, geo, bank, nudge, patches, colours, inks)


def grid_features(
    image: np.ndarray,
    geo: Geometry,
    bank: TileBank,
    nudge: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Every cell's colour and inks (`grid_colours`, `grid_inks`; None, None when
    the skin declares none). The grid must lie inside the image."""
    if bank.colours is None:
        return None, None
    x0, x1, y0, y1 = _cell_bounds(geo, nudge)
    colours = grid_colours(image, (x0, x1), (y0, y1), bank.colours.probe)
    return colours, grid_inks(image, (x0, x1), (y0, y1), bank.colours)


def cell_scores(
    image: np.ndarray,
    geo: Geometry,
    bank: TileBank,
    nudge: tuple[np.ndarray, np.ndarray] | None,
    patches: np.ndarray,
    colours: np.ndarray | None,
    inks: np.ndarray | None,
    group: np.ndarray | None = None,
    edges: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> CellScores:
    """`classify`'s answer from the cells' patches, colours and inks (`grid_colours`,
    `grid_inks`; None when the skin declares none).

    With `group`, the rows are those of a few distinct cells, and cell i of
    the board (row-major) is the one of row group[i] (`vision.distinct`):
    patch distances, colours and inks are decided once per distinct cell,
    spots (which look at each cell's own pixels) per cell of the board.
    `edges`, if given, are the whole-pixel (x0, x1, y0, y1) of every cell of
    the board (row-major) that `geo` and `nudge` give (the caller's, kept).

    Spots are looked for only on the cells read as a kind some spot rules
    on, which are then decided again with them: a cell read as another kind
    keeps its reading (ruling out a runner-up could only widen its margin),
    and a board of covered cells pays nothing.
    """
    per_kind = _per_kind(patches, bank)
    rule = _colour_rule(bank, colours, inks)
    native = _native(bank.skin, geo)
    top, best, margin, unsure = _judge(per_kind, bank, rule, native=native)
    shaped = _shaped(patches, bank, native)
    if group is not None:
        top, best, margin, unsure = top[group], best[group], margin[group], unsure[group]
        shaped = shaped[group]
    table = bank.colours
    if table is not None and table.spots:
        pick = np.flatnonzero(table.spot_kinds[top])
        if len(pick):
            if edges is None:
                x0, x1, y0, y1 = _spot_bounds(geo, nudge, pick)
            else:
                x0, x1, y0, y1 = (edge[pick] for edge in edges)
            spots = cell_spots(image, x0, x1, y0, y1, table)
            lines = pick if group is None else group[pick]
            part = _judge(
                per_kind[lines],
                bank,
                None if rule is None else (rule[0][lines], rule[1][lines]),
                spots,
                native,
            )
            for whole, new in zip((top, best, margin, unsure), part, strict=True):
                whole[pick] = new
    # A cell without the shape of the kind it is nearest to (a box over it) is unsure.
    unsure = unsure | ~shaped[np.arange(len(top)), top]
    shape = (geo.rows, geo.cols)
    return CellScores(
        bank.kind_names[top].reshape(shape),
        best.reshape(shape),
        margin.reshape(shape),
        unsure.reshape(shape),
    )


def off_palette(image: np.ndarray, geo: Geometry, bank: TileBank) -> np.ndarray | None:
    """(rows, cols): cells whose colour is none the skin declares for any kind.

    None unless the skin declares the colours of its covered and its open 0
    tiles: only then is a cell of the board's own off the palette just when it
    shows something drawn over it (a mine, a red exploded tile), and a whole
    line of such cells is no line of the board (GNOME Mines' side panel at
    the board's pitch). `geo` must lie inside the image.
    """
    table = bank.colours
    kinds = list(bank.kinds)
    if table is None or not all(k in kinds and table.declared[kinds.index(k)] for k in ".0"):
        return None
    x0, x1, y0, y1 = _cell_bounds(geo, None)
    seen = grid_colours(image, (x0, x1), (y0, y1), table.probe)
    near = np.abs(seen[:, None, :] - table.colours[None, :, :]).max(axis=2) <= table.tolerance
    return np.asarray(~near.any(axis=1)).reshape(geo.rows, geo.cols)


def fit_nudge(
    image: np.ndarray, geo: Geometry, bank: TileBank, first: CellScores | None = None
) -> tuple[np.ndarray, np.ndarray] | None:
    """Per-column x and per-row y whole-pixel moves that fit the templates best.

    A scaled skin's cells sit on whole pixels at a pitch that is not an
    integer, and its templates were cut at other sizes: no single grid puts
    every column where the templates expect it (a 6 then reads as a sure 5).
    Each column (row) takes the move of -1..1 px that minimises its cells'
    distances, from 2 + 2 extra classifications of the whole board, once per
    located board (`first`: the caller's classification of `geo` itself, if
    it has one). None for whole-pixel grids (nothing to fit).
    """
    if float(geo.cell_w).is_integer() and float(geo.cell_h).is_integer():
        return None
    steps = np.array([-1, 0, 1])
    unmoved = first if first is not None else classify(image, geo, bank)
    moves: list[np.ndarray] = []
    for axis in (0, 1):
        costs = []
        for step in steps:
            moved = geo.shifted(step, 0) if axis == 0 else geo.shifted(0, step)
            scores = unmoved if step == 0 else classify(image, moved, bank)
            if scores is None:
                costs.append(np.full((geo.rows, geo.cols), np.inf))
                continue
            costs.append(scores.best + 1000.0 * scores.unsure)
        per_line = np.stack([c.sum(axis=axis) for c in costs])
        moves.append(np.asarray(steps[per_line.argmin(axis=0)], dtype=int))
    return moves[0], moves[1]


#: `rescue` gives up above this many unsure cells: that is not a grid a pixel
#: off here and there but a wrong grid or something drawn over the board.
MAX_RESCUE = 24


def _cell_patches(
    image: np.ndarray,
    geo: Geometry,
    cells: np.ndarray,
    shifts: np.ndarray,
    bank: TileBank,
    nudge: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Patches of `cells` (rows of (row, col)) with each shift (rows of (dx, dy)) applied.

    Row i * len(shifts) + j is cell i moved by shift j; shifts that leave the
    image give a patch of NaN (never the best).
    """
    inset, patch = bank.skin.inset, bank.skin.patch
    side = patch + 2 * inset
    height, width = image.shape[:2]
    out = np.full((len(cells) * len(shifts), patch * patch * 3), np.nan, dtype=np.float32)
    col_edges, row_edges = cell_edges(geo, nudge)
    x0, x1 = col_edges[cells[:, 1], 0], col_edges[cells[:, 1], 1]
    y0, y1 = row_edges[cells[:, 0], 0], row_edges[cells[:, 0], 1]
    n = 0
    for i in range(len(cells)):
        for dx, dy in shifts:
            a, b, c, d = x0[i] + dx, x1[i] + dx, y0[i] + dy, y1[i] + dy
            if a >= 0 and c >= 0 and b <= width and d <= height:
                small = cv2.resize(image[c:d, a:b], (side, side), interpolation=cv2.INTER_AREA)
                out[n] = small[inset : inset + patch, inset : inset + patch].reshape(-1)
            n += 1
    return out


#: The least likeness (`_likeness`) of a cell's own cut to the shape of the
#: kind a shifted cut reads it as (`rescue`), for kinds with no flat tile: a
#: cut a pixel or two off shows a shape much like the cell's. The real cells
#: rescued on every frame the project holds (GNOME Mines' flags and marks at
#: 23 to 49 px) show 0.68 and more; sgt-mines' open 0 under a white box, read
#: as a covered tile once shifted, -0.47.
RESCUE_LEAST_LIKENESS = 0.3


def rescue(
    image: np.ndarray,
    geo: Geometry,
    bank: TileBank,
    scores: CellScores,
    nudge: tuple[np.ndarray, np.ndarray] | None = None,
) -> CellScores:
    """`scores` with unsure cells read again a pixel or two off the grid (see module doc).

    Only the unsure cells are cut again (one small resize per cell and
    shift, one matrix product for all): a read of a well-aligned board pays
    nothing. A cell stays unsure unless some shift reads it surely, as a kind
    its own cut does not contradict (`RESCUE_LEAST_LIKENESS`); the shift with
    the smallest distance wins.
    """
    cells = np.argwhere(scores.unsure)
    if len(cells) == 0 or len(cells) > MAX_RESCUE:
        return scores
    reach = 1 if max(geo.cell_w, geo.cell_h) < 30 else 2
    span = np.arange(-reach, reach + 1)
    shifts = np.array([(dx, dy) for dy in span for dx in span if dx or dy])
    patches = _cell_patches(image, geo, cells, shifts, bank, nudge)
    ok = ~np.isnan(patches[:, 0])
    if not ok.any():
        return scores
    colours = inks = spots = None
    if bank.colours is not None:  # a cell's colour, inks and spots, whatever the shift of its glyph
        bounds = _spot_bounds(geo, nudge, cells[:, 0] * geo.cols + cells[:, 1])
        colours = np.repeat(cell_colours(image, *bounds, bank.colours.probe), len(shifts), axis=0)
        inks = np.repeat(cell_inks(image, *bounds, bank.colours), len(shifts), axis=0)
        if bank.colours.spots:
            spots = np.repeat(cell_spots(image, *bounds, bank.colours), len(shifts), axis=0)
    chars, best, margin, unsure = _scores(
        np.nan_to_num(patches, nan=0.0), bank, colours, inks, spots, _native(bank.skin, geo)
    )
    # A cell whose own cut shows the opposite of a kind's shape is not of that
    # kind, whatever a shifted cut looks like: sgt-mines' open 0 blended by a
    # white box, shifted so its grid line falls where a covered tile's shadow
    # is, read as a sure covered cell.
    here = _cell_patches(image, geo, cells, np.zeros((1, 2), dtype=int), bank, nudge)
    opposite = _by_kind(_likeness(np.nan_to_num(here, nan=0.0), bank)[0], bank, np.maximum)
    kind = (chars[:, None] == bank.kind_names[None, :]).argmax(axis=1)
    kind = kind.reshape(len(cells), len(shifts))
    flat = _by_kind(bank.shapes[1][None, :] < FLAT_SHAPE, bank, np.logical_or)[0]
    against = (np.take_along_axis(opposite, kind, axis=1) < RESCUE_LEAST_LIKENESS) & ~flat[kind]
    best = np.where(
        (ok & ~unsure).reshape(len(cells), len(shifts)) & ~against,
        best.reshape(len(cells), len(shifts)),
        np.inf,
    )
    pick = best.argmin(axis=1)
    found = np.isfinite(best[np.arange(len(cells)), pick])
    if not found.any():
        return scores
    flat = np.arange(len(cells)) * len(shifts) + pick
    out = [a.copy() for a in (scores.chars, scores.best, scores.margin, scores.unsure)]
    r, c, f = cells[found, 0], cells[found, 1], flat[found]
    out[0][r, c] = chars[f]
    out[1][r, c] = best.reshape(-1)[f]
    out[2][r, c] = margin[f]
    out[3][r, c] = False
    return CellScores(*out)
