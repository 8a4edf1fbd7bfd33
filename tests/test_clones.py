"""The clone harness on real clones under Xvfb: launched, placed, focused, sized, killed.

Each launch takes 0.4 s (xdemineur) to 1.5 s (minegauler, GNOME Mines) here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from processes import process_running
from Xlib import X
from Xlib import display as xlib_display

from harness.clones import (
    ACE,
    CLONES,
    GNOME_MINES,
    KMINES,
    MINEGAULER,
    XDEMINEUR,
    BoardSize,
    CloneError,
    RunningClone,
    RunningWindow,
    clone_spec,
    launch_window,
)
from harness.xdisplay import VirtualDisplay

LaunchClone = Callable[..., RunningClone]


def grab(display: str, box: tuple[int, int, int, int]) -> np.ndarray:
    """Pixels of a screen rectangle (x, y, w, h) as an (h, w, 3) array, via plain Xlib."""
    conn = xlib_display.Display(display)
    try:
        x, y, w, h = box
        raw = conn.screen().root.get_image(x, y, w, h, X.ZPixmap, 0xFFFFFFFF).data
        return np.frombuffer(raw, dtype=np.uint8).reshape(h, w, 4)[:, :, :3]
    finally:
        conn.close()


def focused_window(display: str) -> int:
    conn = xlib_display.Display(display)
    try:
        focus = conn.get_input_focus().focus
        return int(focus.id) if hasattr(focus, "id") else int(focus)
    finally:
        conn.close()


def test_every_clone_has_the_three_standard_sizes() -> None:
    for spec in CLONES.values():
        if spec in (ACE, KMINES):
            continue  # one board each here: ace's 32x32/200, KMines' default 9x9/10
        assert set(spec.presets) == {"beginner", "intermediate", "expert"}
        assert spec.board_size("intermediate") == BoardSize(16, 16, 40)
        assert spec.board_size("expert") == BoardSize(16, 30, 99)
    assert XDEMINEUR.board_size("beginner") == BoardSize(9, 12, 10)
    assert GNOME_MINES.board_size("beginner") == BoardSize(8, 8, 10)
    assert set(ACE.presets) == {"beginner"} and ACE.board_size("beginner") == BoardSize(32, 32, 200)


def test_sizes_a_clone_cannot_show_are_refused() -> None:
    with pytest.raises(CloneError, match="at least 12 columns"):
        XDEMINEUR.board_size(BoardSize(9, 9, 10))
    with pytest.raises(CloneError, match="only has the sizes"):
        GNOME_MINES.board_size(BoardSize(9, 9, 10))
    with pytest.raises(CloneError, match="does not fit"):
        MINEGAULER.board_size(BoardSize(3, 3, 9))
    with pytest.raises(CloneError, match="no size 'huge'"):
        MINEGAULER.board_size("huge")
    with pytest.raises(CloneError, match="unknown clone 'winmine'"):
        clone_spec("winmine")


@pytest.mark.clone
@pytest.mark.parametrize("name", sorted(CLONES))
def test_clone_is_launched_at_its_position_and_killed(
    name: str, clone: LaunchClone, virtual_display: VirtualDisplay
) -> None:
    running = clone(name, "beginner", position=(237, 151))
    x, y, w, h = running.geometry()
    assert (x, y) == (237, 151)
    assert 150 < w < 900 and 150 < h < 700
    # Something is drawn there (the screen around is black: no window manager, no desktop).
    pixels = grab(virtual_display.display, (x, y, w, h))
    assert pixels.mean() > 60
    assert grab(virtual_display.display, (0, 0, 200, 140)).max() == 0
    if running.spec.needs_focus:
        assert focused_window(virtual_display.display) == int(running.window)
    pid = running.pid
    running.close()
    assert not process_running(pid)
    running.close()  # twice is harmless


@pytest.mark.clone
@pytest.mark.parametrize("name", ["xdemineur", "sgt-mines", "minegauler"])
def test_board_size_reaches_the_clone(name: str, clone: LaunchClone) -> None:
    small = clone(name, "beginner", position=(0, 0))
    big = clone(name, "expert", position=(0, 300))
    custom = clone(name, BoardSize(13, 20, 30), position=(800, 0))
    small_w, small_h = small.geometry()[2:]
    big_w, big_h = big.geometry()[2:]
    custom_w, custom_h = custom.geometry()[2:]
    # Cells have a fixed pitch in these clones: window growth == cell count growth.
    pitch_x = (big_w - small_w) / (30 - small.size.cols)
    pitch_y = (big_h - small_h) / (16 - small.size.rows)
    assert 15 <= pitch_x <= 22
    assert pitch_x == pytest.approx(pitch_y, abs=0.01)
    assert custom_w - small_w == pytest.approx(pitch_x * (20 - small.size.cols), abs=1)
    assert custom_h - small_h == pytest.approx(pitch_y * (13 - small.size.rows), abs=1)


@pytest.mark.clone
def test_gnome_mines_window_size_is_a_setting(clone: LaunchClone) -> None:
    default = clone("gnome-mines", "beginner", position=(0, 0))
    large = clone("gnome-mines", "expert", position=(100, 100), window_size=(1100, 700))
    dw, dh = default.geometry()[2:]
    lw, lh = large.geometry()[2:]
    assert (dw, dh) == (610, 460)
    assert lw >= 1100 and lh >= 700
    # The last launched one has the focus, so it is not paused.
    assert large.spec.needs_focus


@pytest.mark.clone
def test_minegauler_keeps_its_files_in_its_private_folder(clone: LaunchClone) -> None:
    import minegauler.app.paths as paths

    before = paths.SETTINGS_FILE.exists()
    running = clone("minegauler", BoardSize(10, 11, 12))
    assert running.workdir is not None
    work = Path(running.workdir.name)
    assert (work / "runtime.log").exists()
    assert '"x_size": 11' in (work / "settings.cfg").read_text()
    running.close()
    assert paths.SETTINGS_FILE.exists() == before
    assert not work.exists()


@pytest.mark.clone
def test_a_second_window_beside_a_clone(
    clone: LaunchClone, neighbour: Callable[[tuple[int, int]], RunningWindow]
) -> None:
    running = clone("xdemineur", "beginner", position=(400, 300))
    x, y, w, _ = running.geometry()
    other = neighbour((x + w + 10, y))
    ox, oy, ow, oh = other.geometry()
    assert (ox, oy) == (x + w + 10, y) and ow > 20 and oh > 20
    assert running.alive() and other.alive()
    other.close()
    assert not other.alive()
    assert running.alive()


@pytest.mark.clone
def test_a_program_without_a_window_is_reported(virtual_display: VirtualDisplay) -> None:
    with pytest.raises(CloneError, match="exited with code"):
        launch_window("false", ["false"], virtual_display, timeout=5)
