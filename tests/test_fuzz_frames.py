"""`benchmarks/fuzz_frames.py` at a small size: mutated recorded frames (bit
flips, truncation, noise, JPEG, greyscale, scale) end in a reading or one
clean error, never a traceback, and no reading is sure and wrong against its
label; a box over any edge of a board of each clone (half a cell to two
cells deep, three shapes) is never read as a smaller, whole board."""

from __future__ import annotations

from pathlib import Path

from bench_scripts import load


def test_mutated_frames_never_crash_and_never_read_sure_and_wrong(tmp_path: Path) -> None:
    fuzz = load("fuzz_frames")
    tallies = fuzz.fuzz(per_class=2, seed=7, covers=False, work=tmp_path)
    assert {t.name for t in tallies} == set(fuzz.CLASSES)
    assert sum(t.inputs for t in tallies) == 2 * sum(len(m) for m in fuzz.CLASSES.values())
    assert [c for t in tallies for c in t.crashes] == []
    assert [w for t in tallies for w in t.sure_and_wrong] == []
    # The classes really reach both ends: clean errors (a cut file) and readings.
    assert sum(t.clean_errors for t in tallies) > 0 and sum(t.read for t in tallies) > 0


def test_a_box_over_any_edge_is_never_read_as_a_smaller_whole_board(tmp_path: Path) -> None:
    fuzz = load("fuzz_frames")
    picks = fuzz.one_per_clone()
    clones = {frame.parent.parent.name.rsplit("-", 2)[0] for frame, _ in picks}
    assert clones == {"gnome-mines", "minegauler", "sgt-mines", "xdemineur"}
    tallies = [t for t in fuzz.fuzz(0, 3, True, tmp_path, picks) if t.name in fuzz.COVERS]
    assert sum(t.inputs for t in tallies) == len(picks) * sum(len(m) for m in fuzz.COVERS.values())
    assert [c for t in tallies for c in t.crashes] == []
    assert [w for t in tallies for w in t.sure_and_wrong] == []


def test_every_mutation_of_a_frame_of_each_clone_is_never_read_sure_and_wrong(
    tmp_path: Path,
) -> None:
    """Each class on one frame of every clone: a greyscale sgt-mines board read
    every number as a sure 8 (its grey ink is the blend of any dark stroke with
    the open cells' grey) until `vision.colour._blends`."""
    fuzz = load("fuzz_frames")
    tallies = fuzz.fuzz(0, 5, False, tmp_path, fuzz.one_per_clone())
    assert sum(t.inputs for t in tallies) == 4 * sum(len(m) for m in fuzz.CLASSES.values())
    assert [c for t in tallies for c in t.crashes] == []
    assert [w for t in tallies for w in t.sure_and_wrong] == []
