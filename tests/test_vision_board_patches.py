"""`vision.classify.board_patches`: identical cells give identical patches,
whatever the cells' size against the patch's."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classify import board_patches, shrink
from vision.geometry import Geometry

FRESH = Path(__file__).parent / "data" / "zoo" / "seed-1512055356" / "fresh.png"


def test_identical_cells_shrinking_one_way_and_growing_the_other_give_one_patch() -> None:
    """Zoo seed 1512055356's fresh board: 18x13 px cells (a 1 px gap right and
    below each), patches of 14x14. One resize of the whole board gave cells past
    the third column patches 163 apart from the first ones, every one of them
    read unsure by the skin learned from its tiles, and the game stopped."""
    image = cv2.imread(str(FRESH))
    geo = Geometry(160.0, 160.0, 18, 13, 16, 30)
    patches = board_patches(image, geo, 0, 14)
    assert patches is not None
    inner = patches.reshape(16, 30, -1)[1:, 1:].reshape(15 * 29, -1)  # all alike
    assert np.abs(inner - inner[0]).max() == 0
    # And as the skin's own tile of such a cell is shrunk, give or take rounding.
    tile = image[173:186, 178:196]
    assert np.abs(inner[0] - shrink(tile, 0, 14)).max() <= 1


@pytest.mark.parametrize(("w", "h"), [(18, 13), (13, 18), (20, 20), (11, 11), (17, 15)])
def test_a_lattice_of_one_tile_gives_one_patch(w: int, h: int) -> None:
    rng = np.random.default_rng(w * 100 + h)
    tile = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    image = np.zeros((h * 9 + 10, w * 12 + 10, 3), np.uint8)
    image[5 : 5 + 9 * h, 5 : 5 + 12 * w] = np.tile(tile, (9, 12, 1))
    patches = board_patches(image, Geometry(5.0, 5.0, w, h, 9, 12), 0, 14)
    assert patches is not None
    inner = patches.reshape(9, 12, -1)[1:-1, 1:-1].reshape(7 * 10, -1)
    assert np.abs(inner - inner[0]).max() <= 1
