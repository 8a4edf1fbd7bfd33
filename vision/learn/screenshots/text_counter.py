"""Find a text mine counter ("3/10", "Marked: 3 / 10") near the board and learn its glyphs.

GNOME Mines writes "flags/mines" beside the board, sgt-mines "Marked: n / mines"
below it: ordinary anti-aliased text, no LED. With the mine total known, every
frame whose cells are all named says what such a counter must show: the flags
(right or wrong) on the board, a slash, the total. Text near the board is cut
into pieces (lines of ink on the window's background colour, split where the
gap is wider than the text is tall) and each piece into glyphs (runs of inked
columns). A piece is the counter when one glyph image per character explains
the expected text on every frame it shows it, as the same piece of the window
(the same place relative to the board), with at least two different values
seen: text that never changes (a button, a title) then cannot pass for it.
The result is read back on every frame with `vision.glyphs.read_text`, as the
reader will read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import Board
from vision.counter import parse_counter
from vision.geometry import Geometry
from vision.glyphs import read_text
from vision.skin import Glyphs, Region

#: Grey-level difference from the background that is ink.
INK = 70
#: Two glyph crops closer than this (mean squared grey difference) are one character.
SAME_GLYPH = 150.0
#: How far from the board text is looked for: this many cells, at least MARGIN_PX.
MARGIN_CELLS = 4
MARGIN_PX = 150
FORMAT = "marked/total"


@dataclass(frozen=True)
class _Piece:
    """A piece of text on one frame: its box and its glyphs' column runs (image x)."""

    x0: int
    y0: int
    x1: int
    y1: int
    runs: tuple[tuple[int, int], ...]


def ink_runs(profile: np.ndarray, gap: int = 0) -> list[tuple[int, int]]:
    """[start, end) runs of True, joining runs separated by at most `gap` False entries."""
    runs: list[list[int]] = []
    for i in np.nonzero(profile)[0].tolist():
        if runs and i - runs[-1][1] <= gap:
            runs[-1][1] = i + 1
        else:
            runs.append([i, i + 1])
    return [(a, b) for a, b in runs]


def _area(geo: Geometry, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    height, width = shape[:2]
    m = round(max(MARGIN_CELLS * max(geo.cell_w, geo.cell_h), MARGIN_PX))
    return (
        max(0, round(geo.left) - m),
        max(0, round(geo.top) - m),
        min(width, round(geo.left + geo.width) + m),
        min(height, round(geo.top + geo.height) + m),
    )


def _pieces(image: np.ndarray, geo: Geometry) -> list[_Piece]:
    """The pieces of text around the board (see the module docstring)."""
    ax0, ay0, ax1, ay1 = _area(geo, image.shape)
    grey = cv2.cvtColor(image[ay0:ay1, ax0:ax1], cv2.COLOR_BGR2GRAY)
    bx0, by0 = round(geo.left) - ax0 - 3, round(geo.top) - ay0 - 3
    bx1, by1 = round(geo.left + geo.width) - ax0 + 3, round(geo.top + geo.height) - ay0 + 3
    # The window's background: the commonest grey in a band around the board (the
    # screen beyond the window may be larger than the window and another colour).
    ring = np.zeros(grey.shape, bool)
    ring[max(0, by0 - 40) : max(0, by1 + 40), max(0, bx0 - 40) : max(0, bx1 + 40)] = True
    ring[max(0, by0 - 5) : max(0, by1 + 5), max(0, bx0 - 5) : max(0, bx1 + 5)] = False
    bg = int(np.bincount(grey[ring], minlength=256).argmax()) if ring.any() else 255
    ink = np.abs(grey.astype(np.int16) - bg) > INK
    ink[max(0, by0) : max(0, by1), max(0, bx0) : max(0, bx1)] = False
    # Only glyph-sized blobs: window edges and frames are long lines that would
    # join every row into one band.
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink.view(np.uint8), connectivity=8)
    w, h = stats[:, 2], stats[:, 3]
    keep = (h >= 4) & (h <= 60) & (w <= 3 * h + 10)
    keep[0] = False
    ink = keep[labels]
    out = []
    for top, bottom in ink_runs(ink.any(axis=1)):
        tall = bottom - top
        if tall < 5 or tall > 80:
            continue
        band = ink[top:bottom]
        for a, b in ink_runs(band.any(axis=0), gap=tall):
            part = band[:, a:b]
            rows = np.nonzero(part.any(axis=1))[0]
            out.append(
                _Piece(
                    ax0 + a,
                    ay0 + top + int(rows[0]),
                    ax0 + b,
                    ay0 + top + int(rows[-1]) + 1,
                    tuple((ax0 + a + g0, ax0 + a + g1) for g0, g1 in _glyphs(part)),
                )
            )
    return out


