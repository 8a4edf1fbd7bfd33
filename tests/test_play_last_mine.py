"""The last safe cell is open: no flag is sent while the clone draws its end.

GNOME Mines at 23 px in a 560x560 window (CI, stop 39): the guess that
opened the last safe cell left one covered mine; the next reading, grabbed
before the clone drew its scores window over the board, still said
"playing", the plan flagged that mine, and the click check found the scores
window under the cell: the game was won and the run stopped. The board
proves the win (every closed cell a certain mine, a clone that does not need
flags to declare it), so the loop first waits for the clone to show its end.

Display-free: the real loop on the real frame (`tests/data/gnome-last-mine/`,
that run's screenshot), then the same frame with the
mine flagged as GNOME Mines draws its won board, through a Mouse that
records every input.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from test_play_never_acts_unread import InputLog

from bot.actuator import Actuator
from bot.play.loop import Player, PlayOptions
from bot.play.recorder import Recorder
from vision.capture import Image, Region, Screen
from vision.capture._base import crop, freeze
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.skin import load_skins

FRAME = Path(__file__).resolve().parent / "data" / "gnome-last-mine" / "only-mines-left.png"
#: Grabs the first picture lasts: enough for the loop to read it, plan and
#: click (it clicked on the 10th grab before the fix), far fewer than the
#: loop's wait for the end polls.
FIRST_GRABS = 20


class TwoPictures(Screen):
    """Shows `first` for `grabs` grabs, then `then` for good."""

    def __init__(self, first: np.ndarray, then: np.ndarray, grabs: int) -> None:
        self.first, self.then, self.left = freeze(first), freeze(then), grabs

    @property
    def size(self) -> tuple[int, int]:
        return self.first.shape[1], self.first.shape[0]

    def grab(self, region: Region | None = None) -> Image:
        self.left -= 1
        return crop(self.first if self.left >= 0 else self.then, region)


def test_no_flag_goes_on_a_board_whose_last_safe_cell_is_open(tmp_path: Path) -> None:
    reader = BoardReader(load_skins(["gnome-mines"]))
    first = load_image(FRAME)
    reading = reader.read_fresh(first)
    g = reading.geometry
    closed = [cell for cell in reading.board.cells() if reading.board[cell] == "."]
    assert reading.status == "playing" and len(closed) == 1 and reading.mines_left == 1
    ((row, col),) = closed
    # The won board: that mine flagged (GNOME Mines flags every mine on a win),
    # drawn with the picture of a flag of the same board.
    flag = next(cell for cell in reading.board.cells() if reading.board[cell] == "F")
    won = first.copy()
    h, w = round(g.cell_h), round(g.cell_w)

    def corner(r: int, c: int) -> tuple[int, int]:
        return round(g.top + r * g.cell_h), round(g.left + c * g.cell_w)

    (y0, x0), (y1, x1) = corner(*flag), corner(row, col)
    won[y1 : y1 + h, x1 : x1 + w] = first[y0 : y0 + h, x0 : x0 + w]
    assert reader.read_fresh(won).status == "won"

    mouse = InputLog()
    recorder = Recorder(tmp_path / "rec", {"command": ["test"]})
    player = Player(
        TwoPictures(first, won, FIRST_GRABS),
        reader,
        Actuator(mouse),
        PlayOptions(games=1, effect_timeout=0.3, stall_timeout=0.3),
        recorder,
        say=lambda _: None,
    )
    try:
        session = player.run()
    finally:
        recorder.close()
    (game,) = session.games
    assert game.outcome == "won", game
    assert mouse.inputs == []
