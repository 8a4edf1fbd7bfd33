"""A learned restart button says the game is over, not who won (GNOME Mines' "Play Again").

Found by the live-learning benchmark: `learn-skin --live` learned GNOME Mines'
"Play Again" button at the end of a won game and saved its picture as the
"won" face. GNOME shows the same button after a loss, so every later lost
board was read as won; the learner then took the red hit mine for a mine
shown on a closed cell of a won board and named it "*" (4 sure misreads in
the 30-game run). The frames here are real: a GNOME 8x8 game lost on a guess
at (0, 2), the board just before, and the fresh board after the restart; the
skin is the one that run learned, its end picture under "over" as the
learner now saves it (and the red hit mine, wrongly named there, left out).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2

from bot.learning.restart import _control
from vision.image_io import load_image
from vision.reader import BoardReader
from vision.reading import Reading
from vision.skin import load_skin
from vision.status import OVER

DATA = Path(__file__).resolve().parent / "data" / "gnome-play-again"
#: The "Play Again" button in the frames (window pixels), which msbot clicked at (541, 309).
BUTTON = (466, 280, 616, 338)


def _read(skin_dir: Path, frame: str) -> Reading:
    return BoardReader([load_skin(skin_dir)]).read_fresh(load_image(DATA / frame))


def test_the_end_picture_of_a_learned_button_names_no_outcome() -> None:
    fresh = load_image(DATA / "fresh.png")
    geo = _read(DATA / "skin", "fresh.png").geometry
    for outcome in ("won", "lost"):
        control = _control(
            BUTTON,
            geo,
            fresh,
            load_image(DATA / "lost.png"),
            load_image(DATA / "played.png"),
            541,
            309,
            outcome,
        )
        assert set(control.images) == {"playing", OVER}


def test_play_again_over_a_lost_board_is_not_read_as_won() -> None:
    reading = _read(DATA / "skin", "lost.png")
    assert reading.status == "playing"
    # The hit mine is a picture this skin never named: unsure, not a mine shown.
    assert [(u.row, u.col) for u in reading.unknown] == [(0, 2)]
    assert reading.board[(0, 2)] != "*"


def test_the_same_picture_saved_as_won_misread_the_loss(tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(DATA / "skin", old)
    manifest = json.loads((old / "skin.json").read_text())
    manifest["faces"]["images"] = {
        "playing": manifest["faces"]["images"]["playing"],
        "won": manifest["faces"]["images"][OVER],
    }
    (old / "skin.json").write_text(json.dumps(manifest))
    assert _read(old, "lost.png").status == "won"
    assert _read(old, "played.png").status == "playing"


def test_with_the_hit_mine_named_the_lost_board_reads_lost(tmp_path: Path) -> None:
    named = tmp_path / "named"
    shutil.copytree(DATA / "skin", named)
    manifest = json.loads((named / "skin.json").read_text())
    # The hit mine's picture, cut from the lost frame at the cell msbot opened last.
    g = _read(named, "lost.png").geometry
    x0, y0 = round(g.left + 2 * g.cell_w), round(g.top)
    frame = cv2.imread(str(DATA / "lost.png"))
    hit = frame[y0 : y0 + round(g.cell_h), x0 : x0 + round(g.cell_w)]
    cv2.imwrite(str(named / "tiles" / "exploded_hit.png"), hit)
    manifest["tiles"]["!"] = ["tiles/exploded_hit.png"]
    manifest["board_status"]["lost_if_any"] = "!"
    (named / "skin.json").write_text(json.dumps(manifest))
    again = _read(named, "lost.png")
    assert again.status == "lost"
    assert again.board[(0, 2)] == "!"
    assert not again.unknown
