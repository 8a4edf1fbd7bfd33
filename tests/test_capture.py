"""Screen input: regions, replayed frames, and mss grabs of a real X display."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from displays import worker_display

from bot.errors import VisionError
from harness.xdisplay import xvfb_available
from vision.capture import Region, crop, freeze, frozen
from vision.capture.replay import ReplayScreen


def test_region_parses_l_t_w_h_and_rejects_anything_else() -> None:
    assert Region.parse("10, 20,300,200") == Region(10, 20, 300, 200)
    for bad in ["10,20,300", "a,b,c,d", "0,0,0,5", "-1,0,5,5", ""]:
        with pytest.raises(VisionError):
            Region.parse(bad)


def test_region_clipping_and_containment() -> None:
    r = Region(1500, 900, 300, 300)
    assert r.clipped(1600, 1000) == Region(1500, 900, 100, 100)
    assert r.contains(1500, 900) and not r.contains(1800, 900)
    with pytest.raises(VisionError, match="outside"):
        Region(2000, 0, 10, 10).clipped(1600, 1000)


def test_crop_is_the_region_of_the_picture() -> None:
    image = np.arange(6 * 8 * 3, dtype=np.uint8).reshape(6, 8, 3)
    assert np.array_equal(crop(image, Region(2, 1, 3, 4)), image[1:5, 2:5])
    with pytest.raises(VisionError, match="does not fit"):
        crop(image, Region(6, 0, 3, 3))


def test_replay_screen_steps_through_a_recording_folder(tmp_path: Path) -> None:
    frames = tmp_path / "rec" / "frames"
    frames.mkdir(parents=True)
    for i in range(3):
        cv2.imwrite(str(frames / f"{i + 1:04d}.png"), np.full((10, 20, 3), i * 50, np.uint8))
    screen = ReplayScreen([tmp_path / "rec"])
    assert screen.size == (20, 10)
    seen = [int(screen.grab()[0, 0, 0])]
    while screen.advance():
        seen.append(int(screen.grab(Region(5, 5, 2, 2))[0, 0, 0]))
    assert seen == [0, 50, 100]
    assert screen.current.name == "0003.png"
    assert frozen(screen.grab()) and frozen(screen.grab(Region(5, 5, 2, 2)))


def test_a_snapshot_is_frozen_and_a_read_only_view_of_a_writable_array_is_not() -> None:
    """`frozen` is what lets the reader keep a frame instead of a copy: it must
    say yes only when no array can change those pixels."""
    image = np.zeros((6, 8, 3), np.uint8)
    assert not frozen(image)
    view = image[1:4]
    view.flags.writeable = False
    assert not frozen(view)  # `image` can still change it
    snap = freeze(image.copy())
    assert frozen(snap) and frozen(snap[1:4, 2:5])
    with pytest.raises(ValueError, match="read-only"):
        snap[0, 0] = 1


def test_replay_screen_reports_missing_and_empty_inputs(tmp_path: Path) -> None:
    with pytest.raises(VisionError, match="no such file"):
        ReplayScreen([tmp_path / "nope"])
    with pytest.raises(VisionError, match="no PNG frames"):
        ReplayScreen([tmp_path])


@pytest.mark.display
@pytest.mark.skipif(
    not (xvfb_available() and shutil.which("xmessage")), reason="needs Xvfb and xmessage"
)
def test_live_screen_grabs_what_x_shows() -> None:
    from vision.capture.live import LiveScreen

    with worker_display(640, 480) as xd:
        # A white window at a known place on a black screen, drawn by the X server.
        win = subprocess.Popen(
            ["xmessage", "-geometry", "200x100+50+60", "-bg", "white", " "],
            env=xd.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            with LiveScreen(xd.display) as screen:
                assert screen.size == (640, 480)
                deadline = time.monotonic() + 10
                full = screen.grab()
                while not (full[100, 150] == 255).all() and time.monotonic() < deadline:
                    time.sleep(0.02)
                    full = screen.grab()
                assert full.shape == (480, 640, 3) and full.dtype == np.uint8
                assert frozen(full)  # a snapshot: the reader keeps it, never a copy
                assert (full[100, 150] == 255).all()
                assert (full[10, 10] == 0).all()
                # xmessage may still be drawing its label: compare a region grab
                # with full grabs taken before and after it that agree.
                while True:
                    region = screen.grab(Region(40, 50, 100, 80))
                    after = screen.grab()
                    if np.array_equal(full, after) or time.monotonic() > deadline:
                        break
                    full = after
                assert np.array_equal(region, after[50:130, 40:140])
        finally:
            win.kill()
            win.wait()
