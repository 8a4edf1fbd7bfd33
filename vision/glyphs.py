"""Find small images (digits, faces, messages, buttons) in a region near the board.

Regions are given relative to the board (see `vision.skin`), so a counter is
found wherever the window is. Matching is plain squared difference with
`cv2.matchTemplate` on a small crop: the clones draw their digits and faces
pixel-exactly, and squared difference has none of the flat-image problems of
normalised correlation (a 7-segment "8" is mostly flat black).

`cv2.matchTemplate` costs about 10 ns per pixel of the region, per template
(it correlates by DFT, whatever the template's size): sgt-mines' counter
(11 digits over its 685x28 status bar) took ~1.5 ms a read. Yet most of a
region is plain background, where no glyph can match: a glyph is text, and a
match must hold some of its dark (or light) pixels (`_InkTest`). So only the
placements whose window holds such a pixel are matched (`_ink_boxes`); the
others get +inf, a score no threshold accepts, and every answer is the one
a full match gives.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import cast

import cv2
import numpy as np
from numpy.lib.stride_tricks import as_strided

from vision.display_scale import in_phase, to_native
from vision.geometry import Geometry
from vision.skin import Glyphs, Region


@dataclass(frozen=True)
class Hit:
    key: str
    score: float
    #: Centre of the match in image pixels.
    x: int
    y: int
    w: int
    h: int


def region_box(region: Region, geo: Geometry) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) on the image of a skin region around the board `geo`
    (a corner's optional third term counts cell pitches: `vision.skin`)."""
    (x0, y0, x1, y1) = (
        round(start + corner[0] * span + corner[1] + sum(corner[2:]) * pitch)
        for corner, start, span, pitch in zip(
            region,
            (geo.left, geo.top, geo.left, geo.top),
            (geo.width, geo.height, geo.width, geo.height),
            (geo.cell_w, geo.cell_h, geo.cell_w, geo.cell_h),
            strict=True,
        )
    )
    return x0, y0, x1, y1


def box_region(box: tuple[int, int, int, int], geo: Geometry, pad: int = 0) -> Region:
    """The skin region of `box` (x0, y0, x1, y1 on the image), `pad` pixels
    wider all round: offsets from the board `geo`'s top-left corner (the
    inverse of `region_box` for such a region)."""
    x0, y0, x1, y1 = box
    return (
        (0.0, float(x0 - pad - geo.left)),
        (0.0, float(y0 - pad - geo.top)),
        (0.0, float(x1 + pad - geo.left)),
        (0.0, float(y1 + pad - geo.top)),
    )


