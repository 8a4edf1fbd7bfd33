"""Draw what the bot sees and intends on a frame, for people to check at a glance.

One drawing for both places a person looks at the bot's mind: `msbot replay
--annotate` (saved screenshots) and `msbot play --dry-run --annotate` (the
live screen, advice to a person). The picture is cropped around the board and
enlarged so that a cell is about 44 px, then shows:

* the located grid (cyan lines) and what was read in each open cell (a small
  white tag in its corner; unsure cells boxed in magenta);
* the solver's chance of a mine on every covered cell as a heat-map (green
  safe ... red mine) with the percentage written in the cell when it is
  neither 0 nor 100;
* the intended clicks in order, numbered: a blue ring opens a cell proved
  safe, a red cross flags a proved mine, a blue square chords, and an orange
  ring with a "?" is a guess;
* a legend panel above it: skin, grid, counter, status, the symbols, the
  heat scale and every guess with its probability.

Pure drawing: no screen, no solver; the caller hands in the reading, the
probabilities and the clicks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import Geometry
from vision.reading import Reading

Picture = npt.NDArray[np.uint8]
BGR = tuple[int, int, int]

GRID: BGR = (255, 255, 0)
UNSURE: BGR = (255, 0, 255)
OPEN: BGR = (230, 90, 0)
FLAG: BGR = (0, 0, 230)
GUESS: BGR = (0, 140, 255)
CONTROL: BGR = (200, 0, 200)
TEXT: BGR = (0, 0, 0)
WHITE: BGR = (255, 255, 255)
FONT = cv2.FONT_HERSHEY_SIMPLEX
#: Cell size (px) the picture is enlarged to, at least: readable tags and numbers.
CELL_PX = 44


@dataclass(frozen=True)
class Mark:
    """One intended click to draw: what, where (cell), whether it is proved."""

    action: str
    row: int
    col: int
    certain: bool = True
    #: The chance of a mine under it (a guess's risk), when known.
    p_mine: float | None = None


def heat(p: float) -> BGR:
    """BGR from green (p=0) through yellow to red (p=1)."""
    p = min(max(p, 0.0), 1.0)
    return (0, int(255 * min(1.0, 2 * (1 - p))), int(255 * min(1.0, 2 * p)))


def marks_from_actions(
    actions: Sequence[Mapping[str, Any]],
    geometry: Geometry,
    probabilities: Sequence[Sequence[float | None]] | None,
) -> list[Mark]:
    """`msbot replay`'s actions ({"action", "x", "y"[, "row", "col", "certain"]}) as
    marks. Without a "certain" key a click is proved when its cell's probability
    is exactly 0 or 1 (how the solver marks proved cells) or unknown."""
    marks = []
    for act in actions:
        if "row" in act and "col" in act:
            row, col = int(act["row"]), int(act["col"])
        else:
            cell = geometry.cell_at(float(act["x"]), float(act["y"]))
            if cell is None:
                continue
            row, col = cell
        p = _probability(probabilities, row, col)
        certain = bool(act.get("certain", p is None or p in (0.0, 1.0)))
        marks.append(Mark(str(act["action"]), row, col, certain, p))
    return marks


def annotate(
    image: Picture,
    reading: Reading,
    probabilities: Sequence[Sequence[float | None]] | None = None,
    actions: Sequence[Mapping[str, Any]] | Sequence[Mark] = (),
    problems: Sequence[str] = (),
    *,
    offset: tuple[int, int] = (0, 0),
    title: str = "",
    crop: bool = True,
) -> Picture:
    """A new picture: `image` cropped around the board, enlarged, with the
    reading, heat-map and clicks drawn and a legend above.

    `image` was grabbed at screen position `offset` (a play region) while the
    reading, and `actions` given as dicts with "x"/"y", are in screen pixels.
    `crop=False` keeps the whole image: play's window region is already the
    board with the clone's counter and controls around it.
    """
    geo = reading.geometry.shifted(-offset[0], -offset[1])
    marks = [m for m in actions if isinstance(m, Mark)]
    marks += marks_from_actions(
        [a for a in actions if not isinstance(a, Mark)], reading.geometry, probabilities
    )
    height, width = image.shape[:2]
    x0, y0, x1, y1 = crop_box(image, geo, reading, offset) if crop else (0, 0, width, height)
    scale = max(1, round(CELL_PX / min(geo.cell_w, geo.cell_h)))
    part = image[y0:y1, x0:x1]
    out = np.asarray(
        cv2.resize(part, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST), np.uint8
    )
    canvas = _Canvas(out, geo, x0, y0, scale)
    canvas.heat_map(probabilities)
    canvas.grid()
    canvas.reading(reading, probabilities)
    canvas.unsure(reading)
    canvas.controls(reading, offset)
    for i, mark in enumerate(marks):
        canvas.mark(mark, i + 1)
    common = interior_probability(probabilities)
    legend = legend_panel(reading, marks, problems, title, max(out.shape[1], 720), common)
    return _stack(legend, canvas.out)


def crop_box(
    image: Picture, geo: Geometry, reading: Reading, offset: tuple[int, int]
) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1): the board with two cells around it and four above (the
    counter and face of most clones), widened to every control, in the image."""
    h, w = image.shape[:2]
    xs = [geo.left - 2 * geo.cell_w, geo.left + geo.width + 2 * geo.cell_w]
    ys = [geo.top - 4 * geo.cell_h, geo.top + geo.height + 2 * geo.cell_h]
    for x, y in reading.controls.values():
        xs += [x - offset[0] - geo.cell_w, x - offset[0] + geo.cell_w]
        ys += [y - offset[1] - geo.cell_h, y - offset[1] + geo.cell_h]
    x0, y0 = max(0, int(min(xs))), max(0, int(min(ys)))
    x1, y1 = min(w, int(max(xs)) + 1), min(h, int(max(ys)) + 1)
    return x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)


