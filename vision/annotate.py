"""Draw what the bot sees and intends on a frame, for people to check at a glance.

The picture shows the detected grid, each cell's reading (unsure cells boxed
in magenta), the solver's mine probabilities as a heat-map over covered cells
(green = safe ... red = mine), the intended clicks (circles: open, crosses:
flag) and a caption with skin, counter and status.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from vision.reading import Reading

GRID = (255, 255, 0)
UNSURE = (255, 0, 255)
TEXT = (0, 0, 0)


def _heat(p: float) -> tuple[int, int, int]:
    """BGR from green (p=0) through yellow to red (p=1)."""
    p = min(max(p, 0.0), 1.0)
    return (0, int(255 * min(1.0, 2 * (1 - p))), int(255 * min(1.0, 2 * p)))


def annotate(
    image: np.ndarray,
    reading: Reading,
    probabilities: Sequence[Sequence[float | None]] | None = None,
    actions: Sequence[dict[str, Any]] = (),
    problems: Sequence[str] = (),
) -> np.ndarray:
    """A copy of `image`, cropped around the board and enlarged, with the reading drawn."""
    geo = reading.geometry
    pad_x = int(geo.cell_w * 2)
    pad_y = int(geo.cell_h * 4)
    h, w = image.shape[:2]
    x0 = max(0, int(geo.left) - pad_x)
    y0 = max(0, int(geo.top) - pad_y)
    x1 = min(w, int(geo.left + geo.width) + pad_x)
    y1 = min(h, int(geo.top + geo.height) + pad_x)
    scale = max(2, round(40 / min(geo.cell_w, geo.cell_h)))
    crop = image[y0:y1, x0:x1]
    out = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
    overlay = out.copy()

    def pt(x: float, y: float) -> tuple[int, int]:
        return (round((x - x0) * scale), round((y - y0) * scale))

    if probabilities is not None:
        for r, row in enumerate(probabilities):
            for c, p in enumerate(row):
                if p is None:
                    continue
                a = pt(geo.left + c * geo.cell_w, geo.top + r * geo.cell_h)
                b = pt(geo.left + (c + 1) * geo.cell_w, geo.top + (r + 1) * geo.cell_h)
                cv2.rectangle(overlay, a, b, _heat(p), -1)
    out = cv2.addWeighted(overlay, 0.45, out, 0.55, 0)
    for r in range(geo.rows + 1):
        y = geo.top + r * geo.cell_h
        cv2.line(out, pt(geo.left, y), pt(geo.left + geo.width, y), GRID, 1)
    for c in range(geo.cols + 1):
        x = geo.left + c * geo.cell_w
        cv2.line(out, pt(x, geo.top), pt(x, geo.top + geo.height), GRID, 1)
    font = cv2.FONT_HERSHEY_SIMPLEX
    fs = 0.32 * scale * min(geo.cell_w, geo.cell_h) / 21
    for r, line in enumerate(reading.board.rows):
        for c, ch in enumerate(line):
            x, y = pt(geo.left + c * geo.cell_w + 1, geo.top + (r + 1) * geo.cell_h - 1)
            cv2.putText(out, ch, (x + 1, y - 1), font, fs, (255, 255, 255), 3, cv2.LINE_AA)
            cv2.putText(out, ch, (x + 1, y - 1), font, fs, TEXT, 1, cv2.LINE_AA)
    for u in reading.unknown:
        a = pt(geo.left + u.col * geo.cell_w, geo.top + u.row * geo.cell_h)
        b = pt(geo.left + (u.col + 1) * geo.cell_w, geo.top + (u.row + 1) * geo.cell_h)
        cv2.rectangle(out, a, b, UNSURE, 2)
    radius = max(3, int(min(geo.cell_w, geo.cell_h) * scale * 0.3))
    for act in actions:
        centre = pt(float(act["x"]), float(act["y"]))
        if act["action"] == "flag":
            d = radius
            cv2.line(
                out, (centre[0] - d, centre[1] - d), (centre[0] + d, centre[1] + d), (0, 0, 255), 2
            )
            cv2.line(
                out, (centre[0] - d, centre[1] + d), (centre[0] + d, centre[1] - d), (0, 0, 255), 2
            )
        else:
            cv2.circle(out, centre, radius, (255, 0, 0), 2)
    for name, (x, y) in reading.controls.items():
        cv2.drawMarker(out, pt(x, y), (255, 0, 255), cv2.MARKER_DIAMOND, radius * 2, 2)
        cv2.putText(out, name, pt(x + 8, y), font, 0.5, (255, 0, 255), 1, cv2.LINE_AA)
    caption = [
        f"{reading.skin}  {geo.rows}x{geo.cols} at ({geo.left:.0f}, {geo.top:.0f})"
        f"  pitch {geo.cell_w:.2f}x{geo.cell_h:.2f}",
        f"mines left {reading.mines_left}  status {reading.status}"
        f"  unsure cells {len(reading.unknown)} (magenta boxes)",
        f"{len(actions)} intended clicks: blue circle = open, red cross = flag;"
        " shading = P(mine) green..red",
        *(f"INCONSISTENT: {p}" for p in problems),
    ]
    line_h = 24
    bar = np.full((line_h * len(caption) + 8, out.shape[1], 3), 255, dtype=np.uint8)
    for i, text in enumerate(caption):
        cv2.putText(bar, text, (6, 20 + line_h * i), font, 0.6, TEXT, 1, cv2.LINE_AA)
    return np.vstack([bar, out])
