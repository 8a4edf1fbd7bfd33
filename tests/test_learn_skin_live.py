"""learn-skin --live on real clones under Xvfb: whatever is learned is never misread.

A clone with a built-in skin is started on a private virtual display and
`msbot learn-skin NAME --live --save DIR` learns it from scratch (msbot
clicks, flags, plays and restarts by itself; the built-in templates are not
used). How much a short run learns depends on the games' luck; what may not
depend on it is the safety rule: every frame it took, read again with the
skin it wrote, must have no cell read surely and wrongly against the
built-in skin's reading (`vision.learn.audit`). The covered tile and the flag
come from msbot's own right clicks and must always be named, and every name
must carry its evidence. Win rates and the 30-game plays are figures of
`benchmarks/bench_learn_live.py`, not tests.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cli import main
from harness.clones import RunningClone
from harness.xdisplay import VirtualDisplay
from vision.learn.audit import misreads
from vision.skin import load_skin

pytestmark = pytest.mark.clone

LaunchClone = Callable[..., RunningClone]


@pytest.mark.parametrize("name", ["minegauler", "sgt-mines"])
def test_a_live_learned_skin_never_misreads_a_frame_it_took(
    name: str,
    clone: LaunchClone,
    virtual_display: VirtualDisplay,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    clone(name, "beginner", position=(230, 170))
    out, shots = tmp_path / "skin", tmp_path / "shots"
    argv = ["learn-skin", f"live-{name}", "--live", "--display", virtual_display.display]
    code = main([*argv, "--out", str(out), "--save", str(shots), "--games", "3", "--seconds", "40"])
    said = capsys.readouterr()
    assert code in (0, 2), said  # 2: a game stopped (said on stderr), never a crash
    assert "Traceback" not in said.err
    skin = load_skin(out)
    assert {".", "F"} <= set(skin.tiles), said.out
    names = json.loads((out / "skin.json").read_text())["learned"]["names"]
    assert all(n["evidence"] for n in names), names
    checked, found = misreads(skin, [shots], name)
    assert checked >= 1, said  # frames the learned skin locates (it names 0 and numbers)
    assert not found, found


def test_the_audit_finds_a_misread(tmp_path: Path) -> None:
    """The check above can fail: a skin whose 1 is named 2 is caught on a recording."""
    import shutil

    from vision.skin import load_skins

    recording = Path(__file__).resolve().parent.parent / "recordings" / "xdemineur-beginner-1"
    (tmp_path / "rec").mkdir()
    shutil.copytree(recording / "frames", tmp_path / "rec" / "frames")
    skin = load_skins(["xdemineur"])[0]
    swapped = dict(skin.tiles)
    swapped["1"], swapped["2"] = skin.tiles["2"], skin.tiles["1"]
    from dataclasses import replace

    checked, found = misreads(replace(skin, tiles=swapped), [tmp_path / "rec"], "xdemineur")
    assert checked and found
