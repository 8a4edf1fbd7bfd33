"""GNOME Mines question marks are never read as flags (QA F12), at any cell size.

GNOME Mines draws its '?' as its flag with a small question mark beside the
foot of the pole, and scales both with the window. With the tile distances
alone, '?' read as a sure F at 23-30 px cells (and at some positions at 36
and 49 px): the bot counted 46 mines instead of 40 and played on a wrong
board. The skin's spot (`vision.colour.Spot`) now tells them apart.

tests/data/gnome-qmarks/ holds real Xvfb frames of GNOME Mines (question
marks on, as harness/clones.py starts it) at window sizes giving 23 to 108 px
cells (23 px is GNOME's smallest: a smaller window cuts the board off), taken
by `benchmarks/gnome_qmarks.py capture`: one row of '?', one of flags, one of
both alternating, placed with xdotool right clicks on a fresh board; the
pointer parked off the board, or over a '?' or a flag (drawn lighter). The
labels come from the clicks and were checked by eye on every frame. Whole
boards cropped with a margin; the 91 and 108 px frames are the whole window.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bot.errors import VisionError
from vision.classify import _cell_bounds
from vision.colour import ColourTable, cell_spots, parse_spots, spots_allow
from vision.image_io import load_image
from vision.reader import BoardReader

DATA = Path(__file__).parent / "data" / "gnome-qmarks"
LABELS = [json.loads(line) for line in (DATA / "labels.jsonl").read_text().splitlines()]


def _misreads(label: dict[str, Any], reader: BoardReader) -> list[str]:
    reading = reader.read_fresh(load_image(DATA / label["frame"]))
    assert reading.skin == "gnome-mines"
    board = label["board"]
    assert (reading.geometry.rows, reading.geometry.cols) == (len(board), len(board[0]))
    unsure = {(u.row, u.col) for u in reading.unknown}
    wrong = []
    for r, row in enumerate(board):
        for c, want in enumerate(row):
            got = "unsure" if (r, c) in unsure else reading.board.rows[r][c]
            # A '?' may be unsure (the bot stops), never anything else; a
            # flag must read F, hovered or not; a covered cell must read '.'.
            if got != want and not (want == "?" and got == "unsure"):
                wrong.append(f"({r}, {c}) {want!r} read {got!r}")
    return wrong


@pytest.mark.parametrize("label", LABELS, ids=[label["frame"] for label in LABELS])
def test_question_marks_and_flags_are_read_at_every_cell_size(label: dict[str, Any]) -> None:
    assert _misreads(label, BoardReader()) == []


def test_the_frames_cover_the_sizes_and_the_hover() -> None:
    pitches = {round(label["pitch"]) for label in LABELS}
    assert {23, 24, 30, 36, 43, 49} <= pitches
    hovered = {
        label["board"][r][c] for label in LABELS if label["hover"] for r, c in [label["hover"]]
    }
    assert hovered == {"?", "F"}


def _cell(label: dict[str, Any], want: str) -> tuple[np.ndarray, tuple[np.ndarray, ...], Any]:
    """A frame, the bounds of its first `want` cell and the located board."""
    image = load_image(DATA / label["frame"])
    located = BoardReader.for_skin("gnome-mines").locate(image)
    x0, x1, y0, y1 = _cell_bounds(located.geometry, located.nudge)
    r, c = next(
        (r, c) for r, row in enumerate(label["board"]) for c, ch in enumerate(row) if ch == want
    )
    return image, (x0[c : c + 1], x1[c : c + 1], y0[r : r + 1], y1[r : r + 1]), located


def test_a_question_mark_shows_the_spot_and_a_flag_lacks_it() -> None:
    label = next(lb for lb in LABELS if lb["frame"] == "intermediate-24px-parked.png")
    for want, verdict in (("?", 1), ("F", 0), (".", -1)):
        image, bounds, located = _cell(label, want)
        assert cell_spots(image, *bounds, located.bank.colours).tolist() == [[verdict]]


@pytest.mark.parametrize(
    "frame", ["expert-23px-parked.png", "intermediate-24px-parked.png", "expert-36px-parked.png"]
)
def test_a_question_mark_half_wiped_is_unsure_never_a_flag_nor_covered(frame: str) -> None:
    """The spot unclear (its mark faint): neither '?' nor F, and not the covered
    tile either, although only the covered tile is then left that the colour allows."""
    label = next(lb for lb in LABELS if lb["frame"] == frame)
    image, bounds, located = _cell(label, "?")
    x0, x1, y0, y1 = (int(b[0]) for b in bounds)
    cell = image[y0:y1, x0:x1]  # a view: painted in place
    grey = cell.astype(np.float32).mean(axis=2)
    background = np.median(grey)
    mark = np.zeros_like(grey, dtype=bool)
    mark[int(0.55 * (y1 - y0)) :, int(0.4 * (x1 - x0)) :] = True  # right of the pole
    mark &= background - grey >= 50
    assert mark.sum() >= 2
    cell[mark] = np.clip(background - 35, 0, 255)  # faint: half the contrast, not ink
    reader = BoardReader.for_skin("gnome-mines")
    reading = reader.read(image, located)
    (r, c) = next(
        (r, c) for r, row in enumerate(label["board"]) for c, ch in enumerate(row) if ch == "?"
    )
    assert (r, c) in {(u.row, u.col) for u in reading.unknown}


def test_spots_rule_only_on_the_kinds_they_name() -> None:
    kinds = (".", "F", "?", "1")
    spots = parse_spots(
        [{"box": [0.5, 0.5, 1, 1], "contrast": 40, "shown": ["?"], "absent": ["F"]}], kinds, "t"
    )
    table = ColourTable.build(kinds, {}, 4, spots=spots)
    assert table is not None
    allowed = spots_allow(np.array([[1], [0], [-1]], dtype=np.int8), table, len(kinds))
    assert allowed.tolist() == [
        [True, False, True, True],  # shows: a '?', never F
        [True, True, False, True],  # absent: F, never '?'
        [True, False, False, True],  # unclear: neither
    ]


@pytest.mark.parametrize(
    "raw",
    [
        {"box": [0.5, 0.5, 1, 1], "shown": ["?"], "absent": ["?"]},
        {"box": [0.5, 0.5, 1, 1], "shown": ["7"]},
        {"box": [0.5, 0.5, 1.5, 1], "shown": ["?"]},
        {"box": [0.5, 0.5], "shown": ["?"]},
        {"box": [0.5, 0.5, 1, 1]},
    ],
)
def test_a_bad_spot_is_a_clear_error(raw: dict[str, Any]) -> None:
    with pytest.raises(VisionError, match=r"spots\[0\]"):
        parse_spots([raw], (".", "F", "?"), "skin.json")
