"""`msbot play` in a window enlarged around its board, on a real minegauler.

minegauler centres its board in a larger window and leaves its face and
counter at the top, outside the regions the skin draws from the board. The
bot once played the first game to the end and then stopped ("nothing left to
do, but the screen does not show the game won or lost"): a finished board is
now won by the rules (every closed cell a certain mine), and the restart
falls back to the clone's F2 key when the face is not on screen.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from bot_runs import assert_played_to_the_end, play
from displays import worker_display

from bot.play.recorder import read_jsonl
from harness.clones import launch_clone
from harness.xdisplay import VirtualDisplay, xvfb_available

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.clone,
    pytest.mark.skipif(
        not (xvfb_available() and shutil.which("xdotool")), reason="needs Xvfb and xdotool"
    ),
]


@pytest.fixture
def display() -> Iterator[VirtualDisplay]:
    with worker_display(1600, 1000) as xd:
        yield xd


def test_games_go_on_in_an_enlarged_minegauler_window(
    display: VirtualDisplay, tmp_path: Path
) -> None:
    with launch_clone("minegauler", "beginner", display, position=(50, 20)) as clone:
        subprocess.run(
            ["xdotool", "windowsize", "--sync", clone.window, "500", "600"],
            env=display.env,
            check=True,
            timeout=20,
        )
        assert clone.geometry()[2:] == (500, 600)
        clone.wait_drawn()  # the board laid out again in the larger window
        run = play(display.display, "--games", "2", "--record", str(tmp_path / "rec"), timeout=90)
        assert_played_to_the_end(run, 2)
        # The board really moved away from the window's corner, and a second
        # game really began (its first reading has covered cells again).
        readings = read_jsonl(tmp_path / "rec" / "readings.jsonl")
        assert readings[0]["geometry"]["left"] > 150
        second = [r for r in readings if r.get("game") == 2 and "board" in r]
        assert second and any("." in row for row in second[0]["board"])
