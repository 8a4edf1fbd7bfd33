"""Classify each distinct cell of a board once.

A cell's classification depends only on its own pixels (`vision.classify`),
and a board is mostly copies of a few tiles: on a fixed-size skin every
covered cell, every 0 and every 1 is drawn pixel for pixel the same.
Shrinking the whole board and comparing every cell with every template is
then mostly repeated work. Here the cells are grouped by their exact pixels
(a hash of all their bytes, then every cell compared with its group's first
cell in full; the rare cell whose hash met another's is grouped exactly),
the first cell of each group is classified, and each cell gets its group's
answer.

Whole-pixel grids: the first cells are laid out in a row ("atlas") and
classified; a cell of the atlas is shrunk over the same pixels with the same
area weights as in `classify.board_patches` (the board's cell edges fall on
whole output pixels, and the scale is the same ratio).

Scaled grids (fractional pitch or nudged cells: GNOME Mines, 36 or 37 px
cells): one `cv2.remap` of the whole board (`vision.sampling`) costs ~2 ms,
most of a cold read. A cell's patch, colour and inks are read at positions
that depend only on its column and row (the maps are separable); columns
(rows) whose positions are the same relative to the first pixel they read
form a class, and two cells of one column class and one row class read
alike when the pixels they read (their "footprint": from the first to the
last pixel any of those reads touches) are the same. Only the first cell of
each group is sampled (`sampling.sample_cells`: the same points, converted
and remapped alone) and classified; spots, which look at a cell's own
glyph, are still looked for on every cell that needs them. A tile's flat
border is outside the footprint, so covered cells on a grid fitted a pixel
off here and there still group: 57 groups of 480 cells on the recorded
GNOME expert board.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.classify import (
    CellScores,
    TileBank,
    board_patches,
    cell_scores,
    classify,
    grid_features,
)
from vision.colour import ColourTable, cell_colours, cell_inks, probe_points
from vision.geometry import Geometry
from vision.sampling import (
    CellSampler,
    Nudge,
    cell_edges,
    is_scaled,
    make_sampler,
    part_grid,
    sample_cells,
)

#: Cells whose hash collides with a different cell's are grouped exactly
#: (slowly); past this many, the board is classified cell by cell instead.
MAX_COLLISIONS = 32


def _group(cells: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(first, group) of N cells' bytes (rows of `cells`, zero-padded past `size`
    to whole 8-byte words): cell i is a copy of cell first[group[i]], and the
    cells first[...] differ. None past MAX_COLLISIONS hash collisions."""
    words = cells.view(np.uint64)
    # A multiply-and-add hash of every byte (wrapping), then exact grouping by it.
    weights = (np.arange(words.shape[1], dtype=np.uint64) * np.uint64(2654435761)) | np.uint64(1)
    _, first, group = np.unique(
        (words * weights).sum(axis=1), return_index=True, return_inverse=True
    )
    group = group.reshape(-1)
    odd = np.flatnonzero((words != words[first[group]]).any(axis=1))
    if len(odd) > MAX_COLLISIONS:
        return None
    if len(odd):
        # Cells whose hash met another cell's: grouped exactly among themselves.
        _, odd_first, odd_group = np.unique(
            cells[odd, :size], axis=0, return_index=True, return_inverse=True
        )
        group[odd] = len(first) + odd_group.reshape(-1)
        first = np.concatenate([first, odd[odd_first]])
    return first, group


#: An odd 32-bit constant (Knuth's multiplicative hash) to spread hash terms.
_SPREAD = np.uint64(2654435761)


