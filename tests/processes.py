"""Test helper: is a process still running? (shared by the Xvfb and clone tests)."""

from __future__ import annotations

from pathlib import Path


def process_running(pid: int) -> bool:
    """Alive and not a zombie (PID 1 here may not reap killed children)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
