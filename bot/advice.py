"""`msbot play --dry-run --annotate DIR`: the advice drawn on the picture.

People look at a picture rather than read coordinates: covered cells are
tinted by their chance of hiding a mine (green safe ... red mine), each
intended click is circled (green: certain open, red: flag, orange: guess),
and the located grid is outlined.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.capture import Image
from vision.reading import Reading

GREEN = (0, 170, 0)
RED = (0, 0, 220)
ORANGE = (0, 140, 255)
BLUE = (200, 80, 0)


def annotate(
    image: Image,
    reading: Reading,
    clicks: Sequence[tuple[str, int, int, bool]],
    probabilities: Sequence[Sequence[float | None]] | None,
    offset: tuple[int, int] = (0, 0),
) -> Image:
    """A copy of `image` (grabbed at screen `offset`) with grid, heat-map and clicks.

    `clicks` are (action, row, col, certain) in the order they would be made.
    """
    out = image.copy()
    g = reading.geometry.shifted(-offset[0], -offset[1])
    if probabilities is not None:
        overlay = out.copy()
        for r, row in enumerate(probabilities):
            for c, p in enumerate(row):
                if p is None:
                    continue
                x0, y0 = round(g.left + c * g.cell_w), round(g.top + r * g.cell_h)
                x1, y1 = round(x0 + g.cell_w) - 1, round(y0 + g.cell_h) - 1
                colour = tuple(int(v) for v in np.array(GREEN) * (1 - p) + np.array(RED) * p)
                cv2.rectangle(overlay, (x0, y0), (x1, y1), colour, -1)
        out = np.asarray(cv2.addWeighted(overlay, 0.35, out, 0.65, 0), dtype=np.uint8)
    top_left = (round(g.left), round(g.top))
    bottom_right = (round(g.left + g.width), round(g.top + g.height))
    cv2.rectangle(out, top_left, bottom_right, BLUE, 1)
    radius = max(3, round(min(g.cell_w, g.cell_h) * 0.4))
    for i, (action, r, c, certain) in enumerate(clicks):
        x, y = g.cell_center(r, c)
        colour = RED if action == "flag" else GREEN if certain else ORANGE
        cv2.circle(out, (x, y), radius, colour, 2)
        if i < 99:
            cv2.putText(
                out, str(i + 1), (x - radius, y - radius), cv2.FONT_HERSHEY_PLAIN, 0.8, colour, 1
            )
    result: Image = out
    return result
