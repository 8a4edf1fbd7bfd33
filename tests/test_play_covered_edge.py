"""A window over the board's edge, live: refused before play, no click under it during play.

Issue 16: a board whose last row is hidden used to be read as a smaller,
whole board and played. Each built-in skin now says what its clone draws
around the board (`vision.border`, `templates/*/skin.json`), so a grid its
border does not close on a side is refused, naming that side. Real
xdemineur under Xvfb; the box over the edge is a real window (xmessage, white).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from bot_runs import msbot_play
from displays import worker_display
from test_play_e2e import bot_running, screenshot, wait_for

from bot.play.recorder import read_jsonl
from harness.clones import RunningWindow, launch_clone, launch_window
from harness.xdisplay import VirtualDisplay, xvfb_available
from vision.geometry import Geometry
from vision.reader import BoardReader

pytestmark = [
    pytest.mark.clone,
    pytest.mark.skipif(
        not (xvfb_available() and shutil.which("xdotool") and shutil.which("xmessage")),
        reason="needs Xvfb, xdotool and xmessage",
    ),
]


@pytest.fixture
def display() -> Iterator[VirtualDisplay]:
    with worker_display(1000, 800) as xd:
        yield xd


def board_on_screen(display: VirtualDisplay) -> Geometry:
    return BoardReader().read_fresh(screenshot(display.display)).geometry


def box(display: VirtualDisplay, x: int, y: int, width: int, height: int) -> RunningWindow:
    """A plain white window at (x, y), another program's, over whatever is there."""
    return launch_window(
        "xmessage",
        ["xmessage", "-bg", "white", "-fg", "white", "-geometry", f"{width}x{height}+{x}+{y}", " "],
        display,
        window_class="xmessage",
    )


@pytest.mark.parametrize("clone", ["xdemineur", "sgt-mines", "gnome-mines", "minegauler"])
def test_a_window_over_the_last_row_before_play_is_named_and_nothing_is_clicked(
    clone: str, display: VirtualDisplay, tmp_path: Path
) -> None:
    with launch_clone(clone, "intermediate", display, position=(60, 50)):
        # xdemineur opens an area of its own when a game starts.
        before = BoardReader().read_fresh(screenshot(display.display))
        g = before.geometry
        # Over the last row and everything below it, wider than the board.
        top = round(g.top + (g.rows - 1) * g.cell_h)
        left = round(g.left) - 40
        cover = box(display, left, top, round(g.width) + 80, 120)
        try:
            out = msbot_play(display.display, "--games", "1", "--record", str(tmp_path / "rec"))
        finally:
            cover.close()
        assert out.returncode == 2, out.stdout + out.stderr
        assert "Traceback" not in out.stderr
        assert "not closed by its border on the bottom side" in out.stderr, out.stderr
        # Nothing was clicked: the board, uncovered again, is as it was.
        after = BoardReader().read_fresh(screenshot(display.display))
        assert (after.geometry.rows, after.geometry.cols) == (16, 16)
        assert after.board == before.board
        # The recording was made (its meta is there) and holds no action: the
        # file of actions is written with the first one only.
        assert (tmp_path / "rec" / "meta.json").is_file()
        assert not (tmp_path / "rec" / "actions.jsonl").exists()


def test_a_window_raised_over_the_board_edge_mid_game_gets_no_click_under_it(
    display: VirtualDisplay, tmp_path: Path
) -> None:
    with launch_clone("xdemineur", "intermediate", display, position=(60, 50)):
        g = board_on_screen(display)
        folder = tmp_path / "rec"
        args = ["play", "--json", "--games", "50", "--delay", "30", "--record", str(folder)]
        # Over the bottom-right quarter of the board and past its corner.
        x0 = round(g.left + g.width / 2)
        y0 = round(g.top + g.height / 2)
        with bot_running(display, *args) as proc:
            wait_for(lambda: len(read_jsonl(folder / "actions.jsonl")) >= 3, proc, "clicks")
            cover = box(display, x0, y0, round(g.width / 2) + 60, round(g.height / 2) + 60)
            shown_at = time.monotonic()  # the box is mapped: launch_window waits for it
            try:
                out, err = proc.communicate(timeout=60)
            finally:
                cover.close()
    # The stop names the window over the board, and not one click went under it.
    assert proc.returncode == 2, out[-2000:] + err
    assert "Traceback" not in err, err
    assert err.startswith("msbot play: error: another window (xmessage"), err
    assert "lies over the board" in err, err
    # Every action but a key press is made at a point of the screen.
    pointed = [a for a in read_jsonl(folder / "actions.jsonl") if a["kind"] != "key"]
    assert len(pointed) >= 3
    under = [a for a in pointed if a["time"] > shown_at and a["x"] >= x0 and a["y"] >= y0]
    assert under == [], under


def test_the_desktop_names_the_window_over_the_board(display: VirtualDisplay) -> None:
    """`Mouse.window_at` on X11 (what learning asks before an Escape): the clone's
    own window at its board, another one where a window lies over it."""
    from bot.actuator.xtest import XTestMouse

    with launch_clone("xdemineur", "beginner", display, position=(60, 50)):
        g = board_on_screen(display)
        mouse = XTestMouse(display.display)
        try:
            corner = mouse.window_at(round(g.left + 5), round(g.top + 5))
            middle = (round(g.left + g.width / 2), round(g.top + g.height / 2))
            assert corner and mouse.window_at(*middle) == corner
            cover = box(display, middle[0] - 20, middle[1] - 20, 60, 60)
            try:
                over = mouse.window_at(*middle)
                assert over and over != corner
                assert mouse.window_at(round(g.left + 5), round(g.top + 5)) == corner
            finally:
                cover.close()
        finally:
            mouse.close()
