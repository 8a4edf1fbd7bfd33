"""Ctrl+C during `msbot play`: honoured between two actions, never mid-click.

A real mouse is being driven: a KeyboardInterrupt raised in the middle of a
press would leave a button held down and the recording cut mid-write. So the
first Ctrl+C only sets a flag; the loop checks it between actions and while it
waits, and stops as if `--max-actions` had been reached (the game cut short
keeps its figures, the recording is closed complete). A second Ctrl+C is a
person who really means it: it raises KeyboardInterrupt at once.
"""

from __future__ import annotations

import signal
import threading
import time
from types import FrameType, TracebackType
from typing import Any

from bot.errors import PlayError


class Interrupted(PlayError):
    """Ctrl+C, honoured between two actions."""


class CtrlC:
    """A context manager that catches SIGINT into `pressed` while it is active.

    Signal handlers can only be set from the main thread; elsewhere (a test
    driving the loop from a thread) Ctrl+C keeps its default behaviour.
    """

    def __init__(self) -> None:
        self.pressed = False
        self._previous: Any = None

    def __enter__(self) -> CtrlC:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.pressed:
            raise KeyboardInterrupt
        self.pressed = True

    def check(self) -> None:
        """Raise `Interrupted` once Ctrl+C was pressed (call between actions)."""
        if self.pressed:
            raise Interrupted("interrupted by Ctrl+C")

    def sleep(self, seconds: float) -> None:
        """Wait `seconds`, but raise `Interrupted` within a few hundredths of a
        second of a Ctrl+C: a long `--delay` must not end in one more click."""
        deadline = time.monotonic() + seconds
        while True:
            self.check()
            left = deadline - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, 0.02))
