"""The play loop never acts on a cell it cannot read, nor on a board that breaks
the rules: display-free, the real loop (`bot.play.loop.Player`) on a recorded
mid-game frame, driven through a Mouse that records every input.

The screen is the frame, still (`StillScreen`): whatever msbot does, it shows
the same picture. Two faults are painted into it:
- one covered cell painted a colour no skin knows: that cell reads unsure;
- one number replaced by the skin's own 8 where at most three covered cells
  touch it: the rules say no such picture can be (`vision.rules`), so it
  reads unsure;
- one number raised to a value its own cells could hold, but not together
  with the numbers around it: every cell reads surely, and the solver finds
  no placement of mines.
In each the loop must stop with a message naming the cell, and no input may
ever land on that cell (no click, no pointer move).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from bot.actuator import Actuator, Mouse
from bot.actuator._base import Button
from bot.play.loop import Player, PlayOptions
from bot.play.recorder import Recorder
from vision.capture import Image, Region, Screen
from vision.capture._base import crop, freeze
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.skin import load_skins

RECORDING = Path(__file__).resolve().parents[1] / "recordings" / "xdemineur-beginner-1"


class StillScreen(Screen):
    """A screen that always shows one picture."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = freeze(image)

    @property
    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]

    def grab(self, region: Region | None = None) -> Image:
        return crop(self.image, region)


class InputLog(Mouse):
    """Records every input at a screen point (and every key) instead of making it."""

    def __init__(self) -> None:
        self.inputs: list[tuple[str, int, int]] = []

    def click(self, x: int, y: int, button: Button) -> None:
        self.inputs.append((f"click {button}", x, y))

    def click_both(self, x: int, y: int) -> None:
        self.inputs.append(("click both", x, y))

    def key(self, name: str) -> None:
        self.inputs.append((f"key {name}", -1, -1))

    def move(self, x: int, y: int) -> None:
        self.inputs.append(("move", x, y))


def _label() -> dict[str, object]:
    first = (RECORDING / "labels.jsonl").read_text().splitlines()[0]
    label: dict[str, object] = json.loads(first)
    assert label["status"] == "playing"
    return label


def _play(image: np.ndarray, tmp_path: Path) -> tuple[str, list[tuple[str, int, int]], object]:
    """Runs one game of the real play loop on `image`; (its stop, the inputs, the grid)."""
    mouse = InputLog()
    said: list[str] = []
    recorder = Recorder(tmp_path / "rec", {"command": ["test"]})
    player = Player(
        StillScreen(image),
        BoardReader(load_skins(["xdemineur"])),
        Actuator(mouse),
        # A still screen never shows a click's effect: given up on soon.
        PlayOptions(games=1, effect_timeout=0.3, stall_timeout=0.3),
        recorder,
        say=said.append,
    )
    try:
        session = player.run()
    finally:
        recorder.close()
    (game,) = session.games
    assert game.outcome == "stopped", (game, said)
    return (
        game.message,
        mouse.inputs,
        BoardReader(load_skins(["xdemineur"]))
        .locate(load_image(RECORDING / "frames" / "0000.png"))
        .geometry,
    )


def _box(geo: object, row: int, col: int) -> tuple[int, int, int, int]:
    g = geo
    x0 = round(g.left + col * g.cell_w)  # type: ignore[attr-defined]
    y0 = round(g.top + row * g.cell_h)  # type: ignore[attr-defined]
    return x0, y0, round(x0 + g.cell_w), round(y0 + g.cell_h)  # type: ignore[attr-defined]


def _none_on(inputs: list[tuple[str, int, int]], box: tuple[int, int, int, int]) -> list[object]:
    x0, y0, x1, y1 = box
    return [i for i in inputs if x0 <= i[1] < x1 and y0 <= i[2] < y1]


def test_a_cell_painted_a_colour_no_skin_knows_stops_the_game_and_is_never_touched(
    tmp_path: Path,
) -> None:
    image = load_image(RECORDING / "frames" / "0000.png").copy()
    board = [str(row) for row in _label()["board"]]  # type: ignore[attr-defined]
    geo = BoardReader(load_skins(["xdemineur"])).locate(image).geometry
    # A covered cell the solver would otherwise have a say on: beside open cells.
    r, c = next(
        (r, c)
        for r, row in enumerate(board)
        for c, ch in enumerate(row)
        if ch == "." and c + 1 < len(row) and row[c + 1] in "12345678"
    )
    x0, y0, x1, y1 = _box(geo, r, c)
    image[y0 + 2 : y1 - 2, x0 + 2 : x1 - 2] = (255, 0, 255)
    stop, inputs, _ = _play(image, tmp_path)
    assert "cells unreadable" in stop and f"({r}, {c})" in stop, stop
    assert _none_on(inputs, (x0, y0, x1, y1)) == []
    # The loop read the board and stopped before any click at all.
    assert not [i for i in inputs if i[0].startswith("click")], inputs


