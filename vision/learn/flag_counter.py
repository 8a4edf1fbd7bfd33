"""Learn the mine counter from msbot's own flags: the display that counts them.

While learning, msbot flags cells one by one on a fresh board and takes the
flags off again, a screenshot after each. Whatever the clone draws (a red or
yellow LED, "UXB: 10", "Mines: 3/10", "3/10", "7 Mines"), its counter is the
part of the window that changes with the number of flags and with nothing
else: frames with as many flags show it alike, and it changes at every flag.
A clock ticking meanwhile changes without a flag and is left out.

That part and the text on its line are cut into glyphs (runs of inked
columns), and every reading of the glyphs is tried: the display shows the
mines left (`left`: total - flags) or the flags and the total
(`marked/total`: "3/10"), for every total the board can hold. A reading
fits when one character per glyph picture spells the expected value on
every frame, at the place where the display changed. The counter is learned
only when exactly one total and format fit (or the one the user gave with
`--mines`), every digit 0-9 was seen, and the learned glyphs read every frame
back to its value with the reader's own glyph search (`vision.glyphs`).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.counter import parse_counter
from vision.geometry import Geometry
from vision.glyphs import box_region, read_text
from vision.skin import Glyphs, Region

#: Grey levels a pixel must move by to count as changed, or to count as ink.
CHANGED = 40
INK = 60
#: Two glyph crops closer than this (mean squared grey difference) are one picture.
SAME_GLYPH = 150.0
#: How far around the board the counter is looked for: cells, and at least pixels.
REACH_CELLS = 5
REACH_PX = 160
FORMATS = ("left", "marked/total")
#: Seconds the readings of one line's glyphs are searched for: a line of many
#: glyphs (a long label beside the counter) can give the search more starts to
#: try than any run could (zoo seed 357133173 searched for minutes); past it,
#: no counter is learned rather than a guess.
SEARCH_SECONDS = 10.0


#: How a line whose readings were not all tried in time ends its sentence.
GAVE_UP = ": no counter learned (`msbot learn-skin NAME --live --mines N` gives the total)"


class _GaveUp(Exception):
    """The search for a reading of a line's glyphs ran out of time (its text:
    what was not tried)."""


#: Two glyph pictures this close (aligned to a fraction of a pixel, as a share
#: of their ink's energy) are one character: text is drawn at sub-pixel places,
#: so one digit comes out a little different at each place (KMines' "0"s and
#: "1"s: 0.00-0.03; its closest two digits 0.13; two 7-segment digits one
#: segment apart 0.06).
SAME_CHAR = 0.04
#: ... and this far apart, two characters.
OTHER_CHAR = 0.10
#: Glyph pictures whose widths differ by more than this (px) are two characters.
WIDER = 3


@dataclass(frozen=True)
class FlagCounter:
    """A learned counter in the manifest's terms, and how it was proven."""

    region: Region
    digits: dict[str, list[np.ndarray]]
    threshold: float
    format: str
    total: int
    evidence: str
    #: Gaps between the digits are no spaces (`vision.counter.parse_counter`).
    spaced: bool = False

    def glyphs(self) -> Glyphs:
        images = {k: tuple(v) for k, v in self.digits.items()}
        extra = {"format": self.format, "spaced": self.spaced}
        return Glyphs(self.region, images, self.threshold, extra)


@dataclass(frozen=True)
class _Glyph:
    x0: int
    x1: int
    crop: np.ndarray  # grey, the line's rows
    #: `crop` with the ink of touching neighbours taken out: what tells characters
    #: apart (GNOME Mines' "0/40" and "1/40" drew one "/" as two pictures).
    alone: np.ndarray


def _grey(image: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.int16))


