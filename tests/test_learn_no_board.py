"""A live learner that finds no board stops with one line and keeps the screen it saw.

`msbot play` on a screen no skin reads learns the board live; when the
screen holds no board at all, it stops before any click, naming the cause.
The picture it looked at is the evidence and is kept, in the recording when
there is one, else in a temporary folder (it was once kept nowhere).
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import pytest

from bot.cli import main
from harness.xdisplay import VirtualDisplay


@pytest.mark.parametrize("record", [True, False])
def test_no_board_on_the_screen_stops_with_its_frame_kept(
    virtual_display: VirtualDisplay,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    record: bool,
) -> None:
    argv = ["play", "--display", virtual_display.display, "--games", "1"]
    if record:
        argv += ["--record", str(tmp_path / "rec")]
    code = main(argv)
    said = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in said.err
    assert "no Minesweeper board found" in said.err
    saved = re.search(r"\(frame saved: ([^)]+)\)", said.err)
    assert saved is not None, said.err
    path = Path(saved.group(1))
    if record:
        assert path.parent == tmp_path / "rec" / "frames"
    frame = cv2.imread(str(path))
    assert frame is not None and frame.shape[:2] == (1000, 1600)  # the whole screen looked at
