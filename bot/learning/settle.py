"""Waiting for the screen while learning: until a click shows, and until the picture is still.

A learner compares pictures, so it must never compare one caught half way
through a redraw: every picture it keeps is one the screen showed, unchanged,
for a moment (`still` seconds). A clock ticking once a second leaves such
moments between its ticks; a clone that never stops changing is given up on
after `timeout`, with the last picture.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from vision.capture import Image, Region, Screen

#: Seconds a picture must stay unchanged to count as settled.
STILL = 0.12
#: Seconds between two grabs while waiting.
POLL = 0.01


def settled(
    screen: Screen,
    region: Region | None,
    *,
    still: float = STILL,
    timeout: float = 2.0,
    clock: Callable[[], float] = time.monotonic,
) -> Image:
    """A grab of `region` once it has not changed for `still` seconds (or the
    last one after `timeout`)."""
    last = screen.grab(region)
    since = start = clock()
    while clock() - start < timeout:
        time.sleep(POLL)
        shot = screen.grab(region)
        if shot.shape != last.shape or not np.array_equal(shot, last):
            last, since = shot, clock()
        elif clock() - since >= still:
            return shot
    return last


def after_change(
    screen: Screen,
    region: Region | None,
    changed: Callable[[Image], bool],
    *,
    timeout: float = 1.0,
    still: float = STILL,
    clock: Callable[[], float] = time.monotonic,
) -> Image | None:
    """The settled picture once `changed(grab)` holds; None if it never did
    within `timeout` (the click did nothing)."""
    start = clock()
    while clock() - start < timeout:
        shot = screen.grab(region)
        if changed(shot):
            done = settled(screen, region, still=still, clock=clock)
            return done if changed(done) else None
        time.sleep(POLL)
    return None
