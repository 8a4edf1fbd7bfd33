"""The pictures a clone's cells show, catalogued as "looks" while a live game is learned.

A look is one cell picture as it is drawn: a covered tile, a flag, a "3" on
its background, the same "3" one row down on a translucent clone (KMines'
tiles let a gradient through), a tile under the pointer. The catalogue says
nothing about what a look *means*; `vision.learn.proof` names looks from
what msbot did and what the game's rules allow.

Two cell pictures are one look only when they are nearly the same picture:
within `same` (mean squared difference per colour value of the comparison
patch `vision.classify` reads with), a bound worked out from the clone's own
variation (the covered cells of a fresh board, all one kind) and far below
the distance between two different kinds. Looks are never merged or moved
afterwards: a look is its first picture, so a chain of small differences
cannot walk one look into another kind. Too tight only costs more looks to
name; too loose would let one look hold two kinds, which is how a learned
skin reads a 3 as a mine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.classify import PATCH
from vision.cuts import Cuts
from vision.learn.cluster import distances
from vision.learn.grid import cut_image, cut_patches

#: The largest comparison patch: cells are shrunk to about half their size,
#: so the small glyph of a large tile (xbomb's digits on 50 px cells) is not
#: averaged away.
LARGEST_PATCH = 24


def patch_side(cell_w: float, cell_h: float) -> int:
    """The side of the comparison patch for cells of this size."""
    return int(max(PATCH, min(LARGEST_PATCH, round(min(cell_w, cell_h) / 2))))


#: The least `same`: a pixel-exact clone shows each kind as one picture (0
#: apart), while two of its kinds can be close: xbomb's small digits on 50 px
#: tiles are a few tens apart even in a finer patch.
SAME_FLOOR = 12.0
#: `same` is this many times the spread of the covered cells of a fresh board.
SAME_PER_SPREAD = 3.0
#: ... and never more than this: two digits of one colour on a large tile can be
#: a few hundred apart.
SAME_CEILING = 120.0


#: The share of the covered cells whose distance to their medoid is the spread.
SPREAD_SHARE = 0.9


def same_bound(covered: np.ndarray) -> float:
    """The `same` bound for a clone whose fresh board shows `covered` (patches of
    cells of one kind): SAME_PER_SPREAD times the distance to their medoid that
    SPREAD_SHARE of them lie within, in [SAME_FLOOR, SAME_CEILING]. Not the
    largest: a few cells cut otherwise (a board's outer line meeting its frame,
    taken for an inner one when a toolbar drawn like cells was taken for a
    line of the board) are no noise, and a bound wide enough for them made one
    look of a 2 and a 3 (zoo seed 1011141138: every cell 0.01 from the medoid
    but a line 220 away; the bound at its ceiling of 120, the glyphs 94
    apart; SAT named the look 2, and a 3 was read as a sure 2). Cells cut so
    become looks of their own, each proven by its own cell."""
    if len(covered) < 2:
        return SAME_FLOOR
    d = distances(covered, covered)
    medoid = int(d.sum(axis=1).argmin())
    spread = float(np.quantile(d[medoid], SPREAD_SHARE))
    return float(min(SAME_CEILING, max(SAME_FLOOR, SAME_PER_SPREAD * spread)))


@dataclass
class Look:
    """One picture of a cell: its first appearance, and how often it was seen."""

    key: int
    #: The cell as cut from the screen (BGR, the clone's pixels): a tile of the skin.
    tile: np.ndarray
    #: The comparison patch of `tile` (`vision.learn.grid.cut_patches`).
    patch: np.ndarray
    #: Cells assigned to it, over every frame so far.
    seen: int = 0
    #: Largest distance of an assigned cell to `patch`.
    spread: float = 0.0
    #: More tiles of the same look (the same picture cut at another sub-pixel
    #: phase); the first is `tile`.
    extra: list[np.ndarray] = field(default_factory=list)


@dataclass
class LookBook:
    """Every look seen in one window, in order of first appearance."""

    same: float = SAME_FLOOR
    #: Side of the comparison patch (`patch_side`; the skin's `patch`).
    patch: int = PATCH
    looks: list[Look] = field(default_factory=list)
    #: The border of each cell left out of comparisons (the skin's `inset`):
    #: what lies between cells (a gap) may be drawn in the colour of either
    #: neighbour (a page that draws open cells over their gaps).
    inset: int = 0

    def patches(self, image: np.ndarray, cuts: Cuts) -> np.ndarray:
        """The comparison patch of every cell of `image` cut at `cuts`."""
        return cut_patches(image, cuts, self.patch, self.inset)

    def __len__(self) -> int:
        return len(self.looks)

    def _matrix(self) -> np.ndarray:
        return np.stack([look.patch for look in self.looks]) if self.looks else np.zeros((0, 0))

    def nearest(self, patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(look index, distance) of the nearest look of each patch; -1 / inf when empty."""
        if not self.looks:
            return np.full(len(patches), -1), np.full(len(patches), np.inf)
        d = distances(patches, self._matrix())
        best = d.argmin(axis=1)
        return best, d[np.arange(len(patches)), best]

    def match(self, patches: np.ndarray) -> np.ndarray:
        """The look of each patch, or -1 where no look is within `same` (nothing added)."""
        best, dist = self.nearest(patches)
        return np.where(dist <= self.same, best, -1)

    def add(self, image: np.ndarray, cuts: Cuts) -> int:
        """A new look for the one cell of `image` cut at `cuts` (one cell), however
        near an old one it is: a picture its own cell tells apart (`same` spans
        the noise between cells of one kind, which a small glyph on a textured
        tile may not leave)."""
        patch = self.patches(image, cuts)[0]
        self.looks.append(Look(len(self.looks), cut_image(image, cuts, 0, 0), patch, seen=1))
        return len(self.looks) - 1

    def assign(self, image: np.ndarray, cuts: Cuts) -> np.ndarray:
        """The look of every cell of `image` cut at `cuts`, as a (rows, cols) grid;
        a picture no look holds becomes a new look (its first picture is its tile)."""
        patches = self.patches(image, cuts)
        rows, cols = len(cuts.ys) - 1, len(cuts.xs) - 1
        best, dist = self.nearest(patches)
        labels = np.where(dist <= self.same, best, -1)
        # New pictures, in reading order; a later one may join a look made just before.
        for i in np.flatnonzero(labels < 0).tolist():
            if self.looks:
                d = distances(patches[i : i + 1], self._matrix())[0]
                j = int(d.argmin())
                if d[j] <= self.same:
                    labels[i] = j
                    continue
            r, c = divmod(i, cols)
            self.looks.append(Look(len(self.looks), cut_image(image, cuts, r, c), patches[i]))
            labels[i] = len(self.looks) - 1
        for j in np.unique(labels).tolist():
            members = labels == j
            look = self.looks[j]
            look.seen += int(members.sum())
            spread = distances(patches[members], look.patch[None, :]).max()
            look.spread = max(look.spread, float(spread))
        return np.asarray(labels.reshape(rows, cols))
