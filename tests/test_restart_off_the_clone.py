"""No restart-search click lands outside the clone (`windows.beside_the_clone`).

Zoo seed 924839629's clone 714335114 (a monochrome page: black covered cells
on a white page, on a black desktop): after a win whose dialog came late, the
restart search found the bare desktop beside the window drawn like a column
of covered cells, on the board's lattice, and clicked it six times. A click
a restart search makes goes to the clone's own windows only: the board's,
or a dialog of the same program. The mouse here is a fake answering what
the X server says at each point (`window_at`, `client_at`).
"""

from __future__ import annotations

from desktop_mouse import NoInput

from bot.learning.restart import _off_cells
from bot.learning.windows import beside_the_clone
from vision.geometry import Geometry

#: A board whose middle is (200, 200), in the board's window.
BOARD = Geometry(100.0, 100.0, 20, 20, 10, 10)
OWN, DIALOG, OTHER = 0x400001, 0x400050, 0x800001
#: Each window's program (X client), as `client_at` answers it.
CLIENT = {OWN: 0x400000, DIALOG: 0x400000, OTHER: 0x800000}


class _Desktop(NoInput):
    """The board's window at x < 300, the clone's dialog at 300 <= x < 400,
    another program at 400 <= x < 500, the bare desktop beyond."""

    def __init__(self, knows: bool = True) -> None:
        self.knows = knows

    def window_at(self, x: int, y: int) -> int | None:
        if not self.knows:
            return None
        return OWN if x < 300 else DIALOG if x < 400 else OTHER if x < 500 else 0

    def client_at(self, x: int, y: int) -> int | None:
        top = self.window_at(x, y)
        return CLIENT.get(top) if top else None

    def window_class_at(self, x: int, y: int) -> str:
        return "xterm" if self.window_at(x, y) == OTHER else ""


def test_the_bare_desktop_and_another_program_are_named() -> None:
    mouse = _Desktop()
    assert beside_the_clone(mouse, OWN, BOARD, 600, 50) == "the bare desktop"
    assert beside_the_clone(mouse, OWN, BOARD, 450, 50) == "another program's window (xterm)"


def test_the_clone_s_own_windows_are_clicked() -> None:
    mouse = _Desktop()
    assert beside_the_clone(mouse, OWN, BOARD, 100, 50) == ""
    assert beside_the_clone(mouse, OWN, BOARD, 350, 50) == ""  # its dialog


def test_a_desktop_that_cannot_tell_stops_nothing() -> None:
    assert beside_the_clone(_Desktop(knows=False), OWN, BOARD, 600, 50) == ""
    assert beside_the_clone(_Desktop(), None, BOARD, 600, 50) == ""


def test_a_part_on_the_boards_cells_is_tried_only_inside_a_notice() -> None:
    # A lost board's mines (or the gaps between them) may answer the pointer
    # like buttons: no clone restarts by a click on one of its cells, so a
    # part there is tried only when a notice over the board holds it.
    geo = Geometry(left=100, top=100, cell_w=20, cell_h=20, rows=10, cols=10)
    on_cell, above, in_notice = (150, 150, 170, 170), (150, 60, 190, 90), (200, 200, 240, 220)
    notice = ((180, 180, 260, 240), 3)
    assert _off_cells([on_cell, above, in_notice], geo, []) == [above]
    assert _off_cells([on_cell, above, in_notice], geo, [notice]) == [above, in_notice]
