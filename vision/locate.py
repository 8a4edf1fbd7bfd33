"""Find the one board on a screenshot and which skin draws it.

`vision.lattice` proposes tile grids from pixels alone; each is then tried
against every skin whose pitch range admits it: the skin whose templates
explain the cells best (and explain nearly all of them) wins, after a
one-pixel refinement of the grid origin (the grid fit can be half a pixel
off, templates are cut on whole pixels). Grids no skin explains (toolbars,
other windows) are ignored; two explained grids, or one cut by the image
edge, are errors a person can act on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import cast

import numpy as np

from bot.errors import NoBoard, OpenSides, VisionError
from vision.border import Border, DrawnBorder
from vision.classify import (
    CellScores,
    TileBank,
    classify,
    fit_nudge,
    make_bank,
    off_palette,
    shrink,
)
from vision.colour import flat_beyond, tiles_beyond
from vision.counter import read_counter
from vision.cuts import edges_nudge
from vision.display_scale import exact_period, tile_as_shown
from vision.geometry import Geometry
from vision.glyphs import best_hit
from vision.lattice import (
    ASPECT,
    ASPECT_ANY,
    MAX_TILE,
    ON_LATTICE,
    Lattice,
    find_lattices,
    tiles_beside,
)
from vision.skin import Skin
from vision.tile_search import covered_lattice

#: A grid is a board of a skin when at most this share of its cells is unsure.
MAX_UNSURE = 0.25
#: How many of the skins that admit a grid's pitch are refined and grown (the
#: best by their first reading): a grid a pixel off reads badly in its own skin
#: too (minegauler at 18 px ranked third behind sgt-mines and GNOME Mines).
REFINED = 3
#: A whole-pitch skin's fitted pitch is snapped to the nearest integer when
#: it is this close (the fit mixes covered and open tile insides).
WHOLE_PITCH_SLACK = 0.34
#: An outer line of a grid is no part of the board when all its cells are
#: unsure and most are farther from every template than this many times the
#: widest distance the skin ever accepts (`_trim`).
TRIM_FACTOR = 1.0
#: Two pieces of one grid this many rows or columns apart may be one board
#: (`_join_pieces`).
MAX_GAP = 2


@dataclass(frozen=True)
class Located:
    """Where the board is and which skin draws it: what `BoardReader.read` needs."""

    skin: Skin
    geometry: Geometry
    bank: TileBank
    #: Per-column x and per-row y whole-pixel moves of the cells
    #: (`vision.classify.fit_nudge`); None for whole-pixel grids.
    nudge: tuple[np.ndarray, np.ndarray] | None = None


@dataclass(frozen=True)
class _Candidate:
    lattice: Lattice
    bank: TileBank
    geometry: Geometry
    scores: CellScores
    #: The skin at other desktop scales that read these cells alike (`_glyph_scale`).
    alike: tuple[Skin, ...] = ()

    @property
    def unsure_share(self) -> float:
        return float(self.scores.unsure.mean())


#: A tile's picture as a scaled screen shows it (`tile_as_shown`) joins the
#: bank only when farther than this share of the skin's max_distance from
#: every template of its kind already in it: a cell that is such a picture is
#: then at most that far from the bank, well inside the limit.
SHOWN_ALIKE = 0.05


def bank_for(bank: TileBank, skin: Skin, geo: Geometry) -> TileBank:
    """The bank a grid `geo` drawn by `skin` is classified with; `bank` is a
    bank of any form of the same skin (as loaded, at a desktop scale, for
    reading).

    At a desktop scale the cells are the clone's tiles as the compositor's
    resampling shows them, which no single picture of a tile matches at
    every phase (minegauler's 16 px flag at 125 %, nearest: ~400 from its
    tile, limit 300). So at a scale whose pixel grid repeats every few clone
    pixels (the desktop settings: 125, 150, 175, 200 %...), each kind also
    holds its tiles of the size the grid's cells are at the clone's pixels
    as the screen shows them (`tile_as_shown`: both interpolations, every
    phase), cells and pictures shrunk alike. Tiles of other sizes are not
    the cells resampled, and their pictures would only give a wrong kind
    more chances (sgt-mines' 20 px 8 came nearer than the 7 to an 11 px 7 at
    175 %). Limits and margins are the skin's, taken between kinds as
    before: a cell still reads surely only when one kind is near it and
    every other far. Made once per scale and size, kept with the skin as
    loaded (its other forms are kept there too: `Skin.at_scale`).
    """
    if skin.scale == 1.0 and skin is bank.skin:
        return bank
    base = skin.base
    cache = cast(
        "dict[tuple[float, int, int], TileBank]", base.derived.setdefault("banks_at_scales", {})
    )
    loaded = cache.get((1.0, 0, 0))
    if loaded is None:
        # (Not `setdefault`: its default, a whole bank, would be made on every call.)
        loaded = cache[1.0, 0, 0] = bank if bank.skin is base else make_bank(base)
    size = (round(geo.cell_w / skin.scale), round(geo.cell_h / skin.scale))
    sized = any(img.shape[1::-1] == size for imgs in base.tiles.values() for img in imgs)
    if skin.scale == 1.0 or exact_period(skin.scale) is None or not sized:
        return loaded if skin is loaded.skin else replace(loaded, skin=skin)
    key = (skin.scale, *size)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _shown_bank(loaded, base.at_scale(skin.scale), size)
    return found if skin is found.skin else replace(found, skin=skin)


def _shown_bank(loaded: TileBank, skin: Skin, size: tuple[int, int]) -> TileBank:
    """`loaded` with each kind's tiles of `size` (w, h) as a screen at
    `skin.scale` shows them (`bank_for`) after its own templates, kinds in
    the same order. A picture within SHOWN_ALIKE of the skin's max_distance
    of one already kept for its kind adds nothing."""
    limit = SHOWN_ALIKE * skin.max_distance
    chars: list[str] = []
    rows: list[np.ndarray] = []
    for k, kind in enumerate(loaded.kinds):
        own = loaded.matrix[loaded.kind_of == k]
        pictures = [
            shrink(picture, skin.inset, skin.patch)
            for image in skin.tiles[kind]
            if image.shape[1::-1] == size
            for picture in tile_as_shown(image, skin.scale)
        ]
        kept = own
        if pictures:
            shown = np.stack(pictures)
            dim = own.shape[1]
            norms = (shown**2).sum(axis=1)
            # Mean squared differences: of each picture to the kind's own
            # templates, and of the pictures to one another (kept in order).
            to_own = (norms[:, None] - 2.0 * shown @ own.T + (own**2).sum(axis=1)[None, :]) / dim
            between = (norms[:, None] - 2.0 * shown @ shown.T + norms[None, :]) / dim
            new = to_own.min(axis=1) > limit
            for i in np.flatnonzero(new):
                new[i] = not (new[:i] & (between[i, :i] <= limit)).any()
            kept = np.concatenate([own, shown[new]])
        chars += [kind] * len(kept)
        rows.append(kept)
    matrix = np.ascontiguousarray(np.concatenate(rows), dtype=np.float32)
    return replace(
        loaded,
        skin=skin,
        chars=tuple(chars),
        matrix=matrix,
        norms=(matrix**2).sum(axis=1),
        kind_of=np.array([loaded.kinds.index(c) for c in chars]),
    )


def _cost(scores: CellScores) -> float:
    return scores.mean_best + 1000.0 * float(scores.unsure.mean())


#: Distances above this count as this in `_shift_cost` (no kind allowed: inf).
_FAR = 1e4


def _shift_cost(scores: CellScores) -> tuple[int, float]:
    """How badly a shift of one grid fits: first how many cells it reads
    unsure, then the geometric mean distance.

    The arithmetic mean is ruled by the glyphs farthest from their tiles: at
    11 and 14 px sgt-mines draws its digits a pixel off where the 20 px tiles
    would put them, so a grid a pixel off matched the digits better (a 1 at
    831 instead of 1528) than the right grid did, while its covered cells and
    flags went unsure (16 -> 1328, 1302 -> 2114): a mostly opened board was
    located a pixel off and every flag read unsure. A shift that reads more
    cells surely is the better one; among equals, on a log scale a flat tile
    that fits exactly weighs as much as a glyph.
    """
    best = np.minimum(scores.best, _FAR)
    return int(scores.unsure.sum()), float(np.expm1(np.log1p(best).mean()))


#: Rows and columns of the middle part of a grid `_refine` compares shifts on.
PROBE_ROWS, PROBE_COLS = 8, 10


def _middle(geo: Geometry) -> Geometry:
    """The middle PROBE_ROWS x PROBE_COLS cells of a grid (all of a smaller one)."""
    rows, cols = min(geo.rows, PROBE_ROWS), min(geo.cols, PROBE_COLS)
    r0, c0 = (geo.rows - rows) // 2, (geo.cols - cols) // 2
    return geo.part(r0, r0 + rows, c0, c0 + cols)


def _refine(
    image: np.ndarray, geo: Geometry, bank: TileBank, unmoved: CellScores
) -> tuple[Geometry, CellScores] | None:
    """The grid shifted by up to a pixel or two that the templates fit best, with
    its classification (None if it leaves the image).

    x and y are searched one after the other (the fit of one barely depends on
    the other): 2 x 4 classifications instead of 25, each of the grid's middle
    part only (`_middle`; `unmoved` is that part's classification as found: a
    whole expert board costs 6 times more and tells the same shift), then one
    of the whole grid at the shift found. Every shift is tried: on a
    fractional pitch the fit need not improve step by step (on the GNOME Mines
    intermediate recording, stopping at the first step that fits worse ends
    2 px away from the best shift).

    A grid a pixel off on both axes reads badly at every shift along one
    axis, and the first axis can move the wrong way: a lattice fitted half
    way between pixels on both axes (tile insides of even size, centred in
    their cells: 153.5, 148.5) is cut on whichever side rounding takes, and
    a learned GNOME Mines skin read half or more of the middle of its own
    46 px boards unsure at every such shift, and found no board. So when the
    best shift still reads more than MAX_UNSURE of the middle unsure, the
    shifts on both axes together are tried as well (48 more classifications
    of a middle part, 3 %, over 93 frames of the recordings and of
    tests/data/cell-sizes). A grid whose middle reads well is never moved by
    it, and a grid it moves is then judged like any other.
    """
    reach = 1 if max(geo.cell_w, geo.cell_h) < 30 else 2
    part = _middle(geo)
    best = (_shift_cost(unmoved), 0, 0)

    def try_shift(dx: int, dy: int) -> None:
        nonlocal best
        scores = classify(image, part.shifted(dx, dy), bank)
        if scores is not None and _shift_cost(scores) < best[0]:
            best = (_shift_cost(scores), dx, dy)

    for axis in (0, 1):
        dx0, dy0 = best[1], best[2]
        for step in range(-reach, reach + 1):
            if step:
                try_shift(*((dx0 + step, dy0) if axis == 0 else (dx0, dy0 + step)))
    if best[0][0] > MAX_UNSURE * part.rows * part.cols:
        # Off on both axes: the shifts not tried yet, together.
        bx = best[1]
        for dx in range(-reach, reach + 1):
            for dy in range(-reach, reach + 1):
                if dy != 0 and dx != bx:  # (dx, 0) and (bx, dy) were tried above
                    try_shift(dx, dy)
    moved = geo.shifted(best[1], best[2])
    scores = classify(image, moved, bank)
    if scores is None and best[1:] != (0, 0):
        moved, scores = geo, classify(image, geo, bank)
    return None if scores is None else (moved, scores)


def _strip(geo: Geometry, side: str) -> Geometry:
    """The one-cell-thick row or column just outside `geo` on `side`."""
    if side == "top":
        return Geometry(geo.left, geo.top - geo.cell_h, geo.cell_w, geo.cell_h, 1, geo.cols)
    if side == "bottom":
        return Geometry(geo.left, geo.top + geo.height, geo.cell_w, geo.cell_h, 1, geo.cols)
    if side == "left":
        return Geometry(geo.left - geo.cell_w, geo.top, geo.cell_w, geo.cell_h, geo.rows, 1)
    return Geometry(geo.left + geo.width, geo.top, geo.cell_w, geo.cell_h, geo.rows, 1)


#: Kinds drawn as a flat tile, which a window's flat frame or background can
#: resemble (`_grow`).
_FLAT = [".", "0"]


def _grow(image: np.ndarray, geo: Geometry, bank: TileBank) -> Geometry:
    """Extend the grid by every outside row/column whose cells all read as tiles.

    The lattice finder sees cells by their flat insides; a row of numbers and
    flags has few of those, so the skin's templates finish the job. A skin
    with grow_distance 0 never grows (GNOME Mines): no strip is classified.
    A flat cell (covered, 0) must be within grow_distance of its tile: a
    window's flat frame could pass as one farther away. A cell read surely as
    any other kind (a number, a flag: a glyph, and where the skin declares
    inks, the glyph's ink) is a board cell however far its glyph is drawn
    from the tile cut at another size (sgt-mines' digits at 14 px score
    ~1000 against the 20 px tiles: a mostly opened board stayed in pieces).
    """
    limit = float(bank.skin.manifest.get("grow_distance", bank.skin.max_distance / 3))
    if limit <= 0:
        return geo
    border = bank.skin.border
    for _ in range(2):
        grew = False
        for side in ("top", "bottom", "left", "right"):
            while True:
                if isinstance(border, Border) and side not in border.open_sides(image, geo):
                    # The learned border closes this side: what lies past it
                    # is the surround, however like a tile it looks (a
                    # monochrome clone's corner cell is all white, as is the
                    # window around its board: the board grew by two rings).
                    break
                scores = classify(image, _strip(geo, side), bank)
                if scores is None or not _continues(scores, limit):
                    break
                geo = geo.grown(side)
                grew = True
        if not grew:
            break
    return geo


def _continues(scores: CellScores, limit: float) -> bool:
    """Whether a strip just outside the grid is more of the board.

    Every cell read as a tile (a flat one within `limit`) is. So is a strip
    most of whose cells are surely tiles, with the others unsure: one
    unreadable cell (a tooltip, a kind at a size no tile was cut at) in a
    line of numbers and flags, which the lattice finder does not see, would
    otherwise end the board there, and the bot would play a board with an
    edge that is not there. Taken in, the cell reads unsure and the bot says
    so. A window's frame beside a board has no such majority.
    """
    flat = np.isin(scores.chars, _FLAT)
    tile = ~scores.unsure & ~(flat & (scores.best > limit))
    if tile.all():
        return True
    sure = int(tile.sum())
    return bool((scores.unsure | tile).all()) and sure >= 2 and sure * 3 >= 2 * tile.size


def _goes_on(image: np.ndarray, geo: Geometry, bank: TileBank) -> bool:
    """Whether a cell just outside the grid looks like one of the skin's tiles.

    A board one cell high or wide is accepted only when nothing around it
    looks like a tile: otherwise it may be a line of covered cells of a
    bigger board whose other cells were not found (minegauler at 14 px: four
    covered cells beside flags read unsure), and playing it as a board would
    invent edges. Around a real board is its frame, farther from every tile
    than any distance the skin accepts.
    """
    ceiling = max(bank.skin.max_distance, bank.skin.colour_max_distance)
    for side in ("top", "bottom", "left", "right"):
        scores = classify(image, _strip(geo, side), bank)
        if scores is not None and bool((scores.best <= ceiling).any()):
            return True
    return False


#: A row or column just outside a board found at a desktop scale with more
#: than this share of its cells read as board cells is a line of the board.
EDGE_DOUBT = 0.5
#: ... where a cell reads as a board cell when it is read surely and its
#: distance is at most this many times the median distance of the board's
#: own cells of its kind.
EDGE_LIKENESS = 2.0


def _edge_in_doubt(image: np.ndarray, geo: Geometry, bank: TileBank, scores: CellScores) -> bool:
    """Whether a line just outside the grid reads as a line of the board that
    `_grow` did not take in.

    At a desktop scale the compositor's resampling puts cells farther from
    their tiles, and an edge row of flat cells can miss the growing limit
    (xdemineur at 125 %, linear: a board found a row short). A board with a
    row missing would be played with an edge that is not there, so such a
    grid is no board (the caller finds none rather than a wrong one). A
    frame that merely resembles a tile (sgt-mines' border has the grey of its
    covered tiles) is farther from it than the board's own cells are.
    """
    typical = {
        str(ch): float(np.median(scores.best[(scores.chars == ch) & ~scores.unsure]))
        for ch in np.unique(scores.chars[~scores.unsure])
    }
    for side in ("top", "bottom", "left", "right"):
        strip = classify(image, _strip(geo, side), bank)
        if strip is None:
            continue
        limit = np.array([EDGE_LIKENESS * typical.get(str(c), -1.0) for c in strip.chars.ravel()])
        alike = ~strip.unsure.ravel() & (strip.best.ravel() <= limit)
        if float(alike.mean()) > EDGE_DOUBT:
            return True
    return False


def _trim(
    image: np.ndarray, geo: Geometry, scores: CellScores, bank: TileBank
) -> tuple[Geometry, CellScores]:
    """The grid without outer rows and columns that look like no tile at all.

    A lattice can take in a line of flat regions that happen to sit at the
    board's pitch (minegauler's counter and face panel above its board at
    20 and 24 px buttons; GNOME Mines' side panel beside a small board in a
    wide window). A line goes when every cell of it is unsure, and either
    most are far from every template (TRIM_FACTOR times the widest distance
    the skin accepts) or, for a skin that declares its covered and 0 colours,
    every one shows a colour the skin declares for no kind (`off_palette`):
    a line of the board's own cells read unsure (flags at a size no flag was
    cut at) stays, so the bot stops on it rather than play a board with an
    edge that is not there.
    """
    skin = bank.skin
    top, left = 0, 0
    bottom, right = geo.rows, geo.cols
    far = scores.best > TRIM_FACTOR * max(skin.max_distance, skin.colour_max_distance)
    inside = _clip(geo, image.shape) == geo
    stray = off_palette(image, geo, bank) if inside and scores.unsure.any() else None

    def foreign(rows: slice | int, cols: slice | int) -> bool:
        if not scores.unsure[rows, cols].all():
            return False
        return float(far[rows, cols].mean()) > 0.5 or (
            stray is not None and bool(stray[rows, cols].all())
        )

    while bottom - top > 1 and foreign(top, slice(left, right)):
        top += 1
    while bottom - top > 1 and foreign(bottom - 1, slice(left, right)):
        bottom -= 1
    while right - left > 1 and foreign(slice(top, bottom), left):
        left += 1
    while right - left > 1 and foreign(slice(top, bottom), right - 1):
        right -= 1
    if (top, left, bottom, right) == (0, 0, geo.rows, geo.cols):
        return geo, scores
    part = (slice(top, bottom), slice(left, right))
    return (
        geo.part(top, bottom, left, right),
        CellScores(scores.chars[part], scores.best[part], scores.margin[part], scores.unsure[part]),
    )


def _touches_edge(geo: Geometry, shape: tuple[int, ...]) -> bool:
    """Whether a grown grid ends less than a pixel or two from the image border."""
    height, width = shape[:2]
    return (
        geo.left < 2
        or geo.top < 2
        or geo.left + geo.width > width - 2
        or geo.top + geo.height > height - 2
    )


def _snap(geo: Geometry, skin: Skin) -> Geometry:
    """The grid with the skin's own pitch when the skin does not scale, or
    with the nearest whole pitch when it scales by whole pixels.

    The lattice fit mixes covered and open tile insides, which are not centred
    alike; a clone with a fixed cell size is better served by its known pitch,
    and one that draws at any whole-pixel pitch (`Skin.whole_pitch`) by the
    integer nearest the fit, kept centred on the fitted grid. At a desktop
    scale (`Skin.at_scale`) both are that many times larger, and a fractional
    pitch keeps its fractional origin (the compositor's cells start there).
    """
    pw, ph = skin.pitch
    if skin.whole_pitch:
        # Any size, but always a whole-pixel pitch (sgt-mines, minegauler):
        # the nearest integer, if the fit is that close to one.
        k = skin.scale
        pw, ph = round(geo.cell_w / k) * k, round(geo.cell_h / k) * k
        slack = WHOLE_PITCH_SLACK * k
        if abs(geo.cell_w - pw) > slack or abs(geo.cell_h - ph) > slack:
            return geo
    elif not skin.fixed_pitch or max(abs(geo.cell_w - pw), abs(geo.cell_h - ph)) > skin.scale:
        return geo
    cx = geo.left + geo.width / 2
    cy = geo.top + geo.height / 2
    left = cx - geo.cols * pw / 2
    top = cy - geo.rows * ph / 2
    if float(pw).is_integer() and float(ph).is_integer():
        left, top = round(left), round(top)
    return Geometry(float(left), float(top), float(pw), float(ph), geo.rows, geo.cols)


#: Desktop scales (HiDPI) whose glyphs are tried for a clone whose cells
#: scale by themselves, so that its pitch does not tell the desktop scale:
#: the common settings (100 to 300 %).
SCALE_STEPS = (1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 3.0)
#: A scale told by a fixed-size clone's pitch is snapped to a multiple of
#: SCALE_SNAP when this close to one (desktop settings are such steps; the
#: fit of a small board is a few thousandths off).
SCALE_SNAP, SCALE_SNAP_SLACK = 0.05, 0.01
#: ... and when that scale is not snapped but is within this share of one of
#: SCALE_STEPS, that step is tried too: a lattice found in pieces fits its
#: pitch from a few flat tile insides that glyphs offset (xdemineur's dense
#: board at 200 %, linear: pieces fitted at 41.6 x 41.8 and 41.7 x 41.3 px
#: for 42, scales 1.987 and 1.977), and a grid of such a pitch drifts a
#: pixel every few cells: it grew no further than the piece (three boards).
SCALE_TRY = 0.02


def _pitch_error(skin: Skin, cell_w: float, cell_h: float) -> float:
    """How far a fitted pitch is from any pitch `skin` (at its scale) draws."""
    if skin.whole_pitch:
        k = skin.scale
        return max(abs(v - round(v / k) * k) for v in (cell_w, cell_h))
    if skin.fixed_pitch:
        return max(abs(cell_w - skin.pitch[0]), abs(cell_h - skin.pitch[1]))
    return 0.0


def _snapped_pitch(skin: Skin, cell_w: float, cell_h: float) -> tuple[float, float]:
    """The pitch `_snap` gives a grid of this fitted pitch in `skin`."""
    geo = _snap(Geometry(0.0, 0.0, cell_w, cell_h, 1, 1), skin)
    return geo.cell_w, geo.cell_h


def _scales(skin: Skin, cell_w: float, cell_h: float) -> list[Skin]:
    """`skin` at every desktop scale it may be shown at with this pitch, the
    likeliest first (see `SCALE_STEPS`); empty if none admits the pitch.

    A fixed-size clone's pitch tells the scale, give or take the fit: a
    common setting near it is the second view (see `SCALE_TRY`; `_explain`
    reads the grid at both and keeps the better board). Otherwise the scales whose
    pitches fit the fitted one best come first, the smaller first among
    equals: a whole-pixel clone at 33.75 px is 27 px tiles at 125 %, not 34 px
    tiles (sgt-mines read 30 of 41 cells unsure so); at 20 px it may be 20 px
    buttons at 100 % or 16 px at 125 %, which read alike, and the glyphs of
    its counter and face tell (`_glyph_scale`).
    """
    lo, hi = skin.display_scale
    steps = [s for s in SCALE_STEPS if lo <= s <= hi]
    if skin.fixed_pitch and hi > lo:
        s = (cell_w / skin.pitch[0] + cell_h / skin.pitch[1]) / 2
        snapped = round(s / SCALE_SNAP) * SCALE_SNAP
        s = snapped if abs(s - snapped) <= SCALE_SNAP_SLACK else round(s, 4)
        near = min(SCALE_STEPS, key=lambda v: abs(s - v))
        steps = [1.0] if abs(s - 1.0) * max(skin.pitch) <= 1 else [s]
        if steps != [near] and abs(s / near - 1.0) <= SCALE_TRY:
            steps.append(near)
        steps = [v for v in steps if lo <= v <= hi or v == 1.0]
    views = [skin.at_scale(s) for s in steps or [1.0]]
    views = [v for v in views if v.accepts_pitch(*_snapped_pitch(v, cell_w, cell_h))]
    errors = [round(_pitch_error(v, cell_w, cell_h), 2) for v in views]
    order = sorted(range(len(views)), key=lambda i: (errors[i], views[i].scale))
    return [views[i] for i in order]


def _clip(geo: Geometry, shape: tuple[int, ...]) -> Geometry | None:
    """The part of a grid made of whole cells inside the image (None if under 2x2)."""
    height, width = shape[:2]
    first_col = max(0, math.ceil(-geo.left / geo.cell_w))
    first_row = max(0, math.ceil(-geo.top / geo.cell_h))
    last_col = min(geo.cols, math.floor((width - geo.left) / geo.cell_w))
    last_row = min(geo.rows, math.floor((height - geo.top) / geo.cell_h))
    cols, rows = last_col - first_col, last_row - first_row
    if cols < 2 or rows < 2:
        return None
    return Geometry(
        geo.left + first_col * geo.cell_w,
        geo.top + first_row * geo.cell_h,
        geo.cell_w,
        geo.cell_h,
        rows,
        cols,
    )


def _explain(image: np.ndarray, lattice: Lattice, banks: Sequence[TileBank]) -> _Candidate | None:
    """The skin that reads this grid best, or None if none reads it.

    Every skin whose pitch fits, at the likeliest desktop scale that admits
    the pitch (`_scales`; a fixed-size clone at each scale its pitch may tell,
    the second only when the first reads the middle well enough to be
    refined; a clone drawn at any size also at the other scales that give
    the same grid, each only when the last read more than MAX_UNSURE and at
    most twice that of the middle unsure), with its bank at that scale
    (`bank_for`), reads the grid's middle part (`_middle`) as found; only
    the skins of the best REFINED readings are then refined and grown (each
    step a classification). Other scales at which the skin reads the grid
    alike are kept for `_glyph_scale`.
    """
    tried: list[tuple[float, int, TileBank, Geometry, CellScores, tuple[Skin, ...]]] = []
    fit = lattice.geometry
    for index, loaded in enumerate(banks):
        views = _scales(loaded.skin, fit.cell_w, fit.cell_h)
        # A skin drawn at any size is tried at the views that put the grid
        # where the likeliest does (the same cells at other scales, which only
        # their own tiles as shown match: `bank_for`), the next only when the
        # last read too much of the middle unsure to be a board, yet not so
        # much that it is no board of this skin at all (minegauler's 16 px
        # cells at 125 %, read as 20 px cells at 100 %: a board of flags
        # read 38 % unsure; a grid of another clone reads all unsure). A view
        # whose bank and limits are those of one tried would read the same.
        first = _snap(fit, views[0]) if views else None
        same_grid = [v for v in views if _snap(fit, v) == first]
        readers: list[tuple[int, float, float]] = []
        for skin in views if loaded.skin.fixed_pitch else same_grid:
            geo = _snap(fit, skin)
            bank = bank_for(loaded, skin, geo)
            # By the templates themselves, not the matrix's identity: which
            # bank object a view gets depends on what earlier reads kept in
            # the skin (`bank_for`), and a view skipped once and read the next
            # time made two reads of one picture differ.
            reads_as = (
                hash(bank.matrix.tobytes()),
                skin.max_distance,
                skin.colour_max_distance,
            )
            if not loaded.skin.fixed_pitch and reads_as in readers:
                continue
            readers.append(reads_as)
            alike = tuple(v for v in views if _snap(fit, v) == geo)
            if lattice.cut:
                clipped = _clip(geo, image.shape)
                if clipped is None:
                    continue
                geo = clipped
            seen = classify(image, _middle(geo), bank)
            if seen is None:
                geo = _clip(geo, image.shape) or geo
                seen = classify(image, _middle(geo), bank)
            if seen is not None:
                tried.append((_cost(seen), index, bank, geo, seen, alike))
            share = 1.0 if seen is None else float(seen.unsure.mean())
            if share > 2 * MAX_UNSURE:
                break  # read too badly at its likeliest scale to try another
            if not loaded.skin.fixed_pitch and share <= MAX_UNSURE:
                break  # read well enough: the glyphs tell the scale (`_glyph_scale`)
    tried.sort(key=lambda t: t[0])
    kept = list(dict.fromkeys(t[1] for t in tried))[:REFINED]
    best: _Candidate | None = None
    for _, index, bank, geo, seen, alike in tried:
        if index not in kept:
            continue
        if best is not None and float(seen.unsure.mean()) > 2 * MAX_UNSURE:
            continue  # reads too few of the middle cells to beat a board already read
        refined = _refine(image, geo, bank, seen)
        if refined is None:
            continue
        geo_r, scores_r = refined
        geo_b = _grow(image, geo_r, bank)
        final = classify(image, geo_b, bank) if geo_b != geo_r else scores_r
        if final is None:
            continue
        geo_b, final = _trim(image, geo_b, final, bank)
        if min(geo_b.rows, geo_b.cols) == 1 and _goes_on(image, geo_b, bank):
            continue
        if bank.skin.scale != 1.0 and _edge_in_doubt(image, geo_b, bank, final):
            continue
        cand = _Candidate(lattice, bank, geo_b, final, alike)
        if cand.unsure_share > MAX_UNSURE or not _has_mines_somewhere(final):
            continue
        key = (cand.unsure_share, cand.scores.mean_best)
        if best is None or key < (best.unsure_share, best.scores.mean_best):
            best = cand
    return best


def _glyphs_shown(image: np.ndarray, skin: Skin, geo: Geometry) -> tuple[bool, int]:
    """Whether the skin's counter reads where it expects it, and how many of
    its counter, face and status text show there."""
    counter = skin.counter is not None and read_counter(image, skin, geo) is not None
    shown = sum(
        glyphs is not None and best_hit(image, glyphs, geo) is not None
        for glyphs in (skin.faces, skin.status_texts)
    )
    return counter, shown + counter


def _glyph_scale(image: np.ndarray, cand: _Candidate) -> _Candidate:
    """The candidate at the desktop scale at which most of its counter, face
    and status text show, among scales that read its cells alike (a clone
    whose cells scale by themselves: its pitch does not tell the scale of its
    glyphs; minegauler's 20 px buttons at 100 % and 16 px at 125 % look the
    same, its counter does not); the likeliest scale when none shows. The
    search stops at the first scale whose counter reads (one glyph search
    on an unscaled screen).
    """
    if len(cand.alike) < 2:
        return _for_reading(cand, cand.bank.skin)
    best, most = cand.bank.skin, 0
    for skin in cand.alike:
        counter, shown = _glyphs_shown(image, skin, cand.geometry)
        if shown > most:
            best, most = skin, shown
        if counter:
            break
    return _for_reading(cand, best)


def _for_reading(cand: _Candidate, skin: Skin) -> _Candidate:
    """The candidate read with `skin` as boards are read (`Skin.for_reading`)."""
    skin = skin.for_reading()
    return (
        cand
        if skin is cand.bank.skin
        else replace(cand, bank=bank_for(cand.bank, skin, cand.geometry))
    )


#: Cells that may hide or show a mine. A board with none of them would be a
#: game without mines: no clone deals one, but a grid of flat raised tiles
#: of another clone (sgt-mines' covered tiles) reads as GNOME Mines' open 0s.
_MINE_ROOM = list(".F?*!X")


def _has_mines_somewhere(scores: CellScores) -> bool:
    return bool(np.isin(scores.chars, _MINE_ROOM).any())


def _inside(part: Geometry, board: Geometry) -> bool:
    """Whether a grid lies within a board already found (a piece of it)."""
    return (
        part.left >= board.left - board.cell_w / 2
        and part.top >= board.top - board.cell_h / 2
        and part.left + part.width <= board.left + board.width + board.cell_w / 2
        and part.top + part.height <= board.top + board.height + board.cell_h / 2
    )


def _same_board(a: _Candidate, b: _Candidate) -> bool:
    """Two pieces of one grid grow into the same board: count it once."""
    ga, gb = a.geometry, b.geometry
    return (
        (ga.rows, ga.cols) == (gb.rows, gb.cols)
        and abs(ga.left - gb.left) < ga.cell_w / 2
        and abs(ga.top - gb.top) < ga.cell_h / 2
    )


def _union(a: Geometry, b: Geometry) -> tuple[Geometry, int] | None:
    """The one grid two pieces of a board make together and the rows and
    columns between them (0: touching), or None if they are not pieces of one
    grid (other pitch, other phase, or more than MAX_GAP lines apart)."""
    joined = a.union(b, pitch_slack=0.5, phase_slack=0.25)
    if joined is None:
        return None
    geo, gap_cols, gap_rows = joined
    if gap_cols > MAX_GAP or gap_rows > MAX_GAP:
        return None
    return geo, max(gap_cols, gap_rows, 0)


def _outside_pieces(geo: Geometry, pieces: Sequence[Geometry]) -> np.ndarray:
    """(rows, cols) mask of the cells of `geo` that lie in none of `pieces`."""
    mask = np.ones((geo.rows, geo.cols), dtype=bool)
    for p in pieces:
        c0 = round((p.left - geo.left) / geo.cell_w)
        r0 = round((p.top - geo.top) / geo.cell_h)
        mask[max(0, r0) : max(0, r0 + p.rows), max(0, c0) : max(0, c0 + p.cols)] = False
    return mask


def _join_pieces(image: np.ndarray, found: list[_Candidate]) -> list[_Candidate]:
    """Candidates of one skin that are touching pieces of one grid, read as one board.

    At small cells (sgt-mines at 12 px) the lattice can come out in pieces
    (the insides of open and covered tiles differ), and a row of numbers
    between two pieces may be too far from the templates to grow across.
    Two pieces join only when the whole grid they span reads as a board
    (the skin explains it, with at most MAX_UNSURE unsure cells). Pieces up
    to MAX_GAP lines apart join too (sgt-mines at 14 px: a row of numbers
    and flags the lattice did not see and no tile is close enough to grow
    across split one board into 16x12 and 16x3), but only when every cell
    between them reads surely: two windows of one clone side by side have
    something else between their boards.
    """
    joined = True
    while joined and len(found) > 1:
        joined = False
        for i, a in enumerate(found):
            for b in found[i + 1 :]:
                if a.bank is not b.bank:
                    continue
                union = _union(a.geometry, b.geometry)
                if union is None:
                    continue
                geo, gap = union
                scores = classify(image, geo, a.bank)
                if scores is None:
                    continue
                cand = _Candidate(
                    b.lattice if b.lattice.cut else a.lattice, a.bank, geo, scores, a.alike
                )
                if cand.unsure_share > MAX_UNSURE or not _has_mines_somewhere(scores):
                    continue
                if gap and scores.unsure[_outside_pieces(geo, (a.geometry, b.geometry))].any():
                    continue
                found = [f for f in found if f is not a and f is not b] + [cand]
                joined = True
                break
            if joined:
                break
    return found


def _where(geo: Geometry) -> str:
    return f"{geo.cols}x{geo.rows} at ({round(geo.left)}, {round(geo.top)})"  # width x height


def _largest_pitch(banks: Sequence[TileBank]) -> float:
    """The largest pitch any skin may be shown at, its desktop scales included:
    no tile inside is larger (`find_lattices`' max_tile)."""
    return max(MAX_TILE, *(b.skin.base.pitch_range[1] * b.skin.display_scale[1] for b in banks))


def _aspect(banks: Sequence[TileBank]) -> float:
    """How much wider than tall (or taller than wide) a tile's inside may be:
    square cells' allowance, more for a skin learned from a clone whose cells
    are not square (`find_lattices`' aspect)."""
    ratios = [max(w / h, h / w) for b in banks for w, h in [b.skin.base.pitch] if w > 0 and h > 0]
    return max(ASPECT, *(min(ASPECT_ANY, ratio * 1.2) for ratio in ratios))


#: Rows or columns a grid may be grown by on a side until its border shows.
CLOSE_STEPS = 3


def _closed(image: np.ndarray, cand: _Candidate, border: Border) -> _Candidate:
    """The candidate grown, side by side, until the skin's border closes it (a row
    it read as no tile: a learned skin's picture not seen yet); VisionError
    naming the sides it cannot close (something covers them)."""
    geo = cand.geometry
    if border.open_sides(image, geo):
        # Lines of tiles beside the board on the same pitch (a toolbar of
        # buttons drawn like cells, which the learner proved no board): the
        # board is the part inside them that the border closes.
        geo = _trimmed(image, geo, border, cand.lattice.centres) or geo
    grew: set[str] = set()
    for _ in range(CLOSE_STEPS + 1):
        sides = border.open_sides(image, geo)
        if not sides:
            break
        grown = geo
        for side in sides:
            grown = grown.grown(side)
        if _clip(grown, image.shape) != grown:
            break
        geo = grown
        grew.update(sides)
    _refuse_sides(cand, border.open_sides(image, geo))
    if geo != cand.geometry:
        scores = classify(image, geo, cand.bank)
        if scores is None:
            raise VisionError(f"the board {_where(geo)} leaves the screen")
        cand = replace(cand, geometry=geo, scores=scores)
    return _without_stray_lines(image, cand, border, frozenset(grew))


#: Pixels a grid is moved by, at most, for its border to close it (`_border_shift`).
BORDER_SHIFT = 2


def _border_shift(image: np.ndarray, geo: Geometry, border: Border) -> Geometry | None:
    """`geo` moved by up to BORDER_SHIFT pixels each way, the least move first,
    where the skin's border closes every side; None when no such move does."""
    moves = [
        (dx, dy)
        for dx in range(-BORDER_SHIFT, BORDER_SHIFT + 1)
        for dy in range(-BORDER_SHIFT, BORDER_SHIFT + 1)
        if dx or dy
    ]
    for dx, dy in sorted(moves, key=lambda d: (abs(d[0]) + abs(d[1]), d)):
        moved = geo.shifted(dx, dy)
        if _clip(moved, image.shape) == moved and not border.open_sides(image, moved):
            return moved
    return None


def _without_stray_lines(
    image: np.ndarray, cand: _Candidate, border: Border, grew: frozenset[str] = frozenset()
) -> _Candidate:
    """The candidate without outer lines that hold cells the skin does not read,
    when the border closes what is left (a toolbar line above the board, its
    buttons on the board's pitch and drawn like covered cells, the window's
    background between them: a border band of window background closes the
    grid with that line as well as without it). A line the border made the
    grid grow by (`grew`: its sides) is dropped too when the border closes
    the rest a pixel or two from it (`_border_shift`). A board's own outer
    line is never dropped so: the band just inside it is cells, not its
    border (a dark clone's loose border closed its board a row short and a
    pixel off, and a row read unsure while it faded in was dropped: the
    suite's zoo seed 1000, read 17x5 for 17x6)."""
    while min(cand.geometry.rows, cand.geometry.cols) > MIN_TRIMMED:
        geo, unsure = cand.geometry, cand.scores.unsure
        lines = {
            "top": (unsure[0, :], geo.part(1, geo.rows, 0, geo.cols)),
            "bottom": (unsure[-1, :], geo.part(0, geo.rows - 1, 0, geo.cols)),
            "left": (unsure[:, 0], geo.part(0, geo.rows, 1, geo.cols)),
            "right": (unsure[:, -1], geo.part(0, geo.rows, 0, geo.cols - 1)),
        }
        for side, (line, part) in lines.items():
            if not line.any():
                continue
            # Closed where it is, or a pixel or two away when the border grew
            # the grid by that line (grown on both sides from a grid a pixel
            # off, zoo seed 383986223's 25x7 page was 26x7, its last column
            # the window's).
            closed = part if not border.open_sides(image, part) else None
            if closed is None and side in grew:
                closed = _border_shift(image, part, border)
            scores = None if closed is None else classify(image, closed, cand.bank)
            if closed is not None and scores is not None:
                cand = replace(cand, geometry=closed, scores=scores)
                break
        else:
            return cand
    return cand


#: Outer lines a grid may hold beyond its board on each side (toolbars).
TRIM_LINES = 2


def _trimmed(
    image: np.ndarray, geo: Geometry, border: Border, centres: np.ndarray
) -> Geometry | None:
    """The part of `geo` without up to TRIM_LINES outer lines per side that
    `border` closes on every side, fewest lines dropped first; None if none.
    Only a learned border, seen around the whole board, can close a part: the
    cells of a board's own outer line are no border band. Each part is put
    where the tiles seen inside it are (`centres`): a toolbar a pixel or two
    out of step with the board pulls the whole grid's fit."""
    tries = sorted(
        (
            (t, b, left, right)
            for t in range(TRIM_LINES + 1)
            for b in range(TRIM_LINES + 1)
            for left in range(TRIM_LINES + 1)
            for right in range(TRIM_LINES + 1)
        ),
        key=sum,
    )
    for t, b, left, right in tries[1:]:
        rows, cols = geo.rows - t - b, geo.cols - left - right
        if rows < MIN_TRIMMED or cols < MIN_TRIMMED:
            continue
        part = _on_centres(geo.part(t, geo.rows - b, left, geo.cols - right), centres)
        if not border.open_sides(image, part):
            return part
    return None


def _on_centres(part: Geometry, centres: np.ndarray) -> Geometry:
    """`part` moved by the median offset of the tile centres inside it from its
    cells' centres (unmoved when fewer than 4 lie inside)."""
    if len(centres) == 0:
        return part
    u = (centres[:, 0] - part.left) / part.cell_w
    v = (centres[:, 1] - part.top) / part.cell_h
    inside = (u > 0) & (u < part.cols) & (v > 0) & (v < part.rows)
    if int(inside.sum()) < 4:
        return part
    dx = float(np.median((u[inside] % 1 - 0.5) * part.cell_w))
    dy = float(np.median((v[inside] % 1 - 0.5) * part.cell_h))
    return replace(part, left=round(part.left + dx), top=round(part.top + dy))


def _shrunk_sides(grid: Geometry, part: Geometry) -> set[str]:
    """The sides on which `part` lies inside `grid` by a line or more."""
    sides = set()
    if part.top >= grid.top + grid.cell_h / 2:
        sides.add("top")
    if part.left >= grid.left + grid.cell_w / 2:
        sides.add("left")
    if part.top + part.height <= grid.top + grid.height - grid.cell_h / 2:
        sides.add("bottom")
    if part.left + part.width <= grid.left + grid.width - grid.cell_w / 2:
        sides.add("right")
    return sides


#: The smallest board a trimmed grid may leave (the learner's smallest).
MIN_TRIMMED = 5


def _refuse_sides(cand: _Candidate, sides: list[str]) -> None:
    """VisionError naming `sides`, the sides of the candidate its border does not close."""
    if sides:
        raise OpenSides(
            f"the {cand.bank.skin.name} board {_where(cand.geometry)} is not closed by its "
            f"border on the {' and '.join(sides)} side: another window or a box hides that "
            "edge, or it goes on past the screen: uncover the whole board",
            cand.geometry,
            sides,
            cand.bank.skin.name,
        )


def locate(image: np.ndarray, banks: Sequence[TileBank]) -> Located:
    """The board on `image` (see the module docstring); VisionError if not exactly one."""
    if not banks:
        raise VisionError("no skins to look for (templates folder empty?)")
    found: list[_Candidate] = []
    lattices = find_lattices(image, max_tile=_largest_pitch(banks), aspect=_aspect(banks))
    for lat in lattices:
        if any(_inside(lat.geometry, f.geometry) for f in found):
            continue
        cand = _explain(image, lat, banks)
        if cand is not None and not any(_same_board(cand, f) for f in found):
            found.append(cand)
    if not found:
        # A fresh board of textured covered tiles shows no flat tile: a skin
        # that knows its covered tile and its border looks for the tile itself.
        for bank in banks:
            if not isinstance(bank.skin.border, Border):
                continue
            covered = covered_lattice(image, bank.skin)
            cand = None if covered is None else _explain(image, covered, [bank])
            if covered is not None and cand is not None:
                lattices.append(covered)
                found.append(cand)
    found = _join_pieces(image, found)
    if not found:
        names = ", ".join(b.skin.name for b in banks)
        raise NoBoard(f"no Minesweeper board found in the image (looked for: {names})")
    if len(found) > 1:
        where = "; ".join(f"{c.bank.skin.name} {_where(c.geometry)}" for c in found)
        raise VisionError(f"{len(found)} boards in the image ({where}): show only one")
    cand = _glyph_scale(image, found[0])
    if cand.lattice.cut or _touches_edge(cand.geometry, image.shape):
        raise VisionError(
            f"the {cand.bank.skin.name} board {_where(cand.geometry)} is cut off by the "
            "screen edge: move the window fully onto the screen"
        )
    border = cand.bank.skin.border
    trimmed: set[str] = set()
    if isinstance(border, Border):
        grid = cand.geometry
        cand = _closed(image, cand, border)
        trimmed = _shrunk_sides(grid, cand.geometry)
    # Lines the learned border proved outside the board (toolbars) are no
    # board going on past that edge.
    more = [side for side in tiles_beside(cand.geometry, lattices) if side not in trimmed]
    if more and isinstance(border, Border):
        # The learned border closes every side (`_closed`): tiles past it a
        # few pixels out of step with the board's lattice are a toolbar of
        # buttons drawn like cells beyond its frame, not more of the board
        # (zoo seed 1973203059's three, 5 px above their pitch once its window
        # narrowed and put them in line with the board's columns).
        exact = tiles_beside(cand.geometry, lattices, phase=ON_LATTICE)
        more = [side for side in more if side in exact]
    if more:
        # The skin read only part of a grid of tiles: a board of another
        # clone or size whose few cells look like this skin's, or rows this
        # skin cannot read. Either way it is not this board, whole.
        raise NoBoard(
            f"the {cand.bank.skin.name} board {_where(cand.geometry)} is part of a larger "
            f"grid of tiles: it goes on past its {' and '.join(more)} edge with cells "
            "the skin does not read (another clone, or a look the skin has not learned?)"
        )
    colours = cand.bank.colours
    beyond = (
        tiles_beyond(image, cand.geometry, colours) if colours and cand.bank.skin.frameless else []
    )
    if beyond:
        # Tiles past the board: a board its window cuts off, or another clone
        # whose frame and window are of the skin's tile colours (zoo seed
        # 2095523084): both said. When every such side is one flat colour for
        # more than a pitch, no tile was cut there: open sides, which `msbot
        # play` learns when the desktop says no window lies there (zoo seed
        # 287145384's page of grey bevelled cells, read by the GNOME Mines
        # skin, was refused).
        message = (
            f"the {cand.bank.skin.name} board {_where(cand.geometry)} goes on past its "
            f"{' and '.join(beyond)} edge: its window is too small to show all of it, or "
            "something covers that edge; make the window larger and uncover the board. "
            "If the whole board shows, it is another clone whose tiles look like "
            f"{cand.bank.skin.name}'s: `msbot learn-skin NAME --live` learns it"
        )
        if colours and set(beyond) <= set(flat_beyond(image, cand.geometry, colours.tolerance)):
            raise OpenSides(message, cand.geometry, beyond, cand.bank.skin.name)
        raise VisionError(message)
    if isinstance(border, DrawnBorder):
        # A built-in skin reads every kind its clone draws: a side its border
        # does not close is hidden or cut, never a row to grow the grid by.
        _refuse_sides(cand, border.open_sides(image, cand.geometry, cand.bank.skin.scale))
    if cand.bank.skin.cut_on_edges:  # a learned skin: cells cut as its tiles were
        nudge = edges_nudge(image, cand.geometry)
    else:
        nudge = fit_nudge(image, cand.geometry, cand.bank, cand.scores)
    return Located(cand.bank.skin, cand.geometry, cand.bank, nudge)
