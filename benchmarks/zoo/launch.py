"""Start a zoo clone on an X display and wait until it is drawn.

    with launch(seed, display, folder) as running:
        ...   # running.spec, running.truth_path, running.window()

A Tk clone is one process (`zoo.tk_app`); a web clone is our HTTP server
(`zoo.web_server`, which holds the game and logs the truth) and Debian's
Chromium showing its page. Both are killed by PID when the block ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from harness.xdisplay import stop_process
from zoo.spec import ZooSpec, draw
from zoo.truth import Truth

ZOO_PARENT = Path(__file__).resolve().parent.parent


class ZooError(Exception):
    """A zoo clone did not start."""


@dataclass
class RunningZoo:
    spec: ZooSpec
    display: str
    truth_path: Path
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    folder: Path | None = None

    def truth(self) -> Truth:
        return Truth.load(self.truth_path)

    def window(self) -> list[int] | None:
        """The main window's last logged rect [x, y, w, h]."""
        truth = self.truth()
        rects = [rect for _, name, rect in truth.windows if name == "main"]
        return rects[-1] if rects else None

    def alive(self) -> bool:
        return all(p.poll() is None for p in self.procs)

    def close(self) -> None:
        for proc in reversed(self.procs):
            stop_process(proc)
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
        self.procs = []

    def __enter__(self) -> RunningZoo:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _env(display: str) -> dict[str, str]:
    env = dict(os.environ, DISPLAY=display)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ZOO_PARENT), env.get("PYTHONPATH", "")) if p
    )
    return env


def launch(
    seed: int | ZooSpec,
    display: str,
    folder: Path,
    frontend: str | None = None,
    timeout: float = 30.0,
) -> RunningZoo:
    """Start the clone of `seed` (or a spec) on `display`; its truth in `folder`."""
    spec = seed if isinstance(seed, ZooSpec) else draw(seed, frontend)
    folder.mkdir(parents=True, exist_ok=True)
    truth_path = folder / "truth.jsonl"
    truth_path.write_text("")
    running = RunningZoo(spec, display, truth_path, folder=folder)
    env = _env(display)
    log = open(folder / "clone.log", "ab")  # noqa: SIM115 - the child keeps it
    try:
        if spec.frontend == "web":
            from zoo.web_server import start_web

            running.procs.extend(start_web(spec, truth_path, folder, env, log))
        else:
            running.procs.append(
                subprocess.Popen(
                    [
                        *(sys.executable, "-m", "zoo.tk_app", "--seed", str(spec.seed)),
                        *("--spec", spec.dumps(), "--truth", str(truth_path)),
                    ],
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=log,
                    start_new_session=True,
                )
            )
        _wait_ready(running, timeout)
    except BaseException:
        running.close()
        raise
    finally:
        log.close()
    return running


def _wait_ready(running: RunningZoo, timeout: float) -> None:
    """Until the clone logged its window, a first state and its cell boxes, and
    its picture has stayed still for a moment (a page may still be loading)."""
    deadline = time.monotonic() + timeout
    while True:
        if not running.alive():
            log = (running.folder / "clone.log").read_text()[-1500:] if running.folder else ""
            raise ZooError(f"zoo clone {running.spec.seed} exited before its window:\n{log}")
        truth = running.truth()
        names = {name for _, name, _ in truth.windows}
        ready = (
            truth.spans
            and truth.boxes
            and truth.boxes[-1][1]
            and "main" in names
            # A decoy (a program of its own) shows before msbot starts (it logs
            # a window of no place when there is no room for it).
            and ("decoy" in names or running.spec.decoy == "none")
        )
        if ready:
            break
        if time.monotonic() > deadline:
            raise ZooError(f"zoo clone {running.spec.seed}: no window after {timeout:.0f} s")
        time.sleep(0.05)
    _wait_still(running.display, running.window(), deadline)


def _wait_still(display: str, rect: list[int] | None, deadline: float, still: float = 0.4) -> None:
    """Until the window's picture stays the same for `still` seconds (a clock
    ticking in it leaves such moments between its ticks)."""
    from vision.capture import Region
    from vision.capture.live import LiveScreen

    if rect is None:
        return
    x, y, w, h = rect
    with LiveScreen(display) as screen:
        width, height = screen.size
        region = Region(max(0, x), max(0, y), max(1, w), max(1, h)).clipped(width, height)
        last = None
        since = time.monotonic()
        while time.monotonic() < deadline:
            shot = screen.grab(region)
            if last is None or (shot != last).any():
                last, since = shot, time.monotonic()
            elif time.monotonic() - since >= still:
                return
            time.sleep(0.05)
