"""The cold read's fast paths give exactly what the plain paths give.

- A scaled grid (GNOME Mines) classified one group of alike cells at a time
  (`vision.distinct`) against `classify` of every cell, on recorded frames,
  on grids moved by whole and fractional pixels, and on frames with a pixel
  painted into one cell;
- `sampling.sample_cells` against the rows of `sampling.sample_patches`;
- the glyph search's screening (`vision.glyphs._group_costs`), its cut to
  the glyphs' grey range and its templates matched a size at a time, against
  a plain match of the whole region: the same placements within the threshold.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from test_distinct import _equal  # the same check as for whole-pixel grids

from vision.classify import classify
from vision.counter import read_counter
from vision.distinct import classify_distinct
from vision.glyphs import EXACT_PIXELS, _grey, _score_maps, _scores, _visible, best_hit
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.sampling import make_sampler, sample_cells, sample_patches
from vision.skin import Glyphs

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


def _checked_maps(
    crop: np.ndarray, glyphs: Glyphs
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Per template: its scores from the glyph search (`_score_maps`), from
    `_scores` of it alone, and the placements within the threshold of a plain
    `cv2.matchTemplate` of the whole region, checked to be the search's."""
    out = []
    for _, template, scores in _score_maps(crop, glyphs):
        alone = _scores(crop, template)
        assert (scores is None) == (alone is None)
        if scores is None or alone is None:
            continue
        plain = np.asarray(
            cv2.matchTemplate(crop, template, cv2.TM_SQDIFF), dtype=np.float32
        ) / float(template.size)
        within = plain <= glyphs.threshold
        assert np.array_equal(scores <= glyphs.threshold, within)
        out.append((template, scores, alone, within))
    return out


@pytest.mark.parametrize(
    "name", ["gnome-mines-expert-1", "gnome-mines-beginner-1", "gnome-mines-intermediate-1"]
)
def test_screened_glyph_search_finds_what_a_full_match_finds(name: str) -> None:
    """Every region of the skin, and the status region with the won title pasted
    in it: the placements within the threshold are those of a plain
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
    x, y = seen[1] + 40, seen[2] + 60  # inside the region
    pasted[y : y + won.shape[0], x : x + won.shape[1]] = won[:, :, :3]
    for picture in (image, pasted):
        for glyphs in (skin.counter, skin.status_texts, skin.paused, *skin.buttons.values()):
            assert glyphs is not None
            seen = _visible(picture, glyphs.region, geo)
            if seen is None:
                continue
            _checked_maps(_grey(seen[0]), glyphs)
    hit = best_hit(pasted, skin.status_texts, geo)
    assert hit is not None and hit.key == "won"
    assert best_hit(image, skin.status_texts, geo) is None


@pytest.mark.parametrize(
    "name",
    [
        "minegauler-expert-1",
        "minegauler-beginner-1",
        "sgt-mines-expert-1",
        "xdemineur-expert-1",
        "gnome-mines-expert-1",
    ],
)
def test_glyph_search_by_grey_range_and_batched_finds_what_a_full_match_finds(name: str) -> None:
    """The counter and status searches, cut to the windows within the glyphs'
    grey range (`_Region.in_range`) and matched a size at a time
    (`_Region.exact_ssds`): every placement within the threshold of a plain
    `cv2.matchTemplate` of the whole region is kept, with the score `_scores`
    gives it alone (the very score, for templates matched exactly), and
    nothing else; also with the digits'
    pixels darkened and a light block pasted into the counter."""
    reader = BoardReader()
    image = load_image(sorted((RECORDINGS / name / "frames").glob("*.png"))[0])
    located = reader.locate(image)
    skin, geo = located.skin, located.geometry
    assert skin.counter is not None
    seen = _visible(image, skin.counter.region, geo)
    assert seen is not None
    darker = image.copy()
    darker[seen[2] : seen[2] + seen[0].shape[0], seen[1] : seen[1] + seen[0].shape[1]] //= 2
    pasted = image.copy()
    pasted[seen[2] + 5 : seen[2] + 12, seen[1] + 10 : seen[1] + 30] = 200
    kept = 0
    for picture in (image, darker, pasted):
        for glyphs in (skin.counter, skin.status_texts):
            if glyphs is None or (seen := _visible(picture, glyphs.region, geo)) is None:
                continue
            for template, scores, alone, within in _checked_maps(_grey(seen[0]), glyphs):
                finite = np.isfinite(scores)
                if template.size <= EXACT_PIXELS:  # whole numbers, exact in float32
                    assert np.array_equal(scores[finite], alone[finite])
                else:  # cv2.matchTemplate over part of the region: its own rounding
                    assert np.allclose(scores[finite], alone[finite], rtol=1e-5, atol=0.05)
                kept += int(within.sum())
    assert kept  # some placements match at all (the check can fail)


def test_grey_range_leaves_out_windows_on_the_light_frame() -> None:
    """minegauler's dim counter digits on black: placements reaching into the
    light frame around the display are left out (+inf), and the counter still reads."""
    image = load_image(RECORDINGS / "minegauler-expert-1" / "frames" / "0001.png")
    located = BoardReader().locate(image)
    glyphs, geo = located.skin.counter, located.geometry
    assert glyphs is not None
    seen = _visible(image, glyphs.region, geo)
    assert seen is not None
    maps = _score_maps(_grey(seen[0]), glyphs)
    for _, _, scores in maps:
        assert scores is not None
        assert 0 < np.isfinite(scores).sum() < scores.size / 4
    assert read_counter(image, located.skin, geo) == 79
