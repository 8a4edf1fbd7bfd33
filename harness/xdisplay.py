"""A private virtual X display (Xvfb) for tests, the demo and benchmarks.

The bot itself never starts a display: it plays whatever screen it is given.
But everything that must show a real clone without a monitor (CI, `make demo`,
the recordings script) needs one, started on a display number nobody else
uses, ready before the first client connects, and gone afterwards even when
the code inside the `with` block fails.

Readiness comes from Xvfb itself (`-displayfd`: it writes the display number
once it accepts connections), so there is no sleep-and-hope polling.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

from bot.errors import MsbotError

#: First display number tried; low numbers are left to people and their desktops.
DEFAULT_FIRST_DISPLAY = 100
#: How many display numbers are tried before giving up.
DEFAULT_TRIES = 100
#: Seconds Xvfb gets to start accepting connections.
START_TIMEOUT = 15.0


class DisplayError(MsbotError):
    """Xvfb is missing or could not be started."""


def display_in_use(number: int) -> bool:
    """Whether an X server (or its leftovers) already claims display `number`."""
    return Path(f"/tmp/.X{number}-lock").exists() or Path(f"/tmp/.X11-unix/X{number}").exists()


def xvfb_available() -> bool:
    """Whether the Xvfb binary is on PATH (tests skip with a reason when not)."""
    return shutil.which("Xvfb") is not None


class VirtualDisplay:
    """Xvfb on the first free display number from `first`; a context manager.

    `display` is ":N" and `env` a copy of the environment with DISPLAY set to it
    (set explicitly: an empty inherited DISPLAY must not leak through).
    Stopping kills the Xvfb process by its PID and never raises.
    """

    def __init__(
        self,
        width: int = 1600,
        height: int = 1000,
        *,
        first: int = DEFAULT_FIRST_DISPLAY,
        tries: int = DEFAULT_TRIES,
        depth: int = 24,
    ) -> None:
        self.width = width
        self.height = height
        self.depth = depth
        self.first = first
        self.tries = tries
        self.number: int | None = None
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def display(self) -> str:
        """The display name, e.g. ":101"; only valid while started."""
        if self.number is None:
            raise DisplayError("the virtual display is not started")
        return f":{self.number}"

    @property
    def env(self) -> dict[str, str]:
        """The current environment with DISPLAY pointing at this display."""
        env = dict(os.environ)
        env["DISPLAY"] = self.display
        return env

    @property
    def pid(self) -> int | None:
        """The Xvfb process id while it runs."""
        return self._proc.pid if self._proc is not None else None

    def start(self) -> VirtualDisplay:
        """Start Xvfb on the first free display number; raise `DisplayError` if none works."""
        if self._proc is not None:
            return self
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            raise DisplayError("Xvfb is not installed (Debian: apt-get install xvfb)")
        last_error = "no free display number"
        for number in range(self.first, self.first + self.tries):
            if display_in_use(number):
                continue
            started, last_error = self._try_start(xvfb, number)
            if started:
                return self
        raise DisplayError(
            f"could not start Xvfb on displays :{self.first}..:{self.first + self.tries - 1}: "
            f"{last_error}"
        )

    def _try_start(self, xvfb: str, number: int) -> tuple[bool, str]:
        """One attempt on one display number; another process may win the race for it."""
        read_fd, write_fd = os.pipe()
        screen = f"{self.width}x{self.height}x{self.depth}"
        # Xvfb's chatter goes to a file, not a pipe: a pipe nobody reads would
        # block it (or kill it with SIGPIPE once closed) in the middle of a test.
        with tempfile.TemporaryFile() as log:
            command = [xvfb, f":{number}", "-screen", "0", screen, "-nolisten", "tcp"]
            command += ["-noreset", "-displayfd", str(write_fd)]
            try:
                proc = subprocess.Popen(
                    command,
                    pass_fds=(write_fd,),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=log,
                )
            finally:
                os.close(write_fd)
            try:
                announced = _read_line(read_fd, START_TIMEOUT)
            finally:
                os.close(read_fd)
            if announced.strip() == str(number):
                self._proc = proc
                self.number = number
                return True, ""
            stop_process(proc)
            log.seek(0)
            err = log.read().decode(errors="replace")
        lines = [line for line in err.splitlines() if line.strip()]
        return False, lines[-1] if lines else "Xvfb exited without a reason"

    def stop(self) -> None:
        """Kill Xvfb by PID (SIGTERM, then SIGKILL); safe to call twice."""
        proc, self._proc = self._proc, None
        self.number = None
        if proc is not None:
            stop_process(proc)

    def __enter__(self) -> VirtualDisplay:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def _read_line(fd: int, timeout: float) -> str:
    """Read what Xvfb writes on its -displayfd pipe, up to a newline, EOF or timeout."""
    deadline = time.monotonic() + timeout
    data = b""
    while not data.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            break
        chunk = os.read(fd, 64)
        if not chunk:
            break
        data += chunk
    return data.decode(errors="replace")


def stop_process(proc: subprocess.Popen[bytes], grace: float = 3.0) -> None:
    """Terminate one process by PID and reap it, escalating to SIGKILL (Xvfb and clones)."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=grace)
