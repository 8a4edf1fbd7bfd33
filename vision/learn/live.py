"""`learn-skin --live`: take the screenshots the learner needs from the live window.

A fresh board; a right click on a covered cell (the flag), a second and a
third (a question mark, if the clone has them, then covered again: the
order tells the flag from the question mark); the flag put back; then left
clicks on random covered cells until the game is lost or stops reacting
(a lost board shows the numbers, the mines and the hit mine at once). Each
screenshot is taken once the screen has stopped changing.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from bot.actuator._base import Button, Mouse
from bot.errors import VisionError
from vision.capture._base import Screen
from vision.geometry import Geometry
from vision.learn.cluster import cluster
from vision.learn.grid import BoardRect, find_grid, patches

#: Left clicks at most before giving up on losing.
MAX_CLICKS = 60


def _after(
    screen: Screen, geo: Geometry, before: np.ndarray, wait: float, timeout: float = 1.0
) -> np.ndarray:
    """The screen once the board has changed from `before` and settled (or after `timeout`:
    the click did nothing). Clones redraw 2-100 ms after a click."""
    start = patches(before, geo)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        time.sleep(wait)
        if not np.array_equal(patches(screen.grab(), geo), start):
            break
    return _settled(screen, wait)


#: Seconds the screen must stay unchanged to count as settled: sgt-mines flashes
#: the board red in steps of 0.13 s when a game is lost, and a screenshot taken
#: between two steps of the flash shows no board the learner knows.
STILL = 0.8


def _settled(screen: Screen, wait: float, timeout: float = 3.0) -> np.ndarray:
    """A screenshot once the screen has not changed for STILL seconds (grabs `wait` apart)."""
    time.sleep(wait)
    last = screen.grab()
    since = time.monotonic()
    end = since + timeout
    while time.monotonic() < end:
        time.sleep(wait)
        shot = screen.grab()
        if not np.array_equal(shot, last):
            last, since = shot, time.monotonic()
        elif time.monotonic() - since >= STILL:
            return shot
    return last


#: Seconds the pointer rests on a cell before it is clicked: some clones ignore
#: the first event after the pointer enters them (or their board widget).
ENTER = 0.1


def _click(mouse: Mouse, geo: Geometry, x: int, y: int, button: Button) -> None:
    """Click, then move the pointer off the board (just above its top-left corner, still
    inside the window): GNOME Mines lightens the tile under the pointer, and every
    screenshot would show a hover look of the cell clicked last."""
    mouse.move(x, y)
    time.sleep(ENTER)
    mouse.click(x, y, button)
    mouse.move(round(geo.left + geo.cell_w / 2), round(geo.top - max(3.0, geo.cell_h / 3)))


#: A cell whose patch differs from another by at most this (mean squared difference)
#: shows the same look.
SAME_LOOK = 1.0


#: Open cells the finished board shows otherwise, from which on a dialog covers it
#: (a lost board changes at most a flag or two that were already there).
HIDDEN = 3


def _hides(shot: np.ndarray, after: np.ndarray, geo: Geometry, start: np.ndarray) -> int:
    """Cells not covered on `shot` that look otherwise on the finished board `after`
    (patches): open cells never change, so these were hidden by something on top."""
    now = patches(shot, geo)
    was_open = ((now - start) ** 2).mean(axis=1) > SAME_LOOK
    return int((was_open & (((now - after) ** 2).mean(axis=1) > SAME_LOOK)).sum())


def _shows(shot: np.ndarray, geo: Geometry, start: np.ndarray, r: int, c: int) -> bool:
    """Whether cell (r, c) of `shot` looks as it did on the fresh board (`start`)."""
    now = patches(shot, geo)[r * geo.cols + c]
    return float(((now - start[r * geo.cols + c]) ** 2).mean()) <= SAME_LOOK


def _kinds(image: np.ndarray, geo: Geometry) -> list[np.ndarray]:
    """Masks of the cells of each look, most common first."""
    found = cluster(patches(image, geo))
    order = np.argsort(-np.bincount(found.labels), kind="stable")
    return [np.asarray(found.labels == k).reshape(geo.rows, geo.cols) for k in order]


def shoot(
    screen: Screen,
    mouse: Mouse,
    board: BoardRect | None = None,
    wait: float = 0.05,
    seed: int = 0,
    flags: int = 1,
    log: Callable[[str], None] = lambda _: None,
) -> list[np.ndarray]:
    """The screenshots for `vision.learn.learn.learn` (see the module docstring).

    `flags` > 1 flags that many cells one by one, a screenshot each, so the
    mine counter shows ten values in a row: every digit, for the counter; all
    but the first are taken off again before the game is played to its loss.
    """
    rng = np.random.default_rng(seed)
    geo = find_grid(_settled(screen, wait), board)
    # The pointer rests off the board before the fresh board is taken: a cell under
    # it is drawn lighter (GNOME Mines), and a fresh board with that look makes
    # every later board differ from it (the right-click cycle was never seen).
    mouse.move(round(geo.left + geo.cell_w / 2), round(geo.top - max(3.0, geo.cell_h / 3)))
    fresh = _settled(screen, wait)
    log(f"board {geo.rows}x{geo.cols} at ({round(geo.left)}, {round(geo.top)})")
    shots = [fresh]
    start = patches(fresh, geo)
    covered = np.zeros((geo.rows, geo.cols), bool)
    r = c = x = y = 0
    # The covered tile is the look a right click changes (a flag appears);
    # it is usually the most common look, unless the clone opened an area itself.
    for attempt, kind in enumerate(_kinds(fresh, geo)[:3]):
        cells = np.argwhere(kind)
        r, c = (int(v) for v in cells[rng.integers(len(cells))])
        x, y = geo.cell_center(r, c)
        if attempt == 0:
            # Some clones ignore the first event after the pointer enters their window.
            mouse.move(x, y)
            time.sleep(0.2)
        _click(mouse, geo, x, y, "right")
        shot = _after(screen, geo, fresh, wait)
        if not np.array_equal(patches(shot, geo), start):
            covered = kind
            shots.append(shot)
            break
    if not covered.any():
        # A finished game ignores clicks; learning its board as "fresh" would name
        # open tiles covered. Refuse rather than learn garbage.
        raise VisionError(
            "the board is not fresh: no cell reacts to a right click (is the game over?): "
            "start a new game in the window and run again"
        )
    for _ in range(2):  # flag -> covered, or flag -> ? -> covered
        _click(mouse, geo, x, y, "right")
        shots.append(_after(screen, geo, shots[-1], wait))
        if _shows(shots[-1], geo, start, r, c):
            break  # back to covered (no question marks in this clone, or after "?")
    _click(mouse, geo, x, y, "right")  # the flag stays for the lost board
    last = _after(screen, geo, shots[-1], wait)
    covered[r, c] = False
    spare = np.argwhere(covered)
    extra = spare[rng.permutation(len(spare))[: max(0, flags - 1)]].tolist()
    for fr, fc in extra:
        shots.append(last)
        _click(mouse, geo, *geo.cell_center(fr, fc), "right")
        last = _after(screen, geo, last, wait)
    if extra:
        shots.append(last)
    # The extra flags (there for the counter's digits) go again: random flags are
    # mostly wrong, and a clone that opens wrongly flagged cells in a cascade
    # (GNOME Mines) would turn flags into numbers on the lost board.
    # Each is right-clicked until it shows covered again (at most three times):
    # counting clicks from the cycle seen on the first flag left all ten flags on
    # GNOME Mines whenever that cycle was misjudged (the fresh board showed the
    # cell under the pointer lighter, so no board ever matched it again).
    for fr, fc in extra:
        for _ in range(3):
            if _shows(last, geo, start, fr, fc):
                break
            _click(mouse, geo, *geo.cell_center(fr, fc), "right")
            last = _after(screen, geo, last, wait)
        if not _shows(last, geo, start, fr, fc):
            covered[fr, fc] = False  # still flagged: never left-clicked
    shots.append(last)
    previous = last
    for _ in range(MAX_CLICKS):
        now = patches(last, geo)
        same = (((now - start) ** 2).mean(axis=1) <= 1.0).reshape(geo.rows, geo.cols)
        still = np.argwhere(covered & same)
        if not len(still):
            break
        rr, cc = (int(v) for v in still[rng.integers(len(still))])
        for _attempt in range(2):  # a click can be lost: the game is over only if two are
            _click(mouse, geo, *geo.cell_center(rr, cc), "left")
            shot = _after(screen, geo, last, wait)
            if not np.array_equal(patches(shot, geo), now):
                break
        if np.array_equal(patches(shot, geo), now):
            break  # the game is over: clicks do nothing
        previous, last = last, shot
        if len(shots) < 6:
            shots.append(shot)
    # The board just before the losing click too: what that click changed shows the
    # hit mine even where no number touches it.
    if not any(s is previous for s in shots):
        shots.append(previous)
    shots.append(last)
    # A dialog over the finished board (KMines: "Reset the Game? / You have lost.")
    # hides cells that were already open, which a finished game never changes.
    # Escape closes such a dialog in the usual toolkits; the board under it is
    # the one that shows every mine.
    now, before = patches(last, geo), patches(previous, geo)
    was_open = ((before - start) ** 2).mean(axis=1) > SAME_LOOK
    hidden = was_open & (((now - before) ** 2).mean(axis=1) > SAME_LOOK)
    if int(hidden.sum()) >= HIDDEN:
        mouse.key("Escape")
        closed = _settled(screen, wait)
        after = patches(closed, geo)
        if not np.array_equal(after, now):
            log("a dialog over the finished board was closed with Escape")
            # The shots with the dialog go: it shaded the cells around it too, and a
            # mine seen shaded then plain looks like a kind that changed (no mine).
            shots[-2:] = [s for s in shots[-2:] if _hides(s, after, geo, start) < HIDDEN]
            shots.append(closed)
    log(f"{len(shots)} screenshots taken")
    return shots