def _padded(count: int, size: int) -> np.ndarray:
    return np.zeros((count, -(-size // 8) * 8), dtype=np.uint8)


def classify_distinct(
    image: np.ndarray,
    geo: Geometry,
    bank: TileBank,
    nudge: Nudge | None = None,
    sampler: CellSampler | None = None,
) -> CellScores | None:
    """`classify(image, geo, bank, nudge, sampler)`, each distinct cell classified once."""
    if image.ndim != 3:
        return classify(image, geo, bank, nudge, sampler)
    if is_scaled(geo, nudge):
        return _classify_scaled(image, geo, bank, nudge, sampler)
    cols, rows = cell_edges(geo, None)
    w, h = int(geo.cell_w), int(geo.cell_h)
    x0, y0 = int(cols[0, 0]), int(rows[0, 0])
    x1, y1 = int(cols[-1, 1]), int(rows[-1, 1])
    height, width = image.shape[:2]
    uniform = bool((np.diff(cols[:, 0]) == w).all() and (np.diff(rows[:, 0]) == h).all())
    if not uniform or w <= 0 or h <= 0 or x0 < 0 or y0 < 0 or x1 > width or y1 > height:
        return classify(image, geo, bank, nudge, sampler)
    depth = image.shape[2]
    board = image[y0:y1, x0:x1]
    # One row of bytes per cell, row-major over the board.
    size = h * w * depth
    cells = _padded(geo.rows * geo.cols, size)
    cells[:, :size] = (
        board.reshape(geo.rows, h, geo.cols, w, depth)
        .transpose(0, 2, 1, 3, 4)
        .reshape(geo.rows * geo.cols, size)
    )
    grouped = _group(cells, size)
    if grouped is None:
        return classify(image, geo, bank, nudge, sampler)
    first, group = grouped
    count = len(first)
    atlas = cells[first, :size].reshape(count, h, w, depth).transpose(1, 0, 2, 3)
    atlas = np.ascontiguousarray(atlas.reshape(h, count * w, depth))
    row = Geometry(0, 0, w, h, 1, count)
    patches = board_patches(atlas, row, bank.skin.inset, bank.skin.patch)
    if patches is None:  # cannot happen for a well-formed atlas; be exact anyway
        return classify(image, geo, bank, nudge, sampler)
    colours, inks = grid_features(atlas, row, bank)
    return cell_scores(image, geo, bank, None, patches, colours, inks, group)


@dataclass(frozen=True)
class _Lines:
    """The columns (or rows) of a scaled grid, by what a cell reads along that axis."""

    #: Per line: the first pixel any read of its cells touches, and its class.
    start: np.ndarray
    kind: np.ndarray
    #: Per class: how many pixels from `start` its reads touch.
    size: tuple[int, ...]


def _lines(ints: np.ndarray, fracs: np.ndarray, probes: np.ndarray | None) -> _Lines:
    """Lines from their remap points (whole part `ints`, fraction code `fracs`, one
    row per line) and the pixels the colour probes read (`probes`, or None).

    A remap point reads its pixel and the next one. Lines of one class read
    the same pixels relative to `start`, with the same weights.
    """
    ints = ints.astype(np.int64)
    start, stop = ints.min(axis=1), ints.max(axis=1) + 2
    if probes is not None:
        start = np.minimum(start, probes.min(axis=1))
        stop = np.maximum(stop, probes.max(axis=1) + 1)
    classes: dict[tuple[object, ...], int] = {}
    kind = np.empty(len(ints), dtype=np.intp)
    for i in range(len(ints)):
        key = (
            int(stop[i] - start[i]),
            (ints[i] - start[i]).tobytes(),
            fracs[i].tobytes(),
            b"" if probes is None else (probes[i] - start[i]).astype(np.int64).tobytes(),
        )
        kind[i] = classes.setdefault(key, len(classes))
    size = tuple(int(key[0]) for key in classes)  # type: ignore[call-overload]
    return _Lines(start, kind, size)


@dataclass(frozen=True)
class _Plan:
    """How a scaled grid's cells are grouped: its column and row classes, and where
    each cell's footprint is cut from the image's rows of bytes.

    Every cell is cut as one window of `height` image rows by `width` bytes
    (the largest footprint, widened to whole 8-byte words) from (`top[row]`,
    `left[col]`); `mask` keeps only the bytes of the cell's own footprint
    (None: every window is exactly a footprint), so that two cells' windows
    are equal just when their footprints are. `kind` is each cell's pair of
    column and row classes, numbered.
    """

    cols: _Lines
    rows: _Lines
    #: (x0, y0, x1, y1) of every pixel any window reads.
    bounds: tuple[int, int, int, int]
    top: np.ndarray
    left: np.ndarray
    height: int
    width: int
    kind: np.ndarray
    mask: np.ndarray | None
    #: `kind` spread over 64 bits, for the windows' hashes.
    kind_hash: np.ndarray
    #: Whole-pixel (x0, x1, y0, y1) of every cell (row-major), as `cell_edges`.
    edges: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _plan_key(table: ColourTable | None, depth: int) -> str:
    """The name a `_Plan` is kept under in its sampler's `derived`."""
    return f"distinct:{None if table is None else table.probe}:{depth}"


def _plan(
    sampler: CellSampler,
    geo: Geometry,
    nudge: Nudge | None,
    table: ColourTable | None,
    depth: int,
) -> _Plan:
    """The `_Plan` of the grid `sampler` was made for (`geo`, `nudge`) and images of
    `depth` channels, made once per sampler: it depends on the grid alone."""
    key = _plan_key(table, depth)
    cached = sampler.derived.get(key)
    if isinstance(cached, _Plan):
        return cached
    side = sampler.patch * sampler.factor
    cols, rows = cell_edges(geo, nudge)
    col_probes = row_probes = None
    if table is not None:
        col_probes = probe_points(cols[:, 0], cols[:, 1], table)
        row_probes = probe_points(rows[:, 0], rows[:, 1], table)
    across = _lines(
        sampler.map1[0, :, 0].reshape(geo.cols, side),
        sampler.map2[0, :].reshape(geo.cols, side),
        col_probes,
    )
    down = _lines(
        sampler.map1[:, 0, 1].reshape(geo.rows, side),
        sampler.map2[:, 0].reshape(geo.rows, side),
        row_probes,
    )
    # Footprint of each cell: rows x bytes.
    tall = np.array(down.size)[down.kind]
    wide = np.array(across.size)[across.kind] * depth
    height, width = int(tall.max()), -(-int(wide.max()) // 8) * 8
    mask = np.zeros((geo.rows, geo.cols, height, width), dtype=np.uint8)
    rows_in = np.arange(height)[None, :] < tall[:, None]
    bytes_in = np.arange(width)[None, :] < wide[:, None]
    mask[...] = 255 * (rows_in[:, None, :, None] & bytes_in[None, :, None, :])
    words = mask.reshape(geo.rows * geo.cols, -1).view(np.uint64)
    kind = (down.kind[:, None] * len(across.size) + across.kind[None, :]).reshape(-1)
    x1 = int(-(-(across.start.max() * depth + width) // depth))
    bounds = (
        int(across.start.min()),
        int(down.start.min()),
        max(x1, int((across.start + np.array(across.size)[across.kind]).max())),
        int(down.start.max()) + height,
    )
    plan = _Plan(
        across,
        down,
        bounds,
        down.start.astype(np.intp),
        (across.start * depth).astype(np.intp),
        height,
        width,
        kind,
        None if bool((words == np.uint64(2**64 - 1)).all()) else words,
        kind.astype(np.uint64) * _SPREAD,
        (
            np.repeat(cols[None, :, 0], geo.rows, axis=0).reshape(-1),
            np.repeat(cols[None, :, 1], geo.rows, axis=0).reshape(-1),
            np.repeat(rows[:, 0], geo.cols),
            np.repeat(rows[:, 1], geo.cols),
        ),
    )
    sampler.derived[key] = plan
    return plan


def _sliced(plan: _Plan, rows: int, cols: int, box: tuple[int, int, int, int]) -> _Plan:
    """The plan of the cells rows r0:r1 x columns c0:c1 of a grid of `rows` x `cols`
    cells, cut from the whole grid's `plan` (class numbers and window size kept,
    so its cells group exactly as they do in the whole grid; `bounds` stay the
    whole grid's, which hold the part's)."""
    r0, r1, c0, c1 = box

    def cells(values: np.ndarray) -> np.ndarray:
        """Per-cell rows (row-major) of the part."""
        grid = values.reshape(rows, cols, *values.shape[1:])
        return np.ascontiguousarray(grid[r0:r1, c0:c1]).reshape(-1, *values.shape[1:])

    x0, x1, y0, y1 = plan.edges
    return _Plan(
        _Lines(plan.cols.start[c0:c1], plan.cols.kind[c0:c1], plan.cols.size),
        _Lines(plan.rows.start[r0:r1], plan.rows.kind[r0:r1], plan.rows.size),
        plan.bounds,
        plan.top[r0:r1],
        plan.left[c0:c1],
        plan.height,
        plan.width,
        cells(plan.kind),
        None if plan.mask is None else cells(plan.mask),
        cells(plan.kind_hash),
        (cells(x0), cells(x1), cells(y0), cells(y1)),
    )


def part_sampler(
    image: np.ndarray,
    geo: Geometry,
    nudge: Nudge | None,
    sampler: CellSampler,
    bank: TileBank,
    box: tuple[int, int, int, int],
) -> tuple[Geometry, Nudge | None, CellSampler]:
    """The grid, nudge and sampler of the cells rows r0:r1 x columns c0:c1 of the
    scaled grid `geo` (`nudge`, `sampler`: the whole grid's), for
    `classify_distinct` of those cells alone (a changed part of a board).

    The part's grouping plan is the whole grid's, cut to the part and kept
    with the part's sampler: made afresh for each part it would cost more
    than grouping saves.
    """
    r0, r1, c0, c1 = box
    part, part_nudge = part_grid(geo, nudge, box)
    cut = sampler.part(part, part_nudge, slice(r0, r1), slice(c0, c1))
    table = bank.colours
    if sampler.valid and image.ndim == 3 and image.dtype == np.uint8:
        depth = image.shape[2]
        whole = _plan(sampler, geo, nudge, table, depth)
        cut.derived[_plan_key(table, depth)] = _sliced(whole, geo.rows, geo.cols, box)
    return part, part_nudge, cut


def _classify_scaled(
    image: np.ndarray,
    geo: Geometry,
    bank: TileBank,
    nudge: Nudge | None,
    sampler: CellSampler | None,
) -> CellScores | None:
    """`classify` of a scaled grid, each group of cells that read alike once (module doc)."""
    inset, patch = bank.skin.inset, bank.skin.patch
    if sampler is None or not sampler.fits(geo, nudge, inset, patch):
        sampler = make_sampler(geo, nudge, inset, patch)
    height, width = image.shape[:2]
    sx0, sy0, sx1, sy1 = sampler.bounds
    table = bank.colours
    whole_bytes = sampler.valid and image.dtype == np.uint8  # windows are cut in bytes
    plan = _plan(sampler, geo, nudge, table, image.shape[2]) if whole_bytes else None
    if (
        plan is None
        or min(sx0, sy0, plan.bounds[0], plan.bounds[1]) < 0
        or max(sx1, plan.bounds[2]) > width
        or max(sy1, plan.bounds[3]) > height
    ):
        return classify(image, geo, bank, nudge, sampler)
    grouped = _groups(image, plan)
    if grouped is None:
        return classify(image, geo, bank, nudge, sampler)
    first, group = grouped
    patches = sample_cells(image, sampler, first)
    colours = inks = None
    if table is not None:
        x0, x1, y0, y1 = (edge[first] for edge in plan.edges)
        colours = cell_colours(image, x0, x1, y0, y1, table.probe)
        inks = cell_inks(image, x0, x1, y0, y1, table)
    return cell_scores(image, geo, bank, nudge, patches, colours, inks, group, plan.edges)


def _groups(image: np.ndarray, plan: _Plan) -> tuple[np.ndarray, np.ndarray] | None:
    """(first, group) over the board's cells (row-major flat indices): cell i reads
    what cell first[group[i]] reads. None past MAX_COLLISIONS hash collisions.

    Every cell's window (`_Plan`) in one gather from a view of the image's
    rows of bytes, the bytes outside its footprint zeroed, then a hash of
    its words (and of its classes), and every cell compared in full with the
    first cell of its hash.
    """
    lines = image.reshape(image.shape[0], -1)  # a view unless rows are not contiguous
    # (`sliding_window_view`, built directly: its checks cost more than the gather's setup.)
    down, across = lines.strides
    windows = np.lib.stride_tricks.as_strided(
        lines,
        (
            lines.shape[0] - plan.height + 1,
            lines.shape[1] - plan.width + 1,
            plan.height,
            plan.width,
        ),
        (down, across, down, across),
        writeable=False,
    )
    cells = windows[plan.top[:, None], plan.left[None, :]]
    words = cells.reshape(len(plan.kind), -1).view(np.uint64)
    if plan.mask is not None:
        words &= plan.mask
    # A wrapping sum of the words, of the first half of them, and the classes:
    # two passes of plain sums (no per-word weights, which cost twice as much)
    # that tell apart windows whose words differ, moved from one half to the
    # other (a glyph a row lower) included; the rest is checked in full below.
    half = words.shape[1] // 2
    hashes = words.sum(axis=1) + words[:, :half].sum(axis=1) * _SPREAD + plan.kind_hash
    _, first, group = np.unique(hashes, return_index=True, return_inverse=True)
    group = group.reshape(-1)
    lead = first[group]
    differ = (words != np.take(words, lead, axis=0)).any(axis=1)
    odd = np.flatnonzero(differ | (plan.kind != plan.kind[lead]))
    if len(odd) > MAX_COLLISIONS:
        return None
    if len(odd):
        # Cells whose hash met another cell's: grouped exactly among themselves.
        keys = np.concatenate([plan.kind[odd, None].astype(np.uint64), words[odd]], axis=1)
        _, odd_first, odd_group = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        group[odd] = len(first) + odd_group.reshape(-1)
        first = np.concatenate([first, odd[odd_first]])
    return first, group
