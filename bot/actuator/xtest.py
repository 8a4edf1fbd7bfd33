"""The real mouse through the X server's XTest extension (python-xlib): the
same clicks as pyautogui at a fraction of the cost.

Measured on Xvfb (benchmarks/bench_play.py): pyautogui spends about 3 ms per
click, most of it in five pointer queries for its fail-safe and a sync after
every event; an expert game makes 300-400 clicks, so that is a second of a
2-3 s game. This backend sends the events and flushes once per click (about
0.3 ms) and keeps the same fail-safe: before every click it asks where the
pointer is, and if a person has pushed it into a screen corner it stops
(`ActuatorError`), exactly like pyautogui's FAILSAFE.
"""

from __future__ import annotations

import os
from typing import Any

from bot.actuator._base import Button, Mouse
from bot.actuator.keys import MODIFIERS, parse_keys
from bot.errors import ActuatorError

BUTTONS = {"left": 1, "middle": 2, "right": 3}


def class_at(display: Any, x: int, y: int) -> str:
    """WM_CLASS (instance and class, joined) of the top-level window at (x, y)."""
    try:
        root = display.screen().root
        child = root.translate_coords(root, x, y).child
        if not child:
            return ""
        names = child.get_wm_class() or ()
        if not names:
            for sub in child.query_tree().children:
                names = sub.get_wm_class() or ()
                if names:
                    break
        return " ".join(names)
    except Exception:
        return ""


def client_at(display: Any, x: int, y: int) -> int | None:
    """The X client (connection) that made the application window at (x, y):
    the resource-id base of the window holding its WM_CLASS (the top-level
    window, or the one inside a window manager's frame). A clone's dialog and
    its board share it; another program's window does not. None over the bare
    desktop, for a window without WM_CLASS, or when the server cannot tell."""
    try:
        root = display.screen().root
        child = root.translate_coords(root, x, y).child
        if not child:
            return None
        holder = child if child.get_wm_class() else None
        if holder is None:
            holder = next((sub for sub in child.query_tree().children if sub.get_wm_class()), None)
        if holder is None:
            return None
        return int(holder.id) & ~int(display.display.info.resource_id_mask)
    except Exception:
        return None


def window_id_at(display: Any, x: int, y: int) -> int | None:
    """The id of the top-level window at (x, y): 0 over the bare desktop, None
    when the server cannot tell."""
    try:
        root = display.screen().root
        child = root.translate_coords(root, x, y).child
        return int(child.id) if child else 0
    except Exception:
        return None


def shown(display: Any, window: int) -> bool | None:
    """Whether top-level window `window` is still on the screen (it exists and
    is mapped): False once it was closed or minimised, None when the server
    cannot tell. A board's window that moved away from under a click is still
    shown; one that was closed is not."""
    from Xlib import X, error

    try:
        attributes = display.create_resource_object("window", window).get_attributes()
    except (error.BadWindow, error.BadDrawable):
        return False
    except Exception:
        return None
    return bool(attributes.map_state == X.IsViewable)


def rect_at(display: Any, x: int, y: int) -> tuple[int, int, int, int] | None:
    """(x, y, width, height) on the screen of the top-level window at (x, y);
    None over the bare desktop or when the server cannot tell."""
    try:
        root = display.screen().root
        child = root.translate_coords(root, x, y).child
        if not child:
            return None
        geometry = child.get_geometry()
        origin = child.translate_coords(root, 0, 0)
        return (-int(origin.x), -int(origin.y), int(geometry.width), int(geometry.height))
    except Exception:
        return None


def give_focus(display: Any, x: int, y: int, take: bool = False) -> None:
    """Without a window manager, the top-level window at (x, y) gets the keyboard
    focus when no window has it (a clone's dialog that had it just closed). A
    window that has it (a dialog over the board) keeps it unless `take` (the
    key is for the window at (x, y)), and a window manager's choice always
    stands."""
    from Xlib import X

    try:
        root = display.screen().root
        wm = display.intern_atom("_NET_SUPPORTING_WM_CHECK")
        if root.get_full_property(wm, X.AnyPropertyType) is not None:
            return
        focus = display.get_input_focus().focus
        child = root.translate_coords(root, x, y).child
        nobody = focus in (X.NONE, X.PointerRoot) or focus == root
        if child and (nobody or take) and focus != child:
            display.set_input_focus(child, X.RevertToParent, X.CurrentTime)
            display.sync()
    except Exception as exc:
        raise ActuatorError(f"cannot give the window at ({x}, {y}) the focus: {exc}") from exc