def interior_probability(probabilities: Sequence[Sequence[float | None]] | None) -> float | None:
    """The chance shared by most undecided cells (the cells away from every
    number all have the same one), when it is shared by at least 8 of them.

    Written in every such cell it would bury the few numbers that matter; the
    legend states it once instead.
    """
    if probabilities is None:
        return None
    values = [p for row in probabilities for p in row if p is not None and 0.0 < p < 1.0]
    if not values:
        return None
    common, count = Counter(values).most_common(1)[0]
    return common if count >= 8 else None


def _probability(
    probabilities: Sequence[Sequence[float | None]] | None, row: int, col: int
) -> float | None:
    if probabilities is None or row >= len(probabilities) or col >= len(probabilities[row]):
        return None
    return probabilities[row][col]


class _Canvas:
    """The enlarged crop and how board coordinates map onto it."""

    def __init__(self, out: Picture, geo: Geometry, x0: int, y0: int, scale: int) -> None:
        self.out = out
        self.geo = geo
        self.x0, self.y0, self.scale = x0, y0, scale
        self.cell = min(geo.cell_w, geo.cell_h) * scale

    def pt(self, x: float, y: float) -> tuple[int, int]:
        return (round((x - self.x0) * self.scale), round((y - self.y0) * self.scale))

    def box(self, r: int, c: int) -> tuple[tuple[int, int], tuple[int, int]]:
        g = self.geo
        return (
            self.pt(g.left + c * g.cell_w, g.top + r * g.cell_h),
            self.pt(g.left + (c + 1) * g.cell_w, g.top + (r + 1) * g.cell_h),
        )

    def centre(self, r: int, c: int) -> tuple[int, int]:
        (ax, ay), (bx, by) = self.box(r, c)
        return ((ax + bx) // 2, (ay + by) // 2)

    def heat_map(self, probabilities: Sequence[Sequence[float | None]] | None) -> None:
        if probabilities is None:
            return
        overlay = self.out.copy()
        for r, row in enumerate(probabilities):
            for c, p in enumerate(row):
                if p is not None:
                    a, b = self.box(r, c)
                    cv2.rectangle(overlay, a, b, heat(p), -1)
        self.out = np.asarray(cv2.addWeighted(overlay, 0.5, self.out, 0.5, 0), np.uint8)
        size = self.cell / 110
        if self.cell < 26:
            return  # too small for a number: the colour says it
        common = interior_probability(probabilities)
        for r, row in enumerate(probabilities):
            for c, p in enumerate(row):
                if p is not None and 0.0 < p < 1.0 and p != common:
                    text = f"{100 * p:.0f}" if p >= 0.01 else "<1"
                    (tw, th), _ = cv2.getTextSize(text, FONT, size, 1)
                    x, y = self.centre(r, c)
                    _halo_text(self.out, text, (x - tw // 2, y + th // 2), size, TEXT)

    def grid(self) -> None:
        g = self.geo
        for r in range(g.rows + 1):
            y = g.top + r * g.cell_h
            cv2.line(self.out, self.pt(g.left, y), self.pt(g.left + g.width, y), GRID, 1)
        for c in range(g.cols + 1):
            x = g.left + c * g.cell_w
            cv2.line(self.out, self.pt(x, g.top), self.pt(x, g.top + g.height), GRID, 1)

    def reading(
        self, reading: Reading, probabilities: Sequence[Sequence[float | None]] | None
    ) -> None:
        """What was read, as a tag in each cell's top-left corner (a covered cell
        that has a probability is already shown by the heat-map)."""
        size = max(0.3, self.cell / 120)
        (tw, th), _ = cv2.getTextSize("8", FONT, size, 1)
        for r, line in enumerate(reading.board.rows):
            for c, ch in enumerate(line):
                if ch == "." and _probability(probabilities, r, c) is not None:
                    continue
                (ax, ay), _ = self.box(r, c)
                cv2.rectangle(self.out, (ax + 1, ay + 1), (ax + tw + 4, ay + th + 5), WHITE, -1)
                cv2.putText(self.out, ch, (ax + 3, ay + th + 3), FONT, size, TEXT, 1, cv2.LINE_AA)

    def unsure(self, reading: Reading) -> None:
        for u in reading.unknown:
            a, b = self.box(u.row, u.col)
            cv2.rectangle(self.out, a, b, UNSURE, max(2, round(self.cell / 14)))

    def controls(self, reading: Reading, offset: tuple[int, int]) -> None:
        size = max(0.4, self.cell / 90)
        for name, (x, y) in reading.controls.items():
            p = self.pt(x - offset[0], y - offset[1])
            cv2.drawMarker(self.out, p, CONTROL, cv2.MARKER_DIAMOND, round(self.cell * 0.6), 2)
            _halo_text(self.out, name, (p[0] + round(self.cell * 0.35), p[1]), size, CONTROL)

    def mark(self, mark: Mark, number: int) -> None:
        """One click: its symbol on the cell and its number in a tag beside it."""
        x, y = self.centre(mark.row, mark.col)
        radius = max(4, round(self.cell * 0.36))
        width = max(2, round(self.cell / 16))
        colour = GUESS if not mark.certain else FLAG if mark.action == "flag" else OPEN
        for thick, col in ((width + 2, WHITE), (width, colour)):
            if mark.action == "flag":
                d = round(radius * 0.8)
                cv2.line(self.out, (x - d, y - d), (x + d, y + d), col, thick, cv2.LINE_AA)
                cv2.line(self.out, (x - d, y + d), (x + d, y - d), col, thick, cv2.LINE_AA)
            elif mark.action == "chord":
                cv2.rectangle(
                    self.out, (x - radius, y - radius), (x + radius, y + radius), col, thick
                )
            else:
                cv2.circle(self.out, (x, y), radius, col, thick, cv2.LINE_AA)
        label = f"{number}?" if not mark.certain else str(number)
        size = max(0.35, self.cell / 110)
        (tw, th), _ = cv2.getTextSize(label, FONT, size, 1)
        (_, ay), (bx, _) = self.box(mark.row, mark.col)
        left, top = bx - tw - 5, ay + 1
        cv2.rectangle(self.out, (left, top), (bx - 1, top + th + 5), colour, -1)
        cv2.putText(self.out, label, (left + 2, top + th + 2), FONT, size, WHITE, 1, cv2.LINE_AA)


def _halo_text(out: Picture, text: str, at: tuple[int, int], size: float, colour: BGR) -> None:
    """Text readable on any background: a white outline under the colour."""
    cv2.putText(out, text, at, FONT, size, WHITE, 3, cv2.LINE_AA)
    cv2.putText(out, text, at, FONT, size, colour, 1, cv2.LINE_AA)


def legend_panel(
    reading: Reading,
    marks: Sequence[Mark],
    problems: Sequence[str],
    title: str,
    width: int,
    common: float | None = None,
) -> Picture:
    """The white panel above the board: what it is, what each symbol means."""
    geo = reading.geometry
    line_h, size = 26, 0.55
    opens = sum(m.action == "open" and m.certain for m in marks)
    flags = sum(m.action == "flag" and m.certain for m in marks)
    chords = sum(m.action == "chord" and m.certain for m in marks)
    guesses = [m for m in marks if not m.certain]
    lines: list[tuple[str, BGR]] = []
    if title:
        lines.append((title, TEXT))
    lines.append(
        (
            f"{reading.skin}  {geo.cols}x{geo.rows} at ({geo.left:.0f}, {geo.top:.0f})"
            f"  pitch {geo.cell_w:.2f}x{geo.cell_h:.2f}",
            TEXT,
        )
    )
    lines.append(
        (
            f"mines left {reading.mines_left}   status {reading.status}"
            f"   unsure cells {len(reading.unknown)}",
            TEXT,
        )
    )
    counts = f"{len(marks)} click(s) in order: {opens} open, {flags} flag"
    counts += f", {chords} chord" if chords else ""
    counts += f", {len(guesses)} guess" if guesses else ", no guess"
    lines.append((counts, TEXT))
    for m in guesses:
        risk = f" P(mine) {100 * m.p_mine:.1f} %" if m.p_mine is not None else ""
        lines.append((f"guess: {m.action} cell ({m.row}, {m.col}){risk}", GUESS))
    lines += [(f"INCONSISTENT: {p}", FLAG) for p in problems]
    symbols_y = len(lines)
    rows = len(lines) + 2
    panel = np.full((line_h * rows + 10, width, 3), 255, dtype=np.uint8)
    for i, (text, colour) in enumerate(lines):
        cv2.putText(panel, text, (8, 20 + line_h * i), FONT, size, colour, 1, cv2.LINE_AA)
    # The symbols, drawn as on the board.
    y = 14 + line_h * symbols_y
    x = 8
    for kind, colour, text in (
        ("ring", OPEN, "open (proved safe)"),
        ("cross", FLAG, "flag (proved mine)"),
        ("square", OPEN, "chord"),
        ("ring", GUESS, "guess (n?)"),
        ("box", UNSURE, "unsure cell"),
    ):
        if kind == "ring":
            cv2.circle(panel, (x + 8, y), 8, colour, 2, cv2.LINE_AA)
        elif kind == "cross":
            cv2.line(panel, (x + 1, y - 7), (x + 15, y + 7), colour, 2, cv2.LINE_AA)
            cv2.line(panel, (x + 1, y + 7), (x + 15, y - 7), colour, 2, cv2.LINE_AA)
        else:
            cv2.rectangle(panel, (x, y - 8), (x + 16, y + 8), colour, 2)
        cv2.putText(panel, text, (x + 22, y + 6), FONT, size, TEXT, 1, cv2.LINE_AA)
        (tw, _), _ = cv2.getTextSize(text, FONT, size, 1)
        x += 22 + tw + 18
    # The heat scale.
    y = 14 + line_h * (symbols_y + 1)
    text = "covered cells, P(mine) in %:  0"
    cv2.putText(panel, text, (8, y + 6), FONT, size, TEXT, 1, cv2.LINE_AA)
    (tw, _), _ = cv2.getTextSize(text, FONT, size, 1)
    bar_x, bar_w = 8 + tw + 8, 200
    ramp = np.array([heat(i / (bar_w - 1)) for i in range(bar_w)], dtype=np.uint8)
    panel[y - 8 : y + 8, bar_x : bar_x + bar_w] = ramp[np.newaxis, :, :]
    text = "100"
    if common is not None:
        text += f"   (cells with no number: {100 * common:.0f} %)"
    cv2.putText(panel, text, (bar_x + bar_w + 8, y + 6), FONT, size, TEXT, 1, cv2.LINE_AA)
    return panel


def _stack(panel: Picture, board: Picture) -> Picture:
    """Panel above board, the narrower one padded with white on the right."""
    width = max(panel.shape[1], board.shape[1])

    def pad(p: Picture) -> Picture:
        extra = width - p.shape[1]
        if extra <= 0:
            return p
        return np.pad(p, ((0, 0), (0, extra), (0, 0)), constant_values=255)

    return np.vstack([pad(panel), pad(board)])
