"""From captured pixels to the mouse's coordinates: measured, never assumed to be 1.

The eyes see pixels of the capture (mss: the whole virtual screen, every
monitor, its top-left corner at the capture's origin); the hands move in the
mouse's coordinates. They agree on X11 and on a DPI-aware Windows process. On
a macOS Retina screen the capture has two pixels per mouse point; on Windows
without DPI awareness, 1.25 to 2 pixels per point; a monitor left of or above
the primary one puts the capture's origin at negative coordinates. So the
mapping is measured when the mouse is opened, from the capture's size and
origin against the mouse's own screen size and origin (`PointMap.measure`),
and every click goes through it. The `Actuator` checks that a click's point,
mapped back to pixels, still lands in its cell: at 125 % two neighbouring
pixels share one point, and a rounding that crossed a cell edge would click
the neighbour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.errors import ActuatorError


@dataclass(frozen=True)
class PointMap:
    """Capture pixel (x, y) -> mouse point (ox + x / sx, oy + y / sy)."""

    #: Capture pixels per mouse point along each axis.
    scale_x: float = 1.0
    scale_y: float = 1.0
    #: The capture's top-left corner in mouse points (negative with a monitor
    #: left of or above the primary one).
    origin_x: float = 0.0
    origin_y: float = 0.0

    @staticmethod
    def measure(
        capture_size: tuple[int, int],
        capture_origin: tuple[float, float],
        mouse_size: tuple[float, float],
    ) -> PointMap:
        """The mapping of a capture of `capture_size` pixels onto the same area
        of the mouse's space: `mouse_size` points, its top-left corner at
        `capture_origin` points. `ActuatorError` when a size is empty or the
        scale is no desktop's (the capture would be of another screen)."""
        (cw, ch), (mw, mh) = capture_size, mouse_size
        if min(cw, ch, mw, mh) <= 0:
            raise ActuatorError(f"cannot map a {cw}x{ch} capture onto a {mw}x{mh} mouse screen")
        sx, sy = cw / mw, ch / mh
        if not (0.5 <= sx <= 4 and 0.5 <= sy <= 4):
            raise ActuatorError(
                f"the capture ({cw}x{ch} pixels) and the mouse's screen ({mw}x{mh} points) "
                "do not match: is the capture of another screen?"
            )
        return PointMap(sx, sy, float(capture_origin[0]), float(capture_origin[1]))

    @property
    def identity(self) -> bool:
        return (self.scale_x, self.scale_y, self.origin_x, self.origin_y) == (1, 1, 0, 0)

    def to_mouse(self, x: float, y: float) -> tuple[int, int]:
        """The mouse point under the centre of capture pixel (x, y)."""
        return (
            math.floor(self.origin_x + (x + 0.5) / self.scale_x),
            math.floor(self.origin_y + (y + 0.5) / self.scale_y),
        )

    def to_pixels(self, x: int, y: int) -> tuple[float, float]:
        """The capture pixel under the centre of mouse point (x, y)."""
        return (
            (x + 0.5 - self.origin_x) * self.scale_x - 0.5,
            (y + 0.5 - self.origin_y) * self.scale_y - 0.5,
        )