def _glyphs(part: np.ndarray) -> list[tuple[int, int]]:
    """Column spans of the glyphs of a piece: its connected blobs, left to right, a blob
    mostly within another's columns joined to it (the dots of ":", "i"). Anti-aliased
    glyphs share columns ("/1"), so columns alone would join them."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(part.view(np.uint8), connectivity=8)
    spans = sorted((int(x), int(x + w)) for x, _, w, _, _ in stats[1:n].tolist())
    out: list[list[int]] = []
    for a, b in spans:
        if out:
            pa, pb = out[-1]
            overlap = min(b, pb) - max(a, pa)
            if overlap > 0.5 * min(b - a, pb - pa):
                out[-1] = [min(a, pa), max(b, pb)]
                continue
        out.append([a, b])
    return [(a, b) for a, b in out]


def _crops(image: np.ndarray, piece: _Piece, runs: Sequence[tuple[int, int]]) -> list[np.ndarray]:
    """The glyphs cut on the rows their own ink spans (not the piece's: a "[" or "("
    beside them reaches lower, and blank rows would make any two glyphs look alike)."""
    x0, x1 = runs[0][0], runs[-1][1]
    box = cv2.cvtColor(image[piece.y0 : piece.y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.int16)
    bg = int(np.bincount(box.reshape(-1).clip(0, 255), minlength=256).argmax())
    rows = np.nonzero((np.abs(box - bg) > INK).any(axis=1))[0]
    top, bottom = piece.y0 + int(rows[0]) - 1, piece.y0 + int(rows[-1]) + 2
    return [image[top:bottom, a:b] for a, b in runs]


class _Alphabet:
    """Glyph crops per character (and their grey levels); two characters never share a look."""

    def __init__(self) -> None:
        self.crops: dict[str, list[np.ndarray]] = {}
        self.greys: list[tuple[str, np.ndarray]] = []

    def copy(self) -> _Alphabet:
        other = _Alphabet()
        other.crops = {k: list(v) for k, v in self.crops.items()}
        other.greys = list(self.greys)
        return other

    def fit(self, chars: Sequence[str], crops: Sequence[np.ndarray]) -> int | None:
        """Add the crops as the characters: how many matched a known look, or None on a
        contradiction (a character looking like another one, or unlike itself)."""
        agree = 0
        for ch, crop in zip(chars, crops, strict=True):
            grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
            alike = {k for k, g in self.greys if _alike(grey, g)}
            if alike - {ch}:
                return None
            if ch in alike:
                agree += 1
                continue
            if ch in self.crops:
                return None  # one font: a character has one look (give or take a pixel)
            self.crops[ch] = [crop.copy()]
            self.greys.append((ch, grey))
        return agree


def _alike(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two grey glyph crops show the same glyph: sizes within a pixel, and the
    common part at its best offset within SAME_GLYPH."""
    if abs(a.shape[0] - b.shape[0]) > 1 or abs(a.shape[1] - b.shape[1]) > 1:
        return False
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    best = min(
        float(((a[ay : ay + h, ax : ax + w] - b[by : by + h, bx : bx + w]) ** 2).mean())
        for ay in range(a.shape[0] - h + 1)
        for ax in range(a.shape[1] - w + 1)
        for by in range(b.shape[0] - h + 1)
        for bx in range(b.shape[1] - w + 1)
    )
    return best <= SAME_GLYPH


def _expected(board: Board, total: int) -> list[str]:
    return [*str(board.count("FX")), "/", *str(total)]


def _region(boxes: list[tuple[int, int, int, int, Geometry]], pad: int) -> Region:
    """The boxes (image coordinates, with their frames' grids) relative to the board.

    Text right of the board (GNOME Mines) is anchored to its right edge. Text above
    or below it (a status bar) may sit anywhere along the board as its size changes,
    so the region spans the board's whole width and more: a region edge through
    the text would cut "17 / 99" to a confident "7 / 9"."""
    right = all(x0 >= g.left + g.width for x0, _, _, _, g in boxes)
    below = all(y0 >= g.top + g.height for _, y0, _, _, g in boxes)
    fy = float(below)
    ys = [(y0 - g.top - fy * g.height, y1 - g.top - fy * g.height) for _, y0, _, y1, g in boxes]
    if right:
        xs = [(x0 - g.left - g.width, x1 - g.left - g.width) for x0, _, x1, _, g in boxes]
        fx0 = fx1 = 1.0
        dx0, dx1 = min(a for a, _ in xs) - pad, max(b for _, b in xs) + pad
    else:
        fx0, fx1 = 0.0, 1.0
        dx0 = min(0.0, min(x0 - g.left for x0, _, _, _, g in boxes)) - pad
        dx1 = max(0.0, max(x1 - g.left - g.width for _, _, x1, _, g in boxes)) + pad
    return (
        (fx0, float(dx0)),
        (fy, float(min(a for a, _ in ys) - 4)),
        (fx1, float(dx1)),
        (fy, float(max(b for _, b in ys) + 4)),
    )


