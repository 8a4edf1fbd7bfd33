"""The actuator's safety layer and backends.

The safety rules are tested through the dry-run mouse (a real backend that
records instead of clicking); the pyautogui backend is tested on a real
virtual display in a child process, because pyautogui binds to one display
for the life of the process that imports it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from displays import worker_display

from bot.actuator import Actuator, DryRunMouse
from bot.errors import ActuatorError
from harness.xdisplay import xvfb_available
from vision.geometry import Geometry

GEOMETRY = Geometry(left=100, top=200, cell_w=21, cell_h=21, rows=9, cols=12)
ROOT = Path(__file__).resolve().parents[1]


def actuator(chord: str = "middle") -> tuple[Actuator, DryRunMouse]:
    mouse = DryRunMouse()
    act = Actuator(mouse, chord)  # type: ignore[arg-type]
    act.bind(GEOMETRY, {"restart": (160, 150)})
    return act, mouse


def test_cells_are_clicked_at_their_centres_with_the_right_button() -> None:
    act, mouse = actuator()
    act.open(0, 0, "certain")
    act.flag(8, 11)
    act.chord(4, 5)
    c = GEOMETRY.cell_center
    assert mouse.pressed == [("left", *c(0, 0)), ("right", *c(8, 11)), ("middle", *c(4, 5))]
    assert c(8, 11) == (342, 378)  # 100 + 11.5 * 21, 200 + 8.5 * 21, rounded
    assert [a.kind for a in act.history] == ["open", "flag", "chord"]
    assert act.history[0].why == "certain"
    assert all(GEOMETRY.contains(a.x, a.y) for a in act.history if a.x is not None)


@pytest.mark.parametrize("cell", [(-1, 0), (0, -1), (9, 0), (0, 12), (100, 100)])
def test_clicks_outside_the_board_are_refused(cell: tuple[int, int]) -> None:
    act, mouse = actuator()
    with pytest.raises(ActuatorError, match="outside"):
        act.open(*cell)
    with pytest.raises(ActuatorError, match="outside"):
        act.flag(*cell)
    assert mouse.pressed == [] and act.history == []


def test_nothing_is_clicked_before_a_board_is_located() -> None:
    mouse = DryRunMouse()
    act = Actuator(mouse)
    with pytest.raises(ActuatorError, match="no board located"):
        act.open(0, 0)
    assert mouse.pressed == []


def test_controls_must_be_declared_by_the_reading() -> None:
    act, mouse = actuator()
    act.click_control("restart")
    with pytest.raises(ActuatorError, match="no control 'menu'"):
        act.click_control("menu")
    assert mouse.pressed == [("left", 160, 150)]


def test_chord_styles_follow_the_skin() -> None:
    for style, pressed in [("left", "left"), ("middle", "middle"), ("both", "left+right")]:
        act, mouse = actuator(style)
        act.chord(1, 1)
        assert mouse.pressed[0][0] == pressed
    act, mouse = actuator("none")
    with pytest.raises(ActuatorError, match="cannot chord"):
        act.chord(1, 1)
    with pytest.raises(ActuatorError, match="unknown chord style"):
        Actuator(DryRunMouse(), "thumb")  # type: ignore[arg-type]


def test_dry_run_says_what_it_would_do() -> None:
    said: list[str] = []
    act = Actuator(DryRunMouse(said.append))
    act.bind(GEOMETRY)
    act.open(0, 1)
    act.press_key("n")
    assert said == ["would click left at (132, 210)", "would press key n"]


needs_x = pytest.mark.skipif(
    not (xvfb_available() and shutil.which("xdotool")), reason="needs Xvfb and xdotool"
)

CLICKER = """
import sys
from bot.actuator import Actuator
from bot.actuator.live import PyAutoGuiMouse
from vision.geometry import Geometry
act = Actuator(PyAutoGuiMouse(sys.argv[1]))
act.bind(Geometry(100, 200, 21, 21, 9, 12))
act.open(2, 3)
try:
    act.open(9, 0)
except Exception as exc:
    print("refused:", exc)
