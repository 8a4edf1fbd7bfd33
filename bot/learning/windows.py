"""Which top-level windows lie over a board, as the desktop says.

Learning sends Escape to close a dialog or a menu over the board, but some
clones quit on it (ace-minesweeper, xdemineur): the key goes only when the X
server does not say that the board's own window is the one at every point
looked at (`Mouse.window_at`; None where the desktop cannot tell).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from bot.actuator._base import Mouse
from vision.geometry import Geometry

#: Pixels around a clicked point where a menu it opened is looked for: a menu
#: opens with a corner at the pointer, down-right or (at a screen edge) up-left.
MENU_REACH = 6
#: Most pixels between two points looked at across the board: a dialog is
#: larger (KMines' "Reset the Game?" covered 176x84 px of a 252 px board,
#: and neither its middle nor a corner).
POINT_STEP = 40


def board_points(g: Geometry, step: float = POINT_STEP) -> list[tuple[int, int]]:
    """The board's middle, then cell centres across it (corner cells included)
    at most `step` pixels apart (one X request each: a few dozen in all)."""

    def centres(first: float, cell: float, count: int) -> np.ndarray:
        n = min(count, max(2, int(np.ceil((count - 1) * cell / step)) + 1))
        return first + (np.unique(np.rint(np.linspace(0, count - 1, n))) + 0.5) * cell

    xs, ys = centres(g.left, g.cell_w, g.cols), centres(g.top, g.cell_h, g.rows)
    middle = g.middle
    grid = [(round(float(x)), round(float(y))) for y in ys for x in xs]
    return [middle, *(p for p in grid if p != middle)]


def around_point(x: int, y: int, reach: int = MENU_REACH) -> list[tuple[int, int]]:
    """A point and four points diagonally around it, where a menu opened there lies."""
    return [(x, y), *((x + dx, y + dy) for dx in (-reach, reach) for dy in (-reach, reach))]


def windows_at(mouse: Mouse, points: Iterable[tuple[int, int]]) -> set[int | None]:
    """The top-level windows at `points` (None among them: not known at one)."""
    return {mouse.window_at(x, y) for x, y in points}


def only_window(seen: set[int | None]) -> int | None:
    """The one known window of `seen` (not 0, the bare desktop), else None."""
    return (next(iter(seen)) or None) if len(seen) == 1 else None


def another_window(mouse: Mouse, own: int | None, points: Iterable[tuple[int, int]]) -> bool | None:
    """Whether a window other than `own` lies at any of `points`; None when
    the desktop cannot tell (no `own`, or a point it does not know)."""
    if own is None:
        return None
    now = windows_at(mouse, points)
    if None in now:
        return None
    return now != {own}


def beside_the_clone(mouse: Mouse, own: int | None, board: Geometry, x: int, y: int) -> str:
    """What lies at (x, y) if it is not the clone's ("" when it is, or when the
    desktop cannot tell): the bare desktop, or a window of another program.
    `own` is the board's top-level window, `board` its grid on the screen.

    A search for a clone's restart clicks parts found by their looks; the
    bare desktop around a window can look like a row of covered cells (a
    black desktop beside a zoo clone's black cells: six clicks there), and
    nothing a clone starts a game with lies outside its own windows (its
    dialogs come from the same program: `Mouse.client_at`)."""
    if own is None:
        return ""
    top = mouse.window_at(x, y)
    if top is None or top == own:
        return ""
    if top == 0:
        return "the bare desktop"
    mine, there = mouse.client_at(*board.middle), mouse.client_at(x, y)
    if mine is None or there is None or mine == there:
        return ""
    return f"another program's window ({mouse.window_class_at(x, y) or f'id {top:#x}'})"


#: Window classes of web browsers: Ctrl+N opens another window there, and a
#: page may flag with Ctrl+click (a right click is the browser's menu).
BROWSERS = ("chromium", "chrome", "firefox", "navigator", "epiphany", "konqueror", "falkon")


def is_browser(window_class: str) -> bool:
    """Whether a top-level window of this class is a web browser's."""
    return any(name in window_class.lower() for name in BROWSERS)


#: Window classes of terminal emulators: a Minesweeper played with keys in
#: text cells there is no board of tiles msbot can click.
TERMINALS = (
    "xterm",
    "terminal",
    "konsole",
    "urxvt",
    "rxvt",
    "alacritty",
    "kitty",
    "terminator",
    "tilix",
    "st-256color",
    "foot",
    "wezterm",
    "lxterm",
    "uxterm",
)


def terminal_on_screen(mouse: Mouse, size: tuple[int, int], step: int = 80) -> bool:
    """Whether a terminal emulator's window shows on the screen (points `step`
    pixels apart asked of the desktop; False where it cannot tell)."""
    width, height = size
    classes = {
        mouse.window_class_at(x, y).lower()
        for x in range(step // 2, width, step)
        for y in range(step // 2, height, step)
    }
    return any(name in kind for kind in classes for name in TERMINALS)
