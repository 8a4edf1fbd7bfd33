"""`msbot play` on a game whose mine layout the test chose: judged by the truth,
not by msbot's own readings.

sgt-mines is started from a game ID that holds the layout, minegauler with a
board file (`scripts/record_clones.py`'s `layout_spec`, the way the project's
recordings are made). The test places the window, and the grid comes from
the window's place and size and the clone's fixed offsets, measured on
screenshots (`harness.known_layout.board_grid`), not from `vision/`. Then:
- every click lands inside the cell it names, on that grid;
- every recorded reading is compared cell by cell with the true board at the
  moment its frame was grabbed: the layout, with every click made before that
  moment played on it by the rules (`harness.known_layout.Truth`: an open
  floods from a 0, a flag toggles); unsure cells are left out, anything read surely must be
  what the clone showed; the counter, when read, is mines minus flags;
- the game's end (won or lost) is the one the layout gives.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from displays import worker_display

from bot.board import parse_board
from bot.play.recorder import read_jsonl
from bot.solver import analyse
from harness.clones import launch_clone
from harness.known_layout import Truth, board_grid
from harness.xdisplay import xvfb_available

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.clone,
    pytest.mark.skipif(not (xvfb_available() and shutil.which("xdotool")), reason="needs Xvfb"),
]


def _record_clones() -> Any:
    spec = importlib.util.spec_from_file_location(
        "record_clones", ROOT / "scripts" / "record_clones.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _layout(seed: int, rows: int = 9, cols: int = 9, mines: int = 14) -> tuple[str, ...]:
    """A random layout with no mine on or beside the cell msbot opens first
    (the solver's first move under the skins' "zero" rule: minegauler's loaded
    board does not move a mine away from it)."""
    blank = parse_board("\n".join("." * cols for _ in range(rows)))
    first = analyse(blank, mines, "zero").move
    assert first is not None
    rng = np.random.default_rng(seed)
    near = {(first.row + dr, first.col + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in near]
    picked = {free[i] for i in rng.choice(len(free), mines, replace=False)}
    return tuple(
        "".join("*" if (r, c) in picked else "." for c in range(cols)) for r in range(rows)
    )


def _differences(
    truth: Truth, reading: dict[str, Any], unsure: set[tuple[int, int]], mines: int
) -> list[object]:
    """What `reading` says surely that differs from `truth`. A won or a lost must
    be the truth's (a finished board is then judged by its status only: the
    clones show the layout in their own ways); "playing" is no claim of an end,
    so a won board read as still in play (sgt-mines flashes it first) is judged
    cell by cell, its mines covered or flagged."""
    won_in_play = reading["status"] == "playing" and truth.status == "won"
    if reading["status"] != truth.status and not won_in_play:
        return [f"status {reading['status']}, truth {truth.status}"]
    if truth.status != "playing" and not won_in_play:
        return []

    def fits(r: int, c: int) -> bool:
        read, shown = reading["board"][r][c], truth.shown(r, c)
        mine = truth.layout[r][c] == "*"
        return read == shown or (won_in_play and mine and read in ".F")

    wrong: list[object] = [
        (r, c, reading["board"][r][c], truth.shown(r, c))
        for r in range(truth.rows)
        for c in range(truth.cols)
        if (r, c) not in unsure and not fits(r, c)
    ]
    left = mines - len(truth.flags)
    if reading["mines_left"] is not None and reading["mines_left"] != left and not won_in_play:
        wrong.append(f"counter {reading['mines_left']}, truth {left}")
    return wrong


@pytest.mark.parametrize(
    ("name", "seed", "cell"),
    [("sgt-mines", 11, 20), ("minegauler", 12, 16), ("sgt-mines", 13, 14), ("minegauler", 14, 24)],
)
def test_every_reading_and_click_is_the_truth_of_a_known_layout(
    name: str, seed: int, cell: int, tmp_path: Path
) -> None:
    """At the clones' first cell sizes and at others (live games judged by the
    truth; the frames of tests/data/cell-sizes are labelled by it too, by
    scripts/record_cell_sizes.py)."""
    record_clones = _record_clones()
    layout = _layout(seed)
    mines = sum(line.count("*") for line in layout)
    spec = record_clones.layout_spec(name, layout)
    place = (137, 91)
    with (
        worker_display(1600, 1000) as xd,
        launch_clone(spec, "beginner", xd, place, cell_size=cell) as running,
    ):
        geometry = running.geometry()
        window = geometry[:2]
        xs, ys = board_grid(name, geometry, cell, len(layout), len(layout[0]))
        truth = Truth(layout)
        if name == "sgt-mines":
            # The game ID names a cell the game opens by itself at the start.
            c, r = map(int, record_clones.sgt_game_id(layout).split(":")[1].split(",")[:2])
            truth.reveal((r, c))
        rec = tmp_path / "rec"
        argv = [sys.executable, "-m", "bot", "play", "--games", "1", "--json"]
        out = subprocess.run(
            [*argv, "--record", str(rec)],
            env={**xd.env},
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
        )
    assert window == place, window
    assert out.returncode == 0, out.stderr[-2000:]
    actions = read_jsonl(rec / "actions.jsonl")
    readings = [r for r in read_jsonl(rec / "readings.jsonl") if "board" in r]
    clicks = [a for a in actions if a["kind"] in ("open", "flag", "chord")]
    assert clicks and readings
    # Every click inside the cell it names, on the grid the window's place gives.
    for a in clicks:
        (x0, x1), (y0, y1) = xs[a["col"]], ys[a["row"]]
        assert x0 <= a["x"] < x1 and y0 <= a["y"] < y1, a
    # Every reading against the truth of its moment: the clone handles clicks in
    # order and draws each a moment later, so its board at a grab is the layout
    # after some of the clicks made before it (never fewer than the reading
    # before showed).
    states = [truth.copy()]
    for a in clicks:
        states.append(states[-1].copy())
        states[-1].act(a)
    shown_upto = compared = 0
    for reading in readings:
        made = sum(a["time"] < reading["t"] for a in clicks)
        unsure = {(u["row"], u["col"]) for u in reading["unknown"]}
        fits = [
            k
            for k in range(shown_upto, made + 1)
            if not _differences(states[k], reading, unsure, mines)
        ]
        assert fits, (reading["frame"], _differences(states[made], reading, unsure, mines))
        shown_upto = fits[0]
        compared += truth.rows * truth.cols - len(unsure)
    assert compared >= truth.rows * truth.cols  # a whole board at least
    # The game ended as the layout and the clicks say.
    (game,) = [json.loads(x) for x in out.stdout.splitlines() if x.startswith('{"game"')]
    end = states[-1]
    assert game["outcome"] == end.status, game
