"""The learn-skin pipeline: screenshots in, a named set of tile images out.

Frames are grouped by pitch (GNOME Mines scales its cells with the window,
and a "3" drawn at 30 px is another template than at 90 px); each group is
aligned, clustered and named on its own, and the names of all groups become
one skin with a variant image per group.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from bot.board import Board
from bot.errors import VisionError
from vision.cuts import Cuts, find_cuts, whole_pixel
from vision.geometry import Geometry
from vision.learn.cluster import SAME_SIZE, Clusters, cluster, cluster_by_size
from vision.learn.grid import (
    BoardRect,
    align,
    cut_image,
    cut_patches,
    find_grids,
    patches,
)
from vision.learn.screenshots.counter import LearnedCounter, learn_counter
from vision.learn.screenshots.face import LearnedFace, learn_face
from vision.learn.screenshots.fit import Frame, fit_tiles, inset_for
from vision.learn.screenshots.naming import Naming, name_clusters, name_wrong_flags
from vision.learn.screenshots.sizes import borrow_names

#: Frames whose pitches differ by less than this (px) are one size of the clone.
SAME_PITCH = 0.35


@dataclass(frozen=True)
class Group:
    """Frames of one cell size, their clusters and the names found for them."""

    frames: list[int]
    geometries: list[Geometry]
    clusters: Clusters
    naming: Naming
    #: Per frame, the cluster of each cell (rows, cols).
    labels: list[np.ndarray]
    #: Per cluster, the medoid cell image at the clone's pitch.
    tiles: list[np.ndarray]
    #: Per cluster, the medoid's comparison patch (`vision.classify` size).
    faces: np.ndarray
    #: Per frame, where its cells were cut.
    cuts: list[Cuts]
    #: Per frame, which game it shows (frames of one game share a number).
    sequences: list[int]


@dataclass(frozen=True)
class Learned:
    """Everything learned from the screenshots, ready for `vision.learn.screenshots.writer`."""

    groups: list[Group]
    notes: list[str] = field(default_factory=list)
    counter: LearnedCounter | None = None
    face: LearnedFace | None = None
    #: What became of the mine counter, for the command's "counter:" line. It is
    #: written to the skin only when all ten digits were seen.
    counter_said: str = "not learned"
    #: The tile images to write per board character (`vision.learn.screenshots.fit`) and the
    #: skin's (max_distance, min_margin).
    written: dict[str, list[np.ndarray]] = field(default_factory=dict)
    limits: tuple[float, float] = (300.0, 150.0)
    #: The skin's `inset` (see `vision.skin`).
    inset: int = 0

    @property
    def counter_written(self) -> bool:
        return self.counter is not None and self.counter.complete

    def tiles_by_char(self) -> dict[str, list[np.ndarray]]:
        """Board character -> tile images (one per group and cluster that has the name)."""
        out: dict[str, list[np.ndarray]] = {}
        for g in self.groups:
            for c, ch in sorted(g.naming.names.items()):
                out.setdefault(ch, []).append(g.tiles[c])
        return out

    def boards(self, count: int) -> list[Board | None]:
        """Each input frame read with the learned names (None: it has unknown cells)."""
        out: list[Board | None] = [None] * count
        for g in self.groups:
            for f, labels in zip(g.frames, g.labels, strict=True):
                names = g.naming.names
                if all(int(c) in names for c in np.unique(labels)):
                    lookup = np.array([names.get(c, ".") for c in range(g.clusters.count)])
                    rows = lookup[labels]
                    out[f] = Board(tuple("".join(r) for r in rows.tolist()))
        return out

    def geometries(self, count: int) -> list[Geometry]:
        out: list[Geometry | None] = [None] * count
        for g in self.groups:
            for f, geo in zip(g.frames, g.geometries, strict=True):
                out[f] = geo
        return [geo for geo in out if geo is not None]

    def pitches(self) -> list[tuple[float, float]]:
        return [(g.geometries[0].cell_w, g.geometries[0].cell_h) for g in self.groups]


def _group_by_pitch(geos: Sequence[Geometry]) -> list[list[int]]:
    groups: list[list[int]] = []
    for i, geo in enumerate(geos):
        for grp in groups:
            ref = geos[grp[0]]
            if (
                abs(ref.cell_w - geo.cell_w) < SAME_PITCH
                and abs(ref.cell_h - geo.cell_h) < SAME_PITCH
            ):
                grp.append(i)
                break
        else:
            groups.append([i])
    return groups


def _sequences(geos: Sequence[Geometry], games: Sequence[int]) -> list[int]:
    """Frames of one game: same grid size at the same place (in the order given),
    and the same game number when the caller knows where games start."""
    keys: list[tuple[int, int, int, int, int]] = []
    out = []
    for geo, game in zip(geos, games, strict=True):
        key = (game, geo.rows, geo.cols, round(geo.left / 4), round(geo.top / 4))
        if key not in keys:
            keys.append(key)
        out.append(keys.index(key))
    return out


def _cut(images: Sequence[np.ndarray], frames: list[int], geos: list[Geometry]) -> list[Cuts]:
    """Where each frame's cells lie. A whole-pixel grid is aligned to the reference
    frame (the lattice fits of two frames may differ by a pixel); a scaled clone's
    cells are found on each frame itself (`vision.cuts.find_cuts`).

    Frames with the same fitted grid (the window did not move) share one
    alignment, made on the one showing most different cells: aligning a lost
    board to a fresh all-covered one would shift it to look covered.
    """
    if not whole_pixel(geos[0]):
        return [find_cuts(images[f], geo) for f, geo in zip(frames, geos, strict=True)]
    cells = [patches(images[f], geo) for f, geo in zip(frames, geos, strict=True)]
    variety = [len(np.unique(c, axis=0)) for c in cells]
    ref = max(range(len(frames)), key=lambda i: (geos[i].rows * geos[i].cols, variety[i]))
    moved: dict[Geometry, Geometry] = {geos[ref]: geos[ref]}
    for i in sorted(range(len(frames)), key=lambda i: -variety[i]):
        if geos[i] not in moved:
            moved[geos[i]] = align(images[frames[i]], geos[i], cells[ref])
    return [find_cuts(images[f], moved[geo]) for f, geo in zip(frames, geos, strict=True)]


def _cell_sizes(cuts: Cuts) -> np.ndarray:
    """(cells, 2): each cell's height and width in pixels, row by row."""
    heights, widths = np.diff(cuts.ys), np.diff(cuts.xs)
    grid = np.stack(np.meshgrid(heights, widths, indexing="ij"), axis=-1)
    return np.asarray(grid.reshape(-1, 2))


