"""Ctrl+C (SIGINT) and SIGTERM during `msbot play`: honoured between two
actions, never mid-click.

A real mouse is being driven: an exception raised in the middle of a press
would leave a button held down and the recording cut mid-write. So the first
signal only sets a flag; the loop checks it between actions and while it
waits, and stops as if `--max-actions` had been reached (the game cut short
keeps its figures, the summary is printed, the recording is closed complete).
SIGTERM is what `timeout`, a service manager or `kill` send: a run stopped
that way must end just as cleanly. A second Ctrl+C is a person who really
means it: it raises KeyboardInterrupt at once.
"""

from __future__ import annotations

import signal
import threading
import time
from types import FrameType, TracebackType
from typing import Any

from bot.errors import PlayError

#: What the run's messages call each signal.
_NAMES: dict[int, str] = {
    signal.SIGINT: "interrupted by Ctrl+C",
    signal.SIGTERM: "terminated (SIGTERM)",
}


class Interrupted(PlayError):
    """Ctrl+C or SIGTERM, honoured between two actions; `signum` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(_NAMES.get(signum, f"stopped by signal {signum}"))
        self.signum = signum


class StopSignals:
    """A context manager that catches SIGINT and SIGTERM into `received` while
    it is active.

    Signal handlers can only be set from the main thread; elsewhere (a test
    driving the loop from a thread) the signals keep their default behaviour.
    """

    def __init__(self) -> None:
        #: The first signal received (0: none yet).
        self.received = 0
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for signum in _NAMES:
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for signum, previous in self._previous.items():
            if previous is not None:
                signal.signal(signum, previous)
        self._previous = {}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.received and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.received = self.received or signum

    def check(self) -> None:
        """Raise `Interrupted` once a signal came (call between actions)."""
        if self.received:
            raise Interrupted(self.received)

    def sleep(self, seconds: float) -> None:
        """Wait `seconds`, but raise `Interrupted` within a few hundredths of a
        second of a signal: a long `--delay` must not end in one more click."""
        deadline = time.monotonic() + seconds
        while True:
            self.check()
            left = deadline - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, 0.02))
