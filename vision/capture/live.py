"""The live screen through mss, on X11, Windows and macOS (about 0.1 ms for a board region on X11).

mss captures every platform the same way; what differs is set up in
`vision.capture.platforms`: X11 needs a display name (given explicitly,
because DISPLAY may be set but empty, or point at the wrong server when tests
run their own Xvfb), Windows a DPI-aware process (otherwise Windows scales
the capture and the mouse apart), and a Wayland session cannot be captured at
all (one clear error says what works instead).

Coordinates are the capture's pixels, its top-left corner (0, 0), on every
platform. mss itself works in the desktop's units: pixels on X11 and Windows,
points on macOS, where a Retina screen gives two pixels per point. The ratio
(`scale`) is measured at start by a small grab, and regions are converted, so
that a grab of a region always has exactly that many pixels. `origin` and
`extent` (mss units, the mouse's units too) are what the mouse needs to map
pixels to its own coordinates (`bot.actuator.points`).

One mss instance per process for its whole life: creating a second one after
closing the first fails now and then with "Cannot connect to display" (see
shared/clones.md).
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any

import numpy as np

from bot.errors import VisionError
from vision.capture._base import GrabTimes, Image, Region, Screen, freeze
from vision.capture.platforms import open_mss

#: Side, in mss units, of the grab that measures pixels per unit.
PROBE = 16


class LiveScreen(Screen):
    """Grabs the whole desktop (every monitor); on X11 from `display` (default
    $DISPLAY). `platform` is `sys.platform` (given by tests)."""

    def __init__(self, display: str | None = None, platform: str = sys.platform) -> None:
        self._mss: Any
        self._mss, self.display = open_mss(display, platform)
        self.platform = platform
        monitor = self._mss.monitors[0]
        #: The capture's top-left corner and size in mss units (the mouse's).
        self.origin = (int(monitor["left"]), int(monitor["top"]))
        self.extent = (int(monitor["width"]), int(monitor["height"]))
        self._closed = False
        self._times = GrabTimes()
        #: Capture pixels per mss unit (2 on a Retina screen, else 1).
        self.scale = self._measure_scale()
        self._size = (round(self.extent[0] * self.scale), round(self.extent[1] * self.scale))

    def _measure_scale(self) -> float:
        side = max(1, min(PROBE, *self.extent))
        box = {"left": self.origin[0], "top": self.origin[1], "width": side, "height": side}
        try:
            shot = self._mss.grab(box)
        except Exception as exc:
            raise VisionError(f"cannot capture the screen: {exc}") from exc
        scale = float(shot.width) / side
        if not 0.5 <= scale <= 4:
            raise VisionError(f"the capture gives {scale:.2f} pixels per screen unit: unsupported")
        return scale

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    def grab(self, region: Region | None = None) -> Image:
        if self._closed:
            raise VisionError("the screen was closed")
        width, height = self._size
        box = (region or Region(0, 0, width, height)).clipped(width, height)
        s = self.scale
        # The units covering the region, then exactly its pixels out of them.
        left, top = math.floor(box.left / s), math.floor(box.top / s)
        right, bottom = math.ceil(box.right / s), math.ceil(box.bottom / s)
        started = time.monotonic()
        try:
            shot = self._mss.grab(
                {
                    "left": left + self.origin[0],
                    "top": top + self.origin[1],
                    "width": right - left,
                    "height": bottom - top,
                }
            )
        except Exception as exc:
            raise VisionError(f"screen grab of {box.as_text()} failed: {exc}") from exc
        bgra = np.frombuffer(shot.bgra, dtype=np.uint8).reshape(shot.height, shot.width, 4)
        if s != 1.0:
            dx, dy = box.left - round(left * s), box.top - round(top * s)
            bgra = bgra[dy : dy + box.height, dx : dx + box.width]
            if bgra.shape[:2] != (box.height, box.width):
                raise VisionError(f"screen grab of {box.as_text()} came back short")
        # Drop alpha; the copy makes the array contiguous and independent of
        # mss' buffer, and nothing else holds it: a snapshot (`Screen.grab`).
        image = freeze(np.ascontiguousarray(bgra[:, :, :3]))
        self._times.note(image, (started + time.monotonic()) / 2)
        return image

    def taken(self, image: Image) -> float | None:
        return self._times.of(image)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._mss.close()
