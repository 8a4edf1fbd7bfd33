"""What a clone draws around its board: a board is found whole or not at all.

A grid of cells says nothing about where the board ends: a row hidden by
another window, or drawn in a look the skin has not learned, leaves a grid
one row short that reads as a whole, smaller board, and the solver then
proves "certain" cells of a board that is not there. So a skin may describe
its board's surroundings: on each side, the band of pixels just outside the
outer cells (a frame, a margin, the window's background), as the clone drew
it on a fresh board. A located grid is a whole board only when the band
outside it on every side is that band: one row short, the band outside the
grid is a row of cells; cut by the screen edge, there is no band at all.

Two descriptions, one test ("is every side closed?"):

- `Border`, learned from a fresh board by msbot itself: the bands of pixels
  just outside each side, compared resampled along the side (boards of other
  sizes have longer sides) as the mean squared difference per colour value;
- `DrawnBorder`, written by hand for a built-in skin (`templates/*/skin.json`),
  because a clone's frame does not scale like its cells: sgt-mines' bevel is
  0.15 of a tile, minegauler's frame 5 + 5 px at every cell size, GNOME
  Mines' margin a plain window background, and a fitted grid may sit a pixel
  or two off. It lists, per side, spans of distance from the grid's edge
  (pixels at the clone's own scale plus cell pitches) and the colour every
  line in them shows along the side. A white, black or window-coloured box
  over the last row shows other colours there than the frame (xdemineur's
  black line, sgt-mines' bevel, minegauler's two-tone frame): the side is
  open. A box of exactly the colour of the clone's surroundings, over them
  and the last row alike, cannot be told from them (GNOME Mines: its plain
  background).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import Geometry

SIDES = ("top", "bottom", "left", "right")
#: Points a band is resampled to along its side.
ALONG = 32
#: A band this close to the skin's is the same surroundings; the bands of one
#: clone's fresh boards differ by a few units, a band of cells by thousands.
LIMIT = 300.0


@dataclass(frozen=True)
class Border:
    """The bands around a board, one per side: (ALONG, thickness, 3) float32."""

    thickness: int
    bands: Mapping[str, np.ndarray]
    limit: float = LIMIT
    #: Other bands a side may show, each seen around the same board in play: a
    #: clone that frames its finished board otherwise (xbomb draws it in green).
    more: tuple[Mapping[str, np.ndarray], ...] = ()

    def with_variant(self, other: Border) -> Border:
        """This border plus the sides of `other` that differ from every known band
        (`other` must come from the same board, seen whole)."""
        new = {
            side: b
            for side, b in other.bands.items()
            if not any(_close(b, known, self.limit) for known in self.choices(side))
        }
        if not new or other.thickness != self.thickness:
            return self
        return Border(self.thickness, self.bands, self.limit, (*self.more, new))

    def choices(self, side: str) -> list[np.ndarray]:
        """Every band known for `side`."""
        return [self.bands[side], *(m[side] for m in self.more if side in m)]

    def open_sides(self, image: np.ndarray, geo: Geometry, scale: float = 1.0) -> list[str]:
        """The sides of `geo` whose band is not the border's (the board goes on, or
        something covers its edge, or the screen cuts it). Bands are compared as
        they were learned, at the scale they were seen at: `scale` is unused,
        there for the same call as `DrawnBorder.open_sides`."""
        out = []
        for side in SIDES:
            now = band(image, geo, side, self.thickness)
            if now is None or not any(
                _close(now, want, self.limit)
                or (
                    self.thickness >= OUTER_FROM
                    and _close(_outer(now, side), _outer(want, side), self.limit)
                )
                for want in self.choices(side)
            ):
                out.append(side)
        return out


#: Bands this thick or more also close their side by their outer lines alone.
OUTER_FROM = 3


def _outer(b: np.ndarray, side: str) -> np.ndarray:
    """Band `b` of `side` without its line next to the cells: a grid found a
    pixel off puts the cells' first pixels there, drawn otherwise by every
    kind (zoo seed 1661291106: a raised cell's white edge where an open cell's
    outline was learned, and a new game was taken for no board closed there)."""
    return b[:-1] if side in ("top", "left") else b[1:]


def _close(a: np.ndarray, b: np.ndarray, limit: float) -> bool:
    return a.shape == b.shape and float(((a - b) ** 2).mean()) <= limit


def thickness_for(geo: Geometry) -> int:
    """Band thickness for a board of these cells: a sixth of a cell, 2 px at least."""
    return int(max(2, round(min(geo.cell_w, geo.cell_h) / 6)))


def band(image: np.ndarray, geo: Geometry, side: str, thickness: int) -> np.ndarray | None:
    """The band of `side` (None when it leaves the image: a board cut off)."""
    height, width = image.shape[:2]
    x0, y0 = round(geo.left), round(geo.top)
    x1, y1 = round(geo.left + geo.width), round(geo.top + geo.height)
    t = thickness
    boxes = {
        "top": (x0, y0 - t, x1, y0),
        "bottom": (x0, y1, x1, y1 + t),
        "left": (x0 - t, y0, x0, y1),
        "right": (x1, y0, x1 + t, y1),
    }
    bx0, by0, bx1, by1 = boxes[side]
    if bx0 < 0 or by0 < 0 or bx1 > width or by1 > height or bx1 <= bx0 or by1 <= by0:
        return None
    crop = np.asarray(image[by0:by1, bx0:bx1], np.float32)
    if side in ("left", "right"):
        crop = crop.transpose(1, 0, 2)  # along the side first
    # The band is `thickness` rows deep and runs along the side: resample along it.
    return np.asarray(cv2.resize(crop, (ALONG, t), interpolation=cv2.INTER_AREA))


def learn_border(image: np.ndarray, geo: Geometry) -> Border | None:
    """The bands around the board on `image` (a fresh board); None if one leaves it."""
    t = thickness_for(geo)
    bands = {side: band(image, geo, side, t) for side in SIDES}
    if any(b is None for b in bands.values()):
        return None
    return Border(t, {side: b for side, b in bands.items() if b is not None})


@dataclass(frozen=True)
class Span:
    """Lines at distances [start, end) outside the grid's edge, each distance
    (pixels at the clone's scale, cell pitches), all of one colour (BGR)."""

    start: tuple[float, float]
    end: tuple[float, float]
    colour: tuple[int, int, int]

    def lines(self, pitch: float, scale: float) -> range:
        """The pixel lines (0 = the first outside the grid) wholly inside the span;
        at a desktop scale a pixel less at each end, where the compositor blends
        this colour with the next."""
        a = self.start[0] * scale + self.start[1] * pitch
        b = self.end[0] * scale + self.end[1] * pitch
        if scale != 1.0:
            a, b = a + 1.0, b - 1.0
        return range(math.ceil(a - 1e-6), math.floor(b + 1e-6))


@dataclass(frozen=True)
class DrawnBorder:
    """A built-in skin's border, as spans per side (see the module docstring).

    A side is closed when one of its alternatives (a list of spans) holds at
    one shift of at most `slack` (pixels at the clone's scale, cell pitches:
    a grid fitted to scaled cells may sit a little off): on every line of
    every span, at least `share` of the pixels along the side are within
    `tolerance` of the span's colour in each channel.
    """

    sides: Mapping[str, tuple[tuple[Span, ...], ...]]
    tolerance: float = 12.0
    share: float = 0.9
    slack: tuple[float, float] = (1.0, 0.0)

    def open_sides(self, image: np.ndarray, geo: Geometry, scale: float = 1.0) -> list[str]:
        """The sides of `geo` this border does not close."""
        return [s for s in SIDES if not self._closed(image, geo, s, scale)]

    def _closed(self, image: np.ndarray, geo: Geometry, side: str, scale: float) -> bool:
        pitch = geo.cell_h if side in ("top", "bottom") else geo.cell_w
        slack = math.ceil(self.slack[0] * scale + self.slack[1] * pitch - 1e-6)
        for spans in self.sides[side]:
            lines = [span.lines(pitch, scale) for span in spans]
            if not any(lines):
                continue  # spans too thin to see at this size close nothing
            reach = max(r.stop for r in lines)
            profile = _lines_outside(image, geo, side, reach + slack, slack)
            # A picture that ends inside the border (a screenshot cropped to the
            # board) shows only its first lines: those must hold, and enough of
            # them must be there to tell a border from cells.
            if profile is None or len(profile) - slack < min(reach, SEEN_AT_LEAST):
                continue
            for shift in _shifts(slack):
                if all(
                    self._holds(profile, slack + shift, r, span.colour)
                    for span, r in zip(spans, lines, strict=True)
                ):
                    return True
        return False

    def _holds(
        self, profile: np.ndarray, offset: int, lines: range, colour: tuple[int, int, int]
    ) -> bool:
        rows = profile[max(0, offset + lines.start) : offset + lines.stop]
        if not len(rows):
            return True
        near = (np.abs(rows - np.asarray(colour, np.int16)) <= self.tolerance).all(axis=2)
        return bool((near.mean(axis=1) >= self.share).all())


#: Lines outside the grid a picture must show of a drawn border (or all of it).
SEEN_AT_LEAST = 4


def _shifts(slack: int) -> list[int]:
    """0 first, then ±1, ±2...: the grid where it was fitted is the likeliest."""
    return [0, *(s for k in range(1, slack + 1) for s in (k, -k))]


def _lines_outside(
    image: np.ndarray, geo: Geometry, side: str, count: int, before: int
) -> np.ndarray | None:
    """Up to `count` pixel lines outside `side`, nearest first (fewer where the
    picture ends), after `before` lines inside the grid, each along the side's
    whole length: (lines, length, 3) int16; None if the grid leaves the picture."""
    height, width = image.shape[:2]
    x0, y0 = round(geo.left), round(geo.top)
    x1, y1 = round(geo.left + geo.width), round(geo.top + geo.height)
    if min(x0, y0) < 0 or x1 > width or y1 > height or x1 <= x0 or y1 <= y0:
        return None
    if side == "top":
        crop = image[max(0, y0 - count) : y0 + before, x0:x1][::-1]
    elif side == "bottom":
        crop = image[y1 - before : y1 + count, x0:x1]
    elif side == "left":
        crop = image[y0:y1, max(0, x0 - count) : x0 + before][:, ::-1].transpose(1, 0, 2)
    else:
        crop = image[y0:y1, x1 - before : x1 + count].transpose(1, 0, 2)
    return np.asarray(crop, np.int16)


#: Either description of what a clone draws around its board; both answer
#: `open_sides(image, geo, scale)`.
AnyBorder = Border | DrawnBorder


def drawn_border(raw: Mapping[str, object], where: str) -> DrawnBorder:
    """A `DrawnBorder` from a manifest: {"sides": {side: [[span, ...], ...]},
    "tolerance", "share", "slack"}, a span {"from": px or [px, pitches],
    "to": ..., "colour": "#rrggbb"}; ValueError naming what is wrong."""
    sides_raw = raw.get("sides")
    if not isinstance(sides_raw, Mapping) or set(sides_raw) != set(SIDES):
        raise ValueError(f"{where}: border.sides needs exactly {', '.join(SIDES)}")
    sides: dict[str, tuple[tuple[Span, ...], ...]] = {}
    for side in SIDES:
        alternatives = sides_raw[side]
        if not isinstance(alternatives, Sequence) or not alternatives:
            raise ValueError(f"{where}: border.sides.{side} must be a list of span lists")
        sides[side] = tuple(
            tuple(_span(s, f"{where}: border.sides.{side}") for s in spans)
            for spans in alternatives
        )
    return DrawnBorder(
        sides,
        tolerance=float(raw.get("tolerance", 12.0)),  # type: ignore[arg-type]
        share=float(raw.get("share", 0.9)),  # type: ignore[arg-type]
        slack=_distance(raw.get("slack", 1), f"{where}: border.slack"),
    )


def _span(raw: object, where: str) -> Span:
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}: a span is {{from, to, colour}}, got {raw!r}")

    colour = str(raw.get("colour", ""))
    if len(colour) != 7 or not colour.startswith("#"):
        raise ValueError(f"{where}: colour must be #rrggbb, got {colour!r}")
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return Span(_distance(raw.get("from"), where), _distance(raw.get("to"), where), (b, g, r))


def _distance(v: object, where: str) -> tuple[float, float]:
    """px, or [px, pitches]."""
    if isinstance(v, (int, float)):
        return (float(v), 0.0)
    if isinstance(v, Sequence) and len(v) == 2:
        return (float(v[0]), float(v[1]))
    raise ValueError(f"{where}: a distance is px or [px, pitches], got {v!r}")
