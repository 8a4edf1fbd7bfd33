"""Group cell patches into kinds by appearance (leader clustering on squared differences).

Distances are the ones `vision.classify` reads with (mean squared difference
per colour value of PATCH x PATCH patches), so a cluster tight here is a
template that reads reliably later. Leader clustering needs no number of
clusters up front: the first unassigned patch starts a cluster, every patch
within `threshold` of it joins, then the cluster's medoid becomes its face.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Two patches closer than this (mean squared difference) are the same kind.
THRESHOLD = 250.0


@dataclass(frozen=True)
class Clusters:
    """`labels[i]` is the cluster of patch i; `medoids[k]` the index of cluster k's face."""

    labels: np.ndarray
    medoids: np.ndarray
    #: (clusters, clusters) mean squared difference between medoid patches.
    between: np.ndarray
    #: Largest distance of a member to its medoid, per cluster.
    spread: np.ndarray

    @property
    def count(self) -> int:
        return len(self.medoids)

    def sizes(self) -> np.ndarray:
        return np.bincount(self.labels, minlength=self.count)


def distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """All pairwise mean squared differences between rows of `a` and rows of `b`."""
    d = (a**2).sum(axis=1)[:, None] - 2.0 * a @ b.T + (b**2).sum(axis=1)[None, :]
    return np.asarray(np.maximum(d, 0.0) / a.shape[1])


def _leaders(unique: np.ndarray, weight: np.ndarray, threshold: float) -> np.ndarray:
    """Leader clustering of distinct patches: the label of each (0..k-1)."""
    labels = np.full(len(unique), -1, dtype=np.int64)
    # Most frequent appearances lead, so a cluster is centred on a typical cell.
    order = np.argsort(-weight, kind="stable")
    k = 0
    for i in order:
        if labels[i] >= 0:
            continue
        free = labels < 0
        d = distances(unique[i : i + 1], unique[free])[0]
        labels[np.nonzero(free)[0][d <= threshold]] = k
        k += 1
    return labels


def _finish(patches: np.ndarray, labels: np.ndarray) -> Clusters:
    """Medoids (the member closest to all others, weighted by count), their distances
    and each cluster's spread, for `labels` over `patches`."""
    unique, inverse = np.unique(patches, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    weight = np.bincount(inverse, minlength=len(unique))
    label_u = np.zeros(len(unique), dtype=np.int64)
    label_u[inverse] = labels
    first = np.full(len(unique), -1, dtype=np.int64)
    first[inverse[::-1]] = np.arange(len(inverse))[::-1]
    k = int(labels.max()) + 1
    medoids = np.zeros(k, dtype=np.int64)
    spread = np.zeros(k)
    for c in range(k):
        members = np.nonzero(label_u == c)[0]
        d = distances(unique[members], unique[members])
        cost = (d * weight[members][None, :]).sum(axis=1)
        best = int(cost.argmin())
        medoids[c] = first[members[best]]
        spread[c] = float(d[best].max())
    faces = patches[medoids]
    return Clusters(labels, medoids, distances(faces, faces), spread)


def _renumber(labels: np.ndarray) -> np.ndarray:
    """Clusters numbered by first appearance."""
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(first, kind="stable")
    new = np.empty(len(order), dtype=np.int64)
    new[np.unique(labels)[order]] = np.arange(len(order))
    return np.asarray(new[labels])


def cluster(patches: np.ndarray, threshold: float = THRESHOLD) -> Clusters:
    """Cluster `patches` (N, D); clusters are numbered by first appearance."""
    unique, inverse = np.unique(patches, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    weight = np.bincount(inverse, minlength=len(unique))
    labels = _leaders(unique, weight, threshold)[inverse]
    return _finish(patches, _renumber(labels))


#: Cells of one kind and one size are drawn alike to this (mean squared difference).
SAME_SIZE = 40.0


def cluster_by_size(
    patches: np.ndarray, sizes: np.ndarray, threshold: float = THRESHOLD
) -> Clusters:
    """Cluster the cells of a scaled clone, whose cells have two widths and two heights.

    A clone drawing cells of 36 and 37 px renders each kind at each size on
    its own: alike within a size (up to SAME_SIZE), up to ~90 apart between
    sizes, while a flag and GNOME Mines' flag with a small "?" are ~95 apart.
    One threshold cannot hold both, so each size is clustered tightly first,
    and then the looks of different sizes are joined (within `threshold`),
    never two looks of one size: those are two kinds. `sizes` (N, 2) holds
    each cell's height and width in pixels.
    """
    _, size_of = np.unique(sizes, axis=0, return_inverse=True)
    size_of = size_of.reshape(-1)
    looks = np.full(len(patches), -1, dtype=np.int64)
    reps: list[np.ndarray] = []
    look_size: list[int] = []
    look_weight: list[int] = []
    for s in range(int(size_of.max()) + 1):
        idx = np.nonzero(size_of == s)[0]
        unique, inverse = np.unique(patches[idx], axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        weight = np.bincount(inverse, minlength=len(unique))
        local = _leaders(unique, weight, SAME_SIZE)
        for k in range(int(local.max()) + 1):
            members = local == k
            rep = unique[members][int(weight[members].argmax())]
            looks[idx[local[inverse] == k]] = len(reps)
            reps.append(rep)
            look_size.append(s)
            look_weight.append(int(weight[members].sum()))
    rep_m = np.stack(reps)
    d = distances(rep_m, rep_m)
    sizes_l = np.asarray(look_size)
    kind = np.full(len(reps), -1, dtype=np.int64)
    k = 0
    for lead in np.argsort(-np.asarray(look_weight), kind="stable").tolist():
        if kind[lead] >= 0:
            continue
        kind[lead] = k
        taken = {int(sizes_l[lead])}
        for other in np.argsort(d[lead], kind="stable").tolist():
            if d[lead, other] > threshold:
                break
            if kind[other] < 0 and int(sizes_l[other]) not in taken:
                kind[other] = k
                taken.add(int(sizes_l[other]))
        k += 1
    return _finish(patches, _renumber(kind[looks]))
