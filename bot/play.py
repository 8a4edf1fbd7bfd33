"""The closed loop that plays a real Minesweeper window hands-free.

    capture -> read -> check -> solve -> act -> wait for the effect -> repeat

* capture: the whole screen (or `--region`) until the board is located, then
  only the window's region around it (a fraction of a millisecond per grab);
* read: `vision.reader.BoardReader` turns the picture into a `Reading`;
* check: `bot.consistency` against the reading itself, the previous reading
  and what the bot clicked; nothing is ever done on a reading with unknown
  cells or impossible numbers;
* solve: `bot.solver.analyse` with the mine total from the counter plus the
  flags on the board;
* act: every certain-safe cell of the reading at once (they cannot interfere:
  opening a safe cell never makes another safe cell unsafe), certain mines
  flagged unless `--no-flags`, otherwise the solver's single best guess;
* wait: poll the region until every clicked cell shows the click (with a
  timeout and one retry), so the next reading is never a stale one.

Clone quirks come from the skin's `play` section (first-click rule, chord
button, how to restart, whether a win needs every mine flagged, what to do
when the game pauses), never from special cases here.

Safety: clicks go through `bot.actuator.Actuator`, which refuses anything
outside the located board or a declared control; the loop stops with a
`PlayError` naming the reason, and saves the frame, when the board cannot be
found, moves or disappears, stays unreadable, contradicts itself, or ignores a
click. A loss on a move the solver called certain is reported as a bug.
"""

from __future__ import annotations

import signal
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np

from bot.actuator import Actuator
from bot.board import FLAG, UNOPENED, Board, Cell
from bot.consistency import (
    Problem,
    counter_problems,
    looks_like_new_game,
    missing_effects,
    number_problems,
    transition_problems,
)
from bot.errors import InconsistentBoardError, MsbotError, PlayError, VisionError
from bot.recorder import Recorder, write_atomic
from bot.skinplay import PlayRules, located_geometry, play_rules
from bot.solver import Analysis, analyse
from vision.capture import Image, Region, Screen
from vision.reading import Reading

#: "restarted": watching a person (dry run with --games), a new game began
#: before this one was seen to end.
Outcome = Literal["won", "lost", "stopped", "restarted"]


class Interrupted(PlayError):
    """Ctrl+C, honoured between two actions."""


@dataclass(frozen=True)
class PlayOptions:
    """What `msbot play` was asked to do (see `bot.commands.play`)."""

    games: int = 1
    dry_run: bool = False
    flags: bool = True
    chord: bool = False
    #: Seconds to wait between two clicks (`--delay MS`), for people watching.
    delay: float = 0.0
    max_actions: int | None = None
    region: Region | None = None
    #: Seconds a click gets to show on screen before it is retried once.
    effect_timeout: float = 1.5
    #: Consecutive frames a cell may stay unreadable (mid-redraw) before stopping.
    unreadable_frames: int = 8
    #: Seconds to wait for a new game after restarting.
    restart_timeout: float = 5.0
    #: Dry run with --games: keep advising, position after position, while a
    #: person plays (without it a dry run advises on the current position once).
    watch: bool = False
    #: Dry run with --games: seconds to wait for a person's next move.
    watch_timeout: float = 600.0


@dataclass
class GameResult:
    """One game, as the per-game line and the summary report it."""

    game: int
    outcome: Outcome
    seconds: float = 0.0
    clicks: int = 0
    guesses: int = 0
    rows: int = 0
    cols: int = 0
    mines: int | None = None
    #: A loss on a move the solver called certain: a bug, reported loudly.
    certain_loss: bool = False
    message: str = ""
    #: Dry run: `clicks` and `guesses` were advised to a person, not made.
    advised: bool = False
    #: The game was cut short by an error (its message is printed once, on stderr).
    error: bool = False
    #: Dry run: the advice, position by position ({"position": n, "actions": [...]}).
    positions: list[dict[str, Any]] = field(default_factory=list)

    def line(self) -> str:
        size = f"{self.cols}x{self.rows}/{self.mines}" if self.rows else "?"
        what = "actions advised" if self.advised else "clicks"
        text = (
            f"game {self.game}: {self.outcome.upper()} {size} in {self.seconds:.2f} s, "
            f"{self.clicks} {what}, {self.guesses} guesses"
        )
        if self.message and not self.error:
            text += f" ({self.message})"
        return text

    def to_json(self) -> dict[str, Any]:
        """The game as one JSON object; a dry run made no click: its actions are
        `advised_actions` and, in full, `positions` (cell, screen x/y, why)."""
        data: dict[str, Any] = {
            "game": self.game,
            "outcome": self.outcome,
            "seconds": round(self.seconds, 3),
            "clicks": 0 if self.advised else self.clicks,
            "guesses": self.guesses,
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "certain_loss": self.certain_loss,
            "message": self.message,
            "advised": self.advised,
        }
        if self.advised:
            data["advised_actions"] = self.clicks
            data["positions"] = self.positions
        return data


