"""Screen input behind one small interface, so the play loop cannot tell a live
display from a recording (the same split pynput and python-mss make).

A `Screen` hands out BGR uint8 pictures (OpenCV's order, what the reader
matches templates in) of the whole screen or of a rectangle of it. Coordinates
are always screen pixels, so a region grab and a full grab agree on where a
cell is once the region's `left`/`top` is added back.
"""

from __future__ import annotations

import weakref
from abc import ABC, abstractmethod
from dataclasses import dataclass
from types import TracebackType

import numpy as np
import numpy.typing as npt

from bot.errors import VisionError

#: A picture as the reader wants it: height x width x 3, BGR, uint8.
Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Region:
    """A rectangle of the screen in pixels: what to grab instead of everything."""

    left: int
    top: int
    width: int
    height: int

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise VisionError(f"region {self.as_text()} is empty")
        if self.left < 0 or self.top < 0:
            raise VisionError(f"region {self.as_text()} starts off the screen")

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    def clipped(self, width: int, height: int) -> Region:
        """This region cut to a screen of `width` x `height`; error if nothing is left."""
        left, top = max(self.left, 0), max(self.top, 0)
        right, bottom = min(self.right, width), min(self.bottom, height)
        if right <= left or bottom <= top:
            raise VisionError(f"region {self.as_text()} lies outside the {width}x{height} screen")
        return Region(left, top, right - left, bottom - top)

    def as_text(self) -> str:
        return f"{self.left},{self.top},{self.width},{self.height}"

    @classmethod
    def parse(cls, text: str) -> Region:
        """Parse `L,T,W,H` (the `--region` option); a clear error for anything else."""
        parts = text.replace(" ", "").split(",")
        try:
            left, top, width, height = (int(p) for p in parts)
        except ValueError:
            raise VisionError(
                f"bad region {text!r}: expected L,T,W,H as four integers, e.g. 0,0,800,600"
            ) from None
        return cls(left, top, width, height)


class Screen(ABC):
    """Where pictures come from: a live display or a recording.

    Subclasses keep whatever connection they need for their whole life (mss
    must not be re-created per grab) and release it in `close`.
    """

    @property
    @abstractmethod
    def size(self) -> tuple[int, int]:
        """(width, height) of the whole screen in pixels."""

    @abstractmethod
    def grab(self, region: Region | None = None) -> Image:
        """The current picture of `region` (the whole screen if None), BGR uint8.

        A snapshot: read-only (`frozen`), and nothing else holds it writable,
        so whoever reads it may keep it instead of a copy (the reader keeps
        the board's pixels of its last read to see what the next one changed).
        """

    def taken(self, image: Image) -> float | None:
        """When `image` (a grab of this screen, or a view of one) was taken, in
        `time.monotonic()` seconds; None when the screen does not know (a
        recording's frames have no such time). Recordings store it, so that a
        reading can be set beside what the game itself logged at that moment
        (the clone zoo's judge)."""
        return None

    def close(self) -> None:  # noqa: B027 - optional hook, most screens hold nothing
        """Release the display connection or files; idempotent."""

    def __enter__(self) -> Screen:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def freeze(image: Image) -> Image:
    """`image`, made read-only: for an array nothing else holds writable (a
    screen's fresh snapshot), which then never changes (`frozen`)."""
    image.flags.writeable = False
    return image


def frozen(image: Image) -> bool:
    """Whether `image` can never change: read-only, and so is every array it
    is a view of (a read-only view of a writable array is not)."""
    array: object = image
    while isinstance(array, np.ndarray):
        if array.flags.writeable:
            return False
        array = array.base
    return array is None or isinstance(array, bytes)


class GrabTimes:
    """The times of a screen's recent grabs, by picture: weak references, so
    that a picture nobody keeps is not kept alive for its time."""

    def __init__(self, keep: int = 256) -> None:
        self.keep = keep
        self._times: dict[int, tuple[weakref.ref[Image], float]] = {}

    def note(self, image: Image, when: float) -> None:
        if len(self._times) >= self.keep:
            for key in [k for k, (ref, _) in self._times.items() if ref() is None]:
                del self._times[key]
            while len(self._times) >= self.keep:
                del self._times[next(iter(self._times))]
        self._times[id(image)] = (weakref.ref(image), when)

    def of(self, image: Image) -> float | None:
        """The time of `image`, or of the grab it is a view of."""
        array: object = image
        while isinstance(array, np.ndarray):
            found = self._times.get(id(array))
            if found is not None and found[0]() is array:
                return found[1]
            array = array.base
        return None


def crop(image: Image, region: Region | None) -> Image:
    """`region` of a full-screen `image` (a view, no copy); error if it does not fit."""
    if region is None:
        return image
    height, width = image.shape[:2]
    if region.right > width or region.bottom > height:
        raise VisionError(
            f"region {region.as_text()} does not fit the {width}x{height} screen picture"
        )
    return image[region.top : region.bottom, region.left : region.right]
