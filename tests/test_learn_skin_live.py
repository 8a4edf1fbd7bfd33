"""learn-skin --live on a real clone under Xvfb: the learner clicks the window itself.

xdemineur is started on a private virtual display (:80-:89); `msbot
learn-skin --live` takes a fresh board, flags, question mark, clicks until
the game is lost (with --mines: ten flags first, so the counter shows every
digit), restarts with the face it learned and loses again, learns, and the
learned skin must read every screenshot it took exactly like the built-in
xdemineur skin does: cells, status and mine counter.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.clones import launch_clone
from bot.xdisplay import VirtualDisplay, xvfb_available
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.skin import load_skin, load_skins


def test_live_learning_matches_the_builtin_skin(tmp_path: Path) -> None:
    if not xvfb_available():
        pytest.skip("Xvfb is not installed (scripts/install-system-deps installs it)")
    out, shots = tmp_path / "skin", tmp_path / "shots"
    with VirtualDisplay(1600, 1000, first=80, tries=10) as xd:
        running = launch_clone("xdemineur", "beginner", xd, (230, 170))
        try:
            argv = ["learn-skin", "live-x", "--live", "--display", xd.display, "--mines", "10"]
            code = main([*argv, "--out", str(out), "--save", str(shots)])
        finally:
            running.close()
    assert code == 0
    learned = BoardReader([load_skin(out)])
    builtin = BoardReader(load_skins(["xdemineur"]))
    frames = sorted(shots.glob("*.png"))
    assert len(frames) >= 4
    statuses, flags = [], []
    for frame in frames:
        image = load_image(frame)
        mine, theirs = learned.read_fresh(image), builtin.read_fresh(image)
        assert not mine.unknown and not theirs.unknown
        assert mine.board == theirs.board, frame.name
        assert mine.status == theirs.status
        assert mine.mines_left == theirs.mines_left is not None
        statuses.append(mine.status)
        flags.append(mine.board.count("FX"))
    # Game 1: ten flags (right F or, on a safe cell, crossed out X) stay on the lost
    # board; then it restarts with the learned face and loses more games.
    assert statuses.count("lost") >= 2 and statuses[-1] == "lost"
    assert max(flags) == 10 and flags[-1] == 1
    assert "restart" in mine.controls
