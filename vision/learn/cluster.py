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


def cluster(patches: np.ndarray, threshold: float = THRESHOLD) -> Clusters:
    """Cluster `patches` (N, D); clusters are numbered by first appearance."""
    unique, inverse = np.unique(patches, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    weight = np.bincount(inverse, minlength=len(unique))
    labels_u = np.full(len(unique), -1, dtype=np.int64)
    # Most frequent appearances lead, so a cluster is centred on a typical cell.
    order = np.argsort(-weight, kind="stable")
    k = 0
    for i in order:
        if labels_u[i] >= 0:
            continue
        free = labels_u < 0
        d = distances(unique[i : i + 1], unique[free])[0]
        idx = np.nonzero(free)[0][d <= threshold]
        labels_u[idx] = k
        k += 1
    medoids_u = np.zeros(k, dtype=np.int64)
    spread = np.zeros(k)
    for c in range(k):
        members = np.nonzero(labels_u == c)[0]
        d = distances(unique[members], unique[members])
        cost = (d * weight[members][None, :]).sum(axis=1)
        m = members[int(cost.argmin())]
        medoids_u[c] = m
        spread[c] = float(d[int(cost.argmin())].max())
    labels = labels_u[inverse]
    # Medoid as an index into the original patches.
    first = np.full(len(unique), -1, dtype=np.int64)
    first[inverse[::-1]] = np.arange(len(inverse))[::-1]
    medoids = first[medoids_u]
    faces = patches[medoids]
    return Clusters(labels, medoids, distances(faces, faces), spread)
