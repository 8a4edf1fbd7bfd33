"""What counts as a new game while learning how a clone restarts (`restart._fresh`).

xdemineur opens an area of each new game by itself, up to three quarters of
a beginner board: such a new board has few covered cells, and learning took
it for no new game, pressed Escape, and stopped ("left its board out of
sight") although its face click had worked. Cells open on the finished
board and covered now prove a new game: no game closes a cell.
"""

from __future__ import annotations

from bot.board import Board
from bot.learning.restart import _fresh
from vision.geometry import Geometry
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