class XTestMouse(Mouse):
    """Clicks on X display `display` (default: $DISPLAY) with XTest fake input."""

    def __init__(self, display: str | None = None) -> None:
        name = display if display is not None else os.environ.get("DISPLAY", "")
        if not name:
            raise ActuatorError("no X display to click on: set DISPLAY (e.g. DISPLAY=:0)")
        try:
            from Xlib import XK, X
            from Xlib.display import Display
            from Xlib.ext import xtest
        except ImportError as exc:
            raise ActuatorError(f"python-xlib is not installed: {exc}") from exc
        try:
            self._display: Any = Display(name)
        except Exception as exc:
            raise ActuatorError(f"cannot open X display {name!r}: {exc}") from exc
        if not self._display.has_extension("XTEST"):
            raise ActuatorError(f"X display {name!r} has no XTEST extension")
        self._X, self._XK, self._xtest = X, XK, xtest
        screen = self._display.screen()
        self._root = screen.root
        self._size = (int(screen.width_in_pixels), int(screen.height_in_pixels))
        self.display = name
        self._closed = False

    def _failsafe(self) -> None:
        pointer = self._root.query_pointer()
        x, y = int(pointer.root_x), int(pointer.root_y)
        w, h = self._size
        if (x, y) in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
            raise ActuatorError("fail-safe: the mouse was moved into a screen corner; stopped")

    def _send(self, events: list[tuple[int, int]], x: int, y: int) -> None:
        self._failsafe()
        try:
            fake = self._xtest.fake_input
            fake(self._display, self._X.MotionNotify, x=x, y=y)
            for kind, detail in events:
                fake(self._display, kind, detail)
            self._display.flush()
        except Exception as exc:
            raise ActuatorError(f"XTest input at ({x}, {y}) failed: {exc}") from exc

    def click(self, x: int, y: int, button: Button) -> None:
        b = BUTTONS[button]
        self._send([(self._X.ButtonPress, b), (self._X.ButtonRelease, b)], x, y)

    def click_holding(self, x: int, y: int, button: Button, keys: tuple[str, ...]) -> None:
        codes = [self._keycode(k) for k in keys]
        b = BUTTONS[button]
        press, release = self._X.ButtonPress, self._X.ButtonRelease
        down = [(self._X.KeyPress, c) for c in codes]
        up = [(self._X.KeyRelease, c) for c in reversed(codes)]
        self._send([*down, (press, b), (release, b), *up], x, y)

    def click_both(self, x: int, y: int) -> None:
        press, release = self._X.ButtonPress, self._X.ButtonRelease
        self._send([(press, 1), (press, 3), (release, 3), (release, 1)], x, y)

    def move(self, x: int, y: int) -> None:
        self._send([], x, y)

    def _keycode(self, name: str) -> int:
        name = MODIFIERS.get(name, name)
        keysym = self._XK.string_to_keysym(name)
        if not keysym:
            keysym = self._XK.string_to_keysym(name.capitalize())
        if not keysym and len(name) > 1:
            keysym = self._XK.string_to_keysym(name.upper())
        keycode = self._display.keysym_to_keycode(keysym) if keysym else 0
        if not keycode:
            raise ActuatorError(f"no key {name!r} on this keyboard")
        return int(keycode)

    def check_key(self, name: str) -> None:
        for part in parse_keys(name):
            self._keycode(part)

    def key(self, name: str) -> None:
        codes = [self._keycode(part) for part in parse_keys(name)]
        try:
            for code in codes:
                self._xtest.fake_input(self._display, self._X.KeyPress, code)
            for code in reversed(codes):
                self._xtest.fake_input(self._display, self._X.KeyRelease, code)
            self._display.flush()
        except Exception as exc:
            raise ActuatorError(f"key {name} failed: {exc}") from exc

    def focus_at(self, x: int, y: int, take: bool = False) -> None:
        give_focus(self._display, x, y, take)

    def window_class_at(self, x: int, y: int) -> str:
        return class_at(self._display, x, y)

    def window_at(self, x: int, y: int) -> int | None:
        return window_id_at(self._display, x, y)

    def client_at(self, x: int, y: int) -> int | None:
        return client_at(self._display, x, y)

    def window_rect_at(self, x: int, y: int) -> tuple[int, int, int, int] | None:
        return rect_at(self._display, x, y)

    def window_shown(self, window: int) -> bool | None:
        return shown(self._display, window)

    def position(self) -> tuple[int, int]:
        pointer = self._root.query_pointer()
        return int(pointer.root_x), int(pointer.root_y)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._display.close()
