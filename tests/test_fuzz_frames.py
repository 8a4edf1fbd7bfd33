"""`benchmarks/fuzz_frames.py` at a small size: mutated recorded frames (bit
flips, truncation, noise, JPEG, greyscale, scale) end in a reading or one
clean error, never a traceback, and no reading is sure and wrong against its
label; a box over any edge of a board of each clone (half a cell to two
cells deep, three shapes) is never read as a smaller, whole board."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from bench_scripts import load

from bot.errors import MsbotError
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


def test_a_reading_with_an_unsure_cell_is_still_checked_cell_by_cell(tmp_path: Path) -> None:
    """A frame with one cell painted a colour no skin knows reads that cell
    unsure; every other cell is still compared with the label: a label changed
    at another cell is a sure-and-wrong reading, at the painted one it is not."""
    from vision.reader import BoardReader

    fuzz = load("fuzz_frames")
    (frame, label), *_ = fuzz.one_per_clone()
    image = load_image(frame).copy()
    geo = BoardReader().read_fresh(image).geometry
    x, y = round(geo.left + 2 * geo.cell_w), round(geo.top + 1 * geo.cell_h)
    image[y + 1 : y + round(geo.cell_h) - 1, x + 1 : x + round(geo.cell_w) - 1] = (255, 0, 255)
    path = tmp_path / "painted.png"
    cv2.imwrite(str(path), image)

    def changed(r: int, c: int) -> dict[str, object]:
        rows = [str(row) for row in label["board"]]
        rows[r] = rows[r][:c] + ("8" if rows[r][c] != "8" else "7") + rows[r][c + 1 :]
        return {**label, "board": rows}

    tally = fuzz.Tally("painted")
    fuzz.check(path, label, tally, "as labelled")
    fuzz.check(path, changed(1, 2), tally, "the painted cell changed")
    assert tally.read == 2 and tally.unsure == 2 and tally.sure_and_wrong == []
    fuzz.check(path, changed(0, 0), tally, "another cell changed")
    was = str(label["board"][0])[0]  # type: ignore[index]
    want = f"another cell changed: cell (0, 0) read {was!r}, label {changed(0, 0)['board'][0][0]!r}"
    assert tally.sure_and_wrong == [want]


def test_a_jpeg_blue_one_is_no_sure_four(tmp_path: Path) -> None:
    """sgt-mines at its own 20 px, saved as a JPEG at quality 90: the blue 1
    comes out navy, the 4's colour. The colours allowed only the 4, which then
    read surely with the 1's tile nearest (`vision.classify._overruled` now
    holds at a skin's own tile size too): unsure or a 1, never a 4."""
    fuzz = load("fuzz_frames")
    picks = [
        (frame, label)
        for frame, label in fuzz.labelled_frames()
        if frame.parent.parent.name in ("sgt-mines-intermediate-1", "sgt-mines-expert-1")
    ]
    assert len(picks) >= 5
    tally = fuzz.Tally("jpeg 90")
    rng = np.random.default_rng(0)
    for i, (frame, label) in enumerate(picks):
        path = tmp_path / f"{i}.png"
        path.write_bytes(fuzz.jpeg(90)(frame.read_bytes(), load_image(frame), rng))
        fuzz.check(path, label, tally, f"{frame.parent.parent.name}/{frame.name}")
    assert tally.read == len(picks)
    assert tally.sure_and_wrong == []


def test_a_translucent_box_or_a_scale_never_gives_a_sure_reading_that_is_wrong() -> None:
    """Translucent boxes (white or black at 30 to 70 %, over the board's
    middle or the whole screen) and scales 0.9 to 1.5 on one frame of every
    clone and on a GNOME Mines board with few cells open: a reading the play
    loop would act on (no unsure cell) says nothing the label does not. GNOME
    Mines under a dark box read covered cells as sure mines (on that board)
    and xdemineur at 1.1x its counter's 10 as 1 (on its first frame), until
    `vision.rules` and the counter's four digits."""
    from vision.reader import BoardReader

    fuzz = load("fuzz_frames")
    picks = fuzz.one_per_clone()
    dense = fuzz.RECORDINGS / "gnome-mines-dense-1" / "frames" / "0000.png"
    picks += [(f, label) for f, label in fuzz.labelled_frames() if f == dense]
    assert len(picks) == len(CLONES) + 1
    rng = np.random.default_rng(7)
    certain, wrong = 0, []
    for frame, label in picks:
        data, image = frame.read_bytes(), load_image(frame)
        for name, mutations in fuzz.OVERLAYS.items():
            for m, mutate in enumerate(mutations):
                picture = cv2.imdecode(np.frombuffer(mutate(data, image, rng), np.uint8), 1)
                try:
                    reading = BoardReader().read_fresh(picture)
                except MsbotError:
                    continue
                if not reading.unknown:
                    certain += 1
                    said = fuzz.sure_and_wrong(reading, label)
                    wrong += [f"{name}[{m}] {frame.parent.parent.name}: {w}" for w in said[:2]]
    assert certain > 0  # the mutations leave boards the loop would act on
    assert wrong == []


