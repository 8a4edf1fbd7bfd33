"""learn-skin --live on a real clone under Xvfb: the learner clicks the window itself.

xdemineur is started on a private virtual display (:80-:89); `msbot
learn-skin --live` takes a fresh board, flags, question mark, clicks until
the game is lost (with --mines: ten flags first, so the counter shows every
digit), restarts with the face it learned and loses again, learns, and the
learned skin must read every screenshot it took exactly like the built-in
xdemineur skin does: cells, status and mine counter.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from frozen_screen import FrozenScreen

from bot.actuator._base import Button, Mouse
from bot.cli import main
from bot.clones import RunningClone, launch_clone
from bot.errors import VisionError
from bot.xdisplay import VirtualDisplay, xvfb_available
from vision.image_io import load_image
from vision.learn.live import shoot
from vision.reader import BoardReader
from vision.reading import Reading
from vision.skin import load_skin, load_skins

LaunchClone = Callable[..., RunningClone]
WON_FRAME = "recordings/minegauler-beginner-1/frames/0002.png"


def _read_like_builtin(out: Path, shots: Path, clone: str) -> list[Reading]:
    """Every screenshot `--live --save` took, read with the learned skin in `out`; each
    must have no unknown cell and the same board and status as the built-in skin's."""
    learned = BoardReader([load_skin(out)])
    builtin = BoardReader(load_skins([clone]))
    readings = []
    for frame in sorted(shots.glob("*.png")):
        image = load_image(frame)
        mine, theirs = learned.read_fresh(image), builtin.read_fresh(image)
        assert not mine.unknown and not theirs.unknown, frame.name
        assert mine.board == theirs.board, frame.name
        assert mine.status == theirs.status, frame.name
        assert mine.mines_left == theirs.mines_left or mine.mines_left is None, frame.name
        readings.append(mine)
    return readings


def test_live_learning_matches_the_builtin_skin(tmp_path: Path) -> None:
    if not xvfb_available():
        pytest.skip("Xvfb is not installed (scripts/install-system-deps installs it)")
    # One more try on a new game when the first exits 1 (about 1 run in 5 this
    # session): the face was then not learned, so --live played a single game,
    # and the 2s of xdemineur's own opening, never seen appearing, stayed
    # unnamed, as the naming rules require. Every assertion holds for the try
    # that counts.
    for attempt in (1, 2):
        out, shots = tmp_path / f"skin{attempt}", tmp_path / f"shots{attempt}"
        with VirtualDisplay(1600, 1000, first=80, tries=10) as xd:
            running = launch_clone("xdemineur", "beginner", xd, (230, 170))
            try:
                argv = ["learn-skin", "live-x", "--live", "--display", xd.display]
                code = main([*argv, "--mines", "10", "--out", str(out), "--save", str(shots)])
            finally:
                running.close()
        if code == 0:
            break
    assert code == 0
    readings = _read_like_builtin(out, shots, "xdemineur")
    assert len(readings) >= 4
    assert all(r.mines_left is not None for r in readings)
    statuses = [r.status for r in readings]
    flags = [r.board.count("FX") for r in readings]
    mine = readings[-1]
    # Game 1: ten flags one by one (the counter's digits), all but one taken off
    # again; then it restarts with the learned face and loses more games.
    assert statuses.count("lost") >= 2 and statuses[-1] == "lost"
    assert max(flags) == 10 and flags[-1] == 1
    assert "restart" in mine.controls


