"""The game's window on the screen: finding the board, grabbing and reading it.

Once the board is located, only the window's region (the board plus the
skin's counter and controls) is grabbed: a fraction of a millisecond instead
of a whole-screen grab per reading. Readings are moved back to screen
coordinates, so clicks, recordings and messages all speak screen pixels.

When the board stops reading, the first question a person asks is "why?":
`diagnose` looks at the whole screen again and says whether the window moved,
vanished or is still where it was, and `stop` saves the frame the bot
stopped at, so every stop comes with its evidence.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from bot.errors import MsbotError, NotInPlace, OpenSides, PlayError, VisionError
from bot.play.anchors import Anchors
from bot.play.hidden_board import HiddenBoard, hidden_board
from bot.play.recorder import Recorder, has_stop_frame, with_stop_frame
from bot.play.skinplay import MARGIN, PlayRules, located_geometry, play_rules
from vision.capture import Image, Region, Screen
from vision.geometry import Geometry, part_of
from vision.reading import Reading
from vision.slide import slid

#: Shows a hidden board again the way its skin says (click Resume, press the
#: restart keys); False when the skin says nothing. See `bot.play.hidden_board`.
Uncover = Callable[[HiddenBoard, Region | None], bool]


class GameWindow:
    """One board on one screen, read with one reader.

    `base` is `--region` (None: the whole screen) where the board is searched;
    `region` the part of the screen grabbed once it is found.
    """

    def __init__(
        self,
        screen: Screen,
        reader: Any,
        recorder: Recorder,
        base: Region | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        self.screen = screen
        self.reader = reader
        self.recorder = recorder
        self.base = base
        self.say = say
        #: The located board, its grid in `region` coordinates.
        self.located: Any = None
        self.rules: PlayRules | None = None
        #: The region grabbed once the board is located (screen coordinates).
        self.region: Region | None = None
        #: The board's grid in screen coordinates, where clicks go.
        self.geometry: Geometry | None = None
        #: The last picture grabbed (what a stop saves).
        self.last_image: Image | None = None
        self._memo: tuple[Image, Reading] | None = None
        #: The last picture whose reading read every cell (`_slid`).
        self._steady: Image | None = None
        self._said: str | None = None
        #: Milliseconds of every `reader.read` so far (the play loop takes each
        #: game's share into its result).
        self.read_ms: list[float] = []
        #: Pixels grabbed around the board and the skin's regions: more while a
        #: skin is learned (its counter, face and buttons are found around it).
        self.margin = MARGIN
        #: Pixels just outside the board's corners, as the last reading saw them.
        self.anchors: Anchors | None = None
        #: Where a board the reader cannot locate is known to be (`base` grab
        #: coordinates): a skin still being learned reads too few of its cells
        #: to find its board, but learning found it (`bot.learning`).
        self.known: Any = None
        #: What the desktop says lies at the board's place (`ClickCheck.at_board`):
        #: ("covered", text) another window, ("gone", text) none at all,
        #: ("own", "") the board's own all over it, or ("", ""): cannot say.
        self.desktop: Callable[[], tuple[str, str]] | None = None

    @property
    def offset(self) -> tuple[int, int]:
        """Screen position of the top-left pixel of a `base` grab."""
        return (self.base.left, self.base.top) if self.base is not None else (0, 0)

    def locate(self, uncover: Uncover | None = None, *, uncovered: bool = False) -> Reading:
        """Find the board on the screen (or `--region`) and remember where it is.

        A board a known clone hides (paused, or a window over it) is uncovered
        once with `uncover` (None: a dry run, which never touches the game);
        otherwise the error names what hides it.
        """
        base = self.base
        image = self.screen.grab(base)
        self.last_image = image
        try:
            located = self.reader.locate(image)
        except VisionError as exc:
            if self.known is not None:
                located = self.known(image)
                return self._located(located)
            hidden = hidden_board(image, self.reader)
            if hidden is not None and uncover is not None and uncover(hidden, base):
                return self.locate(None, uncovered=True)
            hint = hidden.message if hidden is not None else ""
            if uncovered and hidden is not None:
                hint += " (msbot tried and failed)"
            hint = hint or (
                f"{exc}; if a game is open but paused, or another window covers it, "
                "uncover its board and run again"
            )
            message = f"no board found: {hint}"
            width, height = self.screen.size
            if base is not None and (base.right > width or base.bottom > height):
                seen = base.clipped(width, height).as_text()
                message += (
                    f" (--region {base.as_text()} reaches past the {width}x{height} screen: "
                    f"only {seen} was searched)"
                )
            raise self.stop(message, image) from None
        if self.known is not None:
            known = self.known(image)
            if part_of(located.geometry, known.geometry):
                # The part a skin still being learned reads of a board in play
                # (its open area's pictures not learned yet): the board is the
                # one learning found (a zoo clone's 11x9 board was played as
                # the 11x5 below its open area, seed 1643367051).
                located = known
        return self._located(located)

    def _located(self, located: Any) -> Reading:
        """Keep `located` (in `base` grab coordinates) and read the board there."""
        self.rules = play_rules(located)
        offset = self.offset
        width, height = self.screen.size
        self.region = window_region(located, offset, (width, height), self.margin)
        # From now on only the window region is grabbed: move the grid into it.
        dx, dy = self.region.left - offset[0], self.region.top - offset[1]
        self.located = replace(located, geometry=located.geometry.shifted(-dx, -dy))
        self.geometry = located.geometry.shifted(*offset)
        self._memo = None
        image = self.screen.grab(self.region)
        reading = self.read_image(image)
        self._steady = image if reading.certain else None
        self.anchors = Anchors.around(image, (self.region.left, self.region.top), reading.geometry)
        self.say_once(f"board: {reading.skin}, {reading.geometry.cols}x{reading.geometry.rows}")
        return reading

    def read_image(self, image: Image) -> Reading:
        """Read a window-region picture; geometry and controls in screen pixels."""
        assert self.region is not None
        try:
            started = time.perf_counter()
            reading = self.reader.read(image, self.located)
            self.read_ms.append((time.perf_counter() - started) * 1000)
        except VisionError as exc:
            raise self.stop(
                self.with_cause(f"the board cannot be read any more: {exc}"), image
            ) from None
        return to_screen(reading, self.region.left, self.region.top)

    def grab_reading(self) -> tuple[Image, Reading]:
        """Grab the window region and read it.

        While the loop waits for a click to show, most grabs are identical to
        the previous one: comparing pixels (~0.1 ms) is much cheaper than
        reading them again, so an unchanged picture reuses its reading.
        """
        assert self.region is not None
        image = self.screen.grab(self.region)
        self.last_image = image
        memo = self._memo
        if memo is not None and memo[0].shape == image.shape and np.array_equal(memo[0], image):
            return image, memo[1]
        reading = self.read_image(image)
        self.check_position(reading, image)
        self._memo = (image, reading)
        if reading.certain:
            self._steady = image
        self.anchors = Anchors.around(image, (self.region.left, self.region.top), reading.geometry)
        return image, reading

    def in_place(self) -> None:
        """Before a click: is the board still where the last reading saw it
        (`bot.play.anchors`)? A board seen elsewhere stops the run (`PlayError`,
        nothing clicked); one not seen where it was raises `NotInPlace`, and the
        loop reads the screen again before any other click (a clone's end-of-game
        window over it, a notice fading over a new board, a closed window). A
        corner that changed while the board stayed (something drawn over it a
        moment) only renews the anchors."""
        anchors = self.anchors
        if anchors is None:
            return
        changed = anchors.moved(self.screen)
        if changed is None:
            return
        cause = self.diagnose()
        assert self.region is not None and self.geometry is not None
        origin = (self.region.left, self.region.top)
        where = f"the board's corner at ({changed.left}, {changed.top}) changed"
        if cause.startswith("the board moved"):
            if self.follow() is not None:
                # Less than a cell within its own window (a label beside it grew):
                # followed, and the screen is read again before any click.
                raise NotInPlace(f"{cause} within its window: followed, no click made")
            raise self.stop(f"{cause}: no more clicks ({where})")
        image = self.screen.grab(self.region)
        if not cause or self._still_reads(image):
            # Located where it was, or not located afresh (a skin still being
            # learned reads too little of a whole screen) while most of its
            # cells still read where they were: the board is there.
            self.anchors = Anchors.around(image, origin, self.geometry)
            return
        raise NotInPlace(f"{cause}: no click made ({where})")

    def _still_reads(self, image: Image) -> bool:
        """Whether `image` (the board's region), read with the located grid, reads
        at least half of its cells (a desktop or another window where it was reads
        none), and its skin's border still closes it on every side (a window over
        a corner hides an edge: the cells there may be under it)."""
        skin = self.located.skin
        if skin.border is not None and skin.border.open_sides(
            image, self.located.geometry, skin.scale
        ):
            return False
        try:
            reading = self.reader.read(image, self.located)
        except VisionError:
            return False
        g = reading.geometry
        return bool(len(reading.unknown) <= g.rows * g.cols / 2)

    def refit(self) -> Geometry | None:
        """Fit the grid again where the board is now; its new screen grid, or
        None if it moved or is gone.

        A grid fitted on an all-covered board of a scaling clone (GNOME Mines)
        can be a pixel or two off for some columns: nothing on such a board
        tells the columns apart. Once cells are open the fit is sharper, so
        cells that stay unreadable get one fresh fit before the bot gives up.
        Only a fit of the same board (same size, within a quarter of a cell)
        is taken: anything else is a board that moved, and the caller stops.
        """
        old, region = self.geometry, self.region
        if old is None or region is None:
            return None
        try:
            located = self.reader.locate(self.screen.grab(self.base))
        except VisionError:
            return None
        offset = self.offset
        new: Geometry = located.geometry.shifted(*offset)
        if (
            (new.rows, new.cols) != (old.rows, old.cols)
            or abs(new.left - old.left) > old.cell_w / 4
            or abs(new.top - old.top) > old.cell_h / 4
        ):
            return None
        # Into window-region coordinates, as `locate` keeps it.
        dx, dy = region.left - offset[0], region.top - offset[1]
        self.located = replace(located, geometry=located.geometry.shifted(-dx, -dy))
        self.geometry = new
        self._memo = None
        self.say_once("grid fitted again on the opened board")
        return new

    def closed(self, image: Image) -> bool:
        """Whether the skin's border closes the board where it was located, on
        every side (a region picture): a board of another size at the same
        place (a menu's other level) or a cut one does not."""
        located = self.located
        if located is None:
            return False
        border = located.skin.border
        if border is None:
            return True
        return not border.open_sides(np.asarray(image), located.geometry, located.skin.scale)

    def away_point(self) -> tuple[int, int] | None:
        """A point on the screen just outside the region, away from the screen's
        corners (a pointer there stops pyautogui): where the pointer rests on no
        part of the clone's window (None: no room)."""
        r = self.region
        if r is None:
            return None
        width, height = self.screen.size
        for x, y in (
            (r.left - 8, r.top + 20),
            (r.right + 8, r.top + 20),
            (r.left + 20, r.bottom + 8),
        ):
            if 10 <= x < width - 10 and 10 <= y < height - 10:
                return x, y
        return None

    def framed(self, image: Image) -> bool:
        """Whether the skin has a border and it closes the board where it was
        located, on every side (a region picture)."""
        located = self.located
        return located is not None and located.skin.border is not None and self.closed(image)

    def follow(self) -> Geometry | None:
        """The board's new grid when it moved within its window by less than a
        cell, its size the same (a label beside it grew: "9/24" became "12/24"),
        now followed; None when it did not move, or cannot be located now."""
        old, region = self.geometry, self.region
        if old is None or region is None:
            return None
        try:
            located = self.reader.locate(self.screen.grab(self.base))
        except VisionError:
            return self._slid()
        offset = self.offset
        new: Geometry = located.geometry.shifted(*offset)
        dx, dy = new.left - old.left, new.top - old.top
        if (new.rows, new.cols) != (old.rows, old.cols):
            # Part of the board located (a board in play whose open cells a
            # learned skin reads too few of: zoo seed 943047310's 8 of 10 rows,
            # moved 10 px by a label): the picture says whether it slid whole.
            return self._slid()
        if max(abs(dx), abs(dy)) < 0.5:
            return None
        if abs(dx) > old.cell_w or abs(dy) > old.cell_h:
            return None
        shift_x, shift_y = region.left - offset[0], region.top - offset[1]
        moved = replace(located, geometry=located.geometry.shifted(-shift_x, -shift_y))
        return self._followed(moved, new, self.screen.grab(region), dx, dy)

    def _followed(
        self, located: Any, new: Geometry, image: Image, dx: float, dy: float
    ) -> Geometry:
        """Take `located` (region coordinates) and `new` (its screen grid) as the
        board now, the anchors renewed from `image` (a region grab); `new`."""
        assert self.region is not None
        self.located, self.geometry, self._memo = located, new, None
        self.anchors = Anchors.around(image, (self.region.left, self.region.top), new)
        self.say_once(f"the board moved by ({dx:+.0f}, {dy:+.0f}) px in its window: followed")
        return new

    def _slid(self) -> Geometry | None:
        """`follow` for a board its skin cannot locate afresh (a skin still being
        learned): the board's new grid when its picture slid as a whole since
        the last reading that read every cell (`vision.slide`), and it reads
        better there than where it was; None otherwise."""
        steady, region, old = self._steady, self.region, self.geometry
        if steady is None or region is None or old is None:
            return None
        image = self.screen.grab(region)
        offset = slid(np.asarray(steady), np.asarray(image), self.located.geometry)
        if offset is None:
            return None
        there = replace(self.located, geometry=self.located.geometry.shifted(*offset))
        try:
            moved, here = self.reader.read(image, there), self.reader.read(image, self.located)
        except VisionError:
            return None
        if len(moved.unknown) >= len(here.unknown):
            return None
        return self._followed(there, old.shifted(*offset), image, *offset)

    def diagnose(self) -> str:
        """Why the board stopped reading: covered by another window (the
        desktop's word), moved, gone, or ("") still where it was."""
        what, said = self.desktop() if self.desktop is not None else ("", "")
        if what == "covered":
            return said
        if (
            self.region is not None
            and what != "gone"
            and self.framed(self.screen.grab(self.region))
        ):
            # Its border still closes it where it was: no window over it, not
            # moved. Locating it again with a skin still being learned may fail
            # on the pictures it has not learned, and say an edge is hidden
            # when nothing hides it: the cells' own message says what is wrong.
            return ""
        full = self.screen.grab(self.base)
        self.last_image = full
        try:
            located = self.reader.locate(full)
        except VisionError as exc:
            text = str(exc)
            if "no Minesweeper board found" in text and what == "gone":
                return said
            if "no Minesweeper board found" in text:
                # Pixels cannot tell a closed window from one whose cells no
                # longer look like the skin's (a dialog over them, a learned
                # skin missing a kind): the message names both.
                return (
                    "the board vanished from the screen (its window was closed, minimised or "
                    "covered, or its cells no longer look like the skin's?)"
                )
            if isinstance(exc, OpenSides) and what == "own":
                # The desktop says the board's own window lies all over it: no
                # other window hides an edge (a border band an open cell draws
                # over, on a dithered zoo clone, or a box the clone draws).
                sides = " and ".join(exc.sides)
                return (
                    "the board could not be located again: its border does not close it on "
                    f"the {sides} side, and no other window lies over it (a box the clone "
                    "draws, or a look of its border or cells the skin does not know)"
                )
            if "boards in the image" in text:
                # One board whose unreadable cells cut its grid in pieces reads
                # as several: no window needs closing.
                return (
                    f"the board was located again as several boards ({text}); with one "
                    "board on screen, some of its cells could not be read"
                )
            return f"the board could not be located again ({text})"
        g = located.geometry.shifted(*self.offset)
        h = self.geometry
        if h is not None and (abs(g.left - h.left) > 2 or abs(g.top - h.top) > 2):
            return (
                f"the board moved from ({h.left:.0f}, {h.top:.0f}) to ({g.left:.0f}, {g.top:.0f})"
            )
        return ""

    def with_cause(self, detail: str) -> str:
        """`detail` (what the loop saw), led by its cause when the screen shows one."""
        cause = self.diagnose()
        return f"{cause}; {detail}" if cause else detail

    def check_position(self, reading: Reading, image: Image) -> None:
        """Stop if a reading puts the board anywhere but where it was located."""
        g, h = reading.geometry, self.geometry
        if h is None:
            return
        if (
            (g.rows, g.cols) != (h.rows, h.cols)
            or abs(g.left - h.left) > 2
            or abs(g.top - h.top) > 2
        ):
            raise self.stop(
                f"the board moved or changed: was {h.cols}x{h.rows} at ({h.left:.0f}, "
                f"{h.top:.0f}), now {g.cols}x{g.rows} at ({g.left:.0f}, {g.top:.0f})",
                image,
            )

    def stop(self, message: str, image: Image | None = None) -> PlayError:
        """A PlayError with the frame saved where the message says (the
        recording's frames/ folder, else a fresh temporary folder)."""
        image = image if image is not None else self.last_image
        if image is not None:
            message = with_stop_frame(message, image, self.recorder, self.region)
        return PlayError(message)

    def keep_frame(self, message: str) -> str:
        """`message` with the screen it stopped on kept, unless it says where its
        frame is already (a learner's stop raised deep in its probing had none)."""
        if has_stop_frame(message):
            return message
        try:
            image = self.screen.grab(self.region)
        except MsbotError:
            return message
        return with_stop_frame(message, image, self.recorder, self.region)

    def say_once(self, text: str) -> None:
        """Say `text` unless it was the last thing said (every game re-reads the
        board; "board: ..." once per run is enough)."""
        if self._said != text:
            self._said = text
            self.say(text)


def window_region(
    located: Any, offset: tuple[int, int], screen: tuple[int, int], margin: int = MARGIN
) -> Region:
    """The screen region to grab from now on: the board and the skin's controls."""
    left, top, width, height = located_geometry(located, margin)
    return Region(left + offset[0], top + offset[1], width, height).clipped(*screen)


def to_screen(reading: Reading, dx: int, dy: int) -> Reading:
    """A reading of a region picture, moved to screen coordinates."""
    if dx == 0 and dy == 0:
        return reading
    controls = {name: (x + dx, y + dy) for name, (x, y) in reading.controls.items()}
    return Reading(
        skin=reading.skin,
        geometry=reading.geometry.shifted(dx, dy),
        board=reading.board,
        mines_left=reading.mines_left,
        status=reading.status,
        unknown=reading.unknown,
        controls=controls,
    )
