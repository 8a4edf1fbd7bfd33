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

A clone shows its mines (and wrong flags) only once a game is lost, and
then also the mine that was hit; a skin that says so (`mines_only_when_lost`)
has any mine picture on a board that is not lost reported unsure: a covered
cell seen through a dark box (a dimmed window) is GNOME Mines' mine.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from bot.board import COVERED, MINE, WRONG_FLAG

#: The covered neighbours of a 0: its eight cells around.
_AROUND = np.ones((3, 3), dtype=np.uint8)


def zeros_beside_covered(
    chars: npt.NDArray[np.str_], unsure: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """The sure 0s of every area of 0s that touches a sure plain covered cell
    (`chars`: each cell's best kind; `unsure`: cells not read)."""
    zeros = (chars == "0") & ~unsure
    covered = (chars == COVERED) & ~unsure
    if not zeros.any() or not covered.any():
        return np.zeros(chars.shape, dtype=bool)
    _, labels = cv2.connectedComponents(zeros.astype(np.uint8), connectivity=8)
    near_covered = cv2.dilate(covered.astype(np.uint8), _AROUND).astype(bool)
    broken = np.unique(labels[zeros & near_covered])
    broken_area: npt.NDArray[np.bool_] = np.isin(labels, broken[broken > 0]) & zeros
    return broken_area


#: The kinds a clone shows only on a lost board: mines, wrong flags.
SHOWN_WHEN_LOST = (MINE, WRONG_FLAG)


def mines_before_a_loss(
    chars: npt.NDArray[np.str_], unsure: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """The sure mine and wrong-flag pictures of a board that is not lost."""
    shown: npt.NDArray[np.bool_] = np.isin(chars, SHOWN_WHEN_LOST) & ~unsure
    return shown
