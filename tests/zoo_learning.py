"""`msbot play --learn` on a zoo clone, as a person would run it, for the tests
of what the learner met on one zoo seed (`test_learn_*`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zoo.judge import judge
from zoo.launch import launch
from zoo.spec import ZooSpec
from zoo.truth import Truth

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class LearnedRun:
    """What one run left: its exit code and last words, the skin it wrote, the
    clone's truth and the judge's count of faults."""

    returncode: int
    stderr: str
    skin: dict[str, Any]
    truth: Truth
    faults: int


def learn_and_play(spec: ZooSpec, folder: Path, games: int = 1) -> LearnedRun:
    """Start `spec` on a display of its own, run `msbot play --learn --games N`
    on it, and judge the recording by the clone's truth."""
    from displays import worker_display

    with worker_display() as vd, launch(spec, vd.display, folder / "clone") as running:
        env = dict(os.environ, DISPLAY=vd.display, MSBOT_LEARNED=str(folder / "skins"))
        argv = [sys.executable, "-m", "bot", "play", "--learn", "--games", str(games), "--json"]
        argv += ["--record", str(folder / "rec")]
        out = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=240, cwd=ROOT)
        truth = running.truth()
    played = [json.loads(x) for x in out.stdout.splitlines() if x.startswith('{"game"')]
    skins = sorted((folder / "skins").glob("*/skin.json"))
    skin = json.loads(skins[0].read_text()) if skins else {}
    faults = judge(truth, folder / "rec", played).faults
    return LearnedRun(out.returncode, out.stderr[-1500:], skin, truth, faults)
