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
import sys
from typing import Any

from bot.actuator._base import Button, Mouse
from bot.actuator.keys import parse_keys
from bot.actuator.points import PointMap
from bot.errors import ActuatorError
from vision.capture.live import LiveScreen

#: Seconds pyautogui sleeps after each call (its default is 0.1).
DEFAULT_PAUSE = 0.0


class PyAutoGuiMouse(Mouse):
    """Clicks on X display `display` (default: $DISPLAY), or on the desktop of
    Windows or macOS (`platform`: `sys.platform`), at the capture's pixels
    mapped to the mouse's coordinates by `points` (`bot.actuator.points`)."""

    def __init__(
        self,
        display: str | None = None,
        pause: float = DEFAULT_PAUSE,
        points: PointMap | None = None,
        platform: str = sys.platform,
    ) -> None:
        name = ""
        if platform not in ("win32", "cygwin", "darwin"):
            name = display if display is not None else os.environ.get("DISPLAY", "")
            if not name:
                raise ActuatorError("no X display to click on: set DISPLAY (e.g. DISPLAY=:0)")
            os.environ["DISPLAY"] = name
        try:
            import pyautogui
        except Exception as exc:  # Xlib raises its own errors when the display is gone
            where = f"display {name!r}" if name else "this desktop"
            raise ActuatorError(f"cannot use the mouse on {where}: {exc}") from exc
        self.points = points or PointMap()
        self.platform = platform
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
        mx, my = self.points.to_mouse(x, y)
        self._guard(f"{button} click at ({x}, {y})", self._gui.click, mx, my, button=button)

    def click_holding(self, x: int, y: int, button: Button, keys: tuple[str, ...]) -> None:
        gui = self._gui
        mx, my = self.points.to_mouse(x, y)

        def holding() -> None:
            for key in keys:
                gui.keyDown(key)
            try:
                gui.click(mx, my, button=button)
            finally:
                for key in reversed(keys):
                    gui.keyUp(key)

        self._guard(f"{'+'.join([*keys, button])} click at ({x}, {y})", holding)

    def click_both(self, x: int, y: int) -> None:
        gui = self._gui
        mx, my = self.points.to_mouse(x, y)

        def both() -> None:
            gui.moveTo(mx, my)
            gui.mouseDown(button="left")
            gui.mouseDown(button="right")
            gui.mouseUp(button="right")
            gui.mouseUp(button="left")

        self._guard(f"left+right click at ({x}, {y})", both)

    def move(self, x: int, y: int) -> None:
        mx, my = self.points.to_mouse(x, y)
        self._guard(f"pointer move to ({x}, {y})", self._gui.moveTo, mx, my)

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
        if not self.display:
            return None
        if self._xdisplay is None:
            try:
                from Xlib.display import Display
            except ImportError:
                return None  # no X11 here: the desktop's own rules apply
            self._xdisplay = Display(self.display)
        return self._xdisplay

    def focus_at(self, x: int, y: int, take: bool = False) -> None:
        from bot.actuator.xtest import give_focus

        if (display := self._x()) is not None:
            give_focus(display, x, y, take)

    def window_class_at(self, x: int, y: int) -> str:
        from bot.actuator.xtest import class_at

        display = self._x()
        return "" if display is None else class_at(display, x, y)

    def window_at(self, x: int, y: int) -> int | None:
        from bot.actuator.xtest import window_id_at

        display = self._x()
        return None if display is None else window_id_at(display, x, y)

    def client_at(self, x: int, y: int) -> int | None:
        from bot.actuator.xtest import client_at

        display = self._x()
        return None if display is None else client_at(display, x, y)

    def window_rect_at(self, x: int, y: int) -> tuple[int, int, int, int] | None:
        from bot.actuator.xtest import rect_at

        display = self._x()
        return None if display is None else rect_at(display, x, y)

    def window_shown(self, window: int) -> bool | None:
        from bot.actuator.xtest import shown

        display = self._x()
        return None if display is None else shown(display, window)

    def position(self) -> tuple[int, int]:
        """Where the pointer is, in the capture's pixels."""
        x, y = self._gui.position()
        px, py = self.points.to_pixels(int(x), int(y))
        return round(px), round(py)

    def close(self) -> None:
        if self._xdisplay is not None:
            self._xdisplay.close()
            self._xdisplay = None


def live_mouse(backend: str, screen: LiveScreen) -> Mouse:
    """The mouse of `screen`'s desktop: XTest (X11 only) or pyautogui, with the
    capture's pixels mapped to the mouse's coordinates as measured from the
    screen (its size in pixels against its extent in the desktop's units)."""
    if backend == "xtest":
        if not screen.display:
            raise ActuatorError(f"--backend xtest is X11 only, not {screen.platform}")
        from bot.actuator.xtest import XTestMouse

        return XTestMouse(screen.display)
    points = PointMap.measure(screen.size, screen.origin, screen.extent)
    return PyAutoGuiMouse(screen.display, points=points, platform=screen.platform)
