"""Escape only when another window lies over the board (`Apprentice.another_window_over_board`).

Learning presses Escape to close a clone's "you lost" dialog over the finished
board. ace-minesweeper has no dialog: it quits on Escape, and every ace run
ended there (a lost board that showed new pictures was taken for a window over
it). The desktop tells which top-level window is at a point (X11: the
server); the keys go only when it is not the board's own window, or when the
desktop cannot tell. The mouse here is a fake that answers window ids.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, cast

import numpy as np
from desktop_mouse import NoInput

from bot.actuator import Actuator
from bot.actuator._base import Mouse
from bot.learning.apprentice import Apprentice
from bot.learning.first_look import Looker
from vision.capture import Region
from vision.cuts import Cuts
from vision.geometry import Geometry
from vision.learn.grid import cut_patches
from vision.learn.looks import LookBook, patch_side, same_bound

GEO = Geometry(left=100, top=80, cell_w=20, cell_h=20, rows=9, cols=9)


class _Windows(NoInput):
    """Answers `window_at` with `where(x, y)`; sends nothing."""

    def __init__(self, where: Callable[[int, int], int | None]) -> None:
        self.where = where

    def window_at(self, x: int, y: int) -> int | None:
        return self.where(x, y)


def _apprentice(mouse: Mouse) -> Apprentice:
    window = cast(Any, SimpleNamespace(geometry=GEO))
    apprentice = Apprentice(cast(Any, None), cast(Any, None), Actuator(mouse), window=window)
    apprentice.new_game(1)
    return apprentice


def test_the_board_s_own_window_there_means_no_dialog() -> None:
    ids: dict[str, int | None] = {"middle": 7}

    def where(x: int, y: int) -> int | None:
        middle = abs(x - (GEO.left + GEO.width / 2)) < 2 and abs(y - (GEO.top + GEO.height / 2)) < 2
        return ids["middle"] if middle else 7

    apprentice = _apprentice(_Windows(where))
    assert apprentice.board_window == 7
    assert apprentice.another_window_over_board() is False
    ids["middle"] = 9  # a dialog over the board's middle
    assert apprentice.another_window_over_board() is True
    ids["middle"] = None  # the server could not say
    assert apprentice.another_window_over_board() is None


def test_a_desktop_that_cannot_tell_leaves_the_old_rule() -> None:
    apprentice = _apprentice(_Windows(lambda x, y: None))
    assert apprentice.board_window is None
    assert apprentice.another_window_over_board() is None
    # Over the bare desktop (id 0) at the game's start: nothing to compare with.
    assert _apprentice(_Windows(lambda x, y: 0)).another_window_over_board() is None


# ------------------------------------------------------------------ first look
# xdemineur quits on Escape too. Its first look at a board the clone had opened
# by itself sent Escape "to close the menu the click opened" whenever the
# picture changed after a right click that flagged nothing, and its timer,
# ticking beside the board, always changed it: the window closed and learning
# said "no cell reacted to a right click" (4 of 7 runs at one window position).


def _looker(mouse: Mouse) -> tuple[Looker, np.ndarray]:
    """A Looker on a synthetic 9x9 board (20 px cells, grey) and that picture."""
    image = np.full((GEO.rows * 20, GEO.cols * 20, 3), 192, np.uint8)
    cuts = Cuts(np.arange(GEO.cols + 1) * 20, np.arange(GEO.rows + 1) * 20)
    side = patch_side(20, 20)
    book = LookBook(same_bound(cut_patches(image, cuts, side)), side)
    book.assign(image, cuts)
    region = Region(int(GEO.left), int(GEO.top), image.shape[1], image.shape[0])
    looker = Looker(cast(Any, None), Actuator(mouse), GEO, region, cuts, book, lambda s: None)
    return looker, image


def test_first_look_sends_no_escape_to_the_board_s_own_window() -> None:
    looker, image = _looker(_Windows(lambda x, y: 7))
    assert looker.board_window == 7
    assert looker.menu_over(4, 4, image, image) is False
    changed = image.copy()
    changed[80:100, 80:100] = 0  # even a cell that changed: the desktop says no menu
    assert looker.menu_over(4, 4, image, changed) is False


def test_first_look_sees_a_menu_opened_at_the_click() -> None:
    menu = {"on": False}
    x, y = GEO.cell_center(4, 4)

    def where(px: int, py: int) -> int | None:
        # A menu opens with its corner at the pointer, down-right of it.
        return 9 if menu["on"] and px > x and py > y and px < x + 100 else 7

    looker, image = _looker(_Windows(where))
    menu["on"] = True
    assert looker.menu_over(4, 4, image, image) is True


def test_first_look_without_a_desktop_answer_looks_at_the_cells_only() -> None:
    looker, image = _looker(_Windows(lambda x, y: None))
    assert looker.board_window is None
    assert looker.menu_over(4, 4, image, image) is False  # (a timer outside the cells)
    changed = image.copy()
    changed[80:100, 80:100] = 0  # a menu over cell (4, 4)
    assert looker.menu_over(4, 4, image, changed) is True


def test_a_dialog_over_neither_the_middle_nor_a_corner_is_seen() -> None:
    # KMines (its setting "allow reset") asks "Reset the Game?" over a lost
    # board, in a 176x84 px window that covered rows 1 to 3 of its 9x9 board
    # but neither the board's middle nor a corner cell (the real frame's
    # places, screen pixels): no Escape went, the dialog kept the keys, and
    # learning stopped with "no new game appeared after restarting".
    geo = Geometry(left=234, top=116, cell_w=28, cell_h=28, rows=9, cols=9)
    dialog = {"on": False}

    def where(x: int, y: int) -> int | None:
        return 9 if dialog["on"] and 256 <= x < 432 and 148 <= y < 232 else 7

    apprentice = _apprentice(_Windows(where))
    apprentice.window = cast(Any, SimpleNamespace(geometry=geo))
    apprentice.new_game(2)
    assert apprentice.board_window == 7
    assert apprentice.another_window_over_board() is False
    dialog["on"] = True
    corners = [geo.cell_center(r, c) for r in (0, 8) for c in (0, 8)]
    middle = (round(geo.left + geo.width / 2), round(geo.top + geo.height / 2))
    assert all(where(x, y) == 7 for x, y in [middle, *corners])  # what was looked at before
    assert apprentice.another_window_over_board() is True
