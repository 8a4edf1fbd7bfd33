"""Which top-level windows lie over a board, as the desktop says.

Learning sends Escape to close a dialog or a menu over the board, but some
clones quit on it (ace-minesweeper, xdemineur): the key goes only when the X
server does not say that the board's own window is the one at every point
looked at (`Mouse.window_at`; None where the desktop cannot tell).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.actuator._base import Mouse
from vision.geometry import Geometry

#: Pixels around a clicked point where a menu it opened is looked for: a menu
#: opens with a corner at the pointer, down-right or (at a screen edge) up-left.
MENU_REACH = 6


def board_points(g: Geometry) -> list[tuple[int, int]]:
    """The board's middle and its four corner cells' centres."""
    xs = (g.left + g.cell_w / 2, g.left + g.width / 2, g.left + g.width - g.cell_w / 2)
    ys = (g.top + g.cell_h / 2, g.top + g.height / 2, g.top + g.height - g.cell_h / 2)
    points = [(xs[1], ys[1]), *((x, y) for x in xs[::2] for y in ys[::2])]
    return [(round(x), round(y)) for x, y in points]


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
