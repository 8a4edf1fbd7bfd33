"""`benchmarks/fuzz_frames.py` at a small size: mutated recorded frames (bit
flips, truncation, noise, JPEG, greyscale, scale) end in a reading or one
clean error, never a traceback, and no reading is sure and wrong against its
label; a box over any edge of a board of each clone (half a cell to two
cells deep, three shapes) is never read as a smaller, whole board."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from bench_scripts import load

from vision.image_io import load_image

CLONES = ("gnome-mines", "minegauler", "sgt-mines", "xdemineur")
#: The covers the suite makes on each side (the benchmark makes all 36 of
#: `COVERS` on every frame): everything beyond, from half a cell to two cells
#: deep, and a band over the edge and a box over half the side, a cell deep.
SUITE_COVERS = (("beyond", 0.5), ("beyond", 1.0), ("beyond", 2.0), ("band", 1.0), ("half", 1.0))


def test_one_frame_of_each_clone_is_picked() -> None:
    picks = load("fuzz_frames").one_per_clone()
    assert sorted(frame.parent.parent.name.rsplit("-", 2)[0] for frame, _ in picks) == list(CLONES)


@pytest.mark.parametrize("name", CLONES)
def test_a_box_over_any_edge_is_never_read_as_a_smaller_whole_board(
    name: str, tmp_path: Path
) -> None:
    fuzz = load("fuzz_frames")
    (frame, label), *more = [
        p for p in fuzz.one_per_clone() if p[0].parent.parent.name.startswith(name)
    ]
    assert not more
    data, image = frame.read_bytes(), load_image(frame)
    tally = fuzz.Tally(f"covers {name}")
    rng = np.random.default_rng(3)
    for side in ("top", "bottom", "left", "right"):
        for shape, depth in SUITE_COVERS:
            path = tmp_path / f"{side}-{shape}-{depth}.png"
            path.write_bytes(fuzz.cover(side, depth, shape)(data, image, rng))
            tally.inputs += 1
            fuzz.check(path, label, tally, f"{side} {shape} {depth}")
    assert tally.inputs == 4 * len(SUITE_COVERS)
    assert tally.crashes == [] and tally.sure_and_wrong == []
    # Every cover is refused: none reads, even with unsure cells.
    assert tally.read == 0 and tally.clean_errors == tally.inputs


def test_every_mutation_of_a_frame_of_each_clone_is_never_read_sure_and_wrong(
    tmp_path: Path,
) -> None:
    """Each class on one frame of every clone: a greyscale sgt-mines board read
    every number as a sure 8 (its grey ink is the blend of any dark stroke with
    the open cells' grey) until `vision.colour._blends`."""
    fuzz = load("fuzz_frames")
    tallies = fuzz.fuzz(0, 5, False, tmp_path, fuzz.one_per_clone())
    assert {t.name for t in tallies} == set(fuzz.CLASSES)
    assert sum(t.inputs for t in tallies) == 4 * sum(len(m) for m in fuzz.CLASSES.values())
    assert [c for t in tallies for c in t.crashes] == []
    assert [w for t in tallies for w in t.sure_and_wrong] == []
    # The classes really reach both ends: clean errors (a cut file) and readings.
    assert sum(t.clean_errors for t in tallies) > 0 and sum(t.read for t in tallies) > 0
