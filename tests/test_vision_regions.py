"""Skin regions (counter, status text, face, buttons) that the picture cuts off.

A picture cropped tightly around the board, or a play recording (only the
window region is saved), may hold only part of a region the skin expects
beside the board, or none of it. That part is then "not visible": no counter
(None), the status from the board alone; never an exception, never a misread.
The pictures here are real recorded frames cropped with numpy.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.counter import read_counter
from vision.geometry import Geometry
from vision.glyphs import crop_region, read_text
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.skin import load_skins

RECORDINGS = Path(__file__).parent.parent / "recordings"


@pytest.fixture(scope="module")
def reader() -> BoardReader:
    return BoardReader()


def _label(recording: str, frame: str) -> dict[str, object]:
    for line in (RECORDINGS / recording / "labels.jsonl").read_text().splitlines():
        obj = json.loads(line)
        if obj["frame"] == frame:
            return dict(obj)
    raise AssertionError(f"no label for {recording}/{frame}")


def _tight(image: np.ndarray, geo: Geometry, pad: int) -> np.ndarray:
    """The picture cropped to the board plus `pad` pixels on each side."""
    x0, y0 = int(geo.left) - pad, int(geo.top) - pad
    x1, y1 = int(geo.left + geo.width) + pad, int(geo.top + geo.height) + pad
    return np.ascontiguousarray(image[max(0, y0) : y1, max(0, x0) : x1])


@pytest.mark.parametrize(
    ("recording", "frame"),
    [
        # QA's F24 crops: sgt-mines (status text and counter below the board)
        # and GNOME Mines (counter and buttons beside it) crashed in cvtColor.
        ("sgt-mines-beginner-1", "0000.png"),
        ("sgt-mines-intermediate-1", "0003.png"),
        ("gnome-mines-beginner-1", "0000.png"),
        ("gnome-mines-beginner-2", "0003.png"),
        ("xdemineur-beginner-1", "0001.png"),
        ("minegauler-dense-1", "0002.png"),
        # Won boards whose face / "COMPLETED!" is cut off: the numbers prove the win.
        ("sgt-mines-beginner-1", "0002.png"),
        ("xdemineur-beginner-1", "0002.png"),
        ("minegauler-layout-1", "0002.png"),
    ],
)
def test_board_cropped_tightly_reads_without_its_surroundings(
    reader: BoardReader, recording: str, frame: str
) -> None:
    image = load_image(RECORDINGS / recording / "frames" / frame)
    full = reader.read_fresh(image)
    label = _label(recording, frame)
    assert list(full.board.rows) == label["board"]  # the uncropped frame, as recorded
    crop = _tight(image, full.geometry, pad=6)
    assert crop.shape[0] < full.geometry.height + 20  # really only the board
    reading = reader.read_fresh(crop)
    assert reading.skin == full.skin
    assert list(reading.board.rows) == label["board"]
    assert not reading.unknown
    # The counter lies outside the crop: not visible, so not read.
    assert reading.mines_left is None
    # Playing stays playing; lost is still seen (the exploded mine is on the
    # board); won is proved by the numbers (every covered cell a certain mine).
    assert reading.status == label["status"]


def test_region_wholly_outside_is_not_visible() -> None:
    sgt = load_skins(["sgt-mines"])[0]
    assert sgt.status_texts is not None
    image = np.zeros((200, 200, 3), np.uint8)
    # The status text box lies below the board: off a picture that ends with it.
    geo = Geometry(10.0, 10.0, 20.0, 20.0, 9, 9)
    assert crop_region(image, sgt.status_texts.region, geo) is None
    assert read_text(image, sgt.status_texts, geo) == ("", [])
    assert read_counter(image, sgt, geo) is None


def test_region_partly_outside_says_which_sides_are_cut() -> None:
    sgt = load_skins(["sgt-mines"])[0]
    assert sgt.counter is not None
    image = np.zeros((260, 260, 3), np.uint8)
    geo = Geometry(10.0, 10.0, 20.0, 20.0, 9, 9)
    # The box starts 25 px left of the board (off the picture) and ends within it.
    region = crop_region(image, sgt.counter.region, geo)
    assert region is not None
    assert region.cut == (True, False, False, False)
    assert (region.x0, region.y0) == (0, 10 + 180 + 34)
    # ... and 245 px right of the board's left edge minus its 1.5-tile border.
    assert region.grey.shape == (62 - 34, 10 + 245 - 30)


def test_counter_cut_through_a_digit_is_not_misread(reader: BoardReader) -> None:
    """ "10" cut after its "1" must not read as 1: text reaching a cut side is dropped."""
    image = load_image(RECORDINGS / "xdemineur-beginner-1" / "frames" / "0000.png")
    located = reader.locate(image)
    skin, geo = located.skin, located.geometry
    assert skin.counter is not None
    assert read_counter(image, skin, geo) == 10
    text, hits = read_text(image, skin.counter, geo)
    last = max(hits, key=lambda h: h.x)
    # Cut the picture through the middle of the last digit.
    cut = image[:, : last.x].copy()
    assert read_counter(cut, skin, geo) is None
    # Cut just after the counter: everything is still there and is read.
    whole = image[:, : last.x + last.w // 2 + last.w * 2].copy()
    assert read_counter(whole, skin, geo) == 10
    assert text.strip().endswith("10")
