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

from bot.actuator import Actuator
from bot.actuator._base import Button, Mouse
from bot.learning.apprentice import Apprentice
from vision.geometry import Geometry

GEO = Geometry(left=100, top=80, cell_w=20, cell_h=20, rows=9, cols=9)


class _Windows(Mouse):
    """Answers `window_at` with `where(x, y)`; sends nothing."""

    def __init__(self, where: Callable[[int, int], int | None]) -> None:
        self.where = where

    def window_at(self, x: int, y: int) -> int | None:
        return self.where(x, y)

    def click(self, x: int, y: int, button: Button) -> None:
        raise AssertionError("no click in this test")

    def click_both(self, x: int, y: int) -> None:
        raise AssertionError("no click in this test")

    def key(self, name: str) -> None:
        raise AssertionError("no key in this test")

    def move(self, x: int, y: int) -> None:
        pass


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
