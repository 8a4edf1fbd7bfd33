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

import numpy as np

from vision.geometry import Geometry
from vision.glyphs import crop_region
from vision.skin import Glyphs

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
    the images differ in size or share too little to find the button by."""
    images = [np.asarray(i, np.int16) for v in glyphs.images.values() for i in v]
    if not images or any(i.shape != images[0].shape for i in images):
        return None
    ref = images[0]
    mask = np.ones(ref.shape[:2], bool)
    for other in images[1:]:
        mask &= np.abs(other - ref).max(axis=2) <= TOLERANCE
    if int(mask.sum()) < MIN_PIXELS or float(ref.mean(axis=2)[mask].std()) < MIN_SPREAD:
        return None
    return ref, mask


def face_by_rim(image: np.ndarray, glyphs: Glyphs, geo: Geometry) -> tuple[int, int] | None:
    """Screen point of the face button in `glyphs.region` found by the pixels all
    its images share (see the module docstring), or None."""
    shared = shared_pixels(glyphs)
    if shared is None:
        return None
    ref, mask = shared
    seen = crop_region(image, glyphs.region, geo)
    if seen is None or any(seen.cut):
        return None  # a face cut off by the picture's edge is not guessed
    x0, y0 = seen.x0, seen.y0
    th, tw = ref.shape[:2]
    crop = np.asarray(image[y0 : y0 + seen.grey.shape[0], x0 : x0 + seen.grey.shape[1]], np.int16)
    if crop.shape[0] < th or crop.shape[1] < tw:
        return None
    # Every placement at once: windows (ny, nx, 3, th, tw) of the crop.
    windows = np.lib.stride_tricks.sliding_window_view(crop, (th, tw), axis=(0, 1))
    same = (np.abs(windows - ref.transpose(2, 0, 1)[None, None]) <= TOLERANCE).all(axis=2)
    found = same[:, :, mask].mean(axis=2)
    y, x = np.unravel_index(int(np.argmax(found)), found.shape)
    if float(found[y, x]) < MIN_FOUND:
        return None
    return x0 + int(x) + tw // 2, y0 + int(y) + th // 2
