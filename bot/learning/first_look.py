"""The first look at a clone msbot has never seen: a fresh board, right clicks, flags.

On a fresh board (a new game, nothing clicked yet) msbot:

1. finds the grid with no skin (`vision.learn.grid`) and cuts every cell;
   the covered tile is what a right click turns into something else, and a
   fresh board shows it on most cells;
2. rests the pointer on a covered cell: a clone that draws the cell under
   the pointer otherwise (GNOME Mines) gets a pointer rest off the board;
3. right clicks one covered cell until it is covered again: the first look
   is the flag, a second one the question mark;
4. flags up to ten more cells one by one and takes the flags off again, a
   screenshot each, so the mine counter shows eleven values in a row and
   can be learned (`vision.learn.flag_counter`).

Each name it gives says which click proved it. Every click goes through the
`Actuator`, which refuses anything outside the board.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import cv2
import numpy as np

from bot.actuator import Actuator
from bot.board import Cell
from bot.errors import PlayError, VisionError
from bot.learning.settle import after_change, settled
from bot.learning.windows import (
    another_window,
    around_point,
    board_points,
    is_browser,
    only_window,
    terminal_on_screen,
    windows_at,
)
from vision.border import Border, learn_border
from vision.capture import Image, Region, Screen
from vision.cuts import Cuts, find_cuts
from vision.geometry import Geometry
from vision.learn.cluster import cluster
from vision.learn.flag_counter import FlagCounter, learn_flag_counter
from vision.learn.grid import FRESH_SHARE, BoardRect, cut_image, cut_patches, find_board
from vision.learn.looks import SAME_FLOOR, LookBook, patch_side, same_bound
from vision.learn.proof import Name
from vision.slide import ALIKE, slid

#: Flags placed to show the counter's digits (eleven values: every last digit).
COUNTER_FLAGS = 10
#: The border of each cell a learned skin leaves out of its comparisons, in
#: 1 / (patch + 2 * inset) of the cell: what lies between two cells (a gap, a
#: line) may take either neighbour's colour (a page that draws its open cells
#: over their gaps), so a covered cell beside an open one would look new.
LEARNED_INSET = 0
#: Cells around a marked cell where a change means a menu opened over the board.
MENU_CELLS = 1
#: Seconds the pointer rests on a cell before it is clicked.
ENTER = 0.08
#: How a clone may take a flag: a right click, or (web pages that keep the right
#: click for the browser's menu) a left click with Ctrl held.
FLAG_WAYS = ("right", "ctrl+left")
#: How far around the board the window is grabbed while learning (cells, at least px).
AROUND_CELLS = 5
AROUND_PX = 160


@dataclass
class FirstLook:
    """What the first look learned, in screen coordinates."""

    #: The board's grid on the screen.
    geometry: Geometry
    #: What is grabbed from now on: the board and its surroundings.
    region: Region
    #: Where each cell lies in a `region` grab.
    cuts: Cuts
    book: LookBook
    names: dict[int, Name]
    #: The right-click cycle from covered: [covered, flag] or [covered, flag, "?"].
    cycle: list[int]
    pointer_rest: tuple[float, float] | None
    #: How a flag is placed: "right", or "ctrl+left" (`Actuator.flag_with`).
    flag_with: str
    counter: FlagCounter | None
    counter_said: str
    #: The fresh board as grabbed (region), before any click.
    fresh: Image
    notes: list[str] = field(default_factory=list)
    #: The bands around the fresh board (`vision.border`); None at the screen's edge.
    border: Border | None = None
    #: The cell msbot opened to start the game, when the clone took no flag
    #: before (None: the board is still fresh).
    opened_first: tuple[int, int] | None = None
    #: Parts beside the board drawn like covered cells that take no flag (a
    #: toolbar's buttons): (x0, y0, x1, y1) from the board's top-left.
    toolbar: list[tuple[float, float, float, float]] = field(default_factory=list)

    @property
    def covered(self) -> int:
        return self.cycle[0]

    @property
    def in_region(self) -> Geometry:
        """The grid in `region` coordinates."""
        return self.geometry.shifted(-self.region.left, -self.region.top)


def around(geo: Geometry, screen_size: tuple[int, int]) -> Region:
    """The screen region grabbed while learning: the board and what is around it."""
    reach = max(AROUND_PX, round(AROUND_CELLS * max(geo.cell_w, geo.cell_h)))
    width, height = screen_size
    x0, y0 = max(0, round(geo.left) - reach), max(0, round(geo.top) - reach)
    x1 = min(width, round(geo.left + geo.width) + reach)
    y1 = min(height, round(geo.top + geo.height) + reach)
    return Region(x0, y0, x1 - x0, y1 - y0)


#: A pixel of a cell differs from another picture's when a colour value moved
#: by more than this (`pixels_apart`).
PIXEL_STEP = 10
#: Pixels two pictures of one kind may differ by, at least (`pixel_bound`) ...
PIXEL_FLOOR = 4
#: ... and at most this share of a cell's pixels: past it (a texture) pixels
#: say nothing the comparison patch does not.
PIXEL_SHARE = 0.05


def pixels_apart(a: np.ndarray, b: np.ndarray) -> int:
    """How many pixels of two pictures of one cell differ by more than
    `PIXEL_STEP` (every one of them when their sizes differ)."""
    if a.shape != b.shape:
        return int(max(a.size, b.size))
    step = np.abs(a.astype(np.int16) - b.astype(np.int16))
    return int((step.max(axis=-1) > PIXEL_STEP).sum())


def pixel_bound(image: Image, cuts: Cuts, looks: np.ndarray) -> int | None:
    """How many pixels cells of the fresh board's commonest picture differ by
    among themselves (the inner cells, a few pairs), doubled, at least
    `PIXEL_FLOOR`; None when cells of one kind differ in more than
    `PIXEL_SHARE` of their pixels (a texture) or no two can be compared."""
    rows, cols = looks.shape
    if rows < 3 or cols < 3:
        return None
    inner = looks[1:-1, 1:-1]
    commonest = int(np.bincount(inner.ravel()).argmax())
    cells = [(int(r) + 1, int(c) + 1) for r, c in np.argwhere(inner == commonest)][:13]

    picture = np.asarray(image)
    crops = [cut_image(picture, cuts, r, c) for r, c in cells]
    pairs = list(itertools.pairwise(crops))
    pairs = [(a, b) for a, b in pairs if a.shape == b.shape]
    if not pairs:
        return None
    bound = max(PIXEL_FLOOR, 2 * max(pixels_apart(a, b) for a, b in pairs))
    area = pairs[0][0].shape[0] * pairs[0][0].shape[1]
    return bound if bound <= PIXEL_SHARE * area else None


class BoardMoved(PlayError):
    """A mark on `cell` of `looker`'s grid moved the board whole in its window by
    (`dx`, `dy`) px (a label beside it changed its width: "Flags: 9" became
    "Flags: 10"); `shot` is the settled picture after it, the board at its new
    place, `before` the one before the mark."""

    def __init__(
        self,
        message: str,
        dx: int,
        dy: int,
        shot: Image,
        looker: Looker,
        cell: tuple[int, int],
        before: Image,
    ) -> None:
        super().__init__(message)
        self.dx, self.dy, self.shot = dx, dy, shot
        self.looker, self.cell, self.before = looker, cell, before


class CellsResized(PlayError):
    """A mark on `cell` of `looker`'s grid changed where the board's cells lie
    (toolkit buttons sized by their text: a column widened with the flag), or
    the picture where no cell of the grid shows; `before` and `shot` are the
    pictures before and after. No click can be trusted to land on a cell any
    more, but the mark itself is taken off where it was made
    (`_moved_mark_off`). It moved nothing whole: `dx` and `dy` are 0."""

    dx = dy = 0

    def __init__(
        self, message: str, shot: Image, looker: Looker, cell: tuple[int, int], before: Image
    ) -> None:
        super().__init__(message)
        self.shot, self.looker, self.cell, self.before = shot, looker, cell, before


class Looker:
    """Grabs and cuts the learning region; clicks through the actuator."""

    def __init__(
        self,
        screen: Screen,
        actuator: Actuator,
        geo: Geometry,
        region: Region,
        cuts: Cuts,
        book: LookBook,
        say: Callable[[str], None],
        change_bound: float | None = None,
        pixel_bound: int | None = None,
    ) -> None:
        self.screen = screen
        self.actuator = actuator
        self.geo = geo
        self.region = region
        self.cuts = cuts
        self.book = book
        self.say = say
        actuator.bind(geo)
        #: Whether the cell of the last `right_click` changed.
        self.cell_moved = False
        #: The last cell a `right_click` changed, and the picture before it.
        self.last_mark: tuple[tuple[int, int], Image] | None = None
        #: Cells a Ctrl+click (a click, on a page that flags otherwise) changed
        #: together with cells around them: the game may have started there.
        self.clicked_open: list[tuple[int, int]] = []
        #: Each cell's comparison patch before msbot's first mark on it: the
        #: cell's own picture, the same again once its mark cycle is done, to
        #: within no more than a pixel-exact clone's noise (`SAME_FLOOR`).
        self.unmarked: dict[tuple[int, int], np.ndarray] = {}
        #: How far a cell's own picture must move for a click to have changed it
        #: (None: the look book's `same`). Tight once a mark is known that only
        #: the cell's own picture tells from covered (`_mark_cycle`).
        self.change_bound = change_bound
        #: How many of a cell's own pixels may differ by more than `PIXEL_STEP`
        #: between two pictures of one kind (None: not known, or a texture whose
        #: cells differ too much for pixels to say anything: `pixel_bound`).
        self.pixel_bound = pixel_bound
        #: Each cell's own pixels before msbot's first mark on it.
        self.unmarked_pixels: dict[tuple[int, int], np.ndarray] = {}
        #: The whole grab before msbot's first mark on each cell (`strokes_changed`).
        self.unmarked_grab: dict[tuple[int, int], Image] = {}
        #: The board's own top-level window before any click (None: not known).
        self.board_window = only_window(windows_at(actuator.mouse, board_points(geo)))

    def part(self, r0: int, r1: int, c0: int, c1: int) -> Looker:
        """A looker for rows r0:r1 and columns c0:c1 of this one's grid only (its
        cells indexed from there): what changes outside them is not its business."""
        cuts = Cuts(self.cuts.xs[c0 : c1 + 1], self.cuts.ys[r0 : r1 + 1])
        geo = self.geo.part(r0, r1, c0, c1)
        return self._on(geo, cuts)

    def shifted(self, dx: int, dy: int) -> Looker:
        """A looker for the same board moved by (dx, dy) px in its window, bound
        to the actuator (bind this one again once done with it)."""
        return self._on(self.geo.shifted(dx, dy), Cuts(self.cuts.xs + dx, self.cuts.ys + dy))

    def _on(self, geo: Geometry, cuts: Cuts) -> Looker:
        """A looker like this one on another grid of the same region."""
        book, say, bound = self.book, self.say, self.change_bound
        return Looker(
            self.screen, self.actuator, geo, self.region, cuts, book, say, bound, self.pixel_bound
        )

    def patch(self, image: Image, r: int, c: int) -> np.ndarray:
        """The comparison patch of one cell of a region grab."""
        ys, xs = self.cuts.ys, self.cuts.xs
        one = Cuts(np.array([xs[c], xs[c + 1]]), np.array([ys[r], ys[r + 1]]))
        return np.asarray(self.book.patches(np.asarray(image), one)[0])

    def look_at(self, image: Image, r: int, c: int) -> int:
        """The look of one cell (a new look if no look holds its picture)."""
        ys, xs = self.cuts.ys, self.cuts.xs
        one = Cuts(np.array([xs[c], xs[c + 1]]), np.array([ys[r], ys[r + 1]]))
        return int(self.book.assign(image, one)[0, 0])

    def new_look(self, image: Image, r: int, c: int) -> int:
        """A new look for cell (r, c)'s picture, however near an old one (`LookBook.add`)."""
        ys, xs = self.cuts.ys, self.cuts.xs
        one = Cuts(np.array([xs[c], xs[c + 1]]), np.array([ys[r], ys[r + 1]]))
        return self.book.add(np.asarray(image), one)

    def pixels(self, image: Image, r: int, c: int) -> np.ndarray:
        """Cell (r, c)'s own pixels in a region grab (a copy)."""
        return cut_image(np.asarray(image), self.cuts, r, c)

    @property
    def pixel_steps(self) -> bool:
        """Whether a cell's steps are looked for in its pixels too: a mark is
        known that only they tell from covered (`change_bound` is tight), and the
        clone draws cells of one kind alike (`pixel_bound`)."""
        return self.change_bound == SAME_FLOOR and self.pixel_bound is not None

    def pixels_moved(self, now: np.ndarray, then: np.ndarray) -> bool:
        """Whether a cell's pixels `now` differ from `then` by more than the
        clone's own noise (`pixel_bound`; never when that is not known)."""
        return self.pixel_bound is not None and pixels_apart(now, then) > self.pixel_bound

    def back_as_it_was(self, image: Image, r: int, c: int) -> bool:
        """Whether cell (r, c) shows again the very picture it showed before msbot's
        first mark on it (true when that is not known): its comparison patch,
        and its pixels where the clone draws cells of one kind alike (a "?"
        drawn faint on a 42 px cell moves the patch less than the noise bound,
        zoo seed 1584329355: it was taken for the cycle's end, and eighteen
        "?" marks were left on the board, read as covered cells)."""
        start = self.unmarked.get((r, c))
        if start is None:
            return True
        if _apart(self.patch(image, r, c), start) > SAME_FLOOR:
            return False
        then = self.unmarked_grab.get((r, c))
        if then is not None and strokes_changed(image, then, self.cuts, (r, c)):
            return False
        was = self.unmarked_pixels.get((r, c))
        return was is None or not self.pixels_moved(self.pixels(image, r, c), was)

    @property
    def change(self) -> float:
        """How far a cell's own patch must move to have changed: `change_bound`,
        or the look book's `same`."""
        return self.book.same if self.change_bound is None else self.change_bound

    def changed(self, before: Image, now: Image, r: int, c: int) -> bool:
        """Whether cell (r, c)'s own picture changed from `before` to `now`."""
        if _apart(self.patch(now, r, c), self.patch(before, r, c)) > self.change:
            return True
        steps = self.pixel_steps
        return steps and self.pixels_moved(self.pixels(now, r, c), self.pixels(before, r, c))

    def shows(self, image: Image, r: int, c: int, look: int) -> bool:
        """Whether cell (r, c) of `image` shows `look`."""
        return bool(self.book.match(self.patch(image, r, c)[None, :])[0] == look)

    def right_click(
        self, r: int, c: int, before: Image, why: str, timeout: float = 1.0
    ) -> Image | None:
        """One step of the mark cycle on (r, c) (a right click, or the actuator's
        `flag_with`); the settled picture once that cell changed within
        `timeout` s, and no cell near it (None: it did not, or cells around it
        changed too: a menu over the board). Cells further off may change with
        it: a counter in a line of the grid that is no board line yet (a
        toolbar or panel above the board). `cell_moved` says afterwards
        whether the cell itself changed."""
        start = self.patch(before, r, c)
        self.unmarked.setdefault((r, c), start)
        self.unmarked_pixels.setdefault((r, c), self.pixels(before, r, c))
        self.unmarked_grab.setdefault((r, c), before)
        board = self.book.match(self.book.patches(np.asarray(before), self.cuts))
        # Once a mark is known that only the cell's pixels tell from covered,
        # its steps are looked for in the pixels too (a clone that draws the
        # cell under the pointer otherwise has no `pixel_bound`).
        pixels = self.pixels(before, r, c) if self.pixel_steps else None

        def moved(shot: Image) -> bool:
            if _apart(self.patch(shot, r, c), start) > self.change:
                return True
            if pixels is not None and self.pixels_moved(self.pixels(shot, r, c), pixels):
                return True
            # A faint mark known (the next step as small a change): the cell's
            # strokes (a grey "?" coming off a pink button).
            faint = self.change_bound == SAME_FLOOR
            return faint and strokes_changed(shot, before, self.cuts, (r, c))

        # The actuator clicks on this looker's grid (another looker, for the
        # board moved in its window, may have bound it to its own: zoo seed
        # 471339600's flag was taken off where the board had been).
        self.actuator.bind(self.geo)
        # Some clones ignore a click that comes with the pointer entering their
        # board (xdemineur): the pointer goes there first.
        self.actuator.hover(r, c, why)
        time.sleep(ENTER)
        self.actuator.flag(r, c, why)
        shot = after_change(self.screen, self.region, moved, timeout=timeout)
        self.cell_moved = shot is not None
        if shot is None:
            return None
        self.last_mark = ((r, c), before)
        try:
            dx, dy = refuse_moved_grid(before, shot, self.cuts, (r, c))
        except PlayError as exc:
            x, y = self.geo.cell_center(r, c)
            points = [*around_point(x, y), *board_points(self.geo)]
            if another_window(self.actuator.mouse, self.board_window, points):
                # A window came over the board (a browser's menu on a page that
                # takes no flag yet: zoo seed 1233256165's was taken for cells
                # that changed size): cells around it changed, as `mark` asks.
                return None
            raise CellsResized(str(exc), shot, self, (r, c), before) from None
        if dx or dy:
            # Followed, the flags came off no more (two zoo clones): a stop
            # that says what happened, where it said "cells sized by their text".
            # The counter's flags step back from it (`_counter_flag_back`).
            raise BoardMoved(
                f"the board moved by ({dx:+d}, {dy:+d}) px in its window when cell ({r}, {c}) "
                "took a mark (a label beside it changed its width): msbot cannot learn a "
                "board that moves while it learns",
                dx,
                dy,
                shot,
                self,
                (r, c),
                before,
            )
        now = self.book.match(self.book.patches(np.asarray(shot), self.cuts))
        others = (now != board).reshape(self.geo.rows, self.geo.cols)
        others[r, c] = False
        rows = slice(max(0, r - MENU_CELLS), r + MENU_CELLS + 1)
        cols = slice(max(0, c - MENU_CELLS), c + MENU_CELLS + 1)
        for a, b in np.argwhere(others[rows, cols]):
            cell = (rows.start + int(a), cols.start + int(b))
            if not changed_inside(before, shot, self.cuts, cell):
                others[cell] = False
        near = others[rows, cols]
        if near.any() and self.actuator.flag_with != "right":
            self.clicked_open.append((r, c))
        return None if near.any() else shot

    def mark(
        self, r: int, c: int, before: Image, why: str, ways: tuple[str, ...] = FLAG_WAYS
    ) -> Image | None:
        """The first step of the mark cycle, found: a right click, else (a web page
        that flags with Ctrl+click) a Ctrl+left click; the picture after it."""
        for how in ways:
            self.actuator.flag_with = how
            shot = self.right_click(r, c, before, f"{why} ({how} click)")
            if shot is not None:
                return shot
            if self.cell_moved:
                # The cell changed with others around it (a menu): another way.
                now = settled(self.screen, self.region)
                if self.menu_over(r, c, before, now):
                    self.actuator.press_key("Escape", "close the menu the click opened")
                    before = settled(self.screen, self.region)
                continue
            time.sleep(0.3)  # a clone busy for a moment: the same way once more
            shot = self.right_click(r, c, before, f"{why} ({how} click, again)")
            if shot is not None:
                return shot
            now = settled(self.screen, self.region)
            if self.menu_over(r, c, before, now):
                # A right click on a web page opens the browser's menu: closed again.
                self.actuator.press_key("Escape", "close the menu the click opened")
                before = settled(self.screen, self.region)
        self.actuator.flag_with = FLAG_WAYS[0]
        return None

    def menu_over(self, r: int, c: int, before: Image, now: Image) -> bool:
        """Whether a click on (r, c) opened a menu over the board (a browser's),
        which Escape closes. Asked of the desktop first: a clone may quit on
        Escape (xdemineur, ace-minesweeper), and a timer or an area the clone
        opened by itself changes the picture with no menu at all. Where the
        desktop cannot tell: whether the board's cells changed."""
        x, y = self.geo.cell_center(r, c)
        points = [*around_point(x, y), *board_points(self.geo)]
        over = another_window(self.actuator.mouse, self.board_window, points)
        if over is not None:
            return over
        was, is_now = (
            self.book.match(self.book.patches(np.asarray(shot), self.cuts))
            for shot in (before, now)
        )
        return bool((was != is_now).any())

    def rest_pointer(self, offset: tuple[float, float]) -> None:
        x, y = round(self.geo.left + offset[0]), round(self.geo.top + offset[1])
        self.actuator.mouse.move(x, y)


