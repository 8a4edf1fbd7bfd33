"""Nothing under a window over a finished board is read or named.

Zoo seed 1677355428 (the run with seed 1386726693): the clone's "Game over"
dialog, a window of its own, came over the cell msbot hit. The learner named
the picture found there, the dialog's "Play again" button, the hit mine, and
at a later end read the cell under the dialog as a sure hit mine where a flag
was. The desktop says which window lies where: a finished board's cells under
another window are unread (`Waiter.next_reading`), and the hit cell is named
only when no other window lies over it (`Apprentice._under_a_window`). The
mice here are fakes that answer window ids.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import numpy as np
from desktop_mouse import NoInput

from bot.actuator import Actuator
from bot.learning.apprentice import Apprentice
from bot.play.waiting import Pending, Waiter
from vision.classify import make_bank
from vision.geometry import Geometry
from vision.image_io import load_image
from vision.locate import Located
from vision.reader import BoardReader
from vision.reading import Reading
from vision.skin import load_skin

DATA = Path(__file__).parent / "data" / "zoo" / "seed-1677355428"
#: The board on the screen, and the dialog's window (x, y, width, height).
GEO = Geometry(647.0, 244.0, 31, 31, 15, 15)
DIALOG = (806, 430, 146, 92)
BOARD_WINDOW, DIALOG_WINDOW = 0x400001, 0x400077


class _Desktop(NoInput):
    """The dialog's window over its rectangle, the board's window elsewhere."""

    def window_at(self, x: int, y: int) -> int | None:
        dx, dy, w, h = DIALOG
        return DIALOG_WINDOW if dx <= x < dx + w and dy <= y < dy + h else BOARD_WINDOW

    def window_rect_at(self, x: int, y: int) -> tuple[int, int, int, int] | None:
        return DIALOG if self.window_at(x, y) == DIALOG_WINDOW else None


def _apprentice() -> Apprentice:
    window = cast(Any, SimpleNamespace(geometry=GEO))
    apprentice = Apprentice(cast(Any, None), cast(Any, None), Actuator(_Desktop()), window=window)
    apprentice.board_window = BOARD_WINDOW
    return apprentice


def _end_reading() -> Reading:
    """The frame at the end, read with the skin learned then (screen pixels)."""
    skin = load_skin(DATA / "skin")
    region = Geometry(GEO.left - 461, GEO.top - 84, 31, 31, 15, 15)  # the frame's origin
    reading = BoardReader([skin]).read(
        load_image(DATA / "game-over.png"), Located(skin, region, make_bank(skin))
    )
    return replace(reading, geometry=GEO)


def _waited(shown: Reading, learner: SimpleNamespace) -> Reading:
    """The reading `Waiter.next_reading` takes when the screen shows `shown`
    all along (a clock that ticks 10 ms a look), with `learner`."""
    window = SimpleNamespace(grab_reading=lambda: (None, shown), located=None)
    ticks = iter(np.arange(0.0, 100.0, 0.01))
    waiter = Waiter(
        cast(Any, window),
        cast(Any, None),
        cast(Any, SimpleNamespace(effect_timeout=1.0, unreadable_frames=100)),
        cast(Any, SimpleNamespace(check=lambda: None)),
        lambda reading, image: None,
        lambda action: None,
        clock=lambda: float(next(ticks)),
        learner=cast(Any, learner),
    )
    return waiter.next_reading(Pending(total=None), None)[1]


def test_the_hit_cell_under_the_dialog_is_not_named() -> None:
    apprentice = _apprentice()
    assert apprentice._under_a_window((7, 7))  # under "Play again"
    assert not apprentice._under_a_window((0, 0))


def test_a_finished_board_s_cells_under_a_window_are_unread() -> None:
    end = _end_reading()
    # What the skin learned then reads under the dialog: a sure hit mine.
    assert end.status == "lost" and end.board[7, 7] == "!"
    assert (7, 7) not in end.unread
    learner = SimpleNamespace(under_other_windows=_apprentice().under_other_windows)
    seen = _waited(end, learner)
    assert seen.status == "lost"
    assert (7, 7) in seen.unread
    # Every cell the dialog overlaps by more than a pixel, and none other.
    dx, dy, w, h = DIALOG
    under = {
        (r, c)
        for r in range(15)
        for c in range(15)
        if dx < GEO.left + (c + 1) * 31 - 1
        and GEO.left + c * 31 + 1 < dx + w
        and dy < GEO.top + (r + 1) * 31 - 1
        and GEO.top + r * 31 + 1 < dy + h
    }
    assert under <= seen.unread
    assert seen.unread - under == end.unread - under


class _WonDialog(NoInput):
    """Zoo seed 1502643724's "You won!" dialog over its board, as the desktop says."""

    rect = (425, 528, 128, 92)

    def window_at(self, x: int, y: int) -> int | None:
        dx, dy, w, h = self.rect
        return DIALOG_WINDOW if dx <= x < dx + w and dy <= y < dy + h else BOARD_WINDOW

    def window_rect_at(self, x: int, y: int) -> tuple[int, int, int, int] | None:
        return self.rect if self.window_at(x, y) == DIALOG_WINDOW else None


def test_a_win_the_learner_finds_is_read_through_no_window_either() -> None:
    """Zoo seed 1502643724 (msbot's grab from (73, 222)): its plain grey "You
    won!" dialog over a flag read as a sure covered cell; the skin read the
    game in play, the learner found it won, and that reading was not checked
    against the desktop's windows."""
    folder = Path(__file__).parent / "data" / "zoo" / "seed-1502643724"
    skin = load_skin(folder / "skin")
    geo = Geometry(233.0, 382.0, 32.0, 24.0, 16, 16)
    region = Geometry(geo.left - 73, geo.top - 222, 32.0, 24.0, 16, 16)
    shown = BoardReader([skin]).read(
        load_image(folder / "won-under-dialog.png"), Located(skin, region, make_bank(skin))
    )
    shown = replace(shown, geometry=geo)
    assert shown.status == "playing" and not shown.certain
    assert shown.board[8, 6] == "." and (8, 6) not in shown.unread  # the clone shows a flag
    window = cast(Any, SimpleNamespace(geometry=geo))
    apprentice = Apprentice(cast(Any, None), cast(Any, None), Actuator(_WonDialog()), window=window)
    apprentice.board_window = BOARD_WINDOW
    learner = SimpleNamespace(
        explain=lambda *args: replace(shown, status="won"),
        end_image=lambda: None,
        under_other_windows=apprentice.under_other_windows,
    )
    seen = _waited(shown, learner)
    assert seen.status == "won"
    assert {(r, c) for r in range(6, 10) for c in range(6, 10)} <= seen.unread
