"""msbot on zoo clones it was never tuned for, judged by their truth.

The suite's zoo clones (`zoo.suite`: fixed seeds whose draws, between them,
show every value of every dimension the zoo draws, web pages included) are
each started from a fresh window and played as a person would run msbot:
`msbot play --learn --games 2` (1 where the clone's restart is of a kind an
earlier suite clone has), nothing else given. The clone's own truth then
judges the recording (`zoo.judge`): no cell read as a kind it did not show, no
board read at another size or place, no "won" or "lost" the clone did not
show, no click beside a cell or a control; and every game ended: won, lost,
or "over" when the clone's window hid the cell msbot guessed last (then the
game must have taken no more clicks, and neither won nor lost is claimed).
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
from zoo.spec import ZooSpec
from zoo.suite import suite_specs

ROOT = Path(__file__).resolve().parents[1]
SPECS = suite_specs()


def _games(spec: ZooSpec) -> int:
    """Two games where the clone's restart is of a kind no clone before it in the
    suite has (the learner must find it), one where it repeats (the suite's time)."""
    before = SPECS[: SPECS.index(spec)]
    return 2 if all(other.restart != spec.restart for other in before) else 1


#: The longest first (a menu to search for the restart, then two games, then a
#: web page), so that the workers, each given one test at a time, end
#: together: the suite's time.
ORDER = sorted(SPECS, key=lambda s: (s.menu, _games(s), s.frontend == "web"), reverse=True)


@pytest.mark.display
@pytest.mark.parametrize("spec", ORDER, ids=[f"seed{s.seed}-{s.frontend}" for s in ORDER])
def test_a_zoo_clone_is_learned_and_played_without_a_fault(spec: ZooSpec, tmp_path: Path) -> None:
    from displays import worker_display

    games = _games(spec)
    with worker_display() as vd, launch(spec, vd.display, tmp_path / "clone") as running:
        env = dict(os.environ, DISPLAY=vd.display, MSBOT_LEARNED=str(tmp_path / "skins"))
        argv = [sys.executable, "-m", "bot", "play", "--learn", "--games", str(games)]
        argv += ["--json", "--record", str(tmp_path / "rec")]
        out = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=240, cwd=ROOT)
        truth = running.truth()
    played = [json.loads(x) for x in out.stdout.splitlines() if x.startswith('{"game"')]
    verdict = judge(truth, tmp_path / "rec", played)
    where = f"{spec.describe()}\n{out.stderr[-1500:]}\n{json.dumps(verdict.to_json())[:3000]}"
    assert verdict.faults == 0, where
    assert verdict.judged > 0 and verdict.cells_judged > 0, where
    assert out.returncode == 0, where
    assert [g["outcome"] in ("won", "lost", "over") for g in played] == [True] * games, where