@pytest.mark.parametrize(
    ("recording", "frame", "box"),
    [
        # Covered cells under a black box at 30 % were GNOME Mines' mines.
        ("gnome-mines-dense-2", "0003.png", ("overlay-dark", 0)),
        # Open 0s under a white box at 50 % were sgt-mines' covered cells.
        ("sgt-mines-expert-1", "0001.png", ("overlay-light", 2)),
        # A mine under a white box at 70 % was GNOME Mines' open 0.
        ("gnome-mines-expert-2", "0002.png", ("overlay-light", 4)),
    ],
)
def test_a_cell_under_a_translucent_box_is_never_read_as_another_kind(
    recording: str, frame: str, box: tuple[str, int]
) -> None:
    """Readings with unsure cells too: every sure cell is as labelled. Each of
    these read cells surely as another kind, nearest to its tile by colour
    though the picture had not that kind's shape (`vision.classify._shaped`)."""
    from vision.reader import BoardReader

    fuzz = load("fuzz_frames")
    path = fuzz.RECORDINGS / recording / "frames" / frame
    label = next(lab for f, lab in fuzz.labelled_frames() if f == path)
    name, m = box
    mutated = fuzz.OVERLAYS[name][m](path.read_bytes(), load_image(path), None)
    try:
        reading = BoardReader().read_fresh(cv2.imdecode(np.frombuffer(mutated, np.uint8), 1))
    except MsbotError:
        return  # refused: no claim at all
    assert fuzz.sure_and_wrong(reading, label) == []


def test_a_picture_reads_the_same_the_second_time() -> None:
    """Reading one picture twice in a process gives one answer. An sgt-mines
    board under a white box was no board the first time and a 9x9 board with
    a cell read wrongly the second: which scales `locate` tried depended on
    the banks earlier reads had kept in the skin."""
    from vision.reader import BoardReader

    fuzz = load("fuzz_frames")
    path = fuzz.RECORDINGS / "sgt-mines-beginner-1" / "frames" / "0000.png"
    mutated = fuzz.OVERLAYS["overlay-light"][2](path.read_bytes(), load_image(path), None)
    picture = cv2.imdecode(np.frombuffer(mutated, np.uint8), 1)

    def answer() -> str:
        try:
            reading = BoardReader().read_fresh(picture)
        except MsbotError as exc:
            return str(exc)
        return repr((reading.board.rows, reading.unread, reading.geometry))

    assert answer() == answer()


@pytest.mark.parametrize("size", [13, 27, 36])
def test_open_0s_under_a_white_box_are_not_read_covered_at_other_sizes(size: int) -> None:
    """sgt-mines drawn at other sizes than its tiles, a white box at 30 % over
    the board's middle: the open 0s under it, cut a pixel off the grid by
    `rescue` so their grid line fell where a covered tile's shadow is, read as
    sure covered cells though their own cut had the opposite shape. The label
    is the frame's own reading, as `fuzz_frames.py --every-frame` makes it."""
    from vision.reader import BoardReader

    fuzz = load("fuzz_frames")
    path = fuzz.RECORDINGS.parent / "tests" / "data" / "cell-sizes"
    path = path / f"sgt-mines-8x8n12-typical-{size}px-play.png"
    plain = BoardReader().read_fresh(load_image(path))
    assert not plain.unknown
    label = {"board": list(plain.board.rows)}
    mutated = fuzz.OVERLAYS["overlay-light"][0](path.read_bytes(), load_image(path), None)
    reading = BoardReader().read_fresh(cv2.imdecode(np.frombuffer(mutated, np.uint8), 1))
    assert reading.geometry.rows == 8 and reading.board.count("0") > 0  # read, not refused
    assert fuzz.sure_and_wrong(reading, label) == []


def test_a_question_mark_half_under_a_white_box_is_not_read_as_a_flag() -> None:
    """GNOME Mines' '?' (its flag with a small question mark at the pole's
    foot) at 36 px, a white box at 50 % over the board's middle whose edge
    cuts the cell through the flag: the part left dark was taken for the
    whole glyph, the spot placed beside the paled question mark found nothing
    there, and the cell read as a sure flag. The label is the frame's own
    reading, as `fuzz_frames.py --every-frame` makes it."""
    from vision.reader import BoardReader

    fuzz = load("fuzz_frames")
    path = fuzz.RECORDINGS.parent / "tests" / "data" / "gnome-qmarks" / "expert-36px-parked.png"
    plain = BoardReader().read_fresh(load_image(path))
    assert not plain.unknown and plain.board.rows[8][7] == "?"
    label = {"board": list(plain.board.rows)}
    mutated = fuzz.OVERLAYS["overlay-light"][2](path.read_bytes(), load_image(path), None)
    reading = BoardReader().read_fresh(cv2.imdecode(np.frombuffer(mutated, np.uint8), 1))
    assert reading.board.count("?") > 0  # read, not refused
    assert fuzz.sure_and_wrong(reading, label) == []