#: Most pixels a board is looked for away from where it was after one mark
#: (`vision.slide`; never more than half a cell).
SLID_REACH = 32
#: Share of the board's height (width) an edge must cross to be a line between
#: columns (rows); lines that new, this far from every cut, on one axis, mean
#: the cells moved.
LINE_SHARE = 0.8
LINE_OFF_CUT = 3
MOVED_LINES = 2


#: A pixel holds a stroke when a channel moved more than STROKE_STEP; a cell
#: holds new strokes when more of its pixels do than STROKE_FEW more than the
#: median cell between the same two grabs (the clone's own noise).
STROKE_STEP, STROKE_FEW = 24, 3


def strokes_changed(now: Image, then: Image, cuts: Cuts, cell: tuple[int, int]) -> bool:
    """Whether `cell` shows strokes in `now` other than in `then` (drawn or gone), beyond
    the noise the other cells show between the same two grabs: a "?" drawn in
    grey on a pink toolkit button moves its comparison patch less than any
    bound, and cells of buttons sized by their text differ too much for a
    pixel bound, but the same cell grabbed twice does not change (zoo seed
    702871863: the "?" was taken for the cycle's end, and sixteen "?" marks
    were left on the board, read as covered cells)."""
    a, b = np.asarray(now, np.int16), np.asarray(then, np.int16)
    if a.shape != b.shape:
        return False
    xs, ys = np.asarray(cuts.xs, int), np.asarray(cuts.ys, int)
    strong = (np.abs(a - b).max(axis=2) > STROKE_STEP)[ys[0] : ys[-1], xs[0] : xs[-1]]
    counts = np.add.reduceat(
        np.add.reduceat(strong.astype(np.int32), ys[:-1] - ys[0], axis=0), xs[:-1] - xs[0], axis=1
    )
    own = int(counts[cell])
    others = np.delete(counts.ravel(), cell[0] * counts.shape[1] + cell[1])
    noise = float(np.median(others)) if others.size else 0.0
    return own > noise + STROKE_FEW


def _lines(image: Image, cuts: Cuts, axis: int, cell: tuple[int, int] | None) -> np.ndarray:
    """Positions across `axis` (1: x, 0: y) where an edge crosses LINE_SHARE of
    the board, the edges inside `cell` (row, column) left out."""
    x0, x1, y0, y1 = int(cuts.xs[0]), int(cuts.xs[-1]), int(cuts.ys[0]), int(cuts.ys[-1])
    part = np.ascontiguousarray(np.asarray(image)[y0:y1, x0:x1])
    grey = cv2.cvtColor(part, cv2.COLOR_BGR2GRAY).astype(np.int16)
    edges = np.abs(np.diff(grey, axis=axis)) > 24
    if cell is not None:
        r, c = cell
        edges[
            int(cuts.ys[r]) - y0 : int(cuts.ys[r + 1]) - y0,
            int(cuts.xs[c]) - x0 : int(cuts.xs[c + 1]) - x0,
        ] = False
    profile = edges.mean(axis=1 - axis)
    return (x0 if axis == 1 else y0) + np.flatnonzero(profile >= LINE_SHARE)


