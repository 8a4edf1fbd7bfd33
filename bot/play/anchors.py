"""Is the board still where it was? A few pixels around it, checked before each click.

The loop clicks a batch of cells from one reading, and a window moved in the
meantime takes those clicks somewhere else: another window, the desktop. A
reading after the batch notices, too late. So before each click the actuator
asks `Anchors.moved`: a few small patches just outside the grid's corners
(the clone's frame, margin or background: what a game never redraws while it
is played), grabbed again (four 4x4 grabs, well under a millisecond) and
compared with how they looked in the last reading. A window moved, closed or
covered at a corner changes them; then the caller reads the board again before
any click, and stops if it is not where it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.errors import MsbotError
from vision.capture import Image, Region, Screen
from vision.geometry import Geometry

#: Side of a patch, and its distance from the grid's corner, in pixels.
SIZE, GAP = 4, 2
#: Mean difference per colour value above which a patch has changed (a
#: redraw of the same frame differs by a few units at most).
TOLERANCE = 12.0


@dataclass(frozen=True)
class Anchors:
    """Patches of the screen (screen coordinates) and the pixels they showed."""

    patches: tuple[tuple[Region, np.ndarray], ...]

    @staticmethod
    def around(image: Image, origin: tuple[int, int], grid: Geometry) -> Anchors:
        """The corner patches of `grid` (screen pixels) in `image`, a grab whose
        top-left pixel is the screen's `origin`; the corners the grab does not
        hold (a board against the screen's edge) are left out."""
        left, top = round(grid.left), round(grid.top)
        right, bottom = round(grid.left + grid.width), round(grid.top + grid.height)
        near, far = GAP + SIZE, GAP
        corners = [
            (left - near, top - near),
            (right + far, top - near),
            (left - near, bottom + far),
            (right + far, bottom + far),
        ]
        height, width = image.shape[:2]
        patches = []
        for x, y in corners:
            ix, iy = x - origin[0], y - origin[1]
            if x < 0 or y < 0 or ix < 0 or iy < 0 or ix + SIZE > width or iy + SIZE > height:
                continue
            pixels = np.array(image[iy : iy + SIZE, ix : ix + SIZE], np.float32)
            patches.append((Region(x, y, SIZE, SIZE), pixels))
        return Anchors(tuple(patches))

    def moved(self, screen: Screen) -> Region | None:
        """The first patch that no longer shows what it showed (None: all do)."""
        for region, pixels in self.patches:
            try:
                now = np.asarray(screen.grab(region), np.float32)
            except MsbotError:  # a patch the screen cannot give any more has changed
                return region
            if now.shape != pixels.shape or float(np.abs(now - pixels).mean()) > TOLERANCE:
                return region
        return None