def _covered_around(board: list[str], r: int, c: int) -> int:
    return sum(
        board[rr][cc] == "."
        for rr in range(max(0, r - 1), min(len(board), r + 2))
        for cc in range(max(0, c - 1), min(len(board[0]), c + 2))
        if (rr, cc) != (r, c)
    )


def test_an_impossible_number_reads_unsure_stops_the_game_and_is_never_touched(
    tmp_path: Path,
) -> None:
    """An 8 where at most three covered cells touch it breaks the rules on its
    own (`vision.rules.numbers_broken`): it is not read, nor its cells around."""
    image = load_image(RECORDING / "frames" / "0000.png").copy()
    board = [str(row) for row in _label()["board"]]  # type: ignore[attr-defined]
    skin = load_skins(["xdemineur"])[0]
    geo = BoardReader([skin]).locate(image).geometry
    eight = skin.tiles["8"][0]
    assert eight.shape[:2] == (round(geo.cell_h), round(geo.cell_w))
    r, c = next(
        (r, c)
        for r, row in enumerate(board)
        for c, ch in enumerate(row)
        if ch == "1" and _covered_around(board, r, c) <= 3
    )
    x0, y0, x1, y1 = _box(geo, r, c)
    image[y0:y1, x0:x1] = eight
    reread = BoardReader([skin]).read_fresh(image)
    assert (r, c) in reread.unread  # the 8 the tiles name is not read
    stop, inputs, _ = _play(image, tmp_path)
    assert "cells unreadable" in stop and f"({r}, {c})" in stop, stop
    assert _none_on(inputs, (x0, y0, x1, y1)) == []
    assert not [i for i in inputs if i[0].startswith("click")], inputs


def test_numbers_that_contradict_each_other_stop_the_game_naming_it(tmp_path: Path) -> None:
    """A number each of whose neighbourhoods could hold its mines, but not
    together with the numbers around it: every cell reads surely, and the solver
    finds no placement of mines; the loop stops naming the cell, no input on it."""
    from bot.commands.replay import intended_actions

    board = [str(row) for row in _label()["board"]]  # type: ignore[attr-defined]
    skin = load_skins(["xdemineur"])[0]
    frame = load_image(RECORDING / "frames" / "0000.png")
    geo = BoardReader([skin]).locate(frame).geometry
    found = None
    for r, row in enumerate(board):
        for c, ch in enumerate(row):
            if ch not in "1234567":
                continue
            for digit in range(int(ch) + 1, _covered_around(board, r, c) + 1):
                image = frame.copy()
                x0, y0, x1, y1 = _box(geo, r, c)
                image[y0:y1, x0:x1] = skin.tiles[str(digit)][0]
                reading = BoardReader([skin]).read_fresh(image)
                if not reading.certain or reading.board.rows[r][c] != str(digit):
                    continue
                _, _, problems = intended_actions(reading, "zero")
                if problems and "no mine placement" in problems[0]:
                    found = (r, c, digit, image)
                    break
            if found:
                break
        if found:
            break
    assert found is not None, "no number of this frame can be made to contradict the others"
    r, c, digit, image = found
    stop, inputs, _ = _play(image, tmp_path)
    assert "inconsistent" in stop and "no mine placement" in stop and f"({r}, {c})" in stop, stop
    assert _none_on(inputs, _box(geo, r, c)) == []
    assert not [i for i in inputs if i[0].startswith("click")], inputs


def test_the_frame_unpainted_is_played(tmp_path: Path) -> None:
    """The control: the same frame, unpainted, gets clicks (the loop does act on
    a board it reads; it stops when they never show), so the two tests above
    fail if the loop stops before clicking for another cause."""
    stop, inputs, _ = _play(load_image(RECORDING / "frames" / "0000.png"), tmp_path)
    assert [i for i in inputs if i[0].startswith("click")], (stop, inputs)
    assert "cells unreadable" not in stop and "contradicts" not in stop, stop
