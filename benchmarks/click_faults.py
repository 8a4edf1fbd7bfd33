"""Issue 31's live figure: no click lands anywhere but the board as it is at that moment.

Each run: a fresh clone window (intermediate, 16x16) on its own Xvfb;
`msbot play --games 3 --json --record DIR`; once two readings are on disk one
fault is made from outside, as a person or the desktop would:

* `cover`: a plain white window mapped over the middle of the board (none
  of its corners covered: a notification, another program's window);
* `restart`: the person starts a new game (sgt-mines: the `n` key;
  xdemineur: a click on its face), sent with XTest;
* `move`: the window moved by (+150, +80) (`xdotool windowmove`, waited for);
* `kill`: the clone killed.

Counted from the recording (action times and frame times are
CLOCK_MONOTONIC, one clock for every process), a click made after the fault
is bad when it lands inside the covering window (`cover`), was planned on a
frame grabbed before the fault (`restart`, `move`: the old game, the old
place), or is made at all (`kill`). A restart's clicks are split at the moment
the new game shows on the screen (`Shown`: the bench watches opened cells of
the last reading, which never change within a game): a click sent after it,
planned on the old game, is bad; one sent between the fault and that moment
met a screen still showing the old game (`clicks_before_shown`, with the
clone's drawing delay `shown_ms`): the bot must then notice the new game and
take back any flag it sent into it. Also kept: the exit code, its message,
"certain" losses, and the median milliseconds of the checks made before each
click (`check_ms_median` of the games).

    .venv/bin/python benchmarks/click_faults.py [--runs 10] [--clones sgt-mines,xdemineur]
        [--faults cover,restart,move,kill]

One JSON line per run, then a summary line per clone and fault.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.play.recorder import read_jsonl
from harness.clones import launch_clone
from harness.xdisplay import VirtualDisplay
from live_play import median_of, start_play

FAULTS = ("cover", "restart", "move", "kill")
#: The clone's window and the covering window's place.
POSITION = (50, 40)


def _readings(folder: Path) -> list[dict[str, Any]]:
    return read_jsonl(folder / "readings.jsonl")


def _board_rect(folder: Path) -> tuple[int, int, int, int] | None:
    """(left, top, width, height) of the board on the screen, from a reading."""
    for row in _readings(folder):
        geo = row.get("geometry")
        if geo:
            left, top = float(geo["left"]), float(geo["top"])
            width = float(geo["cell_w"]) * int(geo["cols"])
            height = float(geo["cell_h"]) * int(geo["rows"])
            return round(left), round(top), round(width), round(height)
    return None


def _face(display: str) -> tuple[int, int]:
    """Where xdemineur's face is: the reader's "restart" control on a fresh grab."""
    from vision.capture.live import LiveScreen
    from vision.reader import BoardReader

    os.environ["DISPLAY"] = display
    with LiveScreen() as screen:
        grab = screen.grab()
    reader = BoardReader()
    reading = reader.read(grab, reader.locate(grab))
    x, y = reading.controls["restart"]
    return int(x), int(y)


def _opened_cells(folder: Path, most: int = 12) -> list[tuple[int, int, int, int]]:
    """Screen boxes (left, top, width, height) of up to `most` opened cells of
    the last reading on disk, their middles only. Opened cells never change
    within a game: the first change there is a new game showing."""
    rows = [r for r in _readings(folder) if r.get("board") and r.get("geometry")]
    if not rows:
        return []
    geo, board = rows[-1]["geometry"], rows[-1]["board"]
    w, h = float(geo["cell_w"]), float(geo["cell_h"])
    boxes = []
    for r, line in enumerate(board):
        for c, kind in enumerate(line):
            if kind in "012345678":
                x, y = float(geo["left"]) + c * w, float(geo["top"]) + r * h
                boxes.append((round(x + w / 4), round(y + h / 4), round(w / 2), round(h / 2)))
    step = max(1, len(boxes) // most)
    return boxes[::step][:most]


class Shown:
    """When a fault shows on the screen: the bench grabs the opened cells just
    before it (`before`) and then until one of them changes (`wait`). A click
    the bot sent between the fault and that moment met a screen that still
    showed the old game: no check of pixels can see what is not drawn yet."""

    def __init__(self, display: str, boxes: list[tuple[int, int, int, int]]) -> None:
        import mss

        os.environ["DISPLAY"] = display
        self.sct = mss.MSS()
        self.boxes = boxes
        self.first: list[Any] = []

    def _grab(self) -> list[Any]:
        import numpy as np

        return [
            np.asarray(self.sct.grab({"left": x, "top": y, "width": w, "height": h}))[..., :3]
            for x, y, w, h in self.boxes
        ]

    def before(self) -> None:
        self.first = self._grab()

    def wait(self, timeout: float = 3.0) -> float | None:
        """The monotonic time of the first grab showing a change, or None."""
        import numpy as np

        end = time.monotonic() + timeout
        while time.monotonic() < end and self.boxes:
            at = time.monotonic()
            now = self._grab()
            for a, b in zip(self.first, now, strict=True):
                if float(np.abs(a.astype(np.int16) - b).mean()) > 6.0:
                    return at
            time.sleep(0.0005)
        return None

    def close(self) -> None:
        self.sct.close()


class Faults:
    """Faults made through the X server itself (python-xlib, XTest), each
    timed right before its request: the count of clicks after it is strict."""

    def __init__(self, display: str) -> None:
        from Xlib import XK, X
        from Xlib import display as xdisplay
        from Xlib.ext import xtest

        self.X, self.XK, self.xtest = X, XK, xtest
        self.d = xdisplay.Display(display)
        self.root = self.d.screen().root

    def cover(self, rect: tuple[int, int, int, int]) -> tuple[float, tuple[int, int, int, int]]:
        """Map a plain window over the board's middle, none of its corners
        covered; (when it was asked for, its x, y, width, height)."""
        left, top, width, height = rect
        x, y, w, h = left + width // 4, top + height // 3, width // 2, height // 3
        screen = self.d.screen()
        window = self.root.create_window(
            x, y, w, h, 0, screen.root_depth, background_pixel=screen.white_pixel
        )
        window.set_wm_name("A window over the board")
        at = time.monotonic()
        window.map()
        self.d.sync()
        return at, (x, y, w, h)

    def key(self, name: str) -> float:
        code = self.d.keysym_to_keycode(self.XK.string_to_keysym(name))
        at = time.monotonic()
        self.xtest.fake_input(self.d, self.X.KeyPress, code)
        self.xtest.fake_input(self.d, self.X.KeyRelease, code)
        self.d.sync()
        return at

    def click(self, x: int, y: int) -> float:
        at = time.monotonic()
        self.xtest.fake_input(self.d, self.X.MotionNotify, x=x, y=y)
        self.xtest.fake_input(self.d, self.X.ButtonPress, 1)
        self.xtest.fake_input(self.d, self.X.ButtonRelease, 1)
        self.d.sync()
        return at

    def close(self) -> None:
        self.d.close()


def one_run(clone_name: str, fault: str, work: Path) -> dict[str, Any]:
    """One fault made once on one fresh clone window; what the bot did after it."""
    folder = work / "rec"
    with (
        VirtualDisplay(1600, 1000, first=340, tries=40) as vd,
        launch_clone(clone_name, "intermediate", vd, position=POSITION) as clone,
    ):
        face = _face(vd.display) if fault == "restart" and clone_name == "xdemineur" else None
        args = ["play", "--json", "--games", "3", "--record", str(folder)]
        proc = start_play(vd.display, args, folder, readings=2)
        rect = _board_rect(folder)
        cover: tuple[int, int, int, int] | None = None
        shown_at: float | None = None
        faults = Faults(vd.display)
        fault_at = time.monotonic()
        if fault == "cover" and rect is not None:
            fault_at, cover = faults.cover(rect)
        elif fault == "restart":
            shown = Shown(vd.display, _opened_cells(folder))
            if face is None:
                clone.focus()
            shown.before()
            fault_at = faults.click(*face) if face is not None else faults.key("n")
            shown_at = shown.wait()
            shown.close()
        elif fault == "move":
            x, y = clone.geometry()[:2]
            clone.move(x + 150, y + 80)
            fault_at = time.monotonic()  # seen at its new place
        elif fault == "kill":
            clone.close()
            fault_at = time.monotonic()
        try:
            out, err = proc.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        faults.close()
    frames = {row["frame"]: row.get("t") for row in _readings(folder)}
    clicks = [
        a
        for a in read_jsonl(folder / "actions.jsonl")
        if a["kind"] in ("open", "flag", "chord", "control")
    ]
    after = [a for a in clicks if float(a["time"]) > fault_at]

    def planned_before(action: dict[str, Any], moment: float = fault_at) -> bool:
        taken = frames.get(action.get("frame"))
        return taken is None or float(taken) < moment

    if fault == "cover":
        assert cover is not None
        cx, cy, cw, ch = cover
        bad = [
            a
            for a in after
            if a.get("x") is not None and cx <= a["x"] < cx + cw and cy <= a["y"] < cy + ch
        ]
    elif fault == "restart":
        # A click sent before the new game was drawn met the old game on the
        # screen: counted apart (`unseen`), never as passed.
        seen = shown_at if shown_at is not None else fault_at
        unseen = [a for a in after if float(a["time"]) <= seen and planned_before(a, seen)]
        bad = [a for a in after if float(a["time"]) > seen and planned_before(a, seen)]
    elif fault == "move":
        bad = [a for a in after if planned_before(a)]
    else:
        bad = after
    if fault != "restart":
        unseen = []
    games: list[dict[str, Any]] = []
    summary: dict[str, Any] = {}
    for line in out.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and "summary" in row:
            summary = row["summary"] or {}
        elif isinstance(row, dict) and "outcome" in row:
            games.append(row)
    return {
        "clone": clone_name,
        "fault": fault,
        "exit": proc.returncode,
        "clicks": len(clicks),
        "clicks_after_fault": len(after),
        "bad_clicks": len(bad),
        # Restart: when the new game showed, and the clicks made before it did.
        "shown_ms": None if shown_at is None else round(1000 * (shown_at - fault_at), 1),
        "clicks_before_shown": len(unseen),
        "bad_examples": [
            f"{a['kind']} ({a.get('row')}, {a.get('col')}) "
            f"{1000 * (float(a['time']) - fault_at):.1f} ms after, planned on {a.get('frame')}"
            for a in bad[:3]
        ],
        "certain_losses": sum(bool(g.get("certain_loss")) for g in games),
        "outcomes": [g.get("outcome") for g in games],
        "check_ms_median": median_of([g.get("check_ms_median") for g in games]),
        "stopped": str(summary.get("stopped") or "".join(err.strip().splitlines()[-1:]))[:240],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--clones", default="sgt-mines,xdemineur")
    parser.add_argument("--faults", default=",".join(FAULTS))
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    for _ in range(args.runs):
        for clone in args.clones.split(","):
            for fault in args.faults.split(","):
                with tempfile.TemporaryDirectory(prefix="msbot-fault-") as work:
                    row = one_run(clone, fault, Path(work))
                rows.append(row)
                print(json.dumps(row), flush=True)
    for clone in args.clones.split(","):
        for fault in args.faults.split(","):
            mine = [r for r in rows if r["clone"] == clone and r["fault"] == fault]
            print(
                json.dumps(
                    {
                        "summary": {
                            "clone": clone,
                            "fault": fault,
                            "runs": len(mine),
                            "runs_with_bad_clicks": sum(bool(r["bad_clicks"]) for r in mine),
                            "bad_clicks": sum(r["bad_clicks"] for r in mine),
                            "clicks_before_shown": sum(r["clicks_before_shown"] for r in mine),
                            "shown_ms_median": median_of([r["shown_ms"] for r in mine]),
                            "certain_losses": sum(r["certain_losses"] for r in mine),
                            "clicks_after_fault": sum(r["clicks_after_fault"] for r in mine),
                            "exits": sorted({r["exit"] for r in mine}),
                            "check_ms_median": median_of([r["check_ms_median"] for r in mine]),
                        }
                    }
                ),
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
