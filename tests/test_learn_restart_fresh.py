"""What counts as a new game while learning how a clone restarts (`restart._fresh`).

xdemineur opens an area of each new game by itself, up to three quarters of
a beginner board: such a new board has few covered cells, and learning took
it for no new game, pressed Escape, and stopped ("left its board out of
sight") although its face click had worked. Cells open on the finished
board and covered now prove a new game: no game closes a cell.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bot.board import Board
from bot.learning.restart import _fresh, _laid_anew
from vision.cuts import Cuts
from vision.geometry import Geometry
from vision.image_io import load_image
from vision.learn.looks import LookBook, patch_side
from vision.reading import Reading

GEO = Geometry(left=0, top=0, cell_w=20, cell_h=20, rows=3, cols=6)


def _reading(*rows: str, status: str = "playing") -> Reading:
    return Reading("x", GEO, Board(tuple(rows)), None, status)  # type: ignore[arg-type]


FINAL = _reading("000001", "0001*1", "000011", status="lost")


def test_a_new_board_mostly_opened_by_the_clone_is_a_new_game() -> None:
    # Three cells the finished board showed open (0s) are covered now.
    new = _reading("...001", "000011", "001.10")
    assert _fresh(new, FINAL, moved=0.5)


def test_the_finished_board_or_one_that_did_not_change_enough_is_not() -> None:
    assert not _fresh(_reading("000001", "000111", "000011"), FINAL, moved=0.5)
    assert not _fresh(_reading("...001", "000011", "001.10"), FINAL, moved=0.05)
    # A mine shown: a finished board, whatever else changed.
    assert not _fresh(_reading("...001", "0001*1", "......"), FINAL, moved=0.9)


def test_a_new_game_after_a_first_click_loss_moves_only_the_mines() -> None:
    # The web clone in Chromium lost on its first click: its finished board
    # showed only its 10 mines (12 % of 81 cells), so its new board, every
    # cell covered, had changed 12 % of the cells, below the 15 % asked of
    # any new game, and learning said it found no restart although its
    # Restart button had worked.
    lost = _reading("*.....", "......", "......", status="lost")
    fresh = _reading("......", "......", "......")
    shown = 1 / 18
    assert _fresh(fresh, lost, moved=1 / 18, shown=shown)
    assert not _fresh(fresh, lost, moved=0.0, shown=shown)  # nothing changed at all
    assert not _fresh(fresh, lost, moved=1 / 18, shown=1.0)  # the old rule


ANEW = Path(__file__).parent / "data" / "xdemineur-restart-anew"
#: Where the board lies in those frames (the learner's reading of the lost one).
ANEW_GEO = Geometry(left=56, top=111, cell_w=21, cell_h=21, rows=9, cols=12)


def _looks(book: LookBook, name: str) -> np.ndarray:
    image = load_image(ANEW / name)
    xs = np.rint(ANEW_GEO.left + np.arange(ANEW_GEO.cols + 1) * ANEW_GEO.cell_w).astype(np.int64)
    ys = np.rint(ANEW_GEO.top + np.arange(ANEW_GEO.rows + 1) * ANEW_GEO.cell_h).astype(np.int64)
    return book.assign(image, Cuts(xs, ys))


def test_a_new_game_opened_over_every_cell_the_lost_one_had_open_is_a_new_game() -> None:
    # Real frames (bench_learn_live, xdemineur at (40, 30)): the lost game had
    # opened a few cells in the top-left corner; the face click started a new
    # game that opened most of the board by itself, those cells included, so
    # none was covered again and three quarters were open. Learning took it
    # for no new game, pressed Escape, and xdemineur quit.
    book = LookBook(patch=patch_side(21, 21))
    lost, new = _looks(book, "lost.png"), _looks(book, "new-game.png")
    covered = [int(lost[8, 0])]  # a covered cell of the lost board
    assert _laid_anew(lost, new, covered)
    # The same board again, or drawn anew (every picture one other picture), is no new game.
    assert not _laid_anew(lost, lost, covered)
    redrawn = np.where(np.isin(lost, covered), lost, lost + 1000)
    assert not _laid_anew(lost, redrawn, covered)
    # A board three quarters open, no cell covered again: a new game only with `anew`.
    board = Board(("000000000...",) * 9)
    reading = Reading("x", ANEW_GEO, board, None, "playing")  # type: ignore[arg-type]
    final = Reading("x", ANEW_GEO, board, None, "lost")  # type: ignore[arg-type]
    moved = float((new != lost).mean())
    assert not _fresh(reading, final, moved, shown=0.2)
    assert _fresh(reading, final, moved, shown=0.2, anew=True)
    # Laid anew with no covered cell read is no new game: zoo seed 2001782685's
    # menu level of cells twice as large in the same frame, quarters of them in
    # every cell of the 16x16 grid, none covered, was read as a new 16x16 game.
    quarters = Board(("000000000000",) * 9)
    reading = Reading("x", ANEW_GEO, quarters, None, "playing")  # type: ignore[arg-type]
    assert not _fresh(reading, final, moved, shown=0.2, anew=True)
