"""Cut labelled cells out of screenshots to make (or extend) a skin's tile images.

Given a frame, its grid and the board text a person has checked, every cell
becomes a candidate template for its character; near-duplicates (same kind,
patch distance below `same`) are dropped so a skin keeps a few variants per
kind (hover, window sizes) rather than hundreds of copies.
"""

from __future__ import annotations

import numpy as np

from bot.board import Board
from vision.classify import shrink
from vision.geometry import Geometry


def cut_cells(image: np.ndarray, geo: Geometry) -> list[list[np.ndarray]]:
    """Every cell's pixels (pitch-sized crops, rounded to whole pixels)."""
    w, h = round(geo.cell_w), round(geo.cell_h)
    cells = []
    for r in range(geo.rows):
        row = []
        for c in range(geo.cols):
            x = round(geo.left + c * geo.cell_w)
            y = round(geo.top + r * geo.cell_h)
            row.append(image[y : y + h, x : x + w].copy())
        cells.append(row)
    return cells


def harvest(
    frames: list[tuple[np.ndarray, Geometry, Board]], same: float = 60.0, inset: int = 0
) -> dict[str, list[np.ndarray]]:
    """Distinct tile images per board character over labelled frames."""
    kept: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
    for image, geo, board in frames:
        for r, row in enumerate(cut_cells(image, geo)):
            for c, tile in enumerate(row):
                ch = board.rows[r][c]
                vec = shrink(tile, inset)
                have = kept.setdefault(ch, [])
                if all(float(((vec - v) ** 2).mean()) > same for _, v in have):
                    have.append((tile, vec))
    return {ch: [t for t, _ in items] for ch, items in kept.items()}
