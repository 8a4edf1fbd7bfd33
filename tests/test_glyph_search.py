"""The glyph search skips only placements that cannot match (vision.glyphs).

Every score map `_score_maps` returns must agree with plain matching of the
whole region wherever the plain score is within the threshold, and may hold
+inf only where the plain score is over it. Checked on real frames of every
built-in skin, as recorded and with each glyph pasted somewhere in its region
(over background, board or window edge), so that every glyph set has matches,
and with thresholds raised 5 and 25 times, so that many placements come
close to one and the bounds that rule placements out are tested near their
edge.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from vision.glyphs import (
    COUNT_BLOCK,
    MOST_CHANGED,
    GlyphMemo,
    _counted,
    _grey,
    _group_costs,
    _GroupCounts,
    _ink_boxes,
    _ink_test,
    _parts,
    _Region,
    _score_maps,
    _template_parts,
    _visible,
)
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.skin import Glyphs, Skin

RECORDINGS = Path(__file__).resolve().parent.parent / "recordings"
FRAMES = [
    "xdemineur-expert-1/frames/0002.png",
    "gnome-mines-expert-1/frames/0001.png",
    "gnome-mines-beginner-1/frames/0002.png",
    "sgt-mines-expert-1/frames/0001.png",
    "sgt-mines-beginner-1/frames/0002.png",
    "minegauler-expert-1/frames/0001.png",
]


def _plain(crop: np.ndarray, template: np.ndarray) -> np.ndarray | None:
    if crop.shape[0] < template.shape[0] or crop.shape[1] < template.shape[1]:
        return None
    return np.asarray(cv2.matchTemplate(crop, template, cv2.TM_SQDIFF)) / float(template.size)


#: A wide band around a board's top: its first rows, the title bar and side panel
#: of the window (the region GNOME Mines' status text was once searched in).
WIDE_BAND = ((0.0, -250.0), (0.0, -130.0), (1.0, 450.0), (0.0, 230.0))


def _band(frame: str = "gnome-mines-expert-1/frames/0001.png") -> tuple[np.ndarray, Glyphs]:
    """A wide band (grey) of a recorded GNOME Mines frame, and the glyphs of its
    status text: a large and varied picture for the glyph search's screening."""
    image = load_image(RECORDINGS / frame)
    located = BoardReader().locate(image)
    assert located.skin.status_texts is not None
    glyphs = replace(located.skin.status_texts, region=WIDE_BAND)
    seen = _visible(image, glyphs.region, located.geometry)
    assert seen is not None
    return np.ascontiguousarray(_grey(seen[0])), glyphs


def _check(crop: np.ndarray, glyphs: Glyphs) -> int:
    """Compare every map with plain matching; the number of placements within the threshold."""
    found = 0
    for key, template, scores in _score_maps(crop, glyphs):
        plain = _plain(crop, template)
        assert (scores is None) == (plain is None), key
        if scores is None or plain is None:
            continue
        within = plain <= glyphs.threshold
        found += int(within.sum())
        # Where a match is possible the search computed the score (to float rounding) ...
        assert np.isfinite(scores[within]).all(), key
        assert np.allclose(scores[within], plain[within], rtol=1e-4, atol=0.05), key
        # ... and whatever it computed elsewhere is that score too.
        computed = np.isfinite(scores)
        assert np.allclose(scores[computed], plain[computed], rtol=1e-4, atol=0.05), key
    return found


def _glyph_sets(skin: Skin) -> list[tuple[str, Glyphs]]:
    named = {
        "counter": skin.counter,
        "faces": skin.faces,
        "status_texts": skin.status_texts,
        "paused": skin.paused,
        **skin.buttons,
    }
    return [(name, glyphs) for name, glyphs in named.items() if glyphs is not None]


