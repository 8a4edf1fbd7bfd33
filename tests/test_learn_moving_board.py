"""A board that moves in its window while msbot learns it (zoo seed 1653660532).

The clone's "Flags: N" label beside the board widens at the tenth flag: its
window grows by 8 px and the board, centred, moves with it. The learner's
tenth counter flag did that, the move was taken for toolkit buttons sized by
their text, the learning stopped, and its ten probe flags stayed on the
person's board. Now the flag that moved the board comes off again (the label
and the board come back), the counter is tried with the nine before it, and
learning and play go on; the clone's own truth says no probe flag was left
when the first cell was opened.
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
def test_a_counter_flag_that_moves_the_board_comes_off_and_learning_goes_on(
    tmp_path: Path,
) -> None:
    from displays import worker_display

    spec = draw(1653660532, "tk")
    assert spec.counter == "flags"
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
    assert any("counter flags stopped at 9" in note for note in skin["learned"]["notes"]), where
    # Every probe flag came off before the first cell was opened (a number,
    # or the mine this clone may put under the first click).
    opened = next(span for span in truth.spans if set("".join(span.board)) - set(".F?"))
    before = [span for span in truth.spans if span.start < opened.start]
    assert before and all("F" not in "".join(span.board) for span in before[-1:]), where
    assert judge(truth, tmp_path / "rec", played).faults == 0, where