def test_live_learning_names_the_lost_board_of_minegauler_and_restarts_after_a_win(
    clone: LaunchClone,
    virtual_display: VirtualDisplay,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The plain live flow on a real minegauler (fresh board, right clicks, left clicks
    until lost; no --mines, so a single flag): every screenshot, the lost boards
    included, must read like the built-in skin reads it. It used to be misnamed:
    the lost board was aligned a pixel off to look like the all-covered fresh board.

    Then the learned skin plays (QA F5): --live only ever loses, so it has no won
    face, and `play` stopped after the first win ("no control 'restart' on
    screen"). `play --games 2` runs until a game has followed a won game (in one
    run, or in the next, which starts by restarting the won board on screen). A
    learned skin may still stop on a number it never saw (a 4 after three lost
    games): its known limit, not a restart; the test then starts a new game by
    hand (F2) as a person would, and runs again, up to twelve times."""
    clone("minegauler", "beginner", position=(230, 170))
    # Learned again on a new game (up to four times) while the lost boards
    # --live saw showed no 1, 2 or 3: a skin without them stops on most
    # beginner games, and twelve plays then brought no win (one clean-clone
    # run). Every learned skin must pass every check below.
    for attempt in range(4):
        if attempt:
            subprocess.run(["xdotool", "key", "F2"], env=virtual_display.env, check=True)
            time.sleep(0.5)
        out, shots = tmp_path / f"try{attempt}" / "live-m", tmp_path / f"shots{attempt}"
        argv = ["learn-skin", "live-m", "--live", "--display", virtual_display.display]
        assert main([*argv, "--out", str(out), "--save", str(shots)]) == 0
        statuses = [r.status for r in _read_like_builtin(out, shots, "minegauler")]
        assert statuses[-1] == "lost" and statuses.count("lost") >= 2
        manifest = json.loads((out / "skin.json").read_text())
        assert "won" not in manifest["faces"]["images"] and manifest["faces"]["any_expression"]
        if {"1", "2", "3"} <= set(manifest["tiles"]):
            break
    capsys.readouterr()
    monkeypatch.setenv("MSBOT_TEMPLATES", str(out.parent))
    play = ["play", "--skin", "live-m", "--games", "2", "--display", virtual_display.display]
    after_win = False  # the board on screen is a won game
    restarts_after_win = 0
    for _ in range(12):
        code = main([*play, "--backend", "xtest", "--delay", "15"])
        said = capsys.readouterr()
        assert "restart" not in said.err and "new game" not in said.err, said
        games = re.findall(r"^game \d: (WON|LOST|STOPPED) .*?(\d+) clicks?\b", said.out, re.M)
        assert games, said
        for outcome, clicks in games:
            if after_win:
                assert int(clicks) > 0, said  # the new game was started and played
                restarts_after_win += 1
            after_win = outcome == "WON"
        if restarts_after_win:
            break
        if code != 0:
            assert "cells unreadable" in said.err, said
            subprocess.run(["xdotool", "key", "F2"], env=virtual_display.env, check=True)
            time.sleep(0.5)
            after_win = False
    assert restarts_after_win


def test_live_learning_learns_the_text_counter_of_gnome_mines(
    clone: LaunchClone, virtual_display: VirtualDisplay, tmp_path: Path
) -> None:
    """GNOME Mines under Xvfb, --live --mines 10: ten flags one by one put every digit
    on its "flags/10" text counter, so the learned skin has a text counter (the
    built-in skins' "marked/total" format), and every screenshot (flags, question
    mark, the lost board with GNOME's red-on-grey hit mine) reads like the built-in
    skin reads it: cells, status and counter.

    It failed in about half the runs (issue 6): frames of one game were cut on
    grids up to 3 px apart, and the ten extra flags were often left on; 8 of 8
    runs passed after the fixes."""
    clone("gnome-mines", "beginner", position=(230, 170))
    out, shots = tmp_path / "skin", tmp_path / "shots"
    argv = ["learn-skin", "live-g", "--live", "--display", virtual_display.display]
    assert main([*argv, "--mines", "10", "--out", str(out), "--save", str(shots)]) == 0
    skin = load_skin(out)
    assert skin.counter is not None and skin.counter.extra["format"] == "marked/total"
    readings = _read_like_builtin(out, shots, "gnome-mines")
    assert all(r.mines_left is not None for r in readings)
    counts = {r.mines_left for r in readings}
    mine = readings[-1]
    assert mine.status == "lost" and len(counts) >= 5


class _Clicks(Mouse):
    def __init__(self) -> None:
        self.clicks: list[tuple[int, int, str]] = []

    def click(self, x: int, y: int, button: Button) -> None:
        self.clicks.append((x, y, button))

    def click_both(self, x: int, y: int) -> None:
        self.clicks.append((x, y, "both"))

    def key(self, name: str) -> None:
        pass

    def move(self, x: int, y: int) -> None:
        pass


def test_live_refuses_a_finished_game() -> None:
    """F23: a won board (no cell reacts to a right click) is refused, not learned as fresh."""
    won = load_image(Path(__file__).resolve().parent.parent / WON_FRAME)
    mouse = _Clicks()
    with pytest.raises(VisionError, match="the board is not fresh"):
        shoot(FrozenScreen(won), mouse, wait=0.01)
    assert mouse.clicks and all(b == "right" for _, _, b in mouse.clicks)
