"""Bring part of a screen scaled by the desktop (HiDPI) back to the clone's own pixels.

A compositor at 125 %, 150 % or 200 % shows every pixel the clone drew as a
block of 1.25 to 2 screen pixels, blended (linear) or repeated (nearest).
Glyphs (counter digits, faces, status messages) are cut at the clone's own
pixels and told apart by a few of them, so they are matched on the region
brought back to those pixels rather than against resized templates: the
clone's pixel k covers screen [k * scale, (k + 1) * scale) from the screen's
origin (the compositor scales the whole desktop), and is the mean of
`FACTOR` x `FACTOR` points sampled over that span (one `cv2.remap`, one
integer-factor area resize: the same sampling as `vision.sampling`).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: Sample points per clone pixel along each axis.
FACTOR = 4


def to_native(
    image: np.ndarray,
    box: tuple[int, int, int, int],
    scale: float,
    origin: tuple[int, int] = (0, 0),
) -> tuple[np.ndarray, int, int] | None:
    """The box (x0, y0, x1, y1) of `image` at the clone's own pixels, with the
    clone-pixel index of its first column and row (None if under a pixel).
    `origin`: the screen position of `image`'s top-left pixel (a crop of the
    screen). Grey in, grey out: only the box's pixels are read."""
    x0, y0, x1, y1 = (v + origin[i % 2] for i, v in enumerate(box))
    n0, m0 = math.ceil(x0 / scale - 1e-6), math.ceil(y0 / scale - 1e-6)
    n1, m1 = math.floor(x1 / scale + 1e-6), math.floor(y1 / scale + 1e-6)
    if n1 <= n0 or m1 <= m0:
        return None
    steps = (np.arange(FACTOR) + 0.5) / FACTOR

    def points(first: int, last: int, origin: int) -> np.ndarray:
        # Nearest screen pixel of each point: the area mean of the clone
        # pixel's span over the screen's pixels, whatever the compositor's
        # interpolation (at 100 % the picture itself).
        pos = (np.arange(first, last)[:, None] + steps[None, :]) * scale - 0.5 - origin
        return np.asarray(pos.reshape(-1), dtype=np.float32)

    xs, ys = points(n0, n1, x0), points(m0, m1, y0)
    map_x = np.ascontiguousarray(np.broadcast_to(xs[None, :], (len(ys), len(xs))))
    map_y = np.ascontiguousarray(np.broadcast_to(ys[:, None], (len(ys), len(xs))))
    crop = image[y0 - origin[1] : y1 - origin[1], x0 - origin[0] : x1 - origin[0]]
    dense = cv2.remap(crop, map_x, map_y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE)
    native = cv2.resize(dense, (n1 - n0, m1 - m0), interpolation=cv2.INTER_AREA)
    return native, n0, m0


#: Pixels left out around glyphs at least TRIM_FROM pixels high and wide (`as_shown`).
TRIM, TRIM_FROM = 1, 16

#: Phases (clone pixels modulo the scale's period) a glyph is prepared at,
#: per axis, at most.
MAX_PHASES = 4

#: Where a glyph picture of `as_shown` holds: (period, x phase, y phase).
Phase = tuple[int, int, int]


def exact_period(scale: float) -> int | None:
    """Clone pixels after which the screen's pixel grid repeats (125 %: 4, 150 %: 2,
    200 %: 1), or None if not within MAX_PHASES (a scale fitted from a pitch,
    1.7263: no desktop setting)."""
    for q in range(1, MAX_PHASES + 1):
        if abs(scale * q - round(scale * q)) < 1e-6:
            return q
    return None


def period(scale: float) -> int:
    """`exact_period`, MAX_PHASES for scales with no short period."""
    return exact_period(scale) or MAX_PHASES


