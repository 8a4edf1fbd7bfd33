"""Waiting for the screen: polling the board until it shows what the bot expects.

The loop never acts on a stale picture: after a batch of clicks it polls the
window region until every clicked cell shows its click (`Pending`), and only a
reading that passes every check of `bot.play.consistency` is handed back. A clone
draws a cascade over several frames, so a reading caught mid-redraw (a cell
unreadable, a 0 still next to covered cells) is read again rather than
trusted, for a bounded number of frames and seconds; a click with no visible
effect is retried once, then a clone that shows nothing at all (frozen for a
moment on a busy machine) is waited for up to `stall_timeout`; a paused game
is handed to the loop to resume. Ctrl+C and SIGTERM are checked in every wait.
Every way out that is not the expected picture is a `PlayError` with its
cause (`GameWindow.with_cause`) and the frame saved.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from bot.actuator import Action, Actuator
from bot.board import FLAG, NUMBERS, OPEN_UNKNOWN, QUESTION, UNOPENED, Board, Cell
from bot.errors import NotInPlace
from bot.play.consistency import (
    Problem,
    counter_problems,
    flags_show_mines,
    looks_like_new_game,
    missing_effects,
    number_problems,
    transition_problems,
    untrusted_flags,
)
from bot.play.interrupts import StopSignals
from bot.play.learner import Learner
from bot.play.options import PlayOptions
from bot.play.outcome import proven_outcome
from bot.play.planning import Step
from bot.play.skinplay import learned_total
from bot.play.window import GameWindow
from vision.capture import Image
from vision.reading import ENDED, Reading

#: A learner explains unknown cells once they lasted this many frames and seconds
#: (a picture caught mid-redraw is not one to learn).
LEARN_FRAMES = 3
LEARN_SECONDS = 0.05
#: Seconds of a learner's own work taken off an unreadable streak, at most.
LEARNER_GRACE = 6.0


@dataclass
class Pending:
    """Clicks made since the last reading, and what they must show."""

    total: int | None
    opened: list[Cell] = field(default_factory=list)
    flagged: list[Cell] = field(default_factory=list)
    all_flagged: set[Cell] = field(default_factory=set)
    #: Every click of the batch was one the solver called certain.
    certain: bool = True
    #: The picture the batch was planned on, and the batch before (its cells
    #: opened, all certain?), whose effects that picture showed: the game's last
    #: answered clicks when none of this batch's shows (`ended_before`).
    seen: Image | None = None
    previous: tuple[Cell, ...] = ()
    previous_certain: bool = False

    def note(self, step: Step) -> None:
        if step.action == "open":
            self.opened.append(step.cell)
        elif step.action == "chord":
            self.opened.extend(step.opens)
        elif step.action == "flag":
            self.flagged.append(step.cell)
            self.all_flagged.add(step.cell)

    def late(self, board: Board) -> list[Cell]:
        return missing_effects(board, self.opened, self.flagged)

    def ended_before(self, image: Image, reading: Reading, origin: tuple[int, int]) -> bool:
        """Whether the game was over before this batch: not one of its clicks
        shows, and not a pixel of the window changed since the picture it was
        planned on, the clicked cells aside (a look under the pointer). A
        click that ended the game changes something, if only a status line.
        (A zoo page showed "You won!" after msbot's last certain clicks, its
        skin not knowing the words yet; the guess that followed did nothing,
        and a covered guessed cell was taken for the loss.) `origin`: the
        screen point of the pictures' top-left (the reading's geometry is in
        screen pixels). A clicked cell that shows a picture the skin does not
        read answered the click (zoo seed 1040076739's guess showed its hit
        mine, not learned yet, and only that cell changed: the game was taken
        for ended by the certain batch before, and reported won)."""
        clicked = set(self.opened) | set(self.flagged)
        if self.seen is None or not clicked or not clicked <= set(self.late(reading.board)):
            return False
        if clicked & reading.unread:
            return False
        before, now = np.asarray(self.seen), np.asarray(image)
        if before.shape != now.shape:
            return False
        changed = np.any(before != now, axis=-1) if now.ndim == 3 else before != now
        geo = reading.geometry.shifted(-origin[0], -origin[1])
        for row, col in clicked:
            x, y = geo.left + col * geo.cell_w, geo.top + row * geo.cell_h
            changed[
                max(0, int(y) - 1) : int(y + geo.cell_h) + 2,
                max(0, int(x) - 1) : int(x + geo.cell_w) + 2,
            ] = False
        return not changed.any()


@dataclass
class Streak:
    """Consecutive bad frames (unreadable, inconsistent) and when the first came.

    A clone stalled half way through a redraw shows the same half-drawn
    picture in frame after frame, and an unchanged picture costs nothing to
    "read" again (`GameWindow.grab_reading`), so a frame count alone runs out
    in a few milliseconds. Giving up takes both many frames and some seconds.
    """

    frames: int = 0
    since: float = 0.0
    #: Seconds of the streak taken off its length (`discount`).
    discounted: float = 0.0

    def bump(self, now: float) -> None:
        if self.frames == 0:
            self.since, self.discounted = now, 0.0
        self.frames += 1

    def discount(self, seconds: float, most: float) -> None:
        """Take `seconds` off the streak's length, `most` in all: time msbot
        spent on its own work (a learner's probe clicks) is no time the clone
        was waited for."""
        taken = max(0.0, min(seconds, most - self.discounted))
        self.since += taken
        self.discounted += taken

    def clear(self) -> None:
        self.frames = 0

    def over(self, frames: int, seconds: float, now: float) -> bool:
        return self.frames >= frames and now - self.since >= seconds


class Waiter:
    """Polls one `GameWindow` for the readings the play loop may act on.

    `on_pause(reading, image)` resumes a paused game (or raises); `on_retry`
    is told of each click made again, so the loop counts and records it.
    """

    def __init__(
        self,
        window: GameWindow,
        actuator: Actuator,
        options: PlayOptions,
        signals: StopSignals,
        on_pause: Callable[[Reading, Image], None],
        on_retry: Callable[[Action], None],
        clock: Callable[[], float] = time.monotonic,
        learner: Learner | None = None,
    ) -> None:
        self.window = window
        self.actuator = actuator
        self.options = options
        self.signals = signals
        self.on_pause = on_pause
        self.on_retry = on_retry
        self.clock = clock
        #: Asked about what a learned skin cannot read yet (`bot.play.learner`).
        self.learner = learner if learner is not None else Learner()

    def next_reading(self, pending: Pending, prev: Reading | None) -> tuple[Image, Reading]:
        """Poll until a trustworthy reading shows every pending click (or stop)."""
        window, options = self.window, self.options
        unreadable = Streak()
        #: Readings that contradict the last one or the clicks: a frame caught
        #: mid-redraw, unless it lasts.
        contradicted = Streak()
        #: The picture of the first contradicting reading of the streak.
        first_bad: Image | None = None
        refitted = False
        bad: list[Problem] = []
        deadline = self.clock() + options.effect_timeout
        retried = asked = False
        #: After the retry: when a clone that still shows nothing is given up on.
        stalled_at = 0.0
        #: The board's pixels last seen and since when (`_board_still`).
        still: list[Any] = []
        while True:
            self.signals.check()
            image, reading = window.grab_reading()
            if reading.status == "paused":
                self.on_pause(reading, image)
                deadline = self.clock() + options.effect_timeout
                continue
            if reading.status in ENDED:
                # The game is over: nothing will be done on this reading. Wait a
                # moment for a clean one (sgt-mines flashes the board on a win),
                # but a clone may also cover the board for good (GNOME Mines).
                # A learned skin's board must also hold still (`_board_still`):
                # its last cells may still be fading in (KMines' won board once
                # read an opening 1 as a sure 0 beside its mine).
                reading = won_against_rules_unsure(reading)
                settled = reading.certain and self._board_still(image, still)
                if settled or self.clock() > deadline:
                    return image, self._finished(reading)
                time.sleep(0.01)
                continue
            if not reading.certain:
                unreadable.bump(self.clock())
                better = self.learned(image, reading, pending, prev, unreadable)
                if better is not None and better.status in ENDED:
                    return self._ended(image), self._finished(better)
                if better is not None:
                    reading = better
            if not reading.certain:
                if unreadable.over(options.unreadable_frames, options.effect_timeout, self.clock()):
                    won = proven_won(reading, prev, pending)
                    if won is not None:
                        return image, self._finished(won)
                    if not refitted:
                        refitted = True
                        if self.refit():
                            unreadable.clear()
                            continue
                    cells = ", ".join(f"({u.row}, {u.col})" for u in reading.unknown[:5])
                    raise window.stop(
                        window.with_cause(
                            f"cells unreadable for {unreadable.frames} consecutive frames "
                            f"({self.clock() - unreadable.since:.1f} s): {cells}"
                        ),
                        image,
                    )
                time.sleep(0.003)
                continue
            unreadable.clear()
            bad = self.problems(prev, reading, pending)
            if bad:
                # A window over the board (a high-score window over a won game):
                # its pictures are no cells; they are read as unsure, and the
                # learner says what the board around them shows.
                covered = self.learner.under_other_windows(reading)
                if covered is not None:
                    unreadable.bump(self.clock())
                    better = self.learned(image, covered, pending, prev, unreadable, now=True)
                    if better is not None and better.status in ENDED:
                        return self._ended(image), self._finished(better)
                # A notice the clone draws over its own board ("Congratulations"
                # over the middle cells) may read there as covered cells: open
                # cells never change, so those pictures are no cells. Unsure,
                # they may still leave the win proven by the board.
                won = proven_won(reopened_unsure(reading, prev), prev, pending)
                if won is not None:
                    return image, self._finished(won)
            if (
                bad
                and not asked
                and prev is not None
                and (
                    flags_show_mines(prev.board, reading.board, pending.all_flagged)
                    or reading.board.count("*!X") > 0
                )
            ):
                # A learned skin that does not know this clone's end yet: its
                # mines shown where msbot flagged, or shown mines named from an
                # earlier end while the hit mine, face or message that says
                # "lost" is not named (the status reads "playing"). The
                # learner's probe says (once) whether the game is over, and
                # how it ended; a misread '*' in a game that goes on still
                # stops as a contradiction.
                asked = True
                over = self.learner.stalled(reading, pending.opened, pending.certain)
                if over is not None:
                    return self._ended(image), self._finished(over)
            late = [] if reading.status != "playing" else pending.late(reading.board)
            if not bad and not late:
                if self._board_still(image, still):
                    return image, reading
                if self.clock() > deadline + options.stall_timeout:
                    raise window.stop(
                        window.with_cause(
                            f"the board's picture never held still for {STILL_S * 1000:.0f} ms "
                            "(an animation that does not end?)"
                        ),
                        image,
                    )
                time.sleep(0.005)
                continue
            if (
                bad
                and (self.options.watch or not self.options.dry_run)
                and prev is not None
                and looks_like_new_game(prev.board, reading.board, reading.unread)
            ):
                # The person started another game (see watch_game; playing,
                # `Player.play_game` leaves this one and plays that).
                return image, reading
            now = self.clock()
            if bad:
                if not contradicted.frames:
                    first_bad = image
                contradicted.bump(now)
                # The same picture all along: a clone stalled half way through a
                # redraw (a busy machine: the flags drawn, the counter not yet),
                # given the time a stalled click gets; a picture that changes
                # and still contradicts is a misread or a real fault.
                frozen = first_bad is not None and np.array_equal(image, first_bad)
            else:
                contradicted.clear()
                first_bad, frozen = None, False
            patience = options.effect_timeout + (options.stall_timeout if frozen else 0.0)
            if contradicted.over(1, patience, now):
                text = "; ".join(str(p) for p in bad[:4])
                raise window.stop(
                    window.with_cause(f"the reading contradicts itself or the last one: {text}"),
                    image,
                )
            if not bad and now > deadline:
                cells = ", ".join(str(c) for c in late[:5])
                if options.dry_run:
                    raise window.stop(f"clicks had no visible effect: {cells}", image)
                if not retried:
                    retried = True
                    self.retry(pending, reading.board)
                    stalled_at = self.clock() + options.stall_timeout
                elif not asked:
                    # Once: does the game still take clicks at all (a learner's probe)?
                    asked = True
                    region = window.region
                    origin = (region.left, region.top) if region is not None else (0, 0)
                    if pending.ended_before(image, reading, origin):
                        over = self.learner.stalled(
                            reading, list(pending.previous), pending.previous_certain
                        )
                    else:
                        over = self.learner.stalled(reading, pending.opened, pending.certain)
                    if over is not None:
                        return self._ended(image), self._finished(over)
                elif now > stalled_at:
                    waited = options.effect_timeout + options.stall_timeout
                    raise window.stop(
                        window.with_cause(
                            f"clicks had no visible effect after a retry and {waited:.0f} s "
                            f"(the game froze or ignores clicks?): {cells}"
                        ),
                        image,
                    )
            time.sleep(0.001 if not retried else 0.01)

    def _finished(self, reading: Reading) -> Reading:
        """A finished game's reading as it is recorded, however the end was found
        (the skin's face, the board, the learner's probe): the cells another
        window lies over unsure, since what shows through a window is no cell,
        whatever a skin reads there (a zoo clone's "Play again" button read as
        the hit mine; seed 1502643724's plain grey "You won!" dialog read over a
        flag as a sure covered cell, the win found by the learner), and a won
        board's numbers that break its rules (`won_against_rules_unsure`)."""
        return won_against_rules_unsure(self.learner.under_other_windows(reading) or reading)

    def _ended(self, image: Image) -> Image:
        """The picture a learner's end of game was proven on (else `image`)."""
        shown = self.learner.end_image()
        return shown if shown is not None else image

    def _board_still(self, image: Image, still: list[Any]) -> bool:
        """Whether a learned skin's board has shown the same pixels for STILL_S
        (`still` keeps [pixels, since] between calls); True at once for a
        built-in skin. A learned skin knows each look only as seen at rest: a
        picture caught half way through an animation (a fade from covered to a
        2) may lie nearer to another look (an open 0) than to any other, and
        would be read as that for sure. Animations step every few tens of ms:
        two grabs a few ms apart may agree mid-fade, so the pixels must hold."""
        located = self.window.located
        if located is None or "names" not in (located.skin.manifest.get("learned") or {}):
            return True
        geo = located.geometry
        x0, y0 = max(0, int(geo.left)), max(0, int(geo.top))
        x1, y1 = int(geo.left + geo.width) + 1, int(geo.top + geo.height) + 1
        board = np.asarray(image)[y0:y1, x0:x1]
        now = self.clock()
        if not still or not np.array_equal(still[0], board):
            still[:] = [board.copy(), now]
            return False
        return bool(now - still[1] >= STILL_S)

    def learned(
        self,
        image: Image,
        reading: Reading,
        pending: Pending,
        prev: Reading | None,
        unreadable: Streak,
        now: bool = False,
    ) -> Reading | None:
        """What the learner makes of unknown cells that lasted (None: no learner, too
        soon, or nothing it can explain); `now`: at once."""
        if reading.status != "playing":
            return None
        soon = unreadable.frames < LEARN_FRAMES or self.clock() - unreadable.since < LEARN_SECONDS
        if soon and not now:
            return None
        began = self.clock()
        better = self.learner.explain(
            image, reading, pending.opened, pending.certain, prev, pending.total, pending.flagged
        )
        # A game the learner found over keeps its unread cells unsure: the end
        # is known, their pictures are not.
        if better is not None and (better.certain or better.status in ENDED):
            unreadable.clear()
            return better
        # The learner's own clicks and waits (a probe whether the game goes on)
        # are no time the clone was given: zoo seed 1180790477's last cells
        # were still flashing after a probe of 2 s, and the streak was over
        # before the learner saw them still.
        unreadable.discount(self.clock() - began, LEARNER_GRACE)
        return None

    def refit(self) -> bool:
        """A fresh grid fit of the same board (see `GameWindow.refit`); clicks
        follow it."""
        new = self.window.refit()
        if new is None:
            return False
        self.actuator.bind(new, self.actuator.controls)
        return True

    def problems(self, prev: Reading | None, reading: Reading, pending: Pending) -> list[Problem]:
        """Why `reading` cannot be trusted, given the last one and the clicks since."""
        lost = reading.status == "lost"
        # Flags the bot did not place may be wrong: a number with one too many
        # around it is a person's mistake, not a misread (see `untrusted_flags`).
        untrusted = untrusted_flags(reading.board, pending.all_flagged)
        found = [] if lost else number_problems(reading.board, untrusted)
        if prev is not None:
            found += transition_problems(
                prev.board,
                reading.board,
                lost=lost,
                flagged_by_bot=None if self.options.dry_run else pending.all_flagged,
                flags_may_vanish=self.options.dry_run,
            )
        if reading.status == "playing":
            counter = counter_problems(
                reading.board, reading.mines_left, pending.total, len(reading.unknown)
            )
            if counter and self.counter_misread(reading.board, pending):
                self.window.say_once(
                    "the counter reads otherwise than the total less msbot's own flags: "
                    "its readings are not used (a digit drawn where it was never learned?)"
                )
                counter = []
            found += counter
        return found

    def counter_misread(self, board: Board, pending: Pending) -> bool:
        """Whether a counter that disagrees with the board is itself misread: the
        total is the one a learned counter was learned showing, and every flag on
        the board is one msbot placed, so the count of mines left is known without
        it. (The web clone at 16x16 read "19 mines left" as 9, a "1" drawn at a
        place never learned, and learning stopped on the contradiction.)"""
        total = learned_total(self.window.located)
        flags = {cell for cell in board.cells() if board[cell] == FLAG}
        return total is not None and pending.total == total and flags == pending.all_flagged

    def retry(self, pending: Pending, board: Board) -> None:
        """Click again the cells that did not react (a lost click, not a double flag)."""
        for cell in pending.opened:
            if board[cell] in UNOPENED:
                unmark = board[cell] == QUESTION
                try:
                    action = self.actuator.open(*cell, "retry: no effect", unmark=unmark)
                except NotInPlace:
                    return  # read the screen again first
                self.on_retry(action)

    def wait_for_end(self, pending: Pending, reading: Reading, timeout: float = 1.0) -> bool:
        """Poll until the status leaves "playing"; False if it never does."""
        deadline = self.clock() + timeout
        while self.clock() < deadline:
            _, now = self.next_reading(pending, reading)
            if now.status != "playing":
                return True
            time.sleep(0.01)
        return False

    def wait_change(self, prev: Reading, pending: Pending) -> tuple[Image, Reading]:
        """Watching a person: the next reading that differs from `prev`."""
        deadline = self.clock() + self.options.watch_timeout
        while True:
            image, reading = self.next_reading(pending, prev)
            if reading.board != prev.board or reading.status != prev.status:
                return image, reading
            if self.clock() > deadline:
                raise self.window.stop("nobody played for too long", image)
            time.sleep(0.05)

    def wait_new_game(
        self, final: Reading, what: str, timeout: float, last_try: bool, unreadable: float = 0.0
    ) -> Reading | None:
        """The first reading of a new game; None after `timeout` (an error if `last_try`).

        `unreadable`: the share of cells that may read unsure (a skin still being
        learned, with a notice fading over its new board: KMines)."""
        # A finished board hidden by a window (GNOME Mines' scores) was read as
        # all covered: then any fresh board is the new game.
        hidden = final.board == Board.covered(final.geometry.rows, final.geometry.cols)
        deadline = self.clock() + timeout
        while True:
            self.signals.check()  # a watcher may wait here for minutes
            image, reading = self.window.grab_reading()
            g = reading.geometry
            readable = len(reading.unknown) <= unreadable * g.rows * g.cols
            # The same board: its border closes it where it was (a board of
            # another size at the same place is no new game of this one).
            readable = readable and self.window.closed(image) and reading.edges_read()
            if readable and (
                (reading.status == "playing" and (hidden or reading.board != final.board))
                # Watching: the person's next game may be over before it is seen.
                or (
                    self.options.dry_run
                    and looks_like_new_game(final.board, reading.board, reading.unread)
                )
            ):
                return reading
            if not readable:
                moved = self.window.follow()
                if moved is not None:
                    # The new game's board a few pixels aside (a window that
                    # grew with it and shrinks back once a label settles: zoo
                    # seed 1300258009's new games went unseen, and the restart
                    # was pressed again into its menu): read where it is now.
                    self.actuator.bind(moved, self.actuator.controls)
                    continue
            if self.clock() > deadline:
                if not last_try:
                    return None
                raise self.window.stop(
                    self.window.with_cause(f"no new game appeared after restarting ({what})"),
                    image,
                )
            time.sleep(0.005)

    def still_there(
        self,
        timeout: float,
        unreadable: float = 0.1,
        framed: bool = False,
        own_dialog: Callable[[], bool] | None = None,
        controls: Sequence[str] | None = None,
    ) -> Reading:
        """A trustworthy reading of the board where it was, before a click on one
        of its controls (the restart face or button).

        A control's point comes from an earlier picture: a window closed or
        covered since then would take the click elsewhere on the desktop. A
        clone flashing its board (sgt-mines on a win) gets `timeout` seconds.
        A few unreadable cells (at most `unreadable` of them, one in ten) do not
        matter here: the reading found the board in place, and a finished board
        may show a kind a learned skin never saw (sgt-mines' red-tinted cells of
        a lost game), or a notice over it (KMines' "You have won!"). With
        `framed` (a skin still being learned), a board its learned border still
        closes on every side is there too, however few of its pictures the skin
        reads yet (a clone that opened most of its board by itself). With
        `own_dialog`, a board under a window the desktop says is the clone's own
        (its "You won" dialog, whose button the restart clicks) is there too.
        With `controls` (those the restart clicks first; none when it presses
        a key first), a board the desktop says its own window still lies all
        over is there too, whatever the clone draws over it (a page's "BOOM!"
        notice over a small board: zoo seed 916127077 stopped there; a
        "Congratulations" box over half of 1477126833's), once the reading
        found those controls: a restart that presses keys clicks nowhere, and
        one that clicks does so where the control is seen now, never blind
        where the board was.
        """
        deadline = self.clock() + timeout
        while True:
            self.signals.check()
            image, reading = self.window.grab_reading()
            g = reading.geometry
            if len(reading.unknown) <= unreadable * g.rows * g.cols:
                return reading
            if framed and self.window.framed(image):
                return reading
            if own_dialog is not None and own_dialog():
                return reading
            if (
                controls is not None
                and all(name in reading.controls for name in controls)
                and self.window.desktop is not None
                and self.window.desktop()[0] == "own"
            ):
                return reading
            moved = self.window.follow()
            if moved is not None:
                # The board moved a little within its window (a label beside it
                # changed its width): read where it is now.
                self.actuator.bind(moved, self.actuator.controls)
                continue
            if self.clock() > deadline:
                raise self.window.stop(
                    self.window.with_cause("the board can no longer be read to restart the game"),
                    image,
                )
            time.sleep(0.01)

    def find_control(
        self, name: str, final: Reading, patience: float | None = None
    ) -> Mapping[str, tuple[int, int]]:
        """The controls of the screen as it is now, once `name` is among them
        (or after `patience` seconds, default the restart timeout)."""
        if name in final.controls:
            return final.controls
        wait = self.options.restart_timeout if patience is None else patience
        deadline = self.clock() + wait
        while True:
            self.signals.check()
            _, reading = self.window.grab_reading()
            if name in reading.controls or self.clock() > deadline:
                return reading.controls
            time.sleep(0.02)


#: Seconds a learned skin's board must hold still before a reading counts.
STILL_S = 0.08


def mine_total(reading: Reading) -> int | None:
    """The game's mine total: what the counter shows plus the flags on the board
    (None when the skin has no readable counter)."""
    if reading.mines_left is None:
        return None
    return reading.mines_left + reading.board.count(FLAG)


def reopened_unsure(reading: Reading, prev: Reading | None) -> Reading:
    """`reading` with the cells that showed a number in `prev` and now read
    otherwise unsure (no game changes an open cell: what reads there is
    something drawn over it). Zoo seed 964402249's "Congratulations" box read
    as five covered cells on a won 30x16 board, and play stopped on the
    contradiction."""
    if prev is None or prev.board.height != reading.board.height:
        return reading
    if prev.board.width != reading.board.width:
        return reading
    drawn_over = (
        (r, c)
        for r, c in reading.board.cells()
        if prev.board[r, c] in NUMBERS
        and reading.board[r, c] not in (prev.board[r, c], OPEN_UNKNOWN)
    )
    return reading.with_unsure(drawn_over, "drawn over")


def won_against_rules_unsure(reading: Reading) -> Reading:
    """A won `reading` with the numbers its flags or covered cells contradict
    unsure. Every safe cell of a won game is open, so every flag and covered
    cell left lies on a mine, whoever flagged it: a number they contradict is a
    picture caught changing (zoo seed 416153455: a cell still flashing after
    the last click read as a sure 0 beside its flagged mine)."""
    if reading.status != "won":
        return reading
    broken = (p.cell for p in number_problems(reading.board) if p.cell is not None)
    return reading.with_unsure(broken, "against the rules of a won board")


def proven_won(reading: Reading, prev: Reading | None, pending: Pending) -> Reading | None:
    """`reading` as won, when cells it cannot read hide a win the board proves
    (`bot.play.outcome`: a notice drawn over the cells the last certain clicks
    opened, KMines' "You have won!" under load); None otherwise. Only a win:
    a loss under a notice is not proven by the board (the hit cell is hidden)."""
    if prev is None or not pending.opened:
        return None
    batch = tuple(pending.opened)
    outcome = proven_outcome(reading, prev.board, batch[-1], pending.certain, pending.total, batch)
    return replace(reading, status="won") if outcome == "won" else None
