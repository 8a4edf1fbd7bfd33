"""Screen input: `Screen` (abstract), `LiveScreen` (mss), `ReplayScreen` (saved frames).

`LiveScreen` is imported lazily by its users: importing this package must not
need an X display.
"""

from vision.capture._base import Image, Region, Screen, crop, freeze, frozen

__all__ = ["Image", "Region", "Screen", "crop", "freeze", "frozen"]
