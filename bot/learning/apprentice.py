"""The play loop's partner while it plays with a skin still being learned.

The play loop (`bot.play.loop.Player`) reads the board with the skin learned so
far and calls on the apprentice where that skin falls short:

* a cell shows a picture the skin has not learned (`explain`): if it was
  covered before msbot's click and the game went on, it is an open cell of
  a value not known yet ('-': no mine, no constraint on the solver). The game
  went on when the clicked cell shows a known open picture and more cells are
  closed than there are mines; otherwise msbot asks the clone: it right
  clicks a covered cell and takes the flag off again (a finished game
  ignores the click). An open cell that changed means the game ended (or a
  window covers the board): nothing is clicked then;
* after each reading in play (`in_play`), the values of the open pictures
  not named yet are tried on the board, still, as it is (`vision.learn.proof`);
  one proven is written into the skin at once and the board read again;
* when a game ends (`game_over`), its finished board names what it shows:
  the hit mine (the picture on the cell msbot opened last, when the count of
  closed cells proves the game was not won), the mines shown, a finished
  board's redrawn numbers; every board of the run is then checked with all
  the names, and a contradiction stops the run with nothing written;
* when the skin knows no way to start a new game (`find_restart`, in
  `bot.learning.restart`).

The skin is saved (atomically, `vision.learn.draft`) each time it learns
something, so what was learned survives whatever happens next.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from bot.actuator import Action, Actuator
from bot.board import COVERED, NUMBERS, OPEN_UNKNOWN, Board, Cell
from bot.errors import MsbotError, NotInPlace, PlayError
from bot.learning.first_look import AROUND_CELLS, AROUND_PX, strokes_changed
from bot.learning.settle import STILL, settled
from bot.learning.windows import another_window, board_points, only_window, windows_at
from bot.play.outcome import agreed_outcome, proven_outcome
from bot.solver import analyse
from vision.border import learn_border
from vision.capture import Image
from vision.classify import make_bank
from vision.cuts import Cuts, find_cuts, whole_pixel
from vision.learn.draft import Draft, write_draft
from vision.learn.grid import cut_image
from vision.learn.looks import LookBook
from vision.learn.proof import (
    Name,
    Scene,
    contradictions,
    prove_values,
    same_cell_names,
)
from vision.reading import Reading, Status, UnknownCell
from vision.skin import load_skin

if TYPE_CHECKING:
    from bot.play.window import GameWindow

#: A cell changed only along its cut when no pixel further in than this share
#: of its side changed by more than EDGE_STEP (per colour value).
EDGE_STRIP = 0.06
EDGE_STEP = 24
#: ...and no pixel of its middle half changed by more than this: a window's
#: body over the cell, a shade darker, changes every pixel a little (a dim
#: glyph, the dark theme's '0', is gone under it).
EDGE_SAME = 3
#: Share of the board's cells, at most, held at a game's start (pictures msbot
#: did not cause, never clicked): more, and what shows is no board.
HOLD_AT_MOST = 0.5
#: ... unless this share of them, at least, reads covered (a board in play: a
#: game a person started, a clone that opens an area by itself at the start).
HOLD_COVERED = 0.15
#: Pictures on held cells asked whether they are covered cells, at most, when
#: nothing else is left to do (`Apprentice.prove_held`).
HELD_PROOFS = 4
#: Seconds a probe click gets to show its flag.
PROBE_TIMEOUT = 1.0
#: Seconds the probe flag gets to come off: nothing is judged by this wait
#: (the flag was seen, so the game takes clicks), it only ends in a stop, so it
#: may be long; a clone on a busy machine can take over a second to redraw.
UNMARK_TIMEOUT = 4.0
#: Candidates of a picture on an opened cell, and of one a finished board shows
#: on a cell that was closed.
NUMBER_CANDIDATES = "012345678"
END_CANDIDATES = "*012345678"
#: Games a picture must end, on the cell msbot opened last, before it is named
#: the hit mine without a count to prove the game was lost.
HIT_GAMES = 2
#: Pixels of a cell's rim, and the mean step (per colour value) within which a
#: finished board's picture on a closed cell is framed like a cell in play
#: (`Apprentice._unframed`).
RIM = 2
RIM_SAME = 8.0
#: How alike in shape (`Apprentice._glyph_alike`) a number's new look at a
#: game's end must be to one already named that number.
GLYPH_ALIKE = 0.5
#: Share of the open cells a finished board must show anew for its pictures
#: to be a redrawn board (xbomb) rather than a window over part of it.
REDRAWN = 0.9
#: Seconds a notice over the finished board gets to go away by itself.
OVERLAY_WAIT = 8.0
#: Seconds a finished board must stay still before it is learned from (a
#: notice drawn over it stays a few seconds, then fades: KMines).
END_STILL = 2.5
#: A new game's board is played once still this long (at most NEW_GAME_WAIT s).
NEW_GAME_STILL = 0.4
NEW_GAME_WAIT = 6.0


def box_rim_unsure(reading: Reading) -> Reading:
    """`reading` with the cells around a box of unread cells unsure too. A
    notice drawn over a finished board ("You won!" in the clone's own window)
    does not end where the cells do: the cells its edge half covers show part
    of a picture, and a number whose digit lies under the edge reads as a sure
    0 (a dark zoo clone, seed 2050284017). A box is unread cells holding a 2x2
    square; its ring of cells is what is not trusted."""
    board = reading.board
    unread = np.zeros((board.height, board.width), bool)
    for r, c in reading.unread:
        unread[r, c] = True
    square = unread[:-1, :-1] & unread[1:, :-1] & unread[:-1, 1:] & unread[1:, 1:]
    if not square.any():
        return reading
    _, parts = cv2.connectedComponents(unread.astype(np.uint8), connectivity=8)
    boxes = np.isin(parts, np.unique(parts[:-1, :-1][square])) & unread
    ring = cv2.dilate(boxes.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & ~unread
    return reading.with_unsure(np.argwhere(ring), "box")


def no_board_shown(reading: Reading) -> bool:
    """Whether a reading is mostly pictures the skin does not read, with few
    covered cells among the rest: no board (a menu screen where a difficulty is
    chosen). A board in play (a game a person started, a clone that opens an
    area by itself at each start) shows pictures not learned yet too, but also
    its covered area."""
    board = reading.board
    cells = board.height * board.width
    unread = reading.unread
    covered = sum(board[cell] in ".F?" for cell in board.cells() if cell not in unread)
    return len(unread) > HOLD_AT_MOST * cells and covered < HOLD_COVERED * cells


@dataclass
class GameRecord:
    """What one game showed, as looks: its last board in play and its end."""

    number: int
    #: The first window grab of the game in play (what changes later besides the
    #: cells is a clock or the counter: `bot.learning.restart`).
    first_image: Image | None = None
    #: A window covered the finished board, and Escape closed it.
    overlay: bool = False
    #: The looks of the last board whose changed open cells msbot probed for
    #: the game's end (probed once: the game went on).
    probed: bytes | None = None
    #: Per pixel of the window region, how many times it changed between two
    #: readings in play: a clock changes again and again, a button once.
    changes: np.ndarray | None = None
    #: Cells showing pictures msbot's clicks did not cause: never clicked.
    held: set[Cell] = field(default_factory=set)
    #: The last window grab of the game in play, and whether it was seen still
    #: (only then may a 0's neighbours be taken as drawn: the flood rule).
    last_image: Image | None = None
    last_still: bool = False
    in_play: np.ndarray | None = None
    end: np.ndarray | None = None
    merged: np.ndarray | None = None
    total: int | None = None
    #: The cell msbot opened last before the game ended, and whether the solver
    #: called it certain.
    last_click: Cell | None = None
    last_certain: bool = False
    #: Every cell msbot opened in its last batch of clicks: one of them is the
    #: hit on a lost board, so none is tried as a shown mine.
    last_batch: tuple[Cell, ...] = ()
    #: How the game ended ("over": the screen hid how); "playing" until then.
    outcome: Status = "playing"


def _cascade(before: Board, reading: Reading, opened: list[Cell]) -> set[Cell]:
    """Cells joined to a clicked cell through cells that changed since `before`
    (8 neighbours; unknown cells count as changed): what the clicks opened."""
    unknown = {(u.row, u.col) for u in reading.unknown}
    now = reading.board
    changed = {cell for cell in now.cells() if now[cell] != before[cell]} | unknown
    seen = {cell for cell in opened if cell in changed}
    todo = list(seen)
    while todo:
        cell = todo.pop()
        for n in now.neighbours(cell):
            if n in changed and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def edge_only(image: Image, last: Image, cuts: Cuts, cell: Cell) -> bool:
    """Whether cell `cell` changed between `last` and `image` only at its edge
    on a side or two, its middle unchanged: what lies between it and a
    neighbour took that neighbour's colour (a page that draws an open cell
    over the gap beside it). A tile that opens, takes a flag or gives it
    back changes in its middle, or all around (a classic tile's bevel)."""
    return edge_only_tiles(
        cut_image(np.asarray(image), cuts, *cell), cut_image(np.asarray(last), cuts, *cell)
    )


def unchanged(image: Image, last: Image, cuts: Cuts, cell: Cell) -> bool:
    """Whether cell `cell` shows the same pixels in `image` as in `last` (no
    colour value more than EDGE_SAME apart): a picture not read there now is
    the picture it was before, cut otherwise (the grid refitted half a pixel:
    a zoo clone's last column, cut a pixel narrower, no longer matched its
    covered look; that picture was named an open cell, then a 1: seed
    1758262137)."""
    now = cut_image(np.asarray(image), cuts, *cell)[..., :3].astype(np.int16)
    was = cut_image(np.asarray(last), cuts, *cell)[..., :3].astype(np.int16)
    return now.size > 0 and now.shape == was.shape and int(np.abs(now - was).max()) <= EDGE_SAME


def edge_only_tiles(now_tile: np.ndarray, was_tile: np.ndarray) -> bool:
    """`edge_only` for two cuts of one cell (a cut a pixel larger or smaller is
    compared on the part both hold)."""
    h = min(now_tile.shape[0], was_tile.shape[0])
    w = min(now_tile.shape[1], was_tile.shape[1])
    now = now_tile[:h, :w, :3].astype(np.int16)
    was = was_tile[:h, :w, :3].astype(np.int16)
    if now.size == 0:
        return False
    step = np.abs(now - was).max(axis=2)
    changed = step > EDGE_STEP
    if not changed.any():
        return False
    h, w = changed.shape
    middle = step[h // 4 : h - h // 4, w // 4 : w - w // 4] > EDGE_SAME
    strip = max(1, round(EDGE_STRIP * min(h, w)))
    # Each side's strip without the corners (shared by two sides).
    inner_w, inner_h = slice(strip, w - strip), slice(strip, h - strip)
    sides = [changed[:strip, inner_w].any(), changed[-strip:, inner_w].any()]
    sides += [changed[inner_h, :strip].any(), changed[inner_h, -strip:].any()]
    return not middle.any() and sum(sides) <= 2


@dataclass
class Ended:
    """The apprentice found the game over (no probe flag appeared, or open cells changed)."""

    outcome: Status
    image: Image
    why: str


#: Seconds a probed cell is given to show covered again after the right click
#: of a failed proof (`Apprentice._unflagged_proven`): already drawn by then.
RECHECK_S = 0.2

#: Single steps of the mark cycle the probe's flag gets to come off, after the
#: cycle's own (`Apprentice._probe_covered`).
EXTRA_MARK_STEPS = 2
#: Tiles a look keeps besides its first (`Apprentice._add_phases`), at most.
MORE_PHASES = 6


@dataclass
class Apprentice:
    """Learning while playing (see the module docstring)."""

    draft: Draft
    folder: Path
    actuator: Actuator
    say: Callable[[str], None] = print
    #: Told of every click the apprentice makes (the loop counts and records them).
    on_action: Callable[[Action], None] = lambda _: None
    window: GameWindow | None = None
    games: list[GameRecord] = field(default_factory=list)
    ended: Ended | None = None
    #: Looks that ended a game on the cell msbot opened last, per game.
    hits: dict[int, int] = field(default_factory=dict)
    #: The last scene proofs were tried on (not tried again unchanged).
    _tried: bytes = b""
    #: The last reading `_hold` made (cells held back as covered).
    _holding: Reading | None = None
    #: The batch (its reading before) whose cascade held `_batch_held`: cells
    #: not reached yet when they were held, reached since (a cascade drawn
    #: ring by ring) are that batch's doing after all.
    _batch: Reading | None = None
    _batch_held: set[Cell] = field(default_factory=set)
    #: The top-level window the board was seen in at the game's start (None:
    #: the desktop cannot tell), to know whether another one lies over it.
    board_window: int | None = None
    #: The cell the first look opened to start the first game (a clone that
    #: takes no flag before): its first reading is explained as that click's.
    opened_first: Cell | None = None

    # ------------------------------------------------------------- plumbing

    @property
    def margin(self) -> int:
        """Pixels grabbed around the board: where a counter, a face or buttons lie."""
        geo = self.draft.geometry
        return max(AROUND_PX, round(AROUND_CELLS * max(geo.cell_w, geo.cell_h)))

    @property
    def book(self) -> LookBook:
        return self.draft.book

    def bind(self, window: GameWindow) -> None:
        self.window = window

    def _window(self) -> GameWindow:
        if self.window is None:
            raise PlayError("the apprentice has no game window")
        return self.window

    def cuts(self, image: Image) -> Cuts:
        """Where each cell lies in a window-region grab."""
        geo = self._window().located.geometry
        if whole_pixel(geo):
            xs = np.rint(geo.left + np.arange(geo.cols + 1) * geo.cell_w).astype(np.int64)
            ys = np.rint(geo.top + np.arange(geo.rows + 1) * geo.cell_h).astype(np.int64)
            return Cuts(xs, ys)
        return find_cuts(np.asarray(image), geo)

    def looks(self, image: Image) -> np.ndarray:
        """The look of every cell (new pictures become new looks)."""
        return np.asarray(self.book.assign(np.asarray(image), self.cuts(image)))

    def save(self) -> None:
        """Write the skin and read with it from now on."""
        write_draft(self.draft, self.folder)
        skin = load_skin(self.folder)
        window = self._window()
        reader = window.reader
        bank = make_bank(skin)
        reader.skins = [skin]
        reader.banks = [bank]
        reader.forget()
        window.located = replace(window.located, skin=skin, bank=bank)
        window._memo = None
        from bot.play.skinplay import play_rules

        window.rules = play_rules(window.located)

    def current(self) -> GameRecord:
        if not self.games:
            self.games.append(GameRecord(1))
        return self.games[-1]

    def new_game(self, number: int) -> None:
        self.games.append(GameRecord(number))
        self.ended = None
        points = self._board_points()
        seen: set[int | None] = (
            {None} if points is None else windows_at(self.actuator.mouse, points)
        )
        self.board_window = only_window(seen)

    def _board_points(self) -> list[tuple[int, int]] | None:
        """Where the desktop is asked which window lies over the board (None: no board)."""
        g = self.window.geometry if self.window is not None else None
        return None if g is None else board_points(g)

    def under_other_windows(self, reading: Reading) -> Reading | None:
        """`reading` with the cells another top-level window covers made unsure
        (the desktop's word: the board's own window is known from the game's
        start), or None when no other window lies over the board."""
        g = self.window.geometry if self.window is not None else None
        if g is None or self.board_window is None:
            return None
        mouse = self.actuator.mouse
        rects = set()
        for x, y in board_points(g):
            if self._another_at(x, y):
                rect = mouse.window_rect_at(x, y)
                if rect is not None:
                    rects.add(rect)
        if not rects:
            return None
        # Every cell the window overlaps by more than a pixel, not only those
        # whose middle it holds: the rest of a cell half covered is no picture
        # of the cell either.
        covered = []
        for r, c in reading.board.cells():
            x0, y0 = g.left + c * g.cell_w, g.top + r * g.cell_h
            x1, y1 = x0 + g.cell_w, y0 + g.cell_h
            if any(
                rx < x1 - 1 and x0 + 1 < rx + rw and ry < y1 - 1 and y0 + 1 < ry + rh
                for rx, ry, rw, rh in rects
            ):
                covered.append((r, c))
        known = {(u.row, u.col) for u in reading.unknown}
        extra = tuple(
            UnknownCell(r, c, 0.0, 0.0, "window") for r, c in covered if (r, c) not in known
        )
        return replace(reading, unknown=reading.unknown + extra) if extra else None

    def _another_at(self, x: int, y: int) -> bool:
        """Whether the desktop says a window other than the board's lies at (x, y)
        (False over the bare desktop, or where it cannot tell)."""
        return self.actuator.mouse.window_at(x, y) not in (self.board_window, None, 0)

    def _under_a_window(self, cell: Cell) -> bool:
        """Whether the desktop says another window lies over `cell` now (the
        clone's "Game over" dialog over the cell msbot hit: a zoo clone's hit
        mine was named by the dialog's button, read as the hit mine at every
        later end)."""
        g = self.window.geometry if self.window is not None else None
        if g is None or self.board_window is None:
            return False
        return self._another_at(*g.cell_center(*cell))

    def escape(self, why: str) -> Action:
        """Escape pressed to close a window over the board (a dialog at a game's
        end), that window given the keyboard focus first: with no window manager,
        the board's window kept the focus msbot gave it for an earlier key, and
        the Escape went there (a zoo clone's second "Game over" stayed, and the
        run stopped under it)."""
        for x, y in self._board_points() or []:
            if self._another_at(x, y):
                return self.actuator.press_key("Escape", why, at=(x, y))
        return self.actuator.press_key("Escape", why)

    def another_window_over_board(self) -> bool | None:
        """Whether a window other than the game's lies over its board now (a
        dialog), as the desktop says; None when it cannot tell. Escape closes
        a dialog, but some clones quit on it (ace-minesweeper): it is sent only
        when this is not False."""
        points = self._board_points()
        if points is None:
            return None
        return another_window(self.actuator.mouse, self.board_window, points)

    # ------------------------------------------------------------- the game

    def _look_of(self, image: Image, cuts: Cuts, r: int, c: int) -> int:
        """The look of cell (r, c): the look holding its picture, or a new one."""
        one = Cuts(cuts.xs[c : c + 2], cuts.ys[r : r + 2])
        return int(self.book.assign(np.asarray(image), one)[0, 0])

    def explain(
        self,
        image: Image,
        reading: Reading,
        opened: list[Cell],
        certain: bool,
        before: Reading | None,
        total: int | None,
        flagged: Sequence[Cell] = (),
    ) -> Reading | None:
        """A reading with the unknown cells of `reading` accounted for, or None
        (nothing to explain them by: the loop's own waiting and stopping go on).

        A picture on a cell msbot flagged in this batch is the flag, drawn otherwise
        there (KMines' tiles let a gradient through).

        Only what msbot's clicks did is learned: a picture on a cell joined to a
        clicked cell through cells that changed with the click (a cascade).
        Anything else (a picture on a board no click has touched yet, a window
        fading out over the cells) is held: not learned, never clicked, until it
        shows a picture the skin knows."""
        if not reading.unknown:
            return None
        moved = self._window().follow()
        if moved is not None:
            # Pictures not read because the board moved (a label beside it grew):
            # nothing is learned from cells cut where the board was.
            self.actuator.bind(moved, self.actuator.controls)
            return None
        if self._add_phases(image, [(u.row, u.col) for u in reading.unknown]):
            self.save()
            reading = self._window().read_image(image)
            if not reading.unknown:
                return reading
        record = self.current()
        unknown = [(u.row, u.col) for u in reading.unknown]
        if before is None and self.opened_first is not None and record.number == 1:
            # The first reading of the first game: what the first look's open did.
            first, self.opened_first = self.opened_first, None
            untouched = Board.covered(reading.board.height, reading.board.width)
            before = replace(reading, board=untouched, unknown=())
            opened = [first]
        if before is None or not (opened or flagged):
            if no_board_shown(reading):
                return None
            record.held |= set(unknown)
            return self._hold(reading)
        board = before.board
        if self._name_edge_changes(image, reading, before):
            self.save()
            reading = self._window().read_image(image)
            if not reading.unknown:
                return reading
            unknown = [(u.row, u.col) for u in reading.unknown]
        flags = [cell for cell in unknown if cell in set(flagged) and board[cell] in ".?"]
        # A held cell msbot flagged now shows what its click did (a covered
        # cell of a shade not read sure, held, then flagged as a certain mine:
        # its flag was held too, and the counter's one flag more contradicted
        # a board that showed none).
        self.current().held -= set(flags)
        if not self._own_changes(reading, board, opened, flagged):
            # Pictures on cells msbot did not touch too: perhaps a window over
            # the board (GNOME Mines' "Congratulations" over its last flags,
            # whose pieces were named flags). Nothing is named from this board;
            # open cells or flags that changed still end the game.
            ended = self._changed_end(image, reading, board, opened, certain)
            if ended is not None:
                return ended
            record.held |= set(unknown)
            return self._hold(reading)
        reach = _cascade(board, reading, opened) | set(flags)
        if before is not self._batch:
            self._batch, self._batch_held = before, set()
        # Held earlier in this batch, reached now: the far rings of a cascade
        # the clone draws one after another (seen once, not reached yet, they
        # stayed held, and their new numbers were never learned: "cells
        # unreadable" on a 30x16 zoo clone, seed 29971693).
        record.held -= self._batch_held & reach & set(unknown)
        fresh = [cell for cell in unknown if cell not in record.held]
        if not fresh:
            return self._hold(reading)
        ended = self._changed_end(image, reading, board, opened, certain)
        if ended is not None:
            return ended
        caused = [cell for cell in fresh if cell in reach]
        newly = {cell for cell in fresh if cell not in reach}
        record.held |= newly
        self._batch_held |= newly
        if not caused:
            return self._hold(reading)
        # Nothing is named before the game is shown to go on: the click that
        # won may bring a notice over the cells it opened or flagged
        # ("You won!" drawn on the board), and its pieces are no flag.
        on = self._goes_on(reading, opened, total)
        if on is None:
            on = self._probe(reading, caused)
        if not on:
            why = "the clone ignores clicks"
            return self._end(image, reading, opened, certain, why, board, over=True)
        if flags:
            self._name_flags(image, flags)
            reading = self._window().read_image(image)
            left = {(u.row, u.col) for u in reading.unknown}
            caused = [cell for cell in caused if cell in left and cell not in flags]
            if not caused:
                return self._hold(reading)
        if not self._board_still(image):
            # A picture on its way (a cell fading open, a cascade still spreading)
            # is no look of the clone: nothing is named until the board is still.
            return None
        clicked = ", ".join(f"({r}, {c})" for r, c in opened[:3])
        how = f"covered before, when msbot opened {clicked}, and the game went on"
        cuts = self.cuts(image)
        added = 0
        last = record.last_image
        kept: set[Cell] = set()
        for r, c in caused:
            if self._edge_only(image, last, cuts, (r, c)):
                continue  # a covered cell beside one that opened: no open cell
            if last is not None and unchanged(image, last, cuts, (r, c)):
                # Not opened by these clicks: the picture it showed before (one
                # msbot did not cause, let go beside a 0), held again.
                kept.add((r, c))
                continue
            look = self._look_of(image, cuts, r, c)
            if self.draft.char_of(look) is None:
                self.draft.opened[look] = (
                    f"game {record.number}: appeared on cell ({r}, {c}), {how}"
                )
                added += 1
        if not added:
            if kept:
                # A clone's own opening at a new game: its 5, held, then let go
                # beside a 0, stayed unread (seed 1643367051 stopped on it).
                record.held |= kept
                return self._hold(reading)
            return None  # pictures the skin holds but reads unsure: nothing to learn
        self.say(f"learned {added} picture(s) of open cells, values not known yet")
        self.save()
        again: Reading = self._window().read_image(image)
        return self._hold(again)

    def _edge_only(self, image: Image, last: Image | None, cuts: Cuts, cell: Cell) -> bool:
        """Whether `cell` changed only at its edge (`edge_only`): since `last`,
        or, with no picture before (the first look's open: the first reading
        of the first game), against every covered look the skin holds. A dark
        clone drew the open cells' sunken rim across the gap onto the covered
        cells beside them, and those were named open cells."""
        if last is not None:
            return edge_only(image, last, cuts, cell)
        tile = cut_image(np.asarray(image), cuts, *cell)
        return any(
            edge_only_tiles(tile, was)
            for look in self.book.looks
            if self.draft.char_of(look.key) == "."
            for was in (look.tile, *look.extra)
        )

    def _changed_end(
        self, image: Image, reading: Reading, before: Board, opened: list[Cell], certain: bool
    ) -> Reading | None:
        """The game over, when unknown cells not held were open or flagged on
        `before` (no game changes them: the end, or a window over the board)."""
        held = self.current().held
        fresh = [(u.row, u.col) for u in reading.unknown if (u.row, u.col) not in held]
        why = ""
        if any(before[cell] not in ".?F" for cell in fresh):
            why = "open cells changed"
        elif any(before[cell] == "F" for cell in fresh):
            why = "a flag changed"
        if not why:
            return None
        ended = self._end(image, reading, opened, certain, why, before)
        if ended is not None:
            return ended
        window_over = self.another_window_over_board()
        if window_over is not True:
            # No window over the board: the clone drew over its own board (a
            # page's "Game over" banner across open cells). If the game takes
            # no more clicks it is over, and how is what the board proves; one
            # that still answers goes on (its changed cells stay unsure). Only
            # a board that holds still is probed, and only once.
            record = self.current()
            key = self.looks(image).tobytes()
            if key == record.probed or not self._board_still(image):
                return None
            record.probed = key
            if self._probe(reading, opened):
                return None
            why = f"{why}, and the clone ignores clicks"
            return self._end(image, reading, opened, certain, why, before, over=True)
        if window_over:
            record = self.current()
            if record.overlay:
                # Escape left it there ("You won!" with only a button): if the
                # game takes no more clicks it is over, and how is what the
                # board proves ("over" when the window hides the last guess).
                # A game that still answers goes on (a person's window stops
                # the loop as such).
                if self._probe(reading, opened):
                    return None
                why = "the clone ignores clicks under its window"
                return self._end(image, reading, opened, certain, why, before, over=True)
            # A window of the clone's over the board hides how the game ended (a
            # high-score window after a win): closed, the board shows it.
            self.on_action(self.escape("close the window over the board"))
            record.overlay = True
            time.sleep(0.3)
        return ended

    def _own_changes(
        self, reading: Reading, before: Board, opened: list[Cell], flagged: Sequence[Cell]
    ) -> bool:
        """Whether every unknown cell of `reading` is one msbot flagged or opened
        (through a cascade) since `before`, or held already, and the desktop
        does not say another window lies over the board."""
        unknown = {(u.row, u.col) for u in reading.unknown}
        own = set(flagged) | _cascade(before, reading, opened) | self.current().held
        return unknown <= own and self.another_window_over_board() is not True

    def _add_phases(self, image: Image, cells: list[Cell]) -> bool:
        """Whether cells the reader finds unsure show looks already named (the
        book holds their pictures), each then kept as one more tile of its look.

        A clone drawn at a fractional pitch draws cells 36 or 37 px wide, and
        one picture shrunk from either size differs by a few grey levels: the
        book, which compares every cell as cut, holds both in one look, while
        the reader, sampling the cell, was just past the skin's bound (GNOME
        Mines at 16x16: a flag 14 from the learned flag, bound 12; play
        stopped on "cells unreadable"). The name stays the look's, with its
        evidence; the reader gets the picture as the book saw it."""
        cuts = self.cuts(image)
        added = False
        for r, c in cells:
            key = self._look_of(image, cuts, r, c)
            look = self.book.looks[key]
            if self.draft.char_of(key) is None or len(look.extra) >= MORE_PHASES:
                continue
            tile = cut_image(np.asarray(image), cuts, r, c)
            if any(np.array_equal(tile, t) for t in (look.tile, *look.extra)):
                continue
            look.extra.append(tile)
            added = True
        return added

    def _name_edge_changes(self, image: Image, reading: Reading, before: Reading) -> bool:
        """Whether pictures not read were named what their cells showed before:
        cells that changed since the last picture in play only in a thin strip
        along their cut (`_edge_only`: a page that draws an open cell over the
        gap beside it, so the covered cell next to it shows a strip of another
        colour), or not at all (`unchanged`: the grid refitted, the same pixels
        cut otherwise), where that picture read sure. Opening, flagging or
        unflagging a cell changes its tile."""
        record = self.current()
        last = record.last_image
        if last is None or np.asarray(last).shape != np.asarray(image).shape:
            return False
        cuts = self.cuts(image)
        unsure = before.unread
        named = False
        for u in reading.unknown:
            cell = (u.row, u.col)
            was = before.board[cell]
            if cell in record.held or cell in unsure:
                continue  # what it showed before is not known
            if edge_only(image, last, cuts, cell):
                how = "its inside is unchanged, only its edge (beside a cell that changed)"
            elif unchanged(image, last, cuts, cell):
                how = "its pixels are unchanged (the grid was cut otherwise)"
            else:
                continue
            look = self._look_of(image, cuts, *cell)
            if self.draft.char_of(look) is not None:
                continue
            evidence = f"game {record.number}: on cell {cell}, which showed {was!r}: {how}"
            if was == OPEN_UNKNOWN:
                # An open cell whose value is not known yet, its gap beside a cell
                # that opened redrawn (a dithered zoo clone, seed 655986895: its 2
                # stayed unread, and play stopped).
                self.draft.opened[look] = evidence
            else:
                self.draft.names[look] = Name(was, evidence)
            named = True
        return named

    def _name_flags(self, image: Image, cells: list[Cell]) -> None:
        """The pictures on cells msbot just flagged, named flags."""
        cuts = self.cuts(image)
        game = self.current().number
        for r, c in cells:
            look = self._look_of(image, cuts, r, c)
            if self.draft.char_of(look) is None:
                self.draft.names[look] = Name(
                    "F", f"game {game}: appeared where msbot flagged the covered cell ({r}, {c})"
                )
        self.save()

    def _hold(self, reading: Reading) -> Reading:
        """`reading` without its held cells among the unknown ones (shown covered).
        A held cell that reads as a known picture again (a notice faded away) is
        let go."""
        record = self.current()
        unknown = {(u.row, u.col) for u in reading.unknown}
        record.held &= unknown
        # A 0 has no mine around it: a held picture beside a 0 is no mine, so it is
        # "open, value unknown" (a clone's own opening at a new game, xdemineur's).
        board = reading.board
        beside_0 = {c for c in record.held if any(board[n] == "0" for n in board.neighbours(c))}
        record.held -= beside_0
        keep = tuple(u for u in reading.unknown if (u.row, u.col) not in record.held | beside_0)
        if len(keep) == len(reading.unknown):
            return reading
        held = replace(
            reading,
            unknown=keep,
            board=board.with_cells(beside_0, OPEN_UNKNOWN),
            held=frozenset(record.held),
        )
        self._holding = held
        return held

    @property
    def held(self) -> frozenset[Cell]:
        """Cells of this game msbot must not click: pictures it did not cause."""
        return frozenset(self.current().held) if self.games else frozenset()

    def _goes_on(self, reading: Reading, opened: list[Cell], total: int | None) -> bool | None:
        """True when the board proves the game went on: a clicked cell shows an open
        picture the skin knows, and more cells are closed than there are mines."""
        board = reading.board
        if total is None or not any(board[c] in NUMBERS + OPEN_UNKNOWN for c in opened):
            return None
        # The reading shows the cells it did not read covered, held ones too
        # (a notice over cells the last click opened): only cells read count.
        unread = reading.unread
        closed = sum(board[cell] in ".?F" for cell in board.cells() if cell not in unread)
        return True if closed > total else None

    def _probe(self, reading: Reading, avoid: list[Cell]) -> bool:
        """Whether the game still takes clicks: a mark on a covered cell far from
        `avoid` changes it (the flag: named so if drawn otherwise there), and
        taking it off brings the cell's picture back. With no covered cell to
        mark, a flag is taken off and put back instead."""
        board = reading.board
        held = self.current().held
        unknown = {(u.row, u.col) for u in reading.unknown}

        def far(cells: list[Cell]) -> Cell:
            return max(
                cells,
                key=lambda cell: min(
                    (max(abs(cell[0] - a[0]), abs(cell[1] - a[1])) for a in avoid), default=0
                ),
            )

        free = [cell for cell in board.cells() if cell not in held and cell not in unknown]
        # Covered now, on the settled screen: the last batch's cascade may have
        # opened cells the reading showed covered, and a right click on an open
        # cell changes nothing, which would say "the game is over" (zoo seed
        # 918141948: its game was then reported won with nine cells to go).
        window = self._window()
        now = settled(window.screen, window.region)
        covered = [cell for cell in free if board[cell] == "."]
        shown = {cell: self._char_at(now, cell) for cell in covered}
        flags = [cell for cell in free if board[cell] == "F"]
        if covered and "." not in shown.values() and None in shown.values():
            # Every covered cell drawn otherwise: a game in play changes no cell
            # it was not asked to, so this is most likely its end. A finished
            # game may draw its covered cells otherwise (a zoo clone's lost
            # board, seed 528080260): a flag is asked instead, one the clone
            # drew itself too (no game in play flags a cell by itself), else a
            # cell drawn as nothing the skin reads (seed 2020607272's page won
            # at its first click, its mines flagged in another look, a notice
            # over the board's middle; the farthest from the clicks lies on the
            # board's rim): a click that changes it is undone by the rest of the
            # mark cycle, as a flag's is.
            drawn = [cell for cell, char in shown.items() if char == "F"]
            unread = [cell for cell, char in shown.items() if char is None]
            return self._probe_flag(far(flags or drawn or unread))
        covered = [cell for cell in covered if shown[cell] == "."]
        # Twice at most: a cell the clone opened by itself while the probe asked
        # it (a cascade still drawing) says nothing either way.
        # A cell the board proves a mine may end the game once flagged (a clone
        # whose win needs every mine flagged): its flag then stays, and that
        # says the game is over, not that the mark cycle is unknown. So does a
        # window of the clone's come over the board since ("Congratulations":
        # zoo seed 1435885757's probe flag on its last mine won the game, its
        # mines not proven for want of the total, and play stopped on it).
        # The board as the settled screen shows it: the reading is older, and
        # the last batch may have opened and flagged cells since (a zoo
        # clone won only once its last mine took msbot's probe flag, which
        # then stayed). A cell msbot opened that shows a picture not read yet
        # is an open cell; any other cell not read now stays as it was.
        since = {cell: char for cell, char in shown.items() if char is not None}
        since |= {cell: "-" for cell in avoid if cell in unknown or shown.get(cell, ".") is None}
        try:
            mines = set(analyse(board.with_values(since), self.current().total).mines)
        except MsbotError:
            mines = set()
        asked: list[Cell] = []
        # Cells not proven mines first: a flag on the last mine may itself end
        # the game (a clone whose win needs every mine flagged).
        safe_first = [cell for cell in covered if cell not in mines]
        while covered and len(asked) < 2:
            cell = far(safe_first) if safe_first else far(covered)
            if cell in safe_first:
                safe_first.remove(cell)
            try:
                answer = self._probe_covered(cell)
            except PlayError:
                if cell not in mines and not self.another_window_over_board():
                    raise
                self.say(f"the probe flag on {cell} stayed: the game ended")
                return False
            if answer is not None:
                return answer
            asked.append(cell)
            covered.remove(cell)
        if asked and (set(asked) <= mines or self.another_window_over_board()):
            self.say(f"the probe flag on {asked[-1]} stayed: the game ended")
            return False
        if asked:
            cells = " and ".join(f"({r}, {c})" for r, c in asked)
            raise PlayError(
                f"the probe flag at {cells} did not come off again (or the cell opened "
                "by itself): msbot cannot tell whether the game goes on"
            )
        return self._probe_flag(far(flags)) if flags else False

    def _unmark(self, cell: Cell, clicks: int, why: str) -> None:
        """Undo msbot's own mark on `cell` (`clicks` steps of the mark cycle), so
        that no probe is left behind (see `_followed`)."""
        self._followed(lambda: self.actuator.unflag(*cell, clicks, why))

    def _followed(self, click: Callable[[], Action]) -> None:
        """Make a learning click, once more after reading the board again where
        it is now if it was refused for a board that moved within its window
        (`NotInPlace`, nothing clicked): a label beside the board that changes
        width with the count of flags moves it (zoo seed 2090529625 stopped with
        its probe flag on the board)."""
        try:
            done = click()
        except NotInPlace:
            _, reading = self._window().grab_reading()
            self.actuator.bind(reading.geometry, reading.controls)
            done = click()
        self.on_action(done)

    def _probe_flag(self, cell: Cell) -> bool:
        """Whether the game takes clicks, asked of a flag (or of any cell of the
        mark cycle: the cycle is as long from each of its steps): one step of the
        mark cycle changes it, and the rest of the cycle puts it back. (xdemineur,
        won with every mine flagged and the 0s it opened by itself not named
        yet: no covered cell left to probe, so the win went unseen.)"""
        window = self._window()
        before = self._cell_pixels(settled(window.screen, window.region), cell)
        self.on_action(self.actuator.unflag(*cell, 1, "learn: does the game go on? (a flag)"))
        if self._wait_pixels(cell, before, changed=True) is None:
            return False
        back = 2 if self.draft.question_marks else 1
        self._unmark(cell, back, "learn: the probed flag back")
        if self._wait_pixels(cell, before, False, UNMARK_TIMEOUT) is None:
            raise PlayError(f"the flag at {cell}, taken off to probe, did not come back")
        return True

    def _probe_covered(self, far: Cell) -> bool | None:
        """Whether the game takes clicks, asked of covered cell `far` (see
        `_probe`); None when the change the right click met is not shown to be
        a mark: it reads as an open cell, or it did not come off again.

        The board is let settle first, and a picture the skin does not know is
        named a flag only once the rest of the mark cycle has brought the covered
        cell back: an opened cell never turns covered again. (xbomb, probed 0.07 s
        after msbot's last clicks, met the cell their cascade opened, and stopped
        with "the probe flag did not come off again"; had it come off, the
        number's picture would have been named a flag.)"""
        window = self._window()
        image = settled(window.screen, window.region)
        if self._char_at(image, far) != ".":
            self.say(f"the probed cell {far} is no longer covered: another is asked")
            return None
        before = self._cell_pixels(image, far)
        self._followed(lambda: self.actuator.flag(*far, "learn: does the game go on?"))
        shot = self._wait_pixels(far, before, changed=True)
        if shot is None:
            return False
        seen = self._char_at(shot, far)
        if seen is not None and seen not in "F?":
            self.say(f"the probed cell {far} opened by itself ({seen!r}): another is asked")
            return None
        marks = 2 if self.draft.question_marks else 1
        self._unmark(far, marks, "learn: probe flag off")
        back = self._wait_pixels(far, before, False, UNMARK_TIMEOUT, covered_too=True)
        if back is None:
            if self._unflagged_proven(far, self._cell_pixels(shot, far), marks):
                back = settled(window.screen, window.region)
            else:  # its right click may have stepped an unknown "?" back to covered
                back = self._wait_pixels(far, before, False, RECHECK_S, covered_too=True)
        # One step of the cycle at a time, up to two more: a mark the first look
        # did not see in the cycle ("?" after the flag, on a clone whose first
        # look met few covered cells), or a right click the clone dropped
        # (xdemineur, busy drawing the area its last clicks opened, once kept
        # its flag after both steps of the probe's flag off).
        for _ in range(EXTRA_MARK_STEPS):
            if back is not None:
                break
            self._unmark(far, 1, "learn: probe mark off")
            back = self._wait_pixels(far, before, False, UNMARK_TIMEOUT, covered_too=True)
        if back is None:
            if seen is None:  # perhaps no mark at all: the cell opened by itself
                self.say(f"the probed cell {far} did not come back: another is asked")
                return None
            raise PlayError(f"the probe flag at {far} did not come off again")
        self._name_flags(shot, [far])
        return True

    def prove_held(self) -> bool:
        """Whether pictures on held cells (msbot did not cause them: never
        clicked) were proven covered cells and named so, when the game has
        nothing left to do but those cells. One cell of each such picture is
        right clicked: a covered cell changes (its flag) and the rest of the
        mark cycle brings its picture back; an open cell does not change. (A
        zoo clone drew its last row's covered cells otherwise once the row
        above opened: held from then on, they were never clicked, and the game
        stopped with "nothing left to do".)"""
        record = self.current()
        window = self._window()
        image = settled(window.screen, window.region)
        cuts = self.cuts(image)
        marks = 2 if self.draft.question_marks else 1
        tried: set[int] = set()
        named = False
        for cell in sorted(record.held):
            look = self._look_of(image, cuts, *cell)
            if look in tried or self.draft.char_of(look) is not None:
                continue
            if len(tried) >= HELD_PROOFS:
                break
            tried.add(look)
            before = self._cell_pixels(image, cell)
            self.on_action(self.actuator.flag(*cell, "learn: is this held picture a covered cell?"))
            shot = self._wait_pixels(cell, before, changed=True)
            if shot is None:
                continue  # no change: no covered cell (or the game takes no clicks)
            self._unmark(cell, marks, "learn: the flag off again")
            back = self._wait_pixels(cell, before, False, UNMARK_TIMEOUT, covered_too=True)
            if back is None:
                # A shade apart, no stroke drawn or gone: the flag is off, and
                # the clone draws a cell whose flag came off otherwise (zoo seed
                # 1502643724's bottom-left cell, cut with the frame).
                back = settled(window.screen, window.region)
                if strokes_changed(back, image, cuts, cell):
                    raise PlayError(f"the flag msbot put on the held cell {cell} did not come off")
            self.draft.names[look] = Name(
                COVERED,
                f"game {record.number}: cell {cell} (a picture msbot did not cause) took a "
                "flag on a right click and the mark cycle brought it back",
            )
            self._name_flags(shot, [cell])
            record.held.discard(cell)
            image = back
            named = True
        if named:
            self.save()
        return named

    def _unflagged_proven(self, cell: Cell, flag: np.ndarray, marks: int) -> bool:
        """Whether the picture `cell` shows once the probe's flag came off is a
        covered cell drawn a shade apart (a clone that draws a cell whose flag
        came off otherwise than a fresh one, in the shade of that cell): a
        picture the skin does not read, which one more right click turns into
        the flag (`flag`: its pixels) and the rest of the cycle brings back. It
        is then named covered, by that proof. A "?" the cycle did not know
        fails it: a right click on it gives no flag."""
        window = self._window()
        image = settled(window.screen, window.region)
        unflagged = self._cell_pixels(image, cell)
        if self._char_at(image, cell) is not None or self._alike(unflagged, flag):
            return False  # a picture the skin reads, or no change at all
        self.on_action(self.actuator.flag(*cell, "learn: is this a covered cell?"))
        shot = self._wait_pixels(cell, unflagged, changed=True)
        if shot is None or not self._alike(self._cell_pixels(shot, cell), flag):
            return False
        self._unmark(cell, marks, "learn: the flag off again")
        back = self._wait_pixels(cell, unflagged, False, UNMARK_TIMEOUT)
        if back is None:
            return False
        look = self._look_of(back, self.cuts(back), *cell)
        self.draft.names[look] = Name(
            COVERED,
            f"game {self.current().number}: cell {cell} once msbot's flag came off it: "
            "a right click flags it again and the cycle brings it back",
        )
        self.save()
        return True

    def _char_at(self, image: Image, cell: Cell) -> str | None:
        """What the skin reads cell `cell` of `image` as (None: a picture it does
        not name)."""
        return self.draft.char_of(self._look_of(image, self.cuts(image), *cell))

    def _cell_pixels(self, image: Image, cell: Cell) -> np.ndarray:
        cuts = self.cuts(image)
        r, c = cell
        return np.asarray(image)[cuts.ys[r] : cuts.ys[r + 1], cuts.xs[c] : cuts.xs[c + 1]]

    def _alike(self, one: np.ndarray, other: np.ndarray) -> bool:
        """Whether two pictures of a cell are the same picture (the book's measure)."""
        if one.shape != other.shape:
            return False
        difference = (one.astype(np.float32) - other.astype(np.float32)) ** 2
        return float(difference.mean()) <= self.book.same

    def _wait_pixels(
        self,
        cell: Cell,
        before: np.ndarray,
        changed: bool,
        timeout: float = PROBE_TIMEOUT,
        covered_too: bool = False,
    ) -> Image | None:
        """The window grab once `cell` looks otherwise than `before` (`changed`) or
        alike again, settled; None after `timeout` seconds. `covered_too`: a
        cell that shows a look named covered counts as alike again (a clone
        that draws a cell whose flag came off a shade apart)."""
        window = self._window()

        def shows(shot: Image) -> bool:
            alike = self._alike(self._cell_pixels(shot, cell), before)
            if not changed and not alike and covered_too:
                alike = self._char_at(shot, cell) == COVERED
            return alike != changed

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if shows(window.screen.grab(window.region)):
                return settled(window.screen, window.region)
            time.sleep(0.005)
        # The board may have moved within its window meanwhile (a label beside
        # it changed width with the count of flags: zoo seed 2090529625's probe
        # flag came off, the board moved back, and the cell was looked for
        # where it no longer was): followed, the cell is looked at again.
        moved = window.follow()
        if moved is not None:
            self.actuator.bind(moved, self.actuator.controls)
            shot = settled(window.screen, window.region)
            if shows(shot):
                return shot
        return None

    def _end(
        self,
        image: Image,
        reading: Reading,
        opened: list[Cell],
        certain: bool,
        why: str,
        before: Board | None = None,
        over: bool = False,
    ) -> Reading | None:
        """The game over, when the board proves how (`proven_outcome`; `over`:
        the probe found the game takes no more clicks); None when it proves
        neither (a slow clone still drawing: the loop goes on)."""
        last = opened[-1] if opened else None
        batch = tuple(opened)
        total = self.current().total
        outcome = proven_outcome(reading, before, last, certain, total, batch, over)
        if outcome is None:
            return None
        # The board's picture must be the clone's last word, not a look on its
        # way (a page's highlight, a cell flashing before it opens): read once
        # more when the window has been still for a moment, and that picture
        # is the end's (the game's end is stated on what it shows).
        window = self._window()
        still = settled(window.screen, window.region, still=END_STILL / 5, timeout=3.0)
        again = window.read_image(still)
        # The cells a window of the clone's covers ("Congratulations" over the
        # won board's middle) are unsure, whatever their pictures read as: a
        # cell half under the dialog's grey once read as a sure covered cell.
        again = self.under_other_windows(again) or again
        again = box_rim_unsure(again)
        second = proven_outcome(again, before, last, certain, total, batch, over)
        agreed = agreed_outcome(outcome, second, reading, again)
        if agreed is None:
            return None  # the loop reads the screen again (and meets the end itself)
        outcome = agreed
        record = self.current()
        record.last_click, record.last_certain = last, certain
        record.last_batch = tuple(opened)
        self.ended = Ended(outcome, still, why)
        # The cells not read stay unsure in what is recorded: the end is known,
        # their pictures are not.
        return replace(again, status=outcome)

    def stalled(self, reading: Reading, opened: list[Cell], certain: bool) -> Reading | None:
        """Clicks show no effect: if the game no longer takes clicks, it is over
        (when the board proves how)."""
        if self._probe(reading, opened):
            return None
        image = self._window().last_image
        assert image is not None
        why = "the clone ignores clicks"
        return self._end(image, reading, opened, certain, why, reading.board, over=True)

    def in_play(self, image: Image, reading: Reading, total: int | None) -> Reading:
        """Keep the board as the game's latest, and name the open pictures whose
        value it proves (on a still picture, so a 0's neighbours are all drawn)."""
        record = self.current()
        if reading is not self._holding:
            record.held.clear()  # every cell read: nothing held any more
        if record.first_image is None:
            record.first_image = image
        last = record.last_image
        if last is not None and last.shape == image.shape:
            moved = cv2.absdiff(np.asarray(last), np.asarray(image)).max(axis=2) > 40
            if record.changes is None:
                record.changes = np.zeros(moved.shape, np.uint16)
            record.changes += moved
        record.last_image, record.last_still, record.total = image, False, total
        if OPEN_UNKNOWN not in "".join(reading.board.rows):
            return reading
        still = self._still(image)
        if still is None:
            return reading
        record.last_still = True
        looks = self.looks(still)
        key = looks.tobytes()
        if key == self._tried:
            return reading
        self._tried = key
        scene = Scene(looks, True, total, f"game {record.number} in play")
        proof = self._prove([scene])
        if not proof:
            return reading
        self.save()
        again: Reading = self._window().read_image(still)
        return again

    def still_board(self) -> Reading:
        """A reading of the window once it has stayed still for a moment (a notice
        of the last game fading over the new board: KMines)."""
        window = self._window()
        settled(window.screen, window.region, still=NEW_GAME_STILL, timeout=NEW_GAME_WAIT)
        return window.grab_reading()[1]

    def _settled_window(self, still: float = STILL, timeout: float = 2.0) -> Image:
        window = self._window()
        return settled(window.screen, window.region, still=still, timeout=timeout)

    def _new_pictures(self, end: np.ndarray) -> bool:
        """Whether the finished board shows pictures the skin does not read."""
        return any(self.draft.char_of(int(k)) is None for k in np.unique(end))

    def _board_still(self, image: Image) -> bool:
        """Whether the board's cells in `image` are still on the screen a moment
        later (STILL seconds; a clock beside the board may tick)."""
        cuts = self.cuts(image)
        box = (slice(int(cuts.ys[0]), int(cuts.ys[-1])), slice(int(cuts.xs[0]), int(cuts.xs[-1])))
        window = self._window()
        time.sleep(STILL)
        now = window.screen.grab(window.region)
        if now.shape != image.shape:
            return False
        return bool(np.array_equal(np.asarray(now)[box], np.asarray(image)[box]))

    def _still(self, image: Image) -> Image | None:
        """The window region once it has stayed as `image` for a moment (None: it changed)."""
        window = self._window()
        deadline = time.monotonic() + STILL
        while time.monotonic() < deadline:
            time.sleep(0.02)
            now = window.screen.grab(window.region)
            if now.shape != image.shape or not np.array_equal(now, image):
                return None
        return image

    def _prove(self, scenes: list[Scene]) -> dict[int, Name]:
        """Try every open look without a value on `scenes`; the names proven (kept)."""
        todo = {
            look: NUMBER_CANDIDATES for look in self.draft.opened if look not in self.draft.names
        }
        if not todo:
            return {}
        proof = prove_values(self.draft.names, todo, scenes, self.draft.opened)
        for look, name in proof.names.items():
            self.draft.names[look] = name
            self.draft.opened.pop(look, None)
            self.say(f"learned: a picture is the {name.char} ({name.evidence[:80]}...)")
        for look, why in proof.contradictions.items():
            self.draft.notes.append(f"look {look}: {why}")
        return proof.names

    def game_over(
        self, outcome: Status, image: Image | None, total: int | None, opened: Sequence[Cell] = ()
    ) -> Status:
        """Learn from the finished board; returns the outcome (the loop's, or the
        apprentice's when it found the end itself). `opened`: the cells msbot
        opened in its last batch, when the screen, not the apprentice, showed
        the end (GNOME Mines at 16x16: without them the red hit mine, drawn in
        a cell of the other size, was proven a mine on a closed cell and named
        a shown mine, `*` for `!`)."""
        record = self.current()
        if record.last_click is None and opened:
            record.last_click, record.last_batch = opened[-1], tuple(opened)
        record.outcome = self.ended.outcome if self.ended is not None else outcome
        end_image = self.ended.image if self.ended is not None else image
        if end_image is None or record.last_image is None:
            return record.outcome
        record.in_play = self.looks(record.last_image)
        shot: Image | None = None  # the finished board's last grab, kept on a stop

        def end_looks(still: float = STILL, timeout: float = 2.0) -> np.ndarray:
            nonlocal shot
            shot = self._settled_window(still, timeout)
            return self.looks(shot)

        # What the clone shows once it is done showing the end (a dialog may come).
        end = end_looks()
        dialog = self.another_window_over_board()
        if (
            record.outcome == "lost"
            and self._unnamed()
            and self._new_pictures(end)
            and dialog is not False
        ):
            # Something to learn from this end: it must be the board itself. A
            # dialog closes with Escape; a notice drawn over the board fades by
            # itself (KMines), so the board is taken once it stayed still long.
            self.on_action(self.escape("close any window over the board"))
            time.sleep(0.2)
            end = self._end_after_escape(end_looks, long=True)
            record.overlay = True
        was_open = ~np.isin(record.in_play, self.closed_looks())
        changed = (record.in_play != end) & was_open
        for _ in range(2):
            if not changed.any() or self.redrawn(record.in_play, end, was_open):
                break
            if dialog is False:
                break  # no window over the board: Escape would go to the game
            # A window over the finished board: closed, the board shows again
            # (the toolkits here give a dialog the focus when they show it).
            self.on_action(self.escape("close the window over the board"))
            record.overlay = True
            time.sleep(0.2)
            # A lost board's closed cells are learned from: taken once still for
            # long, as a notice under the dialog may still be fading there (KMines'
            # "You have lost", once read as 0s, 1s and 2s). A won board at once:
            # KMines' high-score window comes after every win.
            end = self._end_after_escape(end_looks, long=record.outcome == "lost")
            changed = (record.in_play != end) & was_open
        # Some clones draw a notice over the board that fades by itself (KMines):
        # waited out when the end has something to teach (a lost board's mines).
        # A window of its own over the board (a dialog Escape did not close)
        # does not fade: not waited for.
        fades = record.outcome == "lost" and self._unnamed() and changed.any()
        wait = OVERLAY_WAIT if fades and self.another_window_over_board() is not True else 0.0
        deadline = time.monotonic() + wait
        while (
            changed.any()
            and not self.redrawn(record.in_play, end, was_open)
            and time.monotonic() < deadline
        ):
            time.sleep(0.25)
            end = end_looks()
            changed = (record.in_play != end) & was_open
        if changed.any() and not self.redrawn(record.in_play, end, was_open):
            self.draft.notes.append(
                f"game {record.number}: a window stayed over the finished board: "
                "nothing learned from its end"
            )
            self._prove([self._in_play_scene(record)])
            self.save()
            return record.outcome
        record.end, record.total = end, total if total is not None else record.total
        self._learn_end_border()
        names = self.draft.names
        if changed.any():
            # The clone drew the finished board anew (xbomb frames it in green):
            # an open cell keeps its value.
            new, _ = same_cell_names(record.in_play, end, names, f"game {record.number} end")
            for look, name in new.items():
                names[look] = name
        last = record.last_click
        if record.outcome == "lost" and last is not None:
            hit = int(end[last])
            # A picture the end shows on other cells too is no sign of the hit:
            # on more cells than there are mines (ace-minesweeper's board once
            # came back drawn over, every cell alike) it is no mine at all; on
            # other mines, it is how the clone draws every mine, the hit alike
            # (a monochrome clone, its red gone: zoo seed 1465108282 had every
            # shown mine read as the hit).
            shown = int((end == hit).sum())
            few = shown == 1
            if few and self.draft.char_of(hit) is None and not self._under_a_window(last):
                closed = int(np.isin(record.in_play, self.closed_looks()).sum())
                proven = record.total is not None and closed - 1 != record.total
                self.hits[hit] = self.hits.get(hit, 0) + 1
                if proven or self.hits[hit] >= HIT_GAMES:
                    why = (
                        f"closed cells ({closed - 1} besides it) were not the {record.total} mines"
                        if proven
                        else f"the same in {self.hits[hit]} games"
                    )
                    names[hit] = Name(
                        "!",
                        f"game {record.number}: appeared on cell {last}, which msbot opened "
                        f"on a guess, as the game ended lost ({why})",
                    )
        flag_looks = [k for k, n in names.items() if n.char == "F"]
        flagged = np.isin(record.in_play, flag_looks)
        for look in np.unique(end[flagged]).tolist():
            if self.draft.char_of(look) is None:
                names[int(look)] = Name(
                    "*",
                    f"game {record.number}: shown at the end on cells msbot had flagged as "
                    "certain mines",
                )
        shut = ~was_open & ~flagged
        for cell in {*record.last_batch, *([last] if last is not None else [])}:
            shut[cell] = False
        self._name_tint(record, end, shut)
        # One board of the game: open cells as they were in play, the rest as the end shows.
        record.merged = np.where(was_open, record.in_play, end)
        # A closed cell may still be covered at the end: only where the end shows
        # covered cells is a new picture on a closed cell something else (a mine,
        # a number the clone revealed), tried as such.
        covered_seen = bool(np.isin(end[shut], self.covered_looks()).any())
        # ...and only a picture framed like a cell of the board in play: a
        # notice drawn over closed cells ("Game over" over a board barely
        # opened) is cut into pieces that SAT would name mines and numbers.
        assert shot is not None
        unframed = self._unframed(record.last_image, shot, end, shut, was_open)
        if unframed:
            self.draft.notes.append(
                f"game {record.number}: {len(unframed)} picture(s) on closed cells at the end "
                "are framed like no cell in play (a notice over the board?): not named"
            )
        todo = {
            int(look): END_CANDIDATES
            for look in np.unique(end[shut]).tolist()
            if covered_seen and self.draft.char_of(int(look)) is None and look not in unframed
        }
        todo.update({look: NUMBER_CANDIDATES for look in self.draft.opened if look not in names})
        scenes = [scene for g in self.games for scene in self._scenes(g)]
        proof = prove_values(names, todo, scenes, self.draft.opened)
        for look, name in proof.names.items():
            if todo.get(look) == END_CANDIDATES and not self._glyph_alike(look, name.char):
                # A picture a finished board shows on a closed cell, proven a
                # number that no look of that number resembles: a piece of a
                # notice over the board (zoo seed 358129339's "BOOM!" edge, its
                # body the covered tile's grey, proven a 2 and a 1 by two lost
                # boards it covered alike, and read so ever after).
                self.draft.notes.append(
                    f"game {record.number}: a picture on a closed cell at the end fits only "
                    f"a {name.char}, but has no {name.char}'s shape: not named"
                )
                continue
            names[look] = name
            self.draft.opened.pop(look, None)
        for look, why in proof.contradictions.items():
            self.draft.notes.append(f"look {look}: {why}")
        problems = contradictions(scenes, names, self.draft.opened)
        if problems:
            raise self._window().stop(
                "the learned names contradict a board msbot saw: "
                + "; ".join(problems[:3])
                + f" (the skin in {self.folder} is left as it was before this game)",
                shot,
            )
        self.save()
        return record.outcome

    def _glyph_alike(self, look: int, char: str) -> bool:
        """Whether `look`, proven `char`, shows the shape of a look already named
        `char` (`GLYPH_ALIKE`: correlation of the patches less their mean
        colour), or no look is named `char` yet, or `char` is no number."""
        if char not in NUMBER_CANDIDATES:
            return True
        others = [k for k, n in self.draft.names.items() if n.char == char and k != look]
        if not others:
            return True

        def shape(key: int) -> np.ndarray:
            patch = np.asarray(self.book.looks[key].patch, np.float64).reshape(-1, 3)
            flat = (patch - patch.mean(axis=0)).reshape(-1)
            return np.asarray(flat / max(float(np.linalg.norm(flat)), 1e-6))

        mine = shape(look)
        return max(float(mine @ shape(k)) for k in others) >= GLYPH_ALIKE

    def _unframed(
        self,
        in_play: Image,
        finished: Image,
        end: np.ndarray,
        cells: np.ndarray,
        was_open: np.ndarray,
    ) -> set[int]:
        """Looks of `end` on `cells` with a picture whose rim (the cell's outer
        RIM pixels) matches the rim of no cell of the board in play, nor of a
        cell open in play as the finished board shows it (`was_open`: a board
        drawn anew, xbomb's in green): a mine or number a clone reveals is
        drawn on its open or its covered tile; a notice's piece has the
        notice's body or edge there."""
        cuts = self.cuts(finished)
        h = int(np.diff(cuts.ys).min())
        w = int(np.diff(cuts.xs).min())
        rim = np.ones((h, w), bool)
        rim[RIM:-RIM, RIM:-RIM] = False

        def rim_of(image: Image, r: int, c: int) -> np.ndarray:
            patch: np.ndarray = np.asarray(image)[
                int(cuts.ys[r]) : int(cuts.ys[r + 1]), int(cuts.xs[c]) : int(cuts.xs[c + 1])
            ]
            if patch.shape[:2] != (h, w):
                patch = cv2.resize(patch, (w, h), interpolation=cv2.INTER_AREA)
            return np.asarray(patch[rim], np.float32)

        rows, cols = end.shape
        rims = [rim_of(in_play, r, c) for r in range(rows) for c in range(cols)]
        rims += [
            rim_of(finished, int(r), int(c)) for r, c in zip(*np.nonzero(was_open), strict=True)
        ]
        known = np.unique(np.stack(rims), axis=0)
        unframed: set[int] = set()
        for r, c in zip(*np.nonzero(cells), strict=True):
            look = int(end[r, c])
            if look in unframed or self.draft.char_of(look) is not None:
                continue
            step = np.abs(known - rim_of(finished, int(r), int(c))[None]).mean(axis=(1, 2))
            if step.min() > RIM_SAME:
                unframed.add(look)
        return unframed

    def _end_after_escape(self, end_looks: Callable[..., np.ndarray], long: bool) -> np.ndarray:
        """The finished board's looks once Escape was pressed: after the board
        held still for END_STILL when `long` (a notice under the dialog may
        still be fading), unless the desktop says a window is still over the
        board (a dialog Escape did not close: nothing under it will change)."""
        if long and self.another_window_over_board() is not True:
            return end_looks(END_STILL, OVERLAY_WAIT)
        return end_looks()

    def _learn_end_border(self) -> None:
        """The bands around the finished board, kept as another look of its border:
        the board msbot played, at the same place, with no window over it (xbomb
        frames a finished board in green; `msbot play` must find it to restart)."""
        if self.draft.border is None:
            return
        seen = learn_border(np.asarray(self._settled_window()), self._window().located.geometry)
        if seen is not None:
            self.draft.border = self.draft.border.with_variant(seen)

    def redrawn(self, before: np.ndarray, after: np.ndarray, was_open: np.ndarray) -> bool:
        """Whether the finished board is the board drawn anew (nearly every open cell
        changed, one picture for one before) rather than a window over it."""
        changed = (before != after) & was_open
        if changed.sum() < REDRAWN * was_open.sum():
            return False
        pairs = set(zip(before[was_open].tolist(), after[was_open].tolist(), strict=True))
        olds = [a for a, _ in pairs]
        values: dict[int, set[str]] = {}
        for a, b in pairs:
            name = self.draft.names.get(a)
            if name is not None:
                values.setdefault(b, set()).add(name.char)
        one_value = all(len(v) == 1 for v in values.values())
        return len(set(olds)) == len(olds) and one_value

    def _unnamed(self) -> bool:
        """Whether some kind a finished board shows is not named yet."""
        chars = {n.char for n in self.draft.names.values()}
        return bool(self.draft.opened) or not {"!", "*"} <= chars

    def covered_looks(self) -> list[int]:
        """Looks named covered."""
        return [k for k, n in self.draft.names.items() if n.char == "."]

    def _name_tint(self, record: GameRecord, end: np.ndarray, closed: np.ndarray) -> None:
        """A lost game's closed cells all drawn alike at the end, in a picture not seen
        before, when more cells were closed than there are mines: the covered tile
        tinted (sgt-mines flashes its board red), shown on safe cells and mines
        alike, so it is no mine and no number."""
        if record.outcome != "lost" or record.total is None or not closed.any():
            return
        looks = np.unique(end[closed])
        if len(looks) != 1 or self.draft.char_of(int(looks[0])) is not None:
            return
        if int(closed.sum()) < record.total + 2:
            return
        self.draft.names[int(looks[0])] = Name(
            ".",
            f"game {record.number}: shown at the end on every one of the {int(closed.sum())} "
            f"closed cells, more than the {record.total} mines: the covered tile, redrawn",
        )

    def closed_looks(self) -> list[int]:
        """Looks of closed cells: covered (and its variants), flag, question mark."""
        return [
            look.key for look in self.book.looks if self.draft.char_of(look.key) in (".", "F", "?")
        ]

    def _in_play_scene(self, game: GameRecord) -> Scene:
        assert game.in_play is not None
        return Scene(game.in_play, game.last_still, game.total, f"game {game.number} in play")

    def _scenes(self, game: GameRecord) -> list[Scene]:
        """The game as one board: finished (open cells as in play, the rest as the end
        showed them), else its last board in play."""
        if game.merged is not None:
            label = f"game {game.number} finished"
            return [Scene(game.merged, game.last_still, game.total, label)]
        if game.in_play is not None:
            return [self._in_play_scene(game)]
        return []
