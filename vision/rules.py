"""The game's rules as a witness against a picture read wrong.

Every clone opens the covered neighbours of an open 0 by itself, so on any
board an area of 0s (its cells touching, diagonals included) is closed by
numbers, flags or question marks, never by a plain covered cell. An area of
0s beside a covered cell is a picture the tiles did not tell apart: a frame
grabbed while the clone still draws its cascade, or covered cells seen
through a light translucent box (a notification, a translucent terminal),
where a covered tile blended with white is the open 0's grey. Which of the
area's cells are wrong the picture does not say, so all of them are reported
unsure, never read.

A number says how many mines lie around it: a 3 with two cells around it
that could hold one (covered, flagged, marked, a mine shown), or a 1 with two
mines shown around it, is a picture read wrong (covered cells seen through a
light box as open cells; numbers seen through a dark box as mines). Again the
picture does not say which cell is wrong: the number and its cells around are
reported unsure. Flags are not counted against a number: a person's wrong
flag is a real picture, and the solver names that contradiction itself.

When a 0 is among them, so is the whole area of 0s it belongs to: one box
blends all the covered cells under it into the open 0's grey. And an area of
0s that only unread cells close is not read either (`zeros_unproven`), nor
any cell a ring of unread cells shuts in (`enclosed`).

A clone shows its mines (and wrong flags) only once a game is lost, and
then also the mine that was hit; a skin that says so (`mines_only_when_lost`)
has any mine picture on a board that is not lost reported unsure: a covered
cell seen through a dark box (a dimmed window) is GNOME Mines' mine.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from bot.board import COVERED, EXPLODED, FLAG, MINE, QUESTION, WRONG_FLAG

#: The covered neighbours of a 0: its eight cells around.
_AROUND = np.ones((3, 3), dtype=np.uint8)


def _areas_of(zeros: npt.NDArray[np.bool_], seeds: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """The cells of every area of `zeros` (touching cells, diagonals included)
    that holds a cell of `seeds`."""
    _, labels = cv2.connectedComponents(zeros.astype(np.uint8), connectivity=8)
    touched = np.unique(labels[zeros & seeds])
    areas: npt.NDArray[np.bool_] = np.isin(labels, touched[touched > 0]) & zeros
    return areas


def zeros_beside_covered(
    chars: npt.NDArray[np.str_], unsure: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """The sure 0s of every area of 0s that touches a sure plain covered cell
    (`chars`: each cell's best kind; `unsure`: cells not read)."""
    zeros = (chars == "0") & ~unsure
    covered = (chars == COVERED) & ~unsure
    if not zeros.any() or not covered.any():
        return np.zeros(chars.shape, dtype=bool)
    near_covered = cv2.dilate(covered.astype(np.uint8), _AROUND).astype(bool)
    return _areas_of(zeros, near_covered)


#: The kinds that may hide or show a mine: a number counts at least its value of them.
_MAY_HOLD = (COVERED, FLAG, QUESTION, MINE, EXPLODED)
#: The kinds that show a mine: a number counts at most its value of them.
_SHOWN_MINES = (MINE, EXPLODED)
#: The eight cells around a cell, itself left out.
_RING = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], dtype=np.float32)


def _around(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int32]:
    """How many of each cell's eight neighbours are in `mask`."""
    counts = cv2.filter2D(mask.astype(np.float32), -1, _RING, borderType=cv2.BORDER_CONSTANT)
    return np.rint(counts).astype(np.int32)


def numbers_broken(
    chars: npt.NDArray[np.str_], unsure: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """The sure cells of every number that its neighbours contradict, with the
    sure cells around it: fewer cells that may hold a mine (unread ones
    included) than it says, or more mines shown than it says."""
    numbers = np.isin(chars, list("012345678")) & ~unsure
    if not numbers.any():
        return np.zeros(chars.shape, dtype=bool)
    value = np.where(numbers, chars, "0").astype(np.int32)
    may_hold = _around(np.isin(chars, _MAY_HOLD) | unsure)
    shown = _around(np.isin(chars, _SHOWN_MINES) & ~unsure)
    broken = numbers & ((may_hold < value) | (shown > value))
    if not broken.any():
        return broken
    near = cv2.dilate(broken.astype(np.uint8), _AROUND).astype(bool) & ~unsure
    # A 0 beside it may be the wrong one, and then its whole area is (one box
    # blended them all): the areas of 0s it touches go with it.
    wrong: npt.NDArray[np.bool_] = near | _areas_of((chars == "0") & ~unsure, near)
    return wrong


def _labels_beside(labels: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> set[int]:
    """The labels of `labels` (0: none) found among the eight neighbours of the
    cells in `mask`."""
    padded = np.pad(labels, 1)
    rows, cols = labels.shape
    found: set[int] = set()
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                shifted = padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
                found.update(int(v) for v in np.unique(shifted[mask]))
    found.discard(0)
    return found


def zeros_unproven(
    chars: npt.NDArray[np.str_], unsure: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """The sure 0s of every area of 0s whose cells around are all unread.

    On a board an area of 0s is closed by numbers (or flags, or the board's
    edge). Where not one of the cells closing it is read surely, nothing in
    the picture backs the 0s: a box blends covered cells into the open 0's
    grey and makes the cells along its edges unsure, and the covered cells it
    blended then form an area of 0s closed only by unsure cells."""
    zeros = (chars == "0") & ~unsure
    if not zeros.any() or not unsure.any():
        return np.zeros(chars.shape, dtype=bool)
    _, labels = cv2.connectedComponents(zeros.astype(np.uint8), connectivity=8)
    beside_unread = _labels_beside(labels, unsure)
    beside_sure = _labels_beside(labels, ~unsure & ~zeros)
    lone = sorted(beside_unread - beside_sure)
    area: npt.NDArray[np.bool_] = np.isin(labels, lone) & zeros
    return area


def enclosed(unsure: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """The sure cells that unsure cells shut off from every edge of the board.

    Not a rule of the game but of pictures: what makes a ring of cells
    unreadable (the edges of a box, a dialog or a translucent window over the
    middle of the board) lies over everything inside the ring too, and a
    translucent cover can turn one kind's picture into another's (an open 0
    blended with white is sgt-mines' covered grey; a covered cell under a
    dark box is GNOME Mines' mine). Nothing inside is read."""
    sure = ~unsure
    if not unsure.any() or not sure.any():
        return np.zeros(unsure.shape, dtype=bool)
    _count, labels, stats, _ = cv2.connectedComponentsWithStats(
        sure.astype(np.uint8), connectivity=8
    )
    rows, cols = unsure.shape
    x, y = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    w, h = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    inside = (x > 0) & (y > 0) & (x + w < cols) & (y + h < rows)
    inside[0] = False  # the unsure cells themselves
    shut: npt.NDArray[np.bool_] = inside[labels] & sure
    return shut


#: The kinds a clone shows only on a lost board: mines, wrong flags.
SHOWN_WHEN_LOST = (MINE, WRONG_FLAG)


def mines_before_a_loss(
    chars: npt.NDArray[np.str_], unsure: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """The sure mine and wrong-flag pictures of a board that is not lost."""
    shown: npt.NDArray[np.bool_] = np.isin(chars, SHOWN_WHEN_LOST) & ~unsure
    return shown
