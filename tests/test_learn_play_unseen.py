"""A clone with no built-in skin, learned live and played, end to end (issue 15).

The product's promise is "any clone": xbomb, KMines, ace-minesweeper (Debian)
and the web clone in Chromium have no skin in `templates/` (issue 15 asks for
these four). `benchmarks/bench_learn_live.py`'s `run_clone` starts a fresh
window, runs `msbot learn-skin NAME --live` (no screenshot, no `--mines`, no
`--restart-key`), then `msbot play --skin NAME --games 3`, and reads every
frame of both runs again with the skin it wrote: no reading may contradict
the game's rules (`vision.learn.audit`). Win rates over 30 games are the
benchmark's figures (README "Live learning"), not this test's.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bench_scripts import load
from displays import worker_display

from bot.clones import CloneError, clone_spec, find_program
from bot.xdisplay import xvfb_available

pytestmark = [
    pytest.mark.clone,
    pytest.mark.display,
    pytest.mark.skipif(not (xvfb_available() and shutil.which("xdotool")), reason="needs Xvfb"),
]


@pytest.mark.parametrize("name", ["xbomb", "kmines", "web-mines", "ace-minesweeper"])
def test_an_unseen_clone_is_learned_live_then_played_without_a_misread(
    name: str, tmp_path: Path
) -> None:
    try:
        find_program(clone_spec(name).program)
    except CloneError as exc:
        pytest.skip(str(exc))
    result = load("bench_learn_live").run_clone(name, 3, 60.0, tmp_path, worker_display(1600, 1000))
    assert result["learn_exit"] == 0, result
    assert {".", "F", "0", "1"} <= set(result["kinds"]), result
    assert result["counter"] is True, result  # each of these clones shows one
    # The total its digits were learned showing: a game whose counter reads
    # another is played without it (a leading digit never seen goes unread).
    assert result["counter_total"] == clone_spec(name).board_size("beginner").mines, result
    assert result["games"] == 3 and result["stopped"] == 0, result
    assert result["play_exit"] == 0, result
    assert result["frames_checked"] >= 3, result
    assert result["sure_misreads"] == 0, result
