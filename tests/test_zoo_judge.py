"""The zoo's judge, checked on purpose-made faults.

`tests/data/zoo/truth-258.jsonl` is the truth a real zoo clone (seed 258, a
Tk window under Xvfb) logged while xdotool opened four cells, flagged a mine
and opened another (a loss). From it this test builds the recording a
perfect player would have made (each state read exactly, each click where
the clone logged it) and checks that the judge finds nothing in it, then that
each fault put in on purpose is counted: one cell read otherwise, a board one
row short, a "won" on an unfinished board, a click beside the board.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from zoo.judge import judge
from zoo.truth import Truth

TRUTH = Path(__file__).parent / "data" / "zoo" / "truth-258.jsonl"


def _perfect(truth: Truth) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Readings of every state 20 ms after it was logged, and the clicks."""
    _, xs, ys = truth.boxes[-1]
    geometry = {
        "left": xs[0][0],
        "top": ys[0][0],
        "cell_w": xs[1][0] - xs[0][0],
        "cell_h": ys[1][0] - ys[0][0],
        "rows": len(ys),
        "cols": len(xs),
    }
    readings = [
        {
            "frame": f"{i + 1:04d}.png",
            "game": span.game,
            "t": span.start + 0.02,
            "geometry": dict(geometry),
            "board": list(span.board),
            "status": span.status,
            "unknown": [],
        }
        for i, span in enumerate(truth.spans)
    ]
    actions = []
    for click in truth.clicks:
        _, r, c = click["target"].split()
        kind = "open" if click["button"] == 1 else "flag"
        actions.append(
            {
                "kind": kind,
                "row": int(r),
                "col": int(c),
                "x": click["x"],
                "y": click["y"],
                "time": click["t"] - 0.001,
            }
        )
    return readings, actions


def _write(folder: Path, readings: list[dict[str, Any]], actions: list[dict[str, Any]]) -> Path:
    folder.mkdir()
    (folder / "readings.jsonl").write_text("".join(json.dumps(x) + "\n" for x in readings))
    (folder / "actions.jsonl").write_text("".join(json.dumps(x) + "\n" for x in actions))
    return folder


@pytest.fixture
def truth() -> Truth:
    return Truth.load(TRUTH)


def test_a_perfect_recording_has_no_fault(truth: Truth, tmp_path: Path) -> None:
    readings, actions = _perfect(truth)
    games = [{"game": 1, "outcome": "lost"}]
    verdict = judge(truth, _write(tmp_path / "rec", readings, actions), games)
    assert verdict.judged == len(truth.spans) >= 6
    assert verdict.cells_judged == 100 * len(truth.spans)
    assert verdict.clicks == verdict.clicks_on_cells == 6
    assert verdict.faults == 0, verdict.to_json()


def test_one_cell_read_otherwise_is_one_sure_misread(truth: Truth, tmp_path: Path) -> None:
    readings, actions = _perfect(truth)
    wrong = copy.deepcopy(readings)
    row = wrong[2]["board"][5]
    wrong[2]["board"][5] = ("3" if row[0] != "3" else "4") + row[1:]
    verdict = judge(truth, _write(tmp_path / "rec", wrong, actions))
    assert verdict.sure_misreads == 1 and verdict.faults == 1, verdict.to_json()
    assert verdict.examples["sure_misreads"][0]["cell"] == [5, 0]
    # The same cell listed as unsure is no misread; "-" (open, value unknown)
    # fits an open number, not a covered cell.
    wrong[2]["unknown"] = [{"row": 5, "col": 0}]
    assert judge(truth, _write(tmp_path / "rec2", wrong, actions)).faults == 0
    last = copy.deepcopy(readings)
    last[-1]["board"][0] = "-" + last[-1]["board"][0][1:]  # an open 0
    last[-1]["board"][9] = "-" + last[-1]["board"][9][1:]  # a covered cell
    verdict = judge(truth, _write(tmp_path / "rec3", last, actions))
    assert verdict.sure_misreads == 1 and verdict.examples["sure_misreads"][0]["cell"] == [9, 0]


