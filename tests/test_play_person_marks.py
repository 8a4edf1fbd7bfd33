"""`msbot play` taking over a game a person has marked: flags and question marks
the bot did not place, on a real xdemineur under Xvfb.

A person's flag may be wrong. Trusted, a wrong flag makes the numbers around
it "prove" cells that are not safe: the bot lost such games on a move it
called certain. A person's "?" stays closed beside a 0 (xdemineur's cascade
skips it), which the loop once took for a half-drawn frame and stopped.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bot_runs import msbot_play
from displays import worker_display

from bot.board import Cell
from bot.play.recorder import read_jsonl
from bot.solver import analyse
from harness.clones import launch_clone
from harness.xdisplay import VirtualDisplay, xvfb_available

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.clone,
    pytest.mark.skipif(
        not (xvfb_available() and shutil.which("xdotool")), reason="needs Xvfb and xdotool"
    ),
]

reader_module = pytest.importorskip("vision.reader")


@pytest.fixture
def display() -> Iterator[VirtualDisplay]:
    with worker_display(1600, 1000) as xd:
        yield xd


GRAB = """
import sys, mss, numpy as np, cv2
with mss.MSS(display=sys.argv[1]) as m:
    shot = m.grab(m.monitors[0])
cv2.imwrite(sys.argv[2], np.asarray(shot)[:, :, :3])
"""


def read_screen(display: VirtualDisplay, tmp: Path) -> Any:
    """The board on screen, read by a fresh reader from another process's picture."""
    from vision.image_io import load_image

    path = tmp / "screen.png"
    subprocess.run([sys.executable, "-c", GRAB, display.display, str(path)], check=True, timeout=30)
    return reader_module.BoardReader().read_fresh(load_image(path))


def right_click(display: VirtualDisplay, reading: Any, cell: Cell, times: int) -> None:
    g = reading.geometry
    x = int(g.left + (cell[1] + 0.5) * g.cell_w)
    y = int(g.top + (cell[0] + 0.5) * g.cell_h)
    args = ["xdotool", "mousemove", str(x), str(y)]
    for _ in range(times):
        args += ["click", "3", "sleep", "0.1"]
    subprocess.run(args, env=display.env, check=True, timeout=20)
    # Park the pointer off the board (it may draw a pressed cell).
    subprocess.run(["xdotool", "mousemove", "5", "5"], env=display.env, check=True, timeout=20)


def board_showing(
    display: VirtualDisplay, tmp: Path, cells: list[Cell], marks: str, timeout: float = 10.0
) -> Any:
    """The board once `cells` show `marks` (one character each): the clone redraws
    after the clicks in its own time. Fails naming what the cells showed instead."""
    deadline = time.monotonic() + timeout
    while True:
        board = read_screen(display, tmp).board
        shown = "".join(board[cell] for cell in cells)
        if shown == marks:
            return board
        if time.monotonic() > deadline:
            pytest.fail(f"cells {cells} show {shown!r}, not {marks!r}, after {timeout:.0f} s")
        time.sleep(0.05)


def play_one(display: VirtualDisplay, folder: Path) -> subprocess.CompletedProcess[str]:
    return msbot_play(display.display, "--games", "1", "--record", str(folder), timeout=60)


def clicked(folder: Path) -> set[tuple[int, int]]:
    return {
        (a["row"], a["col"])
        for a in read_jsonl(folder / "actions.jsonl")
        if a["kind"] in ("open", "flag", "chord")
    }


def test_a_persons_wrong_flag_is_not_trusted(display: VirtualDisplay, tmp_path: Path) -> None:
    for _ in range(6):
        with launch_clone("xdemineur", "intermediate", display, position=(60, 40)):
            reading = read_screen(display, tmp_path)
            # A cell the numbers prove safe, next to a number: a flag there is
            # certainly wrong and changes what the numbers around it seem to say.
            safe = [
                cell
                for cell in analyse(reading.board).safe
                if any(reading.board.number(n) for n in reading.board.neighbours(cell))
            ]
            if safe:
                _play_with_a_wrong_flag(display, tmp_path, reading, safe[0])
                return
    # xdemineur opens an area itself; a small one ("212/101/212") may prove nothing.
    pytest.fail(f"six openings proved no cell safe; the last:\n{reading.board.to_text()}")


def _play_with_a_wrong_flag(
    display: VirtualDisplay, tmp_path: Path, reading: Any, wrong: Cell
) -> None:
    """Flag the safe cell `wrong` as a person would, then let the bot play."""
    right_click(display, reading, wrong, 1)
    board_showing(display, tmp_path, [wrong], "F")

    out = play_one(display, tmp_path / "rec")
    # Never a loss on a "certain" move (exit 3): either the bot stops
    # naming the wrong flag, or a guess went wrong before it got there.
    assert out.returncode in (0, 2), out.stdout + out.stderr
    if out.returncode == 2:
        assert f"flag at ({wrong[0]}, {wrong[1]}) is wrong" in out.stderr, out.stderr
    else:
        final = read_jsonl(tmp_path / "rec" / "readings.jsonl")[-1]
        assert final["status"] == "lost", final
    # The person's flag was left alone: never clicked, still on screen.
    assert wrong not in clicked(tmp_path / "rec")
    assert read_screen(display, tmp_path).board[wrong] in "FX"


def test_a_persons_question_marks_do_not_stop_the_bot(
    display: VirtualDisplay, tmp_path: Path
) -> None:
    with launch_clone("xdemineur", "intermediate", display, position=(60, 40)):
        reading = read_screen(display, tmp_path)
        rows, cols = reading.geometry.rows, reading.geometry.cols
        covered = [cell for cell in reading.board.cells() if reading.board[cell] == "."]
        marks = [covered[i * len(covered) // 5] for i in range(5)]
        for cell in marks:
            right_click(display, reading, cell, 2)  # flag, then question mark
        board_showing(display, tmp_path, marks, "?" * 5)

        out = play_one(display, tmp_path / "rec")
        assert out.returncode == 0, out.stdout + out.stderr
        final = read_jsonl(tmp_path / "rec" / "readings.jsonl")[-1]
        assert final["status"] in ("won", "lost"), final
        assert len(final["board"]) == rows and len(final["board"][0]) == cols
