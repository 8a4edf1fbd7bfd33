"""Find a red LED/text mine counter near the board and learn its digits from the game.

With `--mines N`, every frame whose cells are all named says what its counter
must show: N minus the flags (right or wrong) on the board. Red digits (the
classic 7-segment LED and its imitations) are found above or below the board;
each red display is cut into digit slots by its lit columns, and a display is
the counter when one glyph image per digit explains every frame's value
(zero-padded, right-aligned). The timer, the other red display, fails that
test. Only digits actually seen are learned; the result is verified by
reading every frame back with `vision.counter.read_counter`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import Board
from vision.geometry import Geometry
from vision.glyphs import read_text
from vision.learn.screenshots.text_counter import ink_runs, learn_text_counter
from vision.skin import Glyphs, Region

#: Two glyph crops closer than this (mean squared difference) are the same digit.
SAME_GLYPH = 120.0


@dataclass(frozen=True)
class LearnedCounter:
    """A counter in the manifest's terms: region relative to the board, digit images."""

    region: Region
    #: Glyph images per character: digits, and "/" for a "marked/total" text.
    digits: dict[str, list[np.ndarray]]
    threshold: float
    #: "left" (mines left, a red LED) or "marked/total" (text such as "3/10").
    format: str = "left"

    def glyphs(self) -> Glyphs:
        images = {k: tuple(v) for k, v in self.digits.items()}
        return Glyphs(self.region, images, self.threshold, {"format": self.format})

    @property
    def seen(self) -> str:
        """The digits learned, in order."""
        return " ".join(sorted(k for k in self.digits if k.isdigit()))

    @property
    def complete(self) -> bool:
        """Whether every character the counter can show was learned: with a digit
        missing, a value showing it would read as another number."""
        need = set("0123456789") | ({"/"} if self.format == "marked/total" else set())
        return need <= set(self.digits)


def _red(image: np.ndarray) -> np.ndarray:
    b, g, r = (image[:, :, i].astype(np.int16) for i in range(3))
    return np.asarray((r > 150) & (r > g + 80) & (r > b + 80))


def _bands(geo: Geometry, shape: tuple[int, ...]) -> list[tuple[int, int, int, int, int]]:
    """Search boxes (x0, y0, x1, y1, anchor_fy) above and below the board."""
    height, width = shape[:2]
    x0 = max(0, round(geo.left - geo.cell_w))
    x1 = min(width, round(geo.left + geo.width + geo.cell_w))
    top, bottom = round(geo.top), round(geo.top + geo.height)
    reach = round(4 * geo.cell_h + 40)
    return [
        (x0, max(0, top - reach), x1, top, 0),
        (x0, bottom, x1, min(height, bottom + reach), 1),
    ]


