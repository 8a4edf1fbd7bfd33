"""sgt-mines and minegauler at cell sizes other than their skins' first ones, and tiny boards.

sgt-mines scales its tiles with MINES_TILESIZE or a resized window, and
minegauler its buttons with its btn_size setting; both draw at a whole-pixel
pitch. Their skins declare the flat colours of covered and open cells and
the inks of the digits (`vision.colour`), and carry a few tiles cut at other
sizes, so that cells are read right at sizes no tile was cut at, or reported
unsure, never misread.

The frames in tests/data/cell-sizes are real Xvfb screenshots (the window and
8 px of the screen around it) of games on mine layouts chosen beforehand,
made by `scripts/record_cell_sizes.py`: each game is played with the same
clicks at every cell size it is recorded at (sgt-mines 11 to 48 px,
minegauler 14 to 40 px), and three sgt-mines windows are resized after play
(`cell` null: the clone picks its tile size). The labels do not come from
`vision/` nor from any reading of the pixels: each is the layout with the
clicks made played on it by the rules (`harness.known_layout.Truth`: an open
floods from a 0, a flag toggles, a mine opened loses, every safe cell open
wins), drawn as each clone draws a finished game (learned from the clones at
their first sizes, checked by eye at others): a lost sgt-mines board shows
only the mine opened, a won one a flag on every cell not open; a lost
minegauler board shows every mine not flagged ("*"), the one opened ("!")
and wrong flags ("X"), a won one a flag on every mine. The script also checks
every batch of clicks on the screen: exactly the cells the rules changed
changed. The counter is mines minus flags, null where it is not shown whole
or not where the skin reads it: a finished sgt-mines game shows "COMPLETED!"
or "DEAD!" instead; a sgt-mines window narrower than its status text cuts it
("Marked: 3 / 2..." at 14 px, the total cut: null; "Marked: 3 / 26 (8..."
at 16 px: read); a minegauler board much narrower than its panel is centred
under it, away from the counter (a board one cell wide: null). The script's
docstring says how each rule was measured.

The layouts: a 9x9 board with 26 mines that shows every digit 0-8 (each 5-8
walled in by mines and opened on purpose), played to a loss; the 8x8 boards
of the earlier frames, played to a win; busy boards at 11 and 14 px, mostly
opened (rows of numbers cut such boards into pieces for the lattice finder),
16x30 with a 7 and an 8 planted; tiny boards (8x1, 1x8, 4x3, 3x4); and a
minegauler 8x8 board at 14 px, below its own settings' 16 px, that must be no
board (`NO_BOARD`).

The e2e tests play one real beginner game on each clone at a size its
recordings do not have; `tests/test_play_known_layout.py` plays live games on
chosen layouts at other cell sizes, every reading judged by the truth.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from bot_runs import assert_played_to_the_end, play

from bot.errors import VisionError
from harness.clones import BoardSize, RunningClone
from harness.xdisplay import VirtualDisplay
from vision.classify import TileBank
from vision.colour import ColourTable, allowed_kinds, cell_colours, cell_inks
from vision.image_io import load_image
from vision.reader import BoardReader

LaunchClone = Callable[..., RunningClone]

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "cell-sizes"
LABELS = [json.loads(line) for line in (DATA / "labels.jsonl").read_text().splitlines()]
#: Frames that must be no board (their labels are the truth all the same).
NO_BOARD = ("minegauler-8x8n10-sparse-14px-piece.png",)
READ = [lab for lab in LABELS if lab["frame"] not in NO_BOARD]


@pytest.fixture(scope="module")
def reader() -> BoardReader:
    return BoardReader()


@pytest.mark.parametrize("label", READ, ids=[lab["frame"] for lab in READ])
def test_frame_at_another_cell_size_is_read_exactly(
    reader: BoardReader, label: dict[str, Any]
) -> None:
    reader.forget()
    reading = reader.read_fresh(load_image(DATA / label["frame"]))
    assert reading.skin == label["skin"]
    assert reading.unknown == ()
    assert list(reading.board.rows) == label["board"]
    assert reading.mines_left == label["mines_left"]
    assert reading.status == label["status"]
    if label["cell"] is not None:
        assert (reading.geometry.cell_w, reading.geometry.cell_h) == (label["cell"], label["cell"])


def test_the_frames_cover_the_sizes_and_kinds_meant() -> None:
    """The data really spans small to large cells and every kind each clone shows."""
    for skin, sizes, kinds in (
        ("sgt-mines", {11, 12, 13, 14, 16, 18, 24, 27, 32, 36, 40, 48}, set(".F!012345678")),
        ("minegauler", {14, 16, 20, 22, 24, 28, 32, 36, 40}, set(".F!*X012345678")),
    ):
        mine = [lab for lab in LABELS if lab["skin"] == skin]
        assert sizes <= {lab["cell"] for lab in mine}
        assert kinds <= set("".join("".join(lab["board"]) for lab in mine))
        assert {"playing", "won", "lost"} <= {lab["status"] for lab in mine}
    assert any(len(lab["board"]) == 1 for lab in LABELS)  # a board one row high
    assert any(len(lab["board"][0]) == 1 for lab in LABELS)  # and one column wide
    resized = [lab for lab in LABELS if "-resized-" in lab["frame"]]
    assert len(resized) == 3 and all(lab["cell"] is None for lab in resized)
    # Mostly opened busy boards at small cells (the play loop's hard cases).
    busy = {
        (lab["frame"].split("-busy-")[0], lab["cell"])
        for lab in LABELS
        if "-busy-" in lab["frame"] and "".join(lab["board"]).count(".") < 40
    }
    assert {("sgt-mines-16x16n40", 11), ("sgt-mines-16x16n40", 14)} <= busy
    assert ("sgt-mines-30x16n99", 11) in busy
    assert all((DATA / name).exists() for name in NO_BOARD)


def _bank(skin: str) -> TileBank:
    return next(b for b in BoardReader().banks if b.skin.name == skin)


def test_a_digits_ink_names_it_and_an_ink_rules_out_covered_and_zero() -> None:
    """A grey cell with a few teal pixels can only be a 6 (not a 5, not a 0),
    whatever the glyph distances say; a cell with no ink cannot be a number."""
    bank = _bank("sgt-mines")
    table = bank.colours
    assert table is not None
    cell = np.full((20, 20, 3), (0xDA, 0xDA, 0xDA), np.uint8)  # sgt-mines' open grey (BGR)
    cell[6:14, 9:11] = (0x80, 0x80, 0x00)  # a teal stroke: '#008080'
    x0, x1, y0, y1 = (np.array([v]) for v in (0, 20, 0, 20))
    inks = cell_inks(cell, x0, x1, y0, y1, table)
    seen = cell_colours(cell, x0, x1, y0, y1, table.probe)
    allowed, unmatched = allowed_kinds(seen, table, len(bank.kinds), inks)
    assert not unmatched[0]
    named = {
        k
        for k, a in zip(bank.kinds, allowed[0], strict=True)
        if a and table.declared[bank.kinds.index(k)]
    }
    assert named == {"6"}
    blank = np.full((20, 20, 3), (0xDA, 0xDA, 0xDA), np.uint8)
    allowed, _ = allowed_kinds(
        cell_colours(blank, x0, x1, y0, y1, table.probe),
        table,
        len(bank.kinds),
        cell_inks(blank, x0, x1, y0, y1, table),
    )
    assert {k for k, a in zip(bank.kinds, allowed[0], strict=True) if a} & set("12345678.") == set()
    assert allowed[0][bank.kinds.index("0")]


def test_mode_colour_is_the_background_even_when_a_bold_glyph_fills_the_middle() -> None:
    """sgt-mines' bold 1 at 16 px covers most of the middle: the median would be a
    blend, the commonest exact colour is still the open grey."""
    cell = np.full((16, 16, 3), 0xDA, np.uint8)
    cell[3:13, 5:11] = (0xFF, 0x00, 0x00)  # 60 of 256 pixels blue, many samples
    x0, x1, y0, y1 = (np.array([v]) for v in (0, 16, 0, 16))
    assert cell_colours(cell, x0, x1, y0, y1, "mode").tolist() == [[0xDA, 0xDA, 0xDA]]
    table = ColourTable.build(("0", "1"), {}, 1, {"0": [], "1": [(0xFF, 0, 0)]}, 24)
    assert table is not None
    assert cell_inks(cell, x0, x1, y0, y1, table).tolist() == [[True]]


# --- real games at sizes the recordings do not have ------------------------------------------


@pytest.mark.clone
@pytest.mark.parametrize(("name", "cell"), [("sgt-mines", 32), ("minegauler", 24)])
def test_a_whole_beginner_game_at_another_cell_size(
    virtual_display: VirtualDisplay, clone: LaunchClone, name: str, cell: int, tmp_path: Path
) -> None:
    """The bot plays to the end: a win, or a loss on a guess, never a stop or a
    loss on a move the solver called certain; the board it read has the size meant."""
    clone(name, BoardSize(9, 9, 10), (230, 140), cell_size=cell)
    run = play(virtual_display.display, "--games", "1", "--record", str(tmp_path), timeout=120)
    assert_played_to_the_end(run, 1)
    readings = [json.loads(line) for line in (tmp_path / "readings.jsonl").read_text().splitlines()]
    assert readings[0]["skin"] == name
    assert (readings[0]["geometry"]["cell_w"], readings[0]["geometry"]["rows"]) == (cell, 9)
    assert readings[-1]["status"] in ("won", "lost")


def test_a_line_of_covered_cells_of_a_bigger_board_is_no_board(reader: BoardReader) -> None:
    """minegauler at 14 px buttons (below its own settings dialog's 16): only a
    column of four covered cells reads surely; the flags and numbers beside
    it do not. Taken for a 4x1 board it would give the solver edges that are
    not there, so nothing is found (the bot stops) rather than that."""
    reader.forget()
    with pytest.raises(VisionError, match="no Minesweeper board"):
        reader.read_fresh(load_image(DATA / NO_BOARD[0]))
