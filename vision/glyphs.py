"""Find small images (digits, faces, messages, buttons) in a region near the board.

Regions are given relative to the board (see `vision.skin`), so a counter is
found wherever the window is. Matching is plain squared difference with
`cv2.matchTemplate` on a small crop: the clones draw their digits and faces
pixel-exactly, and squared difference has none of the flat-image problems of
normalised correlation (a 7-segment "8" is mostly flat black).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import cv2
import numpy as np

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
    image: np.ndarray, region: Region, geo: Geometry
) -> tuple[np.ndarray, int, int, tuple[bool, bool, bool, bool]] | None:
    """The on-image part of `region` (a view, not grey yet), its corner and cut sides."""
    box = region_box(region, geo)
    x0, y0, x1, y1 = _clip(box, image.shape)
    if x1 <= x0 or y1 <= y0:
        return None
    cut = (box[0] < x0, box[1] < y0, box[2] > x1, box[3] > y1)
    return image[y0:y1, x0:x1], x0, y0, cut


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
            for _, template, scores in last.maps:
                if scores is None:
                    continue
                th, tw = template.shape[:2]
                ya, yb = max(0, by - th + 1), min(scores.shape[0], by + bh)
                xa, xb = max(0, bx - tw + 1), min(scores.shape[1], bx + bw)
                if ya < yb and xa < xb:
                    part = _scores(grey[ya : yb + th - 1, xa : xb + tw - 1], template)
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
    return [(key, t, _scores(crop, t)) for key, templates in glyphs.grey.items() for t in templates]


def _scores(crop: np.ndarray, template: np.ndarray) -> np.ndarray | None:
    """Mean squared difference per pixel value at every placement (None: too small).

    Matching is on grey levels (three times cheaper than colour; the glyphs of
    one skin differ in shape, not in colour), with `template` already grey.
    """
    if crop.shape[0] < template.shape[0] or crop.shape[1] < template.shape[1]:
        return None
    result = cv2.matchTemplate(crop, template, cv2.TM_SQDIFF)
    return np.asarray(result) / float(template.size)


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
    seen = _visible(image, glyphs.region, geo)
    if seen is None:
        return None
    colour, x0, y0, _ = seen
    crop = _grey(colour)
    maps = _score_maps(crop, glyphs) if memo is None else memo.maps(glyphs, crop, x0, y0)
    if memo is not None and (kept := memo.answer(glyphs, "hit")) is not None:
        return cast(tuple[Hit | None], kept)[0]
    best: Hit | None = None
    for key, template, scores in maps:
        if scores is None:
            continue
        _, _, loc, _ = cv2.minMaxLoc(scores)
        score = float(scores[loc[1], loc[0]])
        if score <= glyphs.threshold and (best is None or score < best.score):
            th, tw = template.shape[:2]
            best = Hit(key, score, x0 + loc[0] + tw // 2, y0 + loc[1] + th // 2, tw, th)
    if memo is not None:
        memo.remember(glyphs, "hit", (best,))
    return best


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
    seen = _visible(image, glyphs.region, geo)
    if seen is None:
        return "", []
    region = RegionCrop(_grey(seen[0]), seen[1], seen[2], seen[3])
    crop, x0, y0 = region.grey, region.x0, region.y0
    maps = _score_maps(crop, glyphs) if memo is None else memo.maps(glyphs, crop, x0, y0)
    if memo is not None and (known := memo.answer(glyphs, "text")) is not None:
        text_hits = cast(tuple[str, list[Hit]], known)
        return text_hits[0], list(text_hits[1])
    hits: list[Hit] = []
    for key, template, scores in maps:
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
    return text, kept
