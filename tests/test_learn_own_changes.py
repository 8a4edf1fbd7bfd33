"""Learning names pictures only from a board that shows nothing but msbot's own doing.

GNOME Mines at 16x16: its "Congratulations" window came over the board while
msbot's last flags were being drawn, and learning named the pieces of that
window on the flagged cells flags (a white panel, a blue "Done" button). Then
the learned skin read the window's background around the board as flags, and
`play` met a "flag" outside the board. Now a board with unknown pictures on
cells msbot neither flagged nor opened (through a cascade), or under a window
the desktop names, teaches nothing.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from bot.board import Board, Cell
from bot.learning.apprentice import Apprentice
from vision.reading import Reading, UnknownCell


def _apprentice(window_over: bool | None) -> Apprentice:
    apprentice = Apprentice(cast(Any, SimpleNamespace()), cast(Any, None), cast(Any, None))
    apprentice.new_game(1)
    apprentice.another_window_over_board = lambda: window_over  # type: ignore[method-assign]
    return apprentice


BEFORE = Board(("0.....", "......", "......"))


def _reading(rows: tuple[str, ...], unknown: list[Cell]) -> Reading:
    cells = tuple(UnknownCell(r, c, 99.0, 0.0, "F") for r, c in unknown)
    return cast(Reading, SimpleNamespace(board=Board(rows), unknown=cells))


def test_a_flag_and_a_cascade_msbot_caused_teach() -> None:
    # (0, 1) opened by msbot, (1, 1) beside it opened with it, (2, 5) flagged.
    reading = _reading(("0.....", "......", "......"), [(0, 1), (1, 1), (2, 5)])
    assert _apprentice(False)._own_changes(reading, BEFORE, [(0, 1)], [(2, 5)])
    assert _apprentice(None)._own_changes(reading, BEFORE, [(0, 1)], [(2, 5)])


def test_a_picture_on_a_cell_msbot_did_not_touch_teaches_nothing() -> None:
    # A window over the board's right part: (0, 4) and (1, 5) changed too.
    reading = _reading(("0.....", "......", "......"), [(2, 5), (0, 4), (1, 5)])
    assert not _apprentice(False)._own_changes(reading, BEFORE, [(0, 1)], [(2, 5)])


def test_a_window_the_desktop_names_over_the_board_teaches_nothing() -> None:
    reading = _reading(("0.....", "......", "......"), [(2, 5)])
    assert not _apprentice(True)._own_changes(reading, BEFORE, [(0, 1)], [(2, 5)])