@pytest.mark.parametrize("frame", FRAMES)
def test_search_keeps_every_possible_match(frame: str) -> None:
    image = load_image(RECORDINGS / frame)
    located = BoardReader().locate(image)
    rng = np.random.default_rng(7)
    sets = [
        (name, replace(glyphs, threshold=glyphs.threshold * factor))
        for name, glyphs in _glyph_sets(located.skin)
        for factor in (1, 5, 25)
    ]
    for name, glyphs in sets:
        seen = _visible(image, glyphs.region, located.geometry)
        if seen is None:
            continue
        crop = np.ascontiguousarray(_grey(seen[0]))
        _check(crop, glyphs)
        for images in glyphs.grey.values():
            for template in images:
                th, tw = template.shape[:2]
                if crop.shape[0] < th or crop.shape[1] < tw:
                    continue
                pasted = crop.copy()
                y = int(rng.integers(crop.shape[0] - th + 1))
                x = int(rng.integers(crop.shape[1] - tw + 1))
                pasted[y : y + th, x : x + tw] = template
                assert _check(pasted, glyphs) >= 1, (name, template.shape)


@pytest.mark.parametrize(
    "frame", ["gnome-mines-expert-1/frames/0001.png", "gnome-mines-intermediate-1/frames/0002.png"]
)
def test_counting_keeps_every_placement_under_any_threshold(frame: str) -> None:
    """`_counted` on GNOME Mines' status band (the region it screens), at thresholds
    that thousands of placements pass (quantiles of the plain scores), with the
    glyph pasted in and noise added: every placement within the threshold is kept."""
    crop, glyphs = _band(frame)
    template = next(iter(glyphs.grey.values()))[0]
    th, tw = template.shape[:2]
    rng = np.random.default_rng(11)
    pasted = crop.copy()
    pasted[40 : 40 + th, 300 : 300 + tw] = template
    noise = rng.normal(0, 12, pasted.shape)
    noisy = np.clip(pasted + noise, 0, 255).astype(np.uint8)
    for picture in (crop, pasted, noisy):
        plain = _plain(picture, template)
        assert plain is not None
        for quantile in (0.0001, 0.001, 0.01):
            threshold = float(np.quantile(plain, quantile))
            test = replace(glyphs, threshold=threshold)
            boxes = _counted(_Region(picture, _ink_test(test)), template, threshold)
            kept = np.zeros(plain.shape, dtype=bool)
            for x0, y0, x1, y1 in boxes:
                kept[y0:y1, x0:x1] = True
            within = plain <= threshold
            assert within.sum() >= 1
            assert kept[within].all(), (picture is crop, quantile)
    # At the skin's own threshold it does rule out most of the band.
    boxes = _counted(_Region(crop, _ink_test(glyphs)), template, glyphs.threshold)
    assert sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) < 0.1 * crop.size


def _exact_ssd(picture: np.ndarray, template: np.ndarray) -> np.ndarray:
    """Sums of squared differences at every placement, to well under 1 (float64)."""
    th, tw = template.shape[:2]
    height, width = picture.shape[0] - th + 1, picture.shape[1] - tw + 1
    squares = cv2.integral(np.square(picture.astype(np.float64)))
    own = (
        squares[th:, tw:][:height, :width]
        - squares[:height, tw:][:, :width]
        - squares[th:, :width][:height]
        + squares[:height, :width]
    )
    cross = cv2.filter2D(
        picture.astype(np.float64),
        -1,
        template.astype(np.float64),
        anchor=(0, 0),
        borderType=cv2.BORDER_CONSTANT,
    )[:height, :width]
    return np.asarray(own - 2 * cross + float(np.square(template.astype(np.float64)).sum()))


@pytest.mark.parametrize("noise", [0, 12, 40])
def test_group_costs_never_exceed_a_placement_of_the_group(noise: int) -> None:
    """`_group_costs` is a lower bound of the sum of squared differences of every
    placement of its group, on a part of GNOME Mines' status band with its glyph
    pasted in (and noise): checked at every group, against exact sums."""
    band, glyphs = _band()
    crop = np.ascontiguousarray(band[60:220, 300:900])
    template = next(iter(glyphs.grey.values()))[0]
    th, tw = template.shape[:2]
    crop[50 : 50 + th, 200 : 200 + tw] = template
    rng = np.random.default_rng(noise)
    crop = np.clip(crop + rng.normal(0, noise, crop.shape), 0, 255).astype(np.uint8)
    costs = _group_costs(_Region(crop, _ink_test(glyphs)), template, float("inf"))
    ssd = _exact_ssd(crop, template)
    k = COUNT_BLOCK
    gy, gx = costs.shape
    padded = np.full((gy * k, gx * k), np.inf)
    padded[: ssd.shape[0], : ssd.shape[1]] = ssd
    least = padded.reshape(gy, k, gx, k).min(axis=(1, 3))
    assert (costs <= least + 0.5).all(), float((costs - least).max())
    # And not a trivial one: on a clean picture it rules out nearly every
    # group at the skin's threshold.
    assert noise > 12 or (costs > 2 * glyphs.threshold * template.size).mean() > 0.9


