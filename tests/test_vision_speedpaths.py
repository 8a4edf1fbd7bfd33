"""The cold read's fast paths give exactly what the plain paths give.

- A scaled grid (GNOME Mines) classified one group of alike cells at a time
  (`vision.distinct`) against `classify` of every cell, on recorded frames,
  on grids moved by whole and fractional pixels, and on frames with a pixel
  painted into one cell;
- `sampling.sample_cells` against the rows of `sampling.sample_patches`;
- the glyph search's screening (`vision.glyphs._group_costs`) against a
  plain match of the whole region: the same placements within the threshold.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from test_distinct import _equal  # the same check as for whole-pixel grids

from vision.classify import classify
from vision.distinct import classify_distinct
from vision.glyphs import _grey, _score_maps, _scores, _visible, best_hit
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.sampling import make_sampler, sample_cells, sample_patches

RECORDINGS = Path(__file__).resolve().parent.parent / "recordings"
GNOME = ["gnome-mines-expert-1", "gnome-mines-beginner-2", "gnome-mines-dense-1"]


@pytest.mark.parametrize("name", GNOME)
def test_scaled_grid_grouped_cells_read_as_every_cell(name: str) -> None:
    reader = BoardReader()
    for path in sorted((RECORDINGS / name / "frames").glob("*.png")):
        image = load_image(path)
        located = reader.locate(image)
        geo, bank, nudge = located.geometry, located.bank, located.nudge
        assert nudge is not None or not float(geo.cell_w).is_integer()
        for dx, dy in ((0, 0), (0.5, 0), (0.3, -0.6), (1, 0)):
            moved = geo.shifted(dx, dy)
            for grid_nudge in (nudge, None):
                _equal(
                    classify_distinct(image, moved, bank, grid_nudge),
                    classify(image, moved, bank, grid_nudge),
                )


def test_a_painted_pixel_splits_a_cell_from_its_group() -> None:
    """A covered cell with one pixel changed inside what its patch reads is read
    on its own, and one changed outside it (in the cell's border) still reads
    as every cell would (spots look at each cell's own pixels)."""
    image = load_image(RECORDINGS / "gnome-mines-expert-1" / "frames" / "0001.png")
    reader = BoardReader()
    located = reader.locate(image)
    geo, bank, nudge = located.geometry, located.bank, located.nudge
    whole = classify(image, geo, bank, nudge)
    assert whole is not None
    covered = np.argwhere(whole.chars == ".")
    flagged = np.argwhere(whole.chars == "F")
    assert len(covered) and len(flagged)
    cases = []
    for row, col in (covered[len(covered) // 2], flagged[0]):
        x, y = geo.cell_center(int(row), int(col))
        for dx, dy, value in ((0, 0, 0), (3, -2, 255), (-7, 5, 40), (15, 15, 0)):
            cases.append((x + dx, y + dy, value))
    for x, y, value in cases:
        painted = image.copy()
        painted[y, x] = value
        plain = classify(painted, geo, bank, nudge)
        _equal(classify_distinct(painted, geo, bank, nudge), plain)
    # And a change the patch sees makes a difference at all (the check can fail).
    row, col = map(int, covered[len(covered) // 2])
    x, y = geo.cell_center(row, col)
    painted = image.copy()
    painted[y - 4 : y + 4, x - 4 : x + 4] = 0
    fast = classify_distinct(painted, geo, bank, nudge)
    assert fast is not None
    assert fast.best[row, col] != whole.best[row, col]


def test_sample_cells_are_rows_of_sample_patches() -> None:
    image = load_image(RECORDINGS / "gnome-mines-expert-2" / "frames" / "0000.png")
    reader = BoardReader()
    located = reader.locate(image)
    skin = located.skin
    sampler = make_sampler(located.geometry, located.nudge, skin.inset, skin.patch)
    every = sample_patches(image, sampler)
    assert every is not None
    rng = np.random.default_rng(3)
    for count in (1, 7, 120):
        cells = rng.choice(len(every), size=count, replace=False)
        assert np.array_equal(sample_cells(image, sampler, cells), every[cells])


@pytest.mark.parametrize(
    "name", ["gnome-mines-expert-1", "gnome-mines-beginner-1", "gnome-mines-intermediate-1"]
)
def test_screened_glyph_search_finds_what_a_full_match_finds(name: str) -> None:
    """Every region of the skin, and the status band with the won title pasted
    over the board: the placements within the threshold are those of a plain
    `cv2.matchTemplate` of the whole region."""
    reader = BoardReader()
    image = load_image(sorted((RECORDINGS / name / "frames").glob("*.png"))[0])
    located = reader.locate(image)
    skin, geo = located.skin, located.geometry
    assert skin.status_texts is not None
    won = skin.status_texts.images["won"][0]
    pasted = image.copy()
    seen = _visible(image, skin.status_texts.region, geo)
    assert seen is not None
    x, y = seen[1] + 300, seen[2] + 200
    pasted[y : y + won.shape[0], x : x + won.shape[1]] = won[:, :, :3]
    for picture in (image, pasted):
        for glyphs in (skin.counter, skin.status_texts, skin.paused, *skin.buttons.values()):
            assert glyphs is not None
            seen = _visible(picture, glyphs.region, geo)
            if seen is None:
                continue
            crop = _grey(seen[0])
            for _, template, scores in _score_maps(crop, glyphs):
                full = _scores(crop, template)
                assert (scores is None) == (full is None)
                if scores is None or full is None:
                    continue
                plain = np.asarray(
                    cv2.matchTemplate(crop, template, cv2.TM_SQDIFF), dtype=np.float32
                ) / float(template.size)
                within = plain <= glyphs.threshold
                assert np.array_equal(scores <= glyphs.threshold, within)
    hit = best_hit(pasted, skin.status_texts, geo)
    assert hit is not None and hit.key == "won"
    assert best_hit(image, skin.status_texts, geo) is None
