"""Find a face button by its rim when it shows an expression the skin has no image of.

A learned skin knows the faces its screenshots showed: `learn-skin --live`
loses its games, so it never sees the won face (minegauler's sunglasses).
The face is still the restart control whatever it shows, and its button
(rim, bevel, the face's outline and colour) is drawn the same under every
expression. So when no face image matches, the pixels that every known
face image shares are looked for in the face region: where most of them are
found, the button is there and its centre is the "restart" control. Only
skins that say so (`faces.any_expression`) are searched this way; the status
is then read from the board, never from this match.

Safe by construction: the region is where the face was seen while learning,
relative to the board the reader has just found on this very picture, and
the shared pixels must be found there (a window over the face, or no face,
leaves too few of them).
"""

from __future__ import annotations

from typing import cast

import cv2
import numpy as np

from vision.geometry import Geometry
from vision.glyphs import crop_region
from vision.skin import FaceRim, Glyphs

#: Per-channel difference under which a pixel counts as unchanged.
TOLERANCE = 12
#: Share of the shared pixels that must be found (minegauler's sunglasses
#: cover about 7 % of them; a covered or missing face leaves far fewer).
MIN_FOUND = 0.8
#: Fewest shared pixels, and their least grey-level spread, for the rim to
#: say anything: a flat patch of background would match any flat region.
MIN_PIXELS = 64
MIN_SPREAD = 20.0


def shared_pixels(glyphs: Glyphs) -> tuple[np.ndarray, np.ndarray] | None:
    """(reference image, mask of the pixels every face image shares), or None when
    the images differ in size or share too little to find the button by.
    Computed once per skin (kept on `glyphs`, like its grey images)."""
    if "shared" in glyphs.derived:
        return cast("tuple[np.ndarray, np.ndarray] | None", glyphs.derived["shared"])
    shared: tuple[np.ndarray, np.ndarray] | None = None
    rim = glyphs.extra.get("rim")
    if isinstance(rim, FaceRim):
        # The images are the changed part alone (a face's eyes, whose other
        # expressions cover them: sunglasses): the button around that part,
        # masked out, is what every expression shares, and it comes first.
        ref = np.asarray(rim.image, np.int16)
        mask = np.ones(ref.shape[:2], bool)
        x, y, w, h = rim.inner
        mask[y : y + h, x : x + w] = False
        if _telling(ref, mask):
            shared = ref, mask
    images = [np.asarray(i, np.int16) for v in glyphs.images.values() for i in v]
    if shared is None and images and all(i.shape == images[0].shape for i in images):
        ref = images[0]
        mask = np.ones(ref.shape[:2], bool)
        for other in images[1:]:
            mask &= np.abs(other - ref).max(axis=2) <= TOLERANCE
        if _telling(ref, mask):
            shared = ref, mask
    glyphs.derived["shared"] = shared
    return shared


def _telling(ref: np.ndarray, mask: np.ndarray) -> bool:
    """Whether the masked pixels are enough, and varied enough, to find a button by."""
    return int(mask.sum()) >= MIN_PIXELS and float(ref.mean(axis=2)[mask].std()) >= MIN_SPREAD


def face_by_rim(image: np.ndarray, glyphs: Glyphs, geo: Geometry) -> tuple[int, int] | None:
    """Screen point of the face button in `glyphs.region` found by the pixels all
    its images share (see the module docstring), or None.

    The likeliest place is the least squared difference over the shared pixels
    (one masked `cv2.matchTemplate`); there, most of them must be the same to
    within TOLERANCE: a count, so that a new expression's few very different
    pixels (sunglasses) cannot outweigh the rest."""
    shared = shared_pixels(glyphs)
    if shared is None:
        return None
    ref, mask = shared
    seen = crop_region(image, glyphs.region, geo)
    if seen is None or any(seen.cut):
        return None  # a face cut off by the picture's edge is not guessed
    th, tw = ref.shape[:2]
    crop = image[seen.y0 : seen.y0 + seen.grey.shape[0], seen.x0 : seen.x0 + seen.grey.shape[1]]
    if crop.shape[0] < th or crop.shape[1] < tw:
        return None
    scores = cv2.matchTemplate(
        crop.astype(np.float32),
        ref.astype(np.float32),
        cv2.TM_SQDIFF,
        mask=np.repeat(mask[:, :, None], 3, axis=2).astype(np.float32),
    )
    _, _, (x, y), _ = cv2.minMaxLoc(scores)
    window = crop[y : y + th, x : x + tw].astype(np.int16)
    found = float((np.abs(window - ref).max(axis=2) <= TOLERANCE)[mask].mean())
    if found < MIN_FOUND:
        return None
    return seen.x0 + x + tw // 2, seen.y0 + y + th // 2
