"""`make demo`: a virtual display, a real xdemineur, three games played hands-free.

On a bare machine nothing else is needed (`make demo` installs the packages
first). The recordings are left in ./demo-recordings/<time>/ (frames, readings
and every click), and the final screen in ./demo-recordings/<time>/final.png.
On a desktop with a clone already open, run `msbot play` instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.xdisplay import VirtualDisplay  # noqa: E402

GAMES = 3
XDEMINEUR = ["xdemineur", "-geometry", "16x16", "-m", "40"]


def find_xdemineur() -> str:
    found = shutil.which("xdemineur") or (
        "/usr/games/xdemineur" if Path("/usr/games/xdemineur").exists() else None
    )
    if found is None:
        sys.exit("demo: xdemineur is not installed (Debian: apt-get install xdemineur)")
    return found


def wait_for_window(env: dict[str, str], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--classname", "xdemineur"],
            env=env,
            capture_output=True,
            text=True,
        )
        if out.stdout.strip():
            time.sleep(0.3)
            return
        time.sleep(0.05)
    sys.exit("demo: xdemineur did not open its window")


def main() -> int:
    folder = ROOT / "demo-recordings" / time.strftime("%Y%m%d-%H%M%S")
    with VirtualDisplay(1600, 1000) as xd:
        print(f"demo: virtual display {xd.display} (Xvfb pid {xd.pid})")
        clone = subprocess.Popen(
            [find_xdemineur(), *XDEMINEUR[1:]],
            env=xd.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for_window(xd.env)
            print(f"demo: xdemineur 16x16 with 40 mines (pid {clone.pid}); playing {GAMES} games")
            command = [sys.executable, "-m", "bot", "play", "--games", str(GAMES)]
            command += ["--record", str(folder)]
            env = dict(os.environ, DISPLAY=xd.display)
            code = subprocess.run(command, env=env, cwd=ROOT).returncode
            shot = [sys.executable, "-c", FINAL_SHOT, xd.display, str(folder / "final.png")]
            subprocess.run(shot, cwd=ROOT, check=False)
        finally:
            clone.terminate()
            try:
                clone.wait(timeout=5)
            except subprocess.TimeoutExpired:
                clone.kill()
    print(
        f"demo: recordings in {folder.relative_to(ROOT)}/ (frames/, readings.jsonl, actions.jsonl)"
    )
    print(f"demo: replay them with: msbot replay {folder.relative_to(ROOT)}")
    return code


FINAL_SHOT = """
import sys
from vision.capture.live import LiveScreen
import cv2
with LiveScreen(sys.argv[1]) as screen:
    cv2.imwrite(sys.argv[2], screen.grab())
"""

if __name__ == "__main__":
    sys.exit(main())
