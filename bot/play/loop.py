"""The closed loop that plays a real Minesweeper window hands-free.

    capture -> read -> check -> solve -> act -> wait for the effect -> repeat

This module is the loop itself (`Player`: games one after the other, each
played to its end, restarts, pauses, stops); each stage lives in a module
named for its job:

* `bot.play.window`: find the board (`GameWindow.locate`), then grab only the
  window's region around it and read it (`vision.reader.BoardReader`); say
  why it stopped reading (moved, vanished) and save the frame;
* `bot.play.waiting`: poll the region until every clicked cell shows the click
  (with a timeout and one retry) and the reading passes `bot.play.consistency`,
  so the next decision is never made on a stale or misread picture;
* `bot.play.planning`: every certain-safe cell of the reading at once (opening a
  safe cell never makes another safe cell unsafe), certain mines flagged
  unless `--no-flags`, chords with `--chord`, otherwise the solver's single
  best guess (`bot.solver.analyse`, with the mine total from the counter
  plus the flags on the board);
* `bot.play.watching`: `--dry-run`, advice to a person instead of clicks;
* `bot.play.results`: the per-game lines and the summary;
* `bot.play.interrupts`: Ctrl+C and SIGTERM between two actions, never mid-click.

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

import time
from collections.abc import Callable, Collection
from typing import Any

from bot.actuator import Action, ActionKind, Actuator
from bot.board import COVERED, FLAG, OPEN_UNKNOWN, UNOPENED, Board, Cell
from bot.errors import InconsistentBoardError, MsbotError, NoControl, NotInPlace, PlayError
from bot.play import threebv
from bot.play.click_check import ClickCheck
from bot.play.consistency import looks_like_new_game, untrusted_flags
from bot.play.hidden_board import HiddenBoard
from bot.play.interrupts import Interrupted, StopSignals
from bot.play.learner import Learner
from bot.play.options import PlayOptions
from bot.play.planning import Step, plan_steps
from bot.play.recorder import Recorder
from bot.play.results import GameResult, Outcome, Session, board_complete, ended_outcome
from bot.play.skinplay import learned_total
from bot.play.waiting import Pending, Streak, Waiter, mine_total
from bot.play.watching import watch_game
from bot.play.window import GameWindow
from bot.solver import Analysis, analyse
from vision.capture import Image, Region, Screen
from vision.reading import ENDED, Reading

#: Seconds a clone gets to draw its buttons unlit once the pointer left them.
POINTER_SETTLE = 0.15

#: What a game that ended out of sight says (`bot.play.outcome`: "over").
_OVER_UNSEEN = (
    "the game took no more clicks, and the clone's window hid the cell msbot guessed last: "
    "won or lost is not shown"
)


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
        learner: Learner | None = None,
    ) -> None:
        self.actuator = actuator
        self.options = options
        self.recorder = recorder or Recorder(None)
        self.say = say
        self.clock = clock
        self.window = GameWindow(screen, reader, self.recorder, options.region, say)
        #: Before each click on a cell: the window under it, its pixels.
        self.click_check = ClickCheck(self.window, actuator.mouse)
        if not options.dry_run:
            actuator.guard = self.check_click
            self.window.desktop = self.click_check.at_board
        self.signals = StopSignals()
        #: Learns while playing with a skin still being learned (`bot.play.learner`).
        self.learner = learner if learner is not None else Learner()
        self.learner.attach(self.window, self.count_retry)
        self.window.margin = self.learner.margin(self.window.margin)
        self.waiter = Waiter(
            self.window,
            actuator,
            options,
            self.signals,
            self.handle_pause,
            self.count_retry,
            clock,
            self.learner,
        )
        #: Every action so far (clicks, keys, retries): what `--max-actions` bounds.
        self.actions = 0
        self.game = 0
        #: The frame the next actions are based on (recordings name it).
        self.frame_name: str | None = None
        self.last_reading: Reading | None = None
        self.last_analysis: Analysis | None = None
        #: The board that analysis is of (flags the bot did not place shown covered).
        self.last_solved: Board | None = None
        #: Dry run: positions advised so far, over every game.
        self.positions = 0
        #: Consecutive readings no mine placement fits (a frame mid-redraw, or a misread).
        self.inconsistent = Streak()
        #: Resumes of this game's pauses (a game that keeps pausing is stopped).
        self.pauses = 0
        self.last_click = 0.0
        #: Dry run: write each advised position, annotated, into this folder.
        self.annotate_dir: str | None = None
        #: The game being played and when its first action was made: what a
        #: stop by an error still reports (clicks, guesses, size, time).
        self.current: GameResult | None = None
        self.started: float | None = None
        #: msbot's flags seen in a person's new game, taken off before it is played.
        self.stray: frozenset[Cell] = frozenset()

    # ------------------------------------------------------------------- games

    def run(self) -> Session:
        """Play (or watch) `options.games` games; always returns what was played.

        Ctrl+C and SIGTERM are honoured between two actions, never in the
        middle of a click (a button must not stay pressed): the run stops as if
        `--max-actions` had been reached, with the recording complete. A second
        Ctrl+C aborts at once (see `bot.play.interrupts`).
        """
        with self.signals:
            return self._run()

    def _run(self) -> Session:
        session = Session()
        reading = self.locate()
        session.skin = reading.skin
        self.recorder.update_meta(skin=reading.skin, geometry=reading.geometry.to_json())
        #: Watching: the last game ended with a new one already on screen.
        fresh = False
        for number in range(1, self.options.games + 1):
            self.game = number
            if self.options.deadline is not None and self.clock() > self.options.deadline:
                break
            try:
                finished = reading.status in ENDED
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
                if fresh and not finished:
                    fresh = False  # the person already started it
                elif number > 1 or finished:
                    fresh = False
                    # A finished game left on screen is not replayed: start a new one.
                    reading = self.new_game(reading)
                if self.options.dry_run:
                    result = watch_game(self, number, reading)
                else:
                    result = self.play_game(number, reading)
            except MsbotError as exc:  # PlayError, or a refused click, or a failed grab
                text = str(exc)
                if isinstance(exc, Interrupted):
                    session.interrupted, session.signal = True, exc.signum
                elif isinstance(exc, PlayError):
                    text = self.window.keep_frame(text)
                session.stopped = text
                session.games.append(self.cut_short(number, text))
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
        ended = reading.status in ENDED
        if self.options.leave_new_game and not session.stopped and session.games and ended:
            try:
                self.new_game(reading)
            except MsbotError as exc:
                self.say(f"no new game left on screen: {exc}")
        self.recorder.update_meta(
            games=[g.to_json() for g in session.games], summary=session.summary()
        )
        return session

    def locate(self) -> Reading:
        """Find the board; playing (not a dry run), a board its clone hides is
        uncovered once the way the skin says."""
        uncover = None if self.options.dry_run else self.uncover
        reading = self.window.locate(uncover)
        assert self.window.rules is not None
        self.actuator.chord_style = self.window.rules.chord
        self.actuator.rest = self.window.rules.pointer_rest
        self.actuator.flag_with = self.window.rules.flag_with
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

    def cut_short(self, number: int, message: str) -> GameResult:
        """Game `number` as far as it went before an error or Ctrl+C stopped it."""
        current = self.current
        result = current if current is not None and current.game == number else None
        if result is None:
            # Stopped before it began (Ctrl+C while a restart shows): the board
            # and its size are known all the same.
            g = self.window.geometry
            rows, cols = (g.rows, g.cols) if g is not None else (0, 0)
            result = GameResult(
                number, "stopped", rows=rows, cols=cols, advised=self.options.dry_run
            )
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
        assert self.window.rules is not None
        restart = self.window.rules.restart
        what = ", then ".join(step.replace("|", " or ") for step in restart)
        if self.options.dry_run:
            self.say("waiting for a new game...")
            watched = self.waiter.wait_new_game(
                final, what, self.options.watch_timeout, last_try=True
            )
            assert watched is not None  # the last try raises rather than return None
            return watched
        if not self.window.rules.can_restart:
            found = self.learner.find_restart(self, final)
            if found is not None:
                return found
            raise self.window.stop(
                f"this skin ({final.skin}) has no way to start a new game (no face or button "
                "to click, no key to press): start one by hand and run msbot play again, or "
                'give the skin a restart key ("play": {"restart": {"key": "F2"}} in its '
                "skin.json, or learn-skin --restart-key KEY)"
            )
        # The control the restart clicks first (none when it presses a key first).
        first = [n for step in restart[:1] if not (n := step.partition("|")[0]).startswith("key:")]
        # Twice at most: a click that reaches the clone while a window it is
        # closing still holds the input (GNOME Mines' scores after Escape) is lost.
        for attempt in (1, 2):
            # Never a blind click where the board was: it must still be there.
            # A skin still being learned has seen few of its clone's end pictures.
            share = 0.5 if self.learner.learning else 0.1
            now = self.waiter.still_there(
                self.options.restart_timeout / 2,
                share,
                framed=self.learner.learning,
                own_dialog=self.click_check.own_dialog_over,
                controls=first,
            )
            end = self.window.screen.grab(self.window.region)
            try:
                self.restart_steps(restart, final, now)
            except NoControl:
                # A learned restart whose control is not there this time (a
                # page's "you won" notice, where its "you lost" one was): the
                # search again, from this game's end.
                found = self.learner.find_restart(self, final)
                if found is None:
                    raise
                return found
            timeout = self.options.restart_timeout / 2
            last_try = attempt == 2 and not self.learner.learning
            reading = self.waiter.wait_new_game(
                final, what, timeout, last_try=last_try, unreadable=share
            ) or self.learner.new_board(self, final, end)
            if reading is None and attempt == 2:
                found = self.learner.find_restart(self, final)
                if found is not None:
                    return found
            if reading is not None:
                # A notice over the new board may still be fading (KMines):
                # the first click waits for a still screen.
                return self.learner.still_board(reading)
        raise AssertionError("unreachable")

    def restart_steps(self, restart: tuple[str, ...], final: Reading, now: Reading) -> None:
        """Make the skin's restart steps once (keys pressed, controls clicked)."""
        for n, step in enumerate(restart):
            name, _, fallback = step.partition("|")
            if name.startswith("key:"):
                done = self.actuator.press_key(name[4:], "restart")
            else:
                away = self.window.away_point() if n else None
                if away is not None:
                    # A step after another is looked for with the pointer off
                    # the window: left where the last click was, it lit up the
                    # button it rested on (zoo seed 650718506's level, under
                    # the dialog's "Play" that opened the menu), whose picture
                    # was then not found.
                    self.actuator.mouse.move(*away)
                    time.sleep(POINTER_SETTLE)
                patience = 1.0 if fallback else None
                controls = self.waiter.find_control(name, now, patience)
                if name not in controls and fallback.startswith("key:"):
                    done = self.actuator.press_key(fallback[4:], "restart")
                else:
                    self.actuator.bind(final.geometry, controls)
                    done = self.actuator.click_control(name, "restart")
            self.actions += 1
            self.recorder.action(done.to_json(), game=self.game, frame=self.frame_name)

    def play_game(self, number: int, reading: Reading) -> GameResult:
        """Play one game to its end (or to `--max-actions`)."""
        result = GameResult(
            number, "stopped", rows=reading.geometry.rows, cols=reading.geometry.cols
        )
        self.current, self.started = result, None
        self.pauses = 0
        self.learner.new_game(number)
        if self.window.geometry is not None and not self.options.dry_run:
            self.click_check.new_game(self.window.geometry)
        first_check = len(self.click_check.ms)
        if self.stray:
            self.take_off_stray(reading)
        pending = Pending(total=None)
        prev: Reading | None = None
        started: float | None = None
        last_batch_certain = False
        region = self.window.region
        first_read = len(self.window.read_ms)
        trust_counter = True
        while True:
            image, reading = self.waiter.next_reading(pending, prev)
            g = reading.geometry
            result.rows, result.cols = g.rows, g.cols
            if (
                prev is not None
                and reading.status in ("playing", "lost")
                and looks_like_new_game(prev.board, reading.board, reading.unread)
            ):
                # A person started a new game (a key, the face): this one is
                # left, and the next is played on the board now on screen. A
                # flag msbot sent as the game changed may have landed in it:
                # those are msbot's to take off (`take_off_stray`).
                result.outcome = "restarted"
                result.message = "a new game began on screen (not by msbot): this game was left"
                self.stray = frozenset(c for c in pending.all_flagged if reading.board[c] == FLAG)
                self.last_reading = reading
                # The frame the stray flags are taken off on (`take_off_stray`).
                self.frame_name = self.recorder.frame(image, reading, game=number, region=region)
                break
            if pending.total is None and reading.mines_left is not None and trust_counter:
                pending.total = mine_total(reading)
                learned = learned_total(self.window.located)
                if learned is not None and pending.total != learned:
                    # A learned counter read a total it was not learned showing:
                    # a digit at a place never seen may have gone unread (the web
                    # clone's "19 mines left" read 9), and a total too small would
                    # have the solver open cells once it thinks every mine flagged.
                    self.window.say_once(
                        f"the counter reads {pending.total} mines, not the {learned} it was "
                        "learned with: this game is played without the mine total"
                    )
                    pending.total, trust_counter = None, False
                result.mines = pending.total
            if reading.status == "playing":
                reading = self.learner.in_play(image, reading, pending.total)
            self.last_reading = reading
            if reading.status != "playing":
                self.frame_name = self.recorder.frame(image, reading, game=number, region=region)
            if reading.status in ENDED:
                result.outcome = ended_outcome(reading.status)
                outcome = self.learner.game_over(
                    reading.status, image, pending.total, pending.opened
                )
                result.outcome = ended_outcome(outcome)
                if result.outcome == "over":
                    result.message = _OVER_UNSEEN
                if reading.status == "lost" and last_batch_certain:
                    result.certain_loss = True
                    result.message = "BUG: lost on a move the solver called certain"
                break
            if self.options.max_actions is not None and self.actions >= self.options.max_actions:
                result.message = f"stopped after --max-actions {self.options.max_actions}"
                self.recorder.frame(image, reading, game=number, region=region)
                break
            steps = self.plan(reading, pending.total, pending.all_flagged)
            if steps is None:  # a frame caught mid-redraw: not recorded, read again
                time.sleep(0.005)
                continue
            self.frame_name = self.recorder.frame(image, reading, game=number, region=region)
            # The last safe cell is open: the game is won by the rules, and the
            # clone may be drawing its notice over the board right now (GNOME
            # Mines' scores), where a flag would land on that window. The flags
            # follow only if the clone shows no end.
            only_flags = bool(steps) and all(s.action == "flag" for s in steps)
            won = only_flags and self.only_mines_left(reading)
            if won and self.waiter.wait_for_end(pending, reading):
                continue
            if not steps:
                # Every cell decided: the screen should say won any moment now.
                if self.waiter.wait_for_end(pending, reading):
                    continue
                if board_complete(reading, pending.total) or self.only_mines_left(reading):
                    # Every safe cell open: the board on screen is a won board
                    # even though the clone's face or message did not follow
                    # (minegauler, now and then), or is not where the skin
                    # looks for it (a window enlarged around its board).
                    result.outcome = "won"
                    result.message = "the board is complete; the clone did not show its win"
                    self.learner.game_over("won", image, pending.total)
                    break
                # A learned skin may not know the clone's end yet: a game
                # that no longer takes clicks is over.
                over = self.learner.stalled(reading, pending.opened, pending.certain)
                if over is not None:
                    outcome = self.learner.game_over(over.status, image, pending.total)
                    result.outcome = ended_outcome(outcome)
                    if result.outcome == "over":
                        result.message = _OVER_UNSEEN
                    break
                if self.learner.prove_held():
                    continue  # pictures msbot did not cause, now read: read again
                raise self.window.stop(
                    "nothing left to do, but the screen does not show the game won or lost",
                    image,
                )
            self.actuator.bind(reading.geometry, reading.controls)
            if started is None:
                started = self.started = self.clock()
            last_batch_certain = all(s.certain for s in steps)
            pending = Pending(
                total=pending.total,
                all_flagged=pending.all_flagged,
                certain=last_batch_certain,
                seen=image,
                previous=tuple(pending.opened),
                previous_certain=pending.certain and bool(pending.opened or pending.flagged),
            )
            self.click_check.begin(image, reading)
            try:
                for step in steps:
                    if (
                        self.options.max_actions is not None
                        and self.actions >= self.options.max_actions
                    ):
                        break
                    try:
                        self.act(step, number)
                    except NotInPlace:
                        break  # not the board the plan saw: read the screen first
                    pending.note(step)
                    result.clicks += 1
                    result.guesses += 0 if step.certain else 1
            finally:
                self.click_check.end()
            # On disk before the wait for them to show, however long it lasts.
            self.recorder.flush()
            prev = reading
        result.seconds = self.clock() - started if started is not None else 0.0
        result.read_ms = self.window.read_ms[first_read:]
        result.check_ms = self.click_check.ms[first_check:]
        if result.outcome in ("won", "lost"):
            result.bbbv = threebv.of_game(reading.board, result.outcome, pending.total)
            covered_win = result.bbbv is None and result.outcome == "won"
            if covered_win and prev is not None and pending.total is not None:
                # A clone that covers its won board (GNOME Mines): the board
                # before the last clicks, those cells open, if it then holds
                # exactly the game's mines (the last click opened no area).
                before = prev.board.with_cells(pending.opened, OPEN_UNKNOWN)
                result.bbbv = threebv.of_game(before, "won", pending.total)
        return result

    def plan(
        self, reading: Reading, total: int | None, flagged_by_bot: Collection[Cell] = ()
    ) -> list[Step] | None:
        """Every certain move of this reading, or the single best guess; None
        when no mine placement fits the reading (read it again).

        Flags not in `flagged_by_bot` are a person's and may be wrong: the
        solver sees those cells covered and no step touches them; when one
        stands in the way (certainly safe, or the best guess), the bot stops
        and says which.
        """
        rules = self.window.rules
        assert rules is not None
        untrusted = untrusted_flags(reading.board, flagged_by_bot)
        board = reading.board.with_cells(untrusted, COVERED)
        # Pictures a learned skin holds back (not caused by msbot): never clicked.
        held = self.learner.held
        try:
            analysis = analyse(board, total, rules.rule, strength=self.options.strength)
        except InconsistentBoardError as exc:
            # Maybe a frame caught mid-redraw: read again for a while first.
            now = self.clock()
            self.inconsistent.bump(now)
            if self.inconsistent.over(
                self.options.unreadable_frames, self.options.effect_timeout, now
            ):
                raise self.window.stop(
                    f"the reading is inconsistent in {self.inconsistent.frames} frames in a row "
                    f"({now - self.inconsistent.since:.1f} s): {exc}"
                ) from None
            return None
        self.inconsistent.clear()
        self.last_analysis, self.last_solved = analysis, board
        steps = plan_steps(
            board,
            analysis,
            rules,
            flags=self.options.flags,
            chord=self.options.chord,
            untouchable=untrusted,
            held=held,
        )
        if untrusted:
            self.refuse_untrusted(untrusted, analysis, blocked=not steps)
        return steps

    def only_mines_left(self, reading: Reading) -> bool:
        """Whether every cell still closed is a certain mine, flagged where the
        clone needs its flags to declare a win: then every safe cell is open
        and the game is won by the rules, whatever the counter shows.

        Certain from the numbers alone (the last analysis of this very
        board), so it holds even when the counter was never read.
        """
        analysis, board, rules = self.last_analysis, self.last_solved, self.window.rules
        assert rules is not None
        if analysis is None or board is None or analysis.safe or reading.board.count("*!X"):
            return False
        closed = [cell for cell in board.cells() if board[cell] in UNOPENED]
        if rules.win_requires_flags and any(reading.board[cell] != FLAG for cell in closed):
            return False
        return set(closed) <= set(analysis.mines)

    def refuse_untrusted(
        self, untrusted: frozenset[Cell], analysis: Analysis, *, blocked: bool
    ) -> None:
        """Stop as soon as a flag the bot did not place is certainly wrong (it
        also takes a flag the clone may refuse the bot at the end: xdemineur
        places no more flags than mines), or, `blocked` (no other step left),
        when the best guess lies under one."""
        wrong = [cell for cell in analysis.safe if cell in untrusted]
        if wrong:
            where = ", ".join(f"({r}, {c})" for r, c in wrong)
            raise self.window.stop(
                f"the flag at {where} is wrong: that cell is certainly safe "
                "(msbot did not place that flag): remove it and run again"
            )
        move = analysis.move
        if (
            blocked
            and move is not None
            and move.action == "open"
            and (move.row, move.col) in untrusted
        ):
            raise self.window.stop(
                f"the best guess, cell ({move.row}, {move.col}) (mine chance "
                f"{move.p_mine:.2f}), is under a flag msbot did not place: "
                "remove that flag, or play that cell yourself, and run again"
            )

    def act(self, step: Step, game: int) -> None:
        """Make one step (dry run: advise it), after the pause the user or the
        clone asks for; recorded with the frame it was based on."""
        self.signals.check()
        rules = self.window.rules
        assert rules is not None
        if self.options.delay > 0:
            self.signals.sleep(self.options.delay)
        elif rules.click_gap > 0 and not self.options.dry_run:
            wait = self.last_click + rules.click_gap - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        r, c = step.cell
        if step.action == "open":
            done = self.actuator.open(r, c, step.why, unmark=step.unmark)
        elif step.action == "flag":
            done = self.actuator.flag(r, c, step.why, unmark=step.unmark)
        else:
            done = self.actuator.chord(r, c, step.why)
        self.actions += 1
        self.last_click = time.monotonic()
        self.recorder.action(done.to_json(), game=game, frame=self.frame_name)

    def take_off_stray(self, reading: Reading) -> None:
        """Take off msbot's flags that landed in a person's new game (sent as
        it began, before the screen showed it), and wait until they are gone."""
        rules = self.window.rules
        assert rules is not None
        cells = sorted(c for c in self.stray if reading.board[c] == FLAG)
        self.stray = frozenset()
        if not cells:
            return
        self.actuator.bind(reading.geometry, reading.controls)
        for r, c in cells:
            done = self.actuator.unflag(
                r, c, 2 if rules.question_marks else 1, "msbot's flag in a new game"
            )
            self.actions += 1
            self.recorder.action(done.to_json(), game=self.game, frame=self.frame_name)
        deadline = self.clock() + self.options.effect_timeout
        while True:
            image, now = self.window.grab_reading()
            if now.certain and all(now.board[cell] != FLAG for cell in cells):
                return
            if self.clock() > deadline:
                where = ", ".join(f"({r}, {c})" for r, c in cells)
                raise self.window.stop(
                    f"msbot's flags at {where} landed in a new game begun on screen "
                    "and could not be taken off",
                    image,
                )
            time.sleep(0.005)

    def check_click(self, row: int, col: int, x: int, y: int, kind: ActionKind) -> None:
        """The actuator's guard: is the board still where the last reading saw
        it (`GameWindow.in_place`), and does the point still show the board the
        plan saw (`ClickCheck.before`)?"""
        self.window.in_place()
        self.click_check.before(row, col, x, y, kind)

    def count_retry(self, done: Action) -> None:
        """A click made again by `Waiter.retry` is a click of this game like any
        other: counted (`--max-actions`, the game's clicks) and recorded."""
        self.actions += 1
        if self.current is not None and self.current.game == self.game:
            self.current.clicks += 1
        self.recorder.action(done.to_json(), game=self.game, frame=self.frame_name)
        self.recorder.flush()

    def handle_pause(self, reading: Reading, image: Image) -> None:
        """Resume a paused game the way the skin says: "focus" (put the pointer on
        the board: focus follows the pointer without a window manager), a control
        to click, or "stop"."""
        rules = self.window.rules
        assert rules is not None
        how = rules.pause
        self.pauses += 1
        if (
            self.options.dry_run
            or how == "stop"
            or self.pauses > 20
            or (how != "focus" and how not in reading.controls)
        ):
            raise self.window.stop(
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


__all__ = [
    "GameResult",
    "MsbotError",
    "Outcome",
    "PlayOptions",
    "Player",
    "Session",
    "Step",
    "board_complete",
]