@dataclass
class Session:
    """All games of one run and their totals."""

    games: list[GameResult] = field(default_factory=list)
    skin: str = ""
    stopped: str = ""
    interrupted: bool = False

    def summary(self) -> dict[str, Any]:
        played = [g for g in self.games if g.outcome in ("won", "lost")]
        wins = [g for g in played if g.outcome == "won"]
        return {
            "skin": self.skin,
            "games": len(played),
            "wins": len(wins),
            "win_rate": round(len(wins) / len(played), 4) if played else 0.0,
            "mean_seconds": round(sum(g.seconds for g in played) / len(played), 3)
            if played
            else 0.0,
            "mean_win_seconds": round(sum(g.seconds for g in wins) / len(wins), 3)
            if wins
            else None,
            "clicks": sum(g.clicks for g in self.games if not g.advised),
            "advised_actions": sum(g.clicks for g in self.games if g.advised),
            "guesses": sum(g.guesses for g in self.games),
            "certain_losses": sum(g.certain_loss for g in self.games),
            "stopped": self.stopped,
        }

    def summary_line(self) -> str:
        """The totals; a stop by an error is not repeated here (the command line
        prints it once, on stderr), a Ctrl+C is."""
        s = self.summary()
        if s["games"]:
            text = (
                f"{s['wins']}/{s['games']} won ({100 * s['win_rate']:.0f} %), "
                f"mean {s['mean_seconds']:.2f} s per game, "
            )
        else:
            text = "no game finished, "
        if s["advised_actions"]:
            text += f"{s['advised_actions']} actions advised (the mouse was not touched), "
        else:
            text += f"{s['clicks']} clicks, "
        text += f"{s['guesses']} guesses"
        if s["certain_losses"]:
            text += f", {s['certain_losses']} LOSSES ON CERTAIN MOVES (bug)"
        if self.stopped and self.interrupted:
            text += f"; stopped: {self.stopped}"
        return text


@dataclass(frozen=True)
class Step:
    """One planned action: a cell, what to do there, and why."""

    action: Literal["open", "flag", "chord"]
    cell: Cell
    why: str
    certain: bool
    #: Cells this step must open on screen (a chord opens the number's neighbours).
    opens: tuple[Cell, ...] = ()