def _clip(box: tuple[int, int, int, int], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    height, width = shape[:2]
    return max(0, x0), max(0, y0), min(width, x1), min(height, y1)


@dataclass(frozen=True)
class RegionCrop:
    """The part of a skin region that is on the image, in grey levels.

    Screenshots need not show the whole window: a picture cropped tightly
    around the board, or a play recording (only the window region is saved),
    cuts off the counter, status text or face that the skin expects beside
    the board. `cut` says on which sides (left, top, right, bottom) the region
    runs off the image, so text that reaches such a side is known to be
    incomplete.
    """

    grey: np.ndarray
    #: Image position of the crop's top-left pixel.
    x0: int
    y0: int
    cut: tuple[bool, bool, bool, bool]

    def touches_cut(self, hit: Hit) -> bool:
        """Whether `hit` lies within one glyph of a side where the region is cut off
        (a glyph beyond that side would be missing from the text)."""
        left, top, right, bottom = self.cut
        height, width = self.grey.shape[:2]
        x, y = hit.x - self.x0, hit.y - self.y0
        return (
            (left and x - hit.w * 3 / 2 < 0)
            or (right and x + hit.w * 3 / 2 > width)
            or (top and y - hit.h * 3 / 2 < 0)
            or (bottom and y + hit.h * 3 / 2 > height)
        )


def region_on_image(region: Region, geo: Geometry, shape: tuple[int, ...]) -> bool:
    """Whether the whole region lies on a picture of this shape."""
    box = region_box(region, geo)
    return _clip(box, shape) == box


def crop_region(image: np.ndarray, region: Region, geo: Geometry) -> RegionCrop | None:
    """The visible part of `region` around the board, or None if none of it is on the image.

    The one place where skin regions are cut out of a picture, so that a region
    partly or wholly outside the image is "not visible" rather than an error.
    """
    seen = _visible(image, region, geo)
    if seen is None:
        return None
    colour, x0, y0, cut = seen
    return RegionCrop(_grey(colour), x0, y0, cut)


def _visible(
    image: np.ndarray, region: Region, geo: Geometry, scale: float = 1.0
) -> tuple[np.ndarray, int, int, tuple[bool, bool, bool, bool]] | None:
    """The on-image part of `region` (a view, not grey yet), its corner and cut sides.

    At a desktop scale other than 1 (`Glyphs.scale`), the part in grey at the
    clone's own pixels, with its corner in those pixels (`to_screen` maps hits back).
    """
    box = region_box(region, geo)
    x0, y0, x1, y1 = _clip(box, image.shape)
    if x1 <= x0 or y1 <= y0:
        return None
    cut = (box[0] < x0, box[1] < y0, box[2] > x1, box[3] > y1)
    if scale != 1.0:
        grey = _grey(image[y0:y1, x0:x1])
        native = to_native(grey, (0, 0, x1 - x0, y1 - y0), scale, (x0, y0))
        if native is None:
            return None
        return native[0], native[1], native[2], cut
    return image[y0:y1, x0:x1], x0, y0, cut


def to_screen(hit: Hit, scale: float) -> Hit:
    """A hit found at the clone's own pixels (`_visible` at `scale`) in screen pixels."""
    if scale == 1.0:
        return hit
    return Hit(
        hit.key,
        hit.score,
        math.floor((hit.x + 0.5) * scale),
        math.floor((hit.y + 0.5) * scale),
        round(hit.w * scale),
        round(hit.h * scale),
    )


@dataclass
class _Maps:
    """One region's grey pixels and every template's scores over it, as last computed."""

    glyphs: Glyphs
    x0: int
    y0: int
    grey: np.ndarray
    #: (key, template, scores or None when the region is smaller than the template)
    maps: list[tuple[str, np.ndarray, np.ndarray | None]]
    #: What `best_hit` / `read_text` made of these maps, while no pixel changed.
    answers: dict[str, object] = field(default_factory=dict)


#: A change over more than this share of a region is matched again in full.
MOST_CHANGED = 0.25


class GlyphMemo:
    """Each glyph search's score maps, kept and brought up to date from the pixels that changed.

    Matching glyphs costs milliseconds on large regions (GNOME Mines' status
    band, 1600x360 px, which takes in the top of the board; its counter beside
    the clock), and between two reads of a game a few cells or a clock digit
    change. A template's score at a placement depends only on the pixels under
    it, so only placements that overlap the box of changed pixels are matched
    again; an unchanged region costs a comparison. Owned by one reader
    (`vision.reader.BoardReader`); not shared.
    """

    def __init__(self) -> None:
        self._last: dict[int, _Maps] = {}

    def maps(
        self, glyphs: Glyphs, grey: np.ndarray, x0: int, y0: int
    ) -> list[tuple[str, np.ndarray, np.ndarray | None]]:
        """The score maps of `glyphs` over `grey` (the region's pixels at x0, y0)."""
        last = self._last.get(id(glyphs))
        if (
            last is None
            or last.glyphs is not glyphs
            or (last.x0, last.y0) != (x0, y0)
            or last.grey.shape != grey.shape
        ):
            last = _Maps(glyphs, x0, y0, grey.copy(), _score_maps(grey, glyphs))
            self._last[id(glyphs)] = last
            return last.maps
        if cv2.norm(grey, last.grey, cv2.NORM_INF) == 0:
            return last.maps
        last.answers.clear()
        bx, by, bw, bh = cv2.boundingRect(cv2.absdiff(grey, last.grey))
        if bw * bh > MOST_CHANGED * grey.size:
            last.maps = _score_maps(grey, glyphs)
            last.grey = grey.copy()
        else:
            test = _ink_test(glyphs)
            # Templates of one size re-match the same pixels: one `_Region` for them.
            regions: dict[tuple[int, int], _Region] = {}
            for _, template, scores in last.maps:
                if scores is None:
                    continue
                th, tw = template.shape[:2]
                ya, yb = max(0, by - th + 1), min(scores.shape[0], by + bh)
                xa, xb = max(0, bx - tw + 1), min(scores.shape[1], bx + bw)
                if ya < yb and xa < xb:
                    # Screened as a whole search is (`_scores`): only placements
                    # that cannot match are left out, so every answer stays the same.
                    sub = grey[ya : yb + th - 1, xa : xb + tw - 1]
                    region = regions.get((th, tw))
                    if region is None:
                        region = regions[th, tw] = _Region(sub, test)
                    part = _scores(sub, template, None, region, glyphs.threshold)
                    assert part is not None
                    scores[ya:yb, xa:xb] = part
            last.grey[by : by + bh, bx : bx + bw] = grey[by : by + bh, bx : bx + bw]
        return last.maps

    def answer(self, glyphs: Glyphs, kind: str) -> object | None:
        """What `kind` ("hit", "text") found in `glyphs`' region at the last `maps` call,
        if no pixel changed since (the caller asks right after `maps`)."""
        last = self._last.get(id(glyphs))
        return None if last is None or last.glyphs is not glyphs else last.answers.get(kind)

    def remember(self, glyphs: Glyphs, kind: str, value: object) -> None:
        last = self._last.get(id(glyphs))
        if last is not None and last.glyphs is glyphs:
            last.answers[kind] = value


def _score_maps(
    crop: np.ndarray, glyphs: Glyphs
) -> list[tuple[str, np.ndarray, np.ndarray | None]]:
    """Every template's scores over `crop` (see `_scores`)."""
    templates = [t for ts in glyphs.grey.values() for t in ts]
    join = (max(t.shape[1] for t in templates), max(t.shape[0] for t in templates))
    test = _ink_test(glyphs)
    # A small region is matched whole: finding its ink costs what it saves.
    # A region every template of which is counted (`_counted`) needs no ink
    # boxes: a window without the ink a glyph needs has too few (or too many)
    # dark pixels for it, and is left out by the count already.
    counted = all(
        (crop.shape[0] - t.shape[0] + 1) * (crop.shape[1] - t.shape[1] + 1) >= COUNT_FROM
        for t in templates
    )
    needs = _ink_boxes(crop, test, join) if crop.size >= INK_FROM and not counted else []
    region = _Region(crop, test)
    batched = _batched(crop, glyphs, needs, region)
    return [
        (
            key,
            t,
            batched[id(t)]
            if id(t) in batched
            else _scores(crop, t, needs, region, glyphs.threshold),
        )
        for key, templates in glyphs.grey.items()
        for t in templates
    ]


#: (x0, y0, x1, y1), x1 and y1 excluded.
Box = tuple[int, int, int, int]
#: Regions of at least this many pixels are cut to their ink (`_ink_boxes`).
INK_FROM = 12_000


@dataclass(frozen=True)
class _InkTest:
    """Which pixels every match of a glyph set must cover at least one of.

    A match scores at most `threshold` (mean squared difference), so the sum
    of squared differences is at most smax = threshold x template pixels. A
    template pixel at most `level - m` covering an image pixel above `level`
    differs by more than m, so fewer than smax / m^2 of its template pixels
    that dark can lie over image pixels that light. When a template has more
    pixels that dark than that, for some m, any window it matches holds an
    image pixel at most `level` ("dark"); the same holds for light pixels.
    `dark` (`light`): whether every image of the set needs one.
    """

    level: int
    dark: bool
    light: bool
    #: `_Part`s of each template, by `id` of its grey image, made when first needed.
    parts: dict[int, list[_Part]] = field(default_factory=dict, compare=False)
    #: Each small template as a float32 kernel and its sum of squares (`_Region.exact_ssd`).
    kernels: dict[int, tuple[np.ndarray, float]] = field(default_factory=dict, compare=False)
    #: Templates of one size stacked (`_Region.exact_ssds`), by their `id`s.
    stacks: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = field(
        default_factory=dict, compare=False
    )
    #: Per grey level, the least squared difference from any pixel of any template
    #: of the set (0 within their range of grey levels: `_Region.in_range`).
    #: The smallest height and width, and the most pixels, of a template of the set.
    least: tuple[int, int] = (1, 1)
    most: int = 1
    off_range: np.ndarray = field(
        default_factory=lambda: np.zeros(256, dtype=np.float32), compare=False, repr=False
    )


def _most_ssd(threshold: float, size: int) -> float:
    """The largest sum of squared differences of a match of a template of `size`
    pixels: the threshold's, with slack for matchTemplate's own rounding (it
    correlates in floating point: errors of a few units per 10^6 of the sums,
    100 times less)."""
    return threshold * size + 1e-4 * size * 255.0**2 + 1.0


def _ink_test(glyphs: Glyphs) -> _InkTest:
    """The `_InkTest` of a glyph set, computed once per `Glyphs` (skins are read-only)."""
    cached = glyphs.derived.get("ink")
    if isinstance(cached, _InkTest):
        return cached
    templates = [t for ts in glyphs.grey.values() for t in ts]
    pixels = np.concatenate([t.reshape(-1) for t in templates])[None, :]
    # The level that best splits the glyphs' own pixels into ink and paper.
    level = int(cv2.threshold(pixels, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[0])
    margins = np.arange(1, 256)
    dark = light = True
    for t in templates:
        smax = _most_ssd(glyphs.threshold, t.size)
        upto = np.cumsum(np.bincount(t.reshape(-1), minlength=256))  # upto[v]: pixels <= v
        darker = np.where(margins <= level, upto[np.clip(level - margins, 0, 255)], 0)
        lighter = np.where(
            level + margins <= 255, t.size - upto[np.clip(level + margins, 0, 255)], 0
        )
        spare = smax / margins.astype(np.float64) ** 2
        dark = dark and bool((darker >= spare).any())
        light = light and bool((lighter >= spare).any())
    lowest = min(int(t.min()) for t in templates)
    highest = max(int(t.max()) for t in templates)
    values = np.arange(256, dtype=np.int64)
    off = np.maximum(0, lowest - values) + np.maximum(0, values - highest)
    result = _InkTest(
        level,
        dark,
        light,
        least=(min(t.shape[0] for t in templates), min(t.shape[1] for t in templates)),
        most=max(t.size for t in templates),
        off_range=(off * off).astype(np.float32),
    )
    glyphs.derived["ink"] = result
    return result


def _runs(flags: np.ndarray | np.bool_, gap: int) -> list[tuple[int, int]]:
    """[start, stop) of the runs of True in a 1-d array, runs less than `gap` apart joined."""
    idx = np.flatnonzero(flags)
    if len(idx) == 0:
        return []
    cuts = np.flatnonzero(np.diff(idx) > gap)
    starts = [idx[0], *idx[cuts + 1]]
    stops = [*(idx[cuts] + 1), idx[-1] + 1]
    return [(int(a), int(b)) for a, b in zip(starts, stops, strict=True)]


def _ink_boxes(crop: np.ndarray, test: _InkTest, join: tuple[int, int]) -> list[list[Box]]:
    """Per kind of pixel every match needs (dark, light: `_InkTest`), boxes holding all of them.

    Boxes are runs of columns holding such pixels, each cut to its runs of
    rows: text on a plain background gives a box per line of text. Runs less
    than `join` (the largest glyph's width, height) apart are one box: the
    placements meeting either overlap, and a call costs more than a few
    more placements. An empty list: no kind is needed, every placement may match.
    """
    needs = []
    for needed, kind in ((test.dark, cv2.THRESH_BINARY_INV), (test.light, cv2.THRESH_BINARY)):
        if needed:
            ink = cv2.threshold(crop, test.level, 1, kind)[1]
            boxes = []
            for x0, x1 in _runs(ink.any(axis=0), join[0]):
                for y0, y1 in _runs(ink[:, x0:x1].any(axis=1), join[1]):
                    boxes.append((x0, y0, x1, y1))
            needs.append(boxes)
    return needs


def _placements(needs: list[list[Box]], shape: tuple[int, int], th: int, tw: int) -> list[Box]:
    """Boxes of the placements whose window meets a box of every need (`_ink_boxes`)."""
    height, width = shape
    rects: list[Box] = [(0, 0, width, height)]
    for boxes in needs:
        meet = [
            (max(0, x0 - tw + 1), max(0, y0 - th + 1), min(width, x1), min(height, y1))
            for x0, y0, x1, y1 in boxes
        ]
        rects = [
            (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
            for a in rects
            for b in meet
        ]
        rects = [r for r in rects if r[0] < r[2] and r[1] < r[3]]
    return _merged(rects, th, tw)


#: What one more matching call costs, in placements matched.
CALL_PLACEMENTS = 1500


def _merged(rects: list[Box], th: int, tw: int) -> list[Box]:
    """The boxes, joined wherever matching their union costs less than matching
    each (two text lines of a counter and its clock: one call, not two)."""

    def cost(r: Box) -> int:
        return (r[2] - r[0] + tw - 1) * (r[3] - r[1] + th - 1) + CALL_PLACEMENTS

    out: list[Box] = []
    for rect in rects:
        while True:
            for i, other in enumerate(out):
                union = (
                    min(rect[0], other[0]),
                    min(rect[1], other[1]),
                    max(rect[2], other[2]),
                    max(rect[3], other[3]),
                )
                if cost(union) <= cost(rect) + cost(other):
                    rect = union
                    del out[i]
                    break
            else:
                break
        out.append(rect)
    return out


#: Templates of at most this many pixels are matched exactly (see `_Region`).
EXACT_PIXELS = 128


class _Region:
    """A region's pixels as float32, made once for all its small templates.

    For a template of at most `EXACT_PIXELS` pixels every sum below is an
    integer under 2^24 (128 x 255^2 x 2), which float32 holds exactly: the
    sum of squared differences is then exact, and the same whatever part of
    the region is matched (the memory's partial updates included).
    `cv2.filter2D` correlates such small kernels directly, several times
    faster than `cv2.matchTemplate`'s DFT on a small region.
    """

    def __init__(self, crop: np.ndarray, test: _InkTest | None = None) -> None:
        self.crop = crop
        self.test = test
        self.level = -1 if test is None else test.level
        self._float: np.ndarray | None = None
        #: Window sums of squares by (box, template shape): glyphs of one font share them.
        self._squares: dict[tuple[Box, tuple[int, int]], np.ndarray] = {}
        self._dark: np.ndarray | None = None
        #: The box `in_range` found, for the smallest template of the set.
        self._in_range: Box | None = None
        #: `_placements` by template size, for the ink boxes of the region's one search.
        self.placements: dict[tuple[int, int], list[Box]] = {}

    def dark_table(self, pad: tuple[int, int]) -> np.ndarray:
        """Integral table of the pixels at most `level` (int32), over the region and
        `pad` (rows, columns) more of nothing dark past its bottom and right edges."""
        if (
            self._dark is None
            or self._dark.shape[0] < self.crop.shape[0] + 1 + pad[0]
            or self._dark.shape[1] < self.crop.shape[1] + 1 + pad[1]
        ):
            dark = cv2.threshold(self.crop, self.level, 1, cv2.THRESH_BINARY_INV)[1]
            dark = cv2.copyMakeBorder(dark, 0, pad[0], 0, pad[1], cv2.BORDER_CONSTANT, value=0)
            self._dark = cv2.integral(dark, sdepth=cv2.CV_32S)
        return self._dark

    def in_range(self, th: int, tw: int, threshold: float) -> list[Box] | None:
        """A box holding the placements of a th x tw template of the set that may
        match within `threshold`, judged by grey levels alone; None: all may.

        An image pixel darker or lighter than every pixel of every template of
        the set differs from whichever template pixel covers it by at least
        its distance to their range (`_InkTest.off_range`), so a window whose
        such distances, squared and summed, pass the largest sum of squared
        differences of a match (`_most_ssd`) matches no template of the set:
        minegauler's dim digits on black never match a window reaching into
        the light frame around them, which leaves a tenth of the counter's
        placements. Judged once for the set: by the windows of its smallest
        height and width (each inside a larger template's window at the same
        placement, so summing less) against the largest template's `_most_ssd`.
        """
        test = self.test
        assert test is not None
        if self._in_range is None:
            least_h, least_w = test.least
            smax = _most_ssd(threshold, test.most)
            # The farthest from the range are the darkest and the lightest pixel.
            darkest, lightest = cv2.minMaxLoc(self.crop)[:2]
            worst = max(test.off_range[int(darkest)], test.off_range[int(lightest)])
            if float(worst) * least_h * least_w <= smax:
                self._in_range = (0, 0, self.crop.shape[1], self.crop.shape[0])
            else:
                off = cv2.LUT(self.crop, test.off_range)
                # Sums of whole numbers: exact in float32 under 2^24, and far
                # within `_most_ssd`'s slack above it.
                sums = cv2.boxFilter(
                    off,
                    -1,
                    (least_w, least_h),
                    anchor=(0, 0),
                    normalize=False,
                    borderType=cv2.BORDER_CONSTANT,
                )
                height = self.crop.shape[0] - least_h + 1
                width = self.crop.shape[1] - least_w + 1
                ok = (sums[:height, :width] <= smax + 1.0).astype(np.uint8)
                x, y, w, h = cv2.boundingRect(ok)
                self._in_range = (x, y, x + w, y + h)
        x0, y0, x1, y1 = self._in_range
        if x0 == 0 and y0 == 0 and x1 >= self.crop.shape[1] and y1 >= self.crop.shape[0]:
            return None
        height, width = self.crop.shape[0] - th + 1, self.crop.shape[1] - tw + 1
        x1, y1 = min(x1, width), min(y1, height)
        return [(x0, y0, x1, y1)] if x0 < x1 and y0 < y1 else []

    def exact_ssd(self, box: Box, template: np.ndarray) -> np.ndarray:
        """Sum of squared differences at the placements `box` (all inside the region)."""
        if self._float is None:
            self._float = self.crop.astype(np.float32)
        x0, y0, x1, y1 = box
        th, tw = template.shape[:2]
        rows, cols = slice(y0, y1 + th - 1), slice(x0, x1 + tw - 1)
        h, w = y1 - y0, x1 - x0
        squares = self._window_squares(box, th, tw)
        kernel, own = self._kernel(template)
        # own - 2 x correlation in one call: the kernel is -2 x the template,
        # and `delta` adds its sum of squares (every partial sum a whole
        # number under 2^24, so the same exact sums as before).
        rest = cv2.filter2D(
            self._float[rows, cols],
            -1,
            kernel,
            anchor=(0, 0),
            delta=own,
            borderType=cv2.BORDER_CONSTANT,
        )
        return np.asarray(np.add(squares, rest[:h, :w], dtype=np.float32))

    def exact_ssds(self, box: Box, templates: list[np.ndarray]) -> np.ndarray:
        """`exact_ssd` of several templates of one size at once (template, rows,
        columns): the placements' windows gathered once as the columns of a
        matrix, the templates as the rows of another, one product for all.
        Every product and partial sum is a whole number under 2^24, as in
        `exact_ssd`, so the sums are exact and the same, whatever the order."""
        if self._float is None:
            self._float = self.crop.astype(np.float32)
        x0, y0, x1, y1 = box
        th, tw = templates[0].shape[:2]
        h, w = y1 - y0, x1 - x0
        squares = self._window_squares(box, th, tw)
        stack, owns = self._stack(templates)
        part = self._float[y0:, x0:]
        rows, cols = part.strides
        windows = as_strided(part, (h, w, th, tw), (rows, cols, rows, cols), writeable=False)
        cross = stack @ windows.reshape(h * w, th * tw).T
        ssds = (squares.reshape(1, h * w) + owns[:, None]) - 2.0 * cross
        return np.asarray(ssds).reshape(len(templates), h, w)

    def _window_squares(self, box: Box, th: int, tw: int) -> np.ndarray:
        """Window sums of squares at the placements `box`, kept per box and size."""
        squares = self._squares.get((box, (th, tw)))
        if squares is None:
            x0, y0, x1, y1 = box
            squares = cv2.sqrBoxFilter(
                self.crop[y0 : y1 + th - 1, x0 : x1 + tw - 1],
                cv2.CV_32F,
                (tw, th),
                anchor=(0, 0),
                normalize=False,
                borderType=cv2.BORDER_CONSTANT,
            )[: y1 - y0, : x1 - x0]
            self._squares[box, (th, tw)] = squares
        return squares

    def _stack(self, templates: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """The templates as the rows of a float32 matrix, and their sums of squares
        (float32, whole numbers), kept per glyph set."""
        key = tuple(id(t) for t in templates)
        kept = None if self.test is None else self.test.stacks.get(key)
        if kept is None:
            stack = np.stack([t.reshape(-1) for t in templates]).astype(np.float32)
            owns = np.array([self._kernel(t)[1] for t in templates], dtype=np.float32)
            kept = (stack, owns)
            if self.test is not None:
                self.test.stacks[key] = kept
        return kept

    def _kernel(self, template: np.ndarray) -> tuple[np.ndarray, float]:
        """-2 x the template as float32 (`exact_ssd`'s kernel) and its sum of
        squares, kept per glyph set."""
        kept = None if self.test is None else self.test.kernels.get(id(template))
        if kept is None:
            kept = (
                template.astype(np.float32) * np.float32(-2.0),
                float(np.square(template, dtype=np.int64).sum()),
            )
            if self.test is not None:
                self.test.kernels[id(template)] = kept
        return kept


#: Regions with at least this many placements are screened by `_counted` first
#: (GNOME Mines' status band: 1575x360 px), in groups of COUNT_BLOCK x COUNT_BLOCK
#: placements; templates are cut in up to COUNT_PARTS columns x COUNT_ROWS rows.
COUNT_FROM = 50_000
COUNT_BLOCK = 4
COUNT_PARTS = 8
COUNT_ROWS = 2


@dataclass(frozen=True)
class _Part:
    """A part of a template and the least squared difference it adds, per dark count.

    `cost[c]`: the least sum of squared differences over the part when c of
    the image pixels under it are at most `level` (dark) and the rest above
    it. A dark image pixel over a template pixel v differs by at least
    max(0, v - level), a light one by at least max(0, level + 1 - v); the
    cheapest placing puts the dark ones where that saves most. `cost` is
    convex (a running sum of sorted savings), least at `best`.
    """

    x0: int
    x1: int
    y0: int
    y1: int
    cost: np.ndarray
    best: int
    #: `cost` padded to 256 entries, for `cv2.LUT`.
    table: np.ndarray


def _parts(template: np.ndarray, level: int, cut: tuple[int, int] | None = None) -> list[_Part]:
    """The template cut in `cut` (columns, rows) parts; by default column and row
    parts at least 2 x COUNT_BLOCK wide and high (up to COUNT_PARTS x COUNT_ROWS)."""
    th, tw = template.shape[:2]
    cols = max(1, min(COUNT_PARTS, tw // (2 * COUNT_BLOCK)))
    rows = max(1, min(COUNT_ROWS, th // (2 * COUNT_BLOCK)))
    if cut is not None:
        cols, rows = cut
    xs = np.linspace(0, tw, cols + 1).astype(int).tolist()
    ys = np.linspace(0, th, rows + 1).astype(int).tolist()
    parts = []
    for y0, y1 in itertools.pairwise(ys):
        for x0, x1 in itertools.pairwise(xs):
            values = template[y0:y1, x0:x1].reshape(-1).astype(np.int64)
            dark = np.maximum(0, values - level) ** 2
            light = np.maximum(0, level + 1 - values) ** 2
            cost = light.sum() + np.concatenate(([0], np.cumsum(np.sort(dark - light))))
            table = np.full(256, cost[-1], dtype=np.float32)
            table[: min(256, len(cost))] = cost[:256]
            parts.append(
                _Part(x0, x1, y0, y1, cost.astype(np.float32), int(np.argmin(cost)), table)
            )
    return parts


def _counted(region: _Region, template: np.ndarray, threshold: float) -> list[Box]:
    """Boxes of placements that may match within `threshold` (`_group_costs`)."""
    k = COUNT_BLOCK
    th, tw = template.shape[:2]
    height, width = region.crop.shape[0] - th + 1, region.crop.shape[1] - tw + 1
    smax = _most_ssd(threshold, template.size)
    ok = _group_costs(region, template, smax) <= smax
    boxes = []
    for cx0, cx1 in _runs(ok.any(axis=0), max(1, tw // k)):
        for cy0, cy1 in _runs(ok[:, cx0:cx1].any(axis=1), max(1, th // k)):
            boxes.append((cx0 * k, cy0 * k, min(width, cx1 * k), min(height, cy1 * k)))
    return boxes


class _GroupCounts:
    """Dark pixels of rectangles of a region, per k x k group of placements (k = COUNT_BLOCK).

    Group (Y, X) holds placements x in kX .. kX + k - 1 (y alike). `sums`
    counts rows kY + r0 .. kY + r1 - 1, columns kX + c0 .. kX + c1 - 1, from
    one integral table: four corners, read every k-th row and column (all
    groups: `sums`) or at given groups (`spans_at`).
    """

    def __init__(self, region: _Region, template: np.ndarray) -> None:
        k = COUNT_BLOCK
        th, tw = template.shape[:2]
        height, width = region.crop.shape[0] - th + 1, region.crop.shape[1] - tw + 1
        self.k = k
        self.shape = (-(-height // k), -(-width // k))
        self.table = region.dark_table((2 * k + th, 2 * k + tw))

    def sums(self, r0: int, r1: int, c0: int, c1: int) -> np.ndarray:
        """Dark pixels of the rectangle per group: its four corners, every k-th table row
        and column."""
        k, (gy, gx), table = self.k, self.shape, self.table
        if r1 <= r0 or c1 <= c0:
            return np.zeros((gy, gx), dtype=np.int32)

        def corner(r: int, c: int) -> np.ndarray:
            return np.asarray(table[r : r + k * gy : k, c : c + k * gx : k])

        return np.asarray(corner(r1, c1) - corner(r0, c1) - corner(r1, c0) + corner(r0, c0))

    def spans_at(self, part: _Part, flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`sums` of both `spans` of `part` at the groups whose top-left table entries
        are `flat` (indices into the flattened table): one gather of eight corners."""
        width = self.table.shape[1]
        corners = []
        for r0, r1, c0, c1 in self.spans(part):
            if r1 <= r0 or c1 <= c0:
                r1, c1 = r0, c0  # an empty rectangle: every corner the same, sum 0
            corners += [r1 * width + c1, r0 * width + c1, r1 * width + c0, r0 * width + c0]
        got = np.take(self.table.reshape(-1), flat[:, None] + np.array(corners)[None, :])
        sums = got[:, 0::4] - got[:, 1::4] - got[:, 2::4] + got[:, 3::4]
        return sums[:, 0], sums[:, 1]

    def spans(self, part: _Part) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
        """The rectangles (rows r0, r1, columns c0, c1) of a part that some placement
        of a group covers, and that all of them cover."""
        k = self.k
        # A part's columns x + x0 .. x + x1 - 1 are kX + x0 .. kX + k + x1 - 2
        # for some placement of the group, kX + k - 1 + x0 .. kX + x1 - 1 for all
        # of them (rows alike).
        return (
            (part.y0, part.y1 + k - 1, part.x0, part.x1 + k - 1),
            (part.y0 + k - 1, part.y1, part.x0 + k - 1, part.x1),
        )


def _least_cost(part: _Part, most: np.ndarray, least: np.ndarray) -> np.ndarray:
    """The part's least cost over dark counts least .. most (convex: clip its best).

    A window part holds at most len(cost) - 1 pixels, whatever `most` says.
    """
    top = len(part.cost) - 1
    if most.ndim == 1:  # a few groups: plain numpy
        return np.asarray(part.cost[np.clip(part.best, least, np.minimum(most, top))])
    count = np.minimum(np.maximum(least, part.best), np.minimum(most, top))
    if top < 256:  # a table lookup: counts fit in a byte
        return np.asarray(cv2.LUT(count.astype(np.uint8), part.table))
    return np.asarray(part.cost[count.astype(np.intp)])


def _template_parts(region: _Region, template: np.ndarray) -> list[_Part]:
    """The template's whole as one `_Part`, then its parts (`_parts`), made once per template."""
    assert region.test is not None
    parts = region.test.parts.get(id(template))
    if parts is None:
        parts = region.test.parts[id(template)] = [
            *_parts(template, region.level, (1, 1)),
            *_parts(template, region.level),
        ]
    return parts


def _group_costs(region: _Region, template: np.ndarray, smax: float) -> np.ndarray:
    """Per k x k group of placements (k = COUNT_BLOCK), a least sum of squared
    differences of its placements, from counts of dark pixels (`_Part`); once
    a group's sum passes `smax` it is only known to be over it (+inf).

    Under a part, the pixels some placement of a group covers hold at least as
    many dark pixels as any of its windows, and the pixels all of them cover
    at most as many (`_GroupCounts.spans`): the part adds at least its least
    cost over that range of counts. The whole template, as one part, is
    counted first at every group (a few strided reads of one integral table):
    a window with too few or too many dark pixels for the glyph cannot match
    it, and that leaves a few groups in a hundred on the GNOME band. Its
    parts are then counted at those groups only, and their costs summed.
    """
    counts = _GroupCounts(region, template)
    whole, *parts = _template_parts(region, template)
    most, least = (counts.sums(*span) for span in counts.spans(whole))
    ys, xs = np.nonzero(_least_cost(whole, most, least) <= smax)
    flat = (ys * counts.table.shape[1] + xs) * counts.k
    total = np.zeros(len(ys), dtype=np.float32)
    for part in parts:
        if len(flat) == 0:
            break
        most, least = counts.spans_at(part, flat)
        total += _least_cost(part, most, least)
        keep = total <= smax
        ys, xs, flat, total = ys[keep], xs[keep], flat[keep], total[keep]
    out = np.full(counts.shape, np.inf, dtype=np.float32)
    out[ys, xs] = total
    return out


def _scores(
    crop: np.ndarray,
    template: np.ndarray,
    needs: list[list[Box]] | None = None,
    region: _Region | None = None,
    threshold: float | None = None,
) -> np.ndarray | None:
    """Mean squared difference per pixel value at every placement (None: too small).

    Matching is on grey levels (three times cheaper than colour; the glyphs of
    one skin differ in shape, not in colour), with `template` already grey.
    With `needs` (`_ink_boxes`), only placements whose window meets a box of
    every need are matched, and with `threshold` large regions are screened
    by `_counted`; the others are +inf.
    """
    if crop.shape[0] < template.shape[0] or crop.shape[1] < template.shape[1]:
        return None
    size = float(template.size)
    th, tw = template.shape[:2]
    shape = (crop.shape[0] - th + 1, crop.shape[1] - tw + 1)
    if region is None:
        region = _Region(crop)
    boxes = _size_boxes(region, shape, th, tw, needs, threshold)
    if threshold is not None and region.level >= 0 and shape[0] * shape[1] >= COUNT_FROM:
        counted = _counted(region, template, threshold)
        boxes = [
            (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
            for a in boxes
            for b in counted
        ]
        boxes = [r for r in boxes if r[0] < r[2] and r[1] < r[3]]
    whole = boxes == [(0, 0, shape[1], shape[0])]
    out = None if whole else np.full(shape, np.inf, dtype=np.float32)
    for box in boxes:
        x0, y0, x1, y1 = box
        if template.size <= EXACT_PIXELS:
            ssd = region.exact_ssd(box, template)
        else:
            ssd = np.asarray(
                cv2.matchTemplate(crop[y0 : y1 + th - 1, x0 : x1 + tw - 1], template, cv2.TM_SQDIFF)
            )
        np.divide(ssd, size, out=ssd)  # a fresh array: divided where it is
        if out is None:
            return ssd
        out[y0:y1, x0:x1] = ssd
    return out


def _size_boxes(
    region: _Region,
    shape: tuple[int, int],
    th: int,
    tw: int,
    needs: list[list[Box]] | None,
    threshold: float | None,
) -> list[Box]:
    """Boxes of the placements of a th x tw template that may match (`_placements`
    of the ink `needs`, within `_Region.in_range`), the same for every template
    of that size of the set over this region: made once."""
    boxes = region.placements.get((th, tw))
    if boxes is None:
        boxes = _placements(needs or [], shape, th, tw)
        ranged = None
        # Only for small templates, whose calls cost more than their placements
        # (a large one's `cv2.matchTemplate` costs about the same on fewer); a
        # region cut to its ink (`_ink_boxes`: GNOME Mines' counter) or screened
        # by counts (`_counted`) is left to them: grey levels rarely cut it more.
        if (
            threshold is not None
            and region.test is not None
            and th * tw <= EXACT_PIXELS
            and not needs
            and shape[0] * shape[1] < COUNT_FROM
        ):
            ranged = region.in_range(th, tw, threshold)
        if ranged is not None:
            boxes = _merged(
                [
                    (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
                    for a in boxes
                    for b in ranged
                    if max(a[0], b[0]) < min(a[2], b[2]) and max(a[1], b[1]) < min(a[3], b[3])
                ],
                th,
                tw,
            )
        region.placements[th, tw] = boxes
    return boxes


#: Templates of one size are matched together (`_Region.exact_ssds`) while their
#: placements' windows hold at most this many pixels in all.
BATCH_PIXELS = 60_000


def _batched(
    crop: np.ndarray,
    glyphs: Glyphs,
    needs: list[list[Box]],
    region: _Region,
) -> dict[int, np.ndarray]:
    """`_scores` of the small templates of each size met several times, by `id`,
    where their placements are few enough to match them together (`exact_ssds`).

    Matching a template costs a few microseconds of calls however few its
    placements; once the ink or the grey levels leave a few hundred of them
    (minegauler's counter), those calls are most of the time.
    """
    sizes: dict[tuple[int, int], list[np.ndarray]] = {}
    for templates in glyphs.grey.values():
        for t in templates:
            if (
                t.size <= EXACT_PIXELS
                and t.shape[0] <= crop.shape[0]
                and t.shape[1] <= crop.shape[1]
            ):
                sizes.setdefault((t.shape[0], t.shape[1]), []).append(t)
    out: dict[int, np.ndarray] = {}
    for (th, tw), group in sizes.items():
        shape = (crop.shape[0] - th + 1, crop.shape[1] - tw + 1)
        if len(group) < 2 or shape[0] * shape[1] >= COUNT_FROM:
            continue  # one call anyway, or screened per template (`_counted`)
        boxes = _size_boxes(region, shape, th, tw, needs, glyphs.threshold)
        if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) * th * tw > BATCH_PIXELS:
            continue
        size = float(th * tw)
        maps = np.full((len(group), *shape), np.inf, dtype=np.float32)
        for box in boxes:
            x0, y0, x1, y1 = box
            maps[:, y0:y1, x0:x1] = region.exact_ssds(box, group) / size
        out.update((id(t), scores) for t, scores in zip(group, maps, strict=True))
    return out


def _grey(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def best_hit(
    image: np.ndarray, glyphs: Glyphs, geo: Geometry, memo: GlyphMemo | None = None
) -> Hit | None:
    """The single best-matching image of any key, if under the threshold.

    Only images wholly inside the picture can match: a face or message cut
    off by the picture's edge is not found (None), never guessed. With `memo`,
    only what changed since the last search is matched again (`GlyphMemo`).
    """
    seen = _visible(image, glyphs.region, geo, glyphs.scale)
    if seen is None:
        return None
    colour, x0, y0, _ = seen
    crop = _grey(colour)
    maps = _score_maps(crop, glyphs) if memo is None else memo.maps(glyphs, crop, x0, y0)
    if memo is not None and (kept := memo.answer(glyphs, "hit")) is not None:
        found = cast(tuple[Hit | None], kept)[0]
        return None if found is None else to_screen(found, glyphs.scale)
    best: Hit | None = None
    for key, template, scores in maps:
        scores = in_phase(scores, glyphs.phase_of(template), x0, y0)
        if scores is None:
            continue
        _, _, loc, _ = cv2.minMaxLoc(scores)
        score = float(scores[loc[1], loc[0]])
        if score <= glyphs.threshold and (best is None or score < best.score):
            th, tw = template.shape[:2]
            best = Hit(key, score, x0 + loc[0] + tw // 2, y0 + loc[1] + th // 2, tw, th)
    if memo is not None:
        memo.remember(glyphs, "hit", (best,))
    return None if best is None else to_screen(best, glyphs.scale)


def _inside(a: Hit, b: Hit) -> bool:
    """Whether hit `a`'s box lies within hit `b`'s (a pixel of slack), `b` wider."""
    return (
        b.w > a.w
        and a.x - a.w / 2 >= b.x - b.w / 2 - 1
        and a.x + a.w / 2 <= b.x + b.w / 2 + 1
        and a.y - a.h / 2 >= b.y - b.h / 2 - 1
        and a.y + a.h / 2 <= b.y + b.h / 2 + 1
    )


def read_text(
    image: np.ndarray, glyphs: Glyphs, geo: Geometry, memo: GlyphMemo | None = None
) -> tuple[str, list[Hit]]:
    """The characters found in the region, left to right (greedy non-overlapping).

    A gap wider than a glyph becomes a space, so separate numbers on one line
    (sgt-mines' timer and its "Marked: n / 10") stay apart; lines (GNOME Mines'
    counter above its clock) are separated by newlines.

    Text the picture cuts off (a glyph within a glyph's width of a side where
    the region runs off the image) reads as nothing: "3/1" of a cut "3/10"
    would be a confident misread.

    With `memo`, only what changed since the last search is matched again.
    """
    seen = _visible(image, glyphs.region, geo, glyphs.scale)
    if seen is None:
        return "", []
    region = RegionCrop(_grey(seen[0]), seen[1], seen[2], seen[3])
    crop, x0, y0 = region.grey, region.x0, region.y0
    maps = _score_maps(crop, glyphs) if memo is None else memo.maps(glyphs, crop, x0, y0)
    if memo is not None and (known := memo.answer(glyphs, "text")) is not None:
        text_hits = cast(tuple[str, list[Hit]], known)
        return text_hits[0], [to_screen(h, glyphs.scale) for h in text_hits[1]]
    hits: list[Hit] = []
    for key, template, scores in maps:
        scores = in_phase(scores, glyphs.phase_of(template), x0, y0)
        if scores is None or cv2.minMaxLoc(scores)[0] > glyphs.threshold:
            continue
        th, tw = template.shape[:2]
        ys, xs = np.nonzero(scores <= glyphs.threshold)
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            hits.append(Hit(key, float(scores[y, x]), x0 + x + tw // 2, y0 + y + th // 2, tw, th))
    hits.sort(key=lambda h: h.score)
    kept: list[Hit] = []
    for hit in hits:
        if all(
            abs(hit.x - k.x) * 2 >= min(hit.w, k.w) or abs(hit.y - k.y) * 2 >= min(hit.h, k.h)
            for k in kept
        ):
            kept.append(hit)
    # A narrow glyph matched inside a wider one is part of it (a 7-segment "1"
    # is the right half of an "8"), not a character of its own.
    kept = [h for h in kept if not any(k is not h and _inside(h, k) for k in kept)]
    if any(region.touches_cut(hit) for hit in kept):
        return "", []
    # Group into lines (a counter and a clock may be stacked), each left to right.
    kept.sort(key=lambda h: h.y)
    lines: list[list[Hit]] = []
    for hit in kept:
        if lines and abs(hit.y - lines[-1][0].y) * 2 < min(hit.h, lines[-1][0].h):
            lines[-1].append(hit)
        else:
            lines.append([hit])
    texts = []
    for line in lines:
        line.sort(key=lambda h: h.x)
        text = ""
        for i, hit in enumerate(line):
            prev = line[i - 1] if i else None
            if prev is not None and hit.x - hit.w / 2 - (prev.x + prev.w / 2) > min(hit.w, prev.w):
                text += " "
            text += hit.key
        texts.append(text)
    text = "\n".join(texts)
    kept = [h for line in lines for h in line]
    if memo is not None:
        memo.remember(glyphs, "text", (text, list(kept)))
    return text, [to_screen(h, glyphs.scale) for h in kept]
