"""Each click checked at its own moment, not its batch's.

A batch of clicks is planned on one reading, and its last click lands tens
of milliseconds later on whatever is there by then: a window that appeared
over the middle of the board (the corner anchors of `bot.play.anchors` do not see
a box that misses the corners), a new game a person started, a cell an
earlier click's cascade opened. So right before each click on a cell,
`ClickCheck.before`:

* asks the desktop which top-level window lies under the point
  (`Mouse.window_at`, one X request): it must be the board's own, known at
  the game's start. Another program's window, or none (the clone closed),
  stops the run naming it, nothing clicked; a window of the clone itself (its
  end-of-game dialog) refuses the click with `NotInPlace`, as a change does
  below. A desktop that cannot say leaves the pixels alone to judge;
* waits until the batch's previous click shows on the screen (its cell, or
  a chord's neighbours, changed). A clone draws when its input queue is
  empty: clicks sent a millisecond apart starve its redraws (sgt-mines drew
  nothing of a 32-click batch until its end), so a person's new game was
  played into unseen. A click that does not show within SHOWN_S ends the
  batch: the loop's wait for it takes over (`bot.play.waiting`);
* grabs the cell and its neighbours again (a few thousand pixels) and
  compares them with the picture the plan was made on: the cell itself, and
  the open cells around it (open cells never change within a game: a new
  game covers them again). A change refuses the click with `NotInPlace`: the
  loop reads the screen again and plans on what it shows (a person's new
  game is played as the next game; `bot.play.loop`).

Cells the batch already clicked are left out of the comparison (their
pictures are meant to change); covered neighbours too (an earlier click's
cascade may open them, which changes nothing the plan relies on).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from bot.actuator._base import ActionKind, Mouse
from bot.board import NUMBERS, Cell
from bot.errors import NotInPlace
from bot.learning.windows import board_points, only_window, windows_at
from vision.capture import Image, Region
from vision.geometry import Geometry
from vision.reading import Reading

if TYPE_CHECKING:
    from bot.play.window import GameWindow

#: Mean difference (0-255, over the channels) past which a cell's picture
#: changed. A settled screen repeats itself exactly; a translucent box at 30 %
#: moves a grey cell by 40 or more, a new game's covered tile replaces a number.
CHANGED = 6.0
#: Share of a cell's width and height left out on each side: its outline may be
#: shared with a neighbour whose picture is meant to change (an opened cell's
#: border redrawn), and a grid of fractional pixels blurs it.
INSET = 0.2
#: Seconds the batch's previous click is given to show before the next one.
SHOWN_S = 0.25
#: The inset when a click's own effect is looked for: all but the cell's
#: outermost pixel (an open 0 of a classic skin differs from a covered cell
#: only in its bevel).
SHOWN_INSET = 0.05


@dataclass
class Basis:
    """What the batch of clicks being made was planned on."""

    #: The window region's picture (`GameWindow.region` coordinates).
    image: Image
    region: Region
    reading: Reading
    #: Cells clicked since (their pictures are meant to change).
    clicked: set[Cell] = field(default_factory=set)
    #: The batch's last click (kind, cell): the next waits until it shows.
    last: tuple[ActionKind, Cell] | None = None


class ClickCheck:
    """The window and pixel checks made before every click on a cell."""

    def __init__(self, window: GameWindow, mouse: Mouse) -> None:
        self.window = window
        self.mouse = mouse
        #: The board's own top-level window (None: the desktop cannot say).
        self.own: int | None = None
        #: The X client (program) that made that window, as last seen (None: not
        #: known): a dialog of the clone that hides the whole board is told by it.
        self.own_client: int | None = None
        self.basis: Basis | None = None
        #: Milliseconds each check took (`GameResult.check_ms`).
        self.ms: list[float] = []

    def new_game(self, geometry: Geometry) -> None:
        """Ask the desktop which window holds the board (its middle and cells
        across it: a window over part of it already leaves this unknown)."""
        points = board_points(geometry)
        self.own = only_window(windows_at(self.mouse, points))
        self.own_client = None if self.own is None else self.mouse.client_at(*points[0])
        self.basis = None

    def begin(self, image: Image, reading: Reading) -> None:
        """A batch planned on `reading` (grabbed as `image`) starts."""
        region = self.window.region
        self.basis = None if region is None else Basis(image, region, reading)

    def end(self) -> None:
        """The batch is over: clicks made outside one (the learner's probes, a
        retry) are checked against the window alone."""
        self.basis = None

    def before(self, row: int, col: int, x: int, y: int, kind: ActionKind) -> None:
        """Raise unless a click (`kind`) at (x, y) on cell (row, col) lands on
        the board the plan saw; a "hover" (no click) is checked for its window."""
        started = time.perf_counter()
        try:
            self._window(row, col, x, y)
            basis = self.basis
            if basis is None or kind == "hover":
                return
            if basis.last is not None:
                self._shown(basis, *basis.last)
            self._pixels(basis, row, col)
            basis.clicked.add((row, col))
            basis.last = (kind, (row, col))
        finally:
            self.ms.append((time.perf_counter() - started) * 1000)

    def at_board(self) -> tuple[str, str]:
        """What the desktop says lies at the board's place (`GameWindow.desktop`):
        ("covered", text) another window over part of it, ("gone", text) no
        window anywhere on it, ("own", "") its own window all over it, ("", "")
        no answer."""
        if self.own is None or (tops := self._tops()) is None:
            return "", ""
        points, seen = tops
        for (x, y), top in zip(points, seen, strict=True):
            if top not in (None, 0, self.own):
                kind = self.mouse.window_class_at(x, y)
                return "covered", (
                    f"another window ({kind or f'id {top:#x}'}) lies over the board at "
                    f"({x}, {y}): move or close it and run again"
                )
        if all(top == 0 for top in seen) and self.mouse.window_shown(self.own) is not True:
            # (A window still shown moved off the board's place: the pixels
            # say where it went.)
            return "gone", (
                "the board vanished from the screen: its window was closed "
                "(no window is where the board was)"
            )
        if all(top == self.own for top in seen):
            return "own", ""
        return "", ""

    def own_dialog_over(self) -> bool:
        """Whether a window over the board is the clone's own (the desktop says
        it comes from the same program as the board's window: a "You won"
        dialog whose button is the learned restart), and no other lies there.
        A dialog may hide the whole board (zoo seed 735280737: a 9x5 board of
        13 px rows under its "Congratulations"): its program is then compared
        with the one last seen making the board's window. False when the
        desktop cannot tell, or nothing lies over the board."""
        if self.own is None or (seen := self._tops()) is None:
            return False
        points, tops = seen
        if any(top in (None, 0) for top in tops):
            return False
        mine = [p for p, top in zip(points, tops, strict=True) if top == self.own]
        others = [p for p, top in zip(points, tops, strict=True) if top != self.own]
        if not others:
            return False
        if mine:
            self.own_client = self.mouse.client_at(*mine[0])
        clients = {self.mouse.client_at(x, y) for x, y in others}
        return self.own_client is not None and clients == {self.own_client}

    def _tops(self) -> tuple[list[tuple[int, int]], list[int | None]] | None:
        """The points across the board and the top-level window at each, as the
        desktop says (None before a board is located)."""
        g = self.window.geometry
        if g is None:
            return None
        points = board_points(g)
        return points, [self.mouse.window_at(x, y) for x, y in points]

    def _window(self, row: int, col: int, x: int, y: int) -> None:
        if self.own is None:
            return
        seen = self.mouse.window_at(x, y)
        if seen is None or seen == self.own:
            return
        if seen:
            kind = self.mouse.window_class_at(x, y)
            name = kind or f"id {seen:#x}"
            if self.own_client is not None and self.mouse.client_at(x, y) == self.own_client:
                # The clone's own (zoo seed 1394987744's end-of-game dialog,
                # KMines' "You have won!" come up within a batch under load):
                # the loop reads the screen again, which shows the game's end.
                raise NotInPlace(
                    f"a window of the clone itself ({name}, a dialog?) lies under cell "
                    f"({row}, {col}) at ({x}, {y}), not the board: no click made"
                )
            else:
                text = (
                    f"another window ({name}) lies under cell ({row}, {col}) "
                    f"at ({x}, {y}), not the board's: no click made"
                )
        elif self.mouse.window_shown(self.own):
            # Its window is still on the screen, elsewhere (caught mid-move, it
            # may not have drawn itself there yet: the pixels cannot tell).
            text = (
                f"the board moved: its window no longer lies under cell ({row}, {col}) "
                f"at ({x}, {y}): no click made"
            )
        else:
            text = (
                f"the board vanished from the screen: no window lies under cell ({row}, {col}) "
                f"at ({x}, {y}) (its window was closed?): no click made"
            )
        raise self.window.stop(text, self.window.screen.grab(None))

    def _shown(self, basis: Basis, kind: ActionKind, cell: Cell) -> None:
        """Wait until the click `kind` on `cell` shows (its cell, or a chord's
        neighbours, no longer as planned); NotInPlace after SHOWN_S."""
        row, col = cell
        if kind == "chord":
            cells = [n for n in self._block(basis, row, col) if n != cell]
        else:
            cells = [cell]
        deadline = time.perf_counter() + SHOWN_S
        while not self._changed(basis, cells, SHOWN_INSET):
            if time.perf_counter() > deadline:
                raise NotInPlace(
                    f"the click on ({row}, {col}) did not show within {SHOWN_S * 1000:.0f} ms: "
                    "no more clicks until the screen shows it"
                )
            time.sleep(0.0005)

    def _pixels(self, basis: Basis, row: int, col: int) -> None:
        board = basis.reading.board
        cells = [
            (r, c)
            for r, c in self._block(basis, row, col)
            if (r, c) not in basis.clicked and ((r, c) == (row, col) or board[r, c] in NUMBERS)
        ]
        changed = self._changed(basis, cells)
        if changed is not None:
            which = "the cell" if changed == (row, col) else f"its open neighbour {changed}"
            raise NotInPlace(
                f"before the click on ({row}, {col}), {which} no longer shows what the "
                "plan was made on: no click made, the screen is read again"
            )

    @staticmethod
    def _block(basis: Basis, row: int, col: int) -> list[Cell]:
        """The cell and its neighbours on the board."""
        g = basis.reading.geometry
        return [
            (r, c)
            for r in range(max(0, row - 1), min(g.rows, row + 2))
            for c in range(max(0, col - 1), min(g.cols, col + 2))
        ]

    def _changed(self, basis: Basis, cells: list[Cell], inset: float = INSET) -> Cell | None:
        """The first of `cells` whose middle no longer shows what the plan saw
        (one grab of them all), else None."""
        region = basis.region
        g = basis.reading.geometry  # screen coordinates
        boxes: dict[Cell, tuple[int, int, int, int]] = {}
        for cell in cells:
            box = _inner_box(g, *cell, region, inset)
            if box is not None:
                boxes[cell] = box
        if not boxes:
            return None
        x0 = min(b[0] for b in boxes.values())
        y0 = min(b[1] for b in boxes.values())
        x1 = max(b[2] for b in boxes.values())
        y1 = max(b[3] for b in boxes.values())
        now = self.window.screen.grab(
            Region(region.left + x0, region.top + y0, x1 - x0, y1 - y0)
        ).astype(np.int16)
        then = basis.image[y0:y1, x0:x1].astype(np.int16)
        if now.shape != then.shape:
            raise NotInPlace("the board's picture could not be grabbed again: no click made")
        for cell, (bx0, by0, bx1, by1) in boxes.items():
            part = (slice(by0 - y0, by1 - y0), slice(bx0 - x0, bx1 - x0))
            if float(np.abs(now[part] - then[part]).mean()) > CHANGED:
                return cell
        return None


def _inner_box(
    g: Geometry, row: int, col: int, region: Region, inset: float = INSET
) -> tuple[int, int, int, int] | None:
    """The middle of a cell, `inset` of it (at least a pixel) left out on each
    side: (x0, y0, x1, y1) in `region` coordinates (None: no whole pixel of it
    inside the region's picture)."""
    left = g.left + col * g.cell_w - region.left
    top = g.top + row * g.cell_h - region.top
    x0 = max(0, math.ceil(left + max(1.0, g.cell_w * inset)))
    y0 = max(0, math.ceil(top + max(1.0, g.cell_h * inset)))
    x1 = min(region.width, math.floor(left + g.cell_w - max(1.0, g.cell_w * inset)))
    y1 = min(region.height, math.floor(top + g.cell_h - max(1.0, g.cell_h * inset)))
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1