"""


@needs_x
@pytest.mark.display
def test_pyautogui_backend_moves_the_real_pointer_to_the_cell() -> None:
    with worker_display(800, 600) as xd:
        env = dict(os.environ, DISPLAY="")  # the backend must not rely on DISPLAY
        out = subprocess.run(
            [sys.executable, "-c", CLICKER, xd.display],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert out.returncode == 0, out.stderr
        assert "refused: cell (9, 0) is outside the 12x9 board" in out.stdout
        where = subprocess.run(
            ["xdotool", "getmouselocation"], env=xd.env, capture_output=True, text=True, timeout=10
        ).stdout
        # cell (2, 3): x = 100 + 3.5 * 21, y = 200 + 2.5 * 21
        assert where.startswith("x:174 y:252 "), where


@needs_x
@pytest.mark.display
def test_xtest_backend_clicks_where_asked_and_keeps_the_fail_safe() -> None:
    from bot.actuator.xtest import XTestMouse

    with worker_display(800, 600) as xd:
        mouse = XTestMouse(xd.display)
        try:
            act = Actuator(mouse, "both")
            act.bind(GEOMETRY)
            act.chord(2, 3)
            assert mouse.position() == GEOMETRY.cell_center(2, 3)
            act.hover(0, 0)
            assert mouse.position() == GEOMETRY.cell_center(0, 0)
            # A person pushes the pointer into a corner: the next click is refused.
            subprocess.run(["xdotool", "mousemove", "0", "0"], env=xd.env, check=True, timeout=10)
            with pytest.raises(ActuatorError, match="fail-safe"):
                act.open(1, 1)
            assert mouse.position() == (0, 0)
        finally:
            mouse.close()


TK_WINDOWS = """
import tkinter as tk
root = tk.Tk(); root.geometry("300x300+0+0")
def won():  # once the board's window shows, as a clone's "You won" does
    dialog = tk.Toplevel(root); dialog.geometry("120x80+90+110")
    tk.Label(dialog, text="You won").pack()
root.after(500, won); root.after(20000, root.destroy); root.mainloop()
"""


@needs_x
@pytest.mark.display
def test_the_desktop_tells_a_clones_own_dialog_from_another_programs_window() -> None:
    import time

    from bot.actuator.xtest import XTestMouse

    with worker_display(800, 600) as xd:
        tk_app = subprocess.Popen([sys.executable, "-c", TK_WINDOWS], env=xd.env)
        other = subprocess.Popen(["xmessage", "-geometry", "+400+100", "a note"], env=xd.env)
        mouse = XTestMouse(xd.display)
        try:
            points = {"board": (20, 20), "dialog": (150, 150), "other": (420, 120)}
            deadline = time.monotonic() + 20
            tops = {name: mouse.window_at(*p) for name, p in points.items()}
            while time.monotonic() < deadline and not (
                len(set(tops.values())) == 3 and all(tops.values())
            ):
                time.sleep(0.1)  # until all three windows are mapped
                tops = {name: mouse.window_at(*p) for name, p in points.items()}
            assert len(set(tops.values())) == 3 and all(tops.values()), tops
            clients = {name: mouse.client_at(*p) for name, p in points.items()}
            assert clients["board"] is not None
            assert clients["dialog"] == clients["board"]
            assert clients["other"] not in (None, clients["board"])
            assert mouse.client_at(700, 500) is None  # the bare desktop
            # Moved away from a point, a window is still shown; closed, it is not.
            note = tops["other"]
            assert note is not None
            move = ["xdotool", "windowmove", str(note), "500", "400"]
            subprocess.run(move, env=xd.env, check=True, timeout=10)
            while time.monotonic() < deadline and mouse.window_at(*points["other"]) != 0:
                time.sleep(0.05)
            assert mouse.window_at(*points["other"]) == 0
            assert mouse.window_shown(note) is True
            other.kill()
            other.wait(timeout=10)
            while time.monotonic() < deadline and mouse.window_shown(note):
                time.sleep(0.05)
            assert mouse.window_shown(note) is False
        finally:
            mouse.close()
            for proc in (tk_app, other):
                proc.kill()
                proc.wait(timeout=10)
