"""`msbot play` on a game whose mine layout the test chose: judged by the truth,
not by msbot's own readings.

sgt-mines is started from a game ID that holds the layout, minegauler with a
board file (`scripts/record_clones.py`'s `layout_spec`, the way the project's
recordings are made). The test places the window, and the grid comes from
the window's place and the clone's fixed offsets (`FIXED_GRID`, measured on
screenshots), not from `vision/`. Then:
- every click lands inside the cell it names, on that grid;
- every recorded reading is compared cell by cell with the true board at the
  moment its frame was grabbed: the layout, with every click made before that
  moment played on it by this test's own rules (an open floods from a 0, a
  flag toggles); unsure cells are left out, anything read surely must be
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


class Truth:
    """The clone's board as this test's own rules play the clicks on the layout."""

    def __init__(self, layout: tuple[str, ...]) -> None:
        self.layout = layout
        self.rows, self.cols = len(layout), len(layout[0])
        self.open: set[tuple[int, int]] = set()
        self.flags: set[tuple[int, int]] = set()
        self.lost = False

    def around(self, r: int, c: int) -> list[tuple[int, int]]:
        return [
            (rr, cc)
            for rr in range(max(0, r - 1), min(self.rows, r + 2))
            for cc in range(max(0, c - 1), min(self.cols, c + 2))
            if (rr, cc) != (r, c)
        ]

    def number(self, r: int, c: int) -> int:
        return sum(self.layout[rr][cc] == "*" for rr, cc in self.around(r, c))

    def reveal(self, cell: tuple[int, int]) -> None:
        if cell in self.flags or cell in self.open:
            return
        if self.layout[cell[0]][cell[1]] == "*":
            self.lost = True
            return
        todo = [cell]
        while todo:
            r, c = todo.pop()
            if (r, c) in self.open or (r, c) in self.flags:
                continue
            self.open.add((r, c))
            if self.number(r, c) == 0:
                todo += self.around(r, c)

    def act(self, action: dict[str, Any]) -> None:
        cell = (action["row"], action["col"])
        if action["kind"] == "open":
            self.reveal(cell)
        elif action["kind"] == "flag":
            self.flags ^= {cell}
        elif action["kind"] == "chord":
            for n in self.around(*cell):
                self.reveal(n)

    def copy(self) -> Truth:
        other = Truth(self.layout)
        other.open, other.flags, other.lost = set(self.open), set(self.flags), self.lost
        return other

    @property
    def status(self) -> str:
        safe = sum(line.count(".") for line in self.layout)
        return "lost" if self.lost else "won" if len(self.open) == safe else "playing"

    def shown(self, r: int, c: int) -> str:
        if (r, c) in self.open:
            return str(self.number(r, c))
        return "F" if (r, c) in self.flags else "."


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


def _grid(
    record_clones: Any, name: str, window: tuple[int, int], cell: int, rows: int, cols: int
) -> Any:
    """The cells' boxes on the screen from the window's place alone: the clone's
    offsets measured at its first size (`FIXED_GRID`), and how they follow the
    cell size: sgt-mines' border is 1.5 tiles (its source's BORDER) below a menu
    bar of fixed height; minegauler's margins do not change with its buttons."""
    left, top, *_ = record_clones.FIXED_GRID[name]
    if name == "sgt-mines":
        top, left = top - left + cell * 3 // 2, cell * 3 // 2
    x0, y0 = window[0] + left, window[1] + top
    return record_clones.Grid(
        [(x0 + c * cell, x0 + (c + 1) * cell) for c in range(cols)],
        [(y0 + r * cell, y0 + (r + 1) * cell) for r in range(rows)],
    )


@pytest.mark.parametrize(
    ("name", "seed", "cell"),
    [("sgt-mines", 11, 20), ("minegauler", 12, 16), ("sgt-mines", 13, 14), ("minegauler", 14, 24)],
)
def test_every_reading_and_click_is_the_truth_of_a_known_layout(
    name: str, seed: int, cell: int, tmp_path: Path
) -> None:
    """At the clones' first cell sizes and at others (the cell-size frames of
    tests/data/cell-sizes are labelled by readings; here the truth judges)."""
    record_clones = _record_clones()
    layout = _layout(seed)
    mines = sum(line.count("*") for line in layout)
    spec = record_clones.layout_spec(name, layout)
    place = (137, 91)
    with (
        worker_display(1600, 1000) as xd,
        launch_clone(spec, "beginner", xd, place, cell_size=cell) as running,
    ):
        window = running.geometry()[:2]
        grid = _grid(record_clones, name, window, cell, len(layout), len(layout[0]))
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
        (x0, x1), (y0, y1) = grid.xs[a["col"]], grid.ys[a["row"]]
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
