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
from vision.geometry import Geometry
from vision.learn.cluster import Clusters, cluster
from vision.learn.counter import LearnedCounter, learn_counter
from vision.learn.face import LearnedFace, learn_face
from vision.learn.grid import BoardRect, align, cell_image, find_grids, patches
from vision.learn.naming import Naming, name_clusters
from vision.learn.sizes import borrow_names

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


@dataclass(frozen=True)
class Learned:
    """Everything learned from the screenshots, ready for `vision.learn.writer`."""

    groups: list[Group]
    notes: list[str] = field(default_factory=list)
    counter: LearnedCounter | None = None
    face: LearnedFace | None = None
    #: What became of the mine counter, for the command's "counter:" line. It is
    #: written to the skin only when all ten digits were seen.
    counter_said: str = "not learned"

    @property
    def counter_written(self) -> bool:
        return self.counter is not None and len(self.counter.digits) == 10

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


def _learn_group(
    images: Sequence[np.ndarray], frames: list[int], geos: list[Geometry], games: Sequence[int]
) -> Group:
    ref = max(range(len(frames)), key=lambda i: geos[i].rows * geos[i].cols)
    ref_patches = patches(images[frames[ref]], geos[ref])
    aligned = [
        geo if i == ref else align(images[frames[i]], geo, ref_patches)
        for i, geo in enumerate(geos)
    ]
    cells = [patches(images[f], geo) for f, geo in zip(frames, aligned, strict=True)]
    clusters = cluster(np.concatenate(cells))
    labels: list[np.ndarray] = []
    start = 0
    for geo in aligned:
        n = geo.rows * geo.cols
        labels.append(clusters.labels[start : start + n].reshape(geo.rows, geo.cols))
        start += n
    faces = np.concatenate(cells)[clusters.medoids]
    naming = name_clusters(labels, faces, _sequences(aligned, [games[f] for f in frames]))
    tiles: list[np.ndarray] = []
    offsets = np.cumsum([0] + [g.rows * g.cols for g in aligned])
    for m in clusters.medoids.tolist():
        i = int(np.searchsorted(offsets, m, side="right")) - 1
        geo = aligned[i]
        r, c = divmod(m - int(offsets[i]), geo.cols)
        tiles.append(cell_image(images[frames[i]], geo, r, c))
    return Group(frames, aligned, clusters, naming, labels, tiles, faces)


def learn(
    images: Sequence[np.ndarray],
    board: BoardRect | None = None,
    mines: int | None = None,
    games: Sequence[int] | None = None,
) -> Learned:
    """Learn the skin drawn on `images` (BGR screenshots of one clone).

    With `mines` (the board's mine total) the mine counter is looked for too.
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
    notes = [n for g in groups for n in g.naming.notes]
    for g, taken in borrow_names(
        [grp.faces for grp in groups],
        [grp.naming.names for grp in groups],
        [grp.labels for grp in groups],
    ):
        groups[g].naming.names.update(taken)
        pitch = groups[g].geometries[0].cell_w
        named = ", ".join(f"{c}={ch}" for c, ch in sorted(taken.items()))
        notes.append(f"pitch {pitch:.2f}: clusters named like the tiles of another size: {named}")
    base = Learned(groups, notes)
    geos_all = base.geometries(len(images))
    boards = base.boards(len(images))
    face = learn_face(images, geos_all, boards)
    if face is not None:
        notes.append(f"status face learned: {' '.join(sorted(face.images))} (restart control)")
    counter = None
    if mines is None:
        said = "not learned (give --mines N, the board's mine total, to look for it)"
    else:
        counter = learn_counter(images, geos_all, boards, mines)
        if counter is None:
            said = "not learned (no red counter showing mines minus flags was found)"
        elif len(counter.digits) < 10:
            seen = " ".join(sorted(counter.digits))
            said = (
                f"not learned (digits seen: {seen}; all ten are needed, a counter missing "
                "digits would misread: show more flag counts, e.g. with --live --mines N)"
            )
        else:
            said = "learned (all ten digits)"
    return Learned(groups, notes, counter, face, said)