def _place(piece: _Piece, geo: Geometry) -> float:
    """The piece's vertical middle relative to the board: to its bottom edge when below
    it (a status bar follows the board's height), else to its top."""
    middle = (piece.y0 + piece.y1) / 2
    bottom = geo.top + geo.height
    return middle - bottom + 10_000 if piece.y0 >= bottom else middle - geo.top


def learn_text_counter(
    images: Sequence[np.ndarray],
    geos: Sequence[Geometry],
    boards: Sequence[Board | None],
    totals: Sequence[int | None],
) -> tuple[Region, dict[str, list[np.ndarray]], float] | None:
    """(region, glyph images per character, threshold) of a text counter, or None."""
    use = [i for i, b in enumerate(boards) if b is not None and totals[i] is not None]
    want = {i: _expected(boards[i], int(totals[i])) for i in use}  # type: ignore[arg-type]
    if len({"".join(want[i]) for i in use}) < 2:
        return None  # one value only: any unchanging text would pass for the counter
    pieces = {i: _pieces(images[i], geos[i]) for i in use}
    options = {
        i: [
            (p, k)
            for p in pieces[i]
            for k in range(len(p.runs) - len(want[i]) + 1)
            if len(p.runs) >= len(want[i])
        ]
        for i in use
    }
    seed_frame = min((i for i in use if options[i]), key=lambda i: len(options[i]), default=None)
    if seed_frame is None:
        return None
    best: tuple[int, _Alphabet, list[tuple[int, _Piece, int]]] | None = None
    for seed in options[seed_frame]:
        alphabet = _Alphabet()
        chosen: list[tuple[int, _Piece, int]] = []
        order = [seed_frame] + [i for i in use if i != seed_frame]
        anchor = _place(seed[0], geos[seed_frame])
        for i in order:
            picks = [seed] if i == seed_frame else options[i]
            found: tuple[int, _Alphabet, _Piece, int] | None = None
            for piece, k in picks:
                if abs(_place(piece, geos[i]) - anchor) > 4:
                    continue
                trial = alphabet.copy()
                runs = piece.runs[k : k + len(want[i])]
                agree = trial.fit(want[i], _crops(images[i], piece, runs))
                if agree is not None and (found is None or agree > found[0]):
                    found = (agree, trial, piece, k)
            if found is not None:
                alphabet = found[1]
                chosen.append((i, found[2], found[3]))
        values = {"".join(want[i]) for i, _, _ in chosen}
        if len(values) >= 2 and (best is None or len(chosen) > best[0]):
            best = (len(chosen), alphabet, chosen)
    if best is None:
        return None
    _, alphabet, chosen = best
    boxes = []
    for i, piece, k in chosen:
        runs = piece.runs[k : k + len(want[i])]
        boxes.append((runs[0][0], piece.y0, runs[-1][1], piece.y1, geos[i]))
    width = max(b - a for _, piece, _ in chosen for a, b in piece.runs)
    region = _region(boxes, 3 * width + 4)
    looks = alphabet.greys
    apart = [
        float(((a - b) ** 2).mean())
        for n, (ca, a) in enumerate(looks)
        for cb, b in looks[n + 1 :]
        if ca != cb and a.shape == b.shape
    ]
    top = min(SAME_GLYPH, min(apart) / 3) if apart else SAME_GLYPH
    shown = {i for i, _, _ in chosen}
    # The loosest threshold at which no other text (letters, a clock) reads as
    # digits on any frame: each frame's counter must read exactly, or not at all.
    for threshold in (top, top / 2, top / 4):
        glyphs = Glyphs(region, {k: tuple(v) for k, v in alphabet.crops.items()}, threshold)
        if _reads_back(images, geos, boards, totals, use, shown, glyphs):
            return region, alphabet.crops, threshold
    return None


def _reads_back(
    images: Sequence[np.ndarray],
    geos: Sequence[Geometry],
    boards: Sequence[Board | None],
    totals: Sequence[int | None],
    use: Sequence[int],
    shown: set[int],
    glyphs: Glyphs,
) -> bool:
    for i in use:
        value = parse_counter(read_text(images[i], glyphs, geos[i])[0], FORMAT)
        expected = int(totals[i]) - boards[i].count("FX")  # type: ignore[arg-type,union-attr]
        if value != expected and (i in shown or value is not None):
            return False
    return True
