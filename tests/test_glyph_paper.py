"""Glyphs cut tight, brought back from a scaled screen (`vision.display_scale.as_shown`).

A glyph that keeps its outer ring at a desktop scale (smaller than
TRIM_FROM) is pictured on the colour its set is drawn on (`glyph_paper`),
not on its own edge repeated: a digit cut tight has ink on its edge, which
the screen blends with the background beside it. Repeated, minegauler's
counter "5" at 125 %, nearest, scored 211 where it is itself (threshold
150), and "005" read "00": no count.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.display_scale import as_shown, glyph_paper, period, to_native


def test_the_paper_of_a_set_is_the_commonest_colour_of_its_edges() -> None:
    ink = np.zeros((9, 7, 3), np.uint8)
    ink[:, 0] = (30, 30, 200)  # a stroke along the left edge: ink on the ring
    ink[4, :] = (30, 30, 200)
    margin = cv2.copyMakeBorder(ink, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    assert glyph_paper([ink, margin]) == (0, 0, 0)
    assert glyph_paper([]) is None


def test_a_tight_glyph_on_its_paper_is_shown_as_the_screen_shows_it() -> None:
    """Wherever the glyph starts on the screen's pixel grid, one picture of its
    phase is the screen brought back to the clone's pixels, pixel for pixel
    (nearest); with the glyph's edge repeated instead, not at every phase."""
    rng = np.random.default_rng(5)
    glyph = rng.integers(40, 256, (9, 7), dtype=np.uint8)  # ink up to every edge
    scale = 1.25
    q = period(scale)
    repeated = []
    for ox in range(q):
        for oy in range(q):
            clone = np.zeros((24, 24), np.uint8)  # black paper, as an LED counter's
            x0, y0 = 8 + ox, 8 + oy
            clone[y0 : y0 + 9, x0 : x0 + 7] = glyph
            screen = cv2.resize(clone, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
            back = to_native(screen, (0, 0, screen.shape[1], screen.shape[0]), scale)
            assert back is not None
            native, n0, m0 = back
            seen = native[y0 - m0 : y0 - m0 + 9, x0 - n0 : x0 - n0 + 7]
            phase = (q, x0 % q, y0 % q)
            assert _shows(glyph, scale, (0,), seen, phase), (ox, oy)
            repeated.append(_shows(glyph, scale, None, seen, phase))
    assert not all(repeated)


def _shows(
    glyph: np.ndarray,
    scale: float,
    paper: tuple[int, ...] | None,
    seen: np.ndarray,
    phase: tuple[int, int, int],
) -> bool:
    """Whether a picture of `as_shown` of `phase` is `seen`, pixel for pixel."""
    return any(
        np.array_equal(picture, seen)
        for picture, at in as_shown(glyph, scale, paper)
        if at == phase
    )