def _displays(
    images: Sequence[np.ndarray], box: tuple[int, int, int, int]
) -> list[tuple[int, int, int, int]]:
    """Boxes of red ink (union over the frames) inside `box`, image coordinates."""
    x0, y0, x1, y1 = box
    ink = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for image in images:
        ink |= _red(image[y0:y1, x0:x1]).astype(np.uint8)
    if not ink.any():
        return []
    joined = cv2.dilate(ink, np.ones((5, 9), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(joined)
    out = []
    for x, y, w, h, _area in stats[1:n].tolist():
        inner = ink[y : y + h, x : x + w]
        ys = np.nonzero(inner.any(axis=1))[0]
        xs = np.nonzero(inner.any(axis=0))[0]
        if len(ys) >= 5 and len(xs) >= 3:
            out.append(
                (
                    x0 + x + int(xs[0]),
                    y0 + y + int(ys[0]),
                    x0 + x + int(xs[-1]) + 1,
                    y0 + y + int(ys[-1]) + 1,
                )
            )
    return out


def _slotings(ink: np.ndarray) -> list[list[tuple[int, int]]]:
    """Ways to cut a display into digit slots: by its lit columns, or in n equal parts
    (digits drawn without a gap between them)."""
    runs = ink_runs(np.asarray(ink.any(axis=0)), gap=1)
    width = max(b - a for a, b in runs)
    # Digits are right-aligned in equal slots: narrow slots (a "1") widen to the left.
    out = [[(max(0, b - width), b) for _, b in runs]]
    total = ink.shape[1]
    for n in range(2, 6):
        w = total // n
        out.append([(total - (n - i) * w, total - (n - i - 1) * w) for i in range(n)])
    return out


def _decode(
    images: Sequence[np.ndarray], values: Sequence[int], box: tuple[int, int, int, int]
) -> tuple[dict[str, list[np.ndarray]], list[tuple[int, int]]] | None:
    """Digit images and the digit slots (x within the box) if one image per digit
    explains every frame's value, else None."""
    x0, y0, x1, y1 = box
    ink = np.zeros((y1 - y0, x1 - x0), bool)
    for image in images:
        ink |= _red(image[y0:y1, x0:x1])
    for slots in _slotings(ink):
        digits = _decode_slots(images, values, box, slots)
        if digits is not None:
            return digits, slots
    return None


def _decode_slots(
    images: Sequence[np.ndarray],
    values: Sequence[int],
    box: tuple[int, int, int, int],
    slots: list[tuple[int, int]],
) -> dict[str, list[np.ndarray]] | None:
    """One image per (slot, digit) if that explains every frame's value, else None.

    Text displays do not place digits on whole-pixel slots, so the same digit
    may look a little different in each slot: each slot keeps its own images,
    all kept as variants of the digit.
    """
    x0, y0, _, y1 = box
    seen: dict[tuple[int, str], np.ndarray] = {}
    for image, value in zip(images, values, strict=True):
        if value < 0:
            return None
        text = str(value).rjust(len(slots), "0")
        if len(text) != len(slots):
            return None
        for s, ((a, b), ch) in enumerate(zip(slots, text, strict=True)):
            crop = image[y0 - 1 : y1 + 1, x0 + a : x0 + b].astype(np.float32)
            old = seen.get((s, ch))
            if old is not None:
                if float(((old - crop) ** 2).mean()) > SAME_GLYPH:
                    return None
                continue
            for (_, other_ch), other in seen.items():
                alike = other_ch != ch and other.shape == crop.shape
                if alike and float(((other - crop) ** 2).mean()) <= SAME_GLYPH:
                    return None
            seen[(s, ch)] = crop
    digits: dict[str, list[np.ndarray]] = {}
    for (_, ch), crop in sorted(seen.items(), key=lambda kv: kv[0][1]):
        if not any(np.array_equal(crop, d) for d in digits.get(ch, [])):
            digits.setdefault(ch, []).append(crop.astype(np.uint8))
    return digits


def learn_counter(
    images: Sequence[np.ndarray],
    geos: Sequence[Geometry],
    boards: Sequence[Board | None],
    totals: Sequence[int | None],
) -> LearnedCounter | None:
    """The counter (see the module docstring), or None if no display explains the frames.

    `totals[i]` is the mine total of frame i's game (None: not known). A red LED
    showing the mines left is looked for first, then a text "flags/total"
    (`vision.learn.screenshots.text_counter`).
    """
    use = [i for i, b in enumerate(boards) if b is not None and totals[i] is not None]
    if not use:
        return None
    led = _learn_led(images, geos, boards, totals, use)
    if led is not None:
        return led
    text = learn_text_counter(images, geos, boards, totals)
    if text is None:
        return None
    region, digits, threshold = text
    return LearnedCounter(region, digits, threshold, "marked/total")


def _left(board: Board | None, total: int | None) -> int:
    assert board is not None and total is not None
    return total - board.count("FX")


def _places(geos: Sequence[Geometry], use: list[int]) -> list[list[int]]:
    """Frames grouped by board place (one window position and size)."""
    out: dict[Geometry, list[int]] = {}
    for i in use:
        out.setdefault(geos[i], []).append(i)
    return list(out.values())


def _merge(into: dict[str, list[np.ndarray]], more: dict[str, list[np.ndarray]]) -> None:
    for ch, crops in more.items():
        have = into.setdefault(ch, [])
        for crop in crops:
            if not any(c.shape == crop.shape and np.array_equal(c, crop) for c in have):
                have.append(crop)


def _learn_led(
    images: Sequence[np.ndarray],
    geos: Sequence[Geometry],
    boards: Sequence[Board | None],
    totals: Sequence[int | None],
    use: list[int],
) -> LearnedCounter | None:
    """A red LED showing the mines left. Found on the window place whose frames show
    most values; its digits are then also read off the other places (the same spot
    relative to the board), so that every frame's digits are known."""
    places = sorted(
        _places(geos, use), key=lambda p: -len({_left(boards[i], totals[i]) for i in p})
    )
    first = places[0]
    ref = geos[first[0]]
    vals = [_left(boards[i], totals[i]) for i in first]
    imgs = [images[i] for i in first]
    for x0, y0, x1, y1, fy in _bands(ref, images[first[0]].shape):
        for box in sorted(_displays(imgs, (x0, y0, x1, y1))):
            found = _decode(imgs, vals, box)
            if found is None:
                continue
            digits, slots = found
            anchor_y = ref.top + fy * ref.height
            bx0, by0, bx1, by1 = box
            region: Region = (
                (0.0, float(bx0 - 4 - ref.left)),
                (float(fy), float(by0 - 4 - anchor_y)),
                (0.0, float(bx1 + 4 - ref.left)),
                (float(fy), float(by1 + 4 - anchor_y)),
            )
            for other in places[1:]:
                # The same display at the same place relative to the board.
                geo = geos[other[0]]
                dx = round(geo.left - ref.left)
                dy = round(geo.top + fy * geo.height - anchor_y)
                moved = (bx0 + dx, by0 + dy, bx1 + dx, by1 + dy)
                more = _decode_slots(
                    [images[i] for i in other],
                    [_left(boards[i], totals[i]) for i in other],
                    moved,
                    slots,
                )
                if more is not None:
                    _merge(digits, more)
            learned = LearnedCounter(region, digits, _threshold(digits))
            back = [_left(boards[i], totals[i]) for i in use]
            if _reads_back(learned, [images[i] for i in use], [geos[i] for i in use], back):
                return learned
    return None


def _threshold(digits: dict[str, list[np.ndarray]]) -> float:
    """Well under the distance between two different digits' images."""
    crops = [(ch, d.astype(np.float32)) for ch, ds in digits.items() for d in ds]
    apart = [
        float(((a - b) ** 2).mean())
        for i, (ca, a) in enumerate(crops)
        for cb, b in crops[i + 1 :]
        if ca != cb and a.shape == b.shape
    ]
    return min(60.0, min(apart) / 3) if apart else 60.0


def _reads_back(
    counter: LearnedCounter,
    images: Sequence[np.ndarray],
    geos: Sequence[Geometry],
    values: Sequence[int],
) -> bool:
    glyphs = counter.glyphs()
    for image, geo, value in zip(images, geos, values, strict=True):
        text, _ = read_text(image, glyphs, geo)
        if not text.strip().isdigit() or int(text.strip()) != value:
            return False
    return True