def _learn_group(
    images: Sequence[np.ndarray], frames: list[int], geos: list[Geometry], games: Sequence[int]
) -> Group:
    cuts = _cut(images, frames, geos)
    # The grid each frame was cut on, moved to where its first cell starts.
    placed = [
        geo.shifted(float(cut.xs[0]) - geo.left, float(cut.ys[0]) - geo.top)
        if whole_pixel(geo)
        else geo
        for geo, cut in zip(geos, cuts, strict=True)
    ]
    cells = [cut_patches(images[f], cut) for f, cut in zip(frames, cuts, strict=True)]
    if whole_pixel(geos[0]):
        # One size: cells of one kind are drawn alike (a hover look is another kind).
        clusters = cluster(np.concatenate(cells), SAME_SIZE)
    else:
        sizes = np.concatenate([_cell_sizes(cut) for cut in cuts])
        clusters = cluster_by_size(np.concatenate(cells), sizes)
    labels: list[np.ndarray] = []
    start = 0
    for geo in placed:
        n = geo.rows * geo.cols
        labels.append(clusters.labels[start : start + n].reshape(geo.rows, geo.cols))
        start += n
    faces = np.concatenate(cells)[clusters.medoids]
    sequences = _sequences(placed, [games[f] for f in frames])
    naming = name_clusters(labels, faces, sequences)
    tiles: list[np.ndarray] = []
    offsets = np.cumsum([0] + [g.rows * g.cols for g in placed])
    for m in clusters.medoids.tolist():
        i = int(np.searchsorted(offsets, m, side="right")) - 1
        r, c = divmod(m - int(offsets[i]), placed[i].cols)
        tiles.append(cut_image(images[frames[i]], cuts[i], r, c))
    return Group(frames, placed, clusters, naming, labels, tiles, faces, cuts, sequences)


