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

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from bot.errors import VisionError
from vision.classify import PATCH, board_patches
from vision.cuts import Cuts
from vision.geometry import Geometry, part_of
from vision.lattice import ASPECT_ANY, FLAT_STEP, Lattice, find_lattices
from vision.learn.cluster import cluster

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
    a grid a pixel off cuts every cell with a strip of its neighbour. Then the
    grid is settled where its cells look most alike (`_settle`).
    """
    pw, ph = round(geo.cell_w), round(geo.cell_h)
    near = abs(geo.cell_w - pw) <= NEAR_INTEGER and abs(geo.cell_h - ph) <= NEAR_INTEGER
    snapped = abs(geo.cell_w - pw) <= INTEGER_PITCH and abs(geo.cell_h - ph) <= INTEGER_PITCH
    if not near or (not snapped and image is None):
        return geo
    left, top = float(round(geo.left)), float(round(geo.top))
    base = Geometry(left, top, pw, ph, geo.rows, geo.cols)
    if image is None:
        return base
    if abs(geo.left % 1 - 0.5) < 0.15:
        pick = [base, base.shifted(-1, 0), base.shifted(1, 0)]
        left = max(pick, key=lambda g: _edge_at(image, g, 1)).left
    if abs(geo.top % 1 - 0.5) < 0.15:
        pick = [base, base.shifted(0, -1), base.shifted(0, 1)]
        top = max(pick, key=lambda g: _edge_at(image, g, 0)).top
    whole = Geometry(left, top, pw, ph, geo.rows, geo.cols)
    if snapped:
        return _settle(image, whole)
    # A fit a little off a whole pitch (27.8 for KMines' 28 px tiles, fitted on a
    # lost board) drifts a pixel or two across the board; a scaled clone's real
    # fractional pitch (GNOME Mines' 36.26) does not fit whole pixels: keep the
    # one whose cells look more alike.
    frac, whole_score = _likeness(image, geo), _likeness(image, whole)
    if whole_score is not None and (frac is None or whole_score < frac):
        return _settle(image, whole)
    return geo


#: A fitted pitch this close to a whole number is also tried as that whole number.
NEAR_INTEGER = 0.3
#: A cell's distance to its nearest other cell counts at most this much: a kind
#: shown once (the hit mine) is far from everything wherever the grid is.
LIKENESS_CAP = 1500.0
#: Pixels a whole-pixel grid may move to where its cells look most alike.
SETTLE = 2
#: How much better cells must look alike for the grid to move further (up to
#: half a cell): on a fresh board every phase makes the inner cells alike, and
#: only the outer rows and columns, cut with the frame, tell the right one.
FAR_BETTER = 0.5


def _likeness(image: np.ndarray, geo: Geometry) -> float | None:
    """Mean distance of each cell to its nearest other cell (capped); None off the
    image or for a grid of one line.

    Cells of one kind are drawn alike, so on the right grid most cells have a
    twin in another row and column, at the board's edges too. A grid a pixel
    off the tiles cuts the first or last row or column with a strip of the
    board's frame (KMines' 2 px gaps sit on one side of the tile), and a wrong
    pitch cuts every cell at another phase: both leave cells without a twin.
    """
    found = board_patches(image, geo)
    if found is None or len(found) < 2:
        return None
    # The outer two rows and columns and the middle ones tell (the frame cuts into
    # the outer ones, a drifting pitch shows at the far side): a 16x30 board
    # costs ~200 cells instead of 480 (the distances grow with the square).
    rows, cols = np.divmod(np.arange(len(found)), geo.cols)
    keep_r = np.isin(rows, [0, 1, geo.rows // 2, geo.rows - 2, geo.rows - 1])
    keep_c = np.isin(cols, [0, 1, geo.cols // 2, geo.cols - 2, geo.cols - 1])
    keep = keep_r | keep_c
    cells, rows, cols = found[keep], rows[keep], cols[keep]
    norms = (cells**2).sum(axis=1)
    d = np.maximum(norms[:, None] - 2.0 * cells @ cells.T + norms[None, :], 0.0) / cells.shape[1]
    # A twin in another row and another column: the cells of one edge row are
    # all cut alike, right or wrong, and would be each other's twins.
    d[(rows[:, None] == rows[None, :]) | (cols[:, None] == cols[None, :])] = np.inf
    near = d.min(axis=1)
    finite = near[np.isfinite(near)]
    if finite.size == 0:
        return None  # one row or one column: no cell has a twin to tell by
    return float(np.minimum(finite, LIKENESS_CAP).mean())


def _settle(image: np.ndarray, geo: Geometry) -> Geometry:
    """The whole-pixel grid moved by up to SETTLE px per axis to where its cells look
    most alike (`_likeness`); it stays put unless a move is clearly better."""
    best, score = geo, _likeness(image, geo)
    if score is None:
        return geo
    for axis in (1, 0):
        base = best
        # One pixel each way first; two only in a direction that one improved.
        for sign in (-1, 1):
            for size in range(1, SETTLE + 1):
                step = sign * size
                moved = base.shifted(step, 0) if axis == 1 else base.shifted(0, step)
                here = _likeness(image, moved)
                if here is None or here >= 0.8 * score - 1.0:
                    break
                best, score = moved, here
    # Then any phase up to half a cell, taken only when far better: a gradient
    # tile whose middle is the window's colour (zoo seed 1783849837) had its
    # lattice found 4 px low, every cell cut with the top of the one below, and
    # covered cells above an open one were learned as open 0s.
    for axis in (1, 0):
        pitch = best.cell_w if axis == 1 else best.cell_h
        far = [s for s in range(-int(pitch // 2), int(pitch // 2) + 1) if abs(s) > SETTLE]
        tries = [(best.shifted(s, 0) if axis == 1 else best.shifted(0, s)) for s in far]
        scored = [(here, g) for g in tries if (here := _likeness(image, g)) is not None]
        if scored:
            here, moved = min(scored, key=lambda t: t[0])
            # And only onto stronger colour steps between cells: cut half a
            # tile off, every cell of a fresh board is alike too (zoo seed
            # 117233979's bevelled tiles were cut so, 13 px off, and a column
            # of the board was left out).
            sharper = _edge_at(image, moved, axis) > _edge_at(image, best, axis)
            if here < FAR_BETTER * score - 1.0 and sharper:
                best, score = moved, here
    return best


def _settle_grown(image: np.ndarray, geo: Geometry) -> Geometry:
    """A whole-pixel grid settled again once grown to the board's outer lines: a
    lattice that stops short of them (every inner cell of a fresh board alike
    at any phase) says nothing of its phase, the outer lines do (`_settle`)."""
    whole = all(float(v).is_integer() for v in (geo.left, geo.top, geo.cell_w, geo.cell_h))
    return _settle(image, geo) if whole else geo


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


#: A smoothed picture's grid is taken over the picture's own when it has this
#: many times more tiles; a grid of cells far from square over one of square
#: cells when it has this many times more.
SMOOTHED_BETTER = 2.0
ANY_SHAPE_BETTER = 1.2


#: The colour spread of a pixel's neighbours (`vision.lattice.flat_mask`) inside
#: a tile drawn as a gradient: twice its step from pixel to pixel, which grows as
#: the tile shrinks (a zoo clone's 11 px tall tiles stepped by 8: spread 16, and
#: no grid was found).
GRADIENT_STEP = 20


def _variants(image: np.ndarray) -> list[list[Lattice]]:
    """The grids of the picture as it is (square cells, then any shape), then
    smoothed over 2x2 pixels (xbomb draws its covered tiles as a one-pixel
    checkerboard of grey and white, an X11 stipple, flat only once neighbouring
    pixels are averaged) and over 5x5 (a median: tiles with a grain of their own,
    a noisy texture, flatten too; a Gaussian: a grain of pixels far apart in
    colour, which a median leaves in spots that cut a tile's inside in pieces of
    every size, flattens only when averaged), then with tiles whose colour steps
    from pixel to pixel (a gradient).

    Tiles of any size link here (`find_lattices`' link_sizes None), as they did
    before locating kept glyph pieces apart: the robust refit of a GNOME Mines
    board at 90.6 px (cells drawn 90 or 91 px apart) on its cell insides
    alone keeps only the centres near their median offset and came out at
    90.8 px, more than a tenth of a pixel a cell off (the plain fit: 90.68),
    and the skin learned so read a "?" of its own recording unsure."""

    def loose(picture: np.ndarray, step: int = FLAT_STEP) -> list[Lattice]:
        return find_lattices(picture, aspect=ASPECT_ANY, robust=True, step=step, link_sizes=None)

    return [
        find_lattices(image, robust=True, link_sizes=None),
        loose(image),
        loose(cv2.blur(image, (2, 2))),
        loose(cv2.medianBlur(image, 5)),
        loose(cv2.GaussianBlur(image, (5, 5), 0)),
        loose(image, step=GRADIENT_STEP),
    ]


def _lattices(image: np.ndarray) -> list[Lattice]:
    """The grids of the picture as it is with square cells; of cells up to
    `ASPECT_ANY` times wider than tall (or taller than wide) when that finds
    clearly more tiles; of the picture smoothed when that finds no grid, or one
    with far fewer tiles. The plainest reading comes first: a looser one also
    takes in what is no tile (a part of a panel above the board, drawn in a
    tile-sized step, joined a lattice as two extra rows). A smoothed picture
    may put the grid a half pixel off; `_snap` puts it back on whole pixels."""
    square, any_shape, *smoothed = _variants(image)
    best = square
    if any_shape and (not best or any_shape[0].found > ANY_SHAPE_BETTER * best[0].found):
        best = any_shape
    for found in smoothed:
        if found and (not best or found[0].found > SMOOTHED_BETTER * best[0].found):
            best = found
    return best


#: The least rows and columns of a grid the live learner takes for a board.
MIN_BOARD_SIDE = 5
#: The share of a fresh board's cells its commonest picture covers, at least.
FRESH_SHARE = 0.6
#: A board in play (a game a person started, a clone that opens an area by
#: itself) shows regions: covered cells beside covered cells, open beside open.
#: The share of side-by-side cell pairs showing one picture, at least (a chess
#: board: none; a grid of photos: none; a fresh board: all) ...
IN_PLAY_SAME = 0.6
#: ... the share of its commonest picture, at least ...
IN_PLAY_SHARE = 0.3
#: ... and the pictures it shows, at most (covered, open, 8 numbers, a flag, a mark).
IN_PLAY_KINDS = 12
#: Numbers along an open area's edge break its pairs (zoo seed 560595241: an
#: 8x8 page that opened most of its board by itself, 0.59 of its pairs alike):
#: a grid with fewer alike pairs, down to `IN_PLAY_BROKEN`, is a board in play
#: still when the pairs of its two commonest pictures (covered and open) are
#: nearly all alike (`IN_PLAY_REGIONS`); a spreadsheet's empty cells beside
#: its numbers are not.
IN_PLAY_BROKEN, IN_PLAY_REGIONS = 0.5, 0.75


@dataclass(frozen=True)
class Likeness:
    """How much a grid's cells look like a Minesweeper board's."""

    #: The share of the cells showing the commonest picture.
    share: float
    #: The share of side-by-side cell pairs showing one picture.
    same: float
    #: The pictures the cells show.
    kinds: int
    #: The share of side-by-side pairs of cells showing the two commonest
    #: pictures, each, that show one picture.
    regions: float = 0.0

    @property
    def fresh(self) -> bool:
        """Like a fresh board: nearly every cell one picture."""
        return self.share >= FRESH_SHARE

    @property
    def in_play(self) -> bool:
        """Like a board in play: a few pictures, each in regions of its own."""
        alike = self.same >= IN_PLAY_SAME or (
            self.same >= IN_PLAY_BROKEN and self.regions >= IN_PLAY_REGIONS
        )
        return self.share >= IN_PLAY_SHARE and alike and self.kinds <= IN_PLAY_KINDS


def likeness(image: np.ndarray, geo: Geometry) -> Likeness:
    """The grid's cells compared with each other (see `Likeness`)."""
    found = board_patches(image, geo)
    if found is None or len(found) == 0:
        return Likeness(0.0, 0.0, 0)
    clusters = cluster(found)
    labels = clusters.labels.reshape(geo.rows, geo.cols)
    across = labels[:, 1:] == labels[:, :-1]
    down = labels[1:, :] == labels[:-1, :]
    pairs = across.size + down.size
    same = float(across.sum() + down.sum()) / pairs if pairs else 0.0
    sizes = clusters.sizes()
    common = np.isin(labels, np.argsort(sizes)[::-1][:2])
    both_across = common[:, 1:] & common[:, :-1]
    both_down = common[1:, :] & common[:-1, :]
    both = int(both_across.sum() + both_down.sum())
    regions = float(across[both_across].sum() + down[both_down].sum()) / both if both else 0.0
    return Likeness(float(sizes.max() / len(found)), same, int((sizes > 0).sum()), regions)


#: Share of a tile cut off on its outer side when a line past a lattice is
#: compared with the line beside it (that side meets the board's frame).
OUTER_CUT = 0.2
#: Mean squared difference (per colour value) within which two tiles so cut are
#: one picture, and the share of a line's tiles that must be.
GROW_SAME = 60.0
GROW_SHARE = 0.8


def _cut_tile(
    image: np.ndarray, geo: Geometry, r: int, c: int, sides: tuple[str, ...]
) -> np.ndarray | None:
    """Tile (r, c) of `geo` (which may lie one line past it), the OUTER_CUT part
    of it on each of `sides` left out; None off the image."""
    x0, x1 = round(geo.left + c * geo.cell_w), round(geo.left + (c + 1) * geo.cell_w)
    y0, y1 = round(geo.top + r * geo.cell_h), round(geo.top + (r + 1) * geo.cell_h)
    cut_x, cut_y = round((x1 - x0) * OUTER_CUT), round((y1 - y0) * OUTER_CUT)
    x0 += cut_x if "left" in sides else 0
    x1 -= cut_x if "right" in sides else 0
    y0 += cut_y if "top" in sides else 0
    y1 -= cut_y if "bottom" in sides else 0
    height, width = image.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height or x1 - x0 < 2 or y1 - y0 < 2:
        return None
    return np.asarray(image[y0:y1, x0:x1, :3], np.float32)


def _grown_line(image: np.ndarray, geo: Geometry, side: str) -> bool:
    """Whether the line of tiles just past `side` of `geo` is drawn as the
    line beside it, tile by tile, on every part but the outer one (where the
    last line meets the board's frame instead of a gap), and those tiles are
    drawn as the lattice's own cells. (A line of the window's background
    beside a toolbar line that is mostly background too is no line of cells:
    a dark zoo clone's grid grew two such lines above its toolbar, and its
    board was read 20x12 for 22x9, clicks landing on other cells.) The tiles at
    the line's two ends are the board's corners: they meet the frame on a
    second side too (a zoo clone without lines past its last row and column
    had its last row grown, then its last column refused for that corner, and
    was played a column short), so that side is left out as well."""
    if side in ("top", "bottom"):
        r_out, r_in = (-1, 0) if side == "top" else (geo.rows, geo.rows - 1)
        pairs = [((r_out, c), (r_in, c)) for c in range(geo.cols)]
    else:
        c_out, c_in = (-1, 0) if side == "left" else (geo.cols, geo.cols - 1)
        pairs = [((r, c_out), (r, c_in)) for r in range(geo.rows)]
    line_sides = _line_cut_sides(side, len(pairs))
    spots = [
        (int(r), int(c))
        for r in np.linspace(1, geo.rows - 2, min(6, max(geo.rows - 2, 1))).round().astype(int)
        for c in np.linspace(1, geo.cols - 2, min(6, max(geo.cols - 2, 1))).round().astype(int)
    ]
    # The lattice's own tiles, cut as each pair is (three ways at most).
    cut = _tiles_cut(image, geo, spots, [(side,), *line_sides])
    bound = _noise_bound(cut[(side,)])
    alike = 0
    for (out, near), sides in zip(pairs, line_sides, strict=True):
        a = _cut_tile(image, geo, *out, sides)
        b = _cut_tile(image, geo, *near, sides)
        if a is None or b is None:
            return False
        alike += _same(a, b, bound) and any(_same(b, cell, bound) for cell in cut[sides])
    return alike >= GROW_SHARE * len(pairs)


def _line_cut_sides(side: str, count: int) -> list[tuple[str, ...]]:
    """How each of `count` tiles of a line past `side` is cut (`_cut_tile`): on
    `side`, and the two end tiles, the board's corners, on their end's side
    too (they meet the frame there, their neighbours a gap)."""
    ends = ("left", "right") if side in ("top", "bottom") else ("top", "bottom")
    return [
        (side, ends[0]) if i == 0 else (side, ends[1]) if i == count - 1 else (side,)
        for i in range(count)
    ]


def _tiles_cut(
    image: np.ndarray,
    geo: Geometry,
    cells: list[tuple[int, int]],
    ways: list[tuple[str, ...]],
) -> dict[tuple[str, ...], list[np.ndarray]]:
    """The lattice's tiles at `cells`, cut each of `ways` (those off the image left out)."""
    cut: dict[tuple[str, ...], list[np.ndarray]] = {}
    for sides in dict.fromkeys(ways):
        tiles = (_cut_tile(image, geo, r, c, sides) for r, c in cells)
        cut[sides] = [t for t in tiles if t is not None]
    return cut


#: A clone's own noise widens GROW_SAME to this many times what its cells,
#: one after the other, differ by (the GROW_NOISE_SHARE quantile), up to
#: GROW_NOISE_CAP.
GROW_NOISE = 1.5
GROW_NOISE_SHARE = 0.25
GROW_NOISE_CAP = 400.0


def _noise_bound(cells: list[np.ndarray]) -> float:
    """GROW_SAME, or more for a clone that draws its covered cells with noise
    (a zoo page's 35 px cells differ by ~120 from each other: its grid grew by
    no line, and the board was learned 8 rows high for 12). A low quantile of
    what a few cells of the lattice, one after the other, differ by: on a
    board in play many are alike (no noise), on a noisy one most are not (its
    texture may repeat: some are)."""
    pairs = [
        float(((a - b) ** 2).mean()) for a, b in itertools.pairwise(cells) if a.shape == b.shape
    ]
    if not pairs:
        return GROW_SAME
    typical = float(np.quantile(pairs, GROW_NOISE_SHARE))
    return max(GROW_SAME, min(GROW_NOISE * typical, GROW_NOISE_CAP))


def _same(a: np.ndarray, b: np.ndarray, bound: float = GROW_SAME) -> bool:
    """Whether two tiles (cut alike, a pixel apart in size at most) are one picture."""
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    if abs(a.shape[0] - b.shape[0]) > 1 or abs(a.shape[1] - b.shape[1]) > 1:
        return False
    return float(((a[:h, :w] - b[:h, :w]) ** 2).mean()) <= bound


def grow(image: np.ndarray, geo: Geometry) -> Geometry:
    """`geo` with the lines past its sides that are drawn as its outer lines.

    The lattice finder takes tiles that look alike whole; a board's last row
    or column meets the frame where the others meet a gap, so its tiles differ
    on that side and were left out (a zoo clone of 11x9 cells with 2 px gaps
    was learned as 10x8, and every reading was a row and a column short). A
    line so added is still only a candidate: the live learner proves every
    side's outer line by a flag (`bot.learning.first_look`)."""
    return _grown_while(image, geo, _grown_line)


def _grown_while(
    image: np.ndarray, geo: Geometry, rule: Callable[[np.ndarray, Geometry, str], bool]
) -> Geometry:
    """`geo` grown on each side, a line at a time, while `rule` takes the next line."""
    for side in ("top", "bottom", "left", "right"):
        for _ in range(max(geo.rows, geo.cols)):
            if not rule(image, geo, side):
                break
            geo = geo.grown(side)
    return geo


#: Tiles of a lattice a line past it is compared with (`_grown_in_play`).
IN_PLAY_SAMPLE = 64
#: A tile whose colour varies less than this (std per channel) is flat: a line
#: of such tiles alike may be the window's background beside the board.
FLAT_TILE = 8.0


def _line_past(geo: Geometry, side: str, k: int = 1) -> list[tuple[int, int]]:
    """The cells of the line `k` lines past `side` of `geo` (its indices)."""
    if side in ("top", "bottom"):
        r = -k if side == "top" else geo.rows - 1 + k
        return [(r, c) for c in range(geo.cols)]
    c = -k if side == "left" else geo.cols - 1 + k
    return [(r, c) for r in range(geo.rows)]


def _grown_in_play(image: np.ndarray, geo: Geometry, side: str) -> bool:
    """Whether the line past `side` of a board in play is a line of its cells:
    each of its tiles drawn as some tile of the lattice (a covered cell, an
    open one, a number), however its neighbour is drawn. A board in play has
    lines unlike the line beside them (`_grown_line` asks that), and a lattice
    found on its covered regions left out the open columns of a monochrome
    board (zoo seed 1335122769: 11x5 played for 18x5, its mine total then
    applied to a part of the board). A line of one picture is a line of
    cells only if that picture is not flat and the line past it is drawn
    otherwise: the window's background matches an open cell drawn in its
    colour (zoo seed 1661291106's light window beside its white open cells)."""
    cells = [(r, c) for r in range(geo.rows) for c in range(geo.cols)]
    step = max(1, len(cells) // IN_PLAY_SAMPLE)
    # Cut as `_grown_line` cuts: the line's two end tiles are the board's
    # corners, drawn against the frame on a second side (zoo seed 1394987744:
    # a covered corner cell's top was the frame's line, its neighbours' a gap,
    # and the board was read 9x7 for 9x9).
    past = _line_past(geo, side)
    line_sides = _line_cut_sides(side, len(past))
    cut = _tiles_cut(image, geo, cells[::step], [(side,), *line_sides])
    ended = [_cut_tile(image, geo, r, c, s) for (r, c), s in zip(past, line_sides, strict=True)]
    line = [_cut_tile(image, geo, r, c, (side,)) for r, c in past]
    if not cut[(side,)] or any(t is None for t in line + ended):
        return False
    bound = _noise_bound(cut[(side,)])
    if not all(
        any(_same(t, cell, bound) for cell in cut[s])
        for t, s in zip(ended, line_sides, strict=True)
        if t is not None
    ):
        return False
    seen = [t for t in line if t is not None]
    if all(_same(t, seen[0], bound) for t in seen):
        if float(seen[0].std(axis=(0, 1)).max()) < FLAT_TILE:
            return False  # a band of one flat colour: the window's, most likely
        beyond = [_cut_tile(image, geo, r, c, (side,)) for r, c in _line_past(geo, side, 2)]
        if any(b is None or _same(b, seen[0], bound) for b in beyond):
            return False
    return True


def grow_in_play(image: np.ndarray, geo: Geometry) -> Geometry:
    """`grow`, then the lines past its sides whose cells are drawn as its own
    cells (`_grown_in_play`): a board in play. Still only a candidate: the
    live learner proves each side's outer line."""
    return _grown_while(image, grow(image, geo), _grown_in_play)


#: The share of a lattice's cells seen as tiles for it to be a board's
#: grid (`_supported`).
SUPPORTED = 0.25


def _supported(lat: Lattice) -> bool:
    """Whether a good part of the lattice's cells were seen as tiles (a fresh
    board's covered cells all are; a game in play's open area too, once
    smoothed)."""
    return lat.found >= SUPPORTED * lat.geometry.rows * lat.geometry.cols


def find_board(image: np.ndarray, board: BoardRect | None = None) -> Geometry:
    """The grid a live learner may click: the largest grid of at least
    MIN_BOARD_SIDE x MIN_BOARD_SIDE tiles whose cells mostly show one picture
    (FRESH_SHARE), as a fresh board's covered cells do; when there is none, the
    largest whose cells show a few pictures in regions, as a board in play does
    (`Likeness.in_play`: a game a person started, a clone that opens an area by
    itself at the start). Either is grown by the lines past it drawn as its
    own cells (`grow_in_play`): a fresh-looking grid may be the covered part
    of a board that opened the rest of itself. A chess board, a spreadsheet,
    a grid of photos or a toolbar is no such grid and is never probed; two
    such grids are refused (learning from both would mix two games)."""
    if board is not None:
        return find_grid(image, board)
    seen: list[Geometry] = []
    candidates: list[tuple[int, float, Geometry, Lattice]] = []
    in_play: list[tuple[int, float, Geometry, Lattice]] = []
    # The plainest reading of the picture first (`_lattices`); the others only
    # when it shows no fresh board. A board in play is taken only when no
    # reading shows a fresh one, and from every reading: its regions' edges
    # (an open area meeting a frame of its own colour) may hide a line of it
    # from the plainer ones.
    for lattices in [_lattices(image), *_variants(image)]:
        for lat in lattices:
            snapped = _snap(lat.geometry, image)
            geo = grow(image, snapped)
            if (geo.rows, geo.cols) != (snapped.rows, snapped.cols):
                geo = _settle_grown(image, geo)
            if geo in seen:
                continue
            seen.append(geo)
            like = likeness(image, geo)
            if not like.fresh and not like.in_play and (peeled := _peeled(image, geo)):
                geo, like = peeled, likeness(image, peeled)
            if like.in_play:
                # A fresh-looking grid too: it may be the covered part of a
                # board that opened most of itself at the start (zoo seed
                # 1394987744: its 9x9 found as the 7x5 of covered cells below
                # four open rows, and played so). A piece smaller than a board
                # too (zoo seed 728145218's three top rows, which grew to
                # twelve: a piece `_joined` joins to the rest).
                geo = grow_in_play(image, geo)
            if min(geo.rows, geo.cols) < MIN_BOARD_SIDE:
                continue
            if like.fresh:
                candidates.append((geo.rows * geo.cols, like.share, geo, lat))
            elif like.in_play:
                in_play.append((geo.rows * geo.cols, like.same, geo, lat))
        if any(_supported(c[3]) for c in candidates):
            break
    # A lattice few of whose cells were seen as tiles (a grain inside a board's
    # textured tiles, which a plainer reading joined into cells a third of
    # theirs: zoo seed 620829365's probes flagged its real cells at random) gives
    # way to one a later reading sees whole.
    candidates = (
        [c for c in candidates if _supported(c[3])] or candidates or _joined(image, in_play)
    )
    # A fresh-looking grid inside a larger board in play, on its pitch, is the
    # covered part of that board (zoo seed 1139889120: a page that opened
    # ten of its 17 columns at the start, learned and played as the 7x5 of
    # covered cells at their right, a pixel off the whole one's lattice).
    candidates = list(
        dict.fromkeys(
            max((p for p in in_play if part_of(c[2], p[2])), key=lambda p: p[0], default=c)
            for c in candidates
        )
    )
    if not candidates:
        raise VisionError(
            f"no grid of at least {MIN_BOARD_SIDE}x{MIN_BOARD_SIDE} cells that mostly show "
            "one picture (a fresh Minesweeper board) or show a few pictures in regions (a "
            "game in play) is on the screen"
        )
    candidates.sort(key=lambda c: (-c[0], -c[1]))
    _, _, geo, first = candidates[0]
    others = [c[2] for c in candidates[1:] if _another_board(first, c[3])]
    if others:
        where = "; ".join(_where(g) for g in [geo, *others])
        raise VisionError(
            f"{len(others) + 1} boards on the screen ({where}): show only one "
            "(or pass --board L,T,W,H)"
        )
    return geo


#: An outer line of a lattice holding less than this share of its commonest
#: picture, and no other picture its inner cells show, is no line of the board.
PEEL_SHARE = 0.5


def _peeled(image: np.ndarray, geo: Geometry) -> Geometry | None:
    """The grid left when the outer lines of `geo` that are no board's lines are
    peeled off, settled and grown again (`_settle`, `grow`); None when no line
    is peeled. A lattice may run on past a board into a toolbar or a label
    whose edges fall on its pitch (zoo seed 1343747508: a 9x5 board of 15 px
    tiles found as 9x7, two lines of face, counter and window above it, most
    of its cells pictures of their own, and refused as no board). A peeled
    line shows its lattice's commonest picture in less than PEEL_SHARE of its
    cells and no other picture the rest shows: the open regions of a game in
    play reach into the board and are never peeled so."""
    found = board_patches(image, geo)
    if found is None or len(found) != geo.rows * geo.cols:
        return None
    labels = cluster(found).labels.reshape(geo.rows, geo.cols)
    common = int(np.bincount(labels.ravel()).argmax())
    r0, r1, c0, c1 = 0, geo.rows, 0, geo.cols
    while True:
        sides = {
            "top": (labels[r0, c0:c1], labels[r0 + 1 : r1, c0:c1], r1 - r0 > MIN_BOARD_SIDE),
            "bottom": (labels[r1 - 1, c0:c1], labels[r0 : r1 - 1, c0:c1], r1 - r0 > MIN_BOARD_SIDE),
            "left": (labels[r0:r1, c0], labels[r0:r1, c0 + 1 : c1], c1 - c0 > MIN_BOARD_SIDE),
            "right": (labels[r0:r1, c1 - 1], labels[r0:r1, c0 : c1 - 1], c1 - c0 > MIN_BOARD_SIDE),
        }
        peel = [
            (float(np.mean(line == common)), side)
            for side, (line, rest, room) in sides.items()
            if room
            and np.mean(line == common) < PEEL_SHARE
            and not np.isin(line[line != common], rest).any()
        ]
        if not peel:
            break
        side = min(peel)[1]
        r0, r1 = r0 + (side == "top"), r1 - (side == "bottom")
        c0, c1 = c0 + (side == "left"), c1 - (side == "right")
    if (r0, r1, c0, c1) == (0, geo.rows, 0, geo.cols):
        return None
    return grow(image, _settle(image, geo.part(r0, r1, c0, c1)))


def _joined(
    image: np.ndarray, grids: list[tuple[int, float, Geometry, Lattice]]
) -> list[tuple[int, float, Geometry, Lattice]]:
    """Boards in play that share cells on one lattice, joined into the grid
    around both when that grid too shows a board in play: pieces of one board
    that each grew only so far (zoo seed 728145218: a monochrome clone whose
    open cells are black as its window, its 12x23 board in play found as a
    9x23 and a 12x12 grid; the larger was learned, three rows short)."""
    out = list(grids)
    changed = True
    while changed:
        changed = False
        pairs = [(i, j) for i in range(len(out)) for j in range(i + 1, len(out))]
        for i, j in pairs:
            # On the larger one's lines (the lattice most of its cells fit).
            big, small = sorted((out[i], out[j]), key=lambda c: -c[0])
            whole = _around(big[2], small[2])
            if whole is None:
                continue
            like = likeness(image, whole)
            if not like.in_play:
                continue
            out = [c for k, c in enumerate(out) if k not in (i, j)]
            out.append((whole.rows * whole.cols, like.same, whole, big[3]))
            changed = True
            break
    return out


def _around(a: Geometry, b: Geometry) -> Geometry | None:
    """The grid around `a` and `b` when they share cells on one lattice (the
    same pitch, and lines within a pixel of each other's); else None."""
    if abs(a.cell_w - b.cell_w) > 1 or abs(a.cell_h - b.cell_h) > 1:
        return None
    cols = (b.left - a.left) / a.cell_w
    rows = (b.top - a.top) / a.cell_h
    if abs(cols - round(cols)) * a.cell_w > 1 or abs(rows - round(rows)) * a.cell_h > 1:
        return None
    c0, r0 = round(cols), round(rows)
    if not (c0 < a.cols and -c0 < b.cols and r0 < a.rows and -r0 < b.rows):
        return None  # no cell in common
    return a.part(min(0, r0), max(a.rows, r0 + b.rows), min(0, c0), max(a.cols, c0 + b.cols))


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
        lattices = _lattices(crop)
        if not lattices:
            raise VisionError("no grid of tiles inside the --board rectangle")
        geo = lattices[0].geometry.shifted(board.left, board.top)
    else:
        lattices = _lattices(image)
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


def cut_patches(image: np.ndarray, cuts: Cuts, patch: int = PATCH, inset: int = 0) -> np.ndarray:
    """(cells, patch*patch*3) float32: every cell cut on its own edges, shrunk like
    `vision.classify` shrinks cells (area averaging): to patch + 2 * inset a side,
    of which the border `inset` wide is left out (a skin's `inset`)."""
    if inset:
        side = patch + 2 * inset
        full = cut_patches(image, cuts, side)
        cells = full.reshape(len(full), side, side, 3)[
            :, inset : inset + patch, inset : inset + patch
        ]
        return np.ascontiguousarray(cells.reshape(len(full), -1))
    xs, ys = cuts.xs, cuts.ys
    height, width = image.shape[:2]
    if xs[0] < 0 or ys[0] < 0 or xs[-1] > width or ys[-1] > height:
        raise VisionError("the board grid leaves the screenshot")
    rows, cols = len(ys) - 1, len(xs) - 1
    region = image[ys[0] : ys[-1]]
    # Area averaging is separable: each column of cells across, then each row down.
    across = np.empty((region.shape[0], cols * patch, 3), dtype=np.float32)
    for c in range(cols):
        strip = region[:, xs[c] : xs[c + 1]].astype(np.float32)
        across[:, c * patch : (c + 1) * patch] = cv2.resize(
            strip, (patch, region.shape[0]), interpolation=cv2.INTER_AREA
        )
    small = np.empty((rows * patch, cols * patch, 3), dtype=np.float32)
    for r in range(rows):
        band = across[ys[r] - ys[0] : ys[r + 1] - ys[0]]
        small[r * patch : (r + 1) * patch] = cv2.resize(
            band, (cols * patch, patch), interpolation=cv2.INTER_AREA
        )
    cells = small.reshape(rows, patch, cols, patch, 3).transpose(0, 2, 1, 3, 4)
    return np.ascontiguousarray(cells.reshape(rows * cols, -1))


def cut_image(image: np.ndarray, cuts: Cuts, row: int, col: int) -> np.ndarray:
    """One cell as cut by `cuts`."""
    return image[cuts.ys[row] : cuts.ys[row + 1], cuts.xs[col] : cuts.xs[col + 1]].copy()


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
    """The grid covering both `a` and `b` when they are touching or overlapping
    pieces of one lattice, else None."""
    joined = a.union(b, pitch_slack=0.1, phase_slack=0.1)
    if joined is None or joined[1] > 0 or joined[2] > 0:
        return None  # apart, not touching
    return joined[0]


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
    return _one_grid_per_place(complete(images, out))


#: Grids this close (share of a cell) with the same pitch and size are one board
#: in one place: fits of one board differ by a few pixels, never by a third of a cell.
SAME_PLACE = 1 / 3


def _one_grid_per_place(geos: list[Geometry]) -> list[Geometry]:
    """Each grid replaced by the first one of the same board in the same place.

    Fits of one board can land pixels apart from frame to frame (GNOME Mines'
    lattice lies half way between pixels, 263.5, and its 4 px gaps leave the
    phase loose: frames of one game came out at 262, 263 and 265), more than
    `align`'s one pixel can repair: the covered tiles of the odd frame then
    form a kind of their own and no board of the game is complete (about half
    of the `--live` runs on GNOME Mines failed so). The first frame (usually
    the fresh board, all alike) sets the grid; a window does not move in a game.
    """
    out: list[Geometry] = []
    for geo in geos:
        for first in out:
            same = (first.rows, first.cols) == (geo.rows, geo.cols)
            same &= abs(first.cell_w - geo.cell_w) < 0.05 and abs(first.cell_h - geo.cell_h) < 0.05
            near_x = abs(first.left - geo.left) < SAME_PLACE * first.cell_w
            same &= near_x and abs(first.top - geo.top) < SAME_PLACE * first.cell_h
            if same:
                out.append(first)
                break
        else:
            out.append(geo)
    return out
