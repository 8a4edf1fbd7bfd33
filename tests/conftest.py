"""Shared fixtures: a private virtual display and real clones on it.

`virtual_display` starts Xvfb (1600x1000) on a free display number from :100
up; `clone` is a factory that launches real clones on that display and closes
every one of them (by PID) when the test ends, passed or failed:

    def test_something(clone):
        xd = clone("xdemineur", "beginner", position=(300, 200))
        ...   # xd.display, xd.geometry(), xd.size, xd.spec.skin

`neighbour((x, y))` puts another, unrelated window (xmessage) on the same
display, for tests that need the board among other windows.

Tests using them are skipped only when Xvfb itself is missing (a machine
without X tools); a missing clone is a failure, because `make test` installs
them all.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

# One thread each for OpenBLAS (set before numpy is first imported) and OpenCV,
# as `msbot` itself runs (`bot.cli`): each pytest-xdist worker has a core at
# most, and pools of threads per worker fight over the same cores (the HiDPI
# tests: 30 s of user and 12 s of system CPU with the pools, 24 s and 0.6 s
# without).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2
import pytest
from displays import worker_display

from harness.clones import BoardSize, RunningClone, RunningWindow, launch_clone, launch_window
from harness.xdisplay import VirtualDisplay, xvfb_available

# The clone zoo (`benchmarks/zoo`) is test infrastructure, imported as `zoo`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

# Skins learned by the tests go to a folder of this run's own, never to the
# person's (`vision.skin.learned_dir`), and are gone afterwards.
_LEARNED = tempfile.TemporaryDirectory(prefix="msbot-test-learned-")
os.environ["MSBOT_LEARNED"] = _LEARNED.name

#: Fixtures that start an X server: every test using one is marked `display`.
DISPLAY_FIXTURES = frozenset({"virtual_display", "display", "clone", "neighbour"})

LaunchClone = Callable[..., RunningClone]
LaunchNeighbour = Callable[[tuple[int, int]], RunningWindow]


def pytest_configure(config: pytest.Config) -> None:
    cv2.setNumThreads(1)


#: Modules whose tests each take 15 to 90 s (a clone learned live and played),
#: longest first: they run first (`pytest_collection_modifyitems`).
LONG_MODULES = ("test_zoo_play.py", "test_learn_play_unseen.py", "test_learn_skin_live.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `display` every test that needs a screen, so that `make check` (the
    quick loop: `-m "not display"`) can leave them out without a list to keep.

    The long tests go first: `make test` runs the suite on every core (a
    worker more than cores), pytest-xdist handing each worker its next test
    when it is done with one (`--maxschedchunk 1`); a long test left for the
    end would keep one worker busy while the others wait (472 s of pytest in
    the collected order, 434 s long tests first, same tests, two workers)."""
    for item in items:
        # A parameter that only shares a fixture's name (`clone` in
        # `@pytest.mark.parametrize("clone", ...)`) starts no display.
        params = set(getattr(getattr(item, "callspec", None), "params", {}))
        fixtures = set(getattr(item, "fixturenames", ())) - params
        if fixtures & DISPLAY_FIXTURES or item.get_closest_marker("clone") is not None:
            item.add_marker(pytest.mark.display)

    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return LONG_MODULES.index(name) if name in LONG_MODULES else len(LONG_MODULES)

    items.sort(key=rank)  # stable: the order within each module is kept


@pytest.fixture(autouse=True)
def _no_display_in_the_quick_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under `make check` (MSBOT_TEST_NO_DISPLAY=1), a test that starts Xvfb
    without being marked fails, rather than slowing the quick loop down."""
    if os.environ.get("MSBOT_TEST_NO_DISPLAY") != "1":
        return

    def refuse(self: VirtualDisplay, xvfb: str, number: int) -> tuple[bool, str]:
        raise AssertionError(
            "this test starts Xvfb but is not marked `display` (pytest.mark.display)"
        )

    monkeypatch.setattr(VirtualDisplay, "_try_start", refuse)


@pytest.fixture
def virtual_display() -> Iterator[VirtualDisplay]:
    """A fresh 1600x1000 Xvfb for one test, stopped by PID afterwards."""
    if not xvfb_available():
        pytest.skip("Xvfb is not installed (Debian package xvfb; `make test` installs it)")
    if shutil.which("xdotool") is None:
        pytest.fail("xdotool is missing although Xvfb is there: run scripts/install-system-deps")
    with worker_display(1600, 1000) as xd:
        yield xd


@pytest.fixture
def clone(virtual_display: VirtualDisplay) -> Iterator[LaunchClone]:
    """Factory: `clone(name, size="beginner", position=(x, y), window_size=None,
    cell_size=None)`."""
    started: list[RunningClone] = []

    def launch(
        name: str,
        size: str | BoardSize = "beginner",
        position: tuple[int, int] = (0, 0),
        window_size: tuple[int, int] | None = None,
        cell_size: int | None = None,
    ) -> RunningClone:
        running = launch_clone(
            name, size, virtual_display, position, window_size=window_size, cell_size=cell_size
        )
        started.append(running)
        return running

    try:
        yield launch
    finally:
        for running in started:
            running.close()


@pytest.fixture
def neighbour(virtual_display: VirtualDisplay) -> Iterator[LaunchNeighbour]:
    """Factory: `neighbour((x, y))` opens an unrelated window there; closed by PID afterwards."""
    started: list[RunningWindow] = []

    def launch(position: tuple[int, int]) -> RunningWindow:
        window = launch_window(
            "xmessage",
            ["xmessage", "-name", "neighbour", "Another window beside the game"],
            virtual_display,
            window_class="neighbour",
        )
        started.append(window)
        window.move(*position)
        return window

    try:
        yield launch
    finally:
        for window in started:
            window.close()
