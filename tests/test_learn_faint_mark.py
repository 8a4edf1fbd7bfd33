"""A "?" mark that only its own cell tells from a covered cell (zoo seed 120808624).

The clone draws covered cells with noise, and its "?" is a small glyph on that
tile: nearer a covered cell than two covered cells are to each other. The
learner took it for the covered cell back at the end of the mark cycle: it
learned a cycle without "?", took its counter flags off with one click each
(leaving ten "?" on the person's board) and read them as covered cells (18
sure misreads). Now the end of the cycle is the cell's own picture again: the
"?" is learned as the cycle's third step, and the marks all come off.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from zoo.judge import judge
from zoo.launch import launch
from zoo.spec import draw

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.display
def test_a_faint_question_mark_is_learned_and_no_mark_is_left(tmp_path: Path) -> None:
    from displays import worker_display

    spec = draw(120808624, "web")
    assert spec.qmarks and spec.covered == "noise"
    with worker_display() as vd, launch(spec, vd.display, tmp_path / "clone") as running:
        env = dict(os.environ, DISPLAY=vd.display, MSBOT_LEARNED=str(tmp_path / "skins"))
        argv = [sys.executable, "-m", "bot", "play", "--learn", "--games", "1", "--json"]
        argv += ["--record", str(tmp_path / "rec")]
        out = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=240, cwd=ROOT)
        truth = running.truth()
    played = [json.loads(x) for x in out.stdout.splitlines() if x.startswith('{"game"')]
    where = out.stderr[-1500:]
    assert out.returncode == 0, where
    skin = json.loads(next((tmp_path / "skins").glob("*/skin.json")).read_text())
    assert skin["play"]["question_marks"] is True, where
    assert any(name["char"] == "?" for name in skin["learned"]["names"]), where
    # No "?" of the learner's is left: the play loop never puts one, and the
    # clone's last board keeps any it was given (all ten stayed before).
    assert truth.spans and "?" not in "".join(truth.spans[-1].board), where
    assert judge(truth, tmp_path / "rec", played).faults == 0, where