def test_a_board_one_row_short_is_a_wrong_geometry(truth: Truth, tmp_path: Path) -> None:
    readings, actions = _perfect(truth)
    short = copy.deepcopy(readings)
    short[3]["geometry"]["rows"] -= 1
    short[3]["board"] = short[3]["board"][:-1]
    verdict = judge(truth, _write(tmp_path / "rec", short, actions))
    assert verdict.wrong_geometry == 1 and verdict.faults == 1, verdict.to_json()
    # Shifted by half a cell: every centre off its cell.
    shifted = copy.deepcopy(readings)
    shifted[1]["geometry"]["left"] += shifted[1]["geometry"]["cell_w"] / 2
    assert judge(truth, _write(tmp_path / "rec2", shifted, actions)).wrong_geometry == 1


def test_won_on_an_unfinished_board_is_a_false_won(truth: Truth, tmp_path: Path) -> None:
    readings, actions = _perfect(truth)
    won = copy.deepcopy(readings)
    won[2]["status"] = "won"
    verdict = judge(truth, _write(tmp_path / "rec", won, actions), [{"game": 1, "outcome": "won"}])
    # The reading, and the game reported won though the clone ended it lost.
    assert verdict.false_won == 2 and verdict.faults == 2, verdict.to_json()
    lost = copy.deepcopy(readings)
    lost[2]["status"] = "lost"
    assert judge(truth, _write(tmp_path / "rec2", lost, actions)).false_lost == 1


def test_a_click_beside_the_board_is_a_click_outside(truth: Truth, tmp_path: Path) -> None:
    readings, actions = _perfect(truth)
    _, xs, _ = truth.boxes[-1]
    beside = [*actions, {**actions[0], "x": xs[-1][1] + 6, "row": None, "col": None}]
    verdict = judge(truth, _write(tmp_path / "rec", readings, beside))
    assert verdict.clicks_outside == 1 and verdict.faults == 1, verdict.to_json()
    assert verdict.examples["clicks_outside"][0]["on"] == "main"  # the clone's window
    # A click meant for one cell that lands on its neighbour.
    off = [*actions[:1], {**actions[1], "x": actions[1]["x"] + (xs[1][0] - xs[0][0])}, *actions[2:]]
    assert judge(truth, _write(tmp_path / "rec2", readings, off)).clicks_wrong_cell == 1


def test_a_click_on_a_board_that_moved_a_moment_before_is_on_its_new_cell(
    truth: Truth, tmp_path: Path
) -> None:
    """Zoo seed 1627108470: a label beside the board grew, the board moved 10 px,
    and msbot's next clicks, made on the board where it now was, were counted
    on the cells the layout of 0.2 s before put there (14 "on another cell")."""
    readings, actions = _perfect(truth)
    _, xs, ys = truth.boxes[-1]
    pitch = xs[1][0] - xs[0][0]
    moved = copy.deepcopy(truth)
    at = actions[1]["time"] - 0.1  # the board one cell to the right from here
    moved.boxes.append((at, [[a + pitch, b + pitch] for a, b in xs], ys))
    moved.boxes.sort(key=lambda b: b[0])
    there = {**actions[1], "x": actions[1]["x"] + pitch}
    verdict = judge(moved, _write(tmp_path / "rec", readings, [actions[0], there]))
    assert verdict.clicks_wrong_cell == 0 and verdict.clicks_on_cells == 2, verdict.to_json()
    # A click on the cell beside it by either layout is on another cell still.
    beside = {**actions[1], "x": actions[1]["x"] + 3 * pitch}
    verdict = judge(moved, _write(tmp_path / "rec2", readings, [actions[0], beside]))
    assert verdict.clicks_wrong_cell == 1, verdict.to_json()


def test_an_open_that_ends_a_game_of_another_size_may_land_on_any_cell(
    truth: Truth, tmp_path: Path
) -> None:
    """Zoo seed 762546751: the grid of a game of another size that a level menu
    started took a toolbar's line in as its first row; msbot opened its cells
    to end it, each a row below its grid's index: on a cell, never a wrong
    one (no board msbot plays), but a click beside every cell is outside."""
    readings, actions = _perfect(truth)
    _, xs, _ = truth.boxes[-1]
    pitch = xs[1][0] - xs[0][0]
    why = "learn: end the game of another size the menu started"
    ending = {**actions[1], "x": actions[1]["x"] + pitch, "why": why}
    verdict = judge(truth, _write(tmp_path / "rec", readings, [actions[0], ending]))
    assert verdict.clicks_wrong_cell == 0 and verdict.clicks_on_cells == 2, verdict.to_json()
    beside = {**ending, "x": xs[-1][1] + 6}
    verdict = judge(truth, _write(tmp_path / "rec2", readings, [actions[0], beside]))
    assert verdict.clicks_outside == 1, verdict.to_json()
