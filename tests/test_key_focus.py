"""Keys reach the window they are meant for on a desktop without a window manager.

With no window manager, nothing gives a new window the keyboard focus. msbot
gives the board's window the focus before a key for the game when nobody has
it (`give_focus`); from then on that window keeps it, and an Escape meant for
a dialog the clone opened over its board later went to the board's window:
the dialog stayed, and the run stopped under it (a zoo clone's second "Game
over"). `focus_at(..., take=True)` gives the focus to the window at the point.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from bot.actuator.xtest import XTestMouse
from harness.xdisplay import VirtualDisplay

#: A main window at (100, 100), 400x300, and after 1 s a dialog over its middle
#: that prints "closed" when Escape reaches it.
APP = """
import tkinter as tk
root = tk.Tk()
root.geometry("400x300+100+100")
tk.Label(root, text="board").pack()
def dialog():
    d = tk.Toplevel(root)
    d.geometry("160x80+220+200")
    tk.Label(d, text="Game over").pack()
    d.bind("<Escape>", lambda e: (print("closed", flush=True), d.destroy()))
    print("dialog", flush=True)
root.after(1000, dialog)
root.after(4000, root.destroy)
root.mainloop()
"""


def _run(virtual_display: VirtualDisplay, take: bool) -> str:
    app = subprocess.Popen(
        [sys.executable, "-c", APP],
        env=virtual_display.env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(0.6)
        mouse = XTestMouse(virtual_display.display)
        try:
            mouse.focus_at(150, 150)  # a key for the game: its window takes the focus
            assert app.stdout is not None
            assert app.stdout.readline().strip() == "dialog"
            time.sleep(0.3)
            mouse.focus_at(300, 240, take=take)  # over the dialog
            mouse.key("Escape")
        finally:
            mouse.close()
        out, _ = app.communicate(timeout=10)
        return out
    finally:
        if app.poll() is None:
            app.kill()


@pytest.mark.parametrize("take", [True, False])
def test_escape_reaches_a_dialog_only_when_it_is_given_the_focus(
    virtual_display: VirtualDisplay, take: bool
) -> None:
    out = _run(virtual_display, take)
    assert ("closed" in out) == take