def as_shown(
    image: np.ndarray, scale: float, paper: tuple[int, ...] | None = None
) -> list[tuple[np.ndarray, Phase]]:
    """`image` (a glyph at the clone's pixels) as `to_native` brings it back from a
    screen at `scale`: one picture per interpolation the compositor may use
    (linear, nearest) and per phase of the glyph on the screen's pixel grid
    (at 125 % a clone pixel starts at 0, 1/4, 1/2 or 3/4 of a screen pixel),
    each with the phase it holds at: a glyph whose first clone pixel x has
    x % period == x phase (and the same for y). A linear scale blends the
    glyph's outer pixels with what lies beside it, here its own edge: glyphs
    of TRIM_FROM pixels and more (faces, LED digits: cut tight, with a
    frame) lose that ring of TRIM pixels (their centre stays the same);
    smaller ones (text) keep it, being cut with a margin of background.

    `paper`: the colour around the glyph on the screen (`glyph_paper`), which
    a glyph that keeps its ring is set on, rather than on its own edge
    repeated: a glyph cut tight has ink on its edge (minegauler's red
    anti-aliased counter digits on black), and brought back from a scale
    that ink blends with the black beside it, not with more ink. Repeated,
    the edge made pictures no screen shows: the "5" of the counter at 125 %,
    nearest, scored 211 against the threshold of 150 where it is itself
    (and read "00" for "005": no count). For a glyph cut with a margin of
    background the two are the same.

    Bringing a screen back to the clone's pixels cannot undo the blend of a
    linear scale (a one-pixel black line becomes a grey one), so the glyphs
    are blended alike and the thresholds stay those of the clone's own pixels;
    matched only at placements of their own phase, the pictures of other
    phases give a wrong glyph no second chance.
    """
    h, w = image.shape[:2]
    q = period(scale)
    trim = TRIM if min(h, w) >= TRIM_FROM else 0
    pad = 2
    border = (pad + q, pad + 1, pad + q, pad + 1)
    if trim or paper is None:
        canvas = cv2.copyMakeBorder(image, *border, cv2.BORDER_REPLICATE)
    else:
        canvas = cv2.copyMakeBorder(image, *border, cv2.BORDER_CONSTANT, value=paper)
    out: list[tuple[np.ndarray, Phase]] = []
    for interp in (cv2.INTER_LINEAR, cv2.INTER_NEAREST):
        for py in range(q):
            for px in range(q):
                part = canvas[q - py :, q - px :]
                up = cv2.resize(part, None, fx=scale, fy=scale, interpolation=interp)
                back = to_native(up, (0, 0, up.shape[1], up.shape[0]), scale)
                assert back is not None
                ys, xs = pad + py + trim, pad + px + trim
                picture = back[0][ys : ys + h - 2 * trim, xs : xs + w - 2 * trim]
                out.append((np.ascontiguousarray(picture), (q, xs % q, ys % q)))
    return out


def glyph_paper(images: list[np.ndarray]) -> tuple[int, ...] | None:
    """The colour a set of glyph images is drawn on: the commonest colour of
    their outermost pixels (a glyph cut with a margin shows only it there, a
    glyph cut tight shows it between its strokes), as `as_shown`'s `paper`;
    None for no images."""
    rings = [
        np.concatenate([img[0], img[-1], img[1:-1, 0], img[1:-1, -1]]).reshape(
            -1, 1 if img.ndim == 2 else img.shape[2]
        )
        for img in images
    ]
    if not rings:
        return None
    colours, counts = np.unique(np.concatenate(rings), axis=0, return_counts=True)
    return tuple(int(v) for v in colours[int(counts.argmax())])


def in_phase(scores: np.ndarray | None, phase: Phase | None, x0: int, y0: int) -> np.ndarray | None:
    """A template's `scores` over a region whose first pixel is clone pixel
    (x0, y0), +inf at the placements where a picture of `phase` does not
    hold (`as_shown`); unchanged for None (a glyph at scale 1)."""
    if scores is None or phase is None:
        return scores
    q, px, py = phase
    out = np.full_like(scores, np.inf)
    sx, sy = (px - x0) % q, (py - y0) % q
    out[sy::q, sx::q] = scores[sy::q, sx::q]
    return out


#: Interpolations a compositor may scale with, as `as_shown` and `tile_as_shown` make them.
INTERPOLATIONS = (cv2.INTER_LINEAR, cv2.INTER_NEAREST)


def tile_as_shown(image: np.ndarray, scale: float) -> list[np.ndarray]:
    """A cell's tile (at the clone's pixels) as a screen at `scale` shows it, at
    the screen's pixels: one picture per interpolation (linear, nearest) and
    per phase of the tile on the screen's pixel grid (both axes).

    Cells are compared on the screen's own pixels (every cell and tile is
    shrunk to one patch), so the tile must look there as the screen shows
    it. A nearest-neighbour scale of 125 % repeats every fourth clone pixel,
    which one depending on where the cell starts (its phase): minegauler's
    16 px flag became 20 px with its one-pixel pole doubled or not, ~400
    from its tile's patch against a limit of 300, while the picture of its
    own phase is the cell pixel for pixel. A picture is cut from the first
    screen pixel that shows the tile (nearest: whose left edge maps into it,
    the rule of `cv2.resize`; a rule that samples pixel centres repeats the
    same pixels at another phase, at 125 and 175 % at least: at 150 % its
    samples fall on pixel edges, and how it breaks those ties decides) or
    that is mostly the tile (linear: whose centre lies in it), as wide as
    the tile at the scale; the tile's edge is repeated past it, as its
    neighbour continues it on a board.
    """
    h, w = image.shape[:2]
    q = period(scale)
    pad = q + 2
    canvas = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    out_w, out_h = round(w * scale), round(h * scale)
    out: list[np.ndarray] = []
    for interp in INTERPOLATIONS:
        # Where a screen pixel samples the clone's pixels: its left edge (nearest) or centre.
        centre = 0.5 if interp == cv2.INTER_LINEAR else 0.0
        for py in range(q):
            for px in range(q):
                up = cv2.resize(
                    canvas[pad - py :, pad - px :], None, fx=scale, fy=scale, interpolation=interp
                )
                x0 = math.ceil(px * scale - centre - 1e-6)
                y0 = math.ceil(py * scale - centre - 1e-6)
                out.append(np.ascontiguousarray(up[y0 : y0 + out_h, x0 : x0 + out_w]))
    return out
