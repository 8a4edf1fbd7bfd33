"""The game's rules against a picture read wrong (`vision.rules`)."""

from __future__ import annotations

import numpy as np

from vision.rules import zeros_beside_covered


def _grid(text: str) -> np.ndarray:
    return np.array([list(row) for row in text.split()])


def test_an_area_of_zeros_beside_a_covered_cell_is_not_read() -> None:
    # A light box made covered cells read 0: the area touches covered cells.
    chars = _grid("0000.. 0000.. 1110.. ..1.F.")
    unsure = np.zeros(chars.shape, dtype=bool)
    broken = zeros_beside_covered(chars, unsure)
    assert broken.sum() == int((chars == "0").sum())  # the whole area, not only its edge
    assert not broken[chars != "0"].any()


def test_zeros_closed_by_numbers_flags_or_unread_cells_are_read() -> None:
    settled = _grid("0001. 0012. 111F. F....")
    assert not zeros_beside_covered(settled, np.zeros(settled.shape, dtype=bool)).any()
    # A covered-looking cell the reader is unsure of may be a number: no proof.
    chars = _grid("000. 000. 111.")
    unsure = chars == "."
    unsure[0, 3] = True
    assert not zeros_beside_covered(chars, unsure).any()
    # Diagonal neighbours count: a 0 opens all eight.
    diagonal = _grid("0.. .1. ...")
    assert zeros_beside_covered(diagonal, np.zeros(diagonal.shape, dtype=bool))[0, 0]


def test_mines_on_a_board_that_is_not_lost_are_not_read() -> None:
    from vision.rules import mines_before_a_loss

    chars = _grid("1*X. 11F. ....")
    unsure = np.zeros(chars.shape, dtype=bool)
    assert mines_before_a_loss(chars, unsure).tolist() == [
        [False, True, True, False],
        [False] * 4,
        [False] * 4,
    ]
    unsure[0, 1] = True  # already unread: nothing to add
    assert mines_before_a_loss(chars, unsure).sum() == 1


def test_a_number_its_cells_cannot_hold_is_not_read_nor_its_cells_around() -> None:
    from vision.rules import numbers_broken

    # A 3 with one covered cell around it: the 0s beside it (a light box made
    # covered cells read 0) and their whole area go with it.
    chars = _grid("3..1. 0001. 0001. 1111. .....")
    broken = numbers_broken(chars, np.zeros(chars.shape, dtype=bool))
    assert broken[0, :2].all() and broken[1:3, :3].all()
    assert not broken[0, 2:].any() and not broken[1:, 3].any() and not broken[3:].any()
    # A 1 with two mines shown around it (a dark box made numbers read mines).
    lost = _grid("*1* ... ...")
    assert numbers_broken(lost, np.zeros(lost.shape, dtype=bool))[0].all()


def test_numbers_their_cells_can_hold_are_read() -> None:
    from vision.rules import numbers_broken

    settled = _grid("0001. 0012. 111F. F.... *!...")
    assert not numbers_broken(settled, np.zeros(settled.shape, dtype=bool)).any()
    # An unread cell may hold a mine; a person's flags are not counted.
    chars = _grid("2.0 .00 000")
    unsure = np.zeros(chars.shape, dtype=bool)
    unsure[1, 0] = True
    assert not numbers_broken(chars, unsure).any()
    flags = _grid("1F. F.. ...")
    assert not numbers_broken(flags, np.zeros(flags.shape, dtype=bool)).any()


def test_an_area_of_zeros_closed_only_by_unread_cells_is_not_read() -> None:
    from vision.rules import zeros_unproven

    # A box over the middle: its edges unread, the covered cells under it 0s.
    chars = _grid("...... .1111. .1001. .1001. .1111. ......")
    unsure = np.zeros(chars.shape, dtype=bool)
    unsure[1:5, 1:5] = True
    unsure[2:4, 2:4] = False
    assert zeros_unproven(chars, unsure)[2:4, 2:4].all()
    # One unread cell beside an area of 0s that sure numbers also close: read.
    settled = _grid("0001. 0012. 111F. .....")
    one = np.zeros(settled.shape, dtype=bool)
    one[0, 0] = True
    assert not zeros_unproven(settled, one).any()
    assert not zeros_unproven(settled, np.zeros(settled.shape, dtype=bool)).any()


def test_cells_a_ring_of_unread_cells_shuts_in_are_not_read() -> None:
    from vision.rules import enclosed

    unsure = np.zeros((6, 7), dtype=bool)
    unsure[1, 1:6] = unsure[4, 1:6] = unsure[1:5, 1] = unsure[1:5, 5] = True  # a box's edges
    shut = enclosed(unsure)
    assert shut[2:4, 2:5].all() and shut.sum() == 6
    # A ring open to the board's edge shuts nothing in; nor does one unread cell.
    unsure[4, 3] = False
    assert not enclosed(unsure).any()
    one = np.zeros((6, 7), dtype=bool)
    one[3, 3] = True
    assert not enclosed(one).any()
