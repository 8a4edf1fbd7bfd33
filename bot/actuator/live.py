"""The real mouse, through pyautogui.

pyautogui connects to the X display when it is imported (KeyError without
DISPLAY), so it is imported here, in the constructor, only when the bot is
really going to click, after DISPLAY has been set explicitly.

Pauses are set deliberately: pyautogui's default sleeps 0.1 s after every
call, which would make an expert game last a minute. The loop does not need
that sleep because it waits for the clicked cells to change on screen. The
fail-safe stays on: moving the real mouse into a screen corner aborts the run
(reported as an `ActuatorError`).
"""

from __future__ import annotations

import os
from typing import Any

from bot.actuator._base import Button, Mouse
from bot.actuator.keys import parse_keys
from bot.errors import ActuatorError

#: Seconds pyautogui sleeps after each call (its default is 0.1).
DEFAULT_PAUSE = 0.0


class PyAutoGuiMouse(Mouse):
    """Clicks on X display `display` (default: $DISPLAY)."""

    def __init__(self, display: str | None = None, pause: float = DEFAULT_PAUSE) -> None:
        name = display if display is not None else os.environ.get("DISPLAY", "")
        if not name:
            raise ActuatorError("no X display to click on: set DISPLAY (e.g. DISPLAY=:0)")
        os.environ["DISPLAY"] = name
        try:
            import pyautogui
        except Exception as exc:  # Xlib raises its own errors when the display is gone
            raise ActuatorError(f"cannot use the mouse on display {name!r}: {exc}") from exc
        self._gui: Any = pyautogui
        self._xdisplay: Any = None
        pyautogui.FAILSAFE = True
        pyautogui.PAUSE = pause
        # No tweening: the pointer jumps straight to the cell.
        pyautogui.MINIMUM_DURATION = 0.0
        self.display = name

    def _guard(self, what: str, call: Any, *args: Any, **kwargs: Any) -> None:
        try:
            call(*args, **kwargs)
        except self._gui.FailSafeException:
            raise ActuatorError(
                "pyautogui fail-safe: the mouse was moved into a screen corner; stopped"
            ) from None
        except Exception as exc:
            raise ActuatorError(f"{what} failed: {exc}") from exc

    def click(self, x: int, y: int, button: Button) -> None:
        self._guard(f"{button} click at ({x}, {y})", self._gui.click, x, y, button=button)

    def click_holding(self, x: int, y: int, button: Button, keys: tuple[str, ...]) -> None:
        gui = self._gui

        def holding() -> None:
            for key in keys:
                gui.keyDown(key)
            try:
                gui.click(x, y, button=button)
            finally:
                for key in reversed(keys):
                    gui.keyUp(key)

        self._guard(f"{'+'.join([*keys, button])} click at ({x}, {y})", holding)

    def click_both(self, x: int, y: int) -> None:
        gui = self._gui

        def both() -> None:
            gui.moveTo(x, y)
            gui.mouseDown(button="left")
            gui.mouseDown(button="right")
            gui.mouseUp(button="right")
            gui.mouseUp(button="left")

        self._guard(f"left+right click at ({x}, {y})", both)

    def move(self, x: int, y: int) -> None:
        self._guard(f"pointer move to ({x}, {y})", self._gui.moveTo, x, y)

    def check_key(self, name: str) -> None:
        for part in parse_keys(name):
            if not self._gui.isValidKey(part.lower()):
                raise ActuatorError(f"no key {part!r} on this keyboard")

    def key(self, name: str) -> None:
        parts = [p.lower() for p in parse_keys(name)]
        if len(parts) == 1:
            self._guard(f"key {name}", self._gui.press, parts[0])
        else:
            self._guard(f"key {name}", self._gui.hotkey, *parts)

    def _x(self) -> Any:
        """A python-xlib connection of our own (None off X11)."""
        if self._xdisplay is None:
            try:
                from Xlib.display import Display
            except ImportError:
                return None  # no X11 here: the desktop's own rules apply
            self._xdisplay = Display(self.display)
        return self._xdisplay

    def focus_at(self, x: int, y: int) -> None:
        from bot.actuator.xtest import give_focus

        if (display := self._x()) is not None:
            give_focus(display, x, y)

    def window_class_at(self, x: int, y: int) -> str:
        from bot.actuator.xtest import class_at

        display = self._x()
        return "" if display is None else class_at(display, x, y)

    def position(self) -> tuple[int, int]:
        x, y = self._gui.position()
        return int(x), int(y)

    def close(self) -> None:
        if self._xdisplay is not None:
            self._xdisplay.close()
            self._xdisplay = None