@pytest.mark.parametrize("noise", [0, 40])
def test_group_counts_hold_every_placement_of_the_group(noise: int) -> None:
    """For every part of the template and every group of placements, the dark
    count `_GroupCounts` gives for "some placement covers" is at least, and the
    one for "all cover" at most, the count under that part at each placement
    of the group (counted one placement at a time)."""
    band, glyphs = _band()
    crop = np.ascontiguousarray(band[40:150, 250:650])
    rng = np.random.default_rng(noise)
    crop = np.clip(crop + rng.normal(0, noise, crop.shape), 0, 255).astype(np.uint8)
    template = next(iter(glyphs.grey.values()))[0]
    region = _Region(crop, _ink_test(glyphs))
    counts = _GroupCounts(region, template)
    th, tw = template.shape[:2]
    height, width = crop.shape[0] - th + 1, crop.shape[1] - tw + 1
    dark = (crop <= region.level).astype(np.int64)
    table = np.pad(dark.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    k = COUNT_BLOCK
    gy, gx = counts.shape
    for part in _template_parts(region, template):
        ys, xs = np.arange(height)[:, None], np.arange(width)[None, :]
        exact = (
            table[ys + part.y1, xs + part.x1]
            - table[ys + part.y0, xs + part.x1]
            - table[ys + part.y1, xs + part.x0]
            + table[ys + part.y0, xs + part.x0]
        )
        high = np.full((gy * k, gx * k), -1)
        low = np.full((gy * k, gx * k), 1 << 30)
        high[:height, :width] = exact
        low[:height, :width] = exact
        most, least = (counts.sums(*span) for span in counts.spans(part))
        assert (most >= high.reshape(gy, k, gx, k).max(axis=(1, 3))).all(), part
        assert (least <= low.reshape(gy, k, gx, k).min(axis=(1, 3))).all(), part
        # Both are the tightest such counts somewhere (not just any bound).
        assert (most == high.reshape(gy, k, gx, k).max(axis=(1, 3))).any()
        assert (least == low.reshape(gy, k, gx, k).min(axis=(1, 3))).any()


def test_part_costs_are_least_and_reached() -> None:
    """A part's cost for c dark pixels is at most the squared difference of any
    window with c dark pixels under it, and the window closest to the template
    with dark pixels where they cost least reaches it exactly."""
    crop, glyphs = _band()
    template = next(iter(glyphs.grey.values()))[0]
    level = _ink_test(glyphs).level
    rng = np.random.default_rng(5)
    for part in _parts(template, level):
        values = template[part.y0 : part.y1, part.x0 : part.x1].astype(np.int64)
        for _ in range(40):
            y = int(rng.integers(crop.shape[0] - values.shape[0]))
            x = int(rng.integers(crop.shape[1] - values.shape[1]))
            window = crop[y : y + values.shape[0], x : x + values.shape[1]].astype(np.int64)
            count = int((window <= level).sum())
            assert part.cost[count] <= float(np.square(window - values).sum()) + 0.5
        saving = np.maximum(0, values - level) ** 2 - np.maximum(0, level + 1 - values) ** 2
        order = np.argsort(saving, axis=None, kind="stable")
        for count in (0, len(order) // 3, len(order)):
            flat = values.reshape(-1)
            window = np.maximum(flat, level + 1)  # light: as close as light can be
            window[order[:count]] = np.minimum(flat[order[:count]], level)
            cheapest = float(np.square(window - flat).sum())
            assert part.cost[count] == pytest.approx(cheapest, abs=0.5)


def test_exact_squared_differences_are_exact() -> None:
    """`_Region.exact_ssd` (float32) equals integer arithmetic, on a counter region."""
    crop = _band()[0][:60, 1100:1400]
    region = _Region(crop)
    for template in (crop[10:21, 40:46].copy(), crop[30:41, 100:110].copy()):
        th, tw = template.shape
        box = (0, 0, crop.shape[1] - tw + 1, crop.shape[0] - th + 1)
        windows = sliding_window_view(crop.astype(np.int64), (th, tw))
        exact = np.square(windows - template.astype(np.int64)).sum(axis=(2, 3))
        assert np.array_equal(region.exact_ssd(box, template), exact)


def test_exact_squared_differences_are_exact_at_the_extremes() -> None:
    """Black and white pixels under templates of up to 128 pixels (`EXACT_PIXELS`),
    their own inverse among them: sums reach 128 x 255^2 x 2, the most a float32
    holds exactly, and must still equal integer arithmetic."""
    rng = np.random.default_rng(7)
    for trial in range(60):
        crop = (rng.integers(0, 2, (30, 40)) * 255).astype(np.uint8)
        th, tw = ((16, 8), (8, 16), (11, 6), (1, 1), (12, 10))[trial % 5]
        template = 255 - crop[:th, :tw] if trial % 2 else rng.integers(0, 256, (th, tw))
        template = np.asarray(template, dtype=np.uint8)
        box = (0, 0, crop.shape[1] - tw + 1, crop.shape[0] - th + 1)
        windows = sliding_window_view(crop.astype(np.int64), (th, tw))
        exact = np.square(windows - template.astype(np.int64)).sum(axis=(2, 3))
        assert np.array_equal(_Region(crop).exact_ssd(box, template), exact)


@pytest.mark.parametrize("frame", FRAMES)
def test_ink_boxes_hold_every_needed_pixel(frame: str) -> None:
    image = load_image(RECORDINGS / frame)
    located = BoardReader().locate(image)
    for _, glyphs in _glyph_sets(located.skin):
        seen = _visible(image, glyphs.region, located.geometry)
        if seen is None:
            continue
        crop = np.ascontiguousarray(_grey(seen[0]))
        test = _ink_test(glyphs)
        needs = _ink_boxes(crop, test, (8, 8))
        kinds = [crop <= test.level] * test.dark + [crop > test.level] * test.light
        assert len(needs) == len(kinds)
        for boxes, pixels in zip(needs, kinds, strict=True):
            covered = np.zeros(crop.shape, dtype=bool)
            for x0, y0, x1, y1 in boxes:
                covered[y0:y1, x0:x1] = True
            assert covered[pixels].all()


@pytest.mark.parametrize("frame", FRAMES)
def test_memory_brought_up_to_date_keeps_every_possible_match(frame: str) -> None:
    """`GlyphMemo` matches again only where pixels changed, screened like a whole
    search: with each glyph pasted into its region (a change small enough for the
    memory to update that part rather than start afresh), the maps
    it keeps agree with plain matching of the changed picture, as `_check` asks
    of a fresh search; also at thresholds 5 and 25 times the skin's."""
    image = load_image(RECORDINGS / frame)
    located = BoardReader().locate(image)
    rng = np.random.default_rng(13)
    updated = 0
    for name, skin_glyphs in _glyph_sets(located.skin):
        for factor in (1, 5, 25):
            glyphs = replace(skin_glyphs, threshold=skin_glyphs.threshold * factor)
            seen = _visible(image, glyphs.region, located.geometry)
            if seen is None:
                continue
            crop = np.ascontiguousarray(_grey(seen[0]))
            for images in glyphs.grey.values():
                for template in images:
                    th, tw = template.shape[:2]
                    if th * tw > MOST_CHANGED * crop.size:
                        continue  # a change too large a share of the region: matched afresh
                    memo = GlyphMemo()
                    memo.maps(glyphs, crop, 0, 0)
                    pasted = crop.copy()
                    y = int(rng.integers(crop.shape[0] - th + 1))
                    x = int(rng.integers(crop.shape[1] - tw + 1))
                    pasted[y : y + th, x : x + tw] = template
                    maps = memo.maps(glyphs, pasted, 0, 0)
                    updated += 1
                    found = 0
                    for key, kept, scores in maps:
                        plain = _plain(pasted, kept)
                        assert scores is not None and plain is not None, (name, key)
                        within = plain <= glyphs.threshold
                        found += int(within.sum())
                        assert np.isfinite(scores[within]).all(), (name, key)
                        computed = np.isfinite(scores)
                        assert np.allclose(scores[computed], plain[computed], rtol=1e-4, atol=0.05)
                    assert found >= 1, (name, template.shape)
    assert updated  # some region was brought up to date (the check can fail)
