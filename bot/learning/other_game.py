"""Ending a game of another size that a level menu started (`restart._through_menu`).

A clone whose new game goes through a level menu may show its way back to that
menu only when a game ends: the "Play" of its end-of-game dialog (zoo seeds
650718506, 374625599). When the menu's first level tried is another size, the
search stands before a fresh game it did not ask for, with no way back to the
menu but to end that game. It is ended here the quickest way: its cells opened
one after another until the way back shows again (a mine hit, or the game won).

Only a fresh board is opened (a lattice of one covered look, as the live
learner asks before its first probe), each click on the clone's own window
(`windows.beside_the_clone`), never a cell already open, and at most
MOST_OPENS of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from bot.errors import VisionError
from bot.learning.settle import settled
from bot.learning.windows import beside_the_clone
from bot.play.learner import RestartHost
from vision.cuts import find_cuts
from vision.learn.grid import cut_patches, find_board, likeness

#: Cells opened at most: a game that has not ended by then is left as it is.
MOST_OPENS = 60
#: Seconds an open gets to show before the next (its game may end with it).
OPEN_WAIT = 0.15
#: Mean squared difference of a cell's patch from its fresh one above which
#: the cell is no longer covered (an open area, a mine).
OPENED = 100.0


def end_other_game(
    player: RestartHost,
    own: int | None,
    way_back: Callable[[], bool],
    seed: int = 0,
    sides: frozenset[str] = frozenset(),
) -> bool:
    """Open the fresh board in the window's region, cell after cell (in an
    order drawn from `seed`), until `way_back()` says the way back to the menu
    shows; whether it does. False at once when the region shows no fresh board
    (nothing is clicked then). `own`: the clone's top-level window.

    `sides` ("top", "bottom", "left", "right"): where the learner found buttons
    drawn like covered cells beside the board (`toolbar_sides`). The grid
    found here may take their line in (zoo seed 762546751's five buttons above
    the board were its first row, and every open was meant a row lower), so
    its outer line on those sides is never opened."""
    window, actuator = player.window, player.actuator
    region = window.region
    assert region is not None
    image = np.asarray(settled(window.screen, region))
    try:
        geo = find_board(image)
    except VisionError:
        return False
    if not likeness(image, geo).fresh:
        return False
    cuts = find_cuts(image, geo)
    fresh = cut_patches(image, cuts)
    on_screen = geo.shifted(region.left, region.top)
    order = np.random.default_rng(seed).permutation(geo.rows * geo.cols)
    rows, cols = np.divmod(order, geo.cols)
    edges = {"top": rows == 0, "bottom": rows == geo.rows - 1}
    edges |= {"left": cols == 0, "right": cols == geo.cols - 1}
    keep = np.ones(len(order), bool)
    for side in sides:
        keep &= ~edges[side]
    opens = 0
    for index in order[keep].tolist():
        if way_back():
            return True
        if opens >= MOST_OPENS:
            return False
        now = cut_patches(np.asarray(window.screen.grab(region)), cuts)
        if float(((now[index] - fresh[index]) ** 2).mean()) > OPENED:
            continue  # opened by an earlier click's area
        r, c = divmod(index, geo.cols)
        x = round(on_screen.left + (c + 0.5) * on_screen.cell_w)
        y = round(on_screen.top + (r + 0.5) * on_screen.cell_h)
        if beside_the_clone(actuator.mouse, own, on_screen, x, y):
            return False
        actuator.bind(on_screen)
        done = actuator.open(r, c, "learn: end the game of another size the menu started")
        player.actions += 1
        player.recorder.action(done.to_json(), game=player.game, frame=player.frame_name)
        opens += 1
        time.sleep(OPEN_WAIT)
    return way_back()


def toolbar_sides(
    toolbar: Sequence[tuple[float, float, float, float]], width: float, height: float
) -> frozenset[str]:
    """The sides of a board `width` x `height` px on which the boxes of
    `toolbar` (from the board's top-left) lie."""
    sides = set()
    for x0, y0, x1, y1 in toolbar:
        if y1 <= 0:
            sides.add("top")
        elif y0 >= height:
            sides.add("bottom")
        elif x1 <= 0:
            sides.add("left")
        elif x0 >= width:
            sides.add("right")
    return frozenset(sides)
