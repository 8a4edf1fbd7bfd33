"""Classify each distinct cell of a whole-pixel board once.

A cell's classification depends only on its own pixels (`vision.classify`),
and a board is mostly copies of a few tiles: on a fixed-size skin every
covered cell, every 0 and every 1 is drawn pixel for pixel the same. Shrinking
the whole board (`classify.board_patches`: one `cv2.resize`, about 1 ms for
30x16 xdemineur cells) and comparing every cell with every template is then
mostly repeated work. Here the cells are grouped by their exact pixels
(a hash of all their bytes, then every cell compared with its group's first
cell in full; the rare cell whose hash met another's is grouped exactly), the
first cell of each group is laid out in a row ("atlas") and classified, and
each cell gets its group's answer.

The answer is the one `classify` gives for the board: a cell of the atlas is
shrunk over the same pixels with the same area weights (the board's cell
edges fall on whole output pixels, and the scale is the same ratio), and
each cell is then scored on its own.
Scaled grids (fractional pitch or nudged cells: GNOME Mines) and a grid not
on the picture are left to `classify` itself.
"""

from __future__ import annotations

import numpy as np

from vision.classify import CellScores, TileBank, classify
from vision.geometry import Geometry
from vision.sampling import CellSampler, Nudge, cell_edges, is_scaled

#: Cells whose hash collides with a different cell's are grouped exactly
#: (slowly); past this many, the board is classified cell by cell instead.
MAX_COLLISIONS = 32


def classify_distinct(
    image: np.ndarray,
    geo: Geometry,
    bank: TileBank,
    nudge: Nudge | None = None,
    sampler: CellSampler | None = None,
) -> CellScores | None:
    """`classify(image, geo, bank, nudge, sampler)`, each distinct cell classified once."""
    if is_scaled(geo, nudge) or image.ndim != 3:
        return classify(image, geo, bank, nudge, sampler)
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
    # One row of bytes per cell, row-major over the board, padded to whole
    # 8-byte words for the hash.
    size = h * w * depth
    cells = np.zeros((geo.rows * geo.cols, -(-size // 8) * 8), dtype=np.uint8)
    cells[:, :size] = (
        board.reshape(geo.rows, h, geo.cols, w, depth)
        .transpose(0, 2, 1, 3, 4)
        .reshape(geo.rows * geo.cols, size)
    )
    words = cells.view(np.uint64)
    # A multiply-and-add hash of every byte (wrapping), then exact grouping by it.
    weights = (np.arange(words.shape[1], dtype=np.uint64) * np.uint64(2654435761)) | np.uint64(1)
    _, first, group = np.unique(
        (words * weights).sum(axis=1), return_index=True, return_inverse=True
    )
    group = group.reshape(-1)
    odd = np.flatnonzero((cells != cells[first[group]]).any(axis=1))
    if len(odd) > MAX_COLLISIONS:
        return classify(image, geo, bank, nudge, sampler)
    if len(odd):
        # Cells whose hash met another cell's: grouped exactly among themselves.
        _, odd_first, odd_group = np.unique(
            cells[odd], axis=0, return_index=True, return_inverse=True
        )
        group[odd] = len(first) + odd_group.reshape(-1)
        first = np.concatenate([first, odd[odd_first]])
    count = len(first)
    atlas = cells[first, :size].reshape(count, h, w, depth).transpose(1, 0, 2, 3)
    atlas = np.ascontiguousarray(atlas.reshape(h, count * w, depth))
    scores = classify(atlas, Geometry(0, 0, w, h, 1, count), bank)
    if scores is None:  # cannot happen for a well-formed atlas; be exact anyway
        return classify(image, geo, bank, nudge, sampler)
    shape = (geo.rows, geo.cols)
    return CellScores(
        *(
            a.reshape(-1)[group].reshape(shape)
            for a in (scores.chars, scores.best, scores.margin, scores.unsure)
        )
    )
