"""The apprentice's probe flag (`Apprentice._probe`) comes off again whatever the mark cycle.

When clicks show no effect, learning asks whether the game still takes clicks:
it flags a covered cell far from the clicks and takes the flag off. On
xdemineur (flag, "?", covered) one run in ten stopped with "the probe flag at
(4, 0) did not come off again": the picture was given one second, and one
right click when the first look had not seen the "?" step. With no covered
cell left to mark, a flag is asked instead (taken off, then put back). The
clone here is drawn by the test: its cells step through their marks on right
clicks, or ignore them once its game is over.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import numpy as np
import pytest

from bot.actuator import Actuator
from bot.actuator._base import Button, Mouse
from bot.board import Cell, parse_board
from bot.errors import PlayError
from bot.learning import apprentice as apprentice_module
from bot.learning.apprentice import Apprentice
from vision.capture import Region
from vision.geometry import Geometry
from vision.reading import Reading

CELL = 20
GEO = Geometry(left=100, top=80, cell_w=CELL, cell_h=CELL, rows=9, cols=9)
REGION = Region(100, 80, 9 * CELL, 9 * CELL)
#: Grey levels of covered, flag, "?" and a fourth mark no clone has (the cycle's order).
SHADES = (192, 40, 110, 250)


class _Clone(Mouse):
    """A 9x9 board whose right clicks step each cell through `cycle` marks; the
    screen it draws is grabbed through `grab`."""

    def __init__(self, cycle: int, over: bool = False) -> None:
        self.cycle = cycle
        #: The game is over: clicks change nothing.
        self.over = over
        self.marks = np.zeros((9, 9), np.int64)
        self.clicks = 0

    def grab(self, region: Region | None) -> np.ndarray:
        shades = np.asarray(SHADES, np.uint8)[self.marks]
        return np.repeat(np.repeat(shades, CELL, 0), CELL, 1)[..., None].repeat(3, 2)

    def click(self, x: int, y: int, button: Button) -> None:
        assert button == "right"
        r, c = (y - REGION.top) // CELL, (x - REGION.left) // CELL
        self.clicks += 1
        if not self.over:
            self.marks[r, c] = (self.marks[r, c] + 1) % self.cycle

    def click_both(self, x: int, y: int) -> None:
        raise AssertionError("no chord in this test")

    def key(self, name: str) -> None:
        raise AssertionError("no key in this test")

    def move(self, x: int, y: int) -> None:
        pass

    def window_at(self, x: int, y: int) -> int | None:
        return None


def _probe(
    clone: _Clone,
    question_marks: bool,
    rows: list[str] | None = None,
    held: frozenset[Cell] = frozenset(),
) -> bool:
    in_region = Geometry(left=0, top=0, cell_w=CELL, cell_h=CELL, rows=9, cols=9)
    window = SimpleNamespace(
        geometry=GEO, region=REGION, screen=clone, located=SimpleNamespace(geometry=in_region)
    )
    draft = SimpleNamespace(question_marks=question_marks, book=SimpleNamespace(same=1.0))
    actuator = Actuator(clone)
    actuator.bind(GEO)
    apprentice = Apprentice(cast(Any, draft), cast(Any, None), actuator, window=cast(Any, window))
    apprentice.new_game(1)
    apprentice.current().held |= held
    apprentice._name_flags = lambda image, cells: None  # type: ignore[method-assign]
    board = parse_board("\n".join(rows or ["0" + "." * 8] * 9))
    reading = cast(Any, SimpleNamespace(board=board, unknown=()))
    return apprentice._probe(cast(Reading, reading), [(0, 0)])


@pytest.mark.parametrize(("cycle", "question_marks"), [(2, False), (3, True), (3, False)])
def test_the_probe_flag_comes_off_whatever_the_cycle(
    cycle: int, question_marks: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(apprentice_module, "UNMARK_TIMEOUT", 0.3)
    clone = _Clone(cycle)
    assert _probe(clone, question_marks) is True
    assert not clone.marks.any(), "a mark left on the board"
    assert clone.clicks == cycle  # one flag, then back through the cycle to covered


def test_a_flag_that_never_comes_off_stops_with_its_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apprentice_module, "UNMARK_TIMEOUT", 0.3)
    clone = _Clone(4)  # a cycle longer than any clone's: the probe gives up
    with pytest.raises(PlayError, match=r"did not come off again"):
        _probe(clone, question_marks=False)


# xdemineur once won with every mine flagged while the 0s it had opened by
# itself were not named yet (held: shown covered, never clicked): no covered
# cell was left to probe, so the probe said "over" without asking; the play
# loop then stopped with "nothing left to do" on the won board. A flag is
# asked instead: taken off, then put back.
ROWS = ["F" + "." * 8, "." * 8 + "F", *["." * 9] * 7]
HELD = frozenset((r, c) for r in range(9) for c in range(9)) - {(0, 0), (1, 8)}


@pytest.mark.parametrize(("cycle", "question_marks"), [(2, False), (3, True)])
def test_a_flag_is_probed_when_no_covered_cell_may_be(cycle: int, question_marks: bool) -> None:
    clone = _Clone(cycle)
    clone.marks[0, 0] = clone.marks[1, 8] = 1  # the flags on the board
    assert _probe(clone, question_marks, ROWS, HELD) is True
    assert clone.marks[0, 0] == clone.marks[1, 8] == 1, "a flag not put back"
    assert clone.marks.sum() == 2
    assert clone.clicks == cycle


def test_a_game_that_ignores_the_flag_probe_is_over() -> None:
    clone = _Clone(2, over=True)
    clone.marks[0, 0] = clone.marks[1, 8] = 1
    assert _probe(clone, False, ROWS, HELD) is False
    assert clone.clicks == 1