def _fit_frames(images: Sequence[np.ndarray], groups: Sequence[Group]) -> list[Frame]:
    """Every screenshot with its grid and its cells' learned names, for `fit_tiles`."""
    out = []
    for g in groups:
        for f, geo, labels in zip(g.frames, g.geometries, g.labels, strict=True):
            names = [[g.naming.names.get(int(c)) for c in row] for row in labels.tolist()]
            out.append(Frame(images[f], geo, names))
    return out


def learn(
    images: Sequence[np.ndarray],
    board: BoardRect | None = None,
    mines: int | Sequence[int | None] | None = None,
    games: Sequence[int] | None = None,
) -> Learned:
    """Learn the skin drawn on `images` (BGR screenshots of one clone).

    With `mines` (the board's mine total, or each frame's) the mine counter is
    looked for too.
    `games[i]` numbers the game frame i belongs to, when known (--live plays
    several games in one window); otherwise frames of one board place are one game.
    """
    if not images:
        raise VisionError("learn-skin needs at least one screenshot")
    geos = find_grids(list(images), board)
    games = list(games) if games is not None else [0] * len(images)
    groups = [
        _learn_group(images, idx, [geos[i] for i in idx], games) for idx in _group_by_pitch(geos)
    ]
    if not any("." in g.naming.names.values() for g in groups):
        raise VisionError(
            "could not tell which tile is the covered one (show a fresh board, or "
            "several screenshots of one game): nothing written"
        )
    notes = [n for g in groups for n in g.naming.notes]
    for g, taken in borrow_names(
        [grp.faces for grp in groups],
        [grp.naming.names for grp in groups],
        [grp.labels for grp in groups],
    ):
        grp = groups[g]
        grp.naming.names.update(taken)
        # A flag named from another size shows which kinds were wrong flags.
        name_wrong_flags(
            grp.labels, grp.faces, grp.sequences, grp.naming.complete, grp.naming.names
        )
        pitch = grp.geometries[0].cell_w
        named = ", ".join(f"{c}={ch}" for c, ch in sorted(taken.items()))
        notes.append(f"pitch {pitch:.2f}: clusters named like the tiles of another size: {named}")
    base = Learned(groups, notes)
    fit_frames = _fit_frames(images, groups)
    inset = inset_for(fit_frames)
    written, limits = fit_tiles(base.tiles_by_char(), fit_frames, inset)
    geos_all = base.geometries(len(images))
    boards = base.boards(len(images))
    face = learn_face(images, geos_all, boards)
    if face is not None:
        notes.append(f"status face learned: {' '.join(sorted(face.images))} (restart control)")
    counter = None
    totals = list(mines) if isinstance(mines, Sequence) else [mines] * len(images)
    if all(t is None for t in totals):
        said = "not learned (give --mines N, the board's mine total, to look for it)"
    else:
        counter = learn_counter(images, geos_all, boards, totals)
        if counter is None:
            said = "not learned (no red LED or 'flags/total' text matching the boards was found)"
        elif not counter.complete:
            said = (
                f"not learned (digits seen: {counter.seen}; all ten are needed, a counter "
                "missing digits would misread: show more flag counts, e.g. with --live --mines N)"
            )
        else:
            kind = "LED" if counter.format == "left" else "text flags/total"
            said = f"learned ({kind}, all ten digits)"
    return Learned(groups, notes, counter, face, said, written, limits, inset)
