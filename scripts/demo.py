"""`make demo`: a virtual display, a real xdemineur (16x16, 40 mines), three games
played hands-free.

On a bare machine nothing else is needed (`make demo` installs the packages
first). The recordings are left in ./demo-recordings/<time>/ (frames, readings
and every click), and the final screen in ./demo-recordings/<time>/final.png.
On a desktop with a clone already open, run `msbot play` instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.clones import launch_clone  # noqa: E402
from harness.xdisplay import VirtualDisplay  # noqa: E402

GAMES = 3
CLONE = "xdemineur"
SIZE = "intermediate"


def main() -> int:
    folder = ROOT / "demo-recordings" / time.strftime("%Y%m%d-%H%M%S")
    with VirtualDisplay(1600, 1000, first=70, tries=10) as xd:
        print(f"demo: virtual display {xd.display} (Xvfb pid {xd.pid})")
        with launch_clone(CLONE, SIZE, xd, position=(40, 30)) as clone:
            print(f"demo: {CLONE} {clone.size} (pid {clone.pid}); playing {GAMES} games")
            command = [sys.executable, "-m", "bot", "play", "--games", str(GAMES)]
            command += ["--record", str(folder)]
            env = dict(os.environ, DISPLAY=xd.display)
            code = subprocess.run(command, env=env, cwd=ROOT).returncode
            shot = [sys.executable, "-c", FINAL_SHOT, xd.display, str(folder / "final.png")]
            subprocess.run(shot, cwd=ROOT, check=False)
    where = folder.relative_to(ROOT)
    print(f"demo: recordings in {where}/ (frames/, readings.jsonl, actions.jsonl, final.png)")
    print(f"demo: replay them with: .venv/bin/msbot replay {where}")
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