def refuse_moved_grid(
    before: Image, after: Image, cuts: Cuts, cell: tuple[int, int] | None = None
) -> tuple[int, int]:
    """Stop when one click moved the lines between cells: cells sized by what they
    show (toolkit buttons that widen with their text), whose grid no longer holds
    once a cell changes; every later click would land beside its cell. A flag or
    an opened area changes cells, never where the lines between them lie.
    `cell`: the cell clicked, whose own picture is left out (a flag taken off a
    dithered cell gives back the lines of its pattern; a moved grid moves the
    lines of every row, or column). Returns how far the board moved whole
    (dx, dy), its cells as they were: its window grew around it."""
    offset = [0, 0]
    lines = {axis: _lines(before, cuts, axis, None) for axis in (1, 0)}
    grid = Geometry(
        float(cuts.xs[0]),
        float(cuts.ys[0]),
        float(np.diff(cuts.xs).mean()),
        float(np.diff(cuts.ys).mean()),
        len(cuts.ys) - 1,
        len(cuts.xs) - 1,
    )
    if any(len(found) < 2 for found in lines.values()):
        # No lines across the board to tell it by (rounded tiles): whether the
        # picture moved as one (zoo seed 99655077's board moved 10 px and its
        # tenth counter flag stayed on it). Where lines are, a column that
        # widened moves only the lines after it: refused below.
        as_one = slid(np.asarray(before), np.asarray(after), grid, SLID_REACH)
        if as_one is not None:
            return as_one
    for axis, cut in ((1, cuts.xs), (0, cuts.ys)):
        # Moved whole, the clicked cell's lines with the rest.
        every = (lines[axis], _lines(after, cuts, axis, None))
        whole = _moved_whole(*every, float(np.diff(cut).min()), (int(cut[0]), int(cut[-1]) - 1))
        if whole is not None:
            offset[1 - axis] = whole
            continue
        old = _lines(before, cuts, axis, cell)
        new = [
            p
            for p in _lines(after, cuts, axis, cell)
            if (not len(old) or np.abs(old - p).min() > 1) and np.abs(cut - p).min() > LINE_OFF_CUT
        ]
        if len(new) >= MOVED_LINES:
            # Lines a dithered pattern draws inside its tiles move with a board
            # moved whole, and are no lines between cells: the picture moved as
            # one is no grid of cells sized by their text (zoo seed 943047310's
            # tenth counter flag widened "9/19", its board moved 10 px).
            as_one = slid(np.asarray(before), np.asarray(after), grid, SLID_REACH)
            if as_one is not None and _each_line_moved(before, after, cuts, as_one):
                return as_one
            raise PlayError(
                "the board's cells moved or changed size when one of them changed (cells "
                "sized by their text, such as toolkit buttons, are not supported)"
            )
    if (offset[0] or offset[1]) and not _each_line_moved(
        before, after, cuts, (offset[0], offset[1])
    ):
        # Lines that fit one offset while the picture did not move as one: a
        # dithered board draws a "line" at nearly every pixel, and a flag that
        # hid one of them left the rest fitting a 2 px shift (zoo seed
        # 1787445657: a move reported, the probe mark left on the board).
        return 0, 0
    return offset[0], offset[1]


