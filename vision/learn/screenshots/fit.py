"""Make the learned tiles read well by `vision.reader`, which cuts cells its own way.

Learning cuts every cell where its tile really lies (`vision.learn.grid`),
so one kind is one tight cluster. The reader cannot: it fits one regular
grid per board (plus a pixel of nudge per line), and on a scaled clone
whose cells are 36 or 37 px apart that grid cuts the cells of one kind at
several phases, a few pixels off the tile. A template cut at one phase then
matches the same kind at another phase badly, and the cell is unknown.

So the tiles written are the learned kinds cut *the way the reader cuts
them*: first every phase the reader's grid shows on the screenshots (a
variant is kept only when no kept variant of its kind looks alike), then
the skin is read back on every screenshot with the real reader, and any cell
it does not read as learned adds the reader's own cut of it as a variant;
a few rounds until every screenshot reads. Only named kinds get variants:
what was not named stays unknown. Thresholds come from the learned kinds
themselves (each cut on its tile), never from the phase variants, so a
variant cannot loosen what counts as a sure read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.errors import VisionError
from vision.classify import classify, make_bank, rescue, shrink
from vision.geometry import Geometry
from vision.learn.cluster import distances
from vision.locate import locate
from vision.sampling import cell_edges
from vision.skin import PlaySpec, Skin

#: A phase variant closer than this (mean squared difference) to a kept variant
#: of its kind adds nothing.
SAME = 25.0
#: Read-back rounds at most (each reads every screenshot once).
ROUNDS = 4
#: Thresholds never looser than the built-in skins'.
MAX_DISTANCE = 300.0
MIN_MARGIN = 150.0


@dataclass(frozen=True)
class Frame:
    """One screenshot and what learning found on it: where, and each cell's name
    (None: a kind left unknown)."""

    image: np.ndarray
    geometry: Geometry
    names: list[list[str | None]]


def thresholds(tiles: dict[str, list[np.ndarray]], inset: int = 0) -> tuple[float, float]:
    """(max_distance, min_margin) from the closest pair of tiles of different kinds:
    a cell is accepted only well inside half the distance between two kinds."""
    chars = [ch for ch, imgs in tiles.items() for _ in imgs]
    if len(set(chars)) < 2:
        return MAX_DISTANCE, MIN_MARGIN
    faces = np.stack([shrink(img, inset) for imgs in tiles.values() for img in imgs])
    d = distances(faces, faces)
    other = np.array(chars)[:, None] != np.array(chars)[None, :]
    closest = float(d[other].min())
    return min(MAX_DISTANCE, closest / 3), min(MIN_MARGIN, closest / 4)


def _crop(
    image: np.ndarray,
    geo: Geometry,
    row: int,
    col: int,
    nudge: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray | None:
    """The cell as the reader cuts it: on the grid's rounded edges, moved by the nudge."""
    cols, rows = cell_edges(geo, nudge)
    x0, x1 = int(cols[col, 0]), int(cols[col, 1])
    y0, y1 = int(rows[row, 0]), int(rows[row, 1])
    height, width = image.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height or x1 <= x0 or y1 <= y0:
        return None
    return image[y0:y1, x0:x1].copy()


class _Variants:
    """Tile images per kind, with their patches, deduplicated."""

    def __init__(self, tiles: dict[str, list[np.ndarray]], inset: int) -> None:
        self.inset = inset
        self.tiles: dict[str, list[np.ndarray]] = {}
        self.patches: dict[str, list[np.ndarray]] = {}
        for ch, images in tiles.items():
            for img in images:
                self.add(ch, img, force=True)

    def add(self, ch: str, tile: np.ndarray, force: bool = False) -> bool:
        vec = shrink(tile, self.inset)
        have = self.patches.setdefault(ch, [])
        if not force and have:
            near = distances(vec[None, :], np.stack(have))[0]
            if float(near.min()) <= SAME:
                return False
        have.append(vec)
        self.tiles.setdefault(ch, []).append(tile)
        return True


def _skin(
    tiles: dict[str, list[np.ndarray]],
    pitches: Sequence[float],
    limits: tuple[float, float],
    inset: int,
) -> Skin:
    """The skin as `vision.skin.load_skin` would load it once written."""
    lo, hi = min(pitches) - 1, max(pitches) + 1
    return Skin(
        name="learning",
        folder=Path("."),
        pitch=(pitches[0], pitches[0]),
        pitch_range=(lo, hi),
        tiles={ch: tuple(imgs) for ch, imgs in tiles.items()},
        max_distance=limits[0],
        min_margin=limits[1],
        play=PlaySpec(),
        inset=inset,
    )


def _reader_misses(frame: Frame, skin: Skin) -> list[tuple[str, np.ndarray]]:
    """(name, reader's crop) of every named cell the reader does not read as named."""
    bank = make_bank(skin)
    geo, nudge = frame.geometry, None
    try:
        found = locate(frame.image, [bank])
    except VisionError:
        found = None
    if found is not None:
        g = found.geometry
        same_grid = (g.rows, g.cols) == (geo.rows, geo.cols)
        if (
            same_grid
            and abs(g.left - geo.left) < g.cell_w / 2
            and abs(g.top - geo.top) < g.cell_h / 2
        ):
            geo, nudge = g, found.nudge
    scores = classify(frame.image, geo, bank, nudge)
    if scores is None:
        return []
    scores = rescue(frame.image, geo, bank, scores, nudge)
    out = []
    for r, row in enumerate(frame.names):
        for c, name in enumerate(row):
            if name is None:
                continue
            if scores.unsure[r, c] or str(scores.chars[r, c]) != name:
                crop = _crop(frame.image, geo, r, c, nudge)
                if crop is not None:
                    out.append((name, crop))
    return out


def inset_for(frames: Sequence[Frame]) -> int:
    """The skin's `inset`: 1 for a scaled clone, whose gaps between tiles do not
    scale with the tiles and whose cells the reader cuts a pixel or two off
    (the rim says least about the kind), else 0."""
    return 0 if all(_whole(f.geometry) for f in frames) else 1


def _whole(geo: Geometry) -> bool:
    return float(geo.cell_w).is_integer() and float(geo.cell_h).is_integer()


def fit_tiles(
    tiles: dict[str, list[np.ndarray]], frames: Sequence[Frame], inset: int = 0
) -> tuple[dict[str, list[np.ndarray]], tuple[float, float]]:
    """The tiles to write and (max_distance, min_margin); see the module docstring.

    `tiles` are the learned kinds, each cut on its tile; `inset` the skin's.
    """
    limits = thresholds(tiles, inset)
    variants = _Variants(tiles, inset)
    for frame in frames:
        geo = frame.geometry
        if _whole(geo):
            continue  # the reader cuts a whole-pixel grid where learning did
        for r, row in enumerate(frame.names):
            for c, name in enumerate(row):
                crop = _crop(frame.image, geo, r, c) if name is not None else None
                if name is not None and crop is not None:
                    variants.add(name, crop)
    pitches = [p for f in frames for p in (f.geometry.cell_w, f.geometry.cell_h)]
    # Every screenshot is read once; then only those that missed cells are read
    # again (a variant added for one cell rarely spoils another screenshot, and
    # `msbot learn-skin` reads every screenshot back at the end anyway).
    todo = list(frames)
    for _ in range(ROUNDS):
        skin = _skin(variants.tiles, pitches, limits, inset)
        again = []
        for frame in todo:
            missed = _reader_misses(frame, skin)
            if sum(variants.add(name, crop) for name, crop in missed):
                again.append(frame)
        todo = again
        if not todo:
            break
    return variants.tiles, limits