def _search_box(geo: Geometry, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    reach = max(REACH_PX, round(REACH_CELLS * max(geo.cell_w, geo.cell_h)))
    height, width = shape[:2]
    return (
        max(0, round(geo.left) - reach),
        max(0, round(geo.top) - reach),
        min(width, round(geo.left + geo.width) + reach),
        min(height, round(geo.top + geo.height) + reach),
    )


def counter_pixels(
    greys: Sequence[np.ndarray], flags: Sequence[int], geo: Geometry
) -> tuple[np.ndarray, tuple[int, int, int, int], np.ndarray]:
    """(mask, box, unstable): pixels of the search box (board left out) that change
    with the flags and only with them, and those that change without them (a
    clock)."""
    x0, y0, x1, y1 = _search_box(geo, greys[0].shape)
    crops = [g[y0:y1, x0:x1] for g in greys]
    changed = np.zeros(crops[0].shape, bool)
    for a, b in itertools.pairwise(crops):
        changed |= np.abs(a - b) > CHANGED
    unstable = np.zeros_like(changed)
    for i, a in enumerate(crops):
        for j in range(i + 1, len(crops)):
            if flags[i] == flags[j]:
                unstable |= np.abs(a - crops[j]) > CHANGED
    mask = changed & ~unstable
    # The board and its first pixels around are the cells, not the counter.
    bx0, by0 = round(geo.left) - 2 - x0, round(geo.top) - 2 - y0
    bx1, by1 = round(geo.left + geo.width) + 2 - x0, round(geo.top + geo.height) + 2 - y0
    mask[max(0, by0) : max(0, by1), max(0, bx0) : max(0, bx1)] = False
    return mask, (x0, y0, x1, y1), unstable


def _commonest(pixels: np.ndarray) -> int:
    values, counts = np.unique(pixels, return_counts=True)
    return int(values[counts.argmax()])


def _line_glyphs(
    grey: np.ndarray, band: tuple[int, int], xs: tuple[int, int], background: int
) -> list[_Glyph]:
    """The glyphs of one line of text, left to right: pieces of ink (connected,
    off the text's `background` grey) joined where one stands mostly over another
    (the dots of a colon, the dot of an i)."""
    y0, y1 = band
    line = grey[y0:y1, xs[0] : xs[1]]
    ink = (np.abs(line - background) > INK).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    spans = sorted((int(x), int(x + w), k) for k, (x, _, w, _, _) in enumerate(stats.tolist()) if k)
    merged: list[tuple[int, int, set[int]]] = []
    for a, b, k in spans:
        if merged:
            pa, pb, ks = merged[-1]
            overlap = min(b, pb) - max(a, pa)
            if overlap * 2 > min(b - a, pb - pa):
                merged[-1] = (min(a, pa), max(b, pb), ks | {k})
                continue
        merged.append((a, b, {k}))
    out = []
    for a, b, ks in merged:
        x0, x1 = xs[0] + a, xs[0] + b
        crop = grey[y0:y1, x0 - 1 : x1 + 1].astype(np.float32)
        lo, hi = a - 1, b + 1
        alone = crop.copy()
        if lo >= 0 and hi <= line.shape[1]:
            near = labels[:, lo:hi]
            alone[(near > 0) & ~np.isin(near, list(ks))] = background
        out.append(_Glyph(x0, x1, crop, alone))
    return out


def _glyph_ids(frames: list[list[_Glyph]]) -> tuple[list[list[int]], list[np.ndarray]]:
    """One id per distinct glyph picture (leader clustering within SAME_GLYPH), and
    each id's picture."""
    reps: list[np.ndarray] = []
    out = []
    for glyphs in frames:
        ids = []
        for g in glyphs:
            for k, rep in enumerate(reps):
                if (
                    rep.shape == g.alone.shape
                    and float(((rep - g.alone) ** 2).mean()) <= SAME_GLYPH
                ):
                    ids.append(k)
                    break
            else:
                reps.append(g.alone)
                ids.append(len(reps) - 1)
        out.append(ids)
    return out, reps


def _aligned_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Mean squared grey difference of two glyph pictures at their best alignment
    (whole-pixel offsets and sub-pixel shifts, linear resampling), as a share of
    the larger one's ink energy (its squared difference from its background)."""
    height = max(a.shape[0], b.shape[0])
    width = max(a.shape[1], b.shape[1]) + 4
    canvases = []
    for pic in (a, b):
        canvas = np.full((height, width), float(np.median(pic)), np.float32)
        x = (width - pic.shape[1]) // 2
        canvas[: pic.shape[0], x : x + pic.shape[1]] = pic
        canvases.append(canvas)
    energy = max(float(((c - np.median(c)) ** 2).mean()) for c in canvases)
    best = np.inf
    for dx in np.arange(-2.0, 2.01, 0.25).tolist():
        m = np.array([[1.0, 0.0, dx], [0.0, 1.0, 0.0]], np.float32)
        moved = cv2.warpAffine(
            canvases[1],
            m,
            (width, height),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        best = min(best, float(((moved - canvases[0]) ** 2).mean()))
    return best / max(energy, 1.0)


def _aligned_distances(pictures: list[np.ndarray]) -> np.ndarray:
    """(n, n) `_aligned_distance` of every pair; pictures more than WIDER px apart in
    width are different characters (inf)."""
    n = len(pictures)
    d = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            a, b = pictures[i], pictures[j]
            if abs(a.shape[1] - b.shape[1]) > WIDER:
                d[i, j] = d[j, i] = np.inf
            else:
                d[i, j] = d[j, i] = _aligned_distance(a, b)
    return d


def _expected(fmt: str, total: int, flags: int) -> str | None:
    if fmt == "left":
        return str(total - flags) if total >= flags else None
    return f"{flags}/{total}"


def _pairs(
    frames: list[list[_Glyph]], clock: set[int]
) -> list[tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
    """For each frame and the next: (glyphs drawn at the same place alike in both,
    glyphs drawn at the same place differently), as index pairs; glyphs over
    `clock` columns (they change without the flags) are in neither."""
    out = []
    for a, b in itertools.pairwise(frames):
        at = {(g.x0, g.x1): j for j, g in enumerate(b)}
        same, other = [], []
        for i, g in enumerate(a):
            j = at.get((g.x0, g.x1))
            if j is None or any(g.x0 <= x < g.x1 for x in clock):
                continue
            if np.array_equal(g.alone, b[j].alone):
                same.append((i, j))
            else:
                other.append((i, j))
        out.append((same, other))
    return out


def _fit(
    ids: list[list[int]],
    changed: list[set[int]],
    texts: list[str],
    pairs: list[tuple[list[tuple[int, int]], list[tuple[int, int]]]],
    apart: np.ndarray,
    deadline: float,
) -> tuple[dict[int, str], list[int]] | None:
    """A glyph id -> character map that spells `texts[i]` on a run of frame i's
    glyphs, and where each run starts; None if there is none; `_GaveUp` past
    `deadline` (`time.monotonic()`).

    A run must take in what changed in the frame; a glyph drawn alike at the same
    place in two frames one after the other is in both runs or in neither (it did
    not change, so it did not join or leave the display), and one drawn otherwise
    at the same place is in both (it is the display changing). Pictures alike
    once aligned (`apart` within SAME_CHAR) are one character, pictures far apart
    (beyond OTHER_CHAR) two.
    """
    Found = tuple[dict[int, str], list[int]]

    def joins(i: int, start: int, prev: int) -> bool:
        same, other = pairs[i - 1]
        before = range(prev, prev + len(texts[i - 1]))
        now = range(start, start + len(texts[i]))
        if any((a in before) != (b in now) for a, b in same):
            return False
        return all(a in before and b in now for a, b in other)

    def search(i: int, mapping: dict[int, str], starts: list[int]) -> Found | None:
        if time.monotonic() > deadline:
            raise _GaveUp
        if i == len(ids):
            return mapping, starts
        text, row = texts[i], ids[i]
        for start in range(0, len(row) - len(text) + 1):
            span = set(range(start, start + len(text)))
            if changed[i] and not changed[i] & span:
                continue
            if i and not joins(i, start, starts[-1]):
                continue
            trial = dict(mapping)
            ok = True
            for k, ch in zip(row[start : start + len(text)], text, strict=True):
                if k in trial:
                    if trial[k] != ch:
                        ok = False
                        break
                    continue
                for j, other in trial.items():
                    if (apart[k, j] <= SAME_CHAR) != (other == ch) and (
                        apart[k, j] <= SAME_CHAR or apart[k, j] >= OTHER_CHAR
                    ):
                        ok = False
                        break
                if not ok:
                    break
                trial[k] = ch
            if ok:
                found = search(i + 1, trial, [*starts, start])
                if found is not None:
                    return found
        return None

    return search(0, {}, [])


def learn_flag_counter(
    images: Sequence[np.ndarray],
    flags: Sequence[int],
    geo: Geometry,
    total: int | None = None,
) -> tuple[FlagCounter | None, str]:
    """The counter of `images` (screenshots, the board at `geo`, after msbot placed
    `flags[i]` flags), and a sentence saying what was found or why nothing was."""
    greys = [_grey(im) for im in images]
    mask, box, unstable = counter_pixels(greys, flags, geo)
    y0 = box[1]
    if int(mask.sum()) < 4:
        return None, "no part of the window changed with the flags (no counter shown?)"
    # Each line of what changed on its own: a clock that ticked between two
    # frames of different flag counts changed with them too (a page's "Time:"
    # above the board, its counter below: the two were taken for one tall
    # line, "not one line of digits", and no counter was learned).
    rows = np.flatnonzero(mask.any(axis=1))
    lines = np.split(rows, np.flatnonzero(np.diff(rows) > max(geo.cell_h, 12)) + 1)
    lines.sort(key=lambda line: -int(mask[line].sum()))
    found: list[tuple[FlagCounter, str]] = []
    why = "what changed with the flags is not one line of digits"
    gave_up = ""
    for line in lines:
        top, bottom = y0 + int(line.min()), y0 + int(line.max()) + 1
        if bottom - top > 3 * max(geo.cell_h, 12):
            continue
        band = (max(0, top - 2), min(greys[0].shape[0], bottom + 2))
        alone = np.zeros_like(mask)
        alone[line.min() : line.max() + 1] = mask[line.min() : line.max() + 1]
        try:
            counter, said = _in_band(images, greys, flags, geo, total, alone, box, unstable, band)
        except _GaveUp as exc:
            gave_up = f"{exc}{GAVE_UP}"
            continue
        if counter is None:
            if not found and len(lines) == 1:
                why = said
            continue
        found.append((counter, said))
    if gave_up:
        # A line not read in time may read as a counter too: none is proven.
        if found:
            return None, (
                "one line of the window reads as a counter, and another, not read in time, "
                f"may too{GAVE_UP}"
            )
        return None, gave_up
    if len(found) == 1:
        return found[0]
    if found:
        return None, "two lines of the window read as a counter of the flags"
    return None, why


def _in_band(
    images: Sequence[np.ndarray],
    greys: list[np.ndarray],
    flags: Sequence[int],
    geo: Geometry,
    total: int | None,
    mask: np.ndarray,
    box: tuple[int, int, int, int],
    unstable: np.ndarray,
    band: tuple[int, int],
) -> tuple[FlagCounter | None, str]:
    """`learn_flag_counter` on one line of the window (`band`, screen rows),
    `mask` the pixels of it that changed with the flags; `_GaveUp` when the
    search for a reading runs out of time."""
    x0, y0, x1, _ = box
    # The text's own background: the commonest grey around the part that changed
    # (the line's commonest is the desktop's when the window is small in the
    # grab: xbomb's white "UXB : 10" box was then one glyph on black).
    # Around the run of changed columns that changed most: a clock beside the
    # counter may also change between frames with other flag counts (xdemineur
    # at 16x16: both LEDs' span had the window's grey as its commonest, and the
    # counter's black LED box became one glyph).
    moved = np.flatnonzero(mask.any(axis=0))
    runs = np.split(moved, np.flatnonzero(np.diff(moved) > max(geo.cell_w, 12)) + 1)
    inked = x0 + max(runs, key=lambda run: int(mask[:, run].sum()))
    near = greys[0][band[0] : band[1], max(0, int(inked.min()) - 3) : int(inked.max()) + 4]
    frames = [_line_glyphs(g, band, (x0 + 1, x1 - 1), _commonest(near)) for g in greys]
    ids, pictures = _glyph_ids(frames)
    apart = _aligned_distances(pictures)
    # The glyphs of each frame where the display changed, against the frame before or after.
    changed_cols = []
    for i in range(len(greys)):
        cols: set[int] = set()
        for j in (i - 1, i + 1):
            if 0 <= j < len(greys) and flags[j] != flags[i]:
                diff = np.abs(greys[i][band[0] : band[1]] - greys[j][band[0] : band[1]]) > CHANGED
                cols |= set(np.flatnonzero(diff.any(axis=0)).tolist())
        changed_cols.append(cols)
    band_rows = slice(band[0] - y0, band[1] - y0)
    clock = set((x0 + np.flatnonzero(unstable[band_rows].any(axis=0))).tolist())
    changed = [
        {k for k, g in enumerate(frame) if any(g.x0 <= x < g.x1 for x in cols - clock)}
        for frame, cols in zip(frames, changed_cols, strict=True)
    ]
    pairs = _pairs(frames, clock)
    most = max(flags)
    cells = geo.rows * geo.cols
    totals = [total] if total is not None else list(range(most, cells))
    fits: list[tuple[str, int, dict[int, str], list[int]]] = []
    deadline = time.monotonic() + SEARCH_SECONDS
    for fmt in FORMATS:
        for t in totals:
            texts = [_expected(fmt, t, f) for f in flags]
            if any(text is None for text in texts):
                continue
            try:
                found = _fit(ids, changed, [str(text) for text in texts], pairs, apart, deadline)
            except _GaveUp:
                raise _GaveUp(
                    f"the glyphs that changed ({max(len(row) for row in ids)} on a line) "
                    f"could not all be tried within {SEARCH_SECONDS:g} s"
                ) from None
            if found is not None:
                fits.append((fmt, t, *found))
    # A display of the flags placed ("Flags: 3") tells no total, but may read as
    # mines left too while the flags stay below 10 (9 8 ... 0 read backwards as
    # 0 1 ... 9: zoo seed 1653660532 learned "9 mines left" on a board of 10,
    # and lost): a fit of it beside one of mines left leaves the counter
    # unlearned. ("3/10" shows the flags placed too, and its total.)
    if not any(fmt == "marked/total" for fmt, *_ in fits):
        try:
            placed = _fit(ids, changed, [str(f) for f in flags], pairs, apart, deadline)
        except _GaveUp:
            placed = None
        if placed is not None:
            fits.append(("placed", 0, *placed))
    if not fits:
        return None, "no reading of the glyphs that changed gives total - flags or flags/total"
    if fits[0][0] == "placed" and len(fits) == 1:
        return None, "the display counts msbot's flags (it tells no total)"
    if len({(f[0], f[1]) for f in fits}) > 1:
        some = ", ".join(
            "flags placed" if fmt == "placed" else f"{fmt} {t}" for fmt, t, _, _ in fits[:4]
        )
        return None, f"several readings fit ({some}...): give --mines N"
    fmt, t, mapping, starts = fits[0]
    seen = set(mapping.values())
    missing = sorted(set("0123456789") - seen)
    if missing:
        return None, f"digits {' '.join(missing)} never shown (flag more cells)"
    digits: dict[str, list[np.ndarray]] = {}
    boxes = []
    for frame, row, start, f in zip(frames, ids, starts, flags, strict=True):
        text = str(_expected(fmt, t, f))
        for g, k in zip(
            frame[start : start + len(text)], row[start : start + len(text)], strict=True
        ):
            ch = mapping[k]
            crop = g.crop.astype(np.uint8)
            have = digits.setdefault(ch, [])
            if not any(c.shape == crop.shape and np.array_equal(c, crop) for c in have):
                have.append(crop)
            boxes.append((g.x0, g.x1))
    height = band[1] - band[0]
    # A little room each side (a count one digit wider than seen), inside the picture.
    room = max(2, height // 3)
    left = max(0, min(a for a, _ in boxes) - room)
    right = min(greys[0].shape[1], max(b for _, b in boxes) + room)
    top, bottom = max(0, band[0] - 2), min(greys[0].shape[0], band[1] + 2)
    region = box_region((left, top, right, bottom), geo)
    bgr = {ch: [cv2.cvtColor(c, cv2.COLOR_GRAY2BGR) for c in crops] for ch, crops in digits.items()}
    threshold = _threshold(digits)
    glyphs = FlagCounter(region, bgr, threshold, fmt, t, "").glyphs()
    shown = [read_text(image, glyphs, geo)[0] for image in images]
    # A display of digits alone may leave gaps in slots (7-segment "1"s).
    spaced = fmt == "left" and all(
        parse_counter(text, fmt, spaced=True) == t - f for text, f in zip(shown, flags, strict=True)
    )
    for text, f in zip(shown, flags, strict=True):
        if parse_counter(text, fmt, spaced=spaced) != t - f:
            return None, f"the learned glyphs read {text!r} where {t - f} mines were left"
    values = " ".join(str(_expected(fmt, t, f)) for f in flags[: min(len(flags), 12)])
    evidence = (
        f"after each of msbot's flags the display read {values} ... : mines left with "
        f"{t} mines ({fmt}), the only reading of its glyphs that fits every frame"
    )
    said = f"learned ({fmt}, {t} mines, digits {' '.join(sorted(seen - {'/'}))})"
    return FlagCounter(region, bgr, threshold, fmt, t, evidence, spaced), said


def _threshold(digits: dict[str, list[np.ndarray]]) -> float:
    """Well under the distance between two different characters' images."""
    crops = [(ch, d.astype(np.float32)) for ch, ds in digits.items() for d in ds]
    apart = [
        float(((a - b) ** 2).mean())
        for i, (ca, a) in enumerate(crops)
        for cb, b in crops[i + 1 :]
        if ca != cb and a.shape == b.shape
    ]
    return min(60.0, min(apart) / 3) if apart else 60.0
