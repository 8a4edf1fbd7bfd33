"""3BV: the statistic Minesweeper players compare games by.

A board's 3BV ("Bechtel's Board Benchmark Value") is the least number of
left clicks that clears it: one per opening (a connected patch of zeros, which
one click opens with its border of numbers) plus one per number that borders
no opening. Players report 3BV/s (3BV over the game's time) and efficiency
(3BV over the clicks made). A lost game has a solved 3BV: the openings and
lone numbers it had opened. The community's own tools (PyPI `ms-toollib`)
compute the same; tests/test_threebv.py checks this module against it.

Everything here works on a finished board's mine layout, which the screen
shows only at the end: a won board's covered cells are its mines, a lost one
shows them (`layout`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import FLAG, UNOPENED, Board

#: Characters of a lost board that are mines: shown, hit, flagged rightly.
MINE_CHARS = frozenset("*!F")
#: Characters that are opened cells (zeros and numbers).
OPENED_CHARS = frozenset("012345678")


@dataclass(frozen=True)
class ThreeBV:
    """A finished game's 3BV and how much of it was done (all of it, when won)."""

    total: int
    solved: int


def neighbour_counts(mines: np.ndarray) -> np.ndarray:
    """How many of each cell's eight neighbours are mines."""
    kernel = np.ones((3, 3), np.float32)
    kernel[1, 1] = 0
    counts = cv2.filter2D(mines.astype(np.float32), -1, kernel, borderType=cv2.BORDER_CONSTANT)
    return np.rint(counts).astype(np.int32)


def _openings(mines: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """(number of openings, label of each zero cell's opening (0: none), and the
    lone numbers: safe cells that are no zero and border no opening)."""
    zeros = (~mines) & (neighbour_counts(mines) == 0)
    count, labels = cv2.connectedComponents(zeros.astype(np.uint8), connectivity=8)
    near_zero = cv2.dilate(zeros.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    return count - 1, labels, ~near_zero & ~mines


def three_bv(mines: np.ndarray) -> int:
    """The 3BV of a layout (True: a mine)."""
    count, _, lone = _openings(mines)
    return int(count + lone.sum())


def solved(mines: np.ndarray, opened: np.ndarray) -> int:
    """The 3BV done by the `opened` cells: each opening with a zero opened, each
    lone number opened (a number on an opening's border does not open it)."""
    _, labels, lone = _openings(mines)
    done_openings = len(np.unique(labels[(labels > 0) & opened]))
    return int(done_openings + (lone & opened).sum())


def layout(board: Board, status: str, total: int | None) -> np.ndarray | None:
    """The mines of a finished board, or None where the screen does not tell
    them all: a won board's unopened cells are its mines; a lost board's are
    the mines it shows (hit, shown, rightly flagged), if they are all there
    (as many as `total`, the count the game started with)."""
    chars = np.array([list(row) for row in board.rows])
    if status == "won":
        mines = np.isin(chars, [*UNOPENED, FLAG, "*"])
    elif status == "lost":
        mines = np.isin(chars, list(MINE_CHARS))
    else:
        return None
    if total is not None and int(mines.sum()) != total:
        return None
    if total is None and status == "lost":
        return None
    return mines


def of_game(board: Board, status: str, total: int | None) -> ThreeBV | None:
    """The 3BV of a finished game on `board` (its final reading), None when its
    layout is not on screen."""
    mines = layout(board, status, total)
    if mines is None:
        return None
    chars = np.array([list(row) for row in board.rows])
    opened = np.isin(chars, list(OPENED_CHARS))
    full = three_bv(mines)
    return ThreeBV(full, full if status == "won" else solved(mines, opened))
