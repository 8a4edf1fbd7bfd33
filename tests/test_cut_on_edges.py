"""A learned skin at a fractional pitch reads cells cut where the picture shows them.

Real frames of GNOME Mines at 16x16 (36.96 x 36.77 px pitch: cells 37 or 36 px
apart, GTK's spare pixels to the first cells). Learning cuts each cell on its
own edges (`vision.cuts.find_cuts`); the reader cut them on the grid's rounded
edges, up to 2 px off, where the gap between tiles moves into the cell: every
covered cell was hundreds from the learned covered tile, and the first game
stopped with nearly every cell held as unreadable.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.classify import classify, make_bank
from vision.cuts import edges_nudge, find_cuts
from vision.geometry import Geometry
from vision.image_io import load_image
from vision.skin import PlaySpec, Skin

DATA = Path(__file__).parent / "data" / "gnome-16x16-learned"
#: The learner's grid on these frames (`vision.learn.grid.find_grid` on the fresh one).
GEO = Geometry(185.716, 185.572, 36.95735, 36.76838, 16, 16)


def _skin(fresh: np.ndarray, cut_on_edges: bool) -> Skin:
    """A learned skin's covered tile and flag, cut as learning cuts them."""
    cuts = find_cuts(fresh, GEO)
    covered = fresh[cuts.ys[12] : cuts.ys[13], cuts.xs[10] : cuts.xs[11]].copy()
    opened = np.asarray(load_image(DATA / "opened.png"))
    o = find_cuts(opened, GEO)
    flag = opened[o.ys[1] : o.ys[2], o.xs[2] : o.xs[3]].copy()  # msbot's flag at (1, 2)
    return Skin(
        "t",
        DATA,
        (GEO.cell_w, GEO.cell_h),
        (35.8, 38.0),
        {".": (covered,), "F": (flag,)},
        12.0,
        1.2,
        PlaySpec(),
        patch=18,
        cut_on_edges=cut_on_edges,
    )


def test_cells_cut_on_the_rounded_grid_do_not_read() -> None:
    # What the reader did before: the covered cells a pixel or two off their tiles.
    fresh = np.asarray(load_image(DATA / "fresh.png"))
    scores = classify(fresh, GEO, make_bank(_skin(fresh, cut_on_edges=False)))
    assert scores is not None
    assert scores.unsure.mean() > 0.9


def test_a_learned_skin_reads_every_cell_cut_on_its_edges() -> None:
    fresh = np.asarray(load_image(DATA / "fresh.png"))
    bank = make_bank(_skin(fresh, cut_on_edges=True))
    scores = classify(fresh, GEO, bank)
    assert scores is not None
    assert not scores.unsure.any()
    assert (scores.chars == ".").all()
    # The same cuts as a located board's nudge, on a board with open cells and a flag.
    opened = np.asarray(load_image(DATA / "opened.png"))
    nudge = edges_nudge(fresh, GEO)
    assert nudge is not None and nudge[0].shape == (16, 2)
    read = classify(opened, GEO, bank, nudge)
    assert read is not None
    assert read.chars[1, 2] == "F" and not read.unsure[1, 2]
    # Covered cells still covered, open ones (no tile in this skin) never read as either.
    assert (read.chars[10:, :][~read.unsure[10:, :]] == ".").all()
    assert read.unsure[0, 1]  # a '1': no kind of this skin


def test_a_whole_pixel_grid_needs_no_nudge() -> None:
    fresh = np.asarray(load_image(DATA / "fresh.png"))
    assert edges_nudge(fresh, replace(GEO, cell_w=37.0, cell_h=37.0)) is None
