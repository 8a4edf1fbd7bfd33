"""What each platform needs before mss can capture it: one function per platform.

* X11 (Linux, the BSDs): a display name, given or $DISPLAY; a Wayland session
  without one gets an error that says what works instead (mss reads the X
  server: under Wayland it sees only XWayland windows, or nothing).
* Windows: the process is declared per-monitor DPI-aware first, so that the
  capture and the mouse both work in real pixels (otherwise Windows scales
  the capture down on a 125-200 % desktop and the clicks land elsewhere).
* macOS: nothing; the capture is in pixels (two per point on a Retina screen)
  and `vision.capture.live` measures the ratio. Capturing needs the Screen
  Recording permission (System Settings, Privacy & Security), clicking the
  Accessibility one; without them macOS gives black frames or drops clicks.

Only X11 runs on the machines msbot is tested on; the Windows and macOS setup
is tested with their calls faked (tests/test_platforms.py), see the README.
"""

from __future__ import annotations

import os
from typing import Any

from bot.errors import VisionError


def is_x11(platform: str) -> bool:
    return platform not in ("win32", "cygwin", "darwin")


def open_mss(display: str | None, platform: str) -> tuple[Any, str]:
    """An mss instance for `platform`, and the X display name ("" off X11)."""
    import mss  # local: only live play needs a screen

    if is_x11(platform):
        name = x11_display(display)
        try:
            return mss.MSS(display=name), name
        except Exception as exc:  # mss raises its own ScreenShotError and ctypes errors
            raise VisionError(f"cannot open X display {name!r}: {exc}") from exc
    if display:
        raise VisionError(f"--display is an X11 option: there is no X display on {platform}")
    if platform in ("win32", "cygwin"):
        declare_dpi_aware()
    try:
        return mss.MSS(), ""
    except Exception as exc:
        raise VisionError(f"cannot capture the screen: {exc}") from exc


def x11_display(display: str | None) -> str:
    """The X display to use: `display`, else $DISPLAY; a clear error without one."""
    name = display if display is not None else os.environ.get("DISPLAY", "")
    if name:
        return name
    if os.environ.get("WAYLAND_DISPLAY") or os.environ.get("XDG_SESSION_TYPE") == "wayland":
        raise VisionError(
            "this is a Wayland session without an X display: msbot captures the screen "
            "through X11 (mss), which Wayland does not allow. Log in to an X11 (Xorg) "
            "session, or run the game under XWayland and give its display (--display :0)"
        )
    raise VisionError("no X display: set DISPLAY (e.g. DISPLAY=:0) or pass --display")


def declare_dpi_aware() -> None:
    """Per-monitor DPI awareness for this process (Windows 8.1 and later; the
    system-wide kind on older ones), before any window or capture is opened."""
    import ctypes

    windll: Any = getattr(ctypes, "windll", None)
    if windll is None:
        raise VisionError("not Windows: no DPI awareness to declare")
    try:
        windll.shcore.SetProcessDpiAwareness(2)  # PROCESS_PER_MONITOR_DPI_AWARE
    except (AttributeError, OSError):
        windll.user32.SetProcessDPIAware()
