"""Display numbers for tests, one block per pytest-xdist worker.

`make test` runs the suite on every core (pytest-xdist), and every test that
needs a screen starts an Xvfb of its own. `VirtualDisplay` already survives two
processes racing for one number (Xvfb's lock file decides, `-displayfd` tells
who won), but a block per worker keeps the workers out of each other's way
altogether: worker gwN starts looking at base + 20 * N, where base is
MSBOT_TEST_DISPLAY_FIRST (default 100), for machines where several people
share the numbers.
"""

from __future__ import annotations

import os

from harness.xdisplay import VirtualDisplay

#: Display numbers each worker may use (a test uses one or two at a time).
WORKER_BLOCK = 20


def worker_index() -> int:
    """0 for the first pytest-xdist worker (or no xdist at all), 1 for the next..."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    digits = name.removeprefix("gw")
    return int(digits) if digits.isdigit() else 0


def first_display() -> int:
    """The first display number this test process tries."""
    base = int(os.environ.get("MSBOT_TEST_DISPLAY_FIRST", "100"))
    return base + WORKER_BLOCK * worker_index()


def worker_display(width: int = 1600, height: int = 1000) -> VirtualDisplay:
    """A not yet started Xvfb of this size in this worker's block of numbers."""
    return VirtualDisplay(width, height, first=first_display(), tries=WORKER_BLOCK)