class Player:
    """Plays (or, dry run, advises on) games on one screen with one reader."""

    def __init__(
        self,
        screen: Screen,
        reader: Any,
        actuator: Actuator,
        options: PlayOptions,
        recorder: Recorder | None = None,
        say: Callable[[str], None] = print,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.screen = screen
        self.reader = reader
        self.actuator = actuator
        self.options = options
        self.recorder = recorder or Recorder(None)
        self.say = say
        self.clock = clock
        self.actions = 0
        self.located: Any = None
        self.rules: PlayRules | None = None
        #: The region grabbed once the board is located (screen coordinates).
        self.window: Region | None = None
        self.frame_name: str | None = None
        self.last_image: Image | None = None
        self.last_reading: Reading | None = None
        self.game = 0
        self.last_analysis: Analysis | None = None
        self.positions = 0
        self.interrupted = False
        self._memo: tuple[Image, Reading] | None = None
        #: Consecutive readings no mine placement fits.
        self.inconsistent = 0
        self.last_click = 0.0
        #: Dry run: write each advised position, annotated, into this folder.
        self.annotate_dir: str | None = None
        #: The game being played and when its first action was made: what a
        #: stop by an error still reports (clicks, guesses, size, time).
        self.current: GameResult | None = None
        self.started: float | None = None

    # ----------------------------------------------------------------- capture

    def locate(self, uncovered: bool = False) -> Reading:
        """Find the board on the screen (or `--region`) and remember where it is.

        A board a known clone hides (paused, or a window over it) is uncovered
        once the way its skin says (click Resume; the keys of its restart),
        unless this is a dry run; otherwise the error names what hides it.
        """
        base = self.options.region
        image = self.screen.grab(base)
        self.last_image = image
        try:
            located = self.reader.locate(image)
        except VisionError as exc:
            hidden = hidden_board(image, self.reader)
            if (
                hidden is not None
                and not uncovered
                and not self.options.dry_run
                and self.uncover(hidden, base)
            ):
                return self.locate(uncovered=True)
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
        self.rules = play_rules(located)
        self.actuator.chord_style = self.rules.chord
        offset = (base.left, base.top) if base is not None else (0, 0)
        width, height = self.screen.size
        self.window = window_region(located, offset, (width, height))
        # From now on only the window region is grabbed: move the grid into it.
        dx, dy = self.window.left - offset[0], self.window.top - offset[1]
        self.located = replace(located, geometry=located.geometry.shifted(-dx, -dy))
        image = self.screen.grab(self.window)
        reading = self.read_image(image)
        self.say_once(f"board: {reading.skin}, {reading.geometry.cols}x{reading.geometry.rows}")
        return reading

    def uncover(self, hidden: HiddenBoard, base: Region | None) -> bool:
        """Do what the skin says to show a hidden board again; False if it says nothing."""
        dx, dy = (base.left, base.top) if base is not None else (0, 0)
        done = []
        if hidden.resume is not None:
            x, y = hidden.resume
            # The one control on screen: a click anywhere else is still refused.
            self.actuator.controls = {"resume": (x + dx, y + dy)}
            done.append(self.actuator.click_control("resume", "resume the paused game"))
        for key in hidden.keys:
            done.append(self.actuator.press_key(key, "close the window over the board"))
        for action in done:
            self.actions += 1
            self.recorder.action(action.to_json(), game=0, frame=None)
        if done:
            time.sleep(0.5)  # the clone redraws its board
        return bool(done)

    def read_image(self, image: Image) -> Reading:
        """Read a window-region picture; geometry and controls in screen pixels."""
        assert self.window is not None
        try:
            reading = self.reader.read(image, self.located)
        except VisionError as exc:
            raise self.stop(
                self.with_cause(f"the board cannot be read any more: {exc}"), image
            ) from None
        return to_screen(reading, self.window.left, self.window.top)

    def grab_reading(self) -> tuple[Image, Reading]:
        """Grab the window region and read it.

        While the loop waits for a click to show, most grabs are identical to
        the previous one: comparing pixels (~0.1 ms) is much cheaper than
        reading them again, so an unchanged picture reuses its reading.
        """
        assert self.window is not None
        image = self.screen.grab(self.window)
        self.last_image = image
        memo = self._memo
        if memo is not None and memo[0].shape == image.shape and np.array_equal(memo[0], image):
            return image, memo[1]
        reading = self.read_image(image)
        self.check_position(reading, image)
        self._memo = (image, reading)
        return image, reading

    def refit(self) -> bool:
        """Fit the grid again where the board is now; False if it moved or is gone.

        A grid fitted on an all-covered board of a scaling clone (GNOME Mines)
        can be a pixel or two off for some columns: nothing on such a board
        tells the columns apart. Once cells are open the fit is sharper, so
        cells that stay unreadable get one fresh fit before the bot gives up.
        Only a fit of the same board (same size, within a quarter of a cell)
        is taken: anything else is a board that moved, and the caller stops.
        """
        old, window = self.actuator.geometry, self.window
        if old is None or window is None:
            return False
        base = self.options.region
        try:
            located = self.reader.locate(self.screen.grab(base))
        except VisionError:
            return False
        offset = (base.left, base.top) if base is not None else (0, 0)
        new = located.geometry.shifted(*offset)
        if (
            (new.rows, new.cols) != (old.rows, old.cols)
            or abs(new.left - old.left) > old.cell_w / 4
            or abs(new.top - old.top) > old.cell_h / 4
        ):
            return False
        # Into window-region coordinates, as `locate` keeps it.
        dx, dy = window.left - offset[0], window.top - offset[1]
        self.located = replace(located, geometry=located.geometry.shifted(-dx, -dy))
        self.actuator.bind(new, self.actuator.controls)
        self._memo = None
        self.say_once("grid fitted again on the opened board")
        return True

    def diagnose(self) -> str:
        """Why the board stopped reading: moved, gone, or ("") still where it was."""
        base = self.options.region
        full = self.screen.grab(base)
        self.last_image = full
        try:
            located = self.reader.locate(full)
        except VisionError as exc:
            text = str(exc)
            why = "" if "no Minesweeper board found" in text else f" ({text})"
            return (
                "the board vanished from the screen (its window was closed, minimised or "
                f"covered?){why}"
            )
        offset = (base.left, base.top) if base is not None else (0, 0)
        g = located.geometry.shifted(*offset)
        h = self.actuator.geometry
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
        g, h = reading.geometry, self.actuator.geometry
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

    # ------------------------------------------------------------------ errors

    def stop(self, message: str, image: Image | None = None) -> PlayError:
        """A PlayError with the frame saved where the message says."""
        image = image if image is not None else self.last_image
        if image is not None:
            if self.recorder.enabled:
                name = self.recorder.frame(image, None, game=0, region=self.window, note=message)
                assert self.recorder.folder is not None
                message += f" (frame saved: {self.recorder.folder / 'frames' / str(name)})"
            else:
                path = Path(tempfile.mkdtemp(prefix="msbot-stop-")) / "frame.png"
                cv2.imwrite(str(path), image)
                message += f" (frame saved: {path})"
        return PlayError(message)

    def say_once(self, text: str) -> None:
        if getattr(self, "_said", None) != text:
            self._said = text
            self.say(text)

    # ------------------------------------------------------------------- games

    def run(self) -> Session:
        """Play (or watch) `options.games` games; always returns what was played.

        Ctrl+C is honoured between two actions, never in the middle of a click
        (a button must not stay pressed): the run stops as if `--max-actions`
        had been reached, with the recording complete. A second Ctrl+C aborts
        at once.
        """
        previous = self._catch_interrupts()
        try:
            return self._run()
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)

    def _catch_interrupts(self) -> Any:
        if threading.current_thread() is not threading.main_thread():
            return None

        def interrupted(signum: int, frame: Any) -> None:
            if self.interrupted:
                raise KeyboardInterrupt
            self.interrupted = True

        return signal.signal(signal.SIGINT, interrupted)

    def check_interrupt(self) -> None:
        if self.interrupted:
            raise Interrupted("interrupted by Ctrl+C")

    def _run(self) -> Session:
        session = Session()
        reading = self.locate()
        session.skin = reading.skin
        self.recorder.update_meta(skin=reading.skin, geometry=reading.geometry.to_json())
        #: Watching: the last game ended with a new one already on screen.
        fresh = False
        for number in range(1, self.options.games + 1):
            self.game = number
            try:
                finished = reading.status in ("won", "lost")
                if finished and number == 1 and self.options.dry_run:
                    # Nothing to advise on a finished game: say so rather than
                    # wait silently (with --games, wait for the person's next game).
                    over = f"game over ({reading.status}) on screen: nothing to advise"
                    if not self.options.watch:
                        g = reading.geometry
                        result = GameResult(
                            1, "stopped", rows=g.rows, cols=g.cols, advised=True, message=over
                        )
                        self.say(f"{over}; start a new game and run again")
                        session.games.append(result)
                        break
                    self.say(f"{over} yet (Ctrl+C to stop)")
                if fresh:
                    fresh = False  # the person already started it
                elif number > 1 or finished:
                    # A finished game left on screen is not replayed: start a new one.
                    reading = self.new_game(reading)
                if self.options.dry_run:
                    result = self.watch_game(number, reading)
                else:
                    result = self.play_game(number, reading)
            except MsbotError as exc:  # PlayError, or a refused click, or a failed grab
                session.stopped = str(exc)
                session.interrupted = isinstance(exc, Interrupted)
                session.games.append(self.cut_short(number, str(exc)))
                self.say(session.games[-1].line())
                break
            session.games.append(result)
            self.recorder.update_meta(games=[g.to_json() for g in session.games])
            if result.outcome != "stopped" or not self.options.dry_run:
                self.say(result.line())
            if result.outcome == "stopped":  # --max-actions, or a one-shot dry run
                break
            fresh = result.outcome == "restarted"
            assert self.last_reading is not None
            reading = self.last_reading
        self.recorder.update_meta(
            games=[g.to_json() for g in session.games], summary=session.summary()
        )
        return session

    def cut_short(self, number: int, message: str) -> GameResult:
        """Game `number` as far as it went before an error or Ctrl+C stopped it."""
        current = self.current
        result = current if current is not None and current.game == number else None
        if result is None:
            result = GameResult(number, "stopped", advised=self.options.dry_run)
        result.outcome = "stopped"
        result.message = message
        result.error = True
        if self.started is not None:
            result.seconds = self.clock() - self.started
        return result

    def new_game(self, final: Reading) -> Reading:
        """Start the next game the way the skin says and wait until it shows.

        The skin's restart is a sequence of steps, e.g. ("restart",) to click
        the face, ("key:n",) for sgt-mines, or ("key:Escape", "restart") to
        close a clone's scores window first and then click its button; a
        control is looked up on a fresh reading when its step comes.
        """
        assert self.rules is not None
        restart = self.rules.restart
        what = ", then ".join(restart)
        if self.options.dry_run:
            self.say("waiting for a new game...")
            watched = self.wait_new_game(final, what, self.options.watch_timeout, last_try=True)
            assert watched is not None  # the last try raises rather than return None
            return watched
        # Twice at most: a click that reaches the clone while a window it is
        # closing still holds the input (GNOME Mines' scores after Escape) is lost.
        for attempt in (1, 2):
            for step in restart:
                if step.startswith("key:"):
                    done = self.actuator.press_key(step[4:], "restart")
                else:
                    controls = self.find_control(step, final)
                    self.actuator.bind(final.geometry, controls)
                    done = self.actuator.click_control(step, "restart")
                self.actions += 1
                self.recorder.action(done.to_json(), game=self.game, frame=self.frame_name)
            timeout = self.options.restart_timeout / 2
            reading = self.wait_new_game(final, what, timeout, last_try=attempt == 2)
            if reading is not None:
                return reading
        raise AssertionError("unreachable")

    def wait_new_game(
        self, final: Reading, what: str, timeout: float, last_try: bool
    ) -> Reading | None:
        """The first reading of a new game; None after `timeout` (an error if `last_try`)."""
        # A finished board hidden by a window (GNOME Mines' scores) was read as
        # all covered: then any fresh board is the new game.
        hidden = final.board == Board.covered(final.geometry.rows, final.geometry.cols)
        deadline = self.clock() + timeout
        while True:
            image, reading = self.grab_reading()
            if reading.certain and (
                (reading.status == "playing" and (hidden or reading.board != final.board))
                # Watching: the person's next game may be over before it is seen.
                or (self.options.dry_run and looks_like_new_game(final.board, reading.board))
            ):
                return reading
            if self.clock() > deadline:
                if not last_try:
                    return None
                raise self.stop(
                    self.with_cause(f"no new game appeared after restarting ({what})"), image
                )
            time.sleep(0.005)

    def find_control(self, name: str, final: Reading) -> Mapping[str, tuple[int, int]]:
        """The controls of the screen as it is now, once `name` is among them."""
        if name in final.controls:
            return final.controls
        deadline = self.clock() + self.options.restart_timeout
        while True:
            _, reading = self.grab_reading()
            if name in reading.controls or self.clock() > deadline:
                return reading.controls
            time.sleep(0.02)

    def next_reading(self, pending: Pending, prev: Reading | None) -> tuple[Image, Reading]:
        """Poll until a trustworthy reading shows every pending click (or stop)."""
        unreadable = 0
        refitted = False
        bad: list[Problem] = []
        deadline = self.clock() + self.options.effect_timeout
        retried = False
        while True:
            self.check_interrupt()
            image, reading = self.grab_reading()
            if reading.status == "paused":
                self.handle_pause(reading, image)
                deadline = self.clock() + self.options.effect_timeout
                continue
            if reading.status in ("won", "lost"):
                # The game is over: nothing will be done on this reading. Wait a
                # moment for a clean one (sgt-mines flashes the board on a win),
                # but a clone may also cover the board for good (GNOME Mines).
                if reading.certain or self.clock() > deadline:
                    return image, reading
                time.sleep(0.01)
                continue
            if not reading.certain:
                unreadable += 1
                if unreadable >= self.options.unreadable_frames and not refitted:
                    refitted = True
                    if self.refit():
                        unreadable = 0
                        continue
                if unreadable >= self.options.unreadable_frames:
                    cells = ", ".join(f"({u.row}, {u.col})" for u in reading.unknown[:5])
                    raise self.stop(
                        self.with_cause(
                            f"cells unreadable for {unreadable} consecutive frames: {cells}"
                        ),
                        image,
                    )
                time.sleep(0.003)
                continue
            unreadable = 0
            bad = self.problems(prev, reading, pending)
            late = [] if reading.status != "playing" else pending.late(reading.board)
            if not bad and not late:
                return image, reading
            if (
                bad
                and self.options.watch
                and prev is not None
                and looks_like_new_game(prev.board, reading.board)
            ):
                return image, reading  # the person started another game (see watch_game)
            if self.clock() > deadline:
                if bad:
                    text = "; ".join(str(p) for p in bad[:4])
                    raise self.stop(
                        f"the reading contradicts itself or the last one: {text}", image
                    )
                if retried or self.options.dry_run:
                    cells = ", ".join(str(c) for c in late[:5])
                    raise self.stop(f"clicks had no visible effect after a retry: {cells}", image)
                retried = True
                self.retry(pending, reading.board)
                deadline = self.clock() + self.options.effect_timeout
            time.sleep(0.001)

    def problems(self, prev: Reading | None, reading: Reading, pending: Pending) -> list[Problem]:
        lost = reading.status == "lost"
        found = [] if lost else number_problems(reading.board)
        if prev is not None:
            found += transition_problems(
                prev.board,
                reading.board,
                lost=lost,
                flagged_by_bot=None if self.options.dry_run else pending.all_flagged,
                flags_may_vanish=self.options.dry_run,
            )
        if reading.status == "playing":
            found += counter_problems(reading.board, reading.mines_left, pending.total)
        return found

    def retry(self, pending: Pending, board: Board) -> None:
        """Click again the cells that did not react (a lost click, not a double flag)."""
        for cell in pending.opened:
            if board[cell] in UNOPENED:
                self.actuator.open(*cell, "retry: no effect")
                self.actions += 1

    def handle_pause(self, reading: Reading, image: Image) -> None:
        """Resume a paused game the way the skin says: "focus" (put the pointer on
        the board: focus follows the pointer without a window manager), a control
        to click, or "stop"."""
        assert self.rules is not None
        how = self.rules.pause
        self.pauses = getattr(self, "pauses", 0) + 1
        if (
            self.options.dry_run
            or how == "stop"
            or self.pauses > 20
            or (how != "focus" and how not in reading.controls)
        ):
            raise self.stop(
                "the game is paused (its window lost the focus, or someone paused it): "
                "resume it and run again",
                image,
            )
        self.actuator.bind(reading.geometry, reading.controls)
        if how == "focus" and self.pauses > 3 and "resume" in reading.controls:
            # The focus is back but the game stays paused (its Pause button or
            # key was used): its Resume button is the way out.
            done = self.actuator.click_control("resume", "resume the paused game")
        elif how == "focus":
            g = reading.geometry
            done = self.actuator.hover(g.rows // 2, g.cols // 2, "resume the paused game")
        else:
            done = self.actuator.click_control(how, "resume the paused game")
        self.recorder.action(done.to_json(), game=self.game, frame=self.frame_name)
        time.sleep(0.1)

    def play_game(self, number: int, reading: Reading) -> GameResult:
        """Play one game to its end (or to `--max-actions`)."""
        assert self.rules is not None
        result = GameResult(
            number, "stopped", rows=reading.geometry.rows, cols=reading.geometry.cols
        )
        self.current, self.started = result, None
        pending = Pending(total=None)
        prev: Reading | None = None
        started: float | None = None
        last_batch_certain = False
        while True:
            image, reading = self.next_reading(pending, prev)
            g = reading.geometry
            result.rows, result.cols = g.rows, g.cols
            if pending.total is None and reading.mines_left is not None:
                pending.total = reading.mines_left + reading.board.count(FLAG)
                result.mines = pending.total
            self.last_reading = reading
            if reading.status != "playing":
                self.frame_name = self.recorder.frame(
                    image, reading, game=number, region=self.window
                )
            if reading.status in ("won", "lost"):
                result.outcome = reading.status
                if reading.status == "lost" and last_batch_certain:
                    result.certain_loss = True
                    result.message = "BUG: lost on a move the solver called certain"
                break
            if self.options.max_actions is not None and self.actions >= self.options.max_actions:
                result.message = f"stopped after --max-actions {self.options.max_actions}"
                self.recorder.frame(image, reading, game=number, region=self.window)
                break
            steps = self.plan(reading, pending.total)
            if steps is None:  # a frame caught mid-redraw: not recorded, read again
                time.sleep(0.005)
                continue
            self.frame_name = self.recorder.frame(image, reading, game=number, region=self.window)
            if not steps:
                # Every cell decided: the screen should say won any moment now.
                if self.wait_for_end(pending, reading):
                    continue
                if board_complete(reading, pending.total):
                    # Every safe cell open, every mine flagged and counted: the
                    # board on screen is a won board even though the clone's
                    # face or message did not follow (minegauler, now and then).
                    result.outcome = "won"
                    result.message = "the board is complete; the clone did not show its win"
                    break
                raise self.stop(
                    "nothing left to do, but the screen does not show the game won or lost",
                    image,
                )
            self.actuator.bind(reading.geometry, reading.controls)
            if started is None:
                started = self.started = self.clock()
            pending = Pending(total=pending.total, all_flagged=pending.all_flagged)
            last_batch_certain = all(s.certain for s in steps)
            for step in steps:
                if (
                    self.options.max_actions is not None
                    and self.actions >= self.options.max_actions
                ):
                    break
                self.act(step, number)
                pending.note(step)
                result.clicks += 1
                result.guesses += 0 if step.certain else 1
            prev = reading
        result.seconds = self.clock() - started if started is not None else 0.0
        return result

    def wait_for_end(self, pending: Pending, reading: Reading, timeout: float = 1.0) -> bool:
        """Poll until the status leaves "playing"; False if it never does."""
        deadline = self.clock() + timeout
        while self.clock() < deadline:
            _, now = self.next_reading(pending, reading)
            if now.status != "playing":
                return True
            time.sleep(0.01)
        return False

    def act(self, step: Step, game: int) -> None:
        self.check_interrupt()
        assert self.rules is not None
        if self.options.delay > 0:
            time.sleep(self.options.delay)
        elif self.rules.click_gap > 0 and not self.options.dry_run:
            wait = self.last_click + self.rules.click_gap - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        r, c = step.cell
        if step.action == "open":
            done = self.actuator.open(r, c, step.why)
        elif step.action == "flag":
            done = self.actuator.flag(r, c, step.why)
        else:
            done = self.actuator.chord(r, c, step.why)
        self.actions += 1
        self.last_click = time.monotonic()
        self.recorder.action(done.to_json(), game=game, frame=self.frame_name)

    def plan(self, reading: Reading, total: int | None) -> list[Step] | None:
        """Every certain move of this reading, or the single best guess; None
        when no mine placement fits the reading (read it again)."""
        assert self.rules is not None
        board = reading.board
        try:
            analysis = analyse(board, total, self.rules.rule)
        except InconsistentBoardError as exc:
            # Maybe a frame caught mid-redraw: read again a few times first.
            self.inconsistent += 1
            if self.inconsistent >= self.options.unreadable_frames:
                raise self.stop(
                    f"the reading is inconsistent in {self.inconsistent} frames in a row: {exc}"
                ) from None
            return None
        self.inconsistent = 0
        self.last_analysis = analysis
        steps: list[Step] = []
        want_flags = self.options.flags
        safe = list(analysis.safe)
        covered = {cell for cell in board.cells() if board[cell] in UNOPENED}
        if (
            self.rules.win_requires_flags
            and not safe
            and covered
            and covered <= set(analysis.mines)
        ):
            want_flags = True  # the clone declares the win only once every mine is flagged
        if want_flags:
            steps += [Step("flag", cell, "certain mine", True) for cell in analysis.mines]
        if safe and self.options.chord and self.rules.chord != "none":
            chords, safe = plan_chords(board, safe)
            steps += [Step("chord", cell, "certain: chord", True, opens) for cell, opens in chords]
        steps += [Step("open", cell, "certain", True) for cell in safe]
        if not steps and analysis.move is not None:
            move = analysis.move
            certain = move.reason == "certain"
            if move.action == "flag" and not want_flags:
                return []
            why = "certain" if certain else f"{move.reason} p={move.p_mine:.3f}"
            steps.append(Step(move.action, (move.row, move.col), why, certain))
        return steps

    # --------------------------------------------------------------- dry run

    def watch_game(self, number: int, reading: Reading) -> GameResult:
        """Dry run: advise on each new position until this game ends."""
        result = GameResult(number, "stopped", advised=True)
        started = self.clock()
        self.current, self.started = result, started
        prev: Reading | None = None
        pending = Pending(total=None)
        image = self.last_image
        while True:
            if prev is not None:
                image, reading = self.wait_change(prev, pending)
            else:
                image, reading = self.next_reading(pending, None)
            if prev is not None and looks_like_new_game(prev.board, reading.board):
                result.outcome = "restarted"
                result.message = "a new game began before this one was seen to end"
                self.last_reading = reading
                break
            if pending.total is None and reading.mines_left is not None:
                pending.total = reading.mines_left + reading.board.count(FLAG)
            g = reading.geometry
            result.rows, result.cols, result.mines = g.rows, g.cols, pending.total
            self.frame_name = self.recorder.frame(image, reading, game=number, region=self.window)
            self.last_reading = reading
            if reading.status in ("won", "lost"):
                result.outcome = reading.status
                break
            self.actuator.bind(reading.geometry, reading.controls)
            steps = self.plan(reading, pending.total)
            if steps is None:
                time.sleep(0.005)
                continue
            self.positions += 1
            self.say(f"position {self.positions}: {len(steps)} action(s)")
            advice: list[dict[str, Any]] = []
            for step in steps:
                self.act(step, number)
                done = self.actuator.history[-1]
                self.say(
                    f"  {step.action} cell ({step.cell[0]}, {step.cell[1]}) "
                    f"at screen ({done.x}, {done.y}): {step.why}"
                )
                advice.append(
                    {
                        "action": step.action,
                        "row": step.cell[0],
                        "col": step.cell[1],
                        "x": done.x,
                        "y": done.y,
                        "why": step.why,
                        "certain": step.certain,
                    }
                )
                result.clicks += 1
                result.guesses += 0 if step.certain else 1
            result.positions.append({"position": self.positions, "actions": advice})
            if self.annotate_dir is not None:
                self.write_annotation(image, reading, steps)
            if not self.options.watch:
                result.message = "dry run: advice given, nothing clicked"
                break
            prev = reading
        result.seconds = self.clock() - started
        return result

    def write_annotation(self, image: Image, reading: Reading, steps: Sequence[Step]) -> None:
        from bot.advice import annotate

        assert self.annotate_dir is not None and self.window is not None
        folder = Path(self.annotate_dir)
        folder.mkdir(parents=True, exist_ok=True)
        clicks = [(s.action, s.cell[0], s.cell[1], s.certain) for s in steps]
        probabilities = self.last_analysis.probabilities if self.last_analysis else None
        picture = annotate(
            image, reading, clicks, probabilities, (self.window.left, self.window.top)
        )
        ok, png = cv2.imencode(".png", picture)
        if ok:
            write_atomic(folder / f"position-{self.positions:04d}.png", png.tobytes())

    def wait_change(self, prev: Reading, pending: Pending) -> tuple[Image, Reading]:
        deadline = self.clock() + self.options.watch_timeout
        while True:
            image, reading = self.next_reading(pending, prev)
            if reading.board != prev.board or reading.status != prev.status:
                return image, reading
            if self.clock() > deadline:
                raise self.stop("nobody played for too long", image)
            time.sleep(0.05)


@dataclass
class Pending:
    """Clicks made since the last reading, and what they must show."""

    total: int | None
    opened: list[Cell] = field(default_factory=list)
    flagged: list[Cell] = field(default_factory=list)
    all_flagged: set[Cell] = field(default_factory=set)

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


#: Whole-image search region for a skin's glyphs (relative to a 1x1 "board"
#: that is the image itself).
_WHOLE_IMAGE = ((0.0, 0), (0.0, 0), (1.0, 0), (1.0, 0))


@dataclass(frozen=True)
class HiddenBoard:
    """A known clone on screen whose board something hides, and how to uncover it."""

    message: str
    #: Where its Resume button is (image pixels), if one shows.
    resume: tuple[int, int] | None = None
    #: Keys that close the window over the board (the skin's restart keys).
    keys: tuple[str, ...] = ()


def hidden_board(image: Image, reader: Any) -> HiddenBoard | None:
    """Why no board is found when a known clone hides it: its paused overlay
    (GNOME Mines after losing the focus or its Pause key) or a window the skin
    says covers the board (GNOME Mines' Congratulations). None when none of
    them is on screen.

    The skin places these glyphs relative to the board, which cannot be found,
    so they are searched in the whole image (a few hundred ms, only on this
    error path).
    """
    from types import SimpleNamespace

    from vision.geometry import Geometry
    from vision.glyphs import best_hit

    height, width = image.shape[:2]
    whole = Geometry(0, 0, width, height, 1, 1)

    def seen(glyphs: Any) -> Any:
        if glyphs is None:
            return None
        return best_hit(image, replace(glyphs, region=_WHOLE_IMAGE), whole)

    for skin in getattr(reader, "skins", ()):
        button = seen(skin.buttons.get("resume"))
        if button is not None or seen(skin.paused) is not None:
            return HiddenBoard(
                f"{skin.name} is paused (its board is hidden): click its Resume button "
                "(or give its window the focus), then run again",
                resume=(button.x, button.y) if button is not None else None,
            )
        texts = skin.status_texts
        if texts is not None and texts.extra.get("hides_board"):
            hit = seen(texts)
            if hit is not None:
                restart = play_rules(SimpleNamespace(skin=skin)).restart
                keys = []
                for step in restart:  # the keys before the first click close it
                    if not step.startswith("key:"):
                        break
                    keys.append(step[4:])
                return HiddenBoard(
                    f"a {skin.name} window covers the board (the game is {hit.key or 'over'}: "
                    "its scores or message window?): close it, start a new game, then run again",
                    keys=tuple(keys),
                )
    return None


def board_complete(reading: Reading, total: int | None) -> bool:
    """No cell left to open, the flags are the mines and the counter agrees."""
    board = reading.board
    return (
        total is not None
        and board.count("".join(UNOPENED)) == 0
        and board.count(FLAG) == total
        and reading.mines_left == 0
    )


def plan_chords(
    board: Board, safe: Sequence[Cell]
) -> tuple[list[tuple[Cell, tuple[Cell, ...]]], list[Cell]]:
    """Numbers whose flags are all placed and that would open two or more of the
    safe cells at once: chord those instead of clicking each cell.

    Returns (numbers to chord with the cells each opens, safe cells still to
    open one by one). Only flags
    already on screen count, so a chord never opens a mine the bot has not flagged.
    """
    remaining = set(safe)
    chords: list[tuple[Cell, tuple[Cell, ...]]] = []
    for cell in board.cells():
        n = board.number(cell)
        if not n:
            continue
        around = list(board.neighbours(cell))
        flags = sum(board[x] == FLAG for x in around)
        covered = [x for x in around if board[x] in UNOPENED]
        if flags == n and len(covered) >= 2 and all(x in remaining for x in covered):
            chords.append((cell, tuple(covered)))
            remaining -= set(covered)
    return chords, [cell for cell in safe if cell in remaining]


def window_region(located: Any, offset: tuple[int, int], screen: tuple[int, int]) -> Region:
    """The screen region to grab from now on: the board and the skin's controls."""
    left, top, width, height = located_geometry(located)
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


__all__ = ["GameResult", "MsbotError", "PlayOptions", "Player", "Session", "Step"]