def _each_line_moved(before: Image, after: Image, cuts: Cuts, offset: tuple[int, int]) -> bool:
    """Whether every column and every row of cells of `before` shows in `after`
    moved by `offset` at least as much as where it was: a board moved whole,
    not a column that widened (those before it stayed, those after it moved)."""
    was = np.asarray(before, np.int16)
    now = np.asarray(after, np.int16)
    dx, dy = offset
    x0, x1, y0, y1 = int(cuts.xs[0]), int(cuts.xs[-1]), int(cuts.ys[0]), int(cuts.ys[-1])
    height, width = now.shape[:2]
    if min(x0, x0 + dx, y0, y0 + dy) < 0 or max(x1, x1 + dx) > width or max(y1, y1 + dy) > height:
        return False

    def alike(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.asarray(np.abs(a - b).max(axis=2) <= ALIKE)

    stay = alike(was[y0:y1, x0:x1], now[y0:y1, x0:x1])
    went = alike(was[y0:y1, x0:x1], now[y0 + dy : y1 + dy, x0 + dx : x1 + dx])
    for axis, edges, start in ((1, cuts.xs, x0), (0, cuts.ys, y0)):
        for a, b in itertools.pairwise(edges):
            strip = slice(int(a) - start, int(b) - start)
            part = (slice(None), strip) if axis == 1 else (strip, slice(None))
            if went[part].mean() < stay[part].mean():
                return False
    return True


def _moved_whole(
    old: np.ndarray, now: np.ndarray, cell: float, span: tuple[int, int]
) -> int | None:
    """Whether the lines `now` are the lines `old` moved by one offset of less
    than a cell: the board moved in its window, its cells as they were (a label
    beside it grew with a flag: "Mines: -1" widened a zoo clone's window by
    5 px and moved its board 2 px, which was refused as cells sized by their
    text). Cells that widen with their text move their lines by different
    offsets: every line must move by the one offset (a pixel either way).
    Lines are looked for in `span` (the board where it was): a line that moved
    out of it is not asked for, nor one that came in (the window's frame
    beside the board: zoo seed 1653660532's board moved 8 px). The offset,
    or None."""
    if len(old) < 2 or len(now) < 2:
        return None
    lo, hi = span

    def misfit(offset: int) -> float:
        """How far off the lines are at `offset`, on average (inf: not all match)."""
        moved = old + offset
        moved = moved[(moved >= lo) & (moved < hi)]
        came = now[(now - offset >= lo) & (now - offset < hi)]
        if len(moved) < max(2, len(old) - 2) or len(came) < len(moved):
            return np.inf
        there = np.abs(moved[:, None] - came[None, :])
        if there.min(axis=1).max() > 1 or there.min(axis=0).max() > 1:
            return np.inf
        return float(there.min(axis=1).mean())

    if np.isfinite(misfit(0)):
        return None  # where they were, give or take a pixel: not moved
    offsets = {int(p - q) for p in now for q in old if 1 < abs(p - q) < cell}
    fits = {offset: misfit(offset) for offset in offsets}
    best = min(fits, key=lambda o: (fits[o], abs(o)), default=None)
    return best if best is not None and np.isfinite(fits[best]) else None


#: Seconds a cell that reacted to a right click gets to show the next step.
CYCLE_TIMEOUT = 4.0


def _rest_offset(geo: Geometry) -> tuple[float, float]:
    """Just above the board's top-left cell: inside the window (a clone that pauses
    when the pointer leaves it, GNOME Mines, stays in play), on no cell."""
    return (geo.cell_w / 2, -max(3.0, geo.cell_h / 3))


#: Other pictures of a fresh board tried as covered tiles, at most (not counting
#: those already named). A board whose cells are cut with a strip of its frame
#: draws a covered cell in 9 ways: the inside (named by the pointer's probe), 4
#: sides and 4 corners. Looks are numbered in reading order, so the bottom side
#: and the bottom-right corner came last: with fewer slots they were never
#: named, their cells stayed unreadable ("held", never clicked) all session.
#: They are tried nearest the covered look first (`nearest_covered_first`).
MORE_COVERED = 8


def _counter_flag_back(
    looker: Looker,
    r: int,
    c: int,
    moved: BoardMoved,
    steps: int,
    names: dict[int, Name],
    before: Image,
) -> None:
    """Take the flag off (r, c) that moved the board whole (`moved`), the mark
    cycle's other steps clicked where the board is now, until the board is
    back where `looker` sees it with (r, c) covered again (`before`: the
    picture before that flag); a PlayError naming the flag when it is not
    (never a probe flag left without saying so)."""
    there, last, back = looker.shifted(moved.dx, moved.dy), moved.shot, False
    try:
        for step in range(steps - 1):
            if step and not back:
                # The label's change may move the board back a moment after the
                # cell's own change (a window resized by the window manager).
                time.sleep(MOVE_BACK_WAIT)
                last = settled(looker.screen, looker.region)
                if _where_it_was(looker, before, last, (r, c)):
                    there, back = looker, True
            try:
                nxt = there.right_click(r, c, last, "learn: counter flag taken off")
            except BoardMoved as again:
                # Back where it was, give or take the pixel each offset may be off.
                if abs(again.dx + moved.dx) > 1 or abs(again.dy + moved.dy) > 1:
                    break
                there, last, back = looker, again.shot, True
                continue
            if nxt is None:
                nxt = settled(looker.screen, looker.region)
            last = nxt
            if not back and _where_it_was(looker, before, nxt, (r, c)):
                # Back, though the move back went unseen (zoo seed 471339600: its
                # second step was clicked where the board had been, on no cell,
                # and a "?" stayed): the next steps where it is.
                there, back = looker, True
    finally:
        looker.actuator.bind(looker.geo)
    if not back:
        time.sleep(MOVE_BACK_WAIT)
        last = settled(looker.screen, looker.region)
        back = _where_it_was(looker, before, last, (r, c))
    look = looker.look_at(last, r, c)
    if not back or names.get(look, Name("", "")).char != ".":
        raise PlayError(
            f"the board moved by ({moved.dx:+d}, {moved.dy:+d}) px in its window when cell "
            f"({r}, {c}) took a flag, and it did not come back when msbot took that flag "
            f"off: the flag at ({r}, {c}) may still be on the board"
        )


def _counter_flag_off(
    looker: Looker,
    r: int,
    c: int,
    last: Image,
    before: Image,
    clicks: int,
    names: dict[int, Name],
) -> tuple[Image, bool]:
    """The mark cycle's `clicks` steps that take the counter's flag off (r, c),
    from the picture `last` (`before`: the picture before that flag came); the
    picture after them, and whether every step was answered. A step that moves
    the board whole (the label beside it narrowed: zoo seed 1412585592's
    "10/99" back to "9/99") is followed by the others where it is now, until
    it is back (`_counter_flag_back`)."""
    for step in range(clicks):
        try:
            nxt = looker.right_click(r, c, last, "learn: counter flag taken off")
        except BoardMoved as moved:
            _counter_flag_back(looker, r, c, moved, clicks - step, names, before)
            return settled(looker.screen, looker.region), True
        if nxt is None:
            return last, False
        last = nxt
    return last, True


#: Share of a board's cells that must show their picture of before for it to
#: be where it was (`_where_it_was`).
WHERE_IT_WAS = 0.9
#: Seconds given a board to move back before the next step of taking off the
#: flag that moved it (`_counter_flag_back`).
MOVE_BACK_WAIT = 0.4


def _where_it_was(looker: Looker, before: Image, now: Image, cell: tuple[int, int]) -> bool:
    """Whether the board shows in `now` where `looker` sees it, as in `before`
    (every cell but `cell`, give or take a few)."""
    book, cuts = looker.book, looker.cuts
    then, there = book.patches(np.asarray(before), cuts), book.patches(np.asarray(now), cuts)
    same = _apart(there, then) <= looker.change
    same[cell[0] * looker.geo.cols + cell[1]] = False
    return int(same.sum()) >= WHERE_IT_WAS * (len(same) - 1)


def _apart(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The mean squared difference of comparison patches, along their last axis
    (one patch, or one per cell): the look book's measure."""
    return np.asarray(((a - b) ** 2).mean(axis=-1))


def _more_covered(
    looker: Looker,
    looks: np.ndarray,
    names: dict[int, Name],
    cycle: list[int],
    shot: Image,
    rng: np.random.Generator,
    keep: Callable[[Image, Region, str], None],
) -> Image:
    """Every other picture of the fresh board goes through the mark cycle once: a
    covered tile drawn otherwise (KMines' tiles let a gradient through) shows a
    flag and comes back, and is named covered; a cell the clone opened by itself
    (xdemineur) does not react, and is left to be learned in play. Returns the
    screen as it is afterwards (every cell as before)."""
    marks = len(cycle) - 1
    unnamed = nearest_covered_first(
        looker.book, [int(k) for k in np.unique(looks) if int(k) not in names], names
    )
    for look in unnamed[:MORE_COVERED]:
        if look in names:
            continue  # named by an earlier probe (its flag came off as this look)
        cells = np.argwhere(looks == look)
        r, c = (int(v) for v in cells[rng.integers(len(cells))])
        first = looker.right_click(r, c, shot, "learn: is this picture a covered cell?")
        if first is None:
            continue
        flag = looker.look_at(first, r, c)
        back = first
        for _ in range(marks):
            nxt = looker.right_click(r, c, back, "learn: back to covered")
            if nxt is None:
                raise PlayError(f"cell ({r}, {c}) took a mark and did not give it back")
            back = nxt
        after = looker.look_at(back, r, c)
        if after != look and names.get(after, Name("", "")).char != ".":
            # Not its own picture: perhaps the picture of a cell whose flag came
            # off (a clone that draws those a shade apart), new here (an edge
            # cell cut with a strip of the frame): so if it takes the flag again
            # and the cycle brings it back.
            back, proven = _unflagged_proven(looker, r, c, back, after, flag, len(cycle))
            if not proven:
                raise PlayError(f"cell ({r}, {c}) did not come back to its picture")
            names[after] = Name(
                ".",
                f"cell ({r}, {c}) once msbot's flag came off it: a right click flags it "
                "again and the cycle brings it back",
            )
        keep(back, looker.region, f"learn: cell ({r}, {c}) took a mark and gave it back")
        names[look] = Name(".", f"cell ({r}, {c}) of the fresh board took a flag and gave it back")
        if flag not in names:
            names[flag] = Name("F", f"appeared where msbot marked the covered cell ({r}, {c})")
        shot = back
    return shot


def nearest_covered_first(book: LookBook, unnamed: list[int], names: dict[int, Name]) -> list[int]:
    """`unnamed` looks, those nearest a look named covered first: a covered tile
    drawn otherwise at an edge of the board differs from it by a strip of the
    frame, an open cell by the whole cell. (Zoo seed 393738480's new games
    open an area by themselves: its empty cells and numbers came first in
    reading order, took the probes, and the bottom row's covered cells, the
    last look, stayed unnamed: a whole row unread, no new game ever proven.)"""
    covered = [
        look.patch for k, look in enumerate(book.looks) if k in names and names[k].char == "."
    ]
    if not covered:
        return unnamed
    known = np.stack(covered)

    def distance(k: int) -> float:
        return float(_apart(known, book.looks[k].patch[None, :]).min())

    return sorted(unnamed, key=distance)


def _flag_shown(looker: Looker, shot: Image, r: int, c: int, names: dict[int, Name]) -> bool:
    """Whether covered cell (r, c), right clicked once, shows a look named the flag.

    A picture no look holds yet is named the flag here: that click flags a
    covered cell (the cycle's first step, seen on the first cell), and a cell
    of another size draws it otherwise (a fractional pitch: GNOME Mines at
    16x16 draws cells 36 or 37 px wide)."""
    look = int(looker.book.match(looker.patch(shot, r, c)[None, :])[0])
    if look < 0:
        look = looker.look_at(shot, r, c)
        names[look] = Name("F", f"appeared where msbot right clicked the covered cell ({r}, {c})")
    return look in names and names[look].char == "F"


def board_in_browser(actuator: Actuator, geo: Geometry) -> bool | None:
    """Whether the board lies in a web browser's window (None: the desktop does
    not say). Only there may a Ctrl+click place a flag (a page keeps the right
    click for the browser's menu); elsewhere a Ctrl+click is a left click and
    opens the cell."""
    x, y = geo.cell_center(geo.rows // 2, geo.cols // 2)
    kind = actuator.mouse.window_class_at(x, y)
    return is_browser(kind) if kind else None


def _middle_cell(looks: np.ndarray, covered: int) -> tuple[int, int]:
    """The cell showing `covered` nearest the middle of the board."""
    cells = np.argwhere(looks == covered)
    rows, cols = looks.shape
    d = (cells[:, 0] - (rows - 1) / 2) ** 2 + (cells[:, 1] - (cols - 1) / 2) ** 2
    r, c = cells[int(d.argmin())]
    return int(r), int(c)


#: Pixels changed by more than this (any channel) count as changed.
UNSEEN_STEP = 40


def _changed_unseen(fresh: Image, now: Image, geo: Geometry) -> bool:
    """Whether the grid's area shows a change as large as a quarter of a cell
    between `fresh` and `now`, though no cell of the grid answered a probe:
    the probes landed on cells of another lattice (zoo seed 620829365: a
    grain inside its tiles taken for the board, three marks left on it)."""
    x0, y0 = max(0, round(geo.left)), max(0, round(geo.top))
    x1, y1 = round(geo.left + geo.width), round(geo.top + geo.height)
    a = np.asarray(fresh)[y0:y1, x0:x1, :3].astype(np.int16)
    b = np.asarray(now)[y0:y1, x0:x1, :3].astype(np.int16)
    if a.shape != b.shape or a.size == 0:
        return False
    changed = int((np.abs(a - b).max(axis=2) > UNSEEN_STEP).sum())
    return changed >= geo.cell_w * geo.cell_h / 4


def _open_first(
    looker: Looker, before: Image, looks: np.ndarray, rest: tuple[float, float]
) -> tuple[tuple[int, int], Image]:
    """Open the covered cell nearest the middle of the board (a first click that
    opens an area there opens the most); that cell and the board once it shows
    its change. `before`: the board now, `looks` its looks."""
    screen, region, book = looker.screen, looker.region, looker.book
    commonest = int(np.bincount(looks.reshape(-1)).argmax())
    first_cell = _middle_cell(looks, commonest)
    looker.actuator.hover(*first_cell, "learn: a first open (no cell took a flag)")
    time.sleep(ENTER)
    before_open = looker.patch(settled(screen, region), *first_cell)
    looker.actuator.open(*first_cell, "learn: a first open (no cell took a flag)")
    looker.rest_pointer(rest)

    def opened(shot: Image) -> bool:
        now = looker.patch(shot, *first_cell)
        return float(((now - before_open) ** 2).mean()) > book.same

    # Until the cell shows its change (a page asks its server first), then
    # still (a cascade of cells opening one ring after another).
    shown = after_change(screen, region, opened, timeout=CYCLE_TIMEOUT, still=0.3)
    started = shown if shown is not None else settled(screen, region)
    dx, dy = refuse_moved_grid(before, started, looker.cuts, first_cell)
    if dx or dy:
        raise PlayError(
            f"the board moved by ({dx:+d}, {dy:+d}) px in its window when its first cell "
            "opened: msbot cannot learn a board that moves while it learns"
        )
    if shown is None:
        raise PlayError(
            "no cell reacted to a right click, a Ctrl+click or a left click: the "
            "game may be over (start a new one), or this is no Minesweeper board"
        )
    return first_cell, started


def _find_covered(
    looker: Looker,
    screen: Screen,
    region: Region,
    looks: np.ndarray,
    names: dict[int, Name],
    notes: list[str],
    rng: np.random.Generator,
    keep: Callable[[Image, Region, str], None],
    browser: bool | None,
) -> tuple[int, list[tuple[int, int]], int, int, Image, tuple[float, float] | None] | None:
    """The covered look: the commonest look whose cell a right click (or, in a
    browser, a Ctrl+click) changes. Returns (covered, cells showing it in the
    order they are used, the cell marked, the picture after the mark, the
    pointer rest) or None when no look answers."""
    actuator, geo = looker.actuator, looker.geo
    rest = _rest_offset(geo)
    counts = np.bincount(looks.reshape(-1))
    ways = FLAG_WAYS if browser is not False else FLAG_WAYS[:1]
    for covered in [int(k) for k in np.argsort(-counts, kind="stable")[:6]]:
        if counts[covered] < 2:
            break
        cells = np.argwhere(looks == covered)
        # Cells away from the edges first: a border tile may be drawn apart. The
        # edge cells after them, for the counter's ten flags: a board the clone
        # opened by itself may leave few inner cells covered (xdemineur: 5 flags,
        # and the counter's total could not be told).
        found = [(int(a), int(b)) for a, b in cells]
        away = [0 < a < geo.rows - 1 and 0 < b < geo.cols - 1 for a, b in found]
        inner = [cell for cell, ok in zip(found, away, strict=True) if ok]
        edge = [cell for cell, ok in zip(found, away, strict=True) if not ok]
        if not inner:
            # A look only the grid's outer lines show: a toolbar of buttons
            # drawn like cells, not the board's covered cell. Never probed.
            continue
        order = [inner[i] for i in rng.permutation(len(inner))]
        order += [edge[i] for i in rng.permutation(len(edge))]
        r, c = order[0]
        # The pointer on the cell: a clone may draw the cell under it otherwise.
        # The cell as it is with the pointer away, when its pixels may be asked.
        calm = settled(screen, region) if looker.pixel_bound is not None else None
        actuator.hover(r, c, "learn: the cell under the pointer")
        time.sleep(0.15)
        hovered = settled(screen, region)
        keep(hovered, region, f"learn: the pointer on cell ({r}, {c})")
        hover = None if looker.shows(hovered, r, c, covered) else looker.look_at(hovered, r, c)
        if calm is not None and looker.pixels_moved(
            looker.pixels(hovered, r, c), looker.pixels(calm, r, c)
        ):
            # Lit up under the pointer, if only a little (a Tk button): the
            # pictures msbot compares pixel for pixel are not all grabbed with
            # the pointer off the cell, so its pixels say nothing.
            looker.pixel_bound = None
        # From now on the pointer rests off the board after each click when the
        # clone draws the cell under it otherwise: every picture learned then is
        # a picture the play loop sees.
        actuator.rest = rest if hover is not None else None
        looker.rest_pointer(rest)
        before = settled(screen, region)
        if hover is not None and looker.shows(before, r, c, hover):
            # The clone has not yet drawn the pointer leaving (a busy machine):
            # the cell's unmarked picture, which the mark cycle must come back
            # to, is the one without it (zoo seed 2004141084: the lit picture
            # kept, the cycle's end was taken for a faint mark, and learning
            # stopped on "right clicks do not come back to one look").
            left = after_change(screen, region, partial(_unlit, looker, (r, c), hover), timeout=1.0)
            before = before if left is None else left
        shot = looker.mark(r, c, before, "learn: the flag", ways)
        if shot is None:
            if counts[covered] >= FRESH_SHARE * looks.size:
                # The picture of most of a fresh board took no flag: a clone
                # that takes none before the first open. The rarer pictures
                # are no covered cells of the board; a lattice may take in a
                # line of the window's background beside a face drawn like a
                # cell, and a zoo clone's probes clicked there.
                return None
            continue
        pointer_rest = None
        if hover is not None:
            # Not a look of the board: the pointer never rests on it in play.
            # Named, it would stand nearer than anything to a picture it is
            # not (a light hover and an open 0 ten grey levels apart: an open
            # 0 read as a sure covered cell).
            pointer_rest = rest
            notes.append(
                "the clone draws the cell under the pointer otherwise: the pointer "
                "rests above the board between clicks (that picture is no look of the board)"
            )
        return covered, order, r, c, shot, pointer_rest
    return None


def _unlit(looker: Looker, cell: tuple[int, int], hover: int, shot: Image) -> bool:
    """Whether `cell` of `shot` no longer shows the `hover` look."""
    return not looker.shows(shot, *cell, hover)


def _mark_cycle(
    looker: Looker,
    r: int,
    c: int,
    covered: int,
    flag: int,
    shot: Image,
    keep: Callable[[Image, Region, str], None],
    region: Region,
) -> tuple[list[int], int | None, Image]:
    """The mark cycle from the flag on (r, c): ([covered, flag] or [covered,
    flag, "?"], the look of a cell whose flag came off when the clone draws it
    otherwise than a fresh one, the picture once the cell is unmarked again).

    Right clicks go on until the cell shows the covered look, or the flag
    again: then the look just before the flag is a covered cell drawn otherwise
    once its flag came off (a shade lighter or darker), and the cell is left
    showing that look."""
    seq = [flag]
    for _ in range(3):
        # The cell is known to react: it gets longer to show it (a web clone in a
        # browser on a busy machine took over a second), since clicking again
        # while a slow redraw is on its way would step the cycle twice.
        nxt = looker.right_click(r, c, shot, "learn: the right-click cycle", CYCLE_TIMEOUT)
        if nxt is None:
            raise PlayError(f"cell ({r}, {c}) did not react to a second right click")
        shot = nxt
        keep(shot, region, f"learn: right click again on ({r}, {c})")
        look = looker.look_at(shot, r, c)
        if look == covered and not looker.back_as_it_was(shot, r, c) and len(seq) < 2:
            # Near the covered look, but not this cell's own picture: a "?" on a
            # textured tile, its glyph less than the noise between covered cells
            # (zoo seed 120808624 took it for the cycle's end, left "?" marks
            # behind and read them as covered cells).
            look = looker.new_look(shot, r, c)
            looker.change_bound = SAME_FLOOR  # its next step is as small a change
        if look == covered:
            return [covered, *seq], None, shot
        if look == flag and len(seq) >= 2:
            unflagged = seq[-1]
            cycle = [covered, *seq[:-1]]
            # Back to the unflagged look: the rest of the cycle once more.
            for _ in range(len(cycle) - 1):
                again = looker.right_click(r, c, shot, "learn: the flag off again", CYCLE_TIMEOUT)
                if again is None:
                    raise PlayError(f"cell ({r}, {c}) did not react to a right click")
                shot = again
            if looker.look_at(shot, r, c) != unflagged:
                raise PlayError(f"right clicks on cell ({r}, {c}) do not come back to one look")
            return cycle, unflagged, shot
        if look in seq or len(seq) >= 3:
            break
        seq.append(look)
    raise PlayError(f"right clicks on cell ({r}, {c}) do not come back to the covered tile")


def _unflagged_proven(
    looker: Looker, r: int, c: int, shot: Image, look: int, flag: int, steps: int
) -> tuple[Image, bool]:
    """Whether `look` on (r, c) is a covered cell drawn otherwise after a flag: a
    right click shows the flag there, and the rest of the cycle brings `look`
    back. Returns the picture after the clicks."""
    nxt = looker.right_click(r, c, shot, "learn: is this a covered cell?", CYCLE_TIMEOUT)
    if nxt is None or looker.look_at(nxt, r, c) != flag:
        return nxt if nxt is not None else shot, False
    shot = nxt
    for _ in range(steps - 1):
        again = looker.right_click(r, c, shot, "learn: the flag off again", CYCLE_TIMEOUT)
        if again is None:
            return shot, False
        shot = again
    return shot, looker.look_at(shot, r, c) == look


#: Sides of the grid, and the step inward along rows (dr) or columns (dc).
SIDES = ("top", "bottom", "left", "right")


#: Share of a cell's width and height left out on each side when cells are
#: compared by their insides: a gap or a line around the cells, cut with the
#: cell, shows the board's frame there in the outer rows and columns.
INSIDE_MARGIN = 0.2
#: Side of the picture a cell's inside is shrunk to, and the mean squared
#: difference (per colour value) two insides are alike within.
INSIDE_SIDE = 8
INSIDE_SAME = 40.0


def inside(
    image: Image, cuts: Cuts, r: int, c: int, margin: float = INSIDE_MARGIN, side: int = INSIDE_SIDE
) -> np.ndarray:
    """The inside of cell (r, c) (`margin` of its size left out on each side; 0:
    the whole cell), shrunk to `side` pixels a side."""
    x0, x1 = int(cuts.xs[c]), int(cuts.xs[c + 1])
    y0, y1 = int(cuts.ys[r]), int(cuts.ys[r + 1])
    mx, my = round((x1 - x0) * margin), round((y1 - y0) * margin)
    part = np.asarray(image)[y0 + my : y1 - my, x0 + mx : x1 - mx].astype(np.float32)
    return np.asarray(cv2.resize(part, (side, side), interpolation=cv2.INTER_AREA), np.float32)


def changed_inside(before: Image, after: Image, cuts: Cuts, cell: tuple[int, int]) -> bool:
    """Whether `cell`'s inside changed between two pictures: a cell changed at
    its edge only shows its neighbour's new picture past a cut a pixel off
    (zoo seed 659109024: the cell below a probe whose flag came off was taken
    for a menu over the board, and learning stopped), not a menu over it."""
    return not alike_inside(inside(before, cuts, *cell), inside(after, cuts, *cell))


def opened_by(before: Image, after: Image, cuts: Cuts, start: tuple[int, int]) -> frozenset[Cell]:
    """The cells msbot's open of `start` changed: `start` and every cell joined
    to it through cells whose inside changed from `before` to `after` (its
    cascade). Only an open changes them so: they are cells of the board."""
    rows, cols = len(cuts.ys) - 1, len(cuts.xs) - 1
    if not (0 <= start[0] < rows and 0 <= start[1] < cols):
        return frozenset()
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for rr in range(max(0, r - 1), min(rows, r + 2)):
            for cc in range(max(0, c - 1), min(cols, c + 2)):
                cell = (rr, cc)
                if cell not in seen and changed_inside(before, after, cuts, cell):
                    seen.add(cell)
                    todo.append(cell)
    return frozenset(seen)


#: Share of a covered cell's relief a line's cell must show to be probed.
RELIEF_SHARE = 0.3


def relief(image: Image, cuts: Cuts, r: int, c: int) -> float:
    """How much cell (r, c) varies (grey level spread), its outer tenth left out
    (a strip of the board's frame cut with an outer line's cell)."""
    x0, x1 = int(cuts.xs[c]), int(cuts.xs[c + 1])
    y0, y1 = int(cuts.ys[r]), int(cuts.ys[r + 1])
    mx, my = max(1, round((x1 - x0) * 0.1)), max(1, round((y1 - y0) * 0.1))
    part = np.ascontiguousarray(np.asarray(image)[y0 + my : y1 - my, x0 + mx : x1 - mx])
    return float(cv2.cvtColor(part, cv2.COLOR_BGR2GRAY).std()) if part.size else 0.0


#: Size (width, height) a seam between two cells is shrunk to (`Seams`), and
#: the pixels it spans each side of the cut.
SEAM_SIZE = (5, 8)
SEAM_HALF = 2
#: `own_bound`: the share of a board's pictures whose distance to their
#: nearest other sets it, that distance's factor, and its ceiling (a board's
#: noise, never a licence to call any two pictures alike).
OWN_SHARE = 0.9
OWN_FACTOR = 3.0
OWN_CAP = 400.0


def seam(image: Image, cuts: Cuts, r: int, c: int, across: bool) -> np.ndarray:
    """The strip over the cut before cell (r, c): the cut at its left when
    `across` (cells side by side in a row), else the cut above it; its middle
    half only, shrunk to SEAM_SIZE (a vertical strip; a horizontal one turned)."""
    img = np.asarray(image)
    if across:
        x = int(cuts.xs[c])
        y0, y1 = int(cuts.ys[r]), int(cuts.ys[r + 1])
        m = (y1 - y0) // 4
        part = img[y0 + m : y1 - m, max(0, x - SEAM_HALF) : x + SEAM_HALF + 1]
    else:
        y = int(cuts.ys[r])
        x0, x1 = int(cuts.xs[c]), int(cuts.xs[c + 1])
        m = (x1 - x0) // 4
        part = np.swapaxes(img[max(0, y - SEAM_HALF) : y + SEAM_HALF + 1, x0 + m : x1 - m], 0, 1)
    if part.size == 0:
        return np.full((SEAM_SIZE[1], SEAM_SIZE[0], 3), -1e3, np.float32)
    part = np.ascontiguousarray(part).astype(np.float32)
    return np.asarray(cv2.resize(part, SEAM_SIZE, interpolation=cv2.INTER_AREA), np.float32)


@dataclass
class Seams:
    """What lies between the board's cells, seen around its middle: a line,
    a gap, a bevel's edge. A band of the window beside the board (its plain
    background, a label) may show a covered cell's inside, never that: its
    parts are not probed as cells (a zoo page's white background above its
    board of white cells was right clicked three lines deep: clicks outside
    the board, seed 1267138590)."""

    across: np.ndarray
    down: np.ndarray
    bound_across: float
    bound_down: float

    @classmethod
    def of(cls, image: Image, cuts: Cuts) -> Seams:
        rows, cols = len(cuts.ys) - 1, len(cuts.xs) - 1
        mid_r = range(max(1, rows // 4), max(2, rows - rows // 4))
        mid_c = range(max(1, cols // 4), max(2, cols - cols // 4))
        # The middle half each way: the grid found may hold lines of the
        # window around the board.
        across = [seam(image, cuts, r, c, True) for r in mid_r for c in mid_c if c < cols]
        down = [seam(image, cuts, r, c, False) for r in mid_r if r < rows for c in mid_c]
        a, d = _stack(across), _stack(down)
        return cls(a, d, own_bound(a), own_bound(d))

    def alike(self, image: Image, cuts: Cuts, cell: tuple[int, int], side: str) -> bool:
        """Whether a cut beside `cell` along its line (`side`'s) shows what the
        cuts around the middle show (True when none is known)."""
        r, c = cell
        across = side in ("top", "bottom")
        refs, bound = (self.across, self.bound_across) if across else (self.down, self.bound_down)
        if not len(refs):
            return True
        rows, cols = len(cuts.ys) - 1, len(cuts.xs) - 1
        if across:
            near = [(r, k) for k in (c, c + 1) if 1 <= k < cols]
        else:
            near = [(k, c) for k in (r, r + 1) if 1 <= k < rows]
        for rr, cc in near:
            strip = seam(image, cuts, rr, cc, across)
            if float(((refs - strip) ** 2).mean(axis=(1, 2, 3)).min()) <= bound:
                return True
        return not near


def _stack(strips: list[np.ndarray]) -> np.ndarray:
    if not strips:
        return np.zeros((0, SEAM_SIZE[1], SEAM_SIZE[0], 3), np.float32)
    return np.stack(strips)


def own_bound(refs: np.ndarray) -> float:
    """How far a picture (a seam, a cell's inside) may lie from the nearest of
    `refs`, pictures of the board alike: their own spread (each one's mean
    squared distance to its nearest other, OWN_SHARE of them within it), times
    OWN_FACTOR, at least INSIDE_SAME (a clone drawn with noise: no two of its
    covered cells alike within INSIDE_SAME; zoo seed 1839566007) and at most
    OWN_CAP."""
    if len(refs) < 2:
        return INSIDE_SAME
    flat = refs.reshape(len(refs), -1)
    sq = (flat**2).sum(axis=1)
    dist = (sq[:, None] + sq[None, :] - 2 * flat @ flat.T) / flat.shape[1]
    np.fill_diagonal(dist, np.inf)
    nearest = np.maximum(dist.min(axis=1), 0.0)
    spread = OWN_FACTOR * float(np.quantile(nearest, OWN_SHARE))
    return max(INSIDE_SAME, min(spread, OWN_CAP))


def alike_inside(a: np.ndarray, b: np.ndarray, bound: float = INSIDE_SAME) -> bool:
    """Whether two insides (`inside`) are one picture within `bound`."""
    return float(((a - b) ** 2).mean()) <= bound


def _answers(
    looker: Looker, cell: tuple[int, int], flagged: np.ndarray, cycle: list[int], shot: Image
) -> tuple[bool, Image]:
    """Whether covered `cell` takes the flag like the cells of the board (a right
    click draws the flag's inside there) and gives it back (the rest of the
    cycle); the picture afterwards."""
    r, c = cell
    nxt = looker.right_click(r, c, shot, "learn: is this line a line of the board?")
    if nxt is None:
        return False, shot
    if not alike_inside(inside(nxt, looker.cuts, r, c), flagged):
        # Something that answers the pointer otherwise (a toolbar's button).
        return False, nxt
    shot = nxt
    for _ in range(len(cycle) - 1):
        back = looker.right_click(r, c, shot, "learn: the line's probe flag off", CYCLE_TIMEOUT)
        if back is None:
            raise PlayError(f"the probe flag at ({r}, {c}) did not come off again")
        shot = back
    return True, shot


def _line(bounds: list[int], side: str, k: int) -> list[tuple[int, int]]:
    """The cells of the grid's line `k` lines in from `side`, within `bounds`."""
    r0, r1, c0, c1 = bounds
    if side in ("top", "bottom"):
        r = r0 + k if side == "top" else r1 - 1 - k
        return [(r, c) for c in range(c0, c1)]
    c = c0 + k if side == "left" else c1 - 1 - k
    return [(r, c) for r in range(r0, r1)]


def _lines_left(bounds: list[int], side: str) -> int:
    r0, r1, c0, c1 = bounds
    return r1 - r0 if side in ("top", "bottom") else c1 - c0


def _cut(bounds: list[int], side: str, count: int) -> None:
    """`bounds` without the `count` outermost lines on `side`."""
    index = {"top": 0, "bottom": 1, "left": 2, "right": 3}[side]
    bounds[index] += count if side in ("top", "left") else -count


def _pitch(cuts: Cuts) -> float:
    """The grid's smaller mean pitch, in pixels."""
    return min(float(np.diff(cuts.xs).mean()), float(np.diff(cuts.ys).mean()))


#: Side of the picture a whole cell (edges and all) is shrunk to: fine enough to
#: keep a one-pixel grid line or outline.
WHOLE_SIDE = 24


def _cells_around(image: Image, cuts: Cuts) -> np.ndarray:
    """The whole cells (see `inside`) one pitch out from the grid on every side,
    where the picture holds them (the window or the screen around the board):
    shape (n, WHOLE_SIDE, WHOLE_SIDE, channels), n may be 0."""
    xs, ys = np.asarray(cuts.xs), np.asarray(cuts.ys)
    pw, ph = round(float(np.diff(xs).mean())), round(float(np.diff(ys).mean()))
    wide = Cuts(
        np.concatenate([[xs[0] - pw], xs, [xs[-1] + pw]]),
        np.concatenate([[ys[0] - ph], ys, [ys[-1] + ph]]),
    )
    height, width = np.asarray(image).shape[:2]
    rows, cols = len(ys) - 1, len(xs) - 1
    ring = [(0, c) for c in range(cols + 2)] + [(rows + 1, c) for c in range(cols + 2)]
    ring += [(r, 0) for r in range(1, rows + 1)] + [(r, cols + 1) for r in range(1, rows + 1)]
    found = [
        inside(image, wide, r, c, 0.0, WHOLE_SIDE)
        for r, c in ring
        if wide.xs[c] >= 0
        and wide.ys[r] >= 0
        and wide.xs[c + 1] <= width
        and wide.ys[r + 1] <= height
    ]
    return np.stack(found) if found else np.zeros((0, WHOLE_SIDE, WHOLE_SIDE, 3), np.float32)


#: Share of a line's cells unlike everything around the grid for the line to be
#: the board's own (open cells at its edge), whatever the lines inside show.
UNLIKE_AROUND = 0.8


#: A colour is seen around the grid when this share of the band's pixels lies
#: within COLOUR_NEAR of it in every channel.
AROUND_SHARE, COLOUR_NEAR = 0.02, 12


def _band_around(image: Image, cuts: Cuts) -> np.ndarray:
    """The pixels of the band just around the grid (from 2 px out, a quarter
    pitch wide, on every side the picture holds): the window's background and
    frame there, whatever lies a whole pitch out (the desktop past a narrow
    window's edge). Shape (n, channels)."""
    picture = np.asarray(image)
    height, width = picture.shape[:2]
    x0, x1, y0, y1 = int(cuts.xs[0]), int(cuts.xs[-1]), int(cuts.ys[0]), int(cuts.ys[-1])
    wide = max(3, int(_pitch(cuts)) // 4)
    parts = [
        picture[max(0, y0 - 2 - wide) : max(0, y0 - 2), max(0, x0) : x1],
        picture[min(height, y1 + 2) : min(height, y1 + 2 + wide), max(0, x0) : x1],
        picture[max(0, y0) : y1, max(0, x0 - 2 - wide) : max(0, x0 - 2)],
        picture[max(0, y0) : y1, min(width, x1 + 2) : min(width, x1 + 2 + wide)],
    ]
    channels = picture.shape[2] if picture.ndim == 3 else 1
    return np.concatenate([p.reshape(-1, channels) for p in parts]).astype(np.float32)


def _unlike_around(
    insides: dict[tuple[int, int], np.ndarray], band: np.ndarray, line: list[tuple[int, int]]
) -> bool:
    """Whether most cells of `line` show a colour seen nowhere just around the
    grid (their median colour): no band of the window's background, which is
    around the grid too, but cells of the board."""
    if len(band) == 0 or not line:
        return False
    unlike = 0
    for cell in line:
        colour = np.median(insides[cell].reshape(-1, band.shape[1]), axis=0)
        near = (np.abs(band - colour).max(axis=1) <= COLOUR_NEAR).mean()
        unlike += bool(near < AROUND_SHARE)
    return unlike >= UNLIKE_AROUND * len(line)


#: Pixels a board's own cell may lie off the lattice (the cut's rounding): a
#: covered look-alike further off is drawn on a grid of its own.
OFF_STEP = 2


def _out_of_step(
    image: Image,
    cuts: Cuts,
    line: list[tuple[int, int]],
    covered: np.ndarray,
    insides: dict[tuple[int, int], np.ndarray],
) -> list[tuple[int, int]]:
    """The cells of `line` that show a covered cell's inside only OFF_STEP
    pixels or more (up to a quarter of a pitch) off the lattice (`insides`:
    each cell's where the lattice cuts it): buttons drawn like covered cells
    beside the board (a toolbar), which no board cell is: the board's cells lie
    on its lattice. (Zoo seed 916127077: five toolbar buttons 4 px off a row
    above a 5x7 board of 19x17 px cells looked like nothing around the grid
    and were kept as the board's top row, 5x8 read.)"""
    left = [cell for cell in line if not alike_inside(insides[cell], covered)]
    found: set[tuple[int, int]] = set()
    xs, ys = np.asarray(cuts.xs), np.asarray(cuts.ys)
    height, width = np.asarray(image).shape[:2]
    reach = max(OFF_STEP, round(_pitch(cuts) / 4))
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            if max(abs(dx), abs(dy)) < OFF_STEP or not left:
                continue
            moved = Cuts(np.clip(xs + dx, 0, width), np.clip(ys + dy, 0, height))
            found |= {cell for cell in left if alike_inside(inside(image, moved, *cell), covered)}
            left = [cell for cell in left if cell not in found]
    return [cell for cell in line if cell in found]


#: Share of a line's cells like the window for the line to be a band of it (the
#: rest: a face, a counter, a timer, buttons).
BAND_SHARE = 0.5


def _outward(image: Image, cuts: Cuts, side: str) -> Cuts:
    """`cuts` moved a twelfth of a pitch (2 px at least) out towards `side`,
    within the picture: a line's cells so cut hold the board's frame or the
    outline at their outer edge if they are the board's, and none of the line
    inside them (a cut a pixel or two off shows a strip of it)."""
    xs, ys = np.asarray(cuts.xs), np.asarray(cuts.ys)
    height, width = np.asarray(image).shape[:2]
    step = max(2, round(_pitch(cuts) / 12))
    sign = -1 if side in ("top", "left") else 1
    if side in ("top", "bottom"):
        return Cuts(xs, np.clip(ys + sign * step, 0, height))
    return Cuts(np.clip(xs + sign * step, 0, width), ys)


def _like_around(
    image: Image, cuts: Cuts, around: np.ndarray, line: list[tuple[int, int]], side: str
) -> bool:
    """Whether BAND_SHARE of the cells of `line`, edges and all (cut a little
    out towards `side`, see `_outward`), are pixel for pixel (all but
    AROUND_SHARE of them within COLOUR_NEAR) a cell just around the grid: a
    band of the window's background, which the board's open cells match only
    inside their edges, their outline or the board's frame setting them apart
    (a light clone's open cells and its window alike: the face's line above the
    board was kept, 12x9 read for 11x9, seed 1661291106; a dark clone's open
    cells, its window's colour within a grid line, are no band: seed
    1234587330)."""
    if len(around) == 0 or not line:
        return False
    return sum(_like_around_cells(image, cuts, around, line, side)) >= BAND_SHARE * len(line)


def _like_around_cells(
    image: Image, cuts: Cuts, around: np.ndarray, line: list[tuple[int, int]], side: str
) -> list[bool]:
    """For each cell of `line`, whether it is a cell just around the grid,
    edges and all (see `_like_around`)."""
    if len(around) == 0:
        return [False] * len(line)
    out = _outward(image, cuts, side)
    alike = []
    for r, c in line:
        whole = inside(image, out, r, c, 0.0, WHOLE_SIDE)
        far = (np.abs(around - whole).max(axis=3) > COLOUR_NEAR).mean(axis=(1, 2))
        alike.append(bool(far.min() <= AROUND_SHARE))
    return alike


def _reached(line: list[tuple[int, int]], opened: frozenset[Cell]) -> bool:
    """Whether msbot's own first open reached half of `line` or more
    (`opened_by`): the clone opened them as cells, so they are the board's."""
    return 2 * sum(cell in opened for cell in line) >= len(line)


def _prove_edges(
    looker: Looker,
    covered: np.ndarray,
    flagged: np.ndarray,
    cycle: list[int],
    shot: Image,
    opened: frozenset[Cell] = frozenset(),
) -> tuple[tuple[int, int, int, int], Image, list[str], list[tuple[int, int]]]:
    """The rows and columns of the grid that are the board: (r0, r1, c0, c1),
    the picture afterwards, the sides lines were left out at, and the cells of
    those lines drawn like covered cells (a toolbar's buttons).

    A grid of look-alike tiles may hold more than the board: a toolbar of
    buttons drawn like covered cells, or an empty band between them. So on
    each side, the outermost line holding a cell whose inside is a covered
    cell's must behave as board cells do: that cell takes the flag and gives
    it back; a line whose covered-looking cells do not is left out, with every
    line outside it. Lines outside the first line that answers and holding no
    covered cell (a game in play: an area opened to the edge) are then judged
    from the inside out: one is kept when the insides of its cells are seen in
    the lines kept inside it, and left out otherwise (the window's background,
    a band between a toolbar and the board), with every line outside it. A line
    whose cells are unlike anything just around the grid (`_unlike_around`) is
    kept first: a clone that opens an area of its new game by itself, open to
    the grid's edge (a zoo clone's first columns 1s and 2s, the rest open 0s
    seen nowhere inside, read 9x4 for 9x9: seed 924362860); one whose cells are
    the window's own, edges and all (`_like_around`), is left out whatever the
    lines inside show (seed 1661291106), and so is one holding covered
    look-alikes off the lattice (`_out_of_step`: a toolbar's buttons).
    (A zoo clone in play, its two left columns open 0s and 1s: compared with
    cells three lines in, which showed no 0, they were left out, and the board
    was read two columns short: seed 58844096.) A line like the window whose
    other cells show the board's own pictures (its numbers, no covered cell's
    look-alike: a toolbar's) is kept: the open area reaching the edge.
    Insides are compared, not whole cells: the outer lines' cells are cut
    with a strip of the board's frame.

    A side whose last line kept holds no covered cell, is like the window
    around, and was not opened by msbot's own first click proves no geometry:
    more open cells drawn like the window may lie past it (PlayError)."""
    cuts = looker.cuts
    rows, cols = len(cuts.ys) - 1, len(cuts.xs) - 1
    insides = {(r, c): inside(shot, cuts, r, c) for r in range(rows) for c in range(cols)}
    # The clone's own noise, from the cells away from the grid's edges.
    middle = [insides[(r, c)] for r in range(1, rows - 1) for c in range(1, cols - 1)]
    same = own_bound(np.stack(middle)) if middle else INSIDE_SAME
    # How much a covered cell's own drawing (a bevel, a line) varies: a plain
    # background of the covered cell's colour (a toolbar line's empty part) has
    # the covered inside but none of that.
    covered_relief = float(
        np.median(
            [
                relief(shot, cuts, r, c)
                for r in range(1, rows - 1)
                for c in range(1, cols - 1)
                if alike_inside(insides[(r, c)], covered, same)
            ]
            or [0.0]
        )
    )
    bounds = [0, rows, 0, cols]
    dropped: list[str] = []
    buttons: list[tuple[int, int]] = []
    band = _band_around(shot, cuts)
    seams = Seams.of(shot, cuts)
    first = shot  # the picture the insides are of (a probe changes `shot`)
    around_whole = _cells_around(shot, cuts)
    for side in SIDES:
        k = 0  # lines in from the side: those before it hold no covered cell
        answered = False
        while _lines_left(bounds, side) - k >= 2:
            line = _line(bounds, side, k)
            shown = [
                cell
                for cell in line
                if alike_inside(insides[cell], covered, same)
                and relief(shot, cuts, *cell) >= RELIEF_SHARE * covered_relief
                and seams.alike(first, cuts, cell, side)
            ]
            if not shown:
                k += 1
                continue
            # Asked of the lines left only, from this one in: a counter in a
            # line left out, or in one outside this one, changes with the flag
            # (ace-minesweeper's, above its board; a zoo clone's "Mines: 10"
            # label two lines above: a change that near was taken for a menu,
            # the board's top line dropped and its flag left on: seed 873936593).
            inner = list(bounds)
            _cut(inner, side, k)
            r0, r1, c0, c1 = inner
            sub = looker.part(r0, r1, c0, c1)
            cell = shown[len(shown) // 2]
            answered, shot = _answers(sub, (cell[0] - r0, cell[1] - c0), flagged, cycle, shot)
            if answered:
                break
            # Parts drawn like covered cells that are no cells: a toolbar's
            # buttons, one of which may start a new game.
            buttons.extend(shown)
            dropped.append(side)
            _cut(bounds, side, k + 1)
            k = 0
        if not answered:
            continue
        # The lines outside the one that answered, from the inside out.
        for j in range(k - 1, -1, -1):
            line = _line(bounds, side, j)
            if _reached(line, opened):
                # Msbot's own first open reached it (`opened_by`): the clone
                # opened those as cells (a zoo clone's two left columns open
                # 0s as dark as its window, left out: 6x8 read for 8x8; seed
                # 1067654309).
                continue
            off = _out_of_step(first, cuts, line, covered, insides)
            if off:
                buttons.extend(off)  # a toolbar's buttons: one may start a new game
                dropped.append(side)
                _cut(bounds, side, j + 1)
                break
            if _unlike_around(insides, band, line):
                continue  # no window around the grid shows such cells: the board's
            depth = range(j + 1, _lines_left(bounds, side))
            seen = np.stack([insides[c] for i in depth for c in _line(bounds, side, i)])
            known = [
                bool(((seen - insides[cell]) ** 2).mean(axis=(1, 2, 3)).min() <= same)
                for cell in line
            ]
            window = _like_around_cells(first, cuts, around_whole, line, side)
            # Cells unlike the window around, none drawn like a covered cell
            # (a toolbar's buttons are: zoo seed 105139760's line of three
            # was kept by this rule as a board line, 8x9 read for 8x8).
            shut = [alike_inside(insides[cell], covered, same) for cell in line]
            drawn = [not w and not s for w, s in zip(window, shut, strict=True)]
            toolbar = any(not w and s for w, s in zip(window, shut, strict=True))
            numbers = any(drawn) and all(k for k, d in zip(known, drawn, strict=True) if d)
            if sum(known) >= 0.8 * len(line) and numbers and not toolbar:
                # The window's own cells beside pictures the board shows (its
                # numbers): the board's open area reaching its edge, whose open
                # cells are drawn like the window (zoo seed 1331028738's
                # bottom line, 1s beside open 0s, was left out, and the line
                # of open 0s past it never seen: 9x7 read for 9x9).
                continue
            if sum(known) < 0.8 * len(line) or sum(window) >= BAND_SHARE * len(line):
                dropped.append(side)
                _cut(bounds, side, j + 1)
                break
    r0, r1, c0, c1 = bounds
    for side in SIDES:
        line = _line(bounds, side, 0)
        if (
            not any(alike_inside(insides[cell], covered, same) for cell in line)
            and not _reached(line, opened)
            and _like_around(first, cuts, around_whole, line, side)
        ):
            # Open to the edge before msbot's first click, its open cells drawn
            # like the window around: more of them may lie past it, unseen (a
            # line msbot's own open reached was covered on the fresh board, in
            # the grid found then). No geometry is proven.
            raise PlayError(
                f"the board's {side} side is not proven: the clone's open cells reach it, "
                "drawn like its window, and more of the board may lie past it unseen (a "
                "game in play, or one that opens an area of its own): start a new game "
                "whose open area does not reach the board's edge, and run again"
            )
    return (r0, r1, c0, c1), shot, dropped, buttons


def first_look(
    screen: Screen,
    actuator: Actuator,
    base: Region | None = None,
    board: BoardRect | None = None,
    say: Callable[[str], None] = print,
    mines: int | None = None,
    seed: int = 0,
    keep: Callable[[Image, Region, str], None] = lambda image, region, why: None,
) -> FirstLook:
    """Learn what a fresh board shows (see the module docstring).

    `base`: the part of the screen to look in (None: all of it); `board`: the
    board rectangle when the screen holds other grids; `mines`: the mine
    total when the user knows it (it decides between counter readings);
    `keep(picture, region, why)` is given every picture learned from (`--save`).

    A mark that moved the board stops learning, its mark taken off first
    (`_moved_mark_off`).
    """
    try:
        return _first_look(screen, actuator, base, board, say, mines, seed, keep)
    except (BoardMoved, CellsResized) as moved:
        r, c = moved.cell
        if _moved_mark_off(moved):
            raise PlayError(f"{moved}; its mark at ({r}, {c}) came off again") from None
        raise PlayError(f"{moved}; the mark at ({r}, {c}) may still be on the board") from None


def _moved_mark_off(moved: BoardMoved | CellsResized) -> bool:
    """Take off the mark that moved the board (zoo seed 1009010659's first probe
    flag: "Mines: 10" became "Mines: 9" beside the board, whose window
    narrowed, and the flag stayed on the board when learning stopped) or
    resized its cells (zoo seed 524558145's flag widened its column): the
    mark cycle's next steps, one or two, where the board is now, until the
    board is back where it was with the cell as before the mark. Whether it
    is."""
    looker, (r, c) = moved.looker, moved.cell
    there, last = looker.shifted(moved.dx, moved.dy), moved.shot
    try:
        for _ in range(2):
            with contextlib.suppress(BoardMoved, CellsResized):
                there.right_click(r, c, last, "learn: the mark that moved the board off")
            time.sleep(MOVE_BACK_WAIT)
            last = settled(looker.screen, looker.region)
            if _where_it_was(looker, moved.before, last, (r, c)):
                if looker.back_as_it_was(last, r, c) or _shade_only(looker, last, r, c):
                    return True
                there = looker  # back, showing the cycle's next mark
    finally:
        looker.actuator.bind(looker.geo)
    return False


def _shade_only(looker: Looker, image: Image, r: int, c: int) -> bool:
    """Whether cell (r, c) differs from its picture before msbot's first mark on
    it by a shade alone, no stroke drawn or gone (`strokes_changed`): a flag
    taken off that leaves another shade, not a "?" (zoo seed 510931253: its
    unflagged button a few grey levels apart, one step more put the flag
    back, and it stayed on the board when learning stopped)."""
    then = looker.unmarked_grab.get((r, c))
    return then is not None and not strokes_changed(image, then, looker.cuts, (r, c))


def noise_cells(patches: np.ndarray, geo: Geometry) -> np.ndarray:
    """The comparison patches of a fresh board (`patches`, one per cell of
    `geo`) to measure the clone's own noise on (`same_bound`): the commonest
    picture's cells, two lines in from the grid's edges where at least four lie
    there, else one line in, else all. The grid's outer line may be no board
    (a toolbar drawn like covered cells, a pixel or two out of step with them)
    and the board's own outer line, cut with a strip of its frame, the next one
    in: either would widen the bound until two kinds share a look (zoo seed
    1581830535: the board's top line, a sixth of the cells one line in, 63
    from the rest, set the bound at its ceiling, and a 5 was read as a sure 3)."""
    labels = cluster(patches).labels
    alike = labels == int(np.bincount(labels).argmax())
    rows, cols = np.divmod(np.arange(len(patches)), geo.cols)
    chosen = alike
    for depth in (1, 2):
        inner = (rows >= depth) & (rows < geo.rows - depth)
        inner &= (cols >= depth) & (cols < geo.cols - depth)
        if int((alike & inner).sum()) >= 4:
            chosen = alike & inner
    return np.asarray(patches[chosen])


def _first_look(
    screen: Screen,
    actuator: Actuator,
    base: Region | None,
    board: BoardRect | None,
    say: Callable[[str], None],
    mines: int | None,
    seed: int,
    keep: Callable[[Image, Region, str], None],
) -> FirstLook:
    """`first_look` until a mark moves the board."""
    rng = np.random.default_rng(seed)
    full = screen.grab(base)
    try:
        local = find_board(np.asarray(full), board)
    except VisionError as exc:
        terminal = ""
        if terminal_on_screen(actuator.mouse, screen.size):
            terminal = (
                "; a terminal window shows: a Minesweeper drawn in text cells and played "
                "with keys is not supported (msbot clicks boards of tiles)"
            )
        raise PlayError(
            f"no Minesweeper board found (no skin reads one, and none can be learned: "
            f"{exc}){terminal}"
        ) from None
    dx, dy = (base.left, base.top) if base is not None else (0, 0)
    geo = local.shifted(dx, dy)
    region = around(geo, screen.size)
    say(
        f"a grid of {geo.rows}x{geo.cols} tiles at ({round(geo.left)}, {round(geo.top)}), "
        f"{geo.cell_w:g}x{geo.cell_h:g} px: learning whether it is a Minesweeper board"
    )
    rest = _rest_offset(geo)
    actuator.bind(geo)
    in_region = geo.shifted(-region.left, -region.top)
    actuator.mouse.move(round(geo.left + rest[0]), round(geo.top + rest[1]))
    fresh = settled(screen, region)
    keep(fresh, region, "learn: the fresh board")
    border = learn_border(np.asarray(fresh), in_region)
    cuts = find_cuts(np.asarray(fresh), in_region)
    side = patch_side(geo.cell_w, geo.cell_h)
    patches = cut_patches(np.asarray(fresh), cuts, side, LEARNED_INSET)
    book = LookBook(same_bound(noise_cells(patches, geo)), side, inset=LEARNED_INSET)
    looks = book.assign(np.asarray(fresh), cuts)
    looker = Looker(screen, actuator, geo, region, cuts, book, say)
    looker.pixel_bound = pixel_bound(fresh, cuts, looks)
    names: dict[int, Name] = {}
    notes: list[str] = []
    pointer_rest = None
    # 2-3. The covered tile is the look a right click changes: the commonest on a
    # fresh board, unless the clone opened an area of it by itself (xdemineur: 0s
    # and 1s may then both outnumber it).
    browser = board_in_browser(actuator, geo)
    found = _find_covered(looker, screen, region, looks, names, notes, rng, keep, browser)
    opened_first: tuple[int, int] | None = None
    #: The cells msbot's first open changed (its cascade): cells of the board.
    opened: frozenset[Cell] = frozenset()
    if found is None:
        # Start where the clone is: some clones take no flag before the first
        # cell is open. The first open is made here (the middle of the board: a
        # first click that opens an area there opens the most), then the right
        # click is asked again of the cells still covered.
        # The board as it is now: a probe may have opened cells (a Ctrl+click is
        # a click on a page that flags with the right button only), and the
        # first open goes on a cell still covered.
        before_board = settled(screen, region)
        now = book.assign(np.asarray(before_board), cuts)
        by_probe = [cell for cell in looker.clicked_open if now[cell] != looks[cell]]
        if not by_probe and _changed_unseen(fresh, before_board, in_region):
            unseen = (
                "msbot's probe clicks changed the board's picture where no cell of the grid "
                "it found showed it: that grid is not this board's cells, or they change "
                "size with what they show (--board L,T,W,H gives the board)"
            )
            mark = looker.last_mark
            if mark is not None and looker.changed(mark[1], before_board, *mark[0]):
                # The mark that changed it, still shown, is taken off where it was made.
                raise CellsResized(unseen, before_board, looker, mark[0], mark[1])
            raise PlayError(unseen)
        if by_probe:
            # A Ctrl+click opened cells around it (a page that flags with the
            # right button only, and takes no flag before the first open): the
            # game started there. An open of msbot's own now would be a guess
            # (a zoo page lost every time on it).
            opened_first = by_probe[0]
            keep(before_board, region, f"learn: the first open at {opened_first} (a Ctrl+click)")
            opened = opened_by(fresh, before_board, cuts, opened_first)
            looks = now
        else:
            opened_first, started = _open_first(looker, before_board, now, rest)
            keep(started, region, f"learn: the first open at {opened_first}")
            opened = opened_by(before_board, started, cuts, opened_first)
            looks = book.assign(np.asarray(started), cuts)
        found = _find_covered(looker, screen, region, looks, names, notes, rng, keep, browser)
    if found is None:
        raise PlayError(
            "no cell reacted to a right click or a Ctrl+click, before or after a first "
            "open: the game may be over (start a new one), or the clone flags in a way "
            "msbot does not know"
        )
    covered, order, r, c, shot, pointer_rest = found
    flag = looker.look_at(shot, r, c)
    try:
        cycle, unflagged, after = _mark_cycle(looker, r, c, covered, flag, shot, keep, region)
    except CellsResized:
        raise
    except PlayError:
        if opened_first is not None or actuator.flag_with == "right":
            raise
        # A Ctrl+click that changed the cell once and nothing after: a page that
        # takes no flag before the first open, and opened the cell on it (a
        # Ctrl+click is a click there). That was the first open: flags asked
        # again, of the cells still covered.
        opened_first = (r, c)
        actuator.flag_with = FLAG_WAYS[0]
        started = settled(screen, region)
        keep(started, region, f"learn: the first open at {opened_first} (a Ctrl+click)")
        opened = opened_by(fresh, started, cuts, opened_first)
        looks = book.assign(np.asarray(started), cuts)
        names.clear()
        found = _find_covered(looker, screen, region, looks, names, notes, rng, keep, browser)
        if found is None:
            raise PlayError(
                "no cell reacted to a right click or a Ctrl+click, before or after a first "
                "open: the game may be over (start a new one), or the clone flags in a way "
                "msbot does not know"
            ) from None
        covered, order, r, c, shot, pointer_rest = found
        flag = looker.look_at(shot, r, c)
        cycle, unflagged, after = _mark_cycle(looker, r, c, covered, flag, shot, keep, region)
    flag_shot = shot
    keep(shot, region, f"learn: right click on ({r}, {c})")
    shot = after
    where = "a fresh board" if opened_first is None else f"the board once {opened_first} was open"
    names[covered] = Name(".", f"cell ({r}, {c}) showed it on {where} and a right click changed it")
    how = "right clicked" if actuator.flag_with == "right" else f"{actuator.flag_with} clicked"
    names[flag] = Name("F", f"appeared where msbot {how} the covered cell ({r}, {c})")
    if len(cycle) == 3:
        names[cycle[2]] = Name(
            "?",
            f"appeared at the second right click on the covered cell ({r}, {c}), after the flag",
        )
    if unflagged is not None:
        names[unflagged] = Name(
            ".",
            f"cell ({r}, {c}) once its flag came off: a right click turns it into the flag "
            "again (the clone draws a cell whose flag came off otherwise)",
        )
        notes.append("a cell whose flag came off is drawn otherwise than a fresh one")
    # The grid is the board only where its cells behave as cells.
    flagged = inside(flag_shot, cuts, r, c)
    covered_inside = inside(fresh, cuts, r, c)
    (r0, r1, c0, c1), shot, dropped, lookalikes = _prove_edges(
        looker, covered_inside, flagged, cycle, shot, opened
    )
    grid = geo
    if dropped:
        geo = geo.part(r0, r1, c0, c1)
        in_region = geo.shifted(-region.left, -region.top)
        actuator.bind(geo)
        cuts = find_cuts(np.asarray(fresh), in_region)
        looker = looker._on(geo, cuts)
        looks = book.assign(np.asarray(shot), cuts)
        border = learn_border(np.asarray(fresh), in_region)
        order = [(a - r0, b - c0) for a, b in order if r0 <= a < r1 and c0 <= b < c1]
        r, c = r - r0, c - c0
        lines = ", ".join(dropped)
        say(f"left out lines of the grid that do not take flags ({lines}): not the board")
        notes.append(f"grid lines left out (they took no flag): {lines}")
    # Those cell-like parts, as boxes from the board's top-left (a restart to try).
    toolbar = [
        (
            grid.left + b * grid.cell_w - geo.left,
            grid.top + a * grid.cell_h - geo.top,
            grid.left + (b + 1) * grid.cell_w - geo.left,
            grid.top + (a + 1) * grid.cell_h - geo.top,
        )
        for a, b in lookalikes
    ]
    say(
        f"board {geo.rows}x{geo.cols} at ({round(geo.left)}, {round(geo.top)}), "
        f"{geo.cell_w:g}x{geo.cell_h:g} px cells: every side's cells take flags"
    )
    say(
        f"{actuator.flag_with} click: "
        + " -> ".join([*["covered", "flag", "?"][: len(cycle)], "covered"])
        + (" (drawn otherwise after a flag)" if unflagged is not None else "")
    )
    shot = _more_covered(looker, looks, names, cycle, shot, rng, keep)
    # 4. Flags for the counter.
    counter: FlagCounter | None = None
    frames = [shot]
    flags = [0]
    spots = order[1 : 1 + COUNTER_FLAGS]
    placed: list[tuple[int, int]] = []
    for i, (fr, fc) in enumerate(spots):
        try:
            nxt = looker.right_click(fr, fc, frames[-1], "learn: the counter")
        except BoardMoved as moved:
            # A label beside the board widened with this flag and moved it:
            # the flag comes off (the label and the board come back), and the
            # counter is learned from the flags before it.
            _counter_flag_back(looker, fr, fc, moved, len(cycle), names, frames[-1])
            notes.append(
                f"counter flags stopped at {len(placed)}: the next one moved the board by "
                f"({moved.dx:+d}, {moved.dy:+d}) px in its window, and came off again"
            )
            break
        except PlayError as stop:
            # The board changed so that no click can be trusted to land (its
            # cells moved apart): the flags are named, never clicked blind.
            left = ", ".join(f"({a}, {b})" for a, b in [*placed, (fr, fc)])
            raise PlayError(
                f"{stop}; msbot's counter flags at {left} may still be on the board"
            ) from None
        if nxt is None:
            # No answer in time, or cells around it changed too: the flag may
            # still have come, and a flag not counted as placed is never taken
            # off (zoo seed 99655077's tenth stayed on the board, its answer
            # taken for cells changing around it). The cell as it is now says.
            later = settled(looker.screen, looker.region)
            if looker.changed(frames[-1], later, fr, fc):
                nxt = later
        if nxt is None or not _flag_shown(looker, nxt, fr, fc, names):
            notes.append(f"cell ({fr}, {fc}) did not take a flag: counter flags stopped")
            if nxt is not None:
                frames.append(nxt)
                flags.append(len(placed) + 1)
                placed.append((fr, fc))
            break
        placed.append((fr, fc))
        frames.append(nxt)
        flags.append(i + 1)
    # A flag that does not come off stops learning, once the others came off
    # (zoo seed 157564063, its cells fading in: one flag stuck, and the eight
    # still to take off were left on the board).
    stuck: list[tuple[int, int]] = []
    for j in reversed(range(len(placed))):
        fr, fc = placed[j]
        last, answered = _counter_flag_off(
            looker, fr, fc, frames[-1], frames[j], len(cycle) - 1, names
        )
        back = looker.look_at(last, fr, fc) if answered else None
        if back is not None and back not in names:
            # Perhaps a covered cell drawn otherwise once its flag came off: so
            # only if a right click flags it again and the cycle brings it back.
            last, proven = _unflagged_proven(looker, fr, fc, last, back, flag, len(cycle))
            if proven:
                names[back] = Name(
                    ".",
                    f"cell ({fr}, {fc}) once msbot's flag came off it: a right click "
                    "flags it again and the cycle brings it back",
                )
        frames.append(last)
        flags.append(flags[-1] - 1)
        if back is None or names.get(back, Name("", "")).char != ".":
            stuck.append((fr, fc))
    if stuck:
        where = " and ".join(f"({a}, {b})" for a, b in stuck)
        others = len(placed) - len(stuck)
        raise PlayError(
            f"the flag at {where} could not be taken off again"
            + (f" (msbot's {others} other counter flags came off)" if others else "")
        )
    for frame, count in zip(frames, flags, strict=True):
        keep(frame, region, f"learn: the counter with {count} flags")
    if len(placed) >= 2:
        counter, said = learn_flag_counter([np.asarray(f) for f in frames], flags, in_region, mines)
    else:
        said = "not learned (no flags could be placed)"
    say(f"counter: {said}")
    return FirstLook(
        geo,
        region,
        cuts,
        book,
        names,
        cycle,
        pointer_rest,
        actuator.flag_with,
        counter,
        said,
        fresh,
        notes,
        border,
        opened_first,
        toolbar,
    )
