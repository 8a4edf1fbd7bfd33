"""Test helpers for processes: is one still running, and what has it printed so far
(shared by the Xvfb, clone and play tests)."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path
from typing import IO

import pytest


def process_running(pid: int) -> bool:
    """Alive and not a zombie (PID 1 here may not reap killed children)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


class Output:
    """What a running process prints, read as it comes (one thread per stream),
    so that a test can wait for a line instead of sleeping a guessed time."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self._out: list[str] = []
        self._err: list[str] = []
        self._threads = [
            threading.Thread(target=_drain, args=(stream, lines), daemon=True)
            for stream, lines in ((proc.stdout, self._out), (proc.stderr, self._err))
            if stream is not None
        ]
        for thread in self._threads:
            thread.start()

    @property
    def stdout(self) -> str:
        return "".join(self._out)

    def wait_for(self, text: str, timeout: float = 30.0) -> None:
        """Until stdout shows `text`; fails naming it (and what was printed) if
        the process ends or `timeout` passes first."""
        deadline = time.monotonic() + timeout
        while text not in self.stdout:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                if self.proc.poll() is not None:
                    self.finish(5)
                pytest.fail(
                    f"{text!r} never printed (exit {self.proc.returncode}); "
                    f"stdout: {self.stdout[-500:]!r}; stderr: {''.join(self._err)[-500:]!r}"
                )
            time.sleep(0.02)

    def finish(self, timeout: float) -> tuple[str, str]:
        """Wait for the process to end; everything it printed (stdout, stderr)."""
        self.proc.wait(timeout=timeout)
        for thread in self._threads:
            thread.join(timeout)
        return self.stdout, "".join(self._err)


def _drain(stream: IO[str], lines: list[str]) -> None:
    for line in stream:
        lines.append(line)
